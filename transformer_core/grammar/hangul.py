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


# --- syllable arithmetic for conjugation ---------------------------------------------------------------

N_MEDIALS = 21
MEDIAL_A, MEDIAL_AE, MEDIAL_YA, MEDIAL_YAE, MEDIAL_EO, MEDIAL_E, MEDIAL_YEO = 0, 1, 2, 3, 4, 5, 6
MEDIAL_O, MEDIAL_WA, MEDIAL_WAE, MEDIAL_OE, MEDIAL_U, MEDIAL_WO, MEDIAL_WI = 8, 9, 10, 11, 13, 14, 16
MEDIAL_EU, MEDIAL_I = 18, 20
INITIAL_IEUNG = 11  # ㅇ (silent)
INITIAL_RIEUL = 5  # ㄹ
FINAL_DIGEUT, FINAL_BIEUP, FINAL_SIOS, FINAL_SSANG_SIOS, FINAL_HIEUH = 7, 17, 19, 20, 27


def decompose(syllable: str) -> tuple[int, int, int]:
    """(initial, medial, final) indices of one Hangul syllable."""
    if not is_syllable(syllable):
        raise ValueError(f"{syllable!r} is not a Hangul syllable")
    offset = ord(syllable) - HANGUL_FIRST
    return offset // (N_MEDIALS * N_FINALS), (offset // N_FINALS) % N_MEDIALS, offset % N_FINALS


def compose(initial: int, medial: int, final: int = FINAL_NONE) -> str:
    """The syllable with these indices: compose(0, 0, 0) == '가'."""
    return chr(HANGUL_FIRST + (initial * N_MEDIALS + medial) * N_FINALS + final)


def _bright(syllable: str) -> bool:
    """Vowel harmony: ㅏ / ㅗ take 아, everything else 어."""
    return decompose(syllable)[1] in (MEDIAL_A, MEDIAL_O)


# Irregular stem classes: "ㅂ" (귀엽 -> 귀여워), "ㄷ" (듣 -> 들어), "르" (부르 -> 불러), "ㅎ" (노랗 -> 노래),
# "ㅅ" (낫 -> 나아), "러" (푸르 -> 푸르러), "우" (푸 -> 퍼). 으 dropping (쓰 -> 써, 바쁘 -> 바빠), 하다 (하 -> 해)
# and ㄹ dropping (만들 -> 만드니) are regular: the stem's shape decides them, no flag needed.
IRREGULAR_CLASSES = ("", "ㅂ", "ㄷ", "르", "ㅎ", "ㅅ", "러", "우")


def past_stem(stem: str, irregular: str = "") -> str:
    """The past stem (-았/었-): 먹 -> 먹었, 가 -> 갔, 마시 -> 마셨, 하 -> 했, 쓰 -> 썼, 바쁘 -> 바빴,
    귀엽 (ㅂ) -> 귀여웠, 듣 (ㄷ) -> 들었, 부르 (르) -> 불렀, 노랗 (ㅎ) -> 노랬, 낫 (ㅅ) -> 나았, 푸르 (러) -> 푸르렀,
    푸 (우) -> 펐."""
    head, last = stem[:-1], stem[-1]
    initial, medial, final = decompose(last)
    if stem.endswith("하"):
        return head + "했"
    if irregular == "ㅂ":
        vowel = "왔" if medial == MEDIAL_O and len(stem) == 1 else "웠"
        return head + compose(initial, medial) + vowel
    if irregular == "ㄷ":
        return head + compose(initial, medial, FINAL_RIEUL) + ("았" if _bright(last) else "었")
    if irregular == "르":
        previous = head[-1]
        p_initial, p_medial, _ = decompose(previous)
        return head[:-1] + compose(p_initial, p_medial, FINAL_RIEUL) + ("랐" if _bright(previous) else "렀")
    if irregular == "ㅎ":
        medial = {MEDIAL_A: MEDIAL_AE, MEDIAL_YA: MEDIAL_YAE, MEDIAL_EO: MEDIAL_AE}.get(medial, MEDIAL_AE)
        return head + compose(initial, medial, FINAL_SSANG_SIOS)
    if irregular == "ㅅ":
        return head + compose(initial, medial) + ("았" if _bright(last) else "었")
    if irregular == "러":
        return stem + "렀"
    if irregular == "우":
        return head + compose(initial, MEDIAL_EO, FINAL_SSANG_SIOS)
    if final != FINAL_NONE:
        return stem + ("았" if _bright(last) else "었")
    if medial == MEDIAL_EU:
        bright = bool(head) and _bright(head[-1])
        return head + compose(initial, MEDIAL_A if bright else MEDIAL_EO, FINAL_SSANG_SIOS)
    contracted = {MEDIAL_O: MEDIAL_WA, MEDIAL_U: MEDIAL_WO, MEDIAL_I: MEDIAL_YEO, MEDIAL_OE: MEDIAL_WAE}
    if medial in contracted and not (medial == MEDIAL_I and initial == INITIAL_IEUNG and not head):
        return head + compose(initial, contracted[medial], FINAL_SSANG_SIOS)
    if medial in (MEDIAL_A, MEDIAL_EO, MEDIAL_AE, MEDIAL_E, MEDIAL_YEO):
        return head + compose(initial, medial, FINAL_SSANG_SIOS)
    return stem + ("았" if _bright(last) else "었")


