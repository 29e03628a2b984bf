"""explorer.state's declarative URL keys: a page declares them once; odd values in the URL are the defaults (never
an error), allowed ones seed the widgets once per session, and the widgets' values go back into the URL with the
defaults left out."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from explorer.state import UrlState, choice, flag, integer, text
from tests.requirements_check import needed

streamlit_testing = needed("streamlit.testing.v1")

PAGE_URL = UrlState("sample", choice("task", ("ko-en", "reverse"), "ko-en", state_key="w_task"),
                    choice("budget", (30, 60, 120), 120, parse=int, state_key="w_budget"),
                    integer("seed", 0, low=0, high=9999, state_key="w_seed"),
                    flag("rnn", state_key="w_rnn"),
                    text("run", "", max_chars=16, pattern=r"[a-z0-9-]+"))
DEFAULTS = {"task": "ko-en", "budget": 120, "seed": 0, "rnn": False, "run": ""}


@pytest.mark.parametrize("query", [
    {},
    {"task": "french", "budget": "45", "seed": "many", "rnn": "", "run": "../etc/passwd"},
    {"task": "", "budget": "1e9", "seed": "9" * 400, "rnn": "yes please", "run": "a b"},
    {"task": "REVERSE", "budget": "-30", "seed": "", "rnn": "0", "run": "<script>"},
    {"budget": "\x00", "seed": "½", "run": "\u200b"},
])
def test_odd_or_missing_values_are_the_defaults(query):
    values = PAGE_URL.parse(query)
    assert values["task"] == "ko-en" and values["budget"] == 120 and values["rnn"] is False and values["run"] == ""
    assert values["seed"] == (9999 if query.get("seed", "").startswith("9") else 0)


def test_allowed_values_are_read_with_their_types_and_numbers_are_clamped():
    values = PAGE_URL.parse({"task": "reverse", "budget": "60", "seed": "-4", "rnn": "true", "run": "lab-copy-tiny"})
    assert values == {"task": "reverse", "budget": 60, "seed": 0, "rnn": True, "run": "lab-copy-tiny"}
    assert PAGE_URL.parse({"seed": " 12345 ", "run": "a" * 40})["seed"] == 9999
    assert PAGE_URL.parse({"run": "a" * 40})["run"] == "a" * 16  # cut to max_chars, then matched


def test_defaults_are_left_out_of_the_url_and_other_values_written_as_text():
    assert PAGE_URL.encode(DEFAULTS) == dict.fromkeys(DEFAULTS)
    assert PAGE_URL.encode({"task": "reverse", "budget": 30, "seed": 7, "rnn": True}) == {
        "task": "reverse", "budget": "30", "seed": "7", "rnn": "1"}
    written = {name: shown for name, shown in
               PAGE_URL.encode({"task": "reverse", "budget": 60, "seed": 3, "rnn": True, "run": "x1"}).items()}
    assert PAGE_URL.parse(written) == {"task": "reverse", "budget": 60, "seed": 3, "rnn": True, "run": "x1"}


def url_page() -> None:
    """A page that declares its keys, seeds its widgets from the URL and writes them back."""
    import streamlit as st

    from explorer.state import UrlState, choice, flag, integer

    url = UrlState("sample", choice("task", ("ko-en", "reverse"), "ko-en", state_key="w_task"),
                   integer("seed", 0, low=0, high=9999, state_key="w_seed"), flag("rnn", state_key="w_rnn"))
    url.seed()
    st.selectbox("task", ["ko-en", "reverse"], key="w_task")
    st.number_input("seed", min_value=0, max_value=9999, key="w_seed")
    st.checkbox("rnn", key="w_rnn")
    url.write()


def test_a_page_with_odd_values_in_its_url_runs_on_the_defaults_and_cleans_the_url():
    at = streamlit_testing.AppTest.from_function(url_page, default_timeout=30)
    for key, value in {"task": "french", "seed": "lots", "rnn": "maybe"}.items():
        at.query_params[key] = value
    at.run()
    assert not at.exception
    assert at.selectbox[0].value == "ko-en" and at.number_input[0].value == 0 and at.checkbox[0].value is False
    assert not {"task", "seed", "rnn"} & set(at.query_params)


def test_a_page_seeds_its_widgets_from_the_url_once_and_writes_their_changes_back():
    at = streamlit_testing.AppTest.from_function(url_page, default_timeout=30)
    at.query_params["task"] = "reverse"
    at.query_params["seed"] = "42"
    at.query_params["rnn"] = "1"
    at.run()
    assert not at.exception
    assert at.selectbox[0].value == "reverse" and at.number_input[0].value == 42 and at.checkbox[0].value is True
    at.selectbox[0].set_value("ko-en")
    at.number_input[0].set_value(7)
    at.run()
    assert at.query_params.get("seed") in ("7", ["7"]) and "task" not in at.query_params
    assert at.number_input[0].value == 7  # the URL seeds once: the widget's change stands


def test_a_key_kept_at_its_default_is_still_written():
    step = UrlState("lesson", integer("step", 1, low=1, high=24, keep_default=True), flag("present"))
    assert step.encode({"step": 1, "present": False}) == {"step": "1", "present": None}
    assert step.parse({"step": "99", "present": "1"}) == {"step": 24, "present": True}
    assert step.parse({"step": "zwei"}) == {"step": 1, "present": False}


ROOT = Path(__file__).resolve().parent.parent
# explorer/state.py is the helper itself.
OWN_URL_READERS = {"explorer/state.py"}


def query_param_uses(path: Path) -> list[int]:
    """Lines that touch st.query_params other than as a page link's keyword argument (query_params=...)."""
    return sorted({node.lineno for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
                   if isinstance(node, ast.Attribute) and node.attr == "query_params"})


