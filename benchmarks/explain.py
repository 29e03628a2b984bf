"""/explain's numbers: speed of `explain` and of the patching grid, and "is attention an explanation here?".

    python benchmarks/explain.py [--n 500] [--steps 32] [--repeats 5]

Speed (one torch thread): the whole explain (trace_text + explain_trace: gradients with the IG steps in
one batch, rollout, logit lens) for the 10-token ko-en-toy sentence 고양이가 공원에서 생선을 먹었다. with 32
steps (target <= 1 s), and the encoder and decoder patching grids for the 10-token pair with
강아지가 ... (target <= 2 s). Medians of `--repeats`.

The table: on `--n` held-out ko-en-toy sentences (tasks.KO_EN.held_out, seed 0), teacher-forced on the
reference translation as evaluate.py scores alignment, for every target word with a gold alignment: how
often the top source token (the appended </s> is not a candidate) of each method is a gold source token
of that word. Methods: integrated gradients and gradient x input of log p(the reference word), the last
decoder layer's cross-attention head average, that average carried through the encoder's attention
rollout, and the best single cross-attention head — chosen on a separate held-out sample (seed 1,
200 sentences) by evaluate.score, then measured here. Also the IG completeness error
|Σ IG − Δ| / |Δ| at 32 and 64 steps over the first 50 sentences.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

import numpy as np
import torch

import transformer_core as core
from transformer_core.analysis.attribution import (
    attribute,
    explain_trace,
    log_prob_score,
    output_targets,
    patching_grid,
    trace_rollout,
)
from transformer_core.analysis.evaluate import score
from transformer_core.tasks import KO_EN
from transformer_core.tracing.names import SRC_IDS, AttentionKind, attention_name

SENTENCE = "고양이가 공원에서 생선을 먹었다."
OTHER = "강아지가 공원에서 생선을 먹었다."


def median_seconds(fn, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def speed(loaded, steps: int, repeats: int) -> None:
    def explain():
        traced = core.trace_text(loaded, SENTENCE)
        return explain_trace(loaded, traced, steps)

    explain()  # warm-up
    n_src = len(core.trace_text(loaded, SENTENCE).src_tokens)
    print(f"explain, {n_src}-token sentence, {steps} IG steps: {median_seconds(explain, repeats):.3f} s "
          "(target <= 1 s)")
    traced = core.trace_text(loaded, SENTENCE)
    other = core.trace_text(loaded, OTHER)
    tgt, targets = output_targets(traced, loaded.config.eos_token_id)
    for site in ("encoder", "decoder"):
        def grid(site=site):
            return patching_grid(loaded.model, traced.trace[SRC_IDS], other.trace[SRC_IDS], tgt, targets, site)

        print(f"patching grid ({site}, {loaded.config.n_encoder_layers if site == 'encoder' else 2} layers x "
              f"{n_src if site == 'encoder' else tgt.shape[1]} positions): {median_seconds(grid, repeats):.3f} s "
              "(target <= 2 s)")


def top_is_gold(values: np.ndarray, gold: tuple[int, ...], n_words: int) -> bool:
    return int(np.asarray(values)[:n_words].argmax()) in gold


def table(loaded, n: int, steps: int) -> None:
    model, config = loaded.model, loaded.config
    with torch.no_grad():
        picked = score(model, KO_EN.held_out(loaded.tokenizer, 200, seed=1), batch_size=64)["best_head"]
    best = (picked["layer"], picked["head"])
    last = config.n_decoder_layers - 1
    examples = KO_EN.held_out(loaded.tokenizer, n, seed=0)
    names = ["integrated gradients", "gradient x input", "rollout-weighted cross-attention",
             f"cross-attention head average (last layer, L{last})",
             f"best cross-attention head (L{best[0]} H{best[1]})"]
    hits = dict.fromkeys(names, 0)
    scored = 0
    gaps: dict[int, list[float]] = {32: [], 64: []}
    start = time.perf_counter()
    for i, example in enumerate(examples):
        src = torch.tensor([example.source_ids])
        tgt = torch.tensor([[config.bos_token_id, *example.target_ids]])
        targets = example.target_ids  # row t predicts reference word t (the EOS row has no gold word)
        attribution = attribute(model, src, tgt, log_prob_score(targets), steps)
        trace = model.trace(src, tgt)
        cross = trace[attention_name(AttentionKind.CROSS, last)][0]  # [H, T, S]
        average = cross.mean(0).numpy()
        rolled = (cross.mean(0) @ trace_rollout(trace)).numpy()
        head = trace[attention_name(AttentionKind.CROSS, best[0])][0, best[1]].numpy()
        n_words = len(example.source_ids) - 1
        for t, gold in enumerate(example.gold):
            if not gold:
                continue
            scored += 1
            rows = [attribution.integrated_gradients[t].numpy(), attribution.grad_x_input[t].numpy(), rolled[t],
                    average[t], head[t]]
            for name, row in zip(names, rows, strict=True):
                hits[name] += top_is_gold(row, gold, n_words)
        if i < 50:
            for m in gaps:
                result = attribution if m == steps else attribute(model, src, tgt, log_prob_score(targets), m)
                for check in result.completeness():
                    if abs(check["delta"]) > 1e-3:
                        gaps[m].append(abs(check["sum"] - check["delta"]) / abs(check["delta"]))
        if (i + 1) % 50 == 0:
            print(f"  {i + 1}/{n} sentences, {time.perf_counter() - start:.0f} s", file=sys.stderr)
    print(f"\nTop source token = gold source word, {n} held-out ko-en-toy sentences, {scored} scored target words "
          f"(teacher-forced on the reference; IG with {steps} steps):")
    print("| method | top token = gold word |")
    print("|---|---|")
    for name in names:
        print(f"| {name} | {hits[name] / scored:.1%} ({hits[name]}/{scored}) |")
    for m, values in gaps.items():
        values = np.array(values)
        print(f"IG completeness error |Σ IG − Δ| / |Δ| at {m} steps, {len(values)} output tokens of 50 sentences: "
              f"median {np.median(values):.2%}, 90th percentile {np.percentile(values, 90):.2%}, "
              f"max {values.max():.1%}, share within 1 %: {(values <= 0.01).mean():.1%}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, default=500)
    parser.add_argument("--steps", type=int, default=32)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--skip-table", action="store_true")
    args = parser.parse_args()
    torch.set_num_threads(1)
    loaded = core.load("ko-en-toy")
    speed(loaded, args.steps, args.repeats)
    if not args.skip_table:
        table(loaded, args.n, args.steps)


if __name__ == "__main__":
    main()
