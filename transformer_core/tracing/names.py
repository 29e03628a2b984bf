"""The trace vocabulary: every trace name a reader needs is built here, nowhere else.

Hook points get their names from the module tree (`hooks.name_hook_points`: `encoder.0.self_attn.q`
is the hook `q` of `self.encoder.layers[0].self_attn`); this module is the readers' side of that
contract: attention kinds, one head type, and functions that spell the names (see
models/transformer.py's docstring for the full list with shapes).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

# Names of the streams around the stacks (B batch, S source length, T target length, D d_model).
SRC_IDS, SRC_MASK, SRC_EMBED, SRC_POS, SRC_INPUT = "src.ids", "src.mask", "src.embed", "src.pos", "src.input"
SRC_TOKEN_TYPE = "src.token_type"
TGT_IDS, TGT_MASK, TGT_EMBED, TGT_POS, TGT_INPUT = "tgt.ids", "tgt.mask", "tgt.embed", "tgt.pos", "tgt.input"
CAUSAL_MASK = "tgt.causal_mask"
ENCODER_OUT, DECODER_OUT, LOGITS = "encoder.out", "decoder.out", "logits"
# Names whose tensors have no batch dimension (shared by every sentence of a batch).
UNBATCHED_NAMES = frozenset({SRC_POS, TGT_POS, CAUSAL_MASK})
STACKS = ("encoder", "decoder")
SIDES = ("src", "tgt")

# The 2015 attention RNN (models/rnn.py; shapes in its docstring): one additive attention per decoding step.
RNN_ENCODER_STATES, RNN_DECODER_INIT = "rnn.encoder.states", "rnn.decoder.init"
RNN_DECODER_STATES = "rnn.decoder.states"
RNN_ATTENTION_KEYS, RNN_ATTENTION_QUERIES = "rnn.attn.keys", "rnn.attn.queries"
RNN_ATTENTION_SCORES, RNN_ATTENTION_WEIGHTS = "rnn.attn.scores", "rnn.attn.weights"
RNN_ATTENTION_CONTEXT = "rnn.attn.context"
RNN_OUTPUT_HIDDEN = "rnn.output.hidden"
RNN_TRACE_NAMES = (RNN_ENCODER_STATES, RNN_DECODER_INIT, RNN_ATTENTION_KEYS, RNN_ATTENTION_QUERIES,
                   RNN_ATTENTION_SCORES, RNN_ATTENTION_WEIGHTS, RNN_ATTENTION_CONTEXT, RNN_DECODER_STATES,
                   RNN_OUTPUT_HIDDEN)


class AttentionKind(StrEnum):
    """The three attentions of the paper's model, as '<stack>.<attention>' prefixes of trace names."""

    ENCODER_SELF = "encoder.self_attn"
    DECODER_SELF = "decoder.self_attn"
    CROSS = "decoder.cross_attn"

    @property
    def stack(self) -> str:
        """'encoder' or 'decoder'."""
        return self.value.split(".")[0]

    @property
    def attention(self) -> str:
        """'self_attn' or 'cross_attn'."""
        return self.value.split(".")[1]

    @property
    def short(self) -> str:
        """The URL form: 'enc', 'dec' or 'cross'."""
        return _SHORT[self]

    @property
    def sides(self) -> tuple[str, str]:
        """(query side, key side): 'src' or 'tgt' — what the rows and the columns of its maps are."""
        return _SIDES[self]

    @classmethod
    def parse(cls, text: str) -> AttentionKind:
        """'encoder.self_attn' or its short form 'enc' (also 'dec', 'cross') -> the kind."""
        if isinstance(text, cls):
            return text
        for kind in cls:
            if text in (kind.value, kind.short):
                return kind
        raise ValueError(f"unknown attention kind {text!r}: expected one of "
                         f"{', '.join(k.value for k in cls)} (or {', '.join(k.short for k in cls)})")


