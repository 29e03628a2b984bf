"""benchmarks/protocol_follower.py against a real app server: a phone made of Streamlit's websocket protocol joins a
class, answers, and follows the teacher's step changes and a new sentence (a whole page run the server starts from
the phone's poll). The class moves through LiveClasses on the same redis-server, as a teacher's page on another
server moves it. What the live-class benchmark's protocol phones rest on; deadlines only, no timing asserts."""

from __future__ import annotations

import asyncio
import time
from urllib.parse import urlencode

import pytest

import transformer_core as core
from tests.browser_helpers import streamlit_server
from tests.servers import running_redis

pytestmark = [pytest.mark.slow]  # an app server and a redis-server: about a minute

MODEL, TEXT = "ko-en-toy", "고양이가 공원에서 생선을 먹었다."

if MODEL not in {info.name for info in core.list_models() if info.available}:
    pytest.skip(f"{MODEL} is not available", allow_module_level=True)


def test_a_protocol_phone_joins_answers_and_follows_step_and_sentence_changes():
    from benchmarks.protocol_follower import ProtocolFollower
    from explorer import lesson_service
    from explorer.figures import lesson
    from explorer.live_class import LiveClasses
    from transformer_core.store.redis_store import RedisStore

    loaded = core.load(MODEL)
    question = lesson.build_step(lesson.lesson_steps()[0],
                                 lesson_service.lesson_data(core.trace_text(loaded, TEXT), loaded, TEXT), "ko").question
    with running_redis() as (url, _redis), streamlit_server(env={"TRANSFORMER_EXPLORER_REDIS_URL": url}) as base:
        classes = LiveClasses(RedisStore(url))
        code, secret = classes.start(step=1, text=TEXT, model=MODEL, lang="한국어")
        query = urlencode({"class": code, "lang": "한국어", "model": MODEL, "text": TEXT})

        async def drive() -> dict[int, float]:
            async with ProtocolFollower(base, query, len(lesson.lesson_steps())) as phone:
                await phone.wait_for(lambda: 1 in phone.steps_seen and any(
                    block.startswith(f"lesson_question_{question.id}") for block, _, _ in phone.pills.values()), 180)
                assert classes.followers(code) == 1  # the server counts it as a following phone
                await phone.answer(f"lesson_question_{question.id}", 1)
                deadline = time.monotonic() + 60
                while not classes.answers(code, lesson_key(code)):
                    assert time.monotonic() < deadline, "the answer did not reach the class"
                    await asyncio.sleep(0.1)
                for step in (2, 3, 4):
                    classes.update(code, secret, step=step)
                    await phone.wait_for(lambda s=step: s in phone.steps_seen, 90)
                # another sentence: the poll reruns the whole page (server-side), which must stay on /lesson
                classes.update(code, secret, text="학생이 책을 읽는다.")
                await phone.wait_for(lambda: "text=%ED%95%99%EC%83%9D" in phone.query or "학생이" in phone.query, 90)
                classes.update(code, secret, step=5)
                await phone.wait_for(lambda: 5 in phone.steps_seen, 90)
                assert phone.errors == []
                return dict(phone.steps_seen)

        def lesson_key(code: str) -> str:
            keys = [k.split(":a:", 1)[1] for k in classes.store.client.keys(f"lc:{code}:a:*")]
            return keys[0] if keys else "none"

        seen = asyncio.run(drive())
        assert sorted(seen) == [1, 2, 3, 4, 5]
        assert seen[1] < seen[2] < seen[3] < seen[4] < seen[5]  # in the order the teacher moved
        answers = classes.answers(code, lesson_key(code))
        assert answers == [[1]], answers  # its one answer, the option it picked
