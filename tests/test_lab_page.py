"""The training lab page under AppTest: the form with the presets' numbers, a tiny run started from the
page, polled until it finishes, replayed with the step slider; a saved run replayed from ?run=NAME."""

from __future__ import annotations

import html
import json
import re
import time
from pathlib import Path

import pytest

from tests.requirements_check import needed

streamlit_testing = needed("streamlit.testing.v1")
AppTest = streamlit_testing.AppTest

ROOT = Path(__file__).resolve().parent.parent
APP = str(ROOT / "app.py")
PAGE = "pages/train.py"


@pytest.fixture(autouse=True)
def lab_models_folder(tmp_path, monkeypatch):
    """Lab models of these tests go to a temporary folder (the manager reads it when a job saves)."""
    folder = tmp_path / "lab_models"
    monkeypatch.setenv("TRANSFORMER_EXPLORER_LAB_MODELS", str(folder))
    import torch

    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    yield folder
    torch.set_num_threads(threads)


def open_lab(language: str = "English", **params: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=120)
    at.query_params["lang"] = language
    for key, value in params.items():
        at.query_params[key] = value
    at.run()
    at.switch_page(PAGE).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def texts(at: AppTest) -> str:
    parts = [e.value for kind in ("text", "caption", "info", "success", "warning", "error", "markdown")
             for e in at.get(kind) if hasattr(e, "value")]
    return "\n".join(str(p) for p in parts)


def train_until_finished(at: AppTest, task: str, preset: str, timeout: float = 180.0) -> None:
    """Choose the task and preset, press Start, and rerun (as the page's polling does) until the run ends."""
    # (set through the session state: AppTest would format the options outside the script, in Korean)
    at.session_state["lab_task"] = task
    at.session_state["lab_preset"] = preset
    at.run()
    at.button(key="lab_start").click().run()
    assert not at.exception, [e.value for e in at.exception]
    deadline = time.monotonic() + timeout
    while "Training finished" not in texts(at):
        assert time.monotonic() < deadline, texts(at)
        time.sleep(1.0)
        at.run()
        assert not at.exception, [e.value for e in at.exception]


def test_lab_form_shows_every_preset_with_its_numbers():
    at = open_lab()
    assert at.selectbox(key="lab_task").value == "ko-en"
    assert at.segmented_control(key="lab_preset").value == "class"
    table = at.dataframe[0].value
    assert list(table.iloc[:, 1]) == [32, 128, 256]  # d_model of tiny / class / larger
    assert list(table.iloc[:, 3]) == ["1+1", "2+2", "3+3"]
    assert all(int(p.replace(",", "")) > 10_000 for p in table.iloc[:, 5])
    # which grammar the ko-en task trains on, said as it is: exactly one of the two captions, the one that is true
    from explorer.i18n import t
    from transformer_core.tasks import has_core_grammar

    core, full = t("lab.grammar_core", "en"), t("lab.grammar_full", "en")
    assert (core in texts(at), full in texts(at)) == (has_core_grammar(), not has_core_grammar())
    assert at.button(key="lab_stop").disabled  # nothing to stop yet


def test_lab_form_speaks_korean_and_takes_a_recipe_from_the_url():
    at = open_lab("한국어", task="sort", preset="larger", budget="300", seed="7")
    assert at.title[0].value == "학습 실험실"
    assert at.button(key="lab_start").label == "학습 시작"
    assert (at.selectbox(key="lab_task").value, at.segmented_control(key="lab_preset").value) == ("sort", "larger")
    assert (at.select_slider(key="lab_budget").value, at.number_input(key="lab_seed").value) == (300, 7)
    assert "language" in texts(at)  # the sort task's default probe, named in the caption


