"""The model card and the files written next to a trained model: loss.csv, loss.png, README.md.

`write_model_dir(out, result, settings, config, metrics, command)` writes a complete model directory
(config.json + model.safetensors + tokenizer + card); the lab adds its recipe and curves through
`extra_sections`.
"""

from __future__ import annotations

import csv
from pathlib import Path

import torch

from transformer_core.io.loading import save_model_dir
from transformer_core.models.config import TransformerConfig
from transformer_core.models.rnn import RNNConfig
from transformer_core.training.loop import TrainResult
from transformer_core.training.recipes import TrainSettings, recipe_data


def write_loss_csv(path: Path, history: list[dict]) -> None:
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=["step", "loss", "lr", "seconds"])
        writer.writeheader()
        writer.writerows(history)


def draw_loss_png(path: Path, history: list[dict], width: int = 640, height: int = 360) -> bool:
    """The loss curve (a 50-step running mean) as a PNG, drawn with Pillow if it is installed."""
    try:
        from PIL import Image, ImageDraw
    except ImportError:
        return False
    losses = [row["loss"] for row in history]
    if len(losses) < 2:
        return False
    smoothed = [sum(losses[max(0, i - 49):i + 1]) / (i + 1 - max(0, i - 49)) for i in range(len(losses))]
    left, top, right, bottom = 60, 20, width - 20, height - 40
    low, high = min(smoothed), max(smoothed)
    span = (high - low) or 1.0
    image = Image.new("RGB", (width, height), "white")
    draw = ImageDraw.Draw(image)
    draw.rectangle((left, top, right, bottom), outline="black")
    points = [(left + (right - left) * i / (len(smoothed) - 1), bottom - (bottom - top) * (v - low) / span)
              for i, v in enumerate(smoothed)]
    draw.line(points, fill=(31, 119, 180), width=2)
    draw.text((left, bottom + 8), f"step 1 .. {history[-1]['step']}", fill="black")
    draw.text((4, top), f"{high:.2f}", fill="black")
    draw.text((4, bottom - 10), f"{low:.2f}", fill="black")
    draw.text((left + 8, top + 6), "training loss (label-smoothed, running mean of 50)", fill="black")
    image.save(path)
    return True


def grammar_field(task: str) -> dict:
    """config.json's "grammar" of a bundled ko-en recipe: the grammar its data came from (evaluate.py reads it)."""
    from transformer_core.data.tokenization import TRAINING_GRAMMAR

    return {"grammar": TRAINING_GRAMMAR} if recipe_data(task) == "ko-en" else {}


def write_model_dir(out: Path, result: TrainResult, settings: TrainSettings, config: TransformerConfig,
                    metrics: dict, command: str = "", extra_config: dict | None = None,
                    extra_sections: list[str] | None = None, training_notes: list[str] | None = None,
                    final_dir: Path | None = None) -> None:
    """config.json + model.safetensors + tokenizer, the loss curve and the model card.

    final_dir: where the directory will end up when `out` is a temporary one (named in the card)."""
    save_model_dir(out, result.model, result.tokenizer, description=describe_task(settings.task),
                   extra={"task": recipe_data(settings.task), **grammar_field(settings.task), **(extra_config or {})})
    write_loss_csv(out / "loss.csv", result.history)
    draw_loss_png(out / "loss.png", result.history)
    write_model_card(out, result, settings, config, metrics, command, extra_sections, training_notes, final_dir)


