"""Snapshots of a model while it trains: held-out metrics and the probe sentence's attention.

A snapshot is small: a few numbers (step, time, loss, held-out exact match and alignment) and the
attention of ONE probe sentence for every layer, head and kind (float16). The probe goes through
the model as the explorer pages do it: greedy decoding, then one recorded teacher-forced pass over
what was decoded, so the picture is the pass that produced the output shown with it.

`SnapshotStore` keeps them bounded in count and bytes: when either bound is reached it drops every
other snapshot (first and last kept) and doubles the interval, so a long run thins out evenly.
On disk: `snapshots.safetensors` (tensors "{index}.{kind}", [L, H, Q, K]) + `snapshots.json`
(the recipe, the loss curve and one entry per snapshot).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np
import torch

from transformer_core.analysis.scoring import score_examples
from transformer_core.data import EOS_ID, PAD_ID
from transformer_core.inference.generation import generate
from transformer_core.models.transformer import Transformer
from transformer_core.tasks.heldout import Example
from transformer_core.tracing.names import ATTENTION_KINDS, attention_name

INDEX_FILE, TENSOR_FILE = "snapshots.json", "snapshots.safetensors"


@dataclass
class Snapshot:
    """One moment of a run."""

    step: int
    seconds: float
    loss: float  # running mean of the training loss (label-smoothed)
    exact_match: float  # held-out, greedy output == reference
    alignment: float  # held-out, best decoder layer's head average (anti-diagonal share for reverse)
    src_tokens: list[str]
    tgt_tokens: list[str]  # decoder input: BOS + the model's greedy output for the probe
    output_text: str
    attention: dict[str, np.ndarray] = field(repr=False)  # kind -> [L, H, Q, K] float16

    @property
    def nbytes(self) -> int:
        return sum(a.nbytes for a in self.attention.values()) + 64 * (len(self.src_tokens) + len(self.tgt_tokens))

    def meta(self) -> dict:
        values = asdict(self)
        values.pop("attention")
        return values


def _strip(ids: list[int]) -> list[int]:
    return ids[: ids.index(EOS_ID)] if EOS_ID in ids else [i for i in ids if i != PAD_ID]


def held_out_scores(model: Transformer, examples: Sequence[Example], batch_size: int = 64) -> tuple[float, float]:
    """(exact match, alignment accuracy) on held-out examples: evaluate.score_examples, the one held-out
    scoring loop the evaluate CLI and head importance use (same decoding limit, same padder), so the
    lab's figures equal `python -m transformer_core evaluate`'s on the same model and sentences."""
    score = score_examples(model, examples, batch_size)[0]
    return score.exact_match, score.alignment


@torch.no_grad()
def probe_attention(model: Transformer, tokenizer, text: str, max_new_tokens: int = 40
                    ) -> tuple[list[str], list[str], str, dict[str, np.ndarray]]:
    """Greedy output for `text`, then one recorded pass over it: (src tokens, tgt tokens, output, attention)."""
    was_training = model.training
    model.eval()
    device = next(model.parameters()).device
    try:
        ids = tokenizer(text)["input_ids"][: model.config.max_len]
        src = torch.tensor([ids], device=device)
        limit = min(max_new_tokens, 2 * len(ids) + 4)
        decoded = generate(model, src, max_new_tokens=limit).ids[0].tolist()  # BOS + output (+ EOS)
        body = decoded[1:]
        output_ids = body[: body.index(EOS_ID)] if EOS_ID in body else body
        tgt_ids = [model.config.bos_token_id, *output_ids]
        trace = model.trace(src, torch.tensor([tgt_ids], device=device))
    finally:
        model.train(was_training)
    attention = {}
    for kind in ATTENTION_KINDS:
        layers = trace.n_layers(kind.stack)
        attention[kind.value] = np.stack([trace[attention_name(kind, i)][0].float().cpu().numpy()
                                    for i in range(layers)]).astype(np.float16)  # [L, H, Q, K]
    src_tokens = tokenizer.convert_ids_to_tokens(ids)
    tgt_tokens = tokenizer.convert_ids_to_tokens(tgt_ids)
    output = tokenizer.decode(output_ids, skip_special_tokens=True)
    return src_tokens, tgt_tokens, output, attention


class SnapshotStore:
    """Snapshots of one run, bounded in count and bytes, thinned evenly when full. Thread-safe."""

    def __init__(self, every: int, max_count: int = 64, max_bytes: int = 16 * 2**20) -> None:
        if every < 1 or max_count < 3:
            raise ValueError("snapshot interval must be >= 1 and max_count >= 3")
        self.every = every
        self.max_count = max_count
        self.max_bytes = max_bytes
        self._items: list[Snapshot] = []
        self._lock = threading.Lock()

    def due(self, step: int) -> bool:
        """Whether a snapshot is taken at `step` (step 1, then every `every` steps)."""
        return step == 1 or step % self.every == 0

    def add(self, snapshot: Snapshot) -> None:
        with self._lock:
            if self._items and self._items[-1].step == snapshot.step:
                self._items[-1] = snapshot
            else:
                self._items.append(snapshot)
            while len(self._items) > self.max_count or (self.nbytes_unlocked() > self.max_bytes
                                                        and len(self._items) > 1):
                self._thin()

    def _thin(self) -> None:
        """Keep every other snapshot (and the last), double the interval."""
        last = self._items[-1]
        kept = self._items[::2]
        if kept[-1] is not last:
            kept.append(last)
        if len(kept) == len(self._items):  # nothing to drop (2 items over the byte bound): drop the older one
            kept = kept[1:]
        self._items = kept
        self.every *= 2

    def nbytes_unlocked(self) -> int:
        return sum(s.nbytes for s in self._items)

    @property
    def nbytes(self) -> int:
        with self._lock:
            return self.nbytes_unlocked()

    def items(self) -> list[Snapshot]:
        """A copy of the list (snapshots themselves are never changed after they are added)."""
        with self._lock:
            return list(self._items)

    def latest(self) -> Snapshot | None:
        with self._lock:
            return self._items[-1] if self._items else None

    def __len__(self) -> int:
        with self._lock:
            return len(self._items)


def save_snapshots(directory: str | Path, snapshots: Sequence[Snapshot], history: list[dict], info: dict) -> None:
    """Write snapshots.safetensors + snapshots.json into `directory` (created if needed)."""
    from safetensors.numpy import save_file

    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    tensors = {f"{i}.{kind}": np.ascontiguousarray(s.attention[kind]) for i, s in enumerate(snapshots)
               for kind in s.attention}
    save_file(tensors, str(directory / TENSOR_FILE))
    index = {**info, "history": history, "snapshots": [s.meta() for s in snapshots]}
    (directory / INDEX_FILE).write_text(json.dumps(index, ensure_ascii=False) + "\n", encoding="utf-8")


def has_snapshots(directory: str | Path) -> bool:
    directory = Path(directory)
    return (directory / INDEX_FILE).is_file() and (directory / TENSOR_FILE).is_file()


def load_snapshots(directory: str | Path) -> tuple[list[Snapshot], list[dict], dict]:
    """(snapshots, loss history, info) written by save_snapshots. Raises OSError / ValueError if broken."""
    from safetensors.numpy import load_file

    directory = Path(directory)
    index = json.loads((directory / INDEX_FILE).read_text(encoding="utf-8"))
    tensors = load_file(str(directory / TENSOR_FILE))
    snapshots = []
    for i, meta in enumerate(index.pop("snapshots")):
        attention = {kind.value: tensors[f"{i}.{kind}"] for kind in ATTENTION_KINDS if f"{i}.{kind}" in tensors}
        snapshots.append(Snapshot(**meta, attention=attention))
    history = index.pop("history")
    return snapshots, history, index
