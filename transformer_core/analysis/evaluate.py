"""Evaluate a bundled model on a fresh held-out sample: exact match and cross-attention alignment.

    python -m transformer_core evaluate models/ko-en-toy [--json] [--n 500] [--seed 0]
    python -m transformer_core evaluate models/reverse --json
    python -m transformer_core evaluate models/ko-en-toy --head-importance --json   (importance.py)

Exact match: the greedy output equals the reference, token for token. Alignment: teacher-forced on
the reference, the cross-attention row that predicts each target word (its query is the previous
token) must have its largest weight on the gold source word (see alignment.py); reported per decoder
layer for the head average, and for every single head. The 2015 attention RNN (rnn.py) has one
alignment per step (`rnn.attn.weights`): it is scored as one layer with one head
(`cross_attention_maps`). JSON keys: exact_match, exact_match_by_group,
alignment_accuracy (best layer, head average), best_layer, best_head {layer, head, accuracy},
alignment_accuracy_best_head, per_layer, per_head, scored_words, input_row_alignment (diagnostic:
the same score on the row whose query is the target word itself), failures (up to 20 misses).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import torch

from transformer_core.analysis.alignment import alignment_hits, anti_diagonal_gold
from transformer_core.analysis.head_patches import merge_patches, switch_off_rows
from transformer_core.analysis.heldout import REAL_SENTENCES, Example
from transformer_core.data import EOS_ID, is_held_out
from transformer_core.data.ko_en import KoEnGrammar
from transformer_core.data.reverse import ReverseData
from transformer_core.inference.batching import pad_batch
from transformer_core.inference.generation import generate
from transformer_core.io.loading import LoadedModel, load
from transformer_core.models.transformer import Transformer
from transformer_core.tracing.hooks import Patch
from transformer_core.tracing.names import RNN_ATTENTION_WEIGHTS, AttentionKind, Head, attention_name

# --- samples --------------------------------------------------------------------------------------

def ko_en_examples(tokenizer, n: int, seed: int, core: bool = False) -> list[Example]:
    """`n` distinct held-out sentence pairs (their Korean text hashes into the evaluation bucket);
    `core=True` draws them from the compact core grammar (`KoEnGrammar(seed, core=True)`)."""
    vocab = tokenizer.get_vocab()
    grammar = KoEnGrammar(seed, core=core)
    seen: set[str] = set()
    examples = []
    while len(examples) < n:
        pair = grammar.sample()
        if pair.source_text in seen or not is_held_out(pair.source_text):
            continue
        seen.add(pair.source_text)
        source_ids = [vocab[w] for w in pair.source] + [EOS_ID]
        examples.append(Example(source_ids, [vocab[w] for w in pair.target], list(pair.alignment), "generated"))
    return examples


def reverse_example(tokenizer, text: str, group: str) -> Example:
    ids = tokenizer(text)["input_ids"]  # characters + EOS
    chars = ids[:-1]
    return Example(ids, chars[::-1], anti_diagonal_gold(len(chars)), group)


def reverse_examples_for_eval(tokenizer, n: int, seed: int) -> list[Example]:
    """`n` held-out generated texts (random / words / sentence styles) plus the hand-written sentences."""
    data = ReverseData(seed)
    examples = []
    seen: set[str] = set()
    while len(examples) < n:
        example = data.sample_split(held_out=True)
        if example.source in seen:
            continue
        seen.add(example.source)
        examples.append(reverse_example(tokenizer, example.source, example.style))
    examples += [reverse_example(tokenizer, text, "real") for text in REAL_SENTENCES]
    return examples


# --- scoring: the ONE held-out scoring loop (evaluate CLI, head importance, the lab's snapshots) -----

def decoding_limit(batch: Sequence[Example]) -> int:
    """New tokens decoded for a batch of held-out examples: the longest reference + 2 (its EOS and one more).

    An output still running after that many tokens is already wrong, so a longer limit could not change
    any exact match, only the time an untrained model spends running on without EOS."""
    return max(len(e.target_ids) for e in batch) + 2


@dataclass
class HeldOutScore:
    """Hit counts of one model (under one set of patches) on held-out examples; `metrics()` is the CLI's dict."""

    n_layers: int
    n_heads: int
    matches: dict[str, list[bool]] = field(default_factory=dict)  # group -> greedy output == reference
    failures: list[dict] = field(default_factory=list)  # up to 20 misses (ids)
    layer_hits: np.ndarray = None  # [L, 2] correct, scored (head average)
    head_hits: np.ndarray = None  # [L, H, 2]
    input_row_hits: np.ndarray = None  # [L, H + 1, 2] diagnostic: the row whose query IS the word

    def __post_init__(self) -> None:
        self.layer_hits = np.zeros((self.n_layers, 2), dtype=np.int64)
        self.head_hits = np.zeros((self.n_layers, self.n_heads, 2), dtype=np.int64)
        self.input_row_hits = np.zeros((self.n_layers, self.n_heads + 1, 2), dtype=np.int64)

    @property
    def exact_match(self) -> float:
        """Share of exact outputs over the generated groups (the hand-written 'real' sentences left out)."""
        generated = [ok for group, oks in self.matches.items() if group != "real" for ok in oks]
        return float(np.mean(generated)) if generated else float("nan")

    @property
    def alignment_per_layer(self) -> list[float]:
        """Head-averaged cross-attention alignment accuracy of each decoder layer (nan when nothing scored)."""
        return [float(c / s) if s else float("nan") for c, s in self.layer_hits]

    @property
    def alignment(self) -> float:
        """The best decoder layer's head-averaged alignment accuracy (0.0 when nothing was scored)."""
        rates = [r for r in self.alignment_per_layer if not np.isnan(r)]
        return max(rates) if rates else 0.0

    def metrics(self) -> dict:
        """The metrics dict (keys documented in the module docstring)."""
        metrics = summarize(self.matches, self.layer_hits, self.head_hits, self.failures)
        hits, n_heads = self.input_row_hits, self.n_heads
        rates = np.where(hits[..., 1] > 0, hits[..., 0] / np.maximum(hits[..., 1], 1), 0.0)
        metrics["input_row_alignment"] = {"per_layer": rates[:, n_heads].tolist(),
                                          "best_layer": float(rates[:, n_heads].max()),
                                          "best_head": float(rates[:, :n_heads].max())}
        return metrics