TASK_DESCRIPTIONS = {
    "ko-en-rnn": "Toy Korean -> English translation by the 2015 attention RNN (Bahdanau et al.): bidirectional GRU "
                 "encoder, GRU decoder, additive attention e_tj = v^T tanh(W_s s_{t-1} + W_h h_j), one alignment per "
                 "step. Same synthetic grammar, tokenizer and gold alignments as ko-en-toy.",
    "ko-en": "Toy Korean -> English translation, trained on a synthetic grammar whose every sentence pair carries "
             "its gold word alignment. Paper architecture (post-LN, sinusoidal positions, ReLU, shared embeddings) "
             "at small size. Korean morpheme pieces (학교 ##에) and English words in one joint vocabulary.",
    "lab-ko-en": "Toy Korean -> English translation trained in the training lab (transformer_core/training) on "
                 "the synthetic grammar's compact core when it has one. Paper architecture (post-LN, sinusoidal "
                 "positions, ReLU, shared embeddings). Korean morpheme pieces and English words, one joint vocabulary.",
    "letters-reverse": "Reverses a string of 3-12 lowercase letters (a-z), trained in the training lab: its "
                       "cross-attention should follow the anti-diagonal.",
    "letters-copy": "Copies a string of 3-12 lowercase letters (a-z), trained in the training lab: its "
                    "cross-attention should follow the diagonal.",
    "letters-sort": "Sorts the letters of a string of 3-12 lowercase letters (a-z), trained in the training lab: "
                    "each output letter should attend to an input position holding that letter.",
    "reverse": "Reverses any text of up to 64 characters (Hangul, Latin, digits, punctuation, emoji): its "
               "cross-attention should follow the anti-diagonal. Character-level vocabulary, shared embeddings.",
}

DATA_NOTES = {
    "ko-en": """\
Sentences come from `transformer_core/data` (a synchronous Korean/English grammar of everyday
Korean, {entries} Korean lexical entries: {nouns} nouns (family, people and jobs, names, animals,
food, drinks, home and school objects, clothes, vehicles, plants, school subjects, sports,
weather, body, events, places), {pronouns} pronouns, {verbs} verbs, {adjectives} adjectives,
{times} time words, {adverbs} adverbs, numbers 2-10; {vocab} tokens in all). Templates:
S-O-V -> S-V-O with optional place (에서 -> at / in), instrument (으로/로 -> with), time word and
manner adverb (빨리 -> quickly); motion to a place (에 -> to; 집에 -> home); adjective predicates
with degree adverbs (아주 -> very); 이다 (저는 학생이에요 -> I am a student; 이것은 사과가 아니에요);
questions: yes/no, 뭐 / 누가 / 누구 / 어디 / 언제 (What did you eat? Who came? Where do you go?) and
어때 (오늘 날씨 어때? -> How is the weather today?); attributive adjectives; determiners 그 / 이 / 저 /
내 / 우리 / 너의 ... (the / this / that / my / our / your); numbers with counters (고양이 두 마리 ->
two cats); 와/과 coordination; past / present / future; negation (안, 아니다); four speech levels
(plain 먹는다, polite 먹어요, formal 먹습니다, banmal 먹어), which English does not mark. Korean
conjugation is computed from each stem and its irregular class (ㅂ ㄷ 르 ㅎ ㅅ); English agreement
(a/an, -s, do/does/did, am/is/are/was/were, irregular pasts and plurals) is computed.

Vocabulary: one joint vocabulary for both languages, because the paper ties the source embedding,
the target embedding and the output projection (section 3.4). Korean is cut into morpheme pieces,
English into words: 학교에 갔어요 -> 학교 ##에 갔 ##어요 (WordPiece, longest match first, over a
vocabulary that is every stem and every particle/ending of the grammar, not learned from a corpus).
So a known stem with a known ending is known in any combination, and a word with any part the
grammar lacks is one <unk>. Punctuation is split off (먹었니? -> 먹었 ##니 ?).

Gold alignment: for each English word, the Korean pieces of the word(s) it translates (school ->
학교 ##에). Unaligned (not scored): a / an, and "the" of places, time phrases and bare subjects,
which Korean does not write. "the" from 그 is aligned to 그; do/does/did/is/was/will to the Korean
word carrying the tense; not -> 안; at/to/with/and to the word carrying the particle; what/who/
where/when/how to 뭐/누구/어디/언제/어때.

Held out: a Korean sentence whose text hashes into bucket 0 of 20 (`data/splits.py`) is never trained on;
evaluation samples only from that bucket.""",
    "reverse": """\
Texts come from `transformer_core/data/reverse.py`, in four styles: random character soup (45 %;
length 1-64 drawn uniformly, characters from every class of the vocabulary so each entry is seen
often: all 11,172 Hangul syllables, compatibility jamo, ASCII, Latin-1 letters, punctuation, about
500 single-code-point emoji), word-like runs (20 %; random syllables / letters / digits, sometimes
one character repeated as in ㅋㅋㅋ, with spaces and punctuation), real-looking Korean and English
sentences from the ko-en grammar cut to 64 characters (25 %), and repeats (10 %; one to four
distinct characters repeated, where only position tells the characters apart). A length
curriculum grows the longest text from 8 to 64 characters over the first 30 % of the run.

Vocabulary: one character per token (spaces included), decoded by concatenation. Characters outside
the vocabulary (e.g. emoji with a variation selector, CJK ideographs) become <unk> and are dropped
from the decoded output. Source and target share one vocabulary and one tied embedding matrix,
which lets copying generalize to characters seen rarely.

Training uses a sampled softmax (the batch's own target ids plus random others, 2,048 candidates)
to keep the 12k-way output layer affordable on a CPU; inference uses the full softmax. Unlike
ko-en-toy, this model is pre-LN (LayerNorm before each sublayer, plus a final one per stack): with
post-LN it stayed on its loss plateau for most of the 15-minute budget.

Held out: texts whose hash falls in bucket 0 of 20 are never trained on; evaluation samples only
from that bucket, plus hand-written Korean and English sentences (`evaluate.REAL_SENTENCES`).""",
}


