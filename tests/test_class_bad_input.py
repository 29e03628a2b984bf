"""A forged widget value never breaks a session (explorer/widget_guard.py, installed by app.py).

Found by `benchmarks/live_class.py --bad-clients`: a protocol client following a live class sent its answer pills a
double (`WidgetState.double_value`) instead of their string array; Streamlit's pills deserializer raised TypeError
before the page ran, on that run and on every later one, so the session stopped following its class and each run
left a traceback in the server's output. With the guard the value counts as none sent (the pills' default, no
answer, no callback), and a real answer afterwards still reaches the callback. AppTest, no server: a second or two.
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
