"""Identity hook points that record intermediates by name (in the spirit of TransformerLens).

A `HookPoint` sits in the forward pass and returns its input unchanged. While `recording()`
is active in the current thread/context, it also stores a detached reference under its name.
When nothing records, a hook costs one context-variable read.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from contextvars import ContextVar

import torch
from torch import nn

# Per-context recorder, so two threads tracing one shared model never mix their tensors.
_RECORDER: ContextVar[dict[str, torch.Tensor] | None] = ContextVar("transformer_core_recorder", default=None)


class HookPoint(nn.Module):
    """Identity layer; `name` is its trace name, assigned by the model from the module path."""

    def __init__(self) -> None:
        super().__init__()
        self.name = ""

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        store = _RECORDER.get()
        if store is not None:
            if self.name in store:
                raise RuntimeError(f"trace name {self.name!r} recorded twice in one pass")
            store[self.name] = x.detach()
        return x

    # Skip nn.Module.__call__'s hook machinery: this layer is called dozens of times a pass.
    __call__ = forward


def is_recording() -> bool:
    """True while a `recording()` block is active in this context."""
    return _RECORDER.get() is not None


@contextlib.contextmanager
def recording() -> Iterator[dict[str, torch.Tensor]]:
    """Collect every hook point's tensor, in execution order, into the yielded dict."""
    store: dict[str, torch.Tensor] = {}
    token = _RECORDER.set(store)
    try:
        yield store
    finally:
        _RECORDER.reset(token)


def trace_name(module_path: str) -> str:
    """Module path -> trace name: 'encoder.layers.0.self_attn.hook_q' -> 'encoder.0.self_attn.q'."""
    parts = [p for p in module_path.split(".") if p != "layers"]
    parts[-1] = parts[-1].removeprefix("hook_")
    return ".".join(parts)


def name_hook_points(root: nn.Module) -> None:
    """Give every HookPoint under `root` its trace name."""
    for path, module in root.named_modules():
        if isinstance(module, HookPoint):
            module.name = trace_name(path)