def cross_attention(model, src: torch.Tensor, tgt: torch.Tensor,
                    patches: Mapping[str, Patch] | None = None) -> list[np.ndarray]:
    """The alignment matrices of a teacher-forced pass under `patches`, one [B,H,T,S] array per decoder
    layer (row t predicts target token t). A Transformer's cross-attention weights are read with
    observer patches (no [B,T,V] logits, nothing else kept); the attention RNN's one alignment per
    step (`rnn.attn.weights` [B,T,S]) is recorded and scored as one layer with one head ([B,1,T,S])."""
    if not isinstance(model, Transformer):
        return cross_attention_maps(model.trace(src, tgt, patches=patches))
    names = [attention_name(AttentionKind.CROSS, i) for i in range(model.config.n_decoder_layers)]
    seen: dict[str, torch.Tensor] = {}

    def keep(name: str) -> Patch:
        def observe(x: torch.Tensor) -> torch.Tensor:
            seen[name] = x
            return x
        return observe

    combined = merge_patches(dict(patches or {}), {name: keep(name) for name in names})
    with model.patched(combined):
        memory, src_mask = model.encode(src)
        model.decode(tgt, memory, src_mask, project=False)  # no [B,T,V] logits needed
    return [seen[name].float().cpu().numpy() for name in names]


def cross_attention_maps(trace) -> list[np.ndarray]:
    """The alignment matrices of a recorded teacher-forced trace, one [B,H,T,S] array per decoder layer:
    cross-attention weights for a Transformer; for the attention RNN, `rnn.attn.weights` [B,T,S] as one
    layer with one head ([B,1,T,S]). Row t predicts target token t."""
    if RNN_ATTENTION_WEIGHTS in trace:
        return [trace[RNN_ATTENTION_WEIGHTS].float().cpu().numpy()[:, None]]  # [B,T,S] -> [B,1,T,S]
    return [trace[attention_name(AttentionKind.CROSS, i)].float().cpu().numpy()
            for i in range(trace.n_layers("decoder"))]


