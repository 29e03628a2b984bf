"""`python -m transformer_core explain --model NAME [--steps N] [--json] "TEXT"`: why this output?

For each output token of the model's greedy translation: integrated gradients and gradient x input
over the source tokens, the last decoder layer's cross-attention (head average), the encoder's
attention rollout and the decoder's logit lens (see attribution.py).

JSON keys: src_tokens, output_tokens (</s> included when generated), integrated_gradients and
grad_x_input ([T_out][S]), ig_completeness ([T_out] of {"sum", "delta"}), rollout ([S][S], encoder;
null for the attention RNN), cross_attention ([T_out][S]; the RNN's one alignment), logit_lens
([decoder layers][T_out] top token strings; null for the RNN).
"""

from __future__ import annotations

import argparse
import json
import sys

from transformer_core.analysis.attribution import DEFAULT_STEPS, Explanation, explain_trace


def explanation_json(explanation: Explanation, tokenizer) -> dict:
    """The CLI's JSON object (keys in the module docstring)."""
    attribution = explanation.attribution
    lens = None
    if explanation.logit_lens is not None:
        _, ids = explanation.logit_lens.top(1)  # [L, T, 1]
        rows = len(explanation.row_tokens)
        lens = [tokenizer.convert_ids_to_tokens(layer[:rows, 0].tolist()) for layer in ids]
    return {
        "src_tokens": explanation.src_tokens,
        "output_tokens": explanation.row_tokens,
        "integrated_gradients": attribution.integrated_gradients.tolist(),
        "grad_x_input": attribution.grad_x_input.tolist(),
        "ig_completeness": attribution.completeness(),
        "rollout": None if explanation.rollout is None else explanation.rollout.tolist(),
        "cross_attention": explanation.cross_attention_mean.tolist(),
        "logit_lens": lens,
    }


def format_text(data: dict) -> str:
    """One line per output token: the top source token of each method and the IG completeness check."""
    src = data["src_tokens"]

    def top(row: list[float]) -> str:
        return src[max(range(len(row)), key=row.__getitem__)]

    lines = ["source: " + " ".join(src), f"{'output':<12} {'IG':<12} {'grad×input':<12} {'attention':<12} "
             "Σ IG / f(x) − f(baseline)"]
    for t, token in enumerate(data["output_tokens"]):
        check = data["ig_completeness"][t]
        lines.append(f"{token:<12} {top(data['integrated_gradients'][t]):<12} {top(data['grad_x_input'][t]):<12} "
                     f"{top(data['cross_attention'][t]):<12} {check['sum']:.3f} / {check['delta']:.3f}")
    if data["logit_lens"]:
        lines.append("logit lens (top token per decoder layer):")
        lines += [f"  layer {i}: " + " ".join(row) for i, row in enumerate(data["logit_lens"])]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    from transformer_core import ModelUnavailableError, load, trace_text

    parser = argparse.ArgumentParser(prog="python -m transformer_core explain", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("text")
    parser.add_argument("--model", default="ko-en-toy", help="a name from `models`, or a model directory")
    parser.add_argument("--steps", type=int, default=DEFAULT_STEPS, help="integrated-gradient steps (default 32)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = parser.parse_args(argv)
    try:
        if args.steps < 1:
            raise ValueError(f"--steps must be at least 1, got {args.steps}")
        loaded = load(args.model)
        if not loaded.config.has_decoder:
            raise ValueError(f"{args.model} is encoder-only: it writes no output tokens to explain "
                             "(the /explain page attributes its [CLS] or a chosen token instead)")
        explanation = explain_trace(loaded, trace_text(loaded, args.text), args.steps)
    except (ValueError, ModelUnavailableError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    data = explanation_json(explanation, loaded.tokenizer)
    print(json.dumps(data, ensure_ascii=False) if args.json else format_text(data))
    return 0


if __name__ == "__main__":
    sys.exit(main())
