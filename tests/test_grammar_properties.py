"""The grammar by its properties, over generated pairs (every construction in every register, and random draws by
hypothesis), not by tables of its own sentences. The rules the Korean must follow are written out here, not taken
from the code under test; the English must come from the lexicon (data), not from what the generator wrote before.

- every construction is reached in every register, and the register changes the Korean only: the English is the
  same (but for the "please" of a polite request) -- a construction whose English changes with the register is a bug;
- every Korean noun with a case particle is written in English as the lexicon's sense of that noun, and the
  particle takes the form its noun's last syllable asks for (consonant: 이 / 은 / 을 / 과 / 으로, vowel: 가 / 는 /
  를 / 와 / 로, ㄹ: 로);
- every past-tense form of a regular verb or adjective follows the vowel-harmony rule written below;
- one Korean sentence has one English translation;
- every job noun reaches the construction N이 되다 (become);
- the recogniser reads the grammar's own sentences: no <unk>, and (nearly) no construction notice;
- every pair reads back through the tokenizer: typing its Korean gives its pieces.
"""

from __future__ import annotations

import re
from collections import defaultdict
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.grammar_checks import assert_pair_reads_back
from transformer_core.data.tokenization import build_ko_en_tokenizer
from transformer_core.grammar.base import GRAMMAR, LAST_STAGE, REGISTERS
from transformer_core.grammar.forms import JOBS, grammar_lexicon
from transformer_core.grammar.generator import DeixisGrammar, ko_en_grammar
from transformer_core.grammar.lexicon import CORE
from transformer_core.grammar.recogniser import FUNCTION_PIECES, outside_word_indices

KINDS = tuple(DeixisGrammar.KINDS)
PROPERTY = settings(max_examples=6, deadline=None, derandomize=True)
DRAWS = 15  # pairs per hypothesis example
# Constructions whose register chooses what is said, in both languages: the vocative names its addressee by the
# register (엄마 in the polite one, 아빠 in the plain one); background_so's request (-(으)세요: please do) is said
# only in the polite and formal registers, a prohibition (-지 마: do not) in the plain and banmal ones.
REGISTER_CHOOSES = frozenset({"vocative", "background_so"})

# --- the rules, written out ---------------------------------------------------------------------------------------

FIRST, MEDIALS = 0xAC00, "ㅏㅐㅑㅒㅓㅔㅕㅖㅗㅘㅙㅚㅛㅜㅝㅞㅟㅠㅡㅢㅣ"
RIEUL = 8  # the final-consonant index of ㄹ


def split(syllable: str) -> tuple[int, str, int]:
    """(initial index, medial vowel, final index: 0 = none) of a Hangul syllable."""
    code = ord(syllable) - FIRST
    return code // 588, MEDIALS[(code % 588) // 28], code % 28


def join(initial: int, medial: str, final: int) -> str:
    return chr(FIRST + initial * 588 + MEDIALS.index(medial) * 28 + final)


SSANG_SIOT = 20  # the final-consonant index of ㅆ
# particle kind -> (after a consonant, after a vowel); an ㄹ-final noun takes the vowel form of 으로 (칼로)
PARTICLE_FORMS = {"은": "는", "이": "가", "을": "를", "과": "와", "으로": "로"}
# a vowel-final stem's last vowel -> the vowel it contracts to with -았/었- (가 -> 갔, 보 -> 봤, 마시 -> 마셨)
CONTRACTED = dict(zip("ㅏㅓㅗㅜㅣㅐㅔㅚㅕ", "ㅏㅓㅘㅝㅕㅐㅔㅙㅕ", strict=True))


def particle_form(noun: str, kind: str) -> str:
    """The form particle `kind` (named by its after-consonant form) takes after `noun`."""
    _, _, final = split(noun[-1])
    if final == 0 or (kind == "으로" and final == RIEUL):
        return PARTICLE_FORMS[kind]
    return kind


