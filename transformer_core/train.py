"""Train a bundled model on its synthetic task.

    python -m transformer_core.train --task ko-en --out models/ko-en-toy
    python -m transformer_core.train --task reverse --out models/reverse
    python -m transformer_core.train --task ko-en --out /tmp/tiny --tiny --steps 40

Training follows the paper where it can at this size: Adam (beta2 0.98, eps 1e-9), the warmup
schedule of section 5.3 (linear warmup, then 1/sqrt(step) decay; here with a chosen peak and a
linear cool-down over the last 20 %), label smoothing 0.1, shared embeddings (section 3.4).
Each task has a time budget (--max-minutes): the cool-down and the reverse task's length
curriculum follow the clock as well as the step count, so a run on a busy CPU still cools down
and stops inside its budget (with fewer steps, and a weaker model, than on a quiet machine).
Every batch is freshly generated, so there is no epoch and no overfitting to a fixed corpus; the
evaluation split (hash of the source text) is never trained on.
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import random
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path

import torch
import torch.nn.functional as F
from torch import nn
from tqdm import tqdm

from .config import TransformerConfig
from .data import BOS_ID, EOS_ID, PAD_ID, build_tokenizer, is_held_out
from .data.ko_en import KoEnGrammar
from .data.reverse import MAX_CHARS, ReverseData
from .loading import save_model_dir
from .masks import causal_mask, padding_mask
from .model import Transformer


@dataclass(frozen=True)
class TrainSettings:
    """Everything a run needs besides the model shape."""

    task: str
    steps: int
    batch_size: int
    peak_lr: float
    warmup: int
    cooldown_fraction: float = 0.2  # the last fraction of steps decays linearly to zero
    label_smoothing: float = 0.1
    seed: int = 0
    threads: int = 1  # 1: on a shared 2-core CPU, two threads per process fight and run several times slower
    max_minutes: float = 0.0  # time budget: schedule and curriculum follow the clock, stop when used up (0 = none)
    sampled_softmax: int = 0  # >0: train the output layer on this many candidate ids per batch (big vocabularies)
    buckets: int = 16  # batches drawn together and grouped by length (less padding)
    curriculum_fraction: float = 0.0  # reverse: grow the text length from 8 to 64 over this share of the steps


@dataclass(frozen=True)
class TaskRecipe:
    """Default model shape and training settings of one task."""

    model: dict
    settings: dict
    tiny_model: dict = field(default_factory=dict)


RECIPES: dict[str, TaskRecipe] = {
    "ko-en": TaskRecipe(
        model=dict(d_model=256, n_heads=4, n_encoder_layers=2, n_decoder_layers=2, d_ff=512, max_len=128),
        settings=dict(steps=1800, batch_size=64, peak_lr=1e-3, warmup=300, sampled_softmax=0, max_minutes=12.0),
        tiny_model=dict(d_model=32, n_heads=2, n_encoder_layers=1, n_decoder_layers=1, d_ff=64, max_len=64),
    ),
    "reverse": TaskRecipe(
        # Pre-LN (+ final LayerNorm): on this task it leaves its plateau much sooner than post-LN.
        model=dict(d_model=128, n_heads=4, n_encoder_layers=2, n_decoder_layers=2, d_ff=512, max_len=128,
                   norm_first=True, final_norm=True),
        settings=dict(steps=6000, batch_size=32, peak_lr=4e-3, warmup=200, sampled_softmax=2048, max_minutes=13.0,
                      curriculum_fraction=0.3),
        tiny_model=dict(d_model=32, n_heads=2, n_encoder_layers=1, n_decoder_layers=1, d_ff=64, max_len=80,
                        norm_first=True, final_norm=True),
    ),
}


# --- batches ---------------------------------------------------------------------------------------

def pad_batch(sequences: list[list[int]]) -> torch.Tensor:
    """Right-pad id lists with PAD_ID into one [B, L] tensor."""
    width = max(len(s) for s in sequences)
    return torch.tensor([s + [PAD_ID] * (width - len(s)) for s in sequences], dtype=torch.long)


def ko_en_ids(vocab: dict[str, int], words: tuple[str, ...] | list[str]) -> list[int]:
    """Word-level ids (unknown words would be <unk>, but the grammar only writes known words)."""
    return [vocab.get(word, vocab["<unk>"]) for word in words]


def char_ids(vocab: dict[str, int], text: str) -> list[int]:
    return [vocab.get(char, vocab["<unk>"]) for char in text]


@dataclass
class LengthLimit:
    """The longest text the reverse data may produce right now (raised by the length curriculum)."""

    current: int = MAX_CHARS


def curriculum_length(progress: float, settings: TrainSettings, start: int = 8, longest: int = MAX_CHARS) -> int:
    """Length curriculum: the longest text grows linearly from `start` to `longest` over the first
    `curriculum_fraction` of the run (short reversals are learned first, then extended)."""
    ramp = settings.curriculum_fraction
    if ramp <= 0 or progress >= ramp:
        return longest
    return min(longest, start + round((longest - start) * progress / ramp))


def training_pairs(task: str, vocab: dict[str, int], seed: int, limit: LengthLimit | None = None
                   ) -> Iterator[tuple[list[int], list[int]]]:
    """Endless (source ids + EOS, target ids) pairs from the training side of the split."""
    if task == "ko-en":
        grammar = KoEnGrammar(seed)
        while True:
            pair = grammar.sample()
            if not is_held_out(pair.source_text):
                yield [*ko_en_ids(vocab, pair.source), EOS_ID], ko_en_ids(vocab, pair.target)
    elif task == "reverse":
        data = ReverseData(seed, MAX_CHARS)
        while True:
            data.max_chars = limit.current if limit is not None else MAX_CHARS
            example = data.sample_split(held_out=False)
            yield [*char_ids(vocab, example.source), EOS_ID], char_ids(vocab, example.target)
    else:
        raise ValueError(f"unknown task {task!r}")


def length_bucketed_batches(pairs: Iterator[tuple[list[int], list[int]]], batch_size: int, buckets: int,
                            rng: random.Random) -> Iterator[list[tuple[list[int], list[int]]]]:
    """Draw `buckets` batches' worth of pairs, sort them by length, cut into batches, shuffle their order."""
    while True:
        pool = sorted((next(pairs) for _ in range(batch_size * buckets)), key=lambda p: (len(p[0]), len(p[1])))
        batches = [pool[i:i + batch_size] for i in range(0, len(pool), batch_size)]
        rng.shuffle(batches)
        yield from batches