@torch.no_grad()
def score_examples(model, examples: Sequence[Example], batch_size: int = 64,
                   patches: Mapping[str, Patch] | None = None, *,
                   experiments: Sequence[Sequence[Head]] | None = None, method: str = "zero",
                   means: Mapping[str, torch.Tensor] | None = None, max_rows: int = 256,
                   progress: Callable[[int, int], None] | None = None) -> list[HeldOutScore]:
    """Score held-out examples: greedy exact match (`decoding_limit`, one padder: batching.pad_batch) and,
    teacher-forced on the reference, cross-attention alignment per decoder layer and head.

    Without `experiments`: ONE score, of the model under `patches`. With `experiments` (head sets, e.g.
    head importance's ablations): one score per experiment, its heads switched off by `method` (on top
    of `patches`); a batch is repeated once per experiment, as many experiments per pass as fit in
    `max_rows` rows (interventions.switch_off_rows). Examples go in length-sorted batches of
    `batch_size`; `progress(done, total)` counts (experiment, example) pairs. The model runs in eval
    mode and is put back in its previous mode.
    """
    cfg = model.config
    # The attention RNN (rnn.py): one alignment per step, scored as one layer with one head.
    n_layers, n_heads = (cfg.n_decoder_layers, cfg.n_heads) if isinstance(model, Transformer) else (1, 1)
    runs = [()] if experiments is None else list(experiments)
    scores = [HeldOutScore(n_layers, n_heads) for _ in runs]
    device = next(model.parameters()).device
    order = sorted(range(len(examples)), key=lambda i: len(examples[i].source_ids))
    total, done = len(runs) * len(examples), 0
    was_training = model.training
    model.eval()
    try:
        for start in range(0, len(order), batch_size):
            batch = [examples[i] for i in order[start:start + batch_size]]
            src = pad_batch([e.source_ids for e in batch], cfg.pad_token_id).to(device)
            tgt = pad_batch([[cfg.bos_token_id, *e.target_ids] for e in batch], cfg.pad_token_id).to(device)
            limit = decoding_limit(batch)
            per_pass = len(runs) if experiments is None else max(1, max_rows // len(batch))
            for first in range(0, len(runs), per_pass):
                chunk = list(range(first, min(first + per_pass, len(runs))))
                pass_patches = dict(patches or {})
                if experiments is not None:
                    heads_by_row = [runs[j] for j in chunk for _ in batch]
                    pass_patches = merge_patches(pass_patches, switch_off_rows(heads_by_row, n_heads, method, means))
                rows_src, rows_tgt = src.repeat(len(chunk), 1), tgt.repeat(len(chunk), 1)  # [k·B, S], [k·B, T]
                decoded = generate(model, rows_src, max_new_tokens=limit, patches=pass_patches)  # greedy
                maps = cross_attention(model, rows_src, rows_tgt, pass_patches)  # layer -> [k·B, H, T, S]
                for c, j in enumerate(chunk):
                    for b, example in enumerate(batch):
                        _count(scores[j], example, decoded.tokens(c * len(batch) + b),
                               [weights[c * len(batch) + b] for weights in maps])
                done += len(chunk) * len(batch)
                if progress is not None:
                    progress(done, total)
    finally:
        model.train(was_training)
    return scores


def _count(score: HeldOutScore, example: Example, output: list[int], maps: list[np.ndarray]) -> None:
    """Add one example's exact match and alignment hits (maps: one [H,T,S] array per decoder layer)."""
    ok = output == example.target_ids
    score.matches.setdefault(example.group, []).append(ok)
    if not ok and len(score.failures) < 20:
        score.failures.append({"source_ids": example.source_ids, "output_ids": output,
                               "target_ids": example.target_ids})
    n_words = len(example.source_ids) - 1  # the appended EOS is not a word
    rows = len(example.target_ids)
    for layer, weights in enumerate(maps):  # [H,T,S]
        for head in range(score.n_heads):
            score.head_hits[layer, head] += alignment_hits(weights[head, :rows], example.gold, n_words)
            score.input_row_hits[layer, head] += alignment_hits(weights[head, 1:rows + 1], example.gold, n_words)
        average = weights[:, : rows + 1].mean(axis=0)
        score.layer_hits[layer] += alignment_hits(average[:rows], example.gold, n_words)
        score.input_row_hits[layer, score.n_heads] += alignment_hits(average[1:], example.gold, n_words)


def score(model, examples: list[Example], batch_size: int = 64,
          patches: Mapping[str, Patch] | None = None) -> dict:
    """The metrics dict of `model` (under `patches`) on `examples`: `score_examples(...)[0].metrics()`."""
    return score_examples(model, examples, batch_size, patches)[0].metrics()


def summarize(matches: dict[str, list[bool]], layer_hits: np.ndarray, head_hits: np.ndarray,
              failures: list[dict]) -> dict:
    """Turn hit counts into the metrics dict (keys documented in the module docstring)."""
    per_layer = [float(c / s) if s else float("nan") for c, s in layer_hits]
    per_head = [[float(c / s) if s else float("nan") for c, s in layer] for layer in head_hits]
    best_layer = int(np.nanargmax(per_layer))
    flat = np.array(per_head)
    layer, head = np.unravel_index(int(np.nanargmax(flat)), flat.shape)
    generated = [ok for group, oks in matches.items() if group != "real" for ok in oks]
    metrics = {
        "exact_match": float(np.mean(generated)) if generated else float("nan"),
        "exact_match_by_group": {group: float(np.mean(oks)) for group, oks in sorted(matches.items())},
        "alignment_accuracy": per_layer[best_layer],
        "best_layer": best_layer,
        "best_head": {"layer": int(layer), "head": int(head), "accuracy": float(flat[layer, head])},
        "alignment_accuracy_best_head": float(flat[layer, head]),
        "per_layer": per_layer,
        "per_head": per_head,
        "scored_words": int(layer_hits[0, 1]),
        "failures": failures,
    }
    return metrics


def task_of(loaded: LoadedModel) -> str:
    """The task a model was trained on ('ko-en', 'reverse', 'letters-copy', ...): `loaded.task`, read from
    config.json's "task" once when the model was loaded. ValueError when the model says nothing."""
    if not loaded.task:
        raise ValueError(f"{loaded.name}: config.json names no task; pass one (--task ko-en | reverse)")
    return loaded.task


def trained_on_core(loaded: LoadedModel) -> bool:
    """Was the model trained on the core grammar? (config.json "grammar": "core", written by the lab)."""
    return loaded.grammar == "core"


def evaluate_model(loaded: LoadedModel, task: str | None = None, n: int = 500, seed: int = 0,
                   batch_size: int = 64, core: bool | None = None) -> dict:
    """Metrics of `loaded` on `n` fresh held-out examples of its task.

    ko-en: `core` True measures on the core grammar, False on the whole grammar, None: what
    config.json's "grammar" says ("core" or anything else = the whole grammar)."""
    task = task or task_of(loaded)
    if task == "ko-en":
        core = trained_on_core(loaded) if core is None else core
        examples = ko_en_examples(loaded.tokenizer, n, seed, core=core)
    elif task == "reverse":
        examples = reverse_examples_for_eval(loaded.tokenizer, n, seed)
    elif task.startswith("letters-"):  # the training lab's copy / reverse / sort of a-z strings
        from transformer_core.training.recipes import held_out_examples

        examples = held_out_examples(task.removeprefix("letters-"), loaded.tokenizer, n, seed)
    else:
        raise ValueError(f"unknown task {task!r}")
    metrics = score_examples(loaded.model, examples, batch_size)[0].metrics()
    tokenizer = loaded.tokenizer
    metrics["failures"] = [
        {"source": tokenizer.decode(f["source_ids"], skip_special_tokens=True),
         "output": tokenizer.decode(f["output_ids"], skip_special_tokens=True),
         "expected": tokenizer.decode(f["target_ids"], skip_special_tokens=True)} for f in metrics["failures"]
    ]
    grammar = {"grammar": "core" if core else "full"} if task == "ko-en" else {}
    return {"model": loaded.name, "task": task, "n": n, "seed": seed, **grammar, **metrics}


def format_report(metrics: dict) -> str:
    """Plain-text summary for the terminal."""
    lines = [f"{metrics['model']} ({metrics['task']}): {metrics['n']} held-out examples, seed {metrics['seed']}",
             f"exact match: {metrics['exact_match']:.1%}"]
    lines += [f"  {group}: {value:.1%}" for group, value in metrics["exact_match_by_group"].items()]
    lines.append(f"alignment accuracy, best layer (head average): {metrics['alignment_accuracy']:.1%} "
                 f"(decoder layer {metrics['best_layer']}, {metrics['scored_words']} scored words)")
    best = metrics["best_head"]
    lines.append(f"alignment accuracy, best head: {best['accuracy']:.1%} (layer {best['layer']}, head {best['head']})")
    for layer, (average, heads) in enumerate(zip(metrics["per_layer"], metrics["per_head"], strict=True)):
        lines.append(f"  layer {layer}: average {average:.1%}; heads " + " ".join(f"{h:.1%}" for h in heads))
    shifted = metrics["input_row_alignment"]
    lines.append(f"diagnostic, scoring the row whose query is the word itself: best layer {shifted['best_layer']:.1%}, "
                 f"best head {shifted['best_head']:.1%}")
    for failure in metrics["failures"][:5]:
        lines.append(f"  miss: {failure['source']!r} -> {failure['output']!r} (expected {failure['expected']!r})")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m transformer_core evaluate", description=__doc__.split("\n")[0])
    parser.add_argument("model", help="model directory or name (e.g. models/ko-en-toy)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--n", type=int, help="held-out examples to draw (default 500; 200 with --head-importance)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--task", choices=["ko-en", "reverse"], help="default: from config.json")
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--core", action=argparse.BooleanOptionalAction, default=None,
                        help="ko-en: measure on the core grammar (default: config.json's \"grammar\")")
    parser.add_argument("--head-importance", action="store_true",
                        help="switch off each head (and each layer) alone and measure the drop; writes "
                             "head_importance.json into the model directory (see importance.py)")
    parser.add_argument("--method", choices=["zero", "mean", "uniform"], default="zero",
                        help="how --head-importance switches a head off")
    parser.add_argument("--max-rows", type=int, default=256, help="batch rows per pass for --head-importance")
    args = parser.parse_args(argv)
    loaded = load(Path(args.model) if Path(args.model).is_dir() else args.model)
    if args.head_importance:
        return head_importance_main(loaded, args)
    metrics = evaluate_model(loaded, args.task, args.n or 500, args.seed, args.batch_size, core=args.core)
    if args.json:
        print(json.dumps(metrics, ensure_ascii=False))
    else:
        print(format_report(metrics))
    return 0