def past_stem(stem: str) -> str:
    """The past stem of a regular stem by rule: 하 -> 했; after a final consonant -았 (ㅏ / ㅗ) or -었; a final
    vowel contracts with it (가 -> 갔, 보 -> 봤, 배우 -> 배웠, 마시 -> 마셨, 되 -> 됐); ㅡ drops and takes the
    vowel the syllable before it asks for (쓰 -> 썼, 아프 -> 아팠)."""
    if stem.endswith("하"):
        return stem[:-1] + "했"
    initial, vowel, final = split(stem[-1])
    if final:
        return stem + ("았" if vowel in "ㅏㅗ" else "었")
    if vowel == "ㅡ":
        bright = len(stem) > 1 and split(stem[-2])[1] in "ㅏㅗ"
        return stem[:-1] + join(initial, "ㅏ" if bright else "ㅓ", SSANG_SIOT)
    if vowel in CONTRACTED:
        return stem[:-1] + join(initial, CONTRACTED[vowel], SSANG_SIOT)
    return stem + "었"  # ㅟ, ㅢ: no contraction (뛰었, 띄었)


# --- the lexicon: what each Korean noun may be written as ---------------------------------------------------------

_WORD = re.compile(r"[a-z0-9]+(?:['-][a-z0-9]+)*")
_FUNCTION_TEXT = "a an the this that these those my your his her our their its of to at in on for and or with from by"
ENGLISH_FUNCTION_WORDS = frozenset(_FUNCTION_TEXT.split(" "))


def english_words(text: str) -> set[str]:
    return set(_WORD.findall(text.lower())) - ENGLISH_FUNCTION_WORDS


@cache
def lexicon():
    return grammar_lexicon(LAST_STAGE)


@cache
def noun_senses() -> dict[str, set[str]]:
    """Korean noun -> every English word the lexicon gives it: each of its senses (common noun, place, name), in the
    singular and the plural, and the collocations it takes part in (배가 고프다 -> hungry, 이를 닦다 -> brush teeth)."""
    senses: dict[str, set[str]] = defaultdict(set)
    for noun in lexicon().common_nouns + lexicon().places + lexicon().names:
        senses[noun.ko] |= english_words(noun.en) | english_words(noun.plural)
    for entry in lexicon().fixed_subject + lexicon().fixed_object:
        senses[entry.noun] |= english_words(f"{entry.en} {entry.en_past} {entry.en_subject}")
    return senses


@cache
def time_and_verb_nouns() -> frozenset[str]:
    """Nouns that are also a time word's, a 하다 verb's or a predicate's first piece (아침에 -> in the morning;
    요리할 -> cook; 입은 -> worn, not the mouth 입): their English is the time word's or the predicate's, which this
    check does not cover; and the grammar's function pieces (몇 시, 열 개)."""
    pieces = {time_word.ko[0] for time_word in lexicon().time_words}
    pieces |= {verb.prefix or verb.stem[:-1] for verb in lexicon().verbs if verb.prefix or verb.stem.endswith("하")}
    predicates = [*lexicon().verbs, *lexicon().adjectives]
    pieces |= {entry.stem for entry in predicates} | {entry.past_stem for entry in predicates}
    return frozenset(pieces | FUNCTION_PIECES)


@cache
def regular_past_stems() -> dict[str, str]:
    """Past stem -> stem of every verb and predicative adjective the lexicon calls regular. Not the core's
    (lexicon_core.json): its forms are written by hand and name no irregular class (걷 -> 걸었, 돕 -> 도왔 are
    entries without one), so this rule would call 25 of them wrong."""
    core = {(entry.stem, entry.past_stem) for entry in [*CORE.verbs, *CORE.adjectives]}
    entries = [*lexicon().verbs, *(a for a in lexicon().adjectives if a.predicative)]
    return {entry.past_stem: entry.stem for entry in entries
            if entry.stem and not entry.irregular and (entry.stem, entry.past_stem) not in core}


# --- the pairs ----------------------------------------------------------------------------------------------------

PER_KIND = 8  # draws of each construction (a construction draws its own forms: past, future, want ...)


