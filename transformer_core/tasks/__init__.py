"""The tasks: ONE `Task` per thing a model is trained to do, and the registry every other module asks.

A task knows its tokenizer, its endless training stream, its held-out examples with their gold alignment
(`held_out(tokenizer, n, seed)`: never trained on, the hash split of grammar/splits.py), the text of its model
card, its goals and its probe sentence. Evaluation, corpus statistics, head importance, the lab, the explain
service and the pages call these methods and read these fields; no module outside this one compares task
names (tests/test_task_registry.py holds that).

Names: `TASKS` is keyed by what a model dir's config.json says under "task" ('ko-en', 'reverse',
'letters-copy', ...); `LAB_TASKS` by what the training lab offers ('ko-en', 'reverse', 'copy', 'sort',
'speech-level'). The lab's ko-en is the same task on the grammar's compact core (`core=True`).

Adding a task: a subclass (or an instance) of `Task` below and one line in `TASKS` (and in `LAB_TASKS` when
the lab offers it); its data generator lives in transformer_core/data/.
"""

from __future__ import annotations

import inspect
import random
from collections.abc import Iterator
from dataclasses import dataclass, replace

from transformer_core.data import BOS_ID, EOS_ID, UNK_ID, is_held_out
from transformer_core.data.reverse import MAX_CHARS, ReverseData
from transformer_core.data.tokenization import (
    TRAINING_GRAMMAR,
    build_ko_en_tokenizer,
    build_letter_tokenizer,
    build_reverse_tokenizer,
    training_grammar,
)
from transformer_core.grammar.base import REGISTERS, KoEnGrammar
from transformer_core.grammar.generator import ko_en_grammar as grammar_named
from transformer_core.tasks.heldout import REAL_SENTENCES, Example, anti_diagonal_gold
from transformer_core.tasks.texts import CARD_NOTES, DESCRIPTIONS, LAB_KO_EN_NOTES, LETTER_NOTES

LETTERS = "abcdefghijklmnopqrstuvwxyz"
LETTER_LENGTHS = (3, 12)  # shortest and longest letter string the lab trains and tests on
PROBE_MAX_TOKENS = 24  # the longest sentence the lab records as its probe


@dataclass
class LengthLimit:
    """The longest text the reverse data may produce right now (raised by the length curriculum)."""

    current: int = MAX_CHARS


def word_ids(vocab: dict[str, int], words) -> list[int]:
    """Word-level ids (unknown words would be <unk>, but the grammar only writes known words)."""
    return [vocab.get(word, vocab["<unk>"]) for word in words]


def char_ids(vocab: dict[str, int], text: str) -> list[int]:
    return [vocab.get(char, vocab["<unk>"]) for char in text]


def has_core_grammar() -> bool:
    """True when KoEnGrammar offers `core=True` (the compact everyday grammar the lab trains on)."""
    return "core" in inspect.signature(KoEnGrammar).parameters


def ko_en_grammar(seed: int, core: bool = False, whole: str = TRAINING_GRAMMAR) -> KoEnGrammar:
    """The ko-en grammar: its compact core when `core` and the grammar has one, else the whole grammar `whole`
    (the one grammar, "everyday-korean"; its old name "learner10" too)."""
    return grammar_named(seed, "core" if core and has_core_grammar() else whole)


