"""Clients that do the bad things a class can throw at a server, for `benchmarks/live_class.py --bad-clients N`:
protocol clients (benchmarks/protocol_follower.py: Streamlit's own websocket protocol, no browser) that read what
the page tells them (every alert, caption and Markdown text of each run, and any exception element).

  * a code guesser: one phone session opening /lesson?class=<unknown code>, then trying more unknown codes, one
    after another, through the link and through the join box (`class_code_input`), some malformed (Hangul, a
    `<script>`, 300 characters); the first JOIN_FAILURES_PER_WINDOW (10) must each say class.error.unknown and
    every later one class.error.rate_limited (explorer/live_class.py rate-limits unknown codes per session);
  * a bad answerer: a phone that joins the class as a good one does, then sends answers that are not answers: a
    pills value that is not one of the options, a huge one, values of the wrong type (int array, double, bool,
    JSON, JSON that does not parse), a widget id the page never made, and the first question's own option after
    the class has moved on. Its caption must keep saying class.pick_and_wait (the class holds no answer from it),
    no exception may show, and the teacher's count must not move. (The double was the first run's finding: it
    broke the session for good, a traceback per run; explorer/widget_guard.py now drops such values.);
  * a flood of joins: many sessions that open the class's link, follow (class.follow_status), and leave again:
    every other one presses 혼자 보기 (class.own_pace_status) before closing its websocket, the rest just close.

Each records what it was told; `expected()` holds the Korean texts (explorer/i18n) to compare with.
"""

from __future__ import annotations

import asyncio
import random
import time
from urllib.parse import urlencode

from streamlit.proto.WidgetStates_pb2 import WidgetState

from benchmarks.protocol_follower import ProtocolFollower
from explorer import live_class as lc
from explorer.i18n import t

LANG = "한국어"  # what the QR link carries: the phone's UI is Korean


def expected(code: str = "") -> dict[str, str]:
    """The Korean texts the bad clients must be told (and the good ones' status lines)."""
    keys = ["class.error.unknown", "class.error.rate_limited", "class.pick_and_wait", "class.error.closed",
            "class.error.bad_answer", "class.error.moved_on"]
    texts = {key: t(key, "ko") for key in keys}
    if code:
        texts["class.follow_status"] = t("class.follow_status", "ko", code=code)
        texts["class.own_pace_status"] = t("class.own_pace_status", "ko", code=code)
    return texts


def unknown_code(rng: random.Random) -> str:
    return "".join(rng.choice(lc.CODE_ALPHABET) for _ in range(lc.CODE_LENGTH))


class ProbeClient(ProtocolFollower):
    """A protocol client that keeps what each run said: (run, kind, text) for alerts (st.warning/info/error),
    Markdown and captions; the exception elements it received; the widget ids of buttons and text inputs by key."""

    def __init__(self, base: str, query: str, total_steps: int) -> None:
        super().__init__(base, query, total_steps)
        self.said: list[tuple[int, str, str]] = []
        self.exceptions: list[str] = []
        self.widgets: dict[str, str] = {}
        self.closed = ""  # why the websocket ended, if it did before we closed it

    def _delta(self, message) -> None:
        super()._delta(message)
        delta = message.delta
        if delta.WhichOneof("type") != "new_element":
            return
        element = delta.new_element
        kind = element.WhichOneof("type")
        if kind == "alert":
            self.said.append((self.finished, "alert", element.alert.body))
        elif kind == "markdown":
            self.said.append((self.finished, "markdown", element.markdown.body))
        elif kind == "exception":
            self.exceptions.append(f"{element.exception.type}: {element.exception.message}"[:300])
        elif kind in ("button", "text_input"):
            ident = getattr(element, kind).id
            self.widgets[ident.split("-", 2)[-1] if ident.startswith("$$ID") else ident] = ident

    async def first_run(self, timeout: float = 120) -> list[str]:
        await self.wait_for(lambda: self.finished >= 1 and not self._running, timeout)
        return self.texts(0)

    def texts(self, run: int) -> list[str]:
        return [text for n, _, text in self.said if n == run]

    def alerts(self, run: int) -> list[str]:
        return [text for n, kind, text in self.said if n == run and kind == "alert"]

    async def run(self, widgets: list | None = None, fragment: str = "", query: str | None = None,
                  timeout: float = 60) -> list[str]:
        """One run (the page's, or the fragment's) with these widget values; what that run said."""
        while self._running:
            await asyncio.sleep(0.02)
        if query is not None:
            self.query = query
        before = self.finished
        await self._rerun(fragment, widgets)
        await self.wait_for(lambda: self.finished > before, timeout)
        return self.texts(before)

    def broken(self) -> str:
        """Why this client's websocket ended on its own ('' while it is open)."""
        task = self._tasks[0] if self._tasks else None
        if task is not None and task.done() and not task.cancelled():
            return repr(task.exception()) if task.exception() else "the server closed the websocket"
        return ""