_SHORT = {AttentionKind.ENCODER_SELF: "enc", AttentionKind.DECODER_SELF: "dec", AttentionKind.CROSS: "cross"}
_SIDES = {AttentionKind.ENCODER_SELF: ("src", "src"), AttentionKind.DECODER_SELF: ("tgt", "tgt"),
          AttentionKind.CROSS: ("tgt", "src")}
ATTENTION_KINDS: tuple[AttentionKind, ...] = tuple(AttentionKind)
ATTENTION_TENSORS = ("q", "k", "v", "scores", "masked_scores", "weights", "context", "out")


def side_name(side: str, tensor: str) -> str:
    """A stream name before the stacks: side_name('src', 'embed') == 'src.embed'."""
    if side not in SIDES:
        raise ValueError(f"no side named {side!r}: 'src' or 'tgt'")
    return f"{side}.{tensor}"


def layer_name(stack: str, layer: int, tensor: str) -> str:
    """A name inside one layer: layer_name('encoder', 0, 'ffn.hidden') == 'encoder.0.ffn.hidden'."""
    if stack not in STACKS:
        raise ValueError(f"no stack named {stack!r}: 'encoder' or 'decoder'")
    if layer < 0:
        raise IndexError(f"negative layer {layer}")
    return f"{stack}.{layer}.{tensor}"


def layer_prefix(stack: str, layer: int) -> str:
    """The prefix every name of one layer starts with: layer_prefix('encoder', 1) == 'encoder.1'."""
    return layer_name(stack, layer, "")[:-1]


def attention_name(kind: str, layer: int, tensor: str = "weights") -> str:
    """One attention tensor: attention_name('decoder.cross_attn', 1, 'k') == 'decoder.1.cross_attn.k'."""
    kind = AttentionKind.parse(kind)
    return layer_name(kind.stack, layer, f"{kind.attention}.{tensor}")


def stack_output_name(stack: str) -> str:
    """The output of a whole stack: 'encoder.out' or 'decoder.out'."""
    if stack not in STACKS:
        raise ValueError(f"no stack named {stack!r}: 'encoder' or 'decoder'")
    return f"{stack}.out"


@dataclass(frozen=True, order=True)
class Head:
    """One attention head: kind, layer, head. `Head('cross', 1, 2)` == `Head('decoder.cross_attn', 1, 2)`."""

    kind: AttentionKind
    layer: int
    head: int

    def __post_init__(self) -> None:
        object.__setattr__(self, "kind", AttentionKind.parse(self.kind))
        if self.layer < 0 or self.head < 0:
            raise ValueError(f"negative layer or head in {self}")

    @property
    def attention(self) -> str:
        """The attention module's trace prefix, e.g. 'decoder.1.cross_attn'."""
        return layer_name(self.kind.stack, self.layer, self.kind.attention)

    def name(self, tensor: str = "weights") -> str:
        """The trace name of one of this head's attention tensors (the head is index 1 of it)."""
        return attention_name(self.kind, self.layer, tensor)

    @property
    def label(self) -> str:
        """Short display label: 'cross L1 H2'."""
        return f"{self.kind.short} L{self.layer} H{self.head}"

    def __str__(self) -> str:  # the URL form
        return f"{self.kind.short}.{self.layer}.{self.head}"

    @property
    def layer_id(self) -> str:
        """The URL form of this head's whole layer: 'cross.1.*' (every head of decoder layer 1's cross-attention)."""
        return f"{self.kind.short}.{self.layer}.*"

    @classmethod
    def parse(cls, text: str) -> Head:
        """'cross.1.2' -> Head(CROSS, 1, 2); ValueError on anything else."""
        match = re.fullmatch(rf"\s*({'|'.join(_SHORT.values())})\.(\d{{1,3}})\.(\d{{1,3}})\s*", text)
        if not match:
            raise ValueError(f"not a head: {text!r} (expected e.g. 'enc.0.1', 'dec.1.0', 'cross.1.3')")
        return cls(match.group(1), int(match.group(2)), int(match.group(3)))
