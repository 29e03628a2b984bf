"""An independent recount of held-out scoring, one sentence at a time, for tests to hold `score_examples` to.

Written out from the definitions, sharing nothing with transformer_core.analysis.scoring/alignment:
- exact match: greedy decoding by hand (the full forward on the prefix, argmax, stop at EOS or after
  len(reference) + 2 tokens), output == reference;
- alignment: the recorded teacher-forced trace over BOS + reference; for target word t, the cross-attention
  row t (its query is the token before word t) averaged over heads (or one head), the source word
  (column < number of source words; the appended EOS is not one) with the largest weight must be in
  gold[t]; words with an empty gold entry are not scored.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch

from transformer_core.tracing.names import RNN_ATTENTION_WEIGHTS


@dataclass
class SentenceCount:
    exact: bool
    layer_hits: list[tuple[int, int]]  # per decoder layer (head average): (correct, scored)
    head_hits: list[list[tuple[int, int]]]  # per layer, per head


@torch.no_grad()
def greedy_by_hand(model, source_ids: list[int], max_new: int) -> list[int]:
    """Greedy output without BOS and EOS: one full forward per new token (no cache, no batching)."""
    cfg = model.config
    src = torch.tensor([source_ids])
    out = [cfg.bos_token_id]
    for _ in range(max_new):
        token = int(model(src, torch.tensor([out]))[0, -1].argmax())
        if token == cfg.eos_token_id:
            break
        out.append(token)
    return out[1:]


def first_argmax(row: list[float]) -> int:
    best = 0
    for index, value in enumerate(row):
        if value > row[best]:
            best = index
    return best


def hits(rows: torch.Tensor, gold, n_words: int) -> tuple[int, int]:
    """rows [T,S]: (correct, scored) over target words with a gold alignment."""
    correct = scored = 0
    for t, sources in enumerate(gold):
        if not sources:
            continue
        scored += 1
        correct += first_argmax(rows[t, :n_words].tolist()) in sources
    return correct, scored


@torch.no_grad()
def recount(model, example) -> SentenceCount:
    """The recount of one held-out example (source ids end with EOS)."""
    model.eval()
    cfg = model.config
    output = greedy_by_hand(model, example.source_ids, len(example.target_ids) + 2)
    trace = model.trace(torch.tensor([example.source_ids]), torch.tensor([[cfg.bos_token_id, *example.target_ids]]))
    if RNN_ATTENTION_WEIGHTS in trace:
        maps = [trace[RNN_ATTENTION_WEIGHTS][0][None]]  # one step alignment: [1,T,S]
    else:
        maps = [trace[f"decoder.{i}.cross_attn.weights"][0] for i in range(cfg.n_decoder_layers)]  # [H,T,S]
    n_words = len(example.source_ids) - 1
    layer_hits = [hits(weights.double().mean(0), example.gold, n_words) for weights in maps]
    head_hits = [[hits(weights[h].double(), example.gold, n_words) for h in range(weights.shape[0])]
                 for weights in maps]
    return SentenceCount(output == list(example.target_ids), layer_hits, head_hits)


def expected_metrics(counts: list[SentenceCount], groups: list[str]) -> dict:
    """exact_match (the 'real' group left out), per_layer, per_head and scored_words from the per-sentence counts."""
    generated = [c.exact for c, g in zip(counts, groups, strict=True) if g != "real"]
    n_layers = len(counts[0].layer_hits)

    def rate(pairs) -> float:
        correct, scored = sum(p[0] for p in pairs), sum(p[1] for p in pairs)
        return correct / scored

    return {
        "exact_match": sum(generated) / len(generated),
        "per_layer": [rate([c.layer_hits[i] for c in counts]) for i in range(n_layers)],
        "per_head": [[rate([c.head_hits[i][h] for c in counts]) for h in range(len(counts[0].head_hits[i]))]
                     for i in range(n_layers)],
        "scored_words": sum(c.layer_hits[0][1] for c in counts),
    }


def assert_lab_figures_match_a_recount(model_dir, task: str, metrics: dict) -> None:
    """The lab's final exact match and alignment (`metrics`: n, seed, exact_match, lab_alignment) equal the
    recount on the saved model over the same held-out examples (the best layer's head average)."""
    import pytest

    import transformer_core as core
    from transformer_core.training.recipes import held_out_examples

    loaded = core.load(model_dir)
    examples = held_out_examples(task, loaded.tokenizer, metrics["n"], metrics["seed"])
    expected = expected_metrics([recount(loaded.model, e) for e in examples], [e.group for e in examples])
    figures = (metrics["exact_match"], metrics["lab_alignment"])
    recounted = (expected["exact_match"], max(expected["per_layer"]))
    assert figures == pytest.approx(recounted, abs=1e-12), f"lab {figures} != recount {recounted}"


def greedy_text(loaded, text: str) -> str:
    """The output text of greedy decoding by hand, with trace_text's limit (the paper's input length + 50)."""
    from transformer_core.inference.text import encode_text, output_limit

    ids, _ = encode_text(loaded, text)
    out = greedy_by_hand(loaded.model.eval(), ids, output_limit(loaded, len(ids)))
    return loaded.tokenizer.decode(out, skip_special_tokens=True)
