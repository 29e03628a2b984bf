"""A widget value the widget cannot read is dropped, not raised: Streamlit 1.67 deserializes whatever value a
browser (or anything speaking its websocket protocol) sends for a widget id. A forged message (benchmarks/
live_class.py --bad-clients: a following phone's answer pills sent a double, `WidgetState.double_value`, instead of
their string array) made the pills' deserializer raise `TypeError: object of type 'float' has no len()` before the
page's script started, on that run and every later run of the session, a traceback in the server's output each
time: the session could no longer follow its class. Streamlit stores the value as sent and reads it back in
`WStates.__getitem__`; this wraps that read so that a value the widget's own deserializer refuses (another value
type, JSON that does not parse) counts as no value sent: the widget's default, as on a first run. Values a widget
can read are untouched (the wrapper only acts where Streamlit would raise), and so is a missing value (KeyError).

app.py installs it once per process (`install()`; idempotent: app.py runs on every rerun).
"""

from __future__ import annotations

from typing import Any

_MARK = "_transformer_explorer_guarded"
dropped = 0  # values dropped since the process started (a count for tests and benchmarks; nothing is logged)


def install() -> bool:
    """Wrap WStates.__getitem__ (once); False when this Streamlit has no such class (then nothing changes)."""
    try:
        from streamlit.runtime.state.session_state import Serialized, Value, WStates
    except ImportError:
        return False
    original = WStates.__getitem__
    if getattr(original, _MARK, False):
        return True

    def guarded_getitem(self: WStates, key: str) -> Any:
        try:
            return original(self, key)
        except KeyError:
            raise  # no value, or no widget for it yet: Streamlit's own meaning
        except Exception as error:
            wstate = self.states.get(key)
            metadata = self.widget_metadata.get(key)
            if not isinstance(wstate, Serialized) or metadata is None:
                raise
            try:
                value = metadata.deserializer(None)  # None: nothing sent, the widget's default
            except Exception:
                raise error from None
            global dropped
            dropped += 1
            self.states[key] = Value(value)  # (the key stays: callers may be iterating over the states)
            return value

    setattr(guarded_getitem, _MARK, True)
    guarded_getitem.__wrapped__ = original  # type: ignore[attr-defined]
    WStates.__getitem__ = guarded_getitem  # type: ignore[method-assign]
    return True