@dataclass(frozen=True)
class Task:
    """What a model is trained to do. Subclasses fill in the data; the fields are what pages and cards say."""

    name: str  # config.json's "task"
    lab_name: str = ""  # the name the training lab offers it by ('' = not a lab task)
    lab_stream: str = ""  # the lab's training stream when it differs from `name` ('lab-ko-en': the core grammar)
    family: str = ""  # what the lesson's text may say it does: 'ko-en', 'reverse', 'copy', 'sort' ('' = none)
    description: str = ""  # one paragraph, stored in config.json's "description"
    card_notes: str = ""  # the model card's data section
    lab_description: str = ""  # the lab's model of it, when that differs (ko-en: the compact core)
    lab_card_notes: str = ""
    goals: tuple[float, float] = (0.95, 0.85)  # (exact match, alignment) a lab run aims for
    probe: str = ""  # the lab's default probe sentence
    korean_source: bool = False  # its inputs are Korean sentences (corpus: the wrong-language check)
    letters: bool = False  # a-z strings (the lab: a 30-token vocabulary, short sequences, cheap steps)
    anti_diagonal: bool = False  # its right attention is the anti-diagonal (the lab says how close it is)
    classifier: bool = False  # an encoder + [CLS] label, not a translation (training/classify.py)
    grammar: bool = False  # the ko-en grammar's pairs: the whole grammar or its compact core (config.json "grammar")
    explain_sample: int = 0  # held-out examples the explain page scores heads on (0 = no gold alignment)

    def tokenizer(self, lab: bool = False):
        raise ValueError(f"task {self.name!r} names no tokenizer")

    def training_pairs(self, vocab: dict[str, int], seed: int, core: bool = False, limit: LengthLimit | None = None,
                       style_weights: tuple[int, ...] = ()) -> Iterator[tuple[list[int], list[int]]]:
        """Endless (source ids + EOS, target ids) pairs from the training side of the split."""
        raise ValueError(f"task {self.name!r} has no translation stream")

    def held_out(self, tokenizer, n: int, seed: int, core: bool = False) -> list[Example]:
        """`n` distinct held-out examples with their gold alignment (never trained on)."""
        raise ValueError(f"task {self.name!r} has no held-out translation examples")

    def reference_texts(self, n: int, seed: int) -> list[str]:
        """Training-side texts (a fixed reference set for mean ablation); the hand-written sentences by default."""
        return list(REAL_SENTENCES)

    def probe_problem(self, text: str, tokenizer) -> dict | None:
        """Why `text` cannot be the lab's probe, or None if it fits: {'reason': 'empty'},
        {'reason': 'unknown', 'words': [...]} (the words whose pieces are outside the vocabulary, in order),
        {'reason': 'too_long', 'n': tokens, 'limit': PROBE_MAX_TOKENS}."""
        text = text.strip()
        if not text:
            return {"reason": "empty"}
        unknown = [word for word in text.split() if UNK_ID in tokenizer(word)["input_ids"]]
        if unknown:
            return {"reason": "unknown", "words": unknown}
        n = len(tokenizer(text)["input_ids"])
        return {"reason": "too_long", "n": n, "limit": PROBE_MAX_TOKENS} if n > PROBE_MAX_TOKENS else None

    def fits_probe(self, text: str, tokenizer) -> bool:
        """Whether `text` can be the lab's probe: every piece known, short enough."""
        return self.probe_problem(text, tokenizer) is None

    def meets_goal(self, exact: float, alignment: float) -> bool:
        want_exact, want_alignment = self.goals
        return exact >= want_exact and alignment >= want_alignment


