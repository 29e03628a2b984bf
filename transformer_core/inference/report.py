"""Is this sentence inside what the model learned? The honest report behind every page's notice.

Two ways a sentence leaves the training data of a grammar-trained translator:

* unknown words: a word with a piece the vocabulary lacks becomes <unk>; the model cannot see it.
* known words in a construction the grammar never writes (먹어 봤어요, 먹고 갔어요): every piece is known,
  but the model never saw them together like this. The grammar's own recogniser (grammar/recogniser.py)
  finds them: it reduces each word to its shape (N ##에, P ##다, 싶 ##어요) and names the words around a
  pair of neighbouring shapes that the grammar never writes.

Either way the output is a guess, and the pages say so before the output, naming the words.

A translation can also lose a word the model knows, in a construction the grammar writes: fluent, confident and
wrong (우리는 함께 점심을 먹었다 -> "we ate a baker"; 음악 듣는 것을 좋아합니다 -> "I like music"). The grammar's
gold alignments say which English words each content word becomes (grammar/renderings.py: 점심 -> lunch, 듣 ->
listen); a word none of whose English is in the output is named as lost.

Another signal needs no grammar: the model's own confidence, read in the recorded forward as the lead of each
chosen word over the next likeliest one (its "runner-up"): the difference of their logits, ln(p_word / p_runner_up).
The smallest lead over the output is the sentence's confidence. Below a threshold calibrated per model on held-out
sentences of its grammar (`calibrate_min_lead`, stored as config.json's "notice_min_lead", chosen so that it fires
on 2 % of those it translates right), the pages say the model is unsure and name the word and its runner-up.
A lead, not the chosen word's probability: a model trained with a sampled softmax gives its chosen word about half
the probability at every step, right or wrong, the rest spread thin over 17,000 words, and the smallest probability
then told its right outputs from its wrong ones worse (everyday benchmark, the whole notice, the learner10 model
bundled on 2026-11-28: 56 of 76 wrong caught with the probability, 62 with the lead; the learner9 model before it:
70 and 71 of 82; docs/models.md, "The lead over the runner-up"). It catches wrong outputs of sentences whose words
and construction the grammar knows.

    from transformer_core.inference.report import translation_report
    translation_report(transformer_core.load("ko-en-toy"), "나는 피자를 먹고 싶다.")
    python -m transformer_core trace --model ko-en-toy --json "나는 피자를 먹고 싶다."
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, replace

from transformer_core.data.tokenization import UNK_ID

END_MARKS = (".", "?")


@dataclass(frozen=True)
class OutsideReport:
    """Which words of a sentence lie outside the model's training (see the module docstring)."""

    words: list[str]  # the sentence's words as the tokenizer splits them (punctuation apart)
    unknown_words: list[str] = field(default_factory=list)
    outside_constructions: list[str] = field(default_factory=list)  # known words in a pattern never trained
    lost_words: list[str] = field(default_factory=list)  # known words the output does not carry (renderings)
    grammar: str = ""  # the grammar whose recogniser judged the sentence ("" = none: only <unk> is checked)
    confidence: float | None = None  # the smallest lead of a chosen output word (output_confidence; None: not measured)
    min_lead: float = 0.0  # the model's calibrated threshold (0 = no confidence check)

    @property
    def low_confidence(self) -> bool:
        """A word of the output led its runner-up by less than every word does in 98 % of the held-out sentences the
        model translates right."""
        return self.confidence is not None and self.min_lead > 0 and self.confidence < self.min_lead

    @property
    def outside_parts(self) -> list[str]:
        """Every word outside, in sentence order (unknown words and words of unknown constructions)."""
        outside = set(self.unknown_words) | set(self.outside_constructions) | set(self.lost_words)
        return [word for word in self.words if word in outside]

    @property
    def outside_training(self) -> bool:
        return bool(self.unknown_words or self.outside_constructions or self.lost_words or self.low_confidence)


# Korean writes no article: the model's doubt between "a" and "the" is no doubt about the meaning, so articles
# do not count (with them, the threshold sat at 0.88 and fired on the lesson's own sentence, translated right).
ARTICLES = frozenset({"a", "an", "the"})


@dataclass(frozen=True)
class Lead:
    """The output step whose chosen word was least ahead of the likeliest other word (least_lead)."""

    gap: float  # logit of the word - logit of the runner-up = ln(p_word / p_runner_up)
    step: int  # index into the trace's chosen tokens
    word: str
    runner_up_id: int
    runner_up: str  # its token ("" when least_lead was given no tokenizer)
    p_word: float  # softmax probabilities of that step's logits row
    p_runner_up: float


