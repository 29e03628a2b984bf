"""Hangul arithmetic: final consonants (jongseong), particles and verb endings.

A precomposed Hangul syllable is U+AC00 + (initial * 21 + medial) * 28 + final, where final 0
means "no final consonant" and final 8 is ㄹ. Korean particles and many endings pick their form
from the final consonant of the word they attach to.
"""

from __future__ import annotations

HANGUL_FIRST = 0xAC00
HANGUL_LAST = 0xD7A3
N_FINALS = 28
FINAL_NONE = 0
FINAL_NIEUN = 4  # ㄴ
FINAL_RIEUL = 8  # ㄹ

# (after a final consonant, after a vowel)
PARTICLES: dict[str, tuple[str, str]] = {
    "topic": ("은", "는"),
    "subject": ("이", "가"),
    "object": ("을", "를"),
    "and": ("과", "와"),
    "instrument": ("으로", "로"),  # ㄹ-final words take 로 (칼로, 연필로)
    "location": ("에서", "에서"),
    "goal": ("에", "에"),
}


def is_syllable(char: str) -> bool:
    """True for a precomposed Hangul syllable (가 .. 힣)."""
    return len(char) == 1 and HANGUL_FIRST <= ord(char) <= HANGUL_LAST


def final_consonant(word: str) -> int:
    """Index of the last syllable's final consonant (0 = none, 8 = ㄹ); 0 if the word does not end in Hangul."""
    if not word or not is_syllable(word[-1]):
        return FINAL_NONE
    return (ord(word[-1]) - HANGUL_FIRST) % N_FINALS


def has_final_consonant(word: str) -> bool:
    """Does the word end in a closed syllable (받침)?"""
    return final_consonant(word) != FINAL_NONE


def with_final(syllable: str, final: int) -> str:
    """Replace the final consonant of one open or closed syllable: with_final('가', 4) == '간'."""
    if not is_syllable(syllable):
        raise ValueError(f"{syllable!r} is not a Hangul syllable")
    base = ord(syllable) - (ord(syllable) - HANGUL_FIRST) % N_FINALS
    return chr(base + final)


def attach_particle(word: str, kind: str) -> str:
    """word + the particle of `kind` in the form its final consonant asks for (사과를, 책을, 칼로)."""
    after_consonant, after_vowel = PARTICLES[kind]
    final = final_consonant(word)
    if kind == "instrument" and final == FINAL_RIEUL:
        return word + after_vowel
    return word + (after_consonant if final != FINAL_NONE else after_vowel)


def drop_rieul(stem: str) -> str:
    """An ㄹ-final stem loses its ㄹ before ㄴ/ㅂ/ㅅ endings: 만들 -> 만드, 팔 -> 파."""
    if final_consonant(stem) != FINAL_RIEUL:
        return stem
    return stem[:-1] + with_final(stem[-1], FINAL_NONE)


def add_final(stem: str, final: int) -> str:
    """Put a final consonant on an open last syllable: add_final('가', ㄴ) == '간'."""
    return stem[:-1] + with_final(stem[-1], final)


def present_declarative(stem: str) -> str:
    """Plain present of an action verb: 먹 -> 먹는다, 가 -> 간다, 만들 -> 만든다."""
    if final_consonant(stem) == FINAL_RIEUL:
        return add_final(drop_rieul(stem), FINAL_NIEUN) + "다"
    if has_final_consonant(stem):
        return stem + "는다"
    return add_final(stem, FINAL_NIEUN) + "다"


def future_adnominal(stem: str) -> str:
    """The -(으)ㄹ form used before 것이다 and as the base of -(으)ㄹ까: 먹 -> 먹을, 가 -> 갈, 만들 -> 만들."""
    final = final_consonant(stem)
    if final == FINAL_RIEUL:
        return stem
    if final != FINAL_NONE:
        return stem + "을"
    return add_final(stem, FINAL_RIEUL)


def adnominal_future_from_present(attributive: str) -> str:
    """An adjective's future adnominal from its present one: 작은 -> 작을, 큰 -> 클, 재미있는 -> 재미있을."""
    if attributive.endswith(("은", "는")):
        return attributive[:-1] + "을"
    if final_consonant(attributive) == FINAL_NIEUN:
        return add_final(attributive, FINAL_RIEUL)
    raise ValueError(f"{attributive!r} does not look like an adnominal form")


def plain_question(stem: str) -> str:
    """Plain yes/no question ending -니 (ㄹ drops): 먹 -> 먹니, 만들 -> 만드니, 작 -> 작니."""
    return drop_rieul(stem) + "니"