@dataclass(frozen=True)
class KoEnTask(Task):
    """Korean -> English on the synthetic grammar, each pair with its gold word alignment. `whole_grammar`:
    the grammar new models train on (TRAINING_GRAMMAR, or env TRANSFORMER_EXPLORER_TRAINING_GRAMMAR for one run);
    `model_task` binds it to the one grammar (config.json's "grammar" names it, by its old name "learner10" in the
    bundled models; a model of an older grammar, or of none, gets the one grammar's held-out sentences)."""

    whole_grammar: str = TRAINING_GRAMMAR

    def tokenizer(self, lab: bool = False):
        """The joint ko-en tokenizer; the lab's: the compact core's vocabulary (a quarter of the softmax)."""
        if lab and has_core_grammar():
            return build_ko_en_tokenizer(core=True)
        return build_ko_en_tokenizer(grammar=self.whole_grammar)

    def training_pairs(self, vocab, seed, core=False, limit=None, style_weights=()):
        grammar = ko_en_grammar(seed, core, self.whole_grammar)
        while True:
            pair = grammar.sample()
            if not is_held_out(pair.source_text):
                yield [*word_ids(vocab, pair.source), EOS_ID], word_ids(vocab, pair.target)

    def held_out_pairs(self, n: int, seed: int, core: bool = False, max_words: int = 0) -> list:
        """`n` distinct held-out SentencePairs (words, alignment) of the grammar (at most `max_words` Korean
        pieces each, when given)."""
        grammar = ko_en_grammar(seed, core, self.whole_grammar)
        seen: dict[str, object] = {}
        while len(seen) < n:
            pair = grammar.sample()
            if is_held_out(pair.source_text) and (not max_words or len(pair.source) <= max_words):
                seen.setdefault(pair.source_text, pair)
        return list(seen.values())

    def held_out(self, tokenizer, n, seed, core=False):
        vocab = tokenizer.get_vocab()
        return [Example([*word_ids(vocab, pair.source), EOS_ID], word_ids(vocab, pair.target),
                        [tuple(a) for a in pair.alignment], "generated")
                for pair in self.held_out_pairs(n, seed, core)]

    def reference_texts(self, n, seed):
        grammar, texts, seen = KoEnGrammar(seed), [], set()
        while len(texts) < n:
            text = grammar.sample().source_text
            if text not in seen and not is_held_out(text):
                seen.add(text)
                texts.append(text)
        return texts


@dataclass(frozen=True)
class TextReverseTask(Task):
    """Reverse any text of up to 64 characters (the bundled reverse model), character by character."""

    def tokenizer(self, lab: bool = False):
        return build_reverse_tokenizer()

    def training_pairs(self, vocab, seed, core=False, limit=None, style_weights=()):
        data = ReverseData(seed, MAX_CHARS)
        if style_weights:
            data.WEIGHTS = tuple(style_weights)
        while True:
            data.max_chars = limit.current if limit is not None else MAX_CHARS
            example = data.sample_split(held_out=False)
            yield [*char_ids(vocab, example.source), EOS_ID], char_ids(vocab, example.target)

    @staticmethod
    def example(tokenizer, text: str, group: str) -> Example:
        ids = tokenizer(text)["input_ids"]  # characters + EOS
        chars = ids[:-1]
        return Example(ids, chars[::-1], anti_diagonal_gold(len(chars)), group)

    def held_out(self, tokenizer, n, seed, core=False):
        """`n` held-out generated texts (random / words / sentence styles) plus the hand-written sentences."""
        data = ReverseData(seed)
        examples: list[Example] = []
        seen: set[str] = set()
        while len(examples) < n:
            sample = data.sample_split(held_out=True)
            if sample.source in seen:
                continue
            seen.add(sample.source)
            examples.append(self.example(tokenizer, sample.source, sample.style))
        return examples + [self.example(tokenizer, text, "real") for text in REAL_SENTENCES]

    def reference_texts(self, n, seed):
        data = ReverseData(seed)
        return [data.sample_split(held_out=False).source for _ in range(n)]


