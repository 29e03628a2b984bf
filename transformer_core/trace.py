"""`Trace`: the read-only record of one forward pass, name -> tensor.

Names are the contract between the core, the app and the tests; see `model.py`'s module
docstring for the full list.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping

import numpy as np
import torch


class Trace(Mapping[str, torch.Tensor]):
    """An immutable, ordered mapping of trace names to (detached, CPU or device) tensors."""

    __slots__ = ("_tensors",)

    def __init__(self, tensors: Mapping[str, torch.Tensor]) -> None:
        object.__setattr__(self, "_tensors", dict(tensors))

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
    def has_decoder(self) -> bool:
        return "decoder.out" in self._tensors

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
