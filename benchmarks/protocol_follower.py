"""A following phone without a browser: a small client of Streamlit's own websocket protocol (`/_stcore/stream`,
the BackMsg / ForwardMsg protobufs that ship in the streamlit package), for benchmarks/live_class.py.

It does what a following phone's page asks of the server, and nothing of what the phone does itself (no layout, no
drawing): it opens `/lesson?class=CODE...` (a `rerun_script` BackMsg with the page's name and query string), takes
the URL the page writes (`page_info_changed`), reruns each `run_every` fragment at the interval the server asks for
(`auto_rerun`; a whole page run clears them and registers its own again, as the browser does), never two runs at
once, and sends a widget change for its answer (the pills' `string_array_value`, as a rerun of the fragment that
holds them). Each message that names a lesson step's title is time-stamped on arrival (time.time()), so a benchmark
compares it with the teacher's key press as it does a Chromium phone's. Widget states are not echoed back on a poll
(the browser sends them all; the server keeps the values it has, so the page runs the same); the answer sends its
one widget.

    async with ProtocolFollower(base, query, total_steps=22) as phone:
        await phone.wait_for(lambda: 1 in phone.steps_seen, 60)
        await phone.answer("lesson_question_", 0)
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import time
from urllib.parse import urlsplit

import websockets
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg


class ProtocolFollower:
    """One phone's session over one websocket (see the module docstring)."""

    def __init__(self, base: str, query: str, total_steps: int, page: str = "lesson") -> None:
        parts = urlsplit(base)
        self.url = f"ws://{parts.netloc}/_stcore/stream"
        self.origin = f"{parts.scheme}://{parts.netloc}"
        self.query, self.page = query, page
        # the step's heading ("7단계 / 23 · ..."), read in the decoded element: in the raw bytes the varint length
        # before the text can itself be a digit's byte ('3' = 51), which read step 7 as 37
        self.title = re.compile(r"^(\d+)" + re.escape(f"단계 / {total_steps} · "))
        self.steps_seen: dict[int, float] = {}  # step -> time.time() its title's message arrived
        self.page_hash = ""
        self.fragments: dict[str, float] = {}  # fragment id -> auto-rerun interval (s)
        self.pills: dict[str, tuple[str, list[str], str]] = {}  # widget id -> (its block's key, options, fragment)
        self.messages = self.reruns = self.runs = 0
        self.finished = 0  # runs (page or fragment) that ended: script_finished messages
        self.errors: list[str] = []
        self._ws = None
        self._running = False  # a script run (page or fragment) is under way: reruns wait for its end
        self._due: dict[str, float] = {}  # fragment id -> when its next auto rerun is due (monotonic)
        self._tasks: list[asyncio.Task] = []
        self._block_keys: dict[tuple[int, ...], str] = {}  # delta path of a keyed block -> its key
        self.trace: list | None = None  # (time, kind, detail) of every message, when a list (debugging)

    async def __aenter__(self) -> ProtocolFollower:
        self._ws = await websockets.connect(self.url, subprotocols=["streamlit"], origin=self.origin,
                                            max_size=None, open_timeout=60, ping_interval=None)
        self._tasks = [asyncio.create_task(self._receive()), asyncio.create_task(self._timers())]
        await self._rerun()
        return self

    async def __aexit__(self, *exc) -> None:
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        with contextlib.suppress(Exception):
            await self._ws.close()

    # -- sending --
    async def _rerun(self, fragment_id: str = "", widgets: list | None = None, auto: bool = False) -> None:
        message = BackMsg()
        state = message.rerun_script
        state.query_string = self.query
        state.page_script_hash = self.page_hash
        state.page_name = "" if self.page_hash else self.page
        state.fragment_id = fragment_id
        state.is_auto_rerun = auto
        state.widget_states.SetInParent()
        for widget in widgets or []:
            state.widget_states.widgets.append(widget)
        self._running = True
        self.reruns += 1
        if self.trace is not None:
            self.trace.append((round(time.time(), 2), "SENT", fragment_id[:6] + (" auto" if auto else "")))
        await self._ws.send(message.SerializeToString())

    async def answer(self, block_prefix: str, index: int) -> None:
        """Pick option `index` of the pills inside the keyed block whose key starts with `block_prefix` (the
        question's container), as a tap does."""
        from streamlit.proto.WidgetStates_pb2 import WidgetState

        found = [(wid, options, fragment) for wid, (key, options, fragment) in self.pills.items()
                 if key.startswith(block_prefix)]
        if not found:
            raise LookupError(f"no pills inside a block {block_prefix}*")
        wid, options, fragment = found[-1]
        widget = WidgetState(id=wid)
        widget.string_array_value.data.append(options[index])
        while self._running:
            await asyncio.sleep(0.02)
        await self._rerun(fragment, [widget])

    # -- receiving --
    async def _receive(self) -> None:
        async for raw in self._ws:
            arrived = time.time()
            self.messages += 1
            message = ForwardMsg()
            message.ParseFromString(raw)
            kind = message.WhichOneof("type")
            if kind == "delta" and message.delta.WhichOneof("type") == "new_element":
                element = message.delta.new_element
                body = getattr(getattr(element, element.WhichOneof("type") or "", None), "body", None)
                match = self.title.match(body) if isinstance(body, str) else None
                if match:
                    self.steps_seen.setdefault(int(match.group(1)), arrived)
            if self.trace is not None:
                self.trace.append((round(arrived, 2), kind, self._detail(message, kind),
                                   list(message.metadata.run.fragment_ids)))
            if kind == "new_session":  # a run starts: the page's, or fragments' alone (metadata.run says which)
                if not message.metadata.run.fragment_ids:  # the whole page: its fragments register again
                    self.fragments.clear()
                    self._due.clear()
                    self.runs += 1
                self._running = True
            elif kind == "navigation":  # st.navigation names the page this run showed (new_session: app.py's hash)
                self.page_hash = message.navigation.page_script_hash or self.page_hash
            elif kind == "page_info_changed":
                self.query = message.page_info_changed.query_string
            elif kind == "auto_rerun":
                interval, fragment = message.auto_rerun.interval, message.auto_rerun.fragment_id
                self.fragments[fragment] = interval
                self._due.setdefault(fragment, time.monotonic() + interval)
            elif kind == "stop_auto_rerun":
                for fragment in message.stop_auto_rerun.fragment_ids:
                    self.fragments.pop(fragment, None)
            elif kind == "script_finished":
                self._running = False
                self.finished += 1
            elif kind == "delta":
                self._delta(message)
            elif kind == "session_event" and message.session_event.WhichOneof("type") == "script_compilation_exception":
                self.errors.append(str(message.session_event))

    @staticmethod
    def _detail(message: ForwardMsg, kind: str) -> str:
        if kind == "script_finished":
            return str(message.script_finished)
        if kind == "auto_rerun":
            return message.auto_rerun.fragment_id[:6]
        if kind == "page_info_changed":
            return message.page_info_changed.query_string
        return str(message.delta)[:160].replace("\n", " ") if kind == "delta" else ""

    def _delta(self, message: ForwardMsg) -> None:
        delta, path = message.delta, tuple(message.metadata.delta_path)
        which = delta.WhichOneof("type")
        if which == "add_block":
            key = self._block_key(delta.add_block)
            if key:
                self._block_keys[path] = key
        elif which == "new_element":
            element = delta.new_element
            if element.WhichOneof("type") == "button_group":
                group = element.button_group
                # the innermost keyed block around it (a step's question sits inside other keyed blocks)
                block = max(((len(block_path), key) for block_path, key in self._block_keys.items()
                             if path[:len(block_path)] == block_path), default=(0, ""))[1]
                self.pills[group.id] = (block, [o.content for o in group.options], delta.fragment_id)
            elif element.WhichOneof("type") == "exception":
                self.errors.append(element.exception.message)

    @staticmethod
    def _block_key(block) -> str:
        """The user key of a keyed container (`st.container(key=...)` ids end with it)."""
        ident = getattr(block, "id", "") or ""
        return ident.split("-", 2)[-1] if ident.startswith("$$ID") else ident

    # -- the fragments' timers --
    async def _timers(self) -> None:
        while True:
            await asyncio.sleep(0.05)
            if self._running:
                continue
            now = time.monotonic()
            for fragment, interval in list(self.fragments.items()):
                if self._due.get(fragment, now) <= now:
                    self._due[fragment] = now + interval
                    await self._rerun(fragment, auto=True)
                    break

    def state(self) -> str:
        """What this phone has done so far (for a benchmark's message when it did not follow)."""
        tasks = [("done: " + repr(t.exception())) if t.done() and not t.cancelled() else "running"
                 for t in self._tasks]
        return (f"steps {sorted(self.steps_seen)}, {self.messages} messages, {self.runs} runs, {self.reruns} reruns "
                f"sent, running={self._running}, timers {len(self.fragments)}, tasks {tasks}, errors {self.errors[:2]}")

    async def wait_for(self, condition, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while not condition():
            if time.monotonic() > deadline:
                raise TimeoutError(f"not met within {timeout:.0f} s ({self.state()})")
            await asyncio.sleep(0.05)
