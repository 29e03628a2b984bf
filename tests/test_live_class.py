"""A live class over the shared store: every behaviour against the in-process store and a real redis-server
(the `shared_store` fixture), plus a flood of joins, answers and classes that must stay bounded."""

from __future__ import annotations

import itertools
import time

import pytest

from explorer import live_class as lc
from explorer.live_class import LiveClasses
from transformer_core.store import MemoryStore

TEXT, MODEL = "고양이가 공원에서 생선을 먹었다.", "ko-en-toy"


def phone(n: int) -> str:
    return f"phone-{n:06d}"


def started(store, **kwargs) -> tuple[LiveClasses, str, str]:
    classes = LiveClasses(store, **kwargs)
    code, secret = classes.start(step=1, text=TEXT, model=MODEL, lang="ko")
    return classes, code, secret


def test_codes_use_six_unambiguous_characters():
    codes = {lc.new_code() for _ in range(2000)}
    assert len(codes) > 1990  # 32**6 codes: collisions in 2000 draws are rare
    for code in codes:
        assert len(code) == 6 and set(code) <= set("ABCDEFGHJKLMNPQRSTUVWXYZ23456789")
    assert not set("".join(codes)) & set("0O1I")
    assert len(lc.CODE_ALPHABET) == 26 - 2 + 10 - 2  # A–Z without O, I; 0–9 without 0, 1


def test_typed_codes_are_normalised_or_refused():
    assert lc.normalise_code(" abc-234 ") == "ABC234"
    assert lc.normalise_code("abc 234") == "ABC234"
    for bad in ["ABC23", "ABC2345", "ABC0O1", "ABCI23", "", None, 123456, "ABC 2 3 4 5"]:
        assert lc.normalise_code(bad) is None, bad


def test_start_stores_the_state_and_only_a_hash_of_the_secret(shared_store):
    classes, code, secret = started(shared_store)
    state = classes.state(code)
    assert (state.step, state.text, state.model, state.lang, state.ended) == (1, TEXT, MODEL, "ko", False)
    assert classes.version(code) == 1
    raw = shared_store.get(f"lc:{code}")
    assert secret not in raw  # the secret lives in the teacher's session only
    import hashlib
    import json

    assert json.loads(raw)["owner"] == hashlib.sha256(secret.encode()).hexdigest()
    assert classes.is_teacher(code, secret) and not classes.is_teacher(code, "guess") \
        and not classes.is_teacher(code, None)


def test_only_the_secret_moves_the_class_and_each_move_bumps_the_version(shared_store):
    classes, code, secret = started(shared_store)
    with pytest.raises(lc.NotTeacher):
        classes.update(code, "not-the-secret", step=5)
    with pytest.raises(lc.NotTeacher):
        classes.update(code, "", step=5)
    assert classes.state(code).step == 1 and classes.version(code) == 1
    classes.update(code, secret, step=5)
    assert classes.state(code).step == 5 and classes.version(code) == 2
    classes.update(code, secret, step=5, text=TEXT, model=MODEL)  # nothing changed: no new version
    assert classes.version(code) == 2
    classes.update(code, secret, text="나는 학생이다.", model="ko-en-toy")
    assert classes.state(code).text == "나는 학생이다." and classes.version(code) == 3
    with pytest.raises(lc.UnknownClass):
        classes.update("ZZZZZZ", secret, step=2)


def test_followers_are_counted_and_leave(shared_store):
    classes, code, _ = started(shared_store)
    for n in range(3):
        assert classes.join(code.lower(), phone(n)).step == 1
    assert classes.followers(code) == 3
    classes.join(code, phone(0))  # joining twice is one follower
    assert classes.followers(code) == 3
    classes.leave(code, phone(1))
    assert classes.followers(code) == 2


def test_a_follower_not_heard_from_for_a_minute_is_not_counted(shared_store):
    now = [1_000_000.0]
    classes, code, _ = started(shared_store, clock=lambda: now[0])
    classes.join(code, phone(0))
    now[0] += 40
    classes.join(code, phone(1))
    assert classes.followers(code) == 2
    now[0] += 25  # phone 0 last polled 65 s ago, phone 1 25 s ago
    assert classes.followers(code) == 1
    classes.heartbeat(code, phone(0))
    assert classes.followers(code) == 2