LETTER_NOTES = """\
Strings of 3-12 letters drawn uniformly from a-z (`transformer_core/training/recipes.py`); the
target is the reversed / copied / sorted string. One token per letter; vocabulary: the 4 special
tokens + 26 letters. Strings whose hash falls in bucket 0 of 20 are held out and never trained on;
alignment is scored against the known source position(s) of each output letter."""


EVERYDAY_NOTES = """\
Everyday grammar (config.json "grammar": "everyday"; `transformer_core/data/ko_en_everyday.py`): the
grammar above plus the constructions learners say first, each with its gold alignment: desire -고 싶다
(먹고 싶어요 -> want to eat); progressive -고 있다 (is reading); requests -아/어 주세요 and 좀 (문 좀 열어
주세요 -> Please open the door; 물 주세요 -> Please give me water); existence and place 있다/없다 with
위/안/옆/밑/앞/뒤에 (책상 위에 연필이 있다 -> There is a pencil on the desk) and possession (저는 시간이
없어요 -> I do not have time); 어디에 있어요? (Where is ...?); reason -아서/-니까 and contrast -지만 (two
clauses: ..., so ... / ..., but ...); while -(으)면서; negation 못 / -지 않다 / -지 못하다 (cannot, could not,
does not); suggestions -ㄹ래? / -자 (Do you want to ...? / Let's ...); 왜, 얼마, 몇 (몇 시예요? 몇 살이에요?
몇 개 있어요?); native numbers with 잔 / 시 / 살 / 개 / 명 (커피 두 잔 -> two cups of coffee; 세 시 -> three
o'clock; 열 살 -> ten years old) and Sino-Korean floors (삼 층 -> the third floor); honorific -(으)시-
(선생님이 읽으세요 -> The teacher reads); transport -을 타고 (by bus); frequency -마다 (every morning);
degree 너무 / 아주 / 많이 / 조금; dropped subjects (내일 학교에 갈 거예요 -> I will go to the school tomorrow; a
question without a subject asks "you"). The vocabulary keeps the full grammar's ids and appends the new
pieces ({added} tokens), so this model continued from the full grammar's weights. A sentence outside these
constructions gets a notice on every page (the grammar's recogniser, `data/recogniser.py`)."""