def test_the_sidebar_sentence_that_is_the_default_probe_is_named_as_the_users_not_as_a_misfit():
    at = open_lab(text="고양이가 공원에서 생선을 먹었다.")
    shown = texts(at)
    assert "the sidebar's sentence **고양이가 공원에서 생선을 먹었다" in shown and "(it fits this task)" in shown
    assert "does not fit" not in shown
    misfit = open_lab(text="🙂 hello")  # says why, word by word, and which sentence is watched instead
    assert ("words outside this lab's vocabulary: 🙂, hello. So the default sentence "
            "“고양이가 공원에서 생선을 먹었다.” is watched instead") in texts(misfit).replace("\\", "")


def test_a_tiny_run_started_on_the_page_finishes_saves_and_replays(lab_models_folder):
    at = open_lab(max_steps="15")
    train_until_finished(at, "reverse", "tiny")
    assert "Saved as" in texts(at)
    assert "did all its 15 steps but ended short of its goal" in texts(at)  # 15 tiny steps cannot reach it
    saved = [p for p in lab_models_folder.iterdir() if p.is_dir()]
    assert [p.name for p in saved] == ["lab-reverse-tiny-120s-seed0-15steps"]
    slider = at.select_slider(key=next(k for k in at.session_state if str(k).endswith("_step")
                                       and str(k).startswith("lab_replay_")))
    steps = slider.options
    assert steps[0] == "1" and steps[-1] == "15"
    slider.set_value(1).run()
    figures = [json.loads(c.proto.spec) for c in at.get("plotly_chart")]
    curves = next(f for f in figures if len(f["data"]) == 3)
    assert curves["layout"]["shapes"][0]["x0"] == 1  # the curves mark the shown snapshot
    heatmap = next(f for f in figures if f["data"][0]["type"] == "heatmap")
    assert "step 1" in heatmap["layout"]["title"]["text"]
    assert "Output at step 1" in texts(at)


def test_a_saved_run_replays_from_the_url(lab_models_folder):
    from transformer_core.training import cli as train

    assert train.main(["--task", "copy", "--preset", "tiny", "--steps", "6", "--out", str(lab_models_folder / "demo"),
                       "--eval-n", "8", "--quiet"]) == 0
    at = open_lab(run="demo")
    assert "Replaying the saved run: demo" in "\n".join(s.value for s in at.subheader)
    assert len(at.get("plotly_chart")) == 2
    missing = open_lab(run="no-such-run")
    assert "No saved run" in texts(missing)


def test_the_speech_level_task_offers_encoder_only_presets():
    at = open_lab(text="🙂 hello")  # not Korean: the task's own probe is used
    at.session_state["lab_task"] = "speech-level"
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    table = at.dataframe[0].value
    assert list(table.iloc[:, 1]) == [32, 64, 128]  # the classifier's own d_model per preset
    assert list(table.iloc[:, 3]) == ["1+0", "2+0", "3+0"]  # an encoder only
    assert "고양이가 공원에서 생선을 먹었어요" in texts(at)  # its default probe: a 해요체 sentence


def test_a_speech_level_run_started_on_the_page_shows_its_accuracy_and_the_cls_row_per_layer(lab_models_folder):
    at = open_lab(max_steps="30", text="고양이가 공원에서 생선을 먹었어요.")  # the task's default probe
    train_until_finished(at, "speech-level", "tiny")
    shown = texts(at)
    assert "accuracy" in shown and "[CLS] row peaks on the verb ending" in shown
    assert "speech-level · tiny" in shown and "· held-out accuracy" in shown  # the finished-jobs list
    assert [p.name for p in lab_models_folder.iterdir() if p.is_dir()] == ["lab-speech-level-tiny-120s-seed0-30steps"]
    assert re.search(r"Output at step 30: (plain|polite|formal|intimate) style", shown)
    figures = [json.loads(c.proto.spec) for c in at.get("plotly_chart")]
    cls = next(f for f in figures if "[CLS] row" in f["layout"]["title"]["text"])
    heatmap = cls["data"][0]
    assert heatmap["z"]["shape"] == "1, 11"  # tiny: one encoder layer; <s> + the probe's 10 pieces
    tokens = [html.unescape(x) for x in heatmap["x"]]  # labels are drawn HTML-escaped
    assert tokens[0] == "<s>" and tokens[-1] == "</s>"
    box = cls["layout"]["shapes"][0]
    ending = round((box["x0"] + box["x1"]) / 2)
    assert tokens[ending].startswith("##어요")  # the probe's ending (먹었어요)
    curves = next(f for f in figures if len(f["data"]) == 3)
    assert [d["name"] for d in curves["data"][1:]] == ["held-out accuracy", "[CLS] peaks on the ending"]


