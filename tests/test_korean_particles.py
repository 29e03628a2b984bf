"""Korean particles after values filled in at run time agree with how the value is READ ('√256을', not
'√256를'). Every Korean string is rendered with representative values (numbers, Korean tokens, English words,
model names), and the particle after each value is checked against the reading written out here."""

from __future__ import annotations

import re
import string
from itertools import count

import pytest

from explorer.i18n import CATALOGS, forms, t
from explorer.i18n.particles import final_consonant as restated_final
from explorer.i18n.particles import resolve
from transformer_core.grammar.hangul import HANGUL_FIRST, HANGUL_LAST, final_consonant

# value -> how a Korean reader says it (None: no single reading, the two-form particle must stay)
INTEGERS = {"0": "영", "1": "일", "2": "이", "3": "삼", "4": "사", "6": "육", "7": "칠", "8": "팔", "9": "구",
            "10": "십", "16": "십육", "64": "육십사", "100": "백", "128": "백이십팔", "256": "이백오십육",
            "512": "오백십이", "1000": "천", "5692": "오천육백구십이", "12036": "만 이천삼십육", "20000": "이만",
            "4000": "사천", "105": "백오"}
DECIMALS = {"0.43": "영 점 사삼", "16.00": "십육 점 영영", "2.71": "이 점 칠일", "0.05": "영 점 영오",
            "1.38": "일 점 삼팔", "12.34": "십이 점 삼사", "0.96": "영 점 구육"}
PERCENTS = {0.932: "구십삼 점 이 퍼센트", 0.5: "오십 퍼센트"}
TOKENS = {"고양이": "고양이", "학교": "학교", "생선": "생선", "##에": "에", "먹었다": "먹었다", "cat": "캣",
          "the": "더", "fish": "피시", "school": "스쿨", "book": "북", "apple": "애플", "dog": "도그",
          "morning": "모닝", "</s>": None, "<pad>": None, "a": "에이", "먹었다.": "먹었다", "cat.": "캣", ".": None}
NAMES = {"ko-en-toy": "코엔토이", "reverse": "리버스", "paper-base": "페이퍼베이스", "minilm-l6": None,
         "GPU": "지피유", "my-model": "마이모델", "lab-run": "랩런"}
WORDS = {"인코더": "인코더", "헤드": "헤드", "정렬": "정렬", "크로스 어텐션": "크로스 어텐션", "층 0": "층 영"}

TOKEN_FIELDS = {"token", "src", "target", "word", "so_far", "text", "output", "school", "went", "studied", "like"}
NAME_FIELDS = {"name", "other", "fallback"}
WORD_FIELDS = {"head", "behaviour", "group", "kind", "method", "what", "heads", "side", "strategy", "page", "title",
               "reason", "device", "host", "tokens", "norm", "answer", "seen", "endings", "particles", "shape",
               "extra", "section", "architecture"}
# after a closed syllable / after an open one; 로 also follows ㄹ
PARTICLES = (("을", "를"), ("은", "는"), ("과", "와"), ("으로", "로"), ("이", "가"))
RIEUL = 8


def pool_for(name: str, spec: str) -> dict:
    if spec.endswith("%"):
        return {format(value, spec): reading for value, reading in PERCENTS.items()}
    if spec.endswith("f"):
        return {format(float(value), spec): None for value in DECIMALS}  # re-read below
    if name in TOKEN_FIELDS:
        return TOKENS
    if name in NAME_FIELDS:
        return NAMES
    if name in WORD_FIELDS:
        return WORDS
    return {**INTEGERS, **DECIMALS}


def reading_of(shown: str, pool: dict) -> str | None:
    if shown in pool and pool[shown] is not None:
        return pool[shown]
    if re.fullmatch(r"[0-9]+(\.[0-9]+)?", shown):  # a number formatted by the catalog's own spec
        return DECIMALS.get(shown) or INTEGERS.get(shown) or SINO_KOREAN_BY_HAND.get(shown)
    return None


SINO_KOREAN_BY_HAND = {"0.4": "영 점 사", "16.0": "십육 점 영", "2.7": "이 점 칠", "0.1": "영 점 일", "1.4": "일 점 사",
                       "12.3": "십이 점 삼", "1.0": "일 점 영", "0": "영", "16": "십육", "3": "삼", "12": "십이",
                       "0.0": "영 점 영", "0.96": "영 점 구육", "1": "일", "2": "이", "0.9": "영 점 구",
                       "0.050": "영 점 영오영", "0.430": "영 점 사삼영", "2.710": "이 점 칠일영",
                       "16.000": "십육 점 영영영", "1.380": "일 점 삼팔영", "12.340": "십이 점 삼사영",
                       "0.960": "영 점 구육영"}


