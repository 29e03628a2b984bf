"""The class walk in screenshots: a live class of N followers on one server (in-process store), Korean UI, and
the pictures a teacher and a student would see, for a person to look at (docs/serving.md, "The class walk,
looked at"):

  01-teacher-answers.png    the teacher's projector (1920x1080, projector mode) at step 1 with the predict-first
                            question after the class answered (the panel: students following, answers)
  02-phone-following.png    a phone (390x844) following that step, before its answer
  03-phone-answered.png     the phone after its tap (the answer the teacher holds, under the question)
  04-teacher-revealed.png   the projector after the teacher's Reveal (the class's answers beside the model's)
  05-phone-revealed.png     the phone after the reveal (right or wrong)
  06-phone-unknown-code.png a phone that opened /lesson?class=<unknown code>
  07-phone-left.png         a phone that pressed 혼자 보기 (it goes its own pace)
Each phone picture also as *-full.png (the whole page: a viewport as tall as the page, for that picture).
Followers beyond the two Chromium phones are protocol clients (benchmarks/protocol_follower.py) answering with a
spread of options, so the counts are a class's. walk.json notes, per picture, the page's width against the
viewport (a phone must never scroll sideways), the main block's height, any exception element and the Latin words
shown (English left in the Korean page, beside the model's own English tokens).

Usage (from the repository root; tests/ holds the browser helpers):
    PYTHONPATH=$PWD .venv/bin/python benchmarks/class_walk.py [--followers 30] [--out build/class-walk]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import re
import sys
import time
from pathlib import Path
from urllib.parse import urlencode, urlsplit

import transformer_core as core
from explorer import lesson_service
from explorer.figures import lesson
from tests.browser_helpers import EXCEPTION, chromium_available, launch, page_url, streamlit_server

ROOT = Path(__file__).resolve().parent.parent
MODEL = "ko-en-toy"
TEXT = "고양이가 공원에서 생선을 먹었다."
CODE = re.compile(r"\b([A-HJ-NP-Z2-9]{6})\b")
# What a page measures about itself: sideways scrolling (the window's and the main block's: Streamlit scrolls the
# main block), the main block's height, Latin words shown outside icons, code blocks and KaTeX's hidden MathML (the
# model's English tokens are expected on some steps; the list is for a person to read, not a verdict)
MEASURE = """() => {
  const main = document.querySelector('[data-testid=stMain]');
  const skip = '[data-testid=stIconMaterial], script, style, [hidden], .katex-mathml, [data-testid=stCode]';
  const walker = document.createTreeWalker(main, NodeFilter.SHOW_TEXT);
  const words = new Set();
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;  // icons (their ligature names) are in a Material font
    if (parent.closest(skip) || getComputedStyle(parent).fontFamily.includes('Material')) continue;
    for (const word of node.textContent.match(/[A-Za-z][A-Za-z']{2,}/g) || []) words.add(word);
  }
  return {scrollWidth: document.documentElement.scrollWidth, clientWidth: document.documentElement.clientWidth,
          mainScrollWidth: main.scrollWidth, mainClientWidth: main.clientWidth,
          mainHeight: main ? main.scrollHeight : null, latin: [...words].slice(0, 40)};
}"""


def first_question() -> lesson.Question:
    loaded = core.load(MODEL)
    data = lesson_service.lesson_data(core.trace_text(loaded, TEXT), loaded, TEXT)
    return lesson.build_step(lesson.lesson_steps()[0], data, "ko").question


def wait_text(page, selector: str, pattern: str, timeout: float = 180_000) -> None:
    from playwright.sync_api import expect

    expect(page.locator(selector).first).to_contain_text(re.compile(pattern), timeout=timeout)


def shows_step(page, number: int, timeout: float = 180_000) -> None:
    page.wait_for_function(f"""() => [...document.querySelectorAll('[data-testid=stMain] h3')]
        .some(h => h.innerText.startsWith('{number}단계'))""", timeout=timeout)


def settle(page, ms: int = 1500) -> None:
    """No script run under way, no element still marked stale, no skeleton; then a moment for the drawing (a
    following phone's poll runs every second: this waits for a moment between two)."""
    page.wait_for_function("""() => {
        const root = document.querySelector('[data-test-script-state]');
        return root && root.getAttribute('data-test-script-state') === 'notRunning'
          && !document.querySelector('[data-stale=true], [data-testid=stSkeleton]'); }""", timeout=120_000)
    page.wait_for_timeout(ms)


class Walk:
    def __init__(self, out: Path) -> None:
        self.out = out
        self.notes: dict[str, dict] = {}

    def shot(self, page, name: str, full: bool = False, note: str = "") -> None:
        page.screenshot(path=str(self.out / f"{name}.png"))
        measured = page.evaluate(MEASURE)
        if full:  # Streamlit's main block scrolls, not the window: a viewport as tall as the page, for a moment
            size = page.viewport_size
            page.set_viewport_size({"width": size["width"], "height": max(size["height"], measured["mainHeight"])})
            page.wait_for_timeout(800)
            page.screenshot(path=str(self.out / f"{name}-full.png"))
            page.set_viewport_size(size)
        measured["exceptions"] = page.locator(EXCEPTION).count()
        measured["viewport"] = page.viewport_size
        measured["note"] = note
        self.notes[name] = measured
        sideways = (measured["scrollWidth"] > measured["clientWidth"]
                    or measured["mainScrollWidth"] > measured["mainClientWidth"])
        print(f"{name}: {page.viewport_size['width']}x{page.viewport_size['height']}, page width "
              f"{measured['scrollWidth']} ({'SCROLLS SIDEWAYS' if sideways else 'no sideways scroll'}), main height "
              f"{measured['mainHeight']} px, exceptions {measured['exceptions']}; Latin words {measured['latin']}; "
              f"{note}")


def walk(browser, base: str, followers: int, out: Path) -> dict:
    from benchmarks.live_class import ProtocolPhones

    question = first_question()
    right = min(question.answer)
    wrong = next(i for i in range(len(question.options)) if i not in question.answer)
    record = Walk(out)
    contexts = []
    swarm = None

    def tab(width: int, height: int):
        context = browser.new_context(viewport={"width": width, "height": height}, locale="ko-KR",
                                      device_scale_factor=1)
        contexts.append(context)
        return context.new_page()

    try:
        teacher = tab(1920, 1080)
        teacher.goto(page_url(base, "lesson", model=MODEL, text=TEXT, step=1, present=1), timeout=120_000)
        teacher.locator(".st-key-class_start button").first.click(timeout=120_000)
        wait_text(teacher, ".st-key-class_teacher_panel", r"수업 코드: [A-Z2-9]{6}")
        code = CODE.search(teacher.inner_text(".class-code")).group(1)
        link = next(t for t in teacher.locator("[data-testid=stCode]").all_inner_texts() if "class=" in t).strip()
        query = urlsplit(link).query
        phone, leaver = tab(390, 844), tab(390, 844)
        for page in (phone, leaver):
            page.goto(f"{base}/lesson?{query}", wait_until="commit", timeout=120_000)
        for page in (phone, leaver):
            wait_text(page, ".st-key-class_follower_bar", code)
            shows_step(page, 1)
        protocol = max(0, followers - 2)
        if protocol:
            swarm = ProtocolPhones(base, urlencode({"class": code, "lang": "한국어", "model": MODEL, "text": TEXT}),
                                   protocol)
            swarm.wait(lambda p: any(block == f"lesson_question_{question.id}" for block, _, _ in p.pills.values()),
                       600, "a protocol phone did not show the question")
        wait_text(teacher, ".st-key-class_teacher_panel", rf"따라오는 학생 {followers}명", timeout=120_000)
        settle(phone)
        record.shot(phone, "02-phone-following", full=True, note="step 1, the question, before the phone's answer")

        # the class answers: the protocol phones with a spread (most the model's answer), then the two phones
        for i, p in enumerate(swarm.phones if swarm else []):
            index = right if i % 3 else (wrong if i % 2 else (right + 2) % len(question.options))
            swarm.call(p.answer(f"lesson_question_{question.id}", index), 60)
        group = phone.locator(f".st-key-lesson_question_{question.id}")
        group.locator("button").filter(has_text=re.compile("^" + re.escape(question.options[right]) + "$")).click()
        wait_text(phone, f".st-key-lesson_question_{question.id}", r"전해진 답", timeout=120_000)
        settle(phone)
        record.shot(phone, "03-phone-answered", full=True, note=f"after tapping {question.options[right]!r}")
        answered = protocol + 1
        wait_text(teacher, ".st-key-class_teacher_panel", rf"응답 {answered}개", timeout=120_000)
        settle(teacher)
        record.shot(teacher, "01-teacher-answers",
                    note=f"{followers} following, {answered} answered (the leaver has not answered)")

        teacher.locator(f".st-key-lesson_reveal_{question.id} button").click()
        wait_text(teacher, ".st-key-class_distribution", rf"수업의 응답 \({answered}개")
        settle(teacher)
        record.shot(teacher, "04-teacher-revealed", note="the class's answers after Reveal")
        phone.locator("[data-testid=stAlertContentSuccess]").first.wait_for(timeout=120_000)
        settle(phone)
        record.shot(phone, "05-phone-revealed", full=True, note="the phone's answer was the model's")

        stranger = tab(390, 844)
        unknown = "ZZZZZ2" if code != "ZZZZZ2" else "ZZZZZ3"
        stranger.goto(page_url(base, "lesson", model=MODEL, text=TEXT, lang="한국어", **{"class": unknown}),
                      wait_until="commit", timeout=120_000)
        wait_text(stranger, "[data-testid=stMain]", "그런 수업 코드가 없습니다", timeout=120_000)
        settle(stranger)
        record.shot(stranger, "06-phone-unknown-code", full=True, note=f"/lesson?class={unknown}")

        leaver.locator(".st-key-class_leave button").first.click()
        wait_text(leaver, ".st-key-class_follower_bar", "혼자 보고 있습니다", timeout=120_000)
        settle(leaver)
        record.shot(leaver, "07-phone-left", full=True, note="after 혼자 보기")
        wait_text(teacher, ".st-key-class_teacher_panel", rf"따라오는 학생 {followers - 1}명", timeout=120_000)
        record.notes["teacher_after_leave"] = {"panel": teacher.inner_text(".st-key-class_teacher_panel")}
        print(f"the teacher's panel after one phone left: {record.notes['teacher_after_leave']['panel']!r}")
        return record.notes
    finally:
        if swarm:
            swarm.close()
        for context in contexts:
            with contextlib.suppress(Exception):
                context.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--followers", type=int, default=30, help="phones following (2 Chromium, the rest protocol)")
    parser.add_argument("--out", default=str(ROOT / "build" / "class-walk"))
    args = parser.parse_args()
    if not chromium_available():
        print("/usr/bin/chromium is missing (apt-get install -y chromium fonts-noto-cjk)", file=sys.stderr)
        return 2
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    from playwright.sync_api import sync_playwright

    print(f"{time.strftime('%Y-%m-%d %H:%M %Z')}: a class of {args.followers} followers; pictures in {out}")
    with streamlit_server(env={"TRANSFORMER_EXPLORER_REDIS_URL": ""}) as base, sync_playwright() as playwright:
        browser = launch(playwright)
        try:
            notes = walk(browser, base, args.followers, out)
        finally:
            browser.close()
    (out / "walk.json").write_text(json.dumps(notes, ensure_ascii=False, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
