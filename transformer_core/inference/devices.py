"""Device choice with a safe fallback: CUDA when it is there and has room, else the CPU, with a notice.

Notices are keys (the app shows its own sentence for each, in the reader's language), never prose."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

import torch

T = TypeVar("T")

CUDA_MISSING = "cuda_missing"  # CUDA was chosen but torch sees no CUDA device: ran on the CPU
CUDA_OOM = "cuda_oom"  # the GPU ran out of memory for this input: ran on the CPU instead
UNKNOWN_DEVICE = "unknown_device"  # a device name torch would not take here: ran on the CPU
NOTICES = (CUDA_MISSING, CUDA_OOM, UNKNOWN_DEVICE)


def available_devices() -> list[str]:
    """'cpu', plus 'cuda' when torch sees a CUDA device."""
    return ["cpu", "cuda"] if torch.cuda.is_available() else ["cpu"]


def resolve_device(requested: str | None) -> tuple[str, str]:
    """(device to use, notice key or ''). Unknown or absent devices fall back to the CPU."""
    requested = (requested or "cpu").lower()
    if requested.startswith("cuda"):
        if torch.cuda.is_available():
            return requested, ""
        return "cpu", CUDA_MISSING
    if requested != "cpu":
        return "cpu", UNKNOWN_DEVICE
    return "cpu", ""


def is_out_of_memory(exc: BaseException) -> bool:
    """True for CUDA out-of-memory errors (typed or as a plain RuntimeError message)."""
    return isinstance(exc, torch.cuda.OutOfMemoryError) or (
        isinstance(exc, RuntimeError) and "out of memory" in str(exc).lower())


def run_with_cpu_fallback(work: Callable[[str], T], requested: str | None) -> tuple[T, str, str]:
    """Run `work(device)`; on a missing CUDA or CUDA OOM, run `work('cpu')`. Returns (result, device, notice)."""
    device, notice = resolve_device(requested)
    if device == "cpu":
        return work("cpu"), "cpu", notice
    try:
        return work(device), device, ""
    except Exception as exc:
        if not is_out_of_memory(exc):
            raise
        torch.cuda.empty_cache()
        return work("cpu"), "cpu", CUDA_OOM
