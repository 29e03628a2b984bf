"""The everyday grammar's forms by rule (connective, auxiliary and honorific endings, English -ing forms) and its
constants; the grammar stages' names (everyday, learner ... learner10: each one's lexicon additions file) and each
stage's lexicon (grammar_lexicon). The later layers' forms are in the forms_*.py modules beside it, each named as
the constructions_*.py module that uses it; forms.py collects every word they write (the vocabulary reads those).
"""

from __future__ import annotations

from transformer_core.grammar import english, hangul
from transformer_core.grammar.base import EXTENDED_GRAMMARS, LAST_STAGE, Word, predicate_word, stem_pieces
from transformer_core.grammar.lexicon import Adjective, Lexicon, Verb, load_additions, word_list

# The grammar's stages (base.EXTENDED_GRAMMARS), each a layer of constructions and the lexicon file it added:
# everyday (what learners say first), learner (a learner's core vocabulary), learner2 (the lexicon's second round),
# learner3 (a beginner syllabus, the lexicon's third round), learner4 (-겠-, -(으)ㄹ게요 ..., the months), learner5
# (만, 도, -(으)ㄹ까요?, -아/어 주다 ...), learner6 (weather and body collocations, -아/어서 of sequence, numbers,
# -거나 ...), learner7 (the level-1 word list's missing words), learner8 (noun compounds, durations and dates, -대요),
# learner9 (spoken particles, 몇 시에 / 몇 층에, 밖에 / 하나도 / 아무도, greetings), learner10 (여기 / 거기 / 저기,
# 밖 / 근처, N이 되다, 아무 N도, 있으면 / 없으면). The additions files each stage reads on top of the full lexicon, in
# order (lexicon.load_additions): its own and those of every stage before it.
ADDITIONS = {grammar: EXTENDED_GRAMMARS[:i + 1] for i, grammar in enumerate(EXTENDED_GRAMMARS)}


# --- the lexicon: the full one plus the additions -----------------------------------------------------------------


def grammar_lexicon(grammar: str = LAST_STAGE) -> Lexicon:
    """The full lexicon plus the additions of `grammar` ("everyday": meals, time, -마다 words; "learner": those
    and a learner's core vocabulary; "learner2": those and its second round), read by lexicon.py."""
    if grammar not in ADDITIONS:
        raise ValueError(f"unknown grammar {grammar!r}; expected one of {', '.join(ADDITIONS)}")
    return load_additions("full", *ADDITIONS[grammar])


# --- Korean forms by rule ---------------------------------------------------------------------------------------

def is_ha(stem: str) -> bool:
    return len(stem) > 1 and stem.endswith("하")


def piece_word(base: str, ending: str, stem: str) -> Word:
    """(base, ending) as tokenizer pieces; a 하다 stem splits before 하 (공부 + 하고, 공부 + 해서)."""
    if is_ha(stem) and (base + ending).startswith(stem[:-1]):
        return stem_pieces(base + ending, stem) if ending or base != stem else (stem[:-1], "하")
    return (base, ending) if ending else (base,)


def eu_ending(stem: str, ending: str, irregular: str = "") -> Word:
    """An ending with 으 after a consonant (읽 + 으세요, 가 + 세요, 만들 + 면서, 만드 + 세요 for ㄴ/ㅅ/ㅂ endings);
    irregular stems change first (hangul.eu_stem): 듣 -> 들 + 으세요, 돕 -> 도우 + 세요, 낫 -> 나 + 으면서,
    노랗 -> 노라 + 니까."""
    if irregular:
        base, eu = hangul.eu_stem(stem, irregular)
        return piece_word(base, ("으" if eu else "") + ending, stem)
    final = hangul.final_consonant(stem)
    if final == hangul.FINAL_RIEUL:
        base = stem if ending.startswith(("면", "러", "려")) else hangul.drop_rieul(stem)
        return piece_word(base, ending, stem)
    if final != hangul.FINAL_NONE:
        return piece_word(stem, "으" + ending, stem)
    return piece_word(stem, ending, stem)


def regular(entry: Verb | Adjective) -> bool:
    """Stems whose 으-endings follow the plain rule (irregular ㄷ/ㅂ/ㅅ/ㅎ/르 stems are left to the full grammar)."""
    return not entry.irregular and bool(getattr(entry, "stem", ""))


def eu_class(entry: Verb | Adjective) -> str:
    """The irregular class the 으-endings (-(으)니까, -(으)면서, -(으)시- ...) conjugate this entry by. The core's
    hand-written irregular verbs carry no flag (돕 -> 도왔, 듣 -> 들었, 굽 -> 구웠, 걷 -> 걸었: their forms are
    written out), so their class is read off the written past stem (the class whose rule gives it): 듣 -> 들으세요."""
    if entry.irregular or not getattr(entry, "stem", ""):
        return entry.irregular
    if hangul.past_stem(entry.stem) == entry.past_stem:
        return ""
    return next((name for name in hangul.IRREGULAR_CLASSES[1:]
                 if hangul.past_stem(entry.stem, name) == entry.past_stem), "")


