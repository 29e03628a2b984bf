"""Head importance: how much exact match and alignment accuracy drop when ONE head (or one whole layer) is
switched off, over a fixed held-out sample (evaluate.py's examples and scoring rules).

    python -m transformer_core evaluate models/ko-en-toy --head-importance --json   (writes head_importance.json)

Exact match: greedy output == reference (the generated groups, as evaluate.py). Alignment accuracy: the
head-averaged cross-attention of the decoder layer that aligns best WITHOUT intervention (the baseline's
best layer, fixed so before and after compare the same thing), teacher-forced on the reference.

Many experiments share one batched pass: the sample is repeated once per experiment and each copy gets its
own heads switched off (`interventions.switch_off_rows`), proven equal to one experiment at a time in
tests/test_interventions.py.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch

from transformer_core.analysis.head_patches import all_heads, layer_counts, layer_heads, reference_means
from transformer_core.analysis.scoring import score_examples
from transformer_core.io.loading import LoadedModel
from transformer_core.models.transformer import Transformer
from transformer_core.tasks import Task
from transformer_core.tasks.heldout import REAL_SENTENCES, Example
from transformer_core.tracing.names import Head

FILE_NAME = "head_importance.json"
REFERENCE_SEED = 1  # reference set for mean ablation: training-side sentences, never the evaluation sample


@dataclass(frozen=True)
class Ablation:
    """One experiment of the table: an id ('cross.1.2', 'cross.1.*' or 'none') and the heads it switches off."""

    id: str
    heads: tuple[Head, ...]


def ablations(config) -> list[Ablation]:
    """Every single head, then every whole layer, of the model."""
    heads = [Ablation(str(h), (h,)) for h in all_heads(config)]
    layers = [Ablation(Head(kind, layer, 0).layer_id, tuple(layer_heads(kind, layer, config.n_heads)))
              for kind, n in layer_counts(config).items() for layer in range(n)]
    return heads + layers


@dataclass(frozen=True)
class AblationScore:
    exact_match: float  # generated groups (not the hand-written 'real' sentences), as evaluate.py
    alignment_per_layer: list[float]  # head-averaged cross-attention alignment of each decoder layer


def score_ablations(model: Transformer, examples: list[Example], experiments: Sequence[Ablation],
                    method: str = "zero", means: Mapping[str, torch.Tensor] | None = None,
                    batch_size: int = 64, max_rows: int = 256,
                    progress: Callable[[int, int], None] | None = None) -> list[AblationScore]:
    """Exact match and alignment of the model under each experiment: evaluate.score_examples (the one
    held-out scoring loop), many experiments per batched pass (`max_rows` rows)."""
    scores = score_examples(model, examples, batch_size, experiments=[e.heads for e in experiments],
                            method=method, means=means, max_rows=max_rows, progress=progress)
    return [AblationScore(s.exact_match, s.alignment_per_layer) for s in scores]


def reference_sources(loaded: LoadedModel, task: Task | None, n: int = 64) -> list[list[int]]:
    """Token ids of a fixed reference set for mean ablation: the task's training-side texts (seed
    REFERENCE_SEED), the hand-written sentences when the model names no task."""
    texts = task.reference_texts(n, REFERENCE_SEED) if task is not None else list(REAL_SENTENCES)
    max_len = loaded.config.max_len
    return [list(loaded.tokenizer(text, truncation=True, max_length=max_len)["input_ids"]) for text in texts]


def model_fingerprint(directory: Path | None) -> str:
    """sha256 of model.safetensors (first 16 hex digits): which trained weights the figures belong to."""
    if directory is None or not (directory / "model.safetensors").is_file():
        return ""
    return hashlib.sha256((directory / "model.safetensors").read_bytes()).hexdigest()[:16]


def head_importance(loaded: LoadedModel, examples: list[Example], task: Task | None, method: str = "zero",
                    batch_size: int = 64, max_rows: int = 256,
                    progress: Callable[[int, int], None] | None = None) -> dict:
    """The head-importance table of `loaded` on `examples` (JSON-ready; keys in the module docstring)."""
    model = loaded.model
    if not model.config.has_decoder:
        raise ValueError("head importance scores translation (exact match, alignment): an encoder-only model has none")
    means = reference_means(model, reference_sources(loaded, task)) if method == "mean" else None
    experiments = [Ablation("none", ()), *ablations(model.config)]
    start = time.perf_counter()
    scores = score_ablations(model, examples, experiments, method, means, batch_size, max_rows, progress)
    seconds = time.perf_counter() - start
    base = scores[0]
    layer = int(np.nanargmax(base.alignment_per_layer))

    def row(experiment: Ablation, result: AblationScore) -> dict:
        kind, lay, head = experiment.id.split(".")
        entry = {"id": experiment.id, "kind": kind, "layer": int(lay),
                 "exact_match": result.exact_match, "alignment_accuracy": result.alignment_per_layer[layer],
                 "exact_match_drop": base.exact_match - result.exact_match,
                 "alignment_drop": base.alignment_per_layer[layer] - result.alignment_per_layer[layer]}
        if head != "*":
            entry["head"] = int(head)
        return entry

    rows = [row(e, s) for e, s in zip(experiments[1:], scores[1:], strict=True)]
    heads = [r for r in rows if "head" in r]
    return {
        "model": loaded.name, "model_sha256": model_fingerprint(loaded.directory),
        "task": task.name if task is not None else "",
        "n": sum(1 for e in examples if e.group != "real"), "n_real": sum(1 for e in examples if e.group == "real"),
        "method": method, "seconds": round(seconds, 1), "alignment_layer": layer,
        "baseline": {"exact_match": base.exact_match, "alignment_accuracy": base.alignment_per_layer[layer]},
        "heads": heads, "layers": [r for r in rows if "head" not in r],
        "ranking": [r["id"] for r in rank(heads)],
    }


def rank(rows: list[dict]) -> list[dict]:
    """Most important first: the larger exact-match drop, then the larger alignment drop."""
    return sorted(rows, key=lambda r: (-r["exact_match_drop"], -r["alignment_drop"], r["id"]))


def format_table(result: dict, top: int | None = None) -> str:
    """Plain-text ranked table for the terminal."""
    base = result["baseline"]
    lines = [f"{result['model']} ({result['task']}): {result['n']} held-out examples, heads off by "
             f"{result['method']!r}, {result['seconds']} s",
             f"baseline: exact match {base['exact_match']:.1%}, alignment (decoder layer "
             f"{result['alignment_layer']}, head average) {base['alignment_accuracy']:.1%}"]
    for r in (rank(result["heads"])[:top] if top else rank(result["heads"])) + rank(result["layers"]):
        lines.append(f"  {r['id']:<10} exact {r['exact_match']:6.1%} ({-r['exact_match_drop']:+.1%})   "
                     f"alignment {r['alignment_accuracy']:6.1%} ({-r['alignment_drop']:+.1%})")
    return "\n".join(lines)


def load_importance(directory: Path | None) -> dict | None:
    """The model directory's head_importance.json, or None when absent or unreadable.

    Adds "stale": True when the file was computed for other weights than the directory's model.safetensors.
    """
    if directory is None or not (Path(directory) / FILE_NAME).is_file():
        return None
    try:
        result = json.loads((Path(directory) / FILE_NAME).read_text(encoding="utf-8"))
        if not isinstance(result.get("heads"), list) or "baseline" not in result:
            return None
    except (OSError, ValueError, AttributeError):
        return None
    result["stale"] = bool(result.get("model_sha256")) and result["model_sha256"] != model_fingerprint(Path(directory))
    return result
