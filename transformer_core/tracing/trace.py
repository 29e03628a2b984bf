"""`Trace`: the read-only record of one forward pass, name -> tensor.

Names are the contract between the core, the app and the tests; see `models/transformer.py`'s module
docstring for the full list.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

import numpy as np
import torch

from transformer_core.tracing import names
from transformer_core.tracing.names import ATTENTION_KINDS, UNBATCHED_NAMES, AttentionKind

ENC_SELF, DEC_SELF, CROSS = AttentionKind.ENCODER_SELF, AttentionKind.DECODER_SELF, AttentionKind.CROSS


@dataclass(frozen=True)
class TraceLayout:
    """What a trace holds, so readers need not hard-code names like 'encoder.0.self_attn.weights'."""

    encoder_layers: int
    decoder_layers: int
    n_heads: int  # 0 when the trace has no attention at all
    attention_kinds: tuple[str, ...]  # the ATTENTION_KINDS present, in that order
    unbatched: frozenset[str]  # names of this trace without a batch dimension

    def layers(self, stack: str) -> int:
        """Layers of 'encoder' or 'decoder' (or of an attention kind's stack, 'decoder.cross_attn')."""
        stack = stack.split(".")[0]
        if stack not in ("encoder", "decoder"):
            raise ValueError(f"no stack named {stack!r}: 'encoder' or 'decoder'")
        return self.encoder_layers if stack == "encoder" else self.decoder_layers

    def name(self, stack: str, layer: int, tensor: str) -> str:
        """The trace name of `tensor` in layer `layer` of `stack`: name('encoder', 0, 'ffn.hidden')."""
        if not 0 <= layer < self.layers(stack):
            raise IndexError(f"{stack} has {self.layers(stack)} layers, not a layer {layer}")
        return names.layer_name(stack, layer, tensor)

    def attention_name(self, kind: str, layer: int, tensor: str = "weights") -> str:
        """The trace name of one attention tensor: attention_name('decoder.cross_attn', 1, 'k')."""
        if AttentionKind.parse(kind) not in self.attention_kinds:
            raise ValueError(f"this trace has no {kind!r} attention ({', '.join(self.attention_kinds)})")
        kind = AttentionKind.parse(kind)
        self.name(kind.stack, layer, "")  # the layer bound, as for every other name
        return names.attention_name(kind, layer, tensor)


class Trace(Mapping[str, torch.Tensor]):
    """An immutable, ordered mapping of trace names to (detached, CPU or device) tensors."""

    __slots__ = ("_layout", "_tensors")

    def __init__(self, tensors: Mapping[str, torch.Tensor]) -> None:
        object.__setattr__(self, "_tensors", dict(tensors))
        object.__setattr__(self, "_layout", None)

    def __setattr__(self, key: str, value: object) -> None:
        raise AttributeError("Trace is read-only")

    def __getitem__(self, name: str) -> torch.Tensor:
        try:
            return self._tensors[name]
        except KeyError:
            raise KeyError(f"{name!r} is not in this trace ({len(self)} names)") from None

    def __iter__(self) -> Iterator[str]:
        return iter(self._tensors)

    def __len__(self) -> int:
        return len(self._tensors)

    def __repr__(self) -> str:
        return f"Trace({len(self)} tensors, {self.nbytes / 1e6:.1f} MB)"

    def __reduce__(self):  # pickling for st.cache_data
        return (Trace, (self._tensors,))

    @property
    def nbytes(self) -> int:
        """Total bytes held by the traced tensors."""
        return sum(t.numel() * t.element_size() for t in self._tensors.values())

    def shapes(self) -> dict[str, tuple[int, ...]]:
        """Every name with its shape, in recording order."""
        return {name: tuple(t.shape) for name, t in self._tensors.items()}

    def n_layers(self, stack: str) -> int:
        """How many layers of `stack` ('encoder' or 'decoder') this trace holds."""
        pattern = re.compile(rf"^{stack}\.(\d+)\.")
        found = {int(m.group(1)) for name in self._tensors if (m := pattern.match(name))}
        return len(found)

    @property
    def layout(self) -> TraceLayout:
        """Layers per stack, heads, attention kinds present and the unbatched names (computed once)."""
        if self._layout is None:
            encoder, decoder = self.n_layers("encoder"), self.n_layers("decoder")
            kinds = tuple(k for k in ATTENTION_KINDS if names.attention_name(k, 0) in self)
            heads = int(self[names.attention_name(kinds[0], 0)].shape[1]) if kinds else 0
            unbatched = frozenset(name for name in UNBATCHED_NAMES if name in self._tensors)
            object.__setattr__(self, "_layout", TraceLayout(encoder, decoder, heads, kinds, unbatched))
        return self._layout

    @property
    def has_decoder(self) -> bool:
        return names.DECODER_OUT in self._tensors

    def numpy(self, name: str, batch: int = 0) -> np.ndarray:
        """One batch element of `name` as a read-only float32 (or bool/int) numpy array on the CPU."""
        tensor = self[name][batch].cpu()
        if tensor.is_floating_point():
            tensor = tensor.float()
        array = tensor.numpy()
        array.flags.writeable = False  # a view of the shared trace: figures must copy before editing
        return array

    def head(self, name: str, head: int, batch: int = 0) -> np.ndarray:
        """One head of a [B, H, ...] tensor, e.g. head('encoder.0.self_attn.weights', 3)."""
        return self.numpy(name, batch)[head]

    def to(self, device: torch.device | str) -> Trace:
        return Trace({name: t.to(device) for name, t in self._tensors.items()})
