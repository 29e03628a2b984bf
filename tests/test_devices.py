"""Device choice: CUDA absent or out of memory falls back to the CPU with a notice (simulated here)."""

from __future__ import annotations

import pytest
import torch

from transformer_core.inference import devices


def test_cpu_is_always_available():
    assert devices.available_devices()[0] == "cpu"
    assert devices.resolve_device("cpu") == ("cpu", "")
    assert devices.resolve_device(None) == ("cpu", "")


def test_cuda_chosen_but_absent_runs_on_cpu_with_a_notice(monkeypatch):
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    assert devices.available_devices() == ["cpu"]
    device, notice = devices.resolve_device("cuda")
    assert device == "cpu" and notice == devices.CUDA_MISSING
    result, used, notice = devices.run_with_cpu_fallback(lambda d: f"ran on {d}", "cuda")
    assert (result, used) == ("ran on cpu", "cpu") and notice == devices.CUDA_MISSING


def test_unknown_device_names_fall_back_to_cpu():
    device, notice = devices.resolve_device("tpu")
    assert device == "cpu" and notice == devices.UNKNOWN_DEVICE


@pytest.mark.parametrize("error", [torch.cuda.OutOfMemoryError("CUDA out of memory. Tried to allocate 2 GiB"),
                                   RuntimeError("CUDA error: out of memory")])
def test_cuda_out_of_memory_reruns_on_cpu_with_a_notice(monkeypatch, error):
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    monkeypatch.setattr(torch.cuda, "empty_cache", lambda: None)
    calls = []

    def work(device: str) -> str:
        calls.append(device)
        if device == "cuda":
            raise error
        return "done"

    result, used, notice = devices.run_with_cpu_fallback(work, "cuda")
    assert (result, used, notice) == ("done", "cpu", devices.CUDA_OOM)
    assert calls == ["cuda", "cpu"]


def test_other_errors_on_cuda_are_not_swallowed(monkeypatch):
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)

    def work(device: str) -> str:
        raise ValueError("a real bug")

    with pytest.raises(ValueError, match="a real bug"):
        devices.run_with_cpu_fallback(work, "cuda")


@pytest.mark.skipif(not torch.cuda.is_available(), reason="no CUDA device on this machine")
def test_real_cuda_trace_matches_cpu(tiny_model_dir):
    import transformer_core

    cpu = transformer_core.trace_text(transformer_core.load(tiny_model_dir), "고양이가 생선을 먹는다")
    gpu = transformer_core.trace_text(transformer_core.load(tiny_model_dir, device="cuda"), "고양이가 생선을 먹는다")
    assert gpu.device.startswith("cuda") and gpu.tgt_tokens == cpu.tgt_tokens
    torch.testing.assert_close(gpu.trace["logits"].cpu(), cpu.trace["logits"], atol=1e-4, rtol=1e-4)
