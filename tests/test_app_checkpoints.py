"""A user's transformers checkpoints in the app (AppTest): a random-weight BERT and Marian saved with
save_pretrained into a temporary models folder (TRANSFORMER_EXPLORER_MODELS) show up in the picker with
their architecture and "your checkpoint", and every page of app.py's SECTIONS draws for them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import transformer_core as core
from explorer.i18n import t
from tests.hf_checkpoints import save_bert, save_marian
from tests.requirements_check import needed

needed("sentencepiece")
streamlit_testing = needed("streamlit.testing.v1")
AppTest = streamlit_testing.AppTest

ROOT = Path(__file__).resolve().parent.parent
APP = str(ROOT / "app.py")
STAGE_PAGES = ["pages/overview.py", "pages/tokens.py", "pages/embeddings.py", "pages/encoder.py", "pages/decoder.py",
               "pages/heads.py"]
OTHER_PAGES = ["pages/experiments.py", "pages/lesson.py", "pages/train.py", "pages/history.py"]
TEXT = "나는 학교에 간다."
pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("one_torch_thread")]


@pytest.fixture(scope="module")
def models_folder(tmp_path_factory):
    """models/ with the bundled ko-en-toy (linked) and the two checkpoints."""
    root = tmp_path_factory.mktemp("models")
    (root / "ko-en-toy").symlink_to(ROOT / "models" / "ko-en-toy")
    save_bert(root / "my-bert", layers=2, width=32, heads=4)
    save_marian(root / "opus-mt-tiny", layers=(2, 2), width=32, heads=4)
    return root


@pytest.fixture(autouse=True)
def use_models_folder(models_folder, monkeypatch):
    """After conftest's isolation (which clears the variable for every test): this module's folder."""
    monkeypatch.setenv("TRANSFORMER_EXPLORER_MODELS", str(models_folder))


def open_page(at: AppTest, page: str) -> AppTest:
    at.switch_page(page).run()
    assert not at.exception, (page, [e.value for e in at.exception])
    return at


def charts(at: AppTest) -> list[dict]:
    return [json.loads(chart.proto.spec) for chart in at.get("plotly_chart")]


def test_picker_lists_checkpoints_with_architecture_and_label(models_folder):
    at = AppTest.from_file(APP, default_timeout=120)
    at.query_params["lang"] = "English"
    at.run()
    assert not at.exception
    options = at.sidebar.selectbox[0].options
    assert {"my-bert", "opus-mt-tiny", "ko-en-toy"} <= set(options)  # plain names: the URL keeps ?model=NAME
    assert not any("checkpoint" in c.value for c in at.sidebar.caption)  # ko-en-toy is bundled, not a checkpoint
    for name, architecture in (("my-bert", "BERT encoder"), ("opus-mt-tiny", "Marian encoder-decoder")):
        at = AppTest.from_file(APP, default_timeout=120)
        at.query_params["lang"] = "English"
        at.query_params["model"] = name  # the URL names the plain model
        at.run()
        assert at.sidebar.selectbox[0].value == name
        captions = [c.value.replace("\\", "") for c in at.sidebar.caption]  # names are Markdown-escaped
        assert f"{name} · {architecture} · your checkpoint" in captions, captions


@pytest.mark.parametrize("model", ["my-bert", "opus-mt-tiny"])
def test_every_page_draws_for_a_checkpoint(models_folder, model):
    loaded = core.load(model)
    expected = core.trace_text(loaded, TEXT)
    at = AppTest.from_file(APP, default_timeout=180)
    at.query_params["model"] = model
    at.query_params["text"] = TEXT
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.sidebar.selectbox[0].value == model
    for page in STAGE_PAGES:
        open_page(at, page)
        assert not at.error, (page, [e.value for e in at.error])
        figures = charts(at)
        if page == "pages/tokens.py":
            assert len(at.dataframe[0].value) == len(expected.src_tokens)
        elif page == "pages/decoder.py" and not expected.has_decoder:
            assert not figures  # an encoder-only model: a plain explanation instead
        elif page != "pages/overview.py":
            assert figures, f"{page} drew nothing for {model}"
    if loaded.config.bos_token_id == loaded.config.pad_token_id:  # Marian: the start token is named on /decoder
        open_page(at, "pages/decoder.py")
        assert any("<s>" in i.value.replace("\\", "") and "<pad>" in i.value.replace("\\", "") for i in at.info), \
            [i.value for i in at.info]
    open_page(at, "pages/embeddings.py")
    curve_titles = [f["layout"]["title"]["text"] for f in charts(at) if "title" in f["layout"]]
    if loaded.config.sinusoidal_layout == "halves":  # Marian's layout is named, not the paper's even/odd rule
        assert any(t("emb.curves_halves", "ko") in title for title in curve_titles), curve_titles
    for page in OTHER_PAGES:  # the lab and the lesson open without an error or a crash
        open_page(at, page)
    open_page(at, "pages/lesson.py")
    assert not at.error, [e.value for e in at.error]