def data_notes(task: str) -> str:
    """The model card's data section, with the lexicon's real counts."""
    task = recipe_data(task)
    if task.startswith("letters-"):
        return LETTER_NOTES
    if task == "lab-ko-en":
        from transformer_core.training.recipes import has_core_grammar

        if not has_core_grammar():
            return "Trained in the lab on the full grammar (this build has no compact core).\n\n" + data_notes("ko-en")
        return ("Sentence pairs from the compact core of the synchronous Korean/English grammar in\n"
                "`transformer_core/data` (`KoEnGrammar(seed, core=True)`: everyday people, animals, places,\n"
                "objects, tenses), with their gold alignment; the tokenizer holds the core's tokens only (Korean\n"
                "morpheme pieces and English words, one joint vocabulary shared by the tied embeddings; a word\n"
                "outside the core is <unk>). Held out:\n"
                "a Korean sentence whose text hashes into bucket 0 of 20 is never trained on; the metrics are\n"
                "measured on that bucket of the same core grammar (`python -m transformer_core evaluate DIR` does\n"
                "the same: config.json says \"grammar\": \"core\").")
    if task != "ko-en":
        return DATA_NOTES[task]
    from transformer_core.data.ko_en_forms import everyday_lexicon
    from transformer_core.data.lexicon import FULL
    from transformer_core.data.tokenization import TRAINING_GRAMMAR
    from transformer_core.data.vocabulary import ko_en_vocabulary

    lexicon = everyday_lexicon() if TRAINING_GRAMMAR == "everyday" else FULL
    verbs = {(v.stem, v.en_base) for v in lexicon.verbs}
    vocabulary = ko_en_vocabulary(grammar=TRAINING_GRAMMAR)
    notes = DATA_NOTES[task].format(
        entries=lexicon.entries, nouns=len(lexicon.common_nouns) + len(lexicon.places) + len(lexicon.names),
        pronouns=len(lexicon.pronouns), verbs=len(verbs), adjectives=len(lexicon.adjectives),
        times=len(lexicon.time_words), adverbs=len(lexicon.degree_adverbs) + len(lexicon.manner_adverbs),
        vocab=len(vocabulary))
    if TRAINING_GRAMMAR == "everyday":
        notes += "\n\n" + EVERYDAY_NOTES.format(added=len(vocabulary) - len(ko_en_vocabulary(grammar="full")))
    return notes


def describe_task(task: str) -> str:
    """One-paragraph description stored in config.json."""
    return TASK_DESCRIPTIONS[task]


def format_metrics(metrics: dict, single_attention: bool = False) -> list[str]:
    """Markdown lines for the model card's metrics section (`single_attention`: the RNN's one alignment)."""
    if not metrics:
        return ["(not evaluated)"]
    lines = [f"- evaluated on {metrics.get('n', '?')} held-out examples (seed {metrics.get('seed', '?')})",
             f"- exact match: {metrics['exact_match']:.1%}"]
    for name, value in metrics.get("exact_match_by_group", {}).items():
        lines.append(f"  - {name}: {value:.1%}")
    if "alignment_accuracy" in metrics and single_attention:
        lines.append(f"- alignment accuracy (rnn.attn.weights, the one alignment per decoder step): "
                     f"{metrics['alignment_accuracy']:.1%} ({metrics.get('scored_words', '?')} scored words)")
    elif "alignment_accuracy" in metrics:
        lines.append(f"- alignment accuracy (best layer, head average): {metrics['alignment_accuracy']:.1%} "
                     f"(decoder layer {metrics['best_layer']})")
        best = metrics["best_head"]
        lines.append(f"- alignment accuracy (best single head): {best['accuracy']:.1%} "
                     f"(layer {best['layer']}, head {best['head']})")
        per_layer = ", ".join(f"layer {i}: {v:.1%}" for i, v in enumerate(metrics["per_layer"]))
        lines.append(f"- per layer (head average): {per_layer}")
    return lines


