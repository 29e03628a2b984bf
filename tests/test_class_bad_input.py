"""Bad input at class size, what `benchmarks/live_class.py --bad-clients` found through the real server: a forged
widget value broke its session for good (now explorer/widget_guard.py, installed by app.py), and an answer that
arrived after the class moved on was told the answer had been revealed (now class.error.moved_on).

Found by `benchmarks/live_class.py --bad-clients`: a protocol client following a live class sent its answer pills a
double (`WidgetState.double_value`) instead of their string array; Streamlit's pills deserializer raised TypeError
before the page ran, on that run and on every later one, so the session stopped following its class and each run
left a traceback in the server's output. With the guard the value counts as none sent (the pills' default, no
answer, no callback), and a real answer afterwards still reaches the callback. AppTest and the in-process store, no
server: a few seconds.
"""

from __future__ import annotations

import pytest
from streamlit.proto.WidgetStates_pb2 import WidgetState, WidgetStates
from streamlit.testing.v1 import AppTest


def answer_pills() -> None:
    """A following phone's predict-first question, reduced to its pills (pages/lesson.py: options are indices,
    shown through format_func, an on_change callback sends the answer)."""
    import streamlit as st

    from explorer.widget_guard import install

    install()  # as app.py does

    def answered() -> None:
        st.session_state["answers"] = [*st.session_state.get("answers", []), st.session_state["pick"]]

    st.pills("guess", list(range(3)), format_func=lambda i: ["4", "9", "10"][i], key="pick", on_change=answered)
    st.write(f"answers: {st.session_state.get('answers', [])}")


def sent(widget_id: str, **value) -> WidgetStates:
    states = WidgetStates()
    state = WidgetState(id=widget_id)
    for field, data in value.items():
        if field.endswith("_array_value"):
            getattr(state, field).data.extend(data)
        else:
            setattr(state, field, data)
    states.widgets.append(state)
    return states


FORGED = [
    pytest.param({"double_value": 99.0}, id="a double for string pills"),
    pytest.param({"int_value": 7}, id="an int"),
    pytest.param({"bool_value": True}, id="a bool"),
    pytest.param({"json_value": "{not json"}, id="JSON that does not parse"),
]


@pytest.mark.parametrize("value", FORGED)
def test_a_forged_widget_value_is_dropped_and_the_session_goes_on(value):
    app = AppTest.from_function(answer_pills)
    app.run()
    widget_id = app.get("button_group")[0].id
    app._run(sent(widget_id, **value))  # what a forged websocket message does (AppTest has no public way)
    assert not app.exception, app.exception[0].message if app.exception else ""
    assert app.session_state["pick"] is None  # no answer: the default
    assert "answers" not in app.session_state  # no callback ran
    app.run()  # the next run too (before the guard, every later run of the session raised)
    assert not app.exception
    app._run(sent(widget_id, string_array_value=["9"]))  # a real tap still answers
    assert not app.exception
    assert app.session_state["pick"] == 1
    assert app.session_state["answers"] == [1]


def test_a_value_that_is_no_option_is_no_answer():
    """A string that is none of the options (Streamlit drops it itself): no answer, no callback, no error."""
    app = AppTest.from_function(answer_pills)
    app.run()
    app._run(sent(app.get("button_group")[0].id, string_array_value=["99"]))
    assert not app.exception
    assert app.session_state["pick"] is None
    assert "answers" not in app.session_state


def test_an_answer_that_arrives_after_the_class_moved_on_is_told_so_not_that_the_answer_was_revealed():
    """Found by the same benchmark: step 1's answer sent once the class was at step 2 was refused (right) with
    class.error.closed, "this question's answer has been revealed", which it had not been. A tap that reaches the
    server just after the teacher's → does this on a real phone."""
    from explorer import live_class as lc
    from explorer.i18n import CATALOGS
    from transformer_core.store import MemoryStore

    classes = lc.LiveClasses(MemoryStore())
    code, secret = classes.start(step=1, text="고양이가 공원에서 생선을 먹었다.", model="ko-en-toy", lang="ko")
    classes.join(code, "phone-0000-0001")
    first = lc.question_key(1, "tokens", "sig")
    classes.update(code, secret, step=2)
    with pytest.raises(lc.AnswersClosed) as refused:  # still an AnswersClosed for callers that catch that
        classes.answer(code, "phone-0000-0001", first, [0], n_options=5)
    assert refused.value.reason == "moved_on"
    assert classes.answer_count(code, first) == 0
    for lang in ("ko", "en"):
        assert f"class.error.{refused.value.reason}" in CATALOGS[lang]
    classes.update(code, secret, step=1)
    classes.reveal(code, secret, first)
    with pytest.raises(lc.AnswersClosed) as revealed:
        classes.answer(code, "phone-0000-0001", first, [0], n_options=5)
    assert revealed.value.reason == "closed"  # revealed: the message that says so