@dataclass(frozen=True)
class LetterTask(Task):
    """Reverse, copy or sort a string of 3-12 letters a-z (the lab's letter tasks): attention with an
    obvious right answer."""

    def tokenizer(self, lab: bool = False):
        """Character-level tokenizer over a-z; anything else is <unk>."""
        return build_letter_tokenizer(LETTERS)

    def target(self, text: str) -> str:
        return {"reverse": text[::-1], "copy": text, "sort": "".join(sorted(text))}[self.family]

    def gold(self, text: str) -> list[tuple[int, ...]]:
        """For each output letter, the input positions it comes from (sort: every position with that letter)."""
        if self.anti_diagonal:
            return anti_diagonal_gold(len(text))
        if self.family == "sort":
            return [tuple(i for i, c in enumerate(text) if c == letter) for letter in sorted(text)]
        return [(j,) for j in range(len(text))]

    @staticmethod
    def text(rng: random.Random, longest: int = LETTER_LENGTHS[1]) -> str:
        return "".join(rng.choices(LETTERS, k=rng.randint(LETTER_LENGTHS[0], longest)))

    def training_pairs(self, vocab, seed, core=False, limit=None, style_weights=()):
        rng = random.Random(seed)
        while True:
            text = self.text(rng)
            if not is_held_out(text):
                yield [*char_ids(vocab, text), EOS_ID], char_ids(vocab, self.target(text))

    def held_out(self, tokenizer, n, seed, core=False):
        vocab = tokenizer.get_vocab()
        rng = random.Random(seed)
        seen: set[str] = set()
        examples: list[Example] = []
        for _ in range(n * 1000):
            if len(examples) >= n:
                break
            text = self.text(rng)
            if text in seen or not is_held_out(text):
                continue
            seen.add(text)
            examples.append(Example([*char_ids(vocab, text), EOS_ID], char_ids(vocab, self.target(text)),
                                    self.gold(text)))
        return examples

    def probe_problem(self, text, tokenizer):
        """As Task's, for letters: {'reason': 'letters', 'chars': [...]} names what is not a-z (␣: a space)."""
        text = text.strip()
        if not text:
            return {"reason": "empty"}
        bad = sorted({c for c in text if c not in LETTERS and not c.isspace()}, key=text.index)[:8]
        if " " in text and len(bad) < 8:
            bad.append("␣")  # a space: the letter tasks take one word
        if bad:
            return {"reason": "letters", "chars": bad}
        limit = 2 * LETTER_LENGTHS[1]
        return {"reason": "too_long", "n": len(text), "limit": limit} if len(text) > limit else None


@dataclass(frozen=True)
class LabelledSentence:
    text: str
    ids: tuple[int, ...]  # <s> + the tokenizer's ids (ending with </s>)
    label: int  # index into SPEECH_LEVELS


SPEECH_LEVELS = REGISTERS  # ("plain", "polite", "formal", "banmal")


def speech_level_sentences(n: int, seed: int, tokenizer=None,
                           exclude: frozenset[str] = frozenset()) -> list[LabelledSentence]:
    """`n` sentences, the four speech levels in turn, drawn from the grammar with `seed` (none of `exclude`)."""
    tokenizer = tokenizer or build_ko_en_tokenizer()
    grammar = KoEnGrammar(seed)
    out: list[LabelledSentence] = []
    while len(out) < n:
        label = len(out) % len(SPEECH_LEVELS)
        text = grammar.sample(SPEECH_LEVELS[label]).source_text
        if text in exclude:
            continue
        out.append(LabelledSentence(text, (BOS_ID, *tokenizer(text)["input_ids"]), label))
    return out


def speech_level_data(seed: int, tokenizer, n_train: int = 4000, n_held_out: int = 400
                      ) -> tuple[list[LabelledSentence], list[LabelledSentence]]:
    """(training, held-out) sentences; the held-out ones come from another seed and never occur in training."""
    train = speech_level_sentences(n_train, seed, tokenizer)
    held_out = speech_level_sentences(n_held_out, seed + 10_000, tokenizer, exclude=frozenset(e.text for e in train))
    return train, held_out


@dataclass(frozen=True)
class SpeechLevelTask(Task):
    """The speech level of a Korean sentence (training/classify.py's encoder + [CLS] classifier): a label per
    sentence; the verb ending, where the level is written, is what its [CLS] attention should find."""

    def tokenizer(self, lab: bool = False):  # Korean sentences of the whole grammar: the full tokenizer
        return build_ko_en_tokenizer()

    def held_out(self, tokenizer, n, seed, core=False):
        """`n` held-out labelled sentences (LabelledSentence, not Example: a label, no output to align)."""
        return speech_level_data(seed, tokenizer, n_held_out=n)[1]


