"""A student's phone never offers to start a live class (issue 51, item 5): not while it follows, not after it went
its own pace, not after the class ended, not after a code that could not be joined. The teacher's screen keeps its
"Start a live class" (again after End class), and the phone can still rejoin or join another class. Two AppTest
sessions of /lesson in one process share the server's LiveClasses (st.cache_resource, the in-process store)."""

from __future__ import annotations

from pathlib import Path

import pytest

import transformer_core as core
from tests.requirements_check import needed

streamlit_testing = needed("streamlit.testing.v1")

pytestmark = [pytest.mark.slow]  # two sessions of /lesson with the bundled model: about a minute

ROOT = Path(__file__).resolve().parent.parent
MODEL, TEXT = "ko-en-toy", "고양이가 공원에서 생선을 먹었다."

if MODEL not in {info.name for info in core.list_models() if info.available}:
    pytest.skip(f"{MODEL} is not available", allow_module_level=True)


def lesson(monkeypatch, **params: str):
    monkeypatch.setenv("TRANSFORMER_EXPLORER_REDIS_URL", "")  # the in-process store, shared by both sessions
    at = streamlit_testing.AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.query_params.update({"model": MODEL, "text": TEXT, "lang": "한국어"})
    at.run()
    at.switch_page("pages/lesson.py")
    at.query_params.update(params)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def keys(at) -> set[str]:
    return {b.key for b in at.button}


def offers_start(at) -> bool:
    return "class_start" in keys(at)


def click(at, key: str) -> None:
    at.button(key=key).click().run()
    assert not at.exception, [e.value for e in at.exception]


def test_a_phone_that_left_or_outlived_its_class_does_not_offer_to_start_one(monkeypatch):
    from explorer import class_view

    teacher = lesson(monkeypatch)
    assert offers_start(teacher)
    click(teacher, "class_start")
    code = teacher.session_state[class_view.TEACHER][0]
    assert not offers_start(teacher) and "class_end" in keys(teacher)

    phone = lesson(monkeypatch, **{"class": code})
    assert phone.session_state[class_view.FOLLOW]["following"] is True
    assert not offers_start(phone) and "class_leave" in keys(phone)

    click(phone, "class_leave")  # its own pace: it may rejoin, not start a class
    assert phone.session_state[class_view.FOLLOW]["following"] is False
    assert "class_rejoin" in keys(phone)
    assert not offers_start(phone)

    click(phone, "class_rejoin")
    assert phone.session_state[class_view.FOLLOW]["following"] is True and not offers_start(phone)

    click(teacher, "class_end")  # the teacher's screen offers a new class again
    assert offers_start(teacher)
    phone.run()
    assert not phone.exception, [e.value for e in phone.exception]
    assert class_view.FOLLOW not in phone.session_state  # the class ended for the phone
    assert not offers_start(phone)
    assert "class_join" in keys(phone)  # ... which can join the next class by its code


def test_a_phone_whose_code_could_not_be_joined_does_not_offer_to_start_one(monkeypatch):
    phone = lesson(monkeypatch, **{"class": "ZZZZZ2"})
    assert not offers_start(phone) and "class_join" in keys(phone)