def test_unknown_and_ended_codes_are_told_apart(shared_store):
    classes, code, secret = started(shared_store)
    classes.join(code, phone(0))
    with pytest.raises(lc.UnknownClass):
        classes.join("ABCDEF" if code != "ABCDEF" else "BCDEFG", phone(0))
    with pytest.raises(lc.UnknownClass):
        classes.join("not a code", phone(0))
    classes.end(code, secret)
    assert classes.state(code).ended and classes.version(code) == 2  # the phones see the end
    with pytest.raises(lc.ClassEnded):
        classes.join(code, phone(1))
    with pytest.raises(lc.ClassEnded):
        classes.update(code, secret, step=3)
    assert classes.followers(code) == 0


def test_code_guessing_is_rate_limited_per_session(shared_store):
    classes, code, _ = started(shared_store, join_failures=5, join_window=0.5)
    guesses = (c for c in (lc.new_code() for _ in itertools.count()) if c != code)
    for _ in range(5):
        with pytest.raises(lc.UnknownClass):
            classes.join(next(guesses), phone(0))
    with pytest.raises(lc.RateLimited):
        classes.join(code, phone(0))  # even the right code, until the window passes
    classes.join(code, phone(1))  # another session is not held back
    time.sleep(0.8)
    assert classes.join(code, phone(0)).code == code


def test_answers_one_per_phone_changeable_until_the_reveal(shared_store):
    classes, code, secret = started(shared_store)
    qkey = lc.question_key(1, "tokens", "sig")
    for n in range(3):
        classes.join(code, phone(n))
    classes.answer(code, phone(0), qkey, [2], n_options=4)
    classes.answer(code, phone(1), qkey, 2, n_options=4)
    classes.answer(code, phone(2), qkey, [0], n_options=4)
    classes.answer(code, phone(2), qkey, [3], n_options=4)  # changed: still one answer
    assert classes.answer_count(code, qkey) == 3
    assert classes.my_answer(code, phone(2), qkey) == [3]
    assert lc.distribution(classes.answers(code, qkey), 4) == [0, 0, 2, 1]
    classes.withdraw(code, phone(1), qkey)
    assert classes.answer_count(code, qkey) == 2
    classes.reveal(code, secret, qkey)
    assert qkey in classes.state(code).revealed
    with pytest.raises(lc.AnswersClosed):
        classes.answer(code, phone(0), qkey, [1], n_options=4)
    assert classes.my_answer(code, phone(0), qkey) == [2]
    with pytest.raises(lc.NotTeacher):
        classes.reveal(code, "nope", lc.question_key(1, "tokens", "other"))


def test_answers_outside_the_options_or_from_strangers_are_refused(shared_store):
    classes, code, _ = started(shared_store)
    qkey = lc.question_key(1, "tokens", "sig")
    classes.join(code, phone(0))
    for bad in [[4], [-1], [], [0, 1], ["x"], [True], [1.5]]:
        with pytest.raises(lc.BadAnswer):
            classes.answer(code, phone(0), qkey, bad, n_options=4)
    with pytest.raises(lc.BadAnswer):
        classes.answer(code, phone(0), "bad key with spaces", [1], n_options=4)
    with pytest.raises(lc.NotFollowing):
        classes.answer(code, phone(9), qkey, [1], n_options=4)
    with pytest.raises(lc.AnswersClosed):  # a question of another step than the class's
        classes.answer(code, phone(0), lc.question_key(7, "tokens", "sig"), [1], n_options=4)
    assert classes.answer_count(code, qkey) == 0
    multi = lc.question_key(1, "causal", "sig")
    assert classes.answer(code, phone(0), multi, [3, 0, 1], n_options=5, multi=True) == [0, 1, 3]
    assert lc.distribution(classes.answers(code, multi), 5) == [1, 1, 0, 1, 0]


def test_a_class_expires_after_its_idle_time_and_a_teacher_action_renews_it():
    now = [1000.0]  # the store's clock: time moves when the test says so, however loaded the machine
    classes, code, secret = started(MemoryStore(clock=lambda: now[0]), idle_ttl=60)
    classes.join(code, phone(0))
    now[0] += 40
    classes.update(code, secret, step=2)  # a teacher action keeps it open ...
    now[0] += 40  # 80 s after the start, 40 s after the action
    assert classes.state(code).step == 2 and classes.version(code) == 2
    now[0] += 20  # ... for idle_ttl after the last one
    assert classes.state(code) is None and classes.version(code) is None
    assert classes.followers(code) == 0
    with pytest.raises(lc.UnknownClass):
        classes.join(code, phone(0))