def least_lead(traced, tokenizer=None) -> Lead | None:
    """The chosen output word with the smallest lead over its runner-up (the likeliest other token of that
    step's `logits` row), articles left out both as chosen words and as runners-up, `</s>` included; None for an
    encoder-only trace. `tokenizer` (the model's) names the runner-up and tells the articles; without it
    (tests of the arithmetic) every other token may be the runner-up."""
    import numpy as np

    from transformer_core.tracing.names import LOGITS

    if not traced.has_decoder or not traced.chosen_tokens or traced.generation is None or LOGITS not in traced.trace:
        return None
    logits = np.asarray(traced.trace.numpy(LOGITS), dtype=np.float64)  # [chosen tokens, vocabulary]
    ids = np.asarray(traced.generation.ids)
    chosen = [int(i) for i in ids.reshape(-1, ids.shape[-1])[0][1:]]  # the output's ids after <s>
    if len(chosen) != logits.shape[0] or len(traced.chosen_tokens) != len(chosen) or logits.shape[1] < 2:
        return None
    skip = _article_ids(tokenizer)
    best_gap, best_step, best_runner = None, -1, -1
    for step, (row, word_id, token) in enumerate(zip(logits, chosen, traced.chosen_tokens, strict=True)):
        if token.lower() in ARTICLES:
            continue
        others = row.copy()
        others[[word_id, *skip]] = -np.inf
        runner_id = int(others.argmax())
        gap = float(row[word_id] - row[runner_id])
        if best_gap is None or gap < best_gap:
            best_gap, best_step, best_runner = gap, step, runner_id
    if best_gap is None:
        return None
    row, word_id = logits[best_step], chosen[best_step]
    probs = np.exp(row - row.max())
    probs /= probs.sum()
    runner_up = tokenizer.convert_ids_to_tokens(best_runner) if tokenizer is not None else ""
    return Lead(best_gap, best_step, traced.chosen_tokens[best_step], best_runner, runner_up, float(probs[word_id]),
                float(probs[best_runner]))


def _article_ids(tokenizer) -> list[int]:
    # "I drank tea." against "I drank a tea.": the model's doubt between a word and an article is no doubt about
    # the meaning (with articles as runners-up, the learner10 model called its right 저는 차를 마셨어요. unsure)
    if tokenizer is None:
        return []
    spellings = {case(article) for article in ARTICLES for case in (str.lower, str.capitalize, str.upper)}
    ids = {tokenizer.convert_tokens_to_ids(spelling) for spelling in spellings}
    return sorted(ids - {tokenizer.unk_token_id, None})


def output_confidence(traced, tokenizer=None) -> float | None:
    """The model's confidence in its output: the smallest lead of a chosen word over its runner-up (least_lead),
    in logits; None for an encoder-only trace."""
    lead = least_lead(traced, tokenizer)
    return None if lead is None else lead.gap


def recogniser_grammar(loaded) -> str:
    """The grammar whose recogniser applies to `loaded`: its config.json grammar for ko-en models, by its own name
    (the bundled models' "learner10" is the one grammar's old name); "" for other tasks, checkpoints and models of a
    grammar this tree no longer has (an earlier stage, or none: their sentences are not the one grammar's)."""
    from transformer_core.grammar.base import GRAMMAR_ALIASES
    from transformer_core.grammar.recogniser import has_recogniser
    from transformer_core.tasks import model_task

    task = model_task(loaded)
    if task is None or not task.grammar or not loaded.config.has_decoder:
        return ""
    grammar = getattr(loaded, "grammar", "")
    grammar = GRAMMAR_ALIASES.get(grammar, grammar)
    return grammar if has_recogniser(grammar) else ""


def _pre_tokens(tokenizer, text: str) -> list[str]:
    backend = tokenizer.backend_tokenizer
    normalized = backend.normalizer.normalize_str(text) if backend.normalizer is not None else text
    return [word for word, _ in backend.pre_tokenizer.pre_tokenize_str(normalized)]


def outside_report(loaded, text: str, src_tokens: list[str] | None = None,
                   confidence: float | None = None, output_text: str | None = None) -> OutsideReport:
    """The report of `text` for `loaded` (its tokenizer; `src_tokens`: the pieces a trace already has,
    else the text is tokenized here; `confidence`: output_confidence of that trace, if any; `output_text`: its
    translation, for the lost-word check). Cheap: a vocabulary lookup and set lookups per word."""
    tokenizer = loaded.tokenizer
    words = _pre_tokens(tokenizer, text)
    unknown = [word for word in words if UNK_ID in tokenizer(word, add_special_tokens=False)["input_ids"]]
    grammar = recogniser_grammar(loaded)
    constructions: list[str] = []
    lost: list[str] = []
    if grammar and words:
        from transformer_core.grammar.recogniser import outside_word_indices
        from transformer_core.grammar.renderings import has_renderings, lost_words

        if src_tokens is None:
            src_tokens = tokenizer.convert_ids_to_tokens(tokenizer(text, add_special_tokens=False)["input_ids"])
        pieces = [piece for piece in src_tokens if piece not in tokenizer.all_special_tokens or piece == "<unk>"]
        if pieces and pieces[-1] not in END_MARKS:  # a sentence typed without its final mark reads as one
            pieces = [*pieces, "."]
        for index in outside_word_indices(pieces, grammar):
            if index < len(words) and words[index] not in END_MARKS:  # the mark added above is not named
                constructions.append(words[index])
        if output_text is not None and has_renderings(grammar):
            lost = [words[index] for index in lost_words(pieces, output_text, grammar)
                    if index < len(words) and words[index] not in unknown]
    return OutsideReport(words, unknown, sorted(set(constructions), key=constructions.index),
                         sorted(set(lost), key=lost.index), grammar, confidence,
                         float(getattr(loaded, "notice_min_lead", 0.0) or 0.0))


