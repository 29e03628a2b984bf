"""The forms by rule, constants and words of grammar stage learner4 (ModalityAndComparisonGrammar in
constructions_modality_comparison.py): the second syllabus round (-겠-, -(으)ㄹ게요, -기 때문에, -게 되다, -기로
하다, -(으)ㄴ/는 것 같다, -는데, -지요, -네요, -아/어 있다, N보다 더, 제일). Its words: learner4_korean_words /
learner4_english_words (forms.py collects them for the vocabulary).
"""

from __future__ import annotations

from transformer_core.grammar import hangul
from transformer_core.grammar.base import REGISTERS, Word
from transformer_core.grammar.forms_everyday import auxiliary_words, eu_class, go_word, piece_word
from transformer_core.grammar.forms_syllabus import future_adnominal_word, gi_word, past_adnominal, present_adnominal
from transformer_core.grammar.lexicon import Adjective, Lexicon, Verb, word_list

GESS_ENDINGS = word_list("GESS_ENDINGS")
WILL_ENDINGS = word_list("WILL_ENDINGS")
BECAUSE, NASEO, THING = ("때문", "에"), ("나서",), ("것",)  # -기 때문에, -고 나서, -(으)ㄴ/는 것 같다
SEEM = ("같", "같았")  # 같다: the stem and past stem of -(으)ㄴ/는 것 같다 (I think ...)
TAG_ENDINGS = ("지요", "죠")  # -지요? / -죠? (..., right?)
REASON_TAGS = frozenset(word_list("REASON_TAGS"))
NOT_REASONS = frozenset({"season"})
REASONS_WITHOUT_THE = frozenset({"global warming", "climate"})
STATE_ENGLISH = word_list("STATE_ENGLISH")
STATE_OUT_TAGS = frozenset({"candle", "fire"})
UNGRADED = frozenset(word_list("UNGRADED"))
IRREGULAR_DEGREES = word_list("IRREGULAR_DEGREES")
TWO_VOWEL_SYLLABLES = frozenset({"fluent"})  # flu-ent: one vowel group, two syllables (more fluent)
MORE = ("더",)
SUPERLATIVE_WORDS = (("제일",), ("가장",))
LEARNER4_ENGLISH = word_list("LEARNER4_ENGLISH")


def gess_word(stem: str, register: str, question: bool = False) -> Word:
    """-겠- (I will, intention): 먹겠어요, 가겠습니다, 만들겠다, 듣겠어 (the stem never changes), 공부 + 하겠어요."""
    return piece_word(stem, GESS_ENDINGS[register][question], stem)


def will_word(verb: Verb, register: str) -> Word:
    """-(으)ㄹ게요 (I will, a promise): 먹을게요, 갈게요, 만들게요 (ㄹ stays), 들을게요 (ㄷ), 도울게요 (ㅂ),
    공부 + 할게요;
    -(으)ㄹ게 in banmal and plain speech."""
    return piece_word("".join(future_adnominal_word(verb)), WILL_ENDINGS[register], verb.stem)


def gi_past_word(stem: str, past: str, tense: str) -> Word:
    """-기 (before 때문에 / 로): 먹기, 가기, 공부 + 하기; past 먹었기, 갔기, 공부 + 했기."""
    return piece_word(past, "기", stem) if tense == "past" else gi_word(stem)


def giro_word(stem: str) -> Word:
    """-기로 (before 하다: decided to V): 먹기로, 가기로, 공부 + 하기로."""
    return piece_word(stem, "기로", stem)


def ge_word(stem: str) -> Word:
    """-게 (before 되다: came to V): 먹게, 가게, 만들게, 공부 + 하게."""
    return piece_word(stem, "게", stem)


def seem_adnominal(verb: Verb, tense: str, irregular: str = "") -> Word:
    """The adnominal before 것 같다: present -는 (먹는, 만드는), past -(으)ㄴ (먹은, 만든, 들은), future -(으)ㄹ (먹을,
    만들, 들을)."""
    if tense == "past":
        return past_adnominal(verb.stem, irregular)
    if tense == "future":
        return future_adnominal_word(verb)
    return present_adnominal(verb.stem, irregular)


def neunde_word(entry: Verb | Adjective, tense: str) -> Word:
    """-는데 / -(으)ㄴ데 (background, contrast: ..., but): 먹는데, 만드는데, 먹었는데; adjectives 피곤 + 한데, 좋은데,
    추운데, 맛있는데, 피곤 + 했는데."""
    if tense == "past":
        return piece_word(entry.past_stem, "는데", entry.stem)
    if isinstance(entry, Adjective):
        return piece_word(entry.attributive, "데", entry.stem)
    return piece_word(hangul.drop_rieul(entry.stem), "는데", entry.stem)


