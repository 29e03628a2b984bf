"""Forward-pass cost of the from-scratch core vs torch.nn.Transformer with the same weights.

Paper-base dimensions (d_model 512, 8 heads, 6+6 layers, d_ff 2048), one batch of 128 source
and 128 target tokens, eval mode, no_grad. The reference runs nn.Transformer's stacks between our
own embeddings and output projection, so both sides do the same work outside the stacks.
Repeats are interleaved (ref, untraced, traced, ref, ...) and medians compared within this one
run, because this machine's speed drifts between runs.

    python benchmarks/forward.py [--repeats 30] [--batch 1] [--vocab 1000]

Targets: untraced / nn.Transformer <= 1.10, traced / nn.Transformer <= 1.35.
"""

from __future__ import annotations

import argparse
import statistics
import time

import torch
from torch import nn

from transformer_core import Transformer
from transformer_core.io.interop import config_from_nn_transformer, load_nn_transformer_weights
from transformer_core.models.masks import causal_mask, to_torch_attn_mask, to_torch_key_padding_mask
from transformer_core.tracing.names import LOGITS


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeats", type=int, default=30)
    parser.add_argument("--batch", type=int, default=1)
    parser.add_argument("--length", type=int, default=128)
    parser.add_argument("--vocab", type=int, default=1000)
    args = parser.parse_args()

    torch.manual_seed(0)
    reference = nn.Transformer(d_model=512, nhead=8, num_encoder_layers=6, num_decoder_layers=6,
                               dim_feedforward=2048, batch_first=True).eval()
    reference.encoder.norm = None  # the paper's post-LN stacks have no final LayerNorm
    reference.decoder.norm = None
    model = Transformer(config_from_nn_transformer(reference, args.vocab, args.vocab, final_norm=False))
    load_nn_transformer_weights(model, reference)
    model.eval()

    src = torch.randint(3, args.vocab, (args.batch, args.length))
    tgt = torch.randint(3, args.vocab, (args.batch, args.length))
    src_mask, tgt_mask = src != 0, tgt != 0
    blocked_future = to_torch_attn_mask(causal_mask(args.length))

    def run_reference() -> torch.Tensor:
        out = reference(model.src(src, src_mask), model.tgt(tgt, tgt_mask), tgt_mask=blocked_future,
                        src_key_padding_mask=to_torch_key_padding_mask(src_mask),
                        tgt_key_padding_mask=to_torch_key_padding_mask(tgt_mask),
                        memory_key_padding_mask=to_torch_key_padding_mask(src_mask), tgt_is_causal=True)
        return model.lm_head(out)

    def run_untraced() -> torch.Tensor:
        return model(src, tgt, src_mask, tgt_mask)

    def run_traced() -> torch.Tensor:
        return model.trace(src, tgt, src_mask, tgt_mask)[LOGITS]

    runs = {"nn.Transformer": run_reference, "untraced": run_untraced, "traced": run_traced}
    times: dict[str, list[float]] = {name: [] for name in runs}
    with torch.no_grad():
        outputs = {name: fn() for name, fn in runs.items()}  # warm-up, and a correctness check
        for name in ("untraced", "traced"):
            diff = (outputs[name] - outputs["nn.Transformer"]).abs().max().item()
            print(f"max |{name} - nn.Transformer| = {diff:.2e}")
        for _ in range(args.repeats):
            for name, fn in runs.items():
                start = time.perf_counter()
                fn()
                times[name].append(time.perf_counter() - start)

    medians = {name: statistics.median(values) for name, values in times.items()}
    print(f"torch {torch.__version__}, {torch.get_num_threads()} threads; batch {args.batch}, "
          f"{args.length} source + {args.length} target tokens; {args.repeats} interleaved repeats")
    for name, value in medians.items():
        print(f"  median {name:<15} {value * 1e3:8.1f} ms")
    base = medians["nn.Transformer"]
    print(f"untraced / nn.Transformer = {medians['untraced'] / base:.3f}   (target <= 1.10)")
    print(f"traced / nn.Transformer   = {medians['traced'] / base:.3f}   (target <= 1.35)")


if __name__ == "__main__":
    main()
