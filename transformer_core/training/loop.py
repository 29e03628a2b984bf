"""The training loop: batches, initialisation, the learning-rate schedule, the loss, `train()`.

Training follows the paper where it can at this size: Adam (beta2 0.98, eps 1e-9), the warmup
schedule of section 5.3 (linear warmup, then 1/sqrt(step) decay; here with a chosen peak and a
linear cool-down over the last 20 %), label smoothing 0.1, shared embeddings (section 3.4).
With a time budget (max_minutes) the cool-down and the reverse task's length curriculum follow
the clock as well as the step count, so a run on a busy CPU still cools down and stops inside its
budget (with fewer steps, and a weaker model, than on a quiet machine). Every batch is freshly
generated, so there is no epoch and no overfitting to a fixed corpus; the evaluation split (hash
of the source text) is never trained on.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import torch
import torch.nn.functional as F
from torch import nn
from tqdm import tqdm

from transformer_core.data import BOS_ID, EOS_ID, PAD_ID
from transformer_core.inference.batching import pad_batch
from transformer_core.models.config import TransformerConfig
from transformer_core.models.rnn import RNNConfig, RNNTranslator
from transformer_core.models.transformer import Transformer
from transformer_core.tasks import LengthLimit
from transformer_core.training.pair_workers import ParallelPairs
from transformer_core.training.recipes import (
    TrainSettings,
    curriculum_length,
    recipe_data,
    tokenizer_for,
    training_pairs,
)


class TrainingStopped(Exception):  # a signal, not an error
    """Raised inside `on_step` to end a run early (the lab's Stop button); `train()` returns normally."""


class NonFiniteLoss(RuntimeError):
    """The loss became NaN or infinite: the run cannot recover."""


# --- batches ---------------------------------------------------------------------------------------

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
    src = pad_batch([source for source, _ in pairs], PAD_ID)
    decoder_input = pad_batch([[BOS_ID, *target] for _, target in pairs], PAD_ID)
    labels = pad_batch([[*target, EOS_ID] for _, target in pairs], PAD_ID)
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


def candidate_ids(labels: torch.Tensor, vocab_size: int, n_candidates: int, generator: torch.Generator
                  ) -> tuple[torch.Tensor, torch.Tensor]:
    """Sampled softmax: every id in the batch's labels plus random others; labels renumbered into that set."""
    device = labels.device
    present = torch.unique(labels[labels != PAD_ID]).cpu()
    extra = max(0, n_candidates - len(present))
    random_ids = torch.randint(0, vocab_size, (extra,), generator=generator)
    candidates = torch.unique(torch.cat([present, random_ids, torch.tensor([EOS_ID])]))
    candidates = candidates[candidates != PAD_ID]
    position = torch.full((vocab_size,), -100, dtype=torch.long)
    position[candidates] = torch.arange(len(candidates))
    return candidates.to(device), position.to(device)[labels]


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
    memory, src_mask = model.encode(src)
    states = model.decode(decoder_input, memory, src_mask, project=False)  # [B,T,D], before lm_head
    candidates, local_labels = candidate_ids(labels, model.config.tgt_vocab_size, sampled_softmax,
                                             generator or torch.Generator().manual_seed(0))
    real = labels != PAD_ID
    logits = F.linear(states[real], model.lm_head.weight[candidates], model.lm_head.bias[candidates])
    return F.cross_entropy(logits, local_labels[real], label_smoothing=label_smoothing)


def progress_bar(settings: TrainSettings, enabled: bool = True) -> tqdm:
    """The CLI's bar. With a time budget it fills with the clock (elapsed / budget seconds), since the
    budget is what ends the run; otherwise with the steps. The postfix says step / planned steps and
    steps per second (`bar_postfix`)."""
    budget = settings.max_minutes * 60
    if budget:
        return tqdm(total=round(budget), desc=f"train {settings.task}", unit="s", disable=not enabled,
                    mininterval=1.0, bar_format="{desc}: {percentage:3.0f}%|{bar}| {n:.0f}/{total:.0f} s{postfix}")
    return tqdm(total=settings.steps, desc=f"train {settings.task}", unit="step", disable=not enabled,
                mininterval=1.0)


def bar_postfix(step: int, elapsed: float, settings: TrainSettings, loss: float, rate: float) -> dict[str, str]:
    """What the bar says besides its fill: the step of the planned steps, steps per second, loss, learning rate."""
    return {"step": f"{step}/{settings.steps}", "steps/s": f"{step / elapsed:.1f}" if elapsed > 0 else "-",
            "loss": f"{loss:.3f}", "lr": f"{rate:.2e}"}


@dataclass
class TrainResult:
    model: Transformer
    tokenizer: object
    history: list[dict]
    seconds: float
    steps_done: int
    stopped: bool = False  # ended early by on_step raising TrainingStopped
    trained_on: str = ""  # the processor the steps ran on ("CPU", "NVIDIA H200"); "" = read it off the model


def processor_name(device: str) -> str:
    """'CPU', or the CUDA device's own name (the model card says where a run's steps ran)."""
    return torch.cuda.get_device_name(device) if str(device).startswith("cuda") else "CPU"


StepCallback = Callable[[int, float, Transformer], None]

CHECKPOINT_FILE = "checkpoint.pt"


def load_grown_weights(model: nn.Module, path: Path) -> list[str]:
    """Load `path`'s weights into `model`; a tensor whose first dimension grew (the embedding and the output
    layer of a vocabulary that appended new tokens after the old ids) gets the old rows, and each new row is the
    mean of the old rows (a bias: the mean of the old entries). The output layer is linear, so a new token's logit
    starts at the mean of the old tokens' logits, far below what the old model picks (the learner8 RNN grown to
    learner9 with random new rows answered 'Minsu sister's cousin's sister's.' to 민수는 사과를 먹어요.; with zero
    rows and the mean bias, 'Minsu eats anything.': its logits sit far below its biases).
    Returns the names of the grown tensors. Any other mismatch is an error."""
    from safetensors.torch import load_file

    saved = load_file(str(path))
    own = model.state_dict()
    unknown = set(saved) - set(own)
    if unknown:
        raise ValueError(f"{path}: tensors the model does not have: {sorted(unknown)[:5]}")
    grown = []
    with torch.no_grad():
        for name, tensor in saved.items():
            target = own[name]
            if target.shape == tensor.shape:
                target.copy_(tensor)
            elif target.shape[1:] == tensor.shape[1:] and tensor.shape[0] < target.shape[0]:
                target[: tensor.shape[0]].copy_(tensor)
                target[tensor.shape[0]:] = tensor.mean(dim=0)
                grown.append(name)
            else:
                raise ValueError(f"{path}: {name} has shape {tuple(tensor.shape)}, the model {tuple(target.shape)}")
    return grown


def trainable_parameters(model: nn.Module, prefixes: tuple[str, ...] = ()) -> list[nn.Parameter]:
    """The parameters whose names start with one of `prefixes` (all of them when none is given); the others get
    requires_grad False, so the backward pass stops above them. A prefix that names nothing is an error."""
    if not prefixes:
        return list(model.parameters())
    names = [name for name, _ in model.named_parameters()]
    for prefix in prefixes:
        if not any(name.startswith(prefix) for name in names):
            raise ValueError(f"--train-only {prefix!r} names no parameter of the model (e.g. {names[-1]!r})")
    trained = []
    for name, parameter in model.named_parameters():
        parameter.requires_grad_(name.startswith(prefixes))
        if parameter.requires_grad:
            trained.append(parameter)
    return trained


def save_checkpoint(directory: Path, model: nn.Module, optimizer: torch.optim.Optimizer, step: int, seconds: float,
                    history: list[dict]) -> Path:
    """Model + optimizer + step + elapsed seconds + loss history, written atomically (a temporary file, one rename)."""
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / CHECKPOINT_FILE
    temporary = directory / (CHECKPOINT_FILE + ".tmp")
    torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(), "step": step, "seconds": seconds,
                "history": history}, temporary)
    temporary.replace(path)
    return path


