"""A live class (/lesson): the teacher's step, sentence and model shared with the students' phones, and the
class's answers to the predict-first questions. Pure Python over the shared store (transformer_core.store):
no streamlit, so one module serves every app server that shares a Redis, and the tests drive it directly.

    classes = LiveClasses(store)
    code, secret = classes.start(step=1, text="...", model="ko-en-toy", lang="ko")   # the teacher's session
    classes.join(code, follower)               # a phone (follower: a random id held by its session)
    classes.version(code)                      # what a phone polls: one small read, changes with the class
    classes.update(code, secret, step=2)       # only the holder of the secret moves the class
    classes.answer(code, follower, qkey, [1], n_options=4)
    classes.answer_count(code, qkey); classes.reveal(code, secret, qkey); classes.end(code, secret)

Keys (all expire after `idle_ttl` without a teacher action; an ended class is remembered for an hour):
  lc:{code}            the class's state (JSON): step, text, model, lang, revealed questions, ended, owner
                       (the SHA-256 of the teacher's secret; the secret itself is never stored)
  lc:{code}:v          the version, incremented by every change a phone must follow
  lc:{code}:f          followers: random id -> last poll (epoch seconds); no names, nothing personal
  lc:{code}:a:{qkey}   answers to one question: follower id -> the chosen option indices (JSON)
  lc:index             open classes: code -> start time (bounds the classes per store)
  lc:guess:{session}   failed joins of one session in the current window (code guessing is rate-limited)
"""

from __future__ import annotations

import hashlib
import hmac
import json
import operator
import re
import secrets
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace

from transformer_core.store import Store, StoreFull

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I: read off a projector without doubt
CODE_LENGTH = 6
IDLE_TTL_S = 4 * 3600  # a class nobody moves for 4 hours is gone
ENDED_TTL_S = 3600  # an ended class says "ended" (not "unknown") for an hour
FOLLOWER_ACTIVE_S = 60.0  # a phone not heard from for this long no longer counts (polls beat every 10 s)
MAX_FOLLOWERS = 300  # per class
MAX_CLASSES = 1000  # per store (server, or every server sharing one Redis)
MAX_TEXT_CHARS = 2000
MAX_OPTIONS = 64
JOIN_FAILURES_PER_WINDOW = 10  # unknown codes one session may try per window
JOIN_WINDOW_S = 60.0
_QKEY = re.compile(r"^[A-Za-z0-9_.:-]{1,80}$")
_FOLLOWER = re.compile(r"^[A-Za-z0-9_-]{8,64}$")


class ClassError(Exception):
    """A live-class request that cannot be served; `reason` names it for the page's message."""

    reason = "error"


class UnknownClass(ClassError):
    reason = "unknown"


class ClassEnded(ClassError):
    reason = "ended"


class NotTeacher(ClassError):
    reason = "not_teacher"


class RateLimited(ClassError):
    reason = "rate_limited"


class ClassFull(ClassError):
    reason = "full"


class BadAnswer(ClassError):
    reason = "bad_answer"


class AnswersClosed(ClassError):
    reason = "closed"


class QuestionMovedOn(AnswersClosed):
    """An answer to a question of another step than the class's (a tap that arrived after the teacher's →)."""

    reason = "moved_on"


class NotFollowing(ClassError):
    reason = "not_following"


def new_code(randbelow: Callable[[int], int] = secrets.randbelow) -> str:
    """A fresh class code: 6 characters from A–Z and 2–9 without 0, O, 1, I (32⁶ ≈ 10⁹ codes)."""
    return "".join(CODE_ALPHABET[randbelow(len(CODE_ALPHABET))] for _ in range(CODE_LENGTH))


def normalise_code(raw: object) -> str | None:
    """A typed or scanned code in canonical form (upper case, spaces and dashes dropped), or None if it
    cannot be a class code."""
    if not isinstance(raw, str):
        return None
    code = re.sub(r"[\s-]", "", raw).upper()
    if len(code) != CODE_LENGTH or any(c not in CODE_ALPHABET for c in code):
        return None
    return code


def question_key(step: int, question_id: str, sentence_sig: str) -> str:
    """The key a class's answers to one question are kept under: its step, its id and the sentence and
    model it was asked about (a new sentence asks a new question)."""
    return f"{int(step)}:{question_id}:{sentence_sig}"


