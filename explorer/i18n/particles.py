"""Korean particles after values filled in at run time: '√256을', '쿼리 3이', 'ko-en-toy는'.

A Korean catalog string writes a particle that depends on the value before it in its two-form spelling,
`{d}을(를)`, `'{token}'은(는)`, `{n}(으)로`; `resolve(template, values)` picks the form the value asks
for, by how the value is READ: a number in Sino-Korean (256 = 이백오십육, so 을), a Hangul word by its last
syllable (the project's rule of transformer_core/data/hangul.py), an English word or an
acronym by its usual Korean reading (cat = 캣, fish = 피시, GPU = 지피유). A value whose reading this
cannot tell (a special token such as </s>, a model name ending in a digit read in English) keeps the
two-form spelling, which is correct Korean for any value.
"""

from __future__ import annotations

import re
import string

# The final-consonant rule of transformer_core/data/hangul.py, restated here because importing transformer_core
# imports torch, which the figure builders that use these strings must not (tests hold the two equal).
HANGUL_FIRST, HANGUL_LAST, N_FINALS = 0xAC00, 0xD7A3, 28
FINAL_NONE, FINAL_RIEUL = 0, 8


def final_consonant(word: str) -> int:
    """Index of the last syllable's final consonant (0 = none, 8 = ㄹ); 0 if the word does not end in Hangul."""
    if not word or not HANGUL_FIRST <= ord(word[-1]) <= HANGUL_LAST:
        return FINAL_NONE
    return (ord(word[-1]) - HANGUL_FIRST) % N_FINALS


# two-form spelling -> (after a final consonant, after a vowel)
PAIRS: dict[str, tuple[str, str]] = {
    "을(를)": ("을", "를"),
    "이(가)": ("이", "가"),
    "은(는)": ("은", "는"),
    "과(와)": ("과", "와"),
    "와(과)": ("과", "와"),
    "(으)로": ("으로", "로"),
    "(이)라는": ("이라는", "라는"),
}
# a field, an optional closing quote or guillemet ('{token}'은(는), «{word}»은(는)), then a two-form particle
_FIELD_THEN_PAIR = re.compile(r"(\{(\w+)(?:![rsa])?(?::([^{}]*))?\})(['’\"»」』]?)("
                              + "|".join(map(re.escape, PAIRS)) + ")")

NIEUN, MIEUM, GIYEOK, BIEUP, IEUNG = 4, 16, 1, 17, 21
# the final consonant of each digit's Sino-Korean name: 영 일 이 삼 사 오 육 칠 팔 구
_DIGIT_FINAL = (IEUNG, FINAL_RIEUL, FINAL_NONE, MIEUM, FINAL_NONE, FINAL_NONE, GIYEOK, FINAL_RIEUL, FINAL_RIEUL,
                FINAL_NONE)
# the last nonzero place of a round number: 십 백 천 만 ... (10^1, 10^2, 10^3, 10^4; 10^8 억, 10^12 조)
_PLACE_FINAL = {1: BIEUP, 2: GIYEOK, 3: NIEUN}
_LETTER_FINAL = {"l": FINAL_RIEUL, "m": MIEUM, "n": NIEUN, "r": FINAL_RIEUL}  # 엘 엠 엔 알; other letters: open
_VOWELS = set("aeiou")


def _number_final(number: str) -> int:
    """The final consonant of a number as read in Sino-Korean ('256' -> 육 -> ㄱ; '0.50' -> 영 -> ㅇ)."""
    whole, _, fraction = number.replace(",", "").partition(".")
    if fraction:  # digits after the point are read one by one: 0.43 = 영 점 사삼
        return _DIGIT_FINAL[int(fraction[-1])]
    digits = whole.lstrip("0")
    if not digits:
        return IEUNG  # 영
    if digits[-1] != "0":
        return _DIGIT_FINAL[int(digits[-1])]
    zeros = len(digits) - len(digits.rstrip("0"))
    if zeros % 4:
        return _PLACE_FINAL[zeros % 4]
    return {4: NIEUN, 8: GIYEOK}.get(zeros, FINAL_NONE)  # 만, 억; 조 (10^12) is open


def _english_final(word: str) -> int:
    """The final consonant of an English word or acronym as Koreans usually read it (cat 캣: ㅅ; dog 도그: none)."""
    if word.isupper() and len(word) <= 5:  # an acronym is read letter by letter: GPU = 지피유, HTML = 에이치티엠엘
        return _LETTER_FINAL.get(word[-1].lower(), FINAL_NONE)
    w = word.lower()
    if len(w) == 1:
        return _LETTER_FINAL.get(w, FINAL_NONE)
    if w.endswith("ng") or w[-1] in "mn" or (w[-1] == "e" and len(w) > 2 and w[-2] in "mn"):
        return NIEUN  # morning 모닝, time 타임, phone 폰: some closed syllable (the particle only needs that)
    if w[-1] == "l" or w.endswith("le"):
        return FINAL_RIEUL  # school 스쿨, apple 애플
    if w.endswith("ck"):
        return GIYEOK  # back 백
    if w[-1] in "kpt" and w[-2] in _VOWELS and (len(w) < 3 or w[-3] not in _VOWELS or w[-3:-1] == "oo"):
        return GIYEOK  # cat 캣, cup 컵, book 북 (a short vowel closes the syllable); boat 보트, milk 밀크 do not
    return FINAL_NONE


def reading_final(value: str) -> int | None:
    """The final consonant of how `value` is read aloud (0 = ends in a vowel), or None when it cannot tell."""
    # trailing punctuation is not read ('먹었다.' is read 먹었다), nor Markdown escapes ('cat\\.'), nor closing
    # quotes and brackets ('«있었어요»' is read 있었어요)
    text = re.sub(r"[\\.,!?;:…\s]+$", "", value.strip().rstrip(")]}»’”'\"」』"))
    if not text:
        return None
    if text.endswith("%"):
        return FINAL_NONE  # 퍼센트
    last = text[-1]
    if "\uac00" <= last <= "\ud7a3":
        return final_consonant(text)
    number = re.search(r"[0-9][0-9,]*(\.[0-9]+)?$", text)
    if number:
        before = text[: number.start()]
        if before and before[-1].isascii() and before[-1].isalpha():
            return None  # 'l6', 'v2': digits after letters are read in English
        return _number_final(number.group(0))
    word = re.search(r"[A-Za-z]+$", text)
    if word:
        return _english_final(word.group(0))
    return None


def particle_for(value: str, pair: str) -> str:
    """The form of the two-form particle `pair` ('을(를)') that `value` asks for; `pair` itself when unknown."""
    final = reading_final(value)
    if final is None:
        return pair
    after_consonant, after_vowel = PAIRS[pair]
    if pair == "(으)로" and final == FINAL_RIEUL:
        return after_vowel  # ㄹ takes 로: 팔로, 스쿨로
    return after_consonant if final != FINAL_NONE else after_vowel


def resolve(template: str, values: dict) -> str:
    """`template` with each two-form particle right after a {field} (or its closing quote) chosen for the value."""
    formatter = string.Formatter()

    def choose(match: re.Match) -> str:
        field, name, spec, quote, pair = match.groups()
        if name not in values:
            return match.group(0)
        shown = formatter.format_field(values[name], spec or "")
        return field + quote + particle_for(shown, pair)

    return _FIELD_THEN_PAIR.sub(choose, template)