def examples_for(loaded: LoadedModel, task: str, n: int, seed: int, core: bool | None = None) -> list[Example]:
    """The held-out sample of a task (ko-en: n sentence pairs, core grammar as evaluate_model decides;
    reverse: n texts + the hand-written ones)."""
    if task == "ko-en":
        return ko_en_examples(loaded.tokenizer, n, seed, core=trained_on_core(loaded) if core is None else core)
    if task == "reverse":
        return reverse_examples_for_eval(loaded.tokenizer, n, seed)
    raise ValueError(f"unknown task {task!r}")


def head_importance_main(loaded: LoadedModel, args) -> int:
    """--head-importance: the table, printed and written to <model dir>/head_importance.json."""
    from transformer_core.analysis.importance import FILE_NAME, format_table, head_importance

    task = args.task or task_of(loaded)
    n = args.n or 200
    examples = examples_for(loaded, task, n, args.seed, args.core)
    last = [-1]

    def progress(done: int, total: int) -> None:
        percent = 100 * done // total
        if percent // 10 != last[0]:
            last[0] = percent // 10
            print(f"head importance: {percent}% ({done}/{total} experiment x example pairs)", file=sys.stderr)

    result = head_importance(loaded, examples, task, args.method, args.batch_size, args.max_rows, progress)
    result["seed"] = args.seed
    if task == "ko-en":
        result["grammar"] = "core" if (trained_on_core(loaded) if args.core is None else args.core) else "full"
    if loaded.directory is not None:
        path = loaded.directory / FILE_NAME
        path.write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"wrote {path}", file=sys.stderr)
    print(json.dumps(result, ensure_ascii=False) if args.json else format_table(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