def make_batch(pairs: list[tuple[list[int], list[int]]]) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """(src [B,S], decoder input [B,T] = BOS + target, labels [B,T] = target + EOS)."""
    src = pad_batch([source for source, _ in pairs])
    decoder_input = pad_batch([[BOS_ID, *target] for _, target in pairs])
    labels = pad_batch([[*target, EOS_ID] for _, target in pairs])
    return src, decoder_input, labels


# --- model and schedule ----------------------------------------------------------------------------

def initialize(model: Transformer) -> None:
    """Xavier-uniform matrices, zero biases; the shared embedding ~ N(0, d_model^-0.5) (as in fairseq)."""
    d_model = model.config.d_model
    for name, parameter in model.named_parameters():
        if "norm" in name:
            continue
        if parameter.dim() > 1:
            nn.init.xavier_uniform_(parameter)
        else:
            nn.init.zeros_(parameter)
    nn.init.normal_(model.src.token.weight, mean=0.0, std=d_model ** -0.5)


def training_progress(step: int, elapsed: float, settings: TrainSettings) -> float:
    """How far the run is, 0..1: the larger of steps done / steps and time spent / time budget.

    With a time budget (max_minutes) the cool-down and the curriculum follow the clock, so a run on
    a busy CPU still ends with a cooled-down learning rate inside its budget.
    """
    by_steps = step / settings.steps
    by_time = elapsed / (settings.max_minutes * 60) if settings.max_minutes else 0.0
    return max(by_steps, by_time)


def learning_rate(step: int, settings: TrainSettings, progress: float | None = None) -> float:
    """Paper schedule shape: linear warmup, then peak * sqrt(warmup / step); linear to 0 at the end."""
    step = max(step, 1)
    progress = step / settings.steps if progress is None else progress
    rate = settings.peak_lr * min(step / settings.warmup, math.sqrt(settings.warmup / step))
    start = 1 - settings.cooldown_fraction
    if settings.cooldown_fraction > 0 and progress > start:
        rate *= max(0.0, (1 - progress) / settings.cooldown_fraction)
    return rate