def expected_particle(reading: str, pair: tuple[str, str]) -> str:
    final = final_consonant(reading.replace(" ", "")[-1])
    closed, open_ = pair
    if closed == "으로" and final == RIEUL:
        return open_
    return closed if final else open_


def renders(key: str):
    """(rendered string, {placeholder: (shown value, reading)}) for several fillings of the entry's placeholders
    (a plural entry's forms together)."""
    fields = [(name, spec or "") for text in forms(CATALOGS["ko"][key])
              for _, name, spec, _ in string.Formatter().parse(text) if name]
    pools = {name: pool_for(name, spec) for name, spec in fields}
    rounds = max(len(pool) for pool in pools.values())
    for r in range(rounds):
        values, shown = {}, {}
        used = count()
        for name, spec in fields:
            if name in values:
                continue
            pool = list(pools[name])
            raw = pool[(r + next(used)) % len(pool)]
            value = float(raw) if spec.endswith("f") else (next(v for v in PERCENTS if format(v, spec) == raw)
                                                            if spec.endswith("%") else raw)
            values[name] = value
            text_value = format(value, spec)
            shown[name] = (text_value, reading_of(text_value, pools[name]))
        yield t(key, "ko", **values), shown


def ko_keys():
    return [key for key, entry in CATALOGS["ko"].items()
            if any(name for text in forms(entry) for _, name, _, _ in string.Formatter().parse(text))]


def test_the_restated_final_consonant_rule_is_hangul_pys():
    for code in range(HANGUL_FIRST, HANGUL_LAST + 1):
        assert restated_final(chr(code)) == final_consonant(chr(code))


@pytest.mark.parametrize("lang", ["ko"])
def test_every_particle_after_a_filled_in_value_agrees_with_how_the_value_is_read(lang: str):
    wrong, checked = [], 0
    for key in ko_keys():
        for rendered, shown in renders(key):
            for value, reading in shown.values():
                for match in re.finditer(r"(?<![\w.#-])" + re.escape(value) + r"(['’\"]?)(\S*)", rendered):
                    following = match.group(2)
                    two_form = re.match(r"(을\(를\)|이\(가\)|은\(는\)|과\(와\)|와\(과\)|\(으\)로)", following)
                    if two_form:
                        if reading is not None:
                            wrong.append(f"{key}: {value} ({reading}) kept {two_form.group(1)}: {rendered}")
                        continue
                    for pair in PARTICLES:
                        for particle in pair:
                            # the particle alone, then a space, punctuation or the end (이고/이므로 are the copula)
                            if re.fullmatch(re.escape(particle) + r"[.,:;!?)]*", following) and reading:
                                checked += 1
                                if particle != expected_particle(reading, pair):
                                    wrong.append(f"{key}: {value}{particle} (read {reading}): {rendered}")
    assert checked > 100  # the scan really meets values followed by particles
    assert not wrong, "\n".join(sorted(set(wrong))[:40])


def test_the_examples_the_issue_names_read_right():
    assert "√256을 곱하면" in t("lesson.scaling.embed_scaled", "ko", e="1.00", es="16.00", pe="3.00", d=256)
    assert "5692×256을" in t("lesson.shared_weights.body", "ko", v=5692, d=256, saved="2")
    assert "√128을 곱하면" in t("lesson.scaling.embed_scaled", "ko", e="1.00", es="11.31", pe="3.00", d=128)
    assert "'cat'을 쓸 때" in t("lesson.q.cross", "ko", token="cat")
    assert "'fish'를 쓸 때" in t("lesson.q.cross", "ko", token="fish")
    assert "'</s>'을(를) 쓸 때" in t("lesson.q.cross", "ko", token="</s>")  # no single reading: both forms
    assert resolve("√{d}(으)로", {"d": 16}) == "√{d}으로"
    assert resolve("√{d}(으)로", {"d": 8}) == "√{d}로"  # 팔: ㄹ takes 로
    assert resolve("{w}(으)로", {"w": "school"}) == "{w}로" and resolve("{w}(으)로", {"w": "book"}) == "{w}으로"


def test_no_two_form_particle_hangs_on_a_parenthesis():
    """'위치 3 ('cat')은(는)': the particle belongs to the word before the parenthesis, which t() cannot see."""
    hanging = [key for key, entry in CATALOGS["ko"].items() for text in forms(entry)
               if re.search(r"\)(을\(를\)|은\(는\)|이\(가\)|와\(과\)|\(으\)로)", text)]
    assert not hanging, hanging
