"""Identity hook points that record, and may replace, intermediates by name (TransformerLens style).

A `HookPoint` sits in the forward pass and returns its input unchanged. While `recording()`
is active in the current thread/context, it also stores a detached reference under its name.
While `patching(patches)` is active, a hook whose name is in `patches` returns `fn(tensor)`
instead, and the rest of the pass uses that (a recording then holds the patched value).
When nothing records or patches, a hook costs two context-variable reads.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Collection, Iterator, Mapping
from contextvars import ContextVar

import torch
from torch import nn

# Per-context recorder, so two threads tracing one shared model never mix their tensors.
_RECORDER: ContextVar[dict[str, torch.Tensor] | None] = ContextVar("transformer_core_recorder", default=None)
# Per-context patches (trace name -> tensor -> tensor), for the same reason.
Patch = Callable[[torch.Tensor], torch.Tensor]
_PATCHES: ContextVar[Mapping[str, Patch] | None] = ContextVar("transformer_core_patches", default=None)


class HookPoint(nn.Module):
    """Identity layer; `name` is its trace name, assigned by the model from the module path."""

    def __init__(self) -> None:
        super().__init__()
        self.name = ""

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        patches = _PATCHES.get()
        if patches is not None and self.name in patches:
            x = apply_patch(self.name, patches[self.name], x)
        record(self.name, x)
        return x

    # Skip nn.Module.__call__'s hook machinery: this layer is called dozens of times a pass.
    __call__ = forward


def record(name: str, x: torch.Tensor) -> None:
    """Store a detached reference to `x` under `name` if a `recording()` block is active (else nothing)."""
    store = _RECORDER.get()
    if store is not None:
        if name in store:
            raise RuntimeError(f"trace name {name!r} recorded twice in one pass")
        store[name] = x.detach()


def current_patch(name: str) -> Patch | None:
    """The patch active for hook `name` in this context, or None."""
    patches = _PATCHES.get()
    return None if patches is None else patches.get(name)


def check_patch_names(patches: Mapping[str, Patch] | None, hook_names: frozenset[str],
                      record_only: frozenset[str] = frozenset()) -> None:
    """ValueError naming the hook for an unknown or record-only name, or a patch that is not callable."""
    import difflib

    for name, fn in (patches or {}).items():
        if name not in hook_names:
            close = difflib.get_close_matches(str(name), sorted(hook_names), n=3)
            hint = f"; did you mean {', '.join(close)}?" if close else ""
            raise ValueError(f"no hook point named {name!r} in this model{hint}")
        if name in record_only:
            raise ValueError(f"hook {name!r} is record-only: change the input ids or mask instead of patching it")
        if not callable(fn):
            raise ValueError(f"the patch for hook {name!r} is not a function")


def is_recording() -> bool:
    """True while a `recording()` block is active in this context."""
    return _RECORDER.get() is not None


def is_patching() -> bool:
    """True while a `patching()` block with at least one patch is active in this context."""
    return bool(_PATCHES.get())


def patched_names() -> frozenset[str]:
    """The hook names the active `patching()` block replaces (empty when none)."""
    return frozenset(_PATCHES.get() or ())


def apply_patch(name: str, fn: Patch, x: torch.Tensor) -> torch.Tensor:
    """fn(x), checked: a patch must return a tensor of x's shape (it may change values, not layout)."""
    out = fn(x)
    if not isinstance(out, torch.Tensor):
        raise ValueError(f"the patch at hook {name!r} returned {type(out).__name__}, not a tensor")
    if out.shape != x.shape:
        raise ValueError(f"the patch at hook {name!r} returned shape {tuple(out.shape)}; "
                         f"the hook's tensor has shape {tuple(x.shape)}")
    return out.to(dtype=x.dtype, device=x.device)


@contextlib.contextmanager
def patching(patches: Mapping[str, Patch] | None) -> Iterator[None]:
    """Apply `patches` (trace name -> function) at their hook points inside this block.

    Names are checked by the model (`Transformer.check_patches`) before a pass; an empty or None
    mapping patches nothing, so the block is then free.
    """
    token = _PATCHES.set(dict(patches) if patches else None)
    try:
        yield
    finally:
        _PATCHES.reset(token)


@contextlib.contextmanager
def recording(only: Collection[str] | None = None) -> Iterator[dict[str, torch.Tensor]]:
    """Collect every hook point's tensor, in execution order, into the yielded dict; with `only`, just
    those names (a pass over many sentences that needs a few tensors need not hold every one)."""
    store: dict[str, torch.Tensor] = {} if only is None else _OnlyStore(only)
    token = _RECORDER.set(store)
    try:
        yield store
    finally:
        _RECORDER.reset(token)


class _OnlyStore(dict):
    """A recording store that keeps only the names it was given (the others are dropped at once)."""

    def __init__(self, names: Collection[str]) -> None:
        super().__init__()
        self.names = frozenset(names)

    def __setitem__(self, name: str, value: torch.Tensor) -> None:
        if name in self.names:
            super().__setitem__(name, value)


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


class Patchable:
    """What a model with hook points offers for patching (mixed into Transformer and the RNN): its hook
    names, the one patch check, and the public `patched(...)` block generation uses. A model sets
    `_hook_names` after `name_hook_points(self)` and says which hooks are RECORD_ONLY_HOOKS."""

    _hook_names: frozenset[str] = frozenset()
    RECORD_ONLY_HOOKS: frozenset[str] = frozenset()

    @property
    def hook_names(self) -> frozenset[str]:
        """Every trace name this model has a hook point for (what `patches` may name)."""
        return self._hook_names

    def check_patches(self, patches: Mapping[str, Patch] | None) -> None:
        """ValueError naming the hook for an unknown or record-only name, or a patch that is not callable."""
        check_patch_names(patches, self._hook_names, self.RECORD_ONLY_HOOKS)

    def patched(self, patches: Mapping[str, Patch] | None) -> contextlib.AbstractContextManager[None]:
        """The patching block for `patches` (checked), or a no-op when there are none (outer patches stay)."""
        if not patches:
            return contextlib.nullcontext()
        self.check_patches(patches)
        return patching(patches)