@cache
def every_construction_in_every_register() -> dict[tuple[str, int, str], object]:
    """(kind, draw, register) -> a pair of that construction in that register; the registers of a draw are drawn
    from the same random state, so they differ only where the register changes the sentence."""
    grammar = ko_en_grammar(0, GRAMMAR)
    pairs = {}
    for i, kind in enumerate(KINDS):
        for draw in range(PER_KIND):
            for register in REGISTERS:
                grammar.rng.seed(i * PER_KIND + draw)
                pairs[kind, draw, register] = grammar.sample(register=register, kind=kind)
    return pairs


def drawn(seed: int, n: int = DRAWS) -> list:
    grammar = ko_en_grammar(seed, GRAMMAR)
    return [grammar.sample() for _ in range(n)]


def words_of(pair) -> list[tuple[int, list[str]]]:
    """The Korean words of a pair as (index of its first piece, its pieces without '##')."""
    words: list[tuple[int, list[str]]] = []
    for i, piece in enumerate(pair.source):
        if piece.startswith("##") and words:
            words[-1][1].append(piece[2:])
        else:
            words.append((i, [piece]))
    return words


# --- the properties -----------------------------------------------------------------------------------------------

def without_please(target: tuple[str, ...]) -> tuple[str, ...]:
    words = [word for word in target if word.lower() != "please"]
    return (words[0][:1].upper() + words[0][1:], *words[1:]) if words else ()


def nouns_written_otherwise(pair) -> list[tuple[str, str]]:
    """(Korean noun, English word) for each English content word aligned to a noun-with-particle word alone that is
    none of the lexicon's words for that noun."""
    senses, skipped = noun_senses(), time_and_verb_nouns()
    word_of = {}
    for number, (first, pieces) in enumerate(words_of(pair)):
        for offset in range(len(pieces)):
            word_of[first + offset] = number
    words = words_of(pair)
    wrong = []
    for english, sources in zip(pair.target, pair.alignment, strict=True):
        numbers = {word_of[i] for i in sources}
        if len(numbers) != 1:
            continue
        _, pieces = words[numbers.pop()]
        noun = pieces[0]
        if len(pieces) != 2 or pieces[1] not in (*PARTICLE_FORMS, *PARTICLE_FORMS.values()) or noun in skipped:
            continue
        content = english_words(english)
        if noun in senses and content and not content & senses[noun]:
            wrong.append((noun, english))
    return wrong


def particles_against_the_rule(pair) -> list[str]:
    """Noun + particle words whose particle is not the form the noun's last syllable asks for."""
    senses = noun_senses()
    after_vowel = {vowel: consonant for consonant, vowel in PARTICLE_FORMS.items()}
    wrong = []
    for _, pieces in words_of(pair):
        if len(pieces) != 2 or pieces[0] not in senses:
            continue
        noun, particle = pieces
        kind = particle if particle in PARTICLE_FORMS else after_vowel.get(particle)
        if kind is not None and particle != particle_form(noun, kind):
            wrong.append(noun + particle)
    return wrong


def past_stems_against_the_rule(pair) -> list[str]:
    stems = regular_past_stems()
    return [pieces[0] for _, pieces in words_of(pair)
            if pieces[0] in stems and pieces[0] != past_stem(stems[pieces[0]])]


@pytest.mark.slow  # over 3 s (issue 49: `make test-fast` keeps the tests of a few seconds)
def test_every_construction_is_written_in_every_register_with_the_same_english():
    pairs = every_construction_in_every_register()
    assert {kind for kind, _, _ in pairs} == set(KINDS) and len(KINDS) > 90
    differing = {}
    for kind in KINDS:
        for draw in range(PER_KIND):
            english = {register: without_please(pairs[kind, draw, register].target) for register in REGISTERS}
            if kind not in REGISTER_CHOOSES and len(set(english.values())) > 1:
                differing[kind, draw] = {register: " ".join(words) for register, words in english.items()}
    assert differing == {}


def test_the_korean_of_each_register_differs_where_its_endings_do():
    """The register is not ignored: the plain and the polite sentence of most constructions differ."""
    pairs = every_construction_in_every_register()
    same = [kind for kind in KINDS if pairs[kind, 0, "plain"].source == pairs[kind, 0, "polite"].source]
    assert len(same) <= 0.1 * len(KINDS), same


