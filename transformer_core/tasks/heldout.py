"""The one held-out example type (the tasks build them; evaluation, head importance and the lab's snapshots
score them), the reverse task's hand-written sentences and reversal's gold alignment."""

from __future__ import annotations

from dataclasses import dataclass

# Hand-written sentences (not from any generator) for the reverse model, each at most 64 characters.
REAL_SENTENCES = [
    "안녕하세요, 만나서 반갑습니다.",
    "오늘은 날씨가 정말 좋네요!",
    "저는 서울에서 태어나고 자랐어요.",
    "내일 아침 9시에 회의가 있습니다.",
    "이 책은 정말 재미있었어요 😀",
    "배고파서 라면을 두 그릇이나 먹었다.",
    "한국어는 배우기 어렵지만 재미있어요.",
    "지하철 2호선을 타고 강남역에서 내리세요.",
    "ㅋㅋㅋ 진짜 웃기다 ㅎㅎ",
    "비가 와서 우산을 챙겼어요.",
    "The quick brown fox jumps over the lazy dog.",
    "Hello, world! How are you today?",
    "I'd like a cup of coffee, please.",
    "She sells seashells by the seashore.",
    "To be, or not to be: that is the question.",
    "Meet me at 7:30 p.m. near the station.",
    "My e-mail is kim@example.com (work).",
    "It's 25°C and sunny in Seoul 🌞",
    "Transformers map sequences to sequences.",
    "Don't panic! 🚀 Everything is fine.",
    "서울 Seoul 2024 — 한영 mixed text!",
    "Café au lait costs €3.50 in Paris.",
    "Attention is all you need.",
    "우리는 모두 함께 노래를 불렀다 🎵",
]


@dataclass(frozen=True)
class Example:
    """One evaluation item: source ids (with EOS), reference target ids, gold alignment, group name."""

    source_ids: list[int]
    target_ids: list[int]
    gold: list[tuple[int, ...]]  # per target token: the source positions it translates
    group: str = "generated"  # 'generated' (drawn from a task's data) or 'real' (hand-written, REAL_SENTENCES)


def anti_diagonal_gold(n: int) -> list[tuple[int]]:
    """Gold alignment of reversal: output character t comes from input character n - 1 - t."""
    return [(n - 1 - t,) for t in range(n)]
