"""Evaluate a bundled model on a fresh held-out sample: exact match and cross-attention alignment.

    python -m transformer_core.evaluate models/ko-en-toy [--json] [--n 500] [--seed 0]
    python -m transformer_core.evaluate models/reverse --json

Exact match: the greedy output equals the reference, token for token. Alignment: teacher-forced on
the reference, the cross-attention row that predicts each target word (its query is the previous
token) must have its largest weight on the gold source word (see alignment.py); reported per decoder
layer for the head average, and for every single head. JSON keys: exact_match, exact_match_by_group,
alignment_accuracy (best layer, head average), best_layer, best_head {layer, head, accuracy},
alignment_accuracy_best_head, per_layer, per_head, scored_words, input_row_alignment (diagnostic:
the same score on the row whose query is the target word itself), failures (up to 20 misses).
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch

from .alignment import alignment_hits, anti_diagonal_gold
from .data import BOS_ID, EOS_ID, PAD_ID, is_held_out
from .data.ko_en import KoEnGrammar
from .data.reverse import ReverseData
from .loading import LoadedModel, load
from .masks import causal_mask, padding_mask
from .model import Transformer

# Hand-written sentences (not from any generator) for the reverse model, each at most 64 characters.
REAL_SENTENCES = [
    "안녕하세요, 만나서 반갑습니다.",
    "오늘은 날씨가 정말 좋네요!",
    "저는 서울에서 태어나고 자랐어요.",
    "내일 아침 9시에 회의가 있습니다.",
    "이 책은 정말 재미있었어요 😀",
    "배고파서 라면을 두 그릇이나 먹었다.",
    "한국어는 배우기 어렵지만 재미있어요.",
    "지하철 2호선을 타고 강남역에서 내리세요.",
    "ㅋㅋㅋ 진짜 웃기다 ㅎㅎ",
    "비가 와서 우산을 챙겼어요.",
    "The quick brown fox jumps over the lazy dog.",
    "Hello, world! How are you today?",
    "I'd like a cup of coffee, please.",
    "She sells seashells by the seashore.",
    "To be, or not to be: that is the question.",
    "Meet me at 7:30 p.m. near the station.",
    "My e-mail is kim@example.com (work).",
    "It's 25°C and sunny in Seoul 🌞",
    "Transformers map sequences to sequences.",
    "Don't panic! 🚀 Everything is fine.",
    "서울 Seoul 2024 — 한영 mixed text!",
    "Café au lait costs €3.50 in Paris.",
    "Attention is all you need.",
    "우리는 모두 함께 노래를 불렀다 🎵",
]


@dataclass(frozen=True)
class Example:
    """One evaluation item: source ids (with EOS), reference target ids, gold alignment, group name."""

    source_ids: list[int]
    target_ids: list[int]
    gold: list[tuple[int, ...]]
    group: str


# --- decoding ------------------------------------------------------------------------------------

def decoder_states_from_memory(model: Transformer, memory: torch.Tensor, src_mask: torch.Tensor,
                               tgt_ids: torch.Tensor) -> torch.Tensor:
    """Transformer.decode without the output projection: [B,T] ids -> [B,T,D]."""
    tgt_mask = padding_mask(tgt_ids, model.config.pad_token_id)
    y = model.tgt(tgt_ids, tgt_mask)
    causal = causal_mask(tgt_ids.shape[1], tgt_ids.device)
    return model.decoder(y, memory, tgt_mask, causal, src_mask, model.fused_attention)


@torch.no_grad()
def greedy_decode_batch(model: Transformer, src: torch.Tensor, max_new_tokens: int) -> list[list[int]]:
    """Greedy outputs (without BOS and EOS) for a padded batch; same result as Transformer.greedy_decode,
    but only the last position goes through the output projection (12k-way for the reverse model)."""
    model.eval()
    memory, src_mask = model.encode(src)
    out = torch.full((src.shape[0], 1), BOS_ID, dtype=torch.long, device=src.device)
    done = torch.zeros(src.shape[0], dtype=torch.bool, device=src.device)
    for _ in range(min(max_new_tokens, model.config.max_len - 1)):
        states = decoder_states_from_memory(model, memory, src_mask, out)
        next_id = model.lm_head(states[:, -1]).argmax(-1)
        next_id = torch.where(done, torch.full_like(next_id, PAD_ID), next_id)
        out = torch.cat([out, next_id[:, None]], dim=1)
        done |= next_id == EOS_ID
        if done.all():
            break
    results = []
    for row in out[:, 1:].tolist():
        results.append(row[: row.index(EOS_ID)] if EOS_ID in row else row)
    return results


def pad(sequences: list[list[int]]) -> torch.Tensor:
    width = max(len(s) for s in sequences)
    return torch.tensor([s + [PAD_ID] * (width - len(s)) for s in sequences], dtype=torch.long)


# --- samples --------------------------------------------------------------------------------------

def ko_en_examples(tokenizer, n: int, seed: int) -> list[Example]:
    """`n` distinct held-out sentence pairs (their Korean text hashes into the evaluation bucket)."""
    vocab = tokenizer.get_vocab()
    grammar = KoEnGrammar(seed)
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


# --- scoring --------------------------------------------------------------------------------------

def score(model: Transformer, examples: list[Example], batch_size: int, max_new: int | None = None) -> dict:
    """Exact match (overall and by group) and alignment hits per decoder layer and head."""
    cfg = model.config
    n_layers, n_heads = cfg.n_decoder_layers, cfg.n_heads
    head_hits = np.zeros((n_layers, n_heads, 2), dtype=np.int64)  # correct, scored
    layer_hits = np.zeros((n_layers, 2), dtype=np.int64)
    # Diagnostic: the row whose query IS target word t (row t + 1) instead of the row that predicts it.
    input_row_hits = np.zeros((n_layers, n_heads + 1, 2), dtype=np.int64)
    matches: dict[str, list[bool]] = {}
    failures: list[dict] = []
    order = sorted(range(len(examples)), key=lambda i: len(examples[i].source_ids))
    for start in range(0, len(order), batch_size):
        batch = [examples[i] for i in order[start:start + batch_size]]
        src = pad([e.source_ids for e in batch])
        limit = max_new or max(2 * len(e.source_ids) + 10 for e in batch)
        outputs = greedy_decode_batch(model, src, limit)
        for example, output in zip(batch, outputs, strict=True):
            ok = output == example.target_ids
            matches.setdefault(example.group, []).append(ok)
            if not ok and len(failures) < 20:
                failures.append({"source_ids": example.source_ids, "output_ids": output,
                                 "target_ids": example.target_ids})
        trace = model.trace(src, pad([[BOS_ID, *e.target_ids] for e in batch]))
        for layer in range(n_layers):
            weights = trace[f"decoder.{layer}.cross_attn.weights"].float().numpy()  # [B,H,T,S]
            for b, example in enumerate(batch):
                n_words = len(example.source_ids) - 1  # the appended EOS is not a word
                rows = len(example.target_ids)
                for head in range(n_heads):
                    head_hits[layer, head] += alignment_hits(weights[b, head, :rows], example.gold, n_words)
                    input_row_hits[layer, head] += alignment_hits(weights[b, head, 1:rows + 1], example.gold, n_words)
                average = weights[b, :, : rows + 1].mean(axis=0)
                layer_hits[layer] += alignment_hits(average[:rows], example.gold, n_words)
                input_row_hits[layer, n_heads] += alignment_hits(average[1:], example.gold, n_words)
    metrics = summarize(matches, layer_hits, head_hits, failures)
    rates = np.where(input_row_hits[..., 1] > 0, input_row_hits[..., 0] / np.maximum(input_row_hits[..., 1], 1), 0.0)
    metrics["input_row_alignment"] = {"per_layer": rates[:, n_heads].tolist(),
                                      "best_layer": float(rates[:, n_heads].max()),
                                      "best_head": float(rates[:, :n_heads].max())}
    return metrics


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
    """'ko-en' or 'reverse', from config.json's "task" (written by train.py)."""
    if loaded.directory is not None and (loaded.directory / "config.json").is_file():
        task = json.loads((loaded.directory / "config.json").read_text(encoding="utf-8")).get("task")
        if task:
            return task
    return "reverse" if loaded.config.src_vocab_size > 10000 else "ko-en"