def test_a_sentence_outside_the_labs_vocabulary_is_named_word_by_word_with_the_sentence_watched_instead():
    at = open_lab(language="한국어", task="ko-en", text="고양이가 우주선에서 김치를 먹었다.")
    shown = texts(at).replace("\\", "")  # the sentences are Markdown-escaped on the page
    assert "이 과제의 어휘에 없는 단어가 있습니다: 우주선에서, 김치를" in shown  # (the catalog's wording of issue 50)
    assert "기본 문장 “고양이가 공원에서 생선을 먹었다.”을(를) 관찰합니다" in shown
    at = open_lab(task="copy", text="Hello!")
    assert "characters this task does not use: H !" in texts(at).replace("\\", "")


def test_a_stopped_run_says_once_where_it_stopped_and_is_kept_out_of_the_model_picker(lab_models_folder):
    from transformer_core.io.loading import list_models

    at = open_lab(max_steps="100000")
    at.session_state["lab_task"] = "copy"
    at.session_state["lab_preset"] = "tiny"
    at.run()
    at.button(key="lab_start").click().run()
    deadline = time.monotonic() + 180
    while not any(re.search(r"step [1-9]\d* / ", p.proto.text) for p in at.get("progress")):  # it trains
        assert time.monotonic() < deadline, texts(at)
        time.sleep(0.5)
        at.run()
    at.button(key="lab_stop").click().run()
    while "Stopped at step" not in texts(at):
        assert time.monotonic() < deadline, texts(at)
        time.sleep(0.5)
        at.run()
    shown = texts(at).replace("\\", "")  # names are Markdown-escaped on the page
    assert shown.count("Stopped at step") == 1
    assert "Training finished" not in shown and "The run was stopped" not in shown
    step = int(re.search(r"Stopped at step (\d+)", shown).group(1))
    assert f"lab-copy-tiny-120s-seed0-100000steps-stopped-step{step}" in shown
    kept = lab_models_folder / "_unfinished" / f"lab-copy-tiny-120s-seed0-100000steps-stopped-step{step}"
    assert kept.is_dir()
    assert not any("stopped" in info.name for info in list_models(all_architectures=True))
    at.button(key="lab_publish").click().run()  # its starter offers it to everyone, under the name that says so
    assert not at.exception
    assert f"**{kept.name}** is now in the model picker" in texts(at).replace("\\", "")
    assert kept.name in {info.name for info in list_models(all_architectures=True)}
    assert not kept.exists() and (lab_models_folder / kept.name).is_dir()


def test_with_redis_gone_the_lab_says_it_is_unavailable_and_picks_up_again_when_it_returns(monkeypatch):
    import streamlit as st

    from tests.servers import free_port
    from tests.test_lab_queue import redis_on

    port = free_port()
    monkeypatch.setenv("TRANSFORMER_EXPLORER_REDIS_URL", f"redis://127.0.0.1:{port}/0")
    st.cache_resource.clear()  # the page's manager is made anew, for the queue
    try:
        with redis_on(port):
            at = open_lab()
            assert "job queue (Redis)" in texts(at) and "unavailable" not in texts(at)
        at.run()
        assert not at.exception
        assert "The lab is unavailable right now" in texts(at)
        with redis_on(port):
            at.run()  # the same app, no restart: the next poll finds the queue again
            assert not at.exception
            assert "unavailable" not in texts(at) and at.button(key="lab_start") is not None
    finally:
        st.cache_resource.clear()
