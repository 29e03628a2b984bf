"""An encoder + [CLS] classifier: the speech level of a Korean sentence, a task with a known right answer.

The grammar (grammar/base.py) writes every sentence in one of four speech levels, and the deciding token
is the verb ending: 먹는다 (해라체, plain), 먹어요 (해요체, polite), 먹습니다 (하십시오체, formal), 먹어 (해체).
The model is the core's encoder-only `Transformer` (as BERT) reading `<s>` + the sentence, with one
linear layer on the first position's output (the [CLS] role is played by `<s>`). Whether its [CLS] row
of attention finds the ending is what `cls_attention` shows, layer by layer.

    python -m transformer_core classify --out lab_models/speech-level --budget 60

The saved directory is an ordinary encoder model directory (every page opens it) plus the head in
classifier.safetensors and the labels in config.json ("task": "speech-level").
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import torch
from torch import nn

from transformer_core.data import BOS_ID, PAD_ID
from transformer_core.models.config import TransformerConfig
from transformer_core.models.transformer import Transformer
from transformer_core.tasks import SPEECH_LEVEL, SPEECH_LEVELS, LabelledSentence, speech_level_data
from transformer_core.tracing.names import AttentionKind, attention_name
from transformer_core.training.loop import TrainingStopped

TASK = SPEECH_LEVEL.name  # config.json's "task"
LEVEL_NAMES = {"plain": "해라체", "polite": "해요체", "formal": "하십시오체", "banmal": "해체"}
HEAD_FILE = "classifier.safetensors"


def classifier_config(vocab_size: int, d_model: int = 64, n_heads: int = 4, n_layers: int = 2,
                      d_ff: int = 128, dropout: float = 0.1) -> TransformerConfig:
    """An encoder-only core config (post-LN, sinusoidal, as the paper's encoder)."""
    return TransformerConfig(src_vocab_size=vocab_size, tgt_vocab_size=0, d_model=d_model, n_heads=n_heads,
                             n_encoder_layers=n_layers, n_decoder_layers=0, d_ff=d_ff, dropout=dropout,
                             max_len=64, pad_token_id=PAD_ID, bos_token_id=BOS_ID)


class EncoderClassifier(nn.Module):
    """logits = W · Encoder(Embed(<s> x))[0] + b: one label per sentence, read at the [CLS] position."""

    def __init__(self, config: TransformerConfig, n_labels: int) -> None:
        super().__init__()
        self.encoder = Transformer(config)
        self.head = nn.Linear(config.d_model, n_labels)

    def forward(self, ids: torch.Tensor) -> torch.Tensor:
        memory, _ = self.encoder.encode(ids)  # [B,S] -> [B,S,D]
        return self.head(memory[:, 0])  # the [CLS] position -> [B, n_labels]


def batch_ids(examples: Sequence[LabelledSentence]) -> torch.Tensor:
    """Right-padded [B, S] ids."""
    width = max(len(e.ids) for e in examples)
    return torch.tensor([list(e.ids) + [PAD_ID] * (width - len(e.ids)) for e in examples], dtype=torch.long)


@torch.no_grad()
def accuracy(model: EncoderClassifier, examples: Sequence[LabelledSentence], batch_size: int = 128) -> float:
    """Share of `examples` whose predicted label is right."""
    was_training = model.training
    model.eval()
    device = next(model.parameters()).device
    right = 0
    for start in range(0, len(examples), batch_size):
        chunk = examples[start:start + batch_size]
        predicted = model(batch_ids(chunk).to(device)).argmax(-1).cpu()
        right += int((predicted == torch.tensor([e.label for e in chunk])).sum())
    model.train(was_training)
    return right / max(1, len(examples))


@dataclass
class ClassifierRun:
    model: EncoderClassifier
    curve: list[tuple[int, float, float]] = field(default_factory=list)  # (step, training loss, held-out accuracy)
    steps: int = 0
    seconds: float = 0.0
    accuracy: float = 0.0
    reached_goal_at: int | None = None  # the first step whose held-out accuracy reached the goal
    stopped: bool = False  # ended early by on_step raising TrainingStopped (the lab's Stop button)
    history: list[dict] = field(default_factory=list)  # {step, loss, lr, seconds} per step (the lab's curve)


def train_speech_levels(budget_s: float = 60.0, max_steps: int = 3000, goal: float = 0.95, seed: int = 0,
                        n_train: int = 4000, n_held_out: int = 400, batch_size: int = 32, lr: float = 2e-3,
                        eval_every: int = 50, config: TransformerConfig | None = None,
                        on_eval: Callable[[int, float, float], None] | None = None,
                        stop_at_goal: bool = True, tokenizer=None,
                        on_step: Callable[[int, float, EncoderClassifier], None] | None = None,
                        device: str | torch.device = "cpu", on_start: Callable[[], None] | None = None,
                        ) -> tuple[ClassifierRun, object, list[LabelledSentence]]:
    """Train live; every `eval_every` steps measure held-out accuracy (sentences not in the training set).

    Returns (run, tokenizer, held-out sentences). Stops at the goal (when `stop_at_goal`), the budget or max_steps.
    `on_step(step, loss, model)` runs after every step; raising TrainingStopped there ends the run (the lab's
    Stop). `eval_every=0` skips the periodic evaluation (the lab scores at its snapshots instead).
    on_start() runs right before the first step; the budget counts from there and no step starts after it.
    """
    tokenizer = tokenizer or SPEECH_LEVEL.tokenizer()
    train, held_out = speech_level_data(seed, tokenizer, n_train, n_held_out)
    torch.manual_seed(seed)
    model = EncoderClassifier(config or classifier_config(len(tokenizer)), len(SPEECH_LEVELS)).to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=0.01)
    rng = random.Random(seed)
    run = ClassifierRun(model)
    model.train()
    if on_start is not None:
        on_start()
    start = time.perf_counter()
    for step in range(1, max_steps + 1):
        if budget_s and time.perf_counter() - start >= budget_s:  # no step starts after the budget
            break
        chunk = rng.sample(train, batch_size)
        labels = torch.tensor([e.label for e in chunk], device=device)
        loss = nn.functional.cross_entropy(model(batch_ids(chunk).to(device)), labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        loss_value = loss.item()
        run.steps = step
        run.history.append({"step": step, "loss": round(loss_value, 4), "lr": lr,
                            "seconds": round(time.perf_counter() - start, 3)})
        if eval_every and (step % eval_every == 0 or step == max_steps):
            acc = accuracy(model, held_out)
            run.curve.append((step, loss_value, acc))
            if on_eval is not None:
                on_eval(step, loss_value, acc)
            if acc >= goal and run.reached_goal_at is None:
                run.reached_goal_at = step
                if stop_at_goal:
                    break
        if on_step is not None:
            try:
                on_step(step, loss_value, model)
            except TrainingStopped:
                run.stopped = True
                break
    run.seconds = time.perf_counter() - start
    run.accuracy = accuracy(model, held_out)
    model.eval()
    return run, tokenizer, held_out


@torch.no_grad()
def cls_attention(model: EncoderClassifier, ids: Sequence[int]) -> torch.Tensor:
    """[layers, S]: how much the [CLS] position attends to each token, per layer (mean over heads)."""
    trace = model.encoder.trace(torch.tensor([list(ids)], dtype=torch.long))
    rows = [trace[attention_name(AttentionKind.ENCODER_SELF, layer)][0, :, 0, :].mean(0)  # [H,S,S] -> [S]
            for layer in range(model.encoder.config.n_encoder_layers)]
    return torch.stack(rows)


def ending_index(pieces: Sequence[str]) -> int:
    """Index of the last piece before the final punctuation and specials: where the speech level is written.

    A multi-word ending (먹을 거예요, 먹을 것입니다) is decided by its last word, which this finds too."""
    index = len(pieces) - 1
    while index > 0 and pieces[index] in ("</s>", ".", "?", "<pad>"):
        index -= 1
    return index


def ending_position(tokenizer, example: LabelledSentence) -> int:
    """ending_index of an example's pieces (in example.ids)."""
    return ending_index(tokenizer.convert_ids_to_tokens(list(example.ids)))


@torch.no_grad()
def cls_on_ending(model: EncoderClassifier, tokenizer, examples: Sequence[LabelledSentence],
                  batch_size: int = 128) -> float:
    """Share of `examples` whose last-layer [CLS] row of attention (mean of heads) peaks on the verb ending."""
    was_training = model.training
    model.eval()
    device = next(model.parameters()).device
    last = attention_name(AttentionKind.ENCODER_SELF, model.encoder.config.n_encoder_layers - 1)
    hits = 0
    for start in range(0, len(examples), batch_size):
        chunk = examples[start:start + batch_size]
        rows = model.encoder.trace(batch_ids(chunk).to(device))[last][:, :, 0, :].mean(1)  # [B,H,S,S] -> [B,S]
        peaks = rows.argmax(-1).tolist()  # padding keys are masked: weight 0, never the peak
        hits += sum(peak == ending_position(tokenizer, e) for peak, e in zip(peaks, chunk, strict=True))
    model.train(was_training)
    return hits / max(1, len(examples))


def save_classifier(directory: str | Path, model: EncoderClassifier, tokenizer, run: ClassifierRun | None = None
                    ) -> Path:
    """An encoder model directory every page opens, plus the head (classifier.safetensors) and the labels."""
    from safetensors.torch import save_model

    from transformer_core.io.loading import save_model_dir

    description = ("An encoder + [CLS] classifier of Korean speech levels (해라체 / 해요체 / 하십시오체 / 해체), "
                   "trained on the toy grammar. The pages show its encoder; the label head is in "
                   "classifier.safetensors.")
    extra = {"task": TASK, "labels": list(SPEECH_LEVELS), "label_names": LEVEL_NAMES}
    if run is not None:
        extra["held_out_accuracy"] = round(run.accuracy, 4)
        extra["steps"] = run.steps
    directory = save_model_dir(directory, model.encoder, tokenizer, description=description, extra=extra)
    save_model(model.head, str(directory / HEAD_FILE))
    return directory


def load_classifier(directory: str | Path) -> tuple[EncoderClassifier, object]:
    """(classifier, tokenizer) from a directory save_classifier wrote."""
    from safetensors.torch import load_model

    from transformer_core.io.loading import load_model_dir

    directory = Path(directory)
    loaded = load_model_dir(directory)
    labels = json.loads((directory / "config.json").read_text(encoding="utf-8")).get("labels", SPEECH_LEVELS)
    model = EncoderClassifier(loaded.config, len(labels))
    model.encoder = loaded.model
    load_model(model.head, str(directory / HEAD_FILE))
    return model.eval(), loaded.tokenizer


def predict(model: EncoderClassifier, tokenizer, text: str) -> str:
    """The speech level of `text` ("plain", "polite", "formal" or "banmal")."""
    ids = torch.tensor([[BOS_ID, *tokenizer(text)["input_ids"]]], dtype=torch.long)
    with torch.no_grad():
        return SPEECH_LEVELS[int(model(ids).argmax(-1))]


def main(argv: list[str] | None = None) -> int:
    """`python -m transformer_core classify`: train the speech-level classifier live and save it."""
    parser = argparse.ArgumentParser(prog="python -m transformer_core classify", description=__doc__.split("\n")[0])
    parser.add_argument("--out", required=True, help="model directory to write")
    parser.add_argument("--budget", type=float, default=60.0, help="seconds of training at most")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    torch.set_num_threads(1)
    run, tokenizer, _ = train_speech_levels(
        budget_s=args.budget, seed=args.seed,
        on_eval=lambda step, loss, acc: print(f"step {step:5d}  loss {loss:.3f}  held-out accuracy {acc:.3f}"))
    save_classifier(args.out, run.model, tokenizer, run)
    print(f"{run.steps} steps in {run.seconds:.1f} s, held-out accuracy {run.accuracy:.3f}; saved to {args.out}")
    return 0