def evaluate_model(loaded: LoadedModel, task: str | None = None, n: int = 500, seed: int = 0,
                   batch_size: int = 64) -> dict:
    """Metrics of `loaded` on `n` fresh held-out examples of its task."""
    task = task or task_of(loaded)
    if task == "ko-en":
        examples = ko_en_examples(loaded.tokenizer, n, seed)
    elif task == "reverse":
        examples = reverse_examples_for_eval(loaded.tokenizer, n, seed)
    else:
        raise ValueError(f"unknown task {task!r}")
    with torch.no_grad():
        metrics = score(loaded.model, examples, batch_size)
    tokenizer = loaded.tokenizer
    metrics["failures"] = [
        {"source": tokenizer.decode(f["source_ids"], skip_special_tokens=True),
         "output": tokenizer.decode(f["output_ids"], skip_special_tokens=True),
         "expected": tokenizer.decode(f["target_ids"], skip_special_tokens=True)} for f in metrics["failures"]
    ]
    return {"model": loaded.name, "task": task, "n": n, "seed": seed, **metrics}


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
    parser = argparse.ArgumentParser(prog="python -m transformer_core.evaluate", description=__doc__.split("\n")[0])
    parser.add_argument("model", help="model directory or name (e.g. models/ko-en-toy)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--n", type=int, default=500, help="held-out examples to draw")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--task", choices=["ko-en", "reverse"], help="default: from config.json")
    parser.add_argument("--batch-size", type=int, default=64)
    args = parser.parse_args(argv)
    loaded = load(Path(args.model) if Path(args.model).is_dir() else args.model)
    metrics = evaluate_model(loaded, args.task, args.n, args.seed, args.batch_size)
    if args.json:
        print(json.dumps(metrics, ensure_ascii=False))
    else:
        print(format_report(metrics))
    return 0


if __name__ == "__main__":
    sys.exit(main())