async def guess_codes(base: str, total_steps: int, guesses: int, pause: float, seed: int) -> dict:
    """One session trying `guesses` unknown codes (link and join box in turn, some malformed). Returns
    {"told": [(guess, how, the alerts of its run)], "exceptions": [...], "broken": ""}."""
    rng = random.Random(seed)
    malformed = {3: "가나다라마바", 5: "<script>alert(1)</script>", 7: "Z" * 300}
    told = []
    first = unknown_code(rng)
    async with ProbeClient(base, urlencode({"class": first, "lang": LANG}), total_steps) as client:
        await client.first_run()
        told.append((1, "link", client.alerts(0)))
        for number in range(2, guesses + 1):
            await asyncio.sleep(pause)
            code = malformed.get(number) or unknown_code(rng)
            if number % 2 == 0 and "class_code_input" in client.widgets:
                how = "box"
                widget = WidgetState(id=client.widgets["class_code_input"], string_value=code)
                await client.run([widget])
            else:
                how = "link"
                await client.run(query=urlencode({"class": code, "lang": LANG}))
            told.append((number, how, client.alerts(client.finished - 1)))
        return {"told": told, "exceptions": client.exceptions, "broken": client.broken(), "errors": client.errors}


def bad_answer_states(pills_id: str, options: list[str], multi: bool) -> list[tuple[str, WidgetState]]:
    """(what, the widget state) of the answers that are no answers to the pills `pills_id`."""
    states = []

    def add(what: str, **value) -> None:
        state = WidgetState(id=value.pop("id", pills_id))
        for field, data in value.items():
            if field.endswith("_array_value"):
                getattr(state, field).data.extend(data)
            else:
                setattr(state, field, data)
        states.append((what, state))

    add("a value not among the options", string_array_value=["99"])
    add("an option's label with a space", string_array_value=[options[0] + " "])
    add("100,000 characters", string_array_value=["가" * 100_000])
    if multi:
        add("two values, neither an option", string_array_value=["99", "-1"])
    add("an int array [99] (wrong type)", int_array_value=[99])
    add("a double 99.0 (wrong type)", double_value=99.0)
    add("a bool (wrong type)", bool_value=True)
    add("a JSON object (wrong type)", json_value='{"answer": 99}')
    add("JSON that does not parse", json_value="{99")
    add("a widget id the page never made", id="$$ID-0123456789abcdef0123456789abcdef-lesson_q_x",
        string_array_value=[options[0]])
    return states


async def answer_badly(client: ProbeClient, block: str) -> list[dict]:
    """Send every bad answer to the pills in the keyed block `block` (its latest); per answer: what it was, the
    texts of its run, and the exception elements so far."""
    found = [(wid, options, fragment) for wid, (key, options, fragment) in client.pills.items() if key == block]
    if not found:
        raise LookupError(f"no pills in {block}: {sorted({key for key, _, _ in client.pills.values()})}")
    wid, options, fragment = found[-1]
    multi = block.endswith("causal")
    results = []
    for what, state in bad_answer_states(wid, options, multi):
        run = client.finished
        said = await client.run([state], fragment=fragment)
        results.append({"what": what, "said": said, "alerts": client.alerts(run), "exceptions": len(client.exceptions),
                        "block": block})
    return results


async def late_answer(client: ProbeClient, block: str) -> dict:
    """The first option of an earlier step's question (`block`), sent after the class moved on, with a run of the
    whole page (a refusal's notice shows in a page run, not in the step fragment's)."""
    found = [(wid, options, fragment) for wid, (key, options, fragment) in client.pills.items() if key == block]
    wid, options, _fragment = found[0]
    state = WidgetState(id=wid)
    state.string_array_value.data.append(options[0])
    run = client.finished
    said = await client.run([state])
    return {"what": "the first question's option, after the class moved on", "said": said,
            "alerts": client.alerts(run), "exceptions": len(client.exceptions), "block": block}


async def one_flooder(base: str, query: str, total_steps: int, leave: bool, code: str) -> dict:
    """Open the class's link, follow, (press 혼자 보기), close."""
    texts = expected(code)
    started = time.monotonic()
    result = {"followed": False, "left": None, "exceptions": [], "broken": "", "error": ""}
    try:
        async with ProbeClient(base, query, total_steps) as client:
            said = await client.first_run()
            result["followed"] = texts["class.follow_status"] in said
            if leave and "class_leave" in client.widgets:
                said = await client.run([WidgetState(id=client.widgets["class_leave"], trigger_value=True)])
                result["left"] = texts["class.own_pace_status"] in said
            result["exceptions"] = client.exceptions
            result["broken"] = client.broken()
    except Exception as error:  # a refused or dropped connection is a finding, not the benchmark's end
        result["error"] = repr(error)[:200]
    result["seconds"] = time.monotonic() - started
    return result


async def flood(base: str, query: str, total_steps: int, sessions: int, at_once: int, pause: float, code: str,
                rounds_done: list) -> list[dict]:
    """`sessions` flooders, `at_once` at a time, `pause` s between rounds; every other one leaves by the button.
    Appends each round's results to `rounds_done` as it ends (the caller samples memory between rounds)."""
    results = []
    number = 0
    while number < sessions:
        batch = range(number, min(sessions, number + at_once))
        round_results = await asyncio.gather(*(one_flooder(base, query, total_steps, i % 2 == 0, code)
                                               for i in batch))
        results += round_results
        rounds_done.append(round_results)
        number += at_once
        await asyncio.sleep(pause)
    return results