def decoder_states(model: Transformer, src: torch.Tensor, decoder_input: torch.Tensor) -> torch.Tensor:
    """The decoder output [B,T,D] before the output projection (Transformer.decode without lm_head)."""
    memory, src_mask = model.encode(src)
    tgt_mask = padding_mask(decoder_input, model.config.pad_token_id)
    y = model.tgt(decoder_input, tgt_mask)
    causal = causal_mask(decoder_input.shape[1], decoder_input.device)
    return model.decoder(y, memory, tgt_mask, causal, src_mask, model.fused_attention)


def candidate_ids(labels: torch.Tensor, vocab_size: int, n_candidates: int, generator: torch.Generator
                  ) -> tuple[torch.Tensor, torch.Tensor]:
    """Sampled softmax: every id in the batch's labels plus random others; labels renumbered into that set."""
    present = torch.unique(labels[labels != PAD_ID])
    extra = max(0, n_candidates - len(present))
    random_ids = torch.randint(0, vocab_size, (extra,), generator=generator)
    candidates = torch.unique(torch.cat([present, random_ids, torch.tensor([EOS_ID])]))
    candidates = candidates[candidates != PAD_ID]
    position = torch.full((vocab_size,), -100, dtype=torch.long)
    position[candidates] = torch.arange(len(candidates))
    return candidates, position[labels]


def loss_on(model: Transformer, batch: tuple[torch.Tensor, torch.Tensor, torch.Tensor],
            label_smoothing: float, sampled_softmax: int = 0, generator: torch.Generator | None = None
            ) -> torch.Tensor:
    """Label-smoothed cross-entropy over real target positions (pads ignored).

    With `sampled_softmax`, the softmax runs over the batch's own target ids plus random others
    (about `sampled_softmax` in all) instead of the whole vocabulary: the character vocabulary has
    12 000 entries and the full output layer would dominate the training time on a CPU.
    """
    src, decoder_input, labels = batch
    if not sampled_softmax:
        logits = model(src, decoder_input)
        return F.cross_entropy(logits.reshape(-1, logits.shape[-1]), labels.reshape(-1), ignore_index=PAD_ID,
                               label_smoothing=label_smoothing)
    states = decoder_states(model, src, decoder_input)
    candidates, local_labels = candidate_ids(labels, model.config.tgt_vocab_size, sampled_softmax,
                                             generator or torch.Generator().manual_seed(0))
    real = labels != PAD_ID
    logits = F.linear(states[real], model.lm_head.weight[candidates], model.lm_head.bias[candidates])
    return F.cross_entropy(logits, local_labels[real], label_smoothing=label_smoothing)


@dataclass
class TrainResult:
    model: Transformer
    tokenizer: object
    history: list[dict]
    seconds: float
    steps_done: int


def train(settings: TrainSettings, config: TransformerConfig,
          on_step: Callable[[int, float], None] | None = None, progress: bool = True) -> TrainResult:
    """Train a fresh model; returns it with the loss history (step, loss, lr, seconds)."""
    if settings.threads:
        torch.set_num_threads(settings.threads)
    random.seed(settings.seed)
    torch.manual_seed(settings.seed)
    tokenizer = build_tokenizer(settings.task)
    vocab = tokenizer.get_vocab()
    model = Transformer(config)
    initialize(model)
    model.train()
    optimizer = torch.optim.Adam(model.parameters(), lr=settings.peak_lr, betas=(0.9, 0.98), eps=1e-9)
    limit = LengthLimit(curriculum_length(0.0, settings))
    pairs = training_pairs(settings.task, vocab, settings.seed, limit)
    batches = length_bucketed_batches(pairs, settings.batch_size, settings.buckets, random.Random(settings.seed))
    generator = torch.Generator().manual_seed(settings.seed)
    history: list[dict] = []
    start = time.perf_counter()
    bar = tqdm(range(1, settings.steps + 1), desc=f"train {settings.task}", disable=not progress, mininterval=1.0)
    smoothed = None
    steps_done = 0
    for step in bar:
        progress = training_progress(step, time.perf_counter() - start, settings)
        limit.current = curriculum_length(progress, settings)
        batch = make_batch(next(batches))
        rate = learning_rate(step, settings, progress)
        for group in optimizer.param_groups:
            group["lr"] = rate
        loss = loss_on(model, batch, settings.label_smoothing, settings.sampled_softmax, generator)
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        value = loss.item()
        smoothed = value if smoothed is None else 0.95 * smoothed + 0.05 * value
        elapsed = time.perf_counter() - start
        history.append({"step": step, "loss": round(value, 5), "lr": rate, "seconds": round(elapsed, 2)})
        bar.set_postfix(loss=f"{smoothed:.3f}", lr=f"{rate:.2e}")
        steps_done = step
        if on_step is not None:
            on_step(step, value)
        if settings.max_minutes and elapsed >= settings.max_minutes * 60:
            bar.write(f"time budget of {settings.max_minutes} min used up after {step} steps")
            break
    model.eval()
    return TrainResult(model, tokenizer, history, time.perf_counter() - start, steps_done)