KO_EN = KoEnTask("ko-en", lab_name="ko-en", lab_stream="lab-ko-en", family="ko-en",
                 description=DESCRIPTIONS["ko-en"], card_notes=CARD_NOTES["ko-en"],
                 lab_description=DESCRIPTIONS["lab-ko-en"], lab_card_notes=LAB_KO_EN_NOTES,
                 probe="고양이가 공원에서 생선을 먹었다.", korean_source=True, grammar=True, explain_sample=100,
                 whole_grammar=training_grammar())
TASKS: dict[str, Task] = {task.name: task for task in (
    KO_EN,
    TextReverseTask("reverse", family="reverse", description=DESCRIPTIONS["reverse"],
                    card_notes=CARD_NOTES["reverse"], anti_diagonal=True, explain_sample=60),
    LetterTask("letters-reverse", lab_name="reverse", family="reverse", description=DESCRIPTIONS["letters-reverse"],
               card_notes=LETTER_NOTES, probe="attention", letters=True, anti_diagonal=True),
    LetterTask("letters-copy", lab_name="copy", family="copy", description=DESCRIPTIONS["letters-copy"],
               card_notes=LETTER_NOTES, probe="transformer", letters=True),
    LetterTask("letters-sort", lab_name="sort", family="sort", description=DESCRIPTIONS["letters-sort"],
               card_notes=LETTER_NOTES, probe="language", letters=True),
    SpeechLevelTask("speech-level", lab_name="speech-level",
                    probe="고양이가 공원에서 생선을 먹었어요.", korean_source=True, classifier=True,
                    goals=(0.95, 0.0)),
)}
# Training streams that are a task on part of its data: the lab's ko-en trains on the grammar's compact core
# (its model saves "task": "ko-en" with "grammar": "core"; a stream name may also be found in config.json).
STREAMS: dict[str, tuple[Task, bool]] = {KO_EN.lab_stream: (KO_EN, True)}
LAB_TASKS: dict[str, Task] = {task.lab_name: task for task in TASKS.values() if task.lab_name}
SPEECH_LEVEL = TASKS["speech-level"]


def task_named(name: str) -> Task:
    """The task of a config.json "task" (or an older alias of it); ValueError for an unknown one."""
    task = TASKS.get(name) or STREAMS.get(name, (None, False))[0]
    if task is None:
        raise ValueError(f"unknown task {name!r}; expected one of {', '.join(TASKS)}")
    return task


def lab_task(name: str) -> Task:
    """The task the training lab offers as `name` ('ko-en', 'reverse', 'copy', 'sort', 'speech-level')."""
    task = LAB_TASKS.get(name)
    if task is None:
        raise ValueError(f"unknown lab task {name!r}; expected one of {', '.join(LAB_TASKS)}")
    return task


def model_task(loaded) -> Task | None:
    """The task a loaded model was trained on (config.json's "task", read once at load), or None when it names
    none (never guessed) or one this build does not know."""
    name = getattr(loaded, "task", "")
    task = TASKS.get(name) or STREAMS.get(name, (None, False))[0]
    if isinstance(task, KoEnTask):  # held out from the one grammar (its name, whatever config.json calls it)
        return replace(task, whole_grammar=TRAINING_GRAMMAR)
    return task


def task_stream(stream: str) -> tuple[Task, bool]:
    """(task, core) of a training stream name: a task's own name, or 'lab-ko-en' (ko-en on the core grammar)."""
    if stream in STREAMS:
        return STREAMS[stream]
    return task_named(stream), False


def lab_stream(task: Task) -> str:
    """The training stream the lab trains `task` on ('lab-ko-en' for ko-en, else the task's name)."""
    return task.lab_stream or task.name