def test_the_check_finds_a_page_reading_its_own_url(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text('step = st.query_params.get("step")\nst.page_link("a.py", query_params={"x": "1"})\n'
                      'if "present" in st.query_params: pass\n', encoding="utf-8")
    assert query_param_uses(sample) == [1, 3]


def test_every_page_reads_and_writes_its_url_through_the_declarative_helper():
    modules = [ROOT / "app.py", *sorted((ROOT / "pages").glob("*.py")), *sorted((ROOT / "explorer").glob("*.py"))]
    offenders = [f"{path.relative_to(ROOT)}:{line}" for path in modules
                 if str(path.relative_to(ROOT)) not in OWN_URL_READERS for line in query_param_uses(path)]
    assert offenders == [], "declare the keys as an explorer.state.UrlState instead:\n" + "\n".join(offenders)


@pytest.mark.parametrize(("code", "message"), [("ZZZZZ2", True), ("", False), ("<b>no</b>", True)])
def test_a_class_code_in_the_url_that_cannot_be_joined_leaves_the_url_and_the_lesson_goes_on(code: str,
                                                                                           message: bool):
    """/lesson?class=... is read through explorer.class_view.URL: an unknown or malformed code says so (Korean UI)
    and leaves the URL; an empty one leaves it silently; the ordinary lesson shows either way."""
    import transformer_core as core

    if "ko-en-toy" not in {info.name for info in core.list_models() if info.available}:
        pytest.skip("ko-en-toy is not available here")
    at = streamlit_testing.AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.query_params.update({"model": "ko-en-toy", "text": "고양이가 공원에서 생선을 먹었다.", "lang": "한국어"})
    at.run()
    at.switch_page("pages/lesson.py")
    at.query_params["class"] = code
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert "class" not in at.query_params
    notices = [w.value for w in at.warning]
    from explorer.i18n import t

    assert (t("class.error.unknown", "ko") in notices) is message, notices
    assert any(h.value.startswith("1단계") for h in at.subheader)  # the ordinary lesson, step 1