def build_config(task: str, tiny: bool, overrides: dict, vocab_size: int) -> TransformerConfig:
    """The task's model shape (tiny for tests): sinusoidal, ReLU, shared embeddings; post-LN unless the recipe
    says otherwise (reverse: pre-LN)."""
    recipe = RECIPES[task]
    shape = dict(recipe.tiny_model if tiny else recipe.model)
    shape.update({k: v for k, v in overrides.items() if v is not None})
    values = dict(src_vocab_size=vocab_size, tgt_vocab_size=vocab_size, share_embeddings=True, norm_first=False,
                  activation="relu", positional="sinusoidal", pad_token_id=PAD_ID, bos_token_id=BOS_ID,
                  eos_token_id=EOS_ID)
    values.update(shape)
    return TransformerConfig(**values)


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


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m transformer_core.train", description=__doc__.split("\n")[0])
    parser.add_argument("--task", choices=sorted(RECIPES), required=True)
    parser.add_argument("--out", required=True, help="model directory to write")
    parser.add_argument("--steps", type=int)
    parser.add_argument("--batch-size", type=int)
    parser.add_argument("--lr", type=float, help="peak learning rate")
    parser.add_argument("--warmup", type=int)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--tiny", action="store_true", help="a very small model, for tests")
    parser.add_argument("--d-model", type=int)
    parser.add_argument("--heads", type=int)
    parser.add_argument("--layers", type=int, help="layers per side")
    parser.add_argument("--d-ff", type=int)
    parser.add_argument("--dropout", type=float, default=0.0)
    parser.add_argument("--pre-ln", action="store_true", help="LayerNorm before each sublayer (+ a final one)")
    parser.add_argument("--threads", type=int, default=1, help="torch threads (0 = torch's default)")
    parser.add_argument("--max-minutes", type=float,
                        help="time budget: the schedule follows the clock and training stops when it is used up "
                             "(default: 12 for ko-en, 13 for reverse; 0 = steps only)")
    parser.add_argument("--sampled-softmax", type=int, help="candidate ids per batch for the output layer (0 = full)")
    parser.add_argument("--curriculum", type=float, help="share of steps over which text length grows to 64")
    parser.add_argument("--eval-n", type=int, default=500, help="held-out examples for the model card (0 = skip)")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    recipe = RECIPES[args.task]
    defaults = dict(recipe.settings)
    if args.tiny:
        defaults.update(steps=40, batch_size=16, warmup=10, peak_lr=3e-3, max_minutes=0.0, sampled_softmax=min(
            defaults["sampled_softmax"], 256))
    settings = TrainSettings(
        task=args.task, steps=args.steps or defaults["steps"], batch_size=args.batch_size or defaults["batch_size"],
        peak_lr=args.lr or defaults["peak_lr"], warmup=args.warmup or defaults["warmup"], seed=args.seed,
        threads=args.threads,
        max_minutes=defaults.get("max_minutes", 0.0) if args.max_minutes is None else args.max_minutes,
        sampled_softmax=defaults["sampled_softmax"] if args.sampled_softmax is None else args.sampled_softmax,
        curriculum_fraction=defaults.get("curriculum_fraction", 0.0) if args.curriculum is None else args.curriculum,
    )
    vocab_size = len(build_tokenizer(args.task))
    layers = args.layers
    config = build_config(args.task, args.tiny, dict(d_model=args.d_model, n_heads=args.heads, d_ff=args.d_ff,
                                                      n_encoder_layers=layers, n_decoder_layers=layers), vocab_size)
    config = replace(config, dropout=args.dropout)
    if args.pre_ln:
        config = replace(config, norm_first=True, final_norm=True)
    result = train(settings, config, progress=not args.quiet)
    out = Path(args.out)
    metrics = {}
    if args.eval_n:
        from .evaluate import evaluate_model
        from .loading import LoadedModel

        loaded = LoadedModel(name=out.name, model=result.model, tokenizer=result.tokenizer, config=config,
                             kind="encoder-decoder", directory=out)
        metrics = evaluate_model(loaded, args.task, n=args.eval_n, seed=12345)
    command = " ".join(["python -m transformer_core.train", *(sys.argv[1:] if argv is None else argv)])
    write_model_dir(out, result, settings, config, metrics, command)
    summary = {k: metrics[k] for k in ("exact_match", "alignment_accuracy") if k in metrics}
    print(json.dumps({"out": str(out), "steps": result.steps_done, "seconds": round(result.seconds, 1),
                      "final_loss": result.history[-1]["loss"], **summary}))
    return 0