def test_on_redis_every_key_of_a_class_expires_and_a_teacher_action_renews_it(redis_server_url):
    from transformer_core.store.redis_store import RedisStore

    store = RedisStore(redis_server_url)
    store.client.flushdb()
    classes, code, secret = started(store, idle_ttl=600)
    classes.join(code, phone(0))
    keys = [f"lc:{code}", f"lc:{code}:v", f"lc:{code}:f"]
    assert all(0 < store.client.pttl(key) <= 600_000 for key in keys)
    for key in keys:  # as if 599.8 s went by without a teacher action
        store.client.pexpire(key, 200)
    classes.update(code, secret, step=2)  # renews every key of the class (Redis counts the TTLs, not this test)
    assert all(store.client.pttl(key) > 500_000 for key in keys), [store.client.pttl(key) for key in keys]
    for key in keys:
        store.client.pexpire(key, 200)
    deadline = time.monotonic() + 30  # gone by a deadline far past the 0.2 s left
    while classes.state(code) is not None:
        assert time.monotonic() < deadline, "the class outlived its keys' TTL by 30 s"
        time.sleep(0.05)
    assert classes.version(code) is None and classes.followers(code) == 0
    with pytest.raises(lc.UnknownClass):
        classes.join(code, phone(0))
    store.client.flushdb()


def test_a_flood_of_joins_and_answers_stays_bounded(shared_store):
    classes, code, _ = started(shared_store, max_followers=50)
    refused = 0
    for n in range(400):
        try:
            classes.join(code, phone(n))
        except lc.ClassFull:
            refused += 1
    assert refused == 350 and classes.followers(code) == 50
    qkey = lc.question_key(1, "tokens", "sig")
    for n, option in itertools.product(range(60), range(4)):  # every phone answers again and again
        try:
            classes.answer(code, phone(n), qkey, [option], n_options=4)
        except lc.NotFollowing:
            assert n >= 50
    assert classes.answer_count(code, qkey) == 50
    assert lc.distribution(classes.answers(code, qkey), 4) == [0, 0, 0, 50]


def test_a_flood_of_classes_is_refused_past_the_bound(shared_store):
    classes = LiveClasses(shared_store, max_classes=20)
    opened = [classes.start(step=1, text=TEXT, model=MODEL, lang="ko") for _ in range(20)]
    with pytest.raises(lc.ClassFull):
        classes.start(step=1, text=TEXT, model=MODEL, lang="ko")
    classes.end(*opened[0])  # an ended class frees its place
    classes.start(step=1, text=TEXT, model=MODEL, lang="en")


def test_the_in_process_store_refuses_writes_past_its_bytes_instead_of_growing():
    store = MemoryStore(max_bytes=40_000)
    classes, code, _ = started(store, max_followers=10_000)
    with pytest.raises(lc.StoreFull):
        for n in range(10_000):
            classes.join(code, phone(n))
    assert store.stats()["bytes"] <= 40_000
    assert classes.state(code).code == code  # the class itself still answers


def test_every_refusal_has_a_message_in_both_languages():
    from explorer.i18n import CATALOGS

    reasons = {cls.reason for cls in lc.ClassError.__subclasses__()} | {lc.ClassError.reason}
    assert reasons >= {"unknown", "ended", "not_teacher", "rate_limited", "full", "bad_answer", "closed"}
    for lang in ("ko", "en"):
        for reason in reasons:
            assert f"class.error.{reason}" in CATALOGS[lang], (lang, reason)


def test_a_poll_asks_again_until_the_page_has_rendered_the_end(shared_store):
    """The End never reached a phone under load: its poll saw the new version, asked for a rerun that never
    came, and (comparing with the version it had seen, not the one the page showed) never asked again."""
    classes, code, secret = started(shared_store)
    classes.join(code, phone(0))
    rendered = classes.version(code)  # the phone's page shows the class as it is
    assert not lc.poll_should_rerun(classes.version(code), rendered, None, 0.0, 3.0)
    classes.end(code, secret)
    current = classes.version(code)
    assert current == rendered + 1
    assert lc.poll_should_rerun(current, rendered, None, 0.0, 3.0)  # the poll asks at t=0 ...
    asked = (current, 0.0)  # ... and that rerun is lost: the page still shows `rendered`
    assert not lc.poll_should_rerun(current, rendered, asked, 1.0, 3.0)  # not a rerun every second
    assert lc.poll_should_rerun(current, rendered, asked, 3.0, 3.0)  # asked again after retry_s
    assert not lc.poll_should_rerun(current, current, (current, 3.0), 4.0, 3.0)  # once a run shows it, quiet
