"""One trace vocabulary: outside tracing/names.py (and the hook naming in tracing/hooks.py) the core never
spells a trace name with string formatting; it calls names.attention_name / layer_name / Head.name or
uses the constants (SRC_IDS, LOGITS, ...)."""

from __future__ import annotations

import io
import re
import tokenize
from pathlib import Path

import transformer_core
from transformer_core.analysis import head_patches
from transformer_core.tracing import names

CORE = Path(transformer_core.__file__).parent
ALLOWED = {CORE / "tracing" / "names.py", CORE / "tracing" / "hooks.py"}
TENSORS = "q|k|v|scores|masked_scores|weights|context|out|in|ffn|self_attn|cross_attn|ids|mask|embed|pos|input|hidden"
# An f-string that spells a trace name: 'encoder.{i}...', '{stack}.{layer}.', '{attention}.context', '..cross_attn..'.
F_STRING_NAME = re.compile(
    r"^[rbu]*f[rbu]*(['\"]{1,3})("
    r"(encoder|decoder|src|tgt|rnn)\.[^'\"]*\{"  # a stream prefix followed by a formatted part
    r"|\{[^}]*\}\.\{[^}]*\}\."  # '{stack}.{layer}.'
    r"|[^'\"]*\{[^}]*\}\.(" + TENSORS + r")\b"  # '{prefix}.context'
    r"|[^'\"]*(self_attn|cross_attn)"  # any formatted string naming an attention module
    r")", re.IGNORECASE)
# A name glued on: prefix + ".weights"
CONCATENATED_NAME = re.compile(r"\+\s*['\"]\.(" + TENSORS + r")['\"]")
# Parameter paths of checkpoints (state-dict keys such as 'encoder.layer.3.attention...') are not trace names.
STATE_DICT_PATH = re.compile(r"\.layers?\.")


def formatted_trace_names(source: str) -> list[str]:
    """Every f-string literal or concatenation in `source` that builds a trace name."""
    found = []
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.STRING and F_STRING_NAME.match(token.string) \
                and not STATE_DICT_PATH.search(token.string):
            found.append(f"line {token.start[0]}: {token.string}")
    for number, line in enumerate(source.splitlines(), 1):
        if CONCATENATED_NAME.search(line):
            found.append(f"line {number}: {line.strip()}")
    return found


def test_the_checker_recognises_the_dialects_it_forbids():
    """The patterns catch what the core used to write (so an empty result below means something)."""
    bad = ['x = f"decoder.{i}.cross_attn.weights"', 'x = f"{stack}.{layer}.{attn}.weights"',
           'x = f"{attention}.context"', "x = prefix + '.weights'", 'x = f"encoder.{i}.self_attn.q"']
    for line in bad:
        assert formatted_trace_names(line), line
    good = ['x = attention_name("decoder.cross_attn", i)', 'x = f"encoder.layers.{i}.{core}.{param}"',
            'x = f"{i}.{kind}"', 'x = f"head {head} does not exist"']
    for line in good:
        assert not formatted_trace_names(line), line


def test_no_core_module_formats_a_trace_name_outside_the_names_module():
    offenders = {}
    for path in sorted(CORE.rglob("*.py")):
        if path in ALLOWED:
            continue
        found = formatted_trace_names(path.read_text(encoding="utf-8"))
        if found:
            offenders[str(path.relative_to(CORE))] = found
    assert not offenders, f"trace names built by formatting (use transformer_core.tracing.names): {offenders}"


def test_names_head_is_the_one_head_type():
    assert head_patches.Head is names.Head
    defined = [path.relative_to(CORE) for path in CORE.rglob("*.py") if path.parent.name != "tracing"
               and re.search(r"^class Head\b", path.read_text(encoding="utf-8"), re.MULTILINE)]
    assert defined == []
    head = names.Head("enc", 0, 1)
    assert head == names.Head("encoder.self_attn", 0, 1) and str(head) == "enc.0.1"
    assert head.attention == "encoder.0.self_attn" and head.name("context") == "encoder.0.self_attn.context"