def tag_word(stem: str, past: str, tense: str, ending: str = "지요") -> Word:
    """-지요? / -죠? (..., right?): 먹지요, 먹죠, 먹었지요, 공부 + 하죠."""
    return piece_word(past if tense == "past" else stem, ending, stem)


def neyo_word(stem: str, past: str, tense: str) -> Word:
    """-네요 (exclamation): 먹네요, 만드네요 (ㄹ drops), 덥네요, 피곤 + 하네요; past 먹었네요."""
    if tense == "past":
        return piece_word(past, "네요", stem)
    return piece_word(hangul.drop_rieul(stem), "네요", stem)


def _syllables(word: str) -> int:
    """Vowel groups of an English word, a silent final e not counted: big 1, brave 1, happy 2, quiet 1, gentle 2."""
    import re

    if word.endswith("e") and not word.endswith(("ee", "le")):
        word = word[:-1]
    return max(1, len(re.findall(r"[aeiouy]+", word[1:] if word.startswith("y") else word)))


def english_degree(adjective: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(comparative, superlative) words: big -> (bigger,), (biggest,); happy -> happier, happiest; nice -> nicer;
    good -> better, best; tired, boring, careful, cold-hearted -> (more, tired), (most, tired)."""
    if adjective in IRREGULAR_DEGREES:
        better, best = IRREGULAR_DEGREES[adjective]
        return (better,), (best,)
    syllables = _syllables(adjective)
    short = (" " not in adjective and "-" not in adjective and not adjective.endswith(("ed", "ing", "ful"))
             and adjective not in TWO_VOWEL_SYLLABLES
             and (syllables == 1 or (syllables == 2 and adjective.endswith("y"))))
    if not short:
        return ("more", *adjective.split()), ("most", *adjective.split())
    if syllables == 2:  # happy -> happi
        base = adjective[:-1] + "i"
    elif adjective.endswith("e"):  # nice -> nic
        base = adjective[:-1]
    elif (len(adjective) >= 3 and adjective[-1] not in "aeiouwxy" and adjective[-2] in "aeiou"
          and adjective[-3] not in "aeiou"):  # big -> bigg
        base = adjective + adjective[-1]
    else:
        base = adjective
    return (base + "er",), (base + "est",)


def comparable(adjective: Adjective) -> bool:
    """An adjective a person is compared in (N보다 더 ADJ, 제일 ADJ)."""
    return (adjective.predicative and bool(adjective.stem) and "person" in adjective.applies_to
            and adjective.en not in UNGRADED)


def learner4_korean_words(lexicon: Lexicon) -> set[Word]:
    """Every Korean word (as pieces) the second syllabus round writes, for every verb and adjective of `lexicon`."""
    from itertools import product

    words: set[Word] = {BECAUSE, NASEO, THING, MORE, *SUPERLATIVE_WORDS}
    for noun in lexicon.common_nouns + lexicon.names:
        if noun.is_name or "person" in noun.tags:
            words.add((noun.ko, "보다"))
    for tense, question, register in product(("past", "present", "future"), (False, True), REGISTERS):
        words.update(auxiliary_words(*SEEM, "present", question, register, action=False))
        for stem, past in (("하", "했"), ("되", "됐")):
            words.update(auxiliary_words(stem, past, tense, question, register, action=True))
    for verb in lexicon.verbs:
        stem, past = verb.stem, verb.past_stem
        irregular = eu_class(verb)
        words.update({giro_word(stem), ge_word(stem), go_word(stem), neunde_word(verb, "past"),
                      neunde_word(verb, "present"), neyo_word(stem, past, "past"), neyo_word(stem, past, "present")})
        words.update(will_word(verb, register) for register in REGISTERS)
        words.update(gess_word(stem, register, question) for register in REGISTERS for question in (False, True))
        words.update(gi_past_word(stem, past, tense) for tense in ("past", "present"))
        words.update(seem_adnominal(verb, tense, irregular) for tense in ("past", "present", "future"))
        words.update(tag_word(stem, past, tense, ending) for tense in ("past", "present") for ending in TAG_ENDINGS)
    for adjective in lexicon.adjectives:
        if adjective.predicative and adjective.stem and adjective.attributive:
            stem, past = adjective.stem, adjective.past_stem
            words.update({neunde_word(adjective, "past"), neunde_word(adjective, "present"),
                          neyo_word(stem, past, "past"), neyo_word(stem, past, "present")})
            words.update(gess_word(stem, register, question) for register in REGISTERS for question in (False, True))
    return words


def learner4_english_words(lexicon: Lexicon) -> set[str]:
    """English words the second syllabus round adds: because, think, decided, right ..., and the comparatives and
    superlatives of the adjectives a person is compared in."""
    words = set(LEARNER4_ENGLISH)
    for adjective in lexicon.adjectives:
        if comparable(adjective):
            comparative, superlative = english_degree(adjective.en)
            words.update(comparative + superlative)
    return words