def write_model_dir(out: Path, result: TrainResult, settings: TrainSettings, config: TransformerConfig,
                    metrics: dict, command: str = "") -> None:
    """config.json + model.safetensors + tokenizer, the loss curve and the model card."""
    save_model_dir(out, result.model, result.tokenizer, description=describe_task(settings.task),
                   extra={"task": settings.task})
    write_loss_csv(out / "loss.csv", result.history)
    draw_loss_png(out / "loss.png", result.history)
    write_model_card(out, result, settings, config, metrics, command)


TASK_DESCRIPTIONS = {
    "ko-en": "Toy Korean -> English translation, trained on a synthetic grammar whose every sentence pair carries "
             "its gold word alignment. Paper architecture (post-LN, sinusoidal positions, ReLU, shared embeddings) "
             "at small size. Word-level joint Korean + English vocabulary.",
    "reverse": "Reverses any text of up to 64 characters (Hangul, Latin, digits, punctuation, emoji): its "
               "cross-attention should follow the anti-diagonal. Character-level vocabulary, shared embeddings.",
}

DATA_NOTES = {
    "ko-en": """\
Sentences come from `transformer_core/data` (a synchronous Korean/English grammar, a few hundred
lexicon entries: {nouns} nouns (people, names, animals, food, drinks, objects, books, clothes, vehicles,
plants, school subjects, places), 6 pronouns, {verbs} verbs, {adjectives} adjectives, {times} time words,
numbers 2-9; {vocab} words in all). Templates:
S-O-V -> S-V-O with optional place (에서 -> at), instrument (으로/로 -> with) and time word; motion
to a place (에 -> to); adjective predicates; attributive adjectives; 그 -> "the"; numbers with counters
(고양이 두 마리 -> two cats); subjects joined with 와/과; past / present / future; negation (안);
yes/no questions (-니 / -(으)ㄹ까). Particles follow the final consonant; English agreement
(a/an, -s, do/does/did, am/is/are/was/were, irregular pasts and plurals) is computed.

Vocabulary: one word-level vocabulary for both languages (Korean eojeol such as 고양이가 and English
words such as cat share one id space), because the paper ties the source embedding, the target
embedding and the output projection (section 3.4), which needs one shared vocabulary. Every word
the grammar can write is in it; anything else is <unk>. Punctuation is split off (먹었니? -> 먹었니 ?).

Gold alignment: for each English word, the Korean word(s) it translates. Unaligned (not scored):
a / an, and "the" of places and time phrases, which Korean does not write. "the" from 그 is aligned
to 그; do/does/did/is/was/will to the Korean word carrying the tense; not -> 안; at/to/with/and to the
word carrying the particle.

Held out: a Korean sentence whose text hashes into bucket 0 of 20 (`data/splits.py`) is never trained on;
evaluation samples only from that bucket.""",
    "reverse": """\\
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


def data_notes(task: str) -> str:
    """The model card's data section, with the lexicon's real counts."""
    if task != "ko-en":
        return DATA_NOTES[task]
    from .data import lexicon
    from .data.vocabulary import ko_en_vocabulary

    verbs = {(v.stem, v.en_base) for v in lexicon.ALL_VERBS}
    return DATA_NOTES[task].format(nouns=len(lexicon.ALL_NOUNS), verbs=len(verbs), adjectives=len(lexicon.ADJECTIVES),
                                   times=len(lexicon.TIME_WORDS), vocab=len(ko_en_vocabulary()))


def describe_task(task: str) -> str:
    """One-paragraph description stored in config.json."""
    return TASK_DESCRIPTIONS[task]


def format_metrics(metrics: dict) -> list[str]:
    """Markdown lines for the model card's metrics section."""
    if not metrics:
        return ["(not evaluated)"]
    lines = [f"- evaluated on {metrics.get('n', '?')} held-out examples (seed {metrics.get('seed', '?')})",
             f"- exact match: {metrics['exact_match']:.1%}"]
    for name, value in metrics.get("exact_match_by_group", {}).items():
        lines.append(f"  - {name}: {value:.1%}")
    if "alignment_accuracy" in metrics:
        lines.append(f"- alignment accuracy (best layer, head average): {metrics['alignment_accuracy']:.1%} "
                     f"(decoder layer {metrics['best_layer']})")
        best = metrics["best_head"]
        lines.append(f"- alignment accuracy (best single head): {best['accuracy']:.1%} "
                     f"(layer {best['layer']}, head {best['head']})")
        per_layer = ", ".join(f"layer {i}: {v:.1%}" for i, v in enumerate(metrics["per_layer"]))
        lines.append(f"- per layer (head average): {per_layer}")
    return lines


def write_model_card(out: Path, result: TrainResult, settings: TrainSettings, config: TransformerConfig,
                     metrics: dict, command: str = "") -> None:
    """README.md: task, data, config, training, metrics."""
    n_parameters = sum(p.numel() for p in result.model.parameters())
    size_mb = (out / "model.safetensors").stat().st_size / 1e6 if (out / "model.safetensors").exists() else 0.0
    threads = "1 thread" if torch.get_num_threads() == 1 else f"{torch.get_num_threads()} threads"
    command = command or f"python -m transformer_core.train --task {settings.task} --out {out.as_posix()}"
    lines = [
        f"# {out.name}", "", TASK_DESCRIPTIONS[settings.task], "",
        "## Data", "", data_notes(settings.task), "",
        "## Model", "",
        f"- d_model {config.d_model}, {config.n_heads} heads (d_k {config.d_k}), {config.n_encoder_layers} encoder + "
        f"{config.n_decoder_layers} decoder layers, d_ff {config.d_ff}, max_len {config.max_len}",
        f"- {'pre' if config.norm_first else 'post'}-LN, {config.positional} positions, {config.activation}, "
        f"shared embeddings (source = target = output projection), vocabulary {config.src_vocab_size}",
        f"- {n_parameters:,} parameters, model.safetensors {size_mb:.1f} MB",
        "", "## Training", "",
        f"- `{command}` (seed {settings.seed})",
        f"- {result.steps_done} steps x {settings.batch_size} freshly generated examples, Adam (0.9, 0.98, 1e-9), "
        f"peak learning rate {settings.peak_lr:g} after {settings.warmup} warmup steps, then 1/sqrt(step) decay "
        f"and a linear cool-down over the last {settings.cooldown_fraction:.0%}",
        f"- label smoothing {settings.label_smoothing}, dropout {config.dropout}, gradient clipping 1.0"
        + (f", sampled softmax over {settings.sampled_softmax} candidates" if settings.sampled_softmax else ""),
        f"- final training loss {result.history[-1]['loss']:.3f} (label-smoothed); curve in loss.csv",
        f"- training time {result.seconds / 60:.1f} min on this machine's CPU ({threads})",
        "", "## Metrics", "", *format_metrics(metrics), "",
        "Alignment accuracy: teacher-forced on the gold target; for each scored target word, the row of "
        "cross-attention that predicts it (its query is the previous token) is taken, and its argmax over the "
        "source words (the appended </s> excluded) must be a gold source word. Re-run with "
        f"`python -m transformer_core.evaluate {out.as_posix()}`.", "",
    ]
    (out / "README.md").write_text("\n".join(lines), encoding="utf-8")


if __name__ == "__main__":
    raise SystemExit(main())