def takes_eu_endings(entry: Verb | Adjective) -> bool:
    """Does the grammar write -(으)니까 / -(으)면서 / -(으)시- on this entry? Every entry with a stem: regular stems by
    the plain rule, irregular ones by their class (eu_class, hangul.eu_stem)."""
    return bool(getattr(entry, "stem", ""))


def infinitive(past: str) -> str:
    return hangul.infinitive_from_past(past)


def go_word(stem: str) -> Word:
    """-고: 먹고, 공부하고."""
    return piece_word(stem, "고", stem)


def aseo_word(stem: str, past: str) -> Word:
    """-아서/-어서: 먹어서, 피곤해서, 가서."""
    return piece_word(infinitive(past), "서", stem)


def nikka_word(stem: str, past: str, tense: str, irregular: str = "") -> Word:
    """-(으)니까: 먹으니까, 가니까, 만드니까, 먹었으니까, 들으니까 (ㄷ), 추우니까 (ㅂ)."""
    if tense == "past":
        return piece_word(past, "으니까", stem)
    return eu_ending(stem, "니까", irregular)


def jiman_word(stem: str, past: str, tense: str) -> Word:
    """-지만: 먹지만, 먹었지만."""
    return piece_word(past if tense == "past" else stem, "지만", stem)


def myeonseo_word(stem: str, irregular: str = "") -> Word:
    """-(으)면서: 먹으면서, 가면서, 만들면서, 걸으면서 (ㄷ)."""
    return eu_ending(stem, "면서", irregular)


def ji_word(stem: str) -> Word:
    """-지 before 않다 / 못하다: 먹지."""
    return piece_word(stem, "지", stem)


def auxiliary_words(stem: str, past: str, tense: str, question: bool, register: str, action: bool) -> list[Word]:
    """An auxiliary predicate (싶다, 있다, 않다, 못하다) in one tense and register."""
    future = hangul.future_adnominal(stem)
    return [tuple(word) for word in predicate_word(stem, past, future, tense, question, register, action)]


def honorific_words(stem: str, tense: str, question: bool, register: str, irregular: str = "") -> list[Word]:
    """-(으)시-: 가세요 / 읽으셨어요 / 가신다 / 가셨다 / 가십니다 / 가실 거예요 (banmal speaks of elders politely)."""
    register = "polite" if register == "banmal" else register
    if tense == "future":
        auxiliary = {"plain": ("것이다",), "polite": ("거예요",), "formal": ("것입니다",)}[register]
        if question:
            return [eu_ending(stem, {"plain": "실까", "polite": "실까요", "formal": "실까요"}[register], irregular)]
        return [eu_ending(stem, "실", irregular), auxiliary]
    if tense == "past":
        ending = {"plain": "셨니" if question else "셨다", "polite": "셨어요",
                  "formal": "셨습니까" if question else "셨습니다"}[register]
    else:
        ending = {"plain": "시니" if question else "신다", "polite": "세요",
                  "formal": "십니까" if question else "십니다"}[register]
    return [eu_ending(stem, ending, irregular)]


def rae_word(stem: str, polite: bool) -> Word:
    """-(으)ㄹ래(요)?: 먹을래, 갈래요, 공부할래."""
    future = hangul.future_adnominal(stem)
    return piece_word(future, "래요" if polite else "래", stem)


def ja_word(stem: str) -> Word:
    """-자: 먹자, 가자, 공부하자."""
    return piece_word(stem, "자", stem)


REQUEST_ENDINGS = word_list("REQUEST_ENDINGS")

# --- English forms ------------------------------------------------------------------------------------------------

ING_EXCEPTIONS = word_list("ING_EXCEPTIONS")


def present_participle(base: str) -> str:
    """eat -> eating, make -> making, run -> running, study -> studying, turn on -> turning on."""
    first, *rest = base.split()
    if first in ING_EXCEPTIONS:
        word = ING_EXCEPTIONS[first]
    elif first.endswith("ie"):
        word = first[:-2] + "ying"
    elif first.endswith("e") and not first.endswith(("ee", "ye", "oe")) and len(first) > 2:
        word = first[:-1] + "ing"
    elif (len(first) >= 3 and first[-1] not in "aeiouwxy" and first[-2] in "aeiou" and first[-3] not in "aeiou"
          and sum(c in "aeiou" for c in first) == 1):
        word = first + first[-1] + "ing"
    else:
        word = first + "ing"
    return " ".join([word, *rest])


def verb_form(base: str, tense: str, person: int, plural: bool) -> str:
    """present (eats / eat) or past (ate is not regular: only for want -> wanted, have -> had)."""
    if tense == "past":
        return {"want": "wanted", "have": "had"}.get(base, base + "ed")
    first, *rest = base.split()
    inflected = english.third_person_singular(first) if english.takes_third_person_s(person, plural) else first
    return " ".join([inflected, *rest])


POSITIONS = word_list("POSITIONS")
SINO_FLOORS = word_list("SINO_FLOORS")
NATIVE_ONE = ("한", "one")
AGES = word_list("AGES")
PRONOUNS = word_list("PRONOUNS")
ELDERS = word_list("ELDERS")
TRANSPORT_VERBS = ("가", "오")
ENGLISH_WORDS = word_list("ENGLISH_WORDS")