def poll_should_rerun(current: int | None, rendered: int | None, asked: tuple[int | None, float] | None,
                      now: float, retry_s: float) -> bool:
    """A following phone's poll: whether to rerun the page. It compares the class's version now with the version
    the page last RENDERED (not the last one the poll saw), so a rerun that never came (seen under heavy load:
    the poll asked, the page never ran) is asked for again `retry_s` after the last ask, until a run shows it.
    `asked` is (version, time) of the last ask."""
    if current == rendered:
        return False
    return asked is None or asked[0] != current or now - asked[1] >= retry_s


def new_follower_id() -> str:
    """A random id for one phone's session: how the class tells answers apart without knowing anyone."""
    return secrets.token_urlsafe(12)


def _owner(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


@dataclass(frozen=True)
class ClassState:
    """What a phone follows: the teacher's step, sentence, model and language, the questions revealed."""

    code: str
    step: int
    text: str
    model: str
    lang: str
    revealed: frozenset[str] = field(default_factory=frozenset)
    ended: bool = False

    def to_json(self, owner: str) -> str:
        return json.dumps({"step": self.step, "text": self.text, "model": self.model, "lang": self.lang,
                           "revealed": sorted(self.revealed), "ended": self.ended, "owner": owner})

    @classmethod
    def from_json(cls, code: str, raw: str) -> tuple[ClassState, str]:
        data = json.loads(raw)
        return cls(code=code, step=int(data["step"]), text=str(data["text"]), model=str(data["model"]),
                   lang=str(data["lang"]), revealed=frozenset(data.get("revealed", ())),
                   ended=bool(data.get("ended"))), str(data["owner"])


def _choice(raw: Iterable[int] | int, n_options: int, multi: bool) -> list[int]:
    """The chosen option indices, validated: in range, one for a single-choice question, at least one."""
    if not 1 <= n_options <= MAX_OPTIONS:
        raise BadAnswer(f"a question has 1 to {MAX_OPTIONS} options, not {n_options}")
    values = [raw] if isinstance(raw, int) else list(raw)
    try:  # whole numbers only (operator.index: int, numpy ints; not 1.5, not "1"); bools are not options
        chosen = sorted({operator.index(v) for v in values if not isinstance(v, bool)})
    except TypeError as error:
        raise BadAnswer(f"not option numbers: {values!r}") from error
    if len(chosen) != len(values) or not chosen:
        raise BadAnswer(f"no valid choice in {values!r}")
    if any(not 0 <= c < n_options for c in chosen):
        raise BadAnswer(f"{chosen} is outside the question's {n_options} options")
    if not multi and len(chosen) != 1:
        raise BadAnswer("this question takes one answer")
    return chosen


def distribution(answers: Iterable[Sequence[int]], n_options: int) -> list[int]:
    """How many answers chose each option (a multi-choice answer counts for each option it holds)."""
    counts = [0] * n_options
    for chosen in answers:
        for c in chosen:
            if 0 <= c < n_options:
                counts[c] += 1
    return counts


class LiveClasses:
    """Live classes over a Store. `clock` is wall time (epoch seconds), shared by every app server."""

    def __init__(self, store: Store, idle_ttl: float = IDLE_TTL_S, max_followers: int = MAX_FOLLOWERS,
                 max_classes: int = MAX_CLASSES, join_failures: int = JOIN_FAILURES_PER_WINDOW,
                 join_window: float = JOIN_WINDOW_S, clock: Callable[[], float] = time.time,
                 randbelow: Callable[[int], int] = secrets.randbelow) -> None:
        self.store = store
        self.idle_ttl, self.max_followers, self.max_classes = idle_ttl, max_followers, max_classes
        self.join_failures, self.join_window = join_failures, join_window
        self.clock, self.randbelow = clock, randbelow

    # --- keys ---
    @staticmethod
    def _state_key(code: str) -> str:
        return f"lc:{code}"

    @staticmethod
    def _answers_key(code: str, qkey: str) -> str:
        return f"lc:{code}:a:{qkey}"

    # --- reading ---
    def _load(self, code: str) -> tuple[ClassState, str] | None:
        raw = self.store.get(self._state_key(code))
        return None if raw is None else ClassState.from_json(code, raw)

    def state(self, code: str) -> ClassState | None:
        """The class's state (an ended class too, for an hour), or None for an unknown or expired code."""
        loaded = self._load(code)
        return None if loaded is None else loaded[0]

    def version(self, code: str) -> int | None:
        """The class's version (one small read: what each phone polls), or None once it is gone."""
        raw = self.store.get(f"lc:{code}:v")
        return None if raw is None else int(raw)

    def is_teacher(self, code: str, secret: str | None) -> bool:
        loaded = self._load(code)
        return bool(secret) and loaded is not None and hmac.compare_digest(loaded[1], _owner(secret))

    # --- the teacher ---
    def start(self, step: int, text: str, model: str, lang: str) -> tuple[str, str]:
        """Open a class; returns (code, secret). The secret stays in the teacher's session: it alone moves
        the class. Raises ClassFull when the store already holds `max_classes` open classes."""
        index = "lc:index"
        if self.store.hlen(index) >= self.max_classes:
            for code in self.store.hgetall(index):
                if self.store.get(self._state_key(code)) is None:
                    self.store.hdel(index, code)
            if self.store.hlen(index) >= self.max_classes:
                raise ClassFull(f"{self.max_classes} classes are open on this server; try again later")
        secret = secrets.token_urlsafe(32)
        state_text = text[:MAX_TEXT_CHARS]
        for _ in range(20):
            code = new_code(self.randbelow)
            state = ClassState(code=code, step=int(step), text=state_text, model=model, lang=lang)
            if self.store.set(self._state_key(code), state.to_json(_owner(secret)), ttl=self.idle_ttl,
                              only_if_new=True):
                break
        else:  # 20 taken codes in a row: the code space is (nearly) full
            raise ClassFull("no free class code")
        self.store.set(f"lc:{code}:v", "1", ttl=self.idle_ttl)
        self.store.hset(index, code, str(int(self.clock())))
        return code, secret

    def _owned(self, code: str, secret: str) -> ClassState:
        loaded = self._load(code)
        if loaded is None:
            raise UnknownClass(code)
        state, owner = loaded
        if not secret or not hmac.compare_digest(owner, _owner(secret)):
            raise NotTeacher(code)
        if state.ended:
            raise ClassEnded(code)
        return state

    def _save(self, state: ClassState, secret: str, ttl: float) -> None:
        code = state.code
        self.store.set(self._state_key(code), state.to_json(_owner(secret)), ttl=ttl)
        self.store.incr(f"lc:{code}:v", ttl=ttl)
        self.store.expire(f"lc:{code}:f", ttl)

    def update(self, code: str, secret: str, *, step: int | None = None, text: str | None = None,
               model: str | None = None, lang: str | None = None) -> ClassState:
        """Move the class (only with the teacher's secret); the phones see a new version. No change: no write."""
        state = self._owned(code, secret)
        changes = {k: v for k, v in {"step": None if step is None else int(step),
                                     "text": None if text is None else text[:MAX_TEXT_CHARS],
                                     "model": model, "lang": lang}.items()
                   if v is not None and getattr(state, k) != v}
        if not changes:
            return state
        new_state = replace(state, **changes)
        self._save(new_state, secret, self.idle_ttl)
        return new_state

    def reveal(self, code: str, secret: str, qkey: str) -> ClassState:
        """Close a question's answers and show its answer on every following phone."""
        state = self._owned(code, secret)
        if not _QKEY.match(qkey):
            raise BadAnswer(f"bad question key {qkey!r}")
        if qkey in state.revealed:
            return state
        new_state = replace(state, revealed=state.revealed | {qkey})
        self._save(new_state, secret, self.idle_ttl)
        return new_state

    def end(self, code: str, secret: str) -> None:
        """End the class: the phones are told, answers and followers are dropped; the code says "ended"
        for an hour, then is forgotten."""
        state = self._owned(code, secret)
        self._save(replace(state, ended=True), secret, ENDED_TTL_S)
        self.store.delete(f"lc:{code}:f", *(self._answers_key(code, q) for q in state.revealed))
        self.store.hdel("lc:index", code)

    def followers(self, code: str) -> int:
        """Phones following now (polled within FOLLOWER_ACTIVE_S)."""
        since = self.clock() - FOLLOWER_ACTIVE_S
        return sum(1 for seen in self.store.hgetall(f"lc:{code}:f").values() if float(seen) >= since)

    # --- a phone ---
    def join(self, code_text: object, session: str) -> ClassState:
        """A phone joins with a typed or scanned code. Raises RateLimited after too many unknown codes from
        this session, UnknownClass, ClassEnded, or ClassFull (max_followers phones already follow)."""
        if not _FOLLOWER.match(session or ""):
            raise NotFollowing("bad session id")
        guesses = f"lc:guess:{session}"
        if int(self.store.get(guesses) or 0) >= self.join_failures:
            raise RateLimited(f"more than {self.join_failures} unknown codes in {self.join_window:.0f} s")
        code = normalise_code(code_text)
        state = self.state(code) if code else None
        if state is None:
            self.store.incr(guesses, ttl=self.join_window)
            raise UnknownClass(str(code_text)[:20])
        if state.ended:
            raise ClassEnded(code)
        self.heartbeat(code, session)
        return state

    def heartbeat(self, code: str, session: str) -> None:
        """Mark a phone as following now; a new phone past max_followers is refused (ClassFull)."""
        key = f"lc:{code}:f"
        if self.store.hget(key, session) is None and self.store.hlen(key) >= self.max_followers:
            self._drop_stale_followers(code)
            if self.store.hlen(key) >= self.max_followers:
                raise ClassFull(f"{self.max_followers} phones already follow this class")
        self.store.hset(key, session, f"{self.clock():.1f}", ttl=self.idle_ttl)

    def _drop_stale_followers(self, code: str) -> None:
        since = self.clock() - FOLLOWER_ACTIVE_S
        for session, seen in self.store.hgetall(f"lc:{code}:f").items():
            if float(seen) < since:
                self.store.hdel(f"lc:{code}:f", session)

    def leave(self, code: str, session: str) -> None:
        """A phone goes its own pace: it no longer counts as following (its answers stay)."""
        self.store.hdel(f"lc:{code}:f", session)

    def answer(self, code: str, session: str, qkey: str, choice: Iterable[int] | int, n_options: int,
               multi: bool = False) -> list[int]:
        """Record (or change) this phone's answer to a question, until the teacher reveals it. Refused:
        a choice outside the options (BadAnswer), after the reveal (AnswersClosed), from a phone that has
        not joined (NotFollowing). Returns the stored choice."""
        if not _QKEY.match(qkey or ""):
            raise BadAnswer(f"bad question key {qkey!r}")
        chosen = _choice(choice, n_options, multi)
        state = self.state(code)
        if state is None:
            raise UnknownClass(code)
        if state.ended:
            raise ClassEnded(code)
        if qkey in state.revealed:
            raise AnswersClosed(qkey)
        if not qkey.startswith(f"{state.step}:"):
            raise QuestionMovedOn(f"{qkey} is not asked now (the class is at step {state.step})")
        if self.store.hget(f"lc:{code}:f", session) is None:
            raise NotFollowing(code)
        self.store.hset(self._answers_key(code, qkey), session, json.dumps(chosen), ttl=self.idle_ttl)
        return chosen

    def withdraw(self, code: str, session: str, qkey: str) -> None:
        """Take this phone's answer back (the student cleared the pick), until the reveal."""
        state = self.state(code)
        if state is not None and _QKEY.match(qkey or "") and qkey not in state.revealed:
            self.store.hdel(self._answers_key(code, qkey), session)

    def my_answer(self, code: str, session: str, qkey: str) -> list[int] | None:
        raw = self.store.hget(self._answers_key(code, qkey), session)
        return None if raw is None else json.loads(raw)

    def answer_count(self, code: str, qkey: str) -> int:
        """Answers given to one question (one per phone): one O(1) read."""
        return self.store.hlen(self._answers_key(code, qkey))

    def answers(self, code: str, qkey: str) -> list[list[int]]:
        return [json.loads(v) for v in self.store.hgetall(self._answers_key(code, qkey)).values()]


__all__ = [
    "CODE_ALPHABET", "CODE_LENGTH", "IDLE_TTL_S", "MAX_CLASSES", "MAX_FOLLOWERS", "AnswersClosed", "BadAnswer",
    "ClassEnded", "ClassError", "ClassFull", "ClassState", "LiveClasses", "NotFollowing", "NotTeacher",
    "QuestionMovedOn", "RateLimited", "StoreFull", "UnknownClass", "distribution", "new_code", "new_follower_id",
    "normalise_code", "question_key",
]
