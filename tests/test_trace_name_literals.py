"""Trace names are spelled only in transformer_core/tracing/: every other module reads the constants and
builders of `transformer_core.tracing.names` (or a Trace's `.layout`). Read from the source with ast: a
string literal (or an f-string's fixed text) that is a whole trace name fails, wherever it is."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from transformer_core.tracing import names

ROOT = Path(__file__).resolve().parent.parent
TRACING = ROOT / "transformer_core" / "tracing"
SOURCES = [ROOT / "app.py",
           *sorted(p for folder in ("transformer_core", "explorer", "pages", "benchmarks")
                   for p in (ROOT / folder).rglob("*.py") if TRACING not in p.parents)]

_SIDE_TENSORS = ("ids", "mask", "embed", "pos", "input", "token_type", "causal_mask")
_STACKS = "|".join(names.STACKS)
# A whole trace name as the model records it: 'src.ids', 'encoder.1.self_attn.weights', 'encoder.{}.out'
# (an f-string's placeholder), 'encoder.out', an attention kind 'decoder.cross_attn', 'rnn.attn.weights', 'logits'.
TRACE_NAME = re.compile(
    rf"^(?:(?:{'|'.join(names.SIDES)})\.(?:{'|'.join(_SIDE_TENSORS)})"
    rf"|(?:{_STACKS})\.(?:\d+|\{{\}})(?:\.[a-z_0-9]+)+"
    rf"|(?:{_STACKS})\.(?:out|self_attn|cross_attn)"
    r"|rnn\.(?:encoder|decoder|attn|output)\.[a-z_]+"
    r"|logits)$")


def trace_name_literals(path: Path) -> list[tuple[int, str]]:
    """(line, text) of every string literal or f-string template of a file that is a whole trace name."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.JoinedStr):
            text = "".join(part.value if isinstance(part, ast.Constant) else "{}" for part in node.values)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            text = node.value
        else:
            continue
        if TRACE_NAME.match(text):
            found.append((node.lineno, text))
    return sorted(found)


def test_the_pattern_catches_every_kind_of_trace_name_literal(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text('a = t["src.ids"]\nb = f"encoder.{i}.self_attn.weights"\nc = "logits"\n'
                      'd = "decoder.cross_attn"\ne = "rnn.attn.scores"\nf = "encoder.out"\n'
                      'g = "a cat eats fish."\nh = "src.token.weight"\ni = "encoder.layers"\n', encoding="utf-8")
    assert trace_name_literals(sample) == [(1, "src.ids"), (2, "encoder.{}.self_attn.weights"), (3, "logits"),
                                           (4, "decoder.cross_attn"), (5, "rnn.attn.scores"), (6, "encoder.out")]


def test_the_pattern_matches_every_name_a_real_trace_holds():
    """Every name the golden list of tests/test_trace.py holds for the Transformer, and the RNN's."""
    from transformer_core.tracing.names import ATTENTION_KINDS, LOGITS, RNN_TRACE_NAMES, attention_name, layer_name
    samples = [names.SRC_IDS, names.TGT_INPUT, names.CAUSAL_MASK, names.ENCODER_OUT, LOGITS,
               layer_name("decoder", 1, "ffn.hidden"), *(attention_name(k, 0, "q") for k in ATTENTION_KINDS),
               *(k.value for k in ATTENTION_KINDS), *RNN_TRACE_NAMES]
    assert [s for s in samples if not TRACE_NAME.match(s)] == []


def test_no_trace_name_literal_outside_tracing():
    assert len(SOURCES) > 50, "the source files were not found"
    offenders = [f"{path.relative_to(ROOT)}:{line}: {text!r}"
                 for path in SOURCES for line, text in trace_name_literals(path)]
    assert offenders == [], ("spell these with transformer_core.tracing.names (constants, attention_name, "
                             "layer_name, Head) or trace.layout:\n" + "\n".join(offenders))