def infinitive_from_past(past: str) -> str:
    """The -아/어 form is the past stem without its ㅆ: 먹었 -> 먹어, 갔 -> 가, 마셨 -> 마셔, 했 -> 해."""
    initial, medial, final = decompose(past[-1])
    if final != FINAL_SSANG_SIOS:
        raise ValueError(f"{past!r} is not a past stem")
    return past[:-1] + compose(initial, medial)


def future_form(stem: str, irregular: str = "") -> str:
    """-(으)ㄹ with irregular stems: 먹 -> 먹을, 가 -> 갈, 만들 -> 만들, 듣 -> 들을, 돕 -> 도울, 노랗 -> 노랄."""
    head, last = stem[:-1], stem[-1]
    initial, medial, _final = decompose(last)
    if irregular == "ㅂ":
        return head + compose(initial, medial) + "울"
    if irregular == "ㄷ":
        return head + compose(initial, medial, FINAL_RIEUL) + "을"
    if irregular == "ㅎ":
        return head + compose(initial, medial, FINAL_RIEUL)
    if irregular == "ㅅ":
        return head + compose(initial, medial) + "을"
    return future_adnominal(stem)


def eu_stem(stem: str, irregular: str = "") -> tuple[str, bool]:
    """(stem form, takes 으) before the 으-endings -(으)니까, -(으)면서, -(으)세요: 먹 -> ('먹', True),
    가 -> ('가', False), 듣 (ㄷ) -> ('들', True), 돕 (ㅂ) -> ('도우', False), 낫 (ㅅ) -> ('나', True),
    노랗 (ㅎ) -> ('노라', False), 부르 (르) -> ('부르', False)."""
    head, last = stem[:-1], stem[-1]
    initial, medial, final = decompose(last)
    if irregular == "ㅂ":
        return head + compose(initial, medial) + "우", False
    if irregular == "ㄷ":
        return head + compose(initial, medial, FINAL_RIEUL), True
    if irregular == "ㅅ":
        return head + compose(initial, medial), True
    if irregular == "ㅎ":
        return head + compose(initial, medial), False
    return stem, final not in (FINAL_NONE, FINAL_RIEUL)


def attributive_form(stem: str, irregular: str = "") -> str:
    """An adjective before a noun: 작 -> 작은, 크 -> 큰, 길 -> 긴, 귀엽 -> 귀여운, 노랗 -> 노란, 맛있 -> 맛있는."""
    head, last = stem[:-1], stem[-1]
    initial, medial, final = decompose(last)
    if stem.endswith(("있", "없")):
        return stem + "는"
    if irregular == "ㅂ":
        return head + compose(initial, medial) + "운"
    if irregular == "ㅎ":
        return head + compose(initial, medial, FINAL_NIEUN)
    if irregular == "ㅅ":
        return head + compose(initial, medial) + "은"
    if final == FINAL_RIEUL:
        return head + compose(initial, medial, FINAL_NIEUN)
    if final != FINAL_NONE:
        return stem + "은"
    return head + compose(initial, medial, FINAL_NIEUN)


def formal_stem(stem: str) -> tuple[str, str]:
    """(stem part, ending start) of -습니다 / -ㅂ니다: 먹 -> ('먹', '습'), 가 -> ('갑', ''), 만들 -> ('만듭', '')."""
    final = final_consonant(stem)
    if final == FINAL_RIEUL:
        return add_final(drop_rieul(stem), FINAL_BIEUP), ""
    if final != FINAL_NONE:
        return stem, "습"
    return add_final(stem, FINAL_BIEUP), ""


def nieun_stem(stem: str) -> str:
    """The stem with ㄴ for -ㄴ다 (vowel and ㄹ stems): 가 -> 간, 만들 -> 만든."""
    return add_final(drop_rieul(stem), FINAL_NIEUN)
