"""Command line: a quick look for class.

    python -m transformer_core trace --model ko-en-toy "고양이가 생선을 먹는다"
    python -m transformer_core trace --model ko-en-toy --json "나는 피자를 먹고 싶다."   (inference/report.py)
    python -m transformer_core models
    python -m transformer_core evaluate models/ko-en-toy --json     (analysis/evaluate.py)
    python -m transformer_core train --task ko-en --preset class --out lab_models/demo   (training/cli.py)
    python -m transformer_core classify --out lab_models/speech-level   (training/classify.py: encoder + [CLS])
    python -m transformer_core heads --model ko-en-toy --n 500 [--json]   (analysis/heads_cli.py; or --corpus FILE)
    python -m transformer_core explain --model ko-en-toy --json "고양이가 생선을 먹었다."   (analysis/explain_cli.py)
    python -m transformer_core worker [--device cuda]   (training/queue.py: trains the lab's runs queued on Redis)
"""

from __future__ import annotations

import argparse
import sys

from transformer_core import ModelUnavailableError, list_models, load, trace_text
from transformer_core.io.files import MODEL_TYPE
from transformer_core.tracing.names import SRC_IDS, TGT_IDS


def format_trace(result) -> str:
    """Tokens, ids and every traced name with its shape, as plain text."""
    trace = result.trace
    lines = [f"model: {result.model_name} ({result.kind}, {result.device})"]
    lines.append("source tokens: " + " ".join(result.src_tokens))
    lines.append("source ids:    " + " ".join(str(i) for i in trace[SRC_IDS][0].tolist()))
    if result.n_truncated:
        lines.append(f"truncated: {result.n_truncated} of {result.n_input_tokens} tokens cut to fit the model")
    if result.has_decoder:
        lines.append("target tokens: " + " ".join(result.tgt_tokens))
        lines.append("target ids:    " + " ".join(str(i) for i in trace[TGT_IDS][0].tolist()))
        lines.append(f"output: {result.output_text}")
    else:
        lines.append("output: (encoder-only model: no decoder, the encoder output is the result)")
    lines.append(f"traced tensors: {len(trace)}, {trace.nbytes / 1e6:.2f} MB, "
                 f"forward {result.forward_seconds * 1e3:.1f} ms")
    width = max(len(name) for name in trace)
    lines += [f"  {name:<{width}}  {list(shape)}" for name, shape in trace.shapes().items()]
    return "\n".join(lines)


# Subcommands with their own argument parsers: name -> module with main(argv).
SUBCOMMANDS = {"evaluate": "transformer_core.analysis.evaluate", "train": "transformer_core.training.cli",
               "classify": "transformer_core.training.classify",
               "heads": "transformer_core.analysis.heads_cli",
               "explain": "transformer_core.analysis.explain_cli",
               "worker": "transformer_core.training.queue"}


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv and argv[0] in SUBCOMMANDS:
        import importlib

        return importlib.import_module(SUBCOMMANDS[argv[0]]).main(argv[1:])
    parser = argparse.ArgumentParser(prog="python -m transformer_core", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    trace_cmd = sub.add_parser("trace", help="trace one sentence and print every tensor's shape")
    trace_cmd.add_argument("text")
    trace_cmd.add_argument("--model", default="ko-en-toy", help="a name from `models`, or a model directory")
    trace_cmd.add_argument("--json", action="store_true",
                           help="print one JSON object: output_text, src_tokens, unknown_words, outside_training, "
                                "outside_parts (inference/report.py) instead of the shapes")
    sub.add_parser("models", help="list the models and whether they load here")
    for name, module in SUBCOMMANDS.items():
        sub.add_parser(name, help=f"see `python -m transformer_core {name} --help` ({module})")
    args = parser.parse_args(argv)
    if args.command == "models":
        for info in list_models(all_architectures=True):
            kind = "" if info.architecture == MODEL_TYPE else f" ({info.architecture})"
            print(f"{info.name:<20} {'ok' if info.available else 'unavailable: ' + info.reason}{kind}")
        return 0
    try:
        if args.json:
            import json

            from transformer_core.inference.report import translation_report

            print(json.dumps(translation_report(load(args.model), args.text), ensure_ascii=False))
            return 0
        result = trace_text(load(args.model), args.text)
    except (ValueError, ModelUnavailableError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(format_trace(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
