"""The forms by rule, constants and words of grammar stage learner3 (SyllabusGrammar in constructions_syllabus.py): the
syllabus constructions of grammar learner3 (-(으)ㄹ 때, -아/어야 하다, -기 전에, -(으)려고 ...) and honorific
suppletion (드세요, 계세요). Its words: syllabus_korean_words / syllabus_english_words (forms.py collects them for
the vocabulary).
"""

from __future__ import annotations

from transformer_core.grammar import hangul
from transformer_core.grammar.base import REGISTERS, Word
from transformer_core.grammar.forms_everyday import (
    ELDERS,
    auxiliary_words,
    eu_class,
    eu_ending,
    go_word,
    honorific_words,
    infinitive,
    ji_word,
    piece_word,
    takes_eu_endings,
    verb_form,
)
from transformer_core.grammar.lexicon import Lexicon, Verb, word_list

HONORIFIC_BASES = word_list("HONORIFIC_BASES")
STAY_BASE = "계"  # 계시다: 할머니는 집에 계세요 (an elder is at a place)
GI_BEFORE, AFTER = ("전", "에"), ("후", "에")  # -기 전에 (before V-ing), -(으)ㄴ 후에 (after V-ing)
SU, JEOK = ("수",), ("적", "이")  # -(으)ㄹ 수 있다 (can), -(으)ㄴ 적이 있다 (have V-ed)
TTAE = ("때",)  # -(으)ㄹ 때 (when)
DONT_ENDINGS = word_list("DONT_ENDINGS")
PAST_PARTICIPLES = word_list("PAST_PARTICIPLES")


def past_participle(verb: Verb) -> str:
    """eat -> eaten, go -> been (한국에 간 적이 있다: has been to Korea), study -> studied; '' when the lexicon's
    irregular past has no participle written here (the verb is left out of -(으)ㄴ 적이 있다)."""
    if verb.en_past.endswith("ed") and " " not in verb.en_past and verb.en_past not in PAST_PARTICIPLES:
        return verb.en_past
    if verb.en_past in PAST_PARTICIPLES:
        return PAST_PARTICIPLES[verb.en_past]
    first, *rest = verb.en_past.split()
    if rest and first.endswith("ed") and first not in PAST_PARTICIPLES:
        return verb.en_past  # picked up, turned on
    if rest and first in PAST_PARTICIPLES:
        return " ".join([PAST_PARTICIPLES[first], *rest])
    return ""


def past_adnominal(stem: str, irregular: str = "") -> Word:
    """-(으)ㄴ on a verb (what was done): 먹 -> 먹은, 가 -> 간, 만들 -> 만든, 듣 -> 들은, 돕 -> 도운, 짓 -> 지은,
    공부하 -> 공부 + 한."""
    base, eu = hangul.eu_stem(stem, irregular)
    if eu:
        return piece_word(base, "은", stem)
    return piece_word(hangul.add_final(hangul.drop_rieul(base), hangul.FINAL_NIEUN), "", stem)


def present_adnominal(stem: str, irregular: str = "") -> Word:
    """-는 on a verb (what is done): 먹 -> 먹는, 가 -> 가는, 만들 -> 만드는, 듣 -> 듣는, 공부하 -> 공부 + 하는."""
    return piece_word(hangul.drop_rieul(stem), "는", stem)


def future_adnominal_word(verb: Verb) -> Word:
    """-(으)ㄹ before 수 (can): 먹을, 갈, 만들, 들을, 도울, 공부 + 할."""
    return piece_word(verb.future_stem or hangul.future_adnominal(verb.stem), "", verb.stem)


def ya_word(stem: str, past: str) -> Word:
    """-아/어야 before 하다 / 되다 (have to): 먹어야, 가야, 공부 + 해야."""
    return piece_word(infinitive(past), "야", stem)


def gi_word(stem: str) -> Word:
    """-기 before 전에 (before V-ing): 먹기, 가기, 공부 + 하기."""
    return piece_word(stem, "기", stem)


def reo_word(stem: str, irregular: str = "") -> Word:
    """-(으)러 before 가다 / 오다 (to V): 먹으러, 사러, 만들러, 들으러 (ㄷ), 도우러 (ㅂ)."""
    return eu_ending(stem, "러", irregular)