def translation_report(loaded, text: str) -> dict:
    """Translate `text` with `loaded` (transformer_core.load(name)) and say whether it lies outside the
    model's training: output_text, src_tokens, unknown_words, outside_training, outside_parts,
    outside_constructions, lost_words, grammar (the recogniser's; "" = only unknown words are checked),
    confidence (output_confidence), low_confidence, least_lead (the Lead as a dict, or None)."""
    from transformer_core.inference.text import trace_text

    if not text.strip():
        return {"text": text, "output_text": "", "src_tokens": [], "unknown_words": [], "outside_training": False,
                "outside_parts": [], "outside_constructions": [], "lost_words": [],
                "grammar": recogniser_grammar(loaded), "confidence": None, "low_confidence": False,
                "least_lead": None}
    result = trace_text(loaded, text)
    lead = least_lead(result, loaded.tokenizer)
    report = outside_report(loaded, text, list(result.src_tokens), None if lead is None else lead.gap,
                            result.output_text)
    return {"text": text, "output_text": result.output_text, "src_tokens": list(result.src_tokens),
            "unknown_words": report.unknown_words, "outside_training": report.outside_training,
            "outside_parts": report.outside_parts, "outside_constructions": report.outside_constructions,
            "lost_words": report.lost_words,
            "grammar": report.grammar, "confidence": report.confidence, "low_confidence": report.low_confidence,
            "least_lead": None if lead is None else asdict(lead)}


# The share of held-out in-grammar sentences translated right that the confidence check fires on (its false alarms);
# the whole notice's rate on held-out sentences, wrong ones included, has the goal of <= 5 % (measured by
# benchmarks/translator_goals.py and tests/test_notice_confidence.py). Not 4 %: the learner5 model's confidences
# (then the smallest probability of an output word) crowd just under 0.9 (label smoothing 0.1), so the 4th
# percentile of 600 sentences (0.8518) had 5.1 % of 1,000 others below it.
NOTICE_QUANTILE = 0.02
NOTICE_SENTENCES = 1000  # held-out sentences drawn for the calibration


@dataclass(frozen=True)
class Calibration:
    """The confidence threshold of a model and what it was taken over (calibrate_min_lead)."""

    threshold: float
    confidences: list[float]  # output_confidence of each held-out sentence drawn
    right: list[bool]  # whether the model's output of it is the grammar's translation, token for token

    @property
    def fires_on(self) -> float:
        """The share of all the drawn sentences below the threshold (as stored: rounded to 4 places)."""
        return sum(value < round(self.threshold, 4) for value in self.confidences) / len(self.confidences)

    @property
    def right_confidences(self) -> list[float]:
        """The confidences of the sentences translated right: what the threshold is the percentile of."""
        return [value for value, ok in zip(self.confidences, self.right, strict=True) if ok]

    @property
    def fires_on_right(self) -> float:
        """The share of the sentences translated right below the threshold: the false alarms."""
        right = self.right_confidences
        return sum(value < round(self.threshold, 4) for value in right) / len(right)


def calibrate_min_lead(loaded, n: int = NOTICE_SENTENCES, seed: int = 4242,
                       quantile: float = NOTICE_QUANTILE) -> Calibration:
    """The threshold below which `loaded` is unsure: the `quantile` of output_confidence over the held-out
    sentences of its own grammar (never trained on) that it translates right, of `n` drawn.

    Only the right ones: a wrong output with low confidence is the notice doing its job, not a false alarm. Taken
    over every sentence, the percentile of a model still wrong on 2 % of its grammar fell among its own mistakes
    and the threshold to almost nothing (docs/models.md, "The learner10 candidates")."""
    import numpy as np

    from transformer_core.inference.text import trace_text
    from transformer_core.tasks import model_task, word_ids

    task = model_task(loaded)
    if task is None or not task.grammar or not loaded.config.has_decoder:
        raise ValueError(f"{loaded.name}: no grammar of held-out sentences to calibrate the notice on")
    vocab = loaded.tokenizer.get_vocab()
    confidences, right = [], []
    for pair in task.held_out_pairs(n, seed):
        traced = trace_text(loaded, pair.source_text)
        value = output_confidence(traced, loaded.tokenizer)
        if value is not None:
            confidences.append(value)
            right.append(traced.generation.tokens(0) == word_ids(vocab, pair.target))
    if not any(right):
        raise ValueError(f"{loaded.name}: translates none of {n} held-out sentences right; nothing to calibrate on")
    calibration = Calibration(0.0, confidences, right)
    return replace(calibration, threshold=float(np.quantile(calibration.right_confidences, quantile)))


__all__ = ["NOTICE_QUANTILE", "NOTICE_SENTENCES", "Calibration", "Lead", "OutsideReport", "asdict",
           "calibrate_min_lead", "least_lead", "output_confidence", "outside_report", "recogniser_grammar",
           "translation_report"]
