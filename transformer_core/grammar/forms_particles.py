"""The forms by rule, constants and words of grammar stage learner5 (ParticlesGrammar in constructions_particles.py):
the third syllabus round (N만, N도, N하고 / N(이)랑, N까지, N에게 / N한테 / N께, -(으)ㄹ까요?, -아/어 주다,
-아/어지다, V-는 것 / V-기를 좋아하다). Its words: learner5_korean_words / learner5_english_words (forms.py collects
them for the vocabulary).
"""

from __future__ import annotations

from transformer_core.grammar import hangul
from transformer_core.grammar.base import REGISTERS, Word
from transformer_core.grammar.forms_everyday import auxiliary_words, eu_class, infinitive, piece_word
from transformer_core.grammar.forms_modality_comparison import comparable, english_degree
from transformer_core.grammar.forms_syllabus import future_adnominal_word, gi_word, present_adnominal
from transformer_core.grammar.lexicon import Adjective, Lexicon, Verb, word_list

ONLY, ALSO = "만", "도"  # N만 (only N), N도 (N too): in place of the object particle
UNTIL = "까지"  # PLACE1에서 PLACE2까지 (from PLACE1 to PLACE2)
FROM_TO_VERBS = frozenset(word_list("FROM_TO_VERBS"))
COMPANION_PARTICLES = ("하고", "랑")  # N하고 / N(이)랑 (with N; 이랑 after a consonant)
SHALL_ENDINGS = word_list("SHALL_ENDINGS")
# -아/어 주다 (V for someone): the recipient's particle (에게 / 한테; an elder 께, with 드리다 in place of 주다).
RECIPIENT_PARTICLES = ("에게", "한테")
ELDER_RECIPIENT = "께"
GIVE, GIVE_HUMBLE = ("주", "줬"), ("드리", "드렸")
BENEFACTIVE_VERBS = frozenset(word_list("BENEFACTIVE_VERBS"))
# -아/어지다 (got ADJ-er): 지다's stem and past stem; the weather adjectives whose change English says "got colder".
BECOME = ("지", "졌")
CHANGING_WEATHER = frozenset(word_list("CHANGING_WEATHER"))
LIKING_VERBS = frozenset(word_list("LIKING_VERBS"))
ACTIVITY_VERBS = frozenset(word_list("ACTIVITY_VERBS"))
JOINT_VERBS = frozenset(word_list("JOINT_VERBS"))
LEARNER5_ENGLISH = word_list("LEARNER5_ENGLISH")


def shall_word(verb: Verb, register: str) -> Word:
    """-(으)ㄹ까요? (Shall we V?): 먹을 + 까요, 갈 + 까요, 만들 + 까요 (ㄹ stays), 들을 + 까요 (ㄷ), 도울 + 까요 (ㅂ),
    공부 + 할 + 까요; -(으)ㄹ까 in banmal and plain speech."""
    return (*future_adnominal_word(verb), SHALL_ENDINGS[register])  # the pieces of the future question 먹을까요


def particle_word(noun: str, particle: str) -> Word:
    """A noun with a particle that never changes after a consonant: 사과 + 만, 책 + 도, 민수 + 에게, 할머니 + 께."""
    return (noun, particle)


def offer_word(register: str) -> Word:
    """-아/어 드릴까요? (Shall I V for you?): 드릴 + 까요 (polite and formal speech), 줄 + 까 (banmal and plain)."""
    return ("드릴", "까요") if register in ("polite", "formal") else ("줄", "까")


def companion_word(noun: str, particle: str) -> Word:
    """N하고 / N(이)랑 (with N): 지수 + 하고, 지수 + 랑, 학생 + 이랑."""
    if particle == "랑" and hangul.final_consonant(noun):
        particle = "이랑"
    return (noun, particle)


def become_words(adjective: Adjective, tense: str, question: bool, register: str) -> list[Word]:
    """-아/어지다 (got ADJ-er): 추워 + 졌어요, 따뜻 + 해 + 졌어요, 좋아 + 질 + 거예요 (추워질 거예요); the
    infinitive joined to 지다's first word."""
    lexical = piece_word(infinitive(adjective.past_stem), "", adjective.stem)
    first, *rest = auxiliary_words(*BECOME, tense, question, register, action=True)
    return [(*lexical, *first), *rest]


def nominal_words(verb: Verb, irregular: str, gi: bool) -> list[Word]:
    """V-는 것을 (수영하는 것을 -> swimming: 수영 + 하는, 것 + 을) or V-기를 (수영 + 하기 + 를, 걷기 + 를)."""
    if gi:
        return [(*gi_word(verb.stem), "를")]
    return [present_adnominal(verb.stem, irregular), ("것", "을")]


def learner5_korean_words(lexicon: Lexicon) -> set[Word]:
    """Every Korean word (as pieces) the third syllabus round writes, for every verb and adjective of `lexicon`."""
    from itertools import product

    words: set[Word] = {particle_word(place.ko, UNTIL) for place in lexicon.places}
    for noun in lexicon.common_nouns + lexicon.names:
        words.update({particle_word(noun.ko, ONLY), particle_word(noun.ko, ALSO)})
        if noun.is_name or "person" in noun.tags:
            words.update(particle_word(noun.ko, particle) for particle in (*RECIPIENT_PARTICLES, ELDER_RECIPIENT))
            words.update(companion_word(noun.ko, particle) for particle in COMPANION_PARTICLES)
    words.update(offer_word(register) for register in REGISTERS)
    for tense, question, register in product(("past", "present", "future"), (False, True), REGISTERS):
        for stem, past in (GIVE, GIVE_HUMBLE):
            words.update(auxiliary_words(stem, past, tense, question, register, action=True))
    for verb in lexicon.verbs:
        words.update(shall_word(verb, register) for register in REGISTERS)
        words.add(piece_word(infinitive(verb.past_stem), "", verb.stem))
        for gi in (False, True):
            words.update(nominal_words(verb, eu_class(verb), gi))
    for adjective in lexicon.adjectives:
        if adjective.predicative and adjective.stem:
            for tense, question, register in product(("past", "present", "future"), (False, True), REGISTERS):
                words.update(become_words(adjective, tense, question, register))
    return words


def learner5_english_words(lexicon: Lexicon) -> set[str]:
    """English words the third syllabus round adds: only, too, Shall, for, got ..., and the comparatives of the
    adjectives that get -아/어지다 (colder, busier, more tired)."""
    words = set(LEARNER5_ENGLISH)
    for adjective in lexicon.adjectives:
        if comparable(adjective) or adjective.en in CHANGING_WEATHER:
            words.update(english_degree(adjective.en)[0])
    return words