def myeon_word(stem: str, irregular: str = "") -> Word:
    """-(으)면 (if): 먹으면, 가면, 만들면, 들으면 (ㄷ), 추우면 (ㅂ), 피곤 + 하면."""
    return eu_ending(stem, "면", irregular)


def ryeogo_word(stem: str, irregular: str = "") -> Word:
    """-(으)려고 (in order to): 먹으려고, 사려고, 만들려고, 들으려고 (ㄷ), 도우려고 (ㅂ)."""
    return eu_ending(stem, "려고", irregular)


def do_word(stem: str, past: str) -> Word:
    """-아/어도 before 되다 (may): 먹어도, 가도, 공부 + 해도."""
    return piece_word(infinitive(past), "도", stem)


def ttae_words(verb: Verb, tense: str) -> list[Word]:
    """-(으)ㄹ 때 (when): 먹을 때, 갈 때, 들을 때 (ㄷ); past 먹었을 때, 갔을 때."""
    if tense == "past":
        return [piece_word(verb.past_stem, "을", verb.stem), TTAE]
    return [future_adnominal_word(verb), TTAE]


def bsida_word(stem: str, irregular: str = "") -> Word:
    """-(으)ㅂ시다 (let's, to a group): 먹읍시다, 갑시다, 만듭시다 (ㄹ drops), 들읍시다 (ㄷ), 도웁시다 (ㅂ)."""
    base, eu = hangul.eu_stem(stem, irregular)
    if eu:
        return piece_word(base, "읍시다", stem)
    return piece_word(hangul.add_final(hangul.drop_rieul(base), hangul.FINAL_BIEUP), "시다", stem)


def honorific_base(verb: Verb) -> tuple[str, str]:
    """(stem, irregular class) the -(으)시- endings go on: 먹 -> ('드', ''), 자 -> ('주무', ''), 듣 -> ('듣', 'ㄷ')."""
    if verb.stem in HONORIFIC_BASES:
        return HONORIFIC_BASES[verb.stem], ""
    return verb.stem, eu_class(verb)


SYLLABUS_ENGLISH = word_list("SYLLABUS_ENGLISH")


def syllabus_korean_words(lexicon: Lexicon) -> set[Word]:
    """Every Korean word (as pieces) the syllabus constructions write, for every verb and adjective of `lexicon`."""
    from itertools import product

    words: set[Word] = {GI_BEFORE, AFTER, SU, JEOK, TTAE, ("안",), *DONT_ENDINGS.values()}
    words.update((elder, particle) for elder in ELDERS for particle in ("께서", "께서는"))
    for tense, question, register in product(("past", "present", "future"), (False, True), REGISTERS):
        for stem, past, action in (("하", "했", True), ("되", "됐", True), ("보", "봤", True)):
            words.update(auxiliary_words(stem, past, tense, question, register, action))
        for base in (*HONORIFIC_BASES.values(), STAY_BASE):
            words.update(honorific_words(base, tense, question, register))
    for verb in lexicon.verbs:
        stem, past = verb.stem, verb.past_stem
        irregular = eu_class(verb)
        words.update({past_adnominal(stem, irregular), future_adnominal_word(verb), ya_word(stem, past),
                      gi_word(stem), reo_word(stem, irregular), myeon_word(stem, irregular),
                      bsida_word(stem, irregular), go_word(stem), ji_word(stem),
                      piece_word(infinitive(past), "", stem), ryeogo_word(stem, irregular), do_word(stem, past),
                      *ttae_words(verb, "past"), *ttae_words(verb, "present"), present_adnominal(stem)})
        base, base_irregular = honorific_base(verb)
        words.add(eu_ending(base, "십시오", base_irregular))  # -(으)십시오: please (formal)
        for tense, question, register in product(("past", "present", "future"), (False, True), REGISTERS):
            words.update(honorific_words(base, tense, question, register, base_irregular))
    for adjective in lexicon.adjectives:
        if adjective.predicative and adjective.stem and takes_eu_endings(adjective):
            words.add(myeon_word(adjective.stem, eu_class(adjective)))
    return words


def syllabus_english_words(lexicon: Lexicon) -> set[str]:
    """English words the syllabus constructions add: if, before, after, never, ever, past participles ..."""
    words = set(SYLLABUS_ENGLISH)
    for verb in lexicon.verbs:
        words.update(past_participle(verb).split())
        words.update(verb_form(verb.en_base, "present", 3, False).split())
    return words