def write_model_card(out: Path, result: TrainResult, settings: TrainSettings, config: TransformerConfig,
                     metrics: dict, command: str = "", extra_sections: list[str] | None = None,
                     training_notes: list[str] | None = None, final_dir: Path | None = None) -> None:
    """README.md: task, data, config, training, metrics (+ the lab's or a fine-tune's own sections)."""
    n_parameters = sum(p.numel() for p in result.model.parameters())
    size_mb = (out / "model.safetensors").stat().st_size / 1e6 if (out / "model.safetensors").exists() else 0.0
    device = str(next(result.model.parameters()).device).split(":")[0].upper()
    threads = "1 thread" if torch.get_num_threads() == 1 else f"{torch.get_num_threads()} threads"
    shown = Path(final_dir or out)
    command = command or f"python -m transformer_core train --task {settings.task} --out {shown.as_posix()}"
    rnn = isinstance(config, RNNConfig)
    if rnn:
        shape = [
            f"- embedding E {config.embed_dim}, bidirectional GRU encoder 2 x {config.hidden_size} (h_j has "
            f"{2 * config.hidden_size}), GRU decoder {config.hidden_size}, alignment model A {config.attn_size}, "
            f"maxout output {config.maxout_size} (pool 2), max_len {config.max_len}",
            f"- additive attention, one alignment per decoder step; shared embeddings (source = target = output "
            f"projection), vocabulary {config.src_vocab_size}",
        ]
    else:
        shape = [
            f"- d_model {config.d_model}, {config.n_heads} heads (d_k {config.d_k}), {config.n_encoder_layers} "
            f"encoder + {config.n_decoder_layers} decoder layers, d_ff {config.d_ff}, max_len {config.max_len}",
            f"- {'pre' if config.norm_first else 'post'}-LN, {config.positional} positions, {config.activation}, "
            f"shared embeddings (source = target = output projection), vocabulary {config.src_vocab_size}",
        ]
    lines = [
        f"# {shown.name}", "", TASK_DESCRIPTIONS[settings.task], "",
        "## Data", "", data_notes(settings.task), "",
        "## Model", "", *shape,
        f"- {n_parameters:,} parameters, model.safetensors {size_mb:.1f} MB",
        "", "## Training", "",
        f"- `{command}` (seed {settings.seed})",
        f"- {result.steps_done} steps x {settings.batch_size} freshly generated examples, Adam (0.9, 0.98, 1e-9), "
        f"peak learning rate {settings.peak_lr:g} after {settings.warmup} warmup steps, then 1/sqrt(step) decay "
        f"and a linear cool-down over the last {settings.cooldown_fraction:.0%}",
        f"- label smoothing {settings.label_smoothing}, dropout {config.dropout}, gradient clipping 1.0"
        + (f", sampled softmax over {settings.sampled_softmax} candidates" if settings.sampled_softmax else ""),
        f"- final training loss {result.history[-1]['loss']:.3f} (label-smoothed); curve in loss.csv",
        f"- training time {result.seconds / 60:.1f} min on this machine's {device} ({threads})",
        *(training_notes or []),
        "", "## Metrics", "", *format_metrics(metrics, single_attention=rnn), "",
        "Alignment accuracy: teacher-forced on the gold target; for each scored target word, the row of "
        + ("α (rnn.attn.weights) of the decoder step that predicts it (its input is the previous token)" if rnn
           else "cross-attention that predicts it (its query is the previous token)")
        + " is taken, and its argmax over the source words (the appended </s> excluded) must be a gold source "
        "word. Re-run with "
        f"`python -m transformer_core evaluate {shown.as_posix()}`.", "",
        *(extra_sections or []),
    ]
    (out / "README.md").write_text("\n".join(lines), encoding="utf-8")