def test_every_noun_is_written_as_one_of_its_lexicon_senses_in_every_construction():
    pairs = every_construction_in_every_register()
    wrong = {key: found for key, pair in pairs.items() if (found := nouns_written_otherwise(pair))}
    assert wrong == {}


@PROPERTY
@given(st.integers(0, 2**31))
def test_every_noun_is_written_as_one_of_its_lexicon_senses(seed):
    wrong = [(pair.source_text, pair.target_text, found) for pair in drawn(seed)
             if (found := nouns_written_otherwise(pair))]
    assert wrong == []


def test_particles_and_past_stems_follow_the_rules_in_every_construction():
    check_the_rules(every_construction_in_every_register().values())


@PROPERTY
@given(st.integers(0, 2**31))
def test_particles_and_past_stems_follow_the_rules(seed):
    check_the_rules(drawn(seed))


def check_the_rules(pairs) -> None:
    assert [(pair.source_text, found) for pair in pairs if (found := particles_against_the_rule(pair))] == []
    assert [(pair.source_text, found) for pair in pairs if (found := past_stems_against_the_rule(pair))] == []


def test_the_rules_written_here_are_the_rules():
    assert [particle_form(noun, kind) for noun, kind in
            [("학교", "이"), ("책", "이"), ("칼", "으로"), ("집", "으로"), ("사과", "을"), ("민수", "과")]] == \
        ["가", "이", "로", "으로", "를", "와"]
    stems = ["먹", "잡", "가", "보", "배우", "마시", "되", "쓰", "아프", "공부하", "보내"]
    assert [past_stem(stem) for stem in stems] == \
        ["먹었", "잡았", "갔", "봤", "배웠", "마셨", "됐", "썼", "아팠", "공부했", "보냈"]


@PROPERTY
@given(st.integers(0, 2**31))
def test_one_korean_sentence_has_one_translation(seed):
    translations: dict[str, set[str]] = defaultdict(set)
    for pair in [*drawn(seed, 2 * DRAWS), *every_construction_in_every_register().values()]:
        translations[pair.source_text].add(pair.target_text)
    assert {text: english for text, english in translations.items() if len(english) > 1} == {}


def test_every_job_noun_reaches_become():
    grammar = ko_en_grammar(3, GRAMMAR)
    jobs = {noun.ko for noun in lexicon().common_nouns if noun.ko in JOBS}
    reached = set()
    for _ in range(40 * len(jobs)):
        pair = grammar.sample(kind="become")
        reached |= {pieces[0] for _, pieces in words_of(pair) if pieces[0] in jobs}
    assert reached == jobs and len(jobs) >= 10


@PROPERTY
@given(st.integers(0, 2**31))
def test_the_recogniser_reads_the_grammars_own_sentences(seed):
    """No <unk> in any of them; a construction notice on at most 5 % of them, the bound the notice keeps on held-out
    sentences (the table holds the shape pairs of 400,000 sentences per stage, and a rare pair of a fresh draw can
    be missing: 6 of 3,000 sentences of seed 5 were noticed, 0.2 %)."""
    pairs = drawn(seed, 3 * DRAWS)
    assert all("<unk>" not in pair.source for pair in pairs)
    noticed = [pair.source_text for pair in pairs if outside_word_indices(pair.source, GRAMMAR)]
    assert len(noticed) <= 0.05 * len(pairs), noticed


@cache
def ko_en_tokenizer():
    return build_ko_en_tokenizer(grammar=GRAMMAR)


@PROPERTY
@given(st.integers(0, 2**31))
def test_every_pair_reads_back_through_the_tokenizer(seed):
    """Typing a pair's Korean gives exactly its pieces (the stream is cut as typed), every English word is in the
    vocabulary and every alignment points into the sentence."""
    tokenizer = ko_en_tokenizer()
    vocab = tokenizer.get_vocab()
    for pair in drawn(seed):
        assert_pair_reads_back(pair, tokenizer, vocab)