def train(settings: TrainSettings, config: TransformerConfig, on_step: StepCallback | None = None,
          progress: bool = True, tokenizer=None, device: str = "cpu", init_from: str | Path | None = None,
          history_limit: int = 0, on_start: Callable[[], None] | None = None,
          checkpoint_dir: str | Path | None = None, checkpoint_minutes: float = 5.0,
          resume: bool = False) -> TrainResult:
    """Train a fresh model (or continue `init_from`'s weights); returns it with the loss history.

    on_step(step, loss, model) runs after every optimizer step; it may raise TrainingStopped to end
    the run (the model is returned as it is) or any other exception to abort it. A NaN or infinite
    loss raises NonFiniteLoss. history_limit > 0 thins the history evenly to at most that many rows.
    on_start() runs once, right before the first step: the time budget counts from there, and no step starts
    after the budget is used up.

    `init_from`: a model dir whose weights start the run (a vocabulary that grew at its end keeps the old
    rows: load_grown_weights). `checkpoint_dir`: model, optimizer, step and history saved there every
    `checkpoint_minutes` and at the end; `resume=True` continues from its checkpoint when there is one (the
    step count, the schedule and the time budget go on from where it stopped; the data stream is reseeded
    with seed + step, fresh sentences either way).
    """
    if settings.threads:
        torch.set_num_threads(settings.threads)
    random.seed(settings.seed)
    torch.manual_seed(settings.seed)
    tokenizer = tokenizer if tokenizer is not None else tokenizer_for(recipe_data(settings.task))
    vocab = tokenizer.get_vocab()
    if isinstance(config, RNNConfig):
        model = RNNTranslator(config)  # initialised by its constructor (RNNTranslator.reset_parameters)
    else:
        model = Transformer(config)
        initialize(model)
    if init_from is not None:
        load_grown_weights(model, Path(init_from) / "model.safetensors")
    model.to(device)
    model.train()
    trained = trainable_parameters(model, settings.train_only)
    optimizer = torch.optim.Adam(trained, lr=settings.peak_lr, betas=(0.9, 0.98), eps=1e-9)
    first_step, seconds_before, history = 1, 0.0, []
    checkpoint_dir = Path(checkpoint_dir) if checkpoint_dir is not None else None
    if resume and checkpoint_dir is not None and (checkpoint_dir / CHECKPOINT_FILE).exists():
        saved = torch.load(checkpoint_dir / CHECKPOINT_FILE, map_location=device, weights_only=False)
        model.load_state_dict(saved["model"])
        optimizer.load_state_dict(saved["optimizer"])
        first_step, seconds_before, history = saved["step"] + 1, saved["seconds"], saved["history"]
        print(f"resumed from {checkpoint_dir / CHECKPOINT_FILE} at step {saved['step']}", flush=True)
    data_seed = settings.seed + first_step - 1
    limit = LengthLimit(curriculum_length(0.0, settings))
    if settings.data_workers:
        pairs = ParallelPairs(settings.task, vocab, data_seed, limit, settings.style_weights, settings.data_workers)
    else:
        pairs = training_pairs(settings.task, vocab, data_seed, limit, settings.style_weights)
    try:
        batches = length_bucketed_batches(pairs, settings.batch_size, settings.buckets, random.Random(data_seed))
        generator = torch.Generator().manual_seed(data_seed)
        keep_every = 1
        bar = progress_bar(settings, progress)
        budget = settings.max_minutes * 60
        smoothed = None
        steps_done = first_step - 1
        stopped = False
        value, rate = 0.0, settings.peak_lr
        if on_start is not None:
            on_start()
        start = time.perf_counter() - seconds_before  # a resumed run's budget goes on from where it stopped
        last_checkpoint = time.perf_counter()
        for step in range(first_step, settings.steps + 1):
            if budget and time.perf_counter() - start >= budget:  # no step starts after the budget
                bar.write(f"time budget of {settings.max_minutes} min used up after {steps_done} steps")
                break
            fraction = training_progress(step, time.perf_counter() - start, settings)
            limit.current = curriculum_length(fraction, settings)
            batch = tuple(t.to(device) for t in make_batch(next(batches)))
            rate = learning_rate(step, settings, fraction)
            for group in optimizer.param_groups:
                group["lr"] = rate
            loss = loss_on(model, batch, settings.label_smoothing, settings.sampled_softmax, generator)
            value = loss.item()
            if not math.isfinite(value):
                raise NonFiniteLoss(f"the training loss became {value} at step {step}")
            optimizer.zero_grad(set_to_none=True)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(trained, 1.0)
            optimizer.step()
            smoothed = value if smoothed is None else 0.95 * smoothed + 0.05 * value
            elapsed = time.perf_counter() - start
            if step % keep_every == 0:
                history.append({"step": step, "loss": round(value, 5), "lr": rate, "seconds": round(elapsed, 2)})
                if history_limit and len(history) > history_limit:
                    history = history[::2]
                    keep_every *= 2
            bar.set_postfix(bar_postfix(step, elapsed, settings, smoothed, rate), refresh=False)
            bar.update(min(elapsed, budget) - bar.n if budget else 1)
            steps_done = step
            if checkpoint_dir is not None and time.perf_counter() - last_checkpoint >= checkpoint_minutes * 60:
                save_checkpoint(checkpoint_dir, model, optimizer, step, time.perf_counter() - start, history)
                bar.write(f"checkpoint at step {step}: {checkpoint_dir / CHECKPOINT_FILE}")
                last_checkpoint = time.perf_counter()
            if on_step is not None:
                try:
                    on_step(step, value, model)
                except TrainingStopped:
                    stopped = True
                    break
        bar.close()
    finally:
        pairs.close()  # stops ParallelPairs' workers (a generator's close is harmless)
    if checkpoint_dir is not None:
        save_checkpoint(checkpoint_dir, model, optimizer, steps_done, time.perf_counter() - start, history)
    model.eval()
    if history and history[-1]["step"] != steps_done:  # the last step is always in the curve
        history.append({"step": steps_done, "loss": round(value, 5), "lr": rate,
                        "seconds": round(time.perf_counter() - start, 2)})
    return TrainResult(model, tokenizer, history, time.perf_counter() - start, steps_done, stopped,
                       trained_on=processor_name(device))
