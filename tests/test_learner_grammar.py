"""Issue 27: the learner grammar (the everyday constructions over a learner's core vocabulary,
lexicon_learner.json). Irregular conjugation by rule, checked against forms written out here; every entry
conjugates; every generated pair reads back through the tokenizer with a valid gold alignment; the vocabulary
keeps the everyday grammar's ids; the everyday grammar's stream is not touched."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.grammar_checks import assert_pair_reads_back
from transformer_core.data import hangul
from transformer_core.data.ko_en import REGISTERS, TENSES, verb_pieces
from transformer_core.data.ko_en_everyday import EverydayGrammar, LearnerGrammar, generate_pairs, ko_en_grammar
from transformer_core.data.ko_en_forms import (
    eu_class,
    everyday_lexicon,
    honorific_words,
    learner_lexicon,
    myeonseo_word,
    nikka_word,
    present_participle,
    takes_eu_endings,
)
from transformer_core.data.lexicon import Verb
from transformer_core.data.tokenization import build_ko_en_tokenizer
from transformer_core.data.vocabulary import ko_en_vocabulary

KINDS = [kind for kind in LearnerGrammar.KINDS if kind != "full"]


@pytest.fixture(scope="module")
def tokenizer():
    return build_ko_en_tokenizer(grammar="learner")


# --- irregular classes: the rules against forms a Korean textbook writes out ---------------------------------

@pytest.mark.parametrize(("stem", "irregular", "past", "attributive", "future"), [
    ("춥", "ㅂ", "추웠", "추운", "추울"),            # ㅂ: 춥다 -> 추워요
    ("돕", "ㅂ", "도왔", "", "도울"),                # ㅂ with ㅗ: 도와요
    ("입", "", "입었", "", "입을"),                  # regular ㅂ: 입어요
    ("걷", "ㄷ", "걸었", "", "걸을"),                # ㄷ: 걸어요
    ("닫", "", "닫았", "", "닫을"),                  # regular ㄷ: 닫아요
    ("짓", "ㅅ", "지었", "", "지을"),                # ㅅ: 지어요
    ("씻", "", "씻었", "", "씻을"),                  # regular ㅅ: 씻어요
    ("모르", "르", "몰랐", "", "모를"),              # 르: 몰라요
    ("다르", "르", "달랐", "다른", "다를"),
    ("빨갛", "ㅎ", "빨갰", "빨간", "빨갈"),          # ㅎ: 빨개요
    ("하얗", "ㅎ", "하얬", "하얀", "하얄"),
    ("좋", "", "좋았", "좋은", "좋을"),              # regular ㅎ: 좋아요
    ("푸르", "러", "푸르렀", "푸른", "푸를"),        # 러: 푸르러요
    ("푸", "우", "펐", "", "풀"),                    # 우: 퍼요
    ("바쁘", "", "바빴", "바쁜", "바쁠"),            # 으 drops: 바빠요
    ("쓰", "", "썼", "", "쓸"),
    ("예쁘", "", "예뻤", "예쁜", "예쁠"),
    ("공부하", "", "공부했", "", "공부할"),          # 하다: 공부해요
    ("만들", "", "만들었", "", "만들"),              # ㄹ: 만들어요, 만들 거예요
    ("길", "", "길었", "긴", "길"),
])
def test_irregular_classes_conjugate_as_written_out(stem, irregular, past, attributive, future):
    assert hangul.past_stem(stem, irregular) == past
    if irregular in ("ㅂ", "ㄷ", "ㅎ", "ㅅ"):
        assert hangul.future_form(stem, irregular) == future
    else:
        assert hangul.future_adnominal(stem) == future
    if attributive:
        assert hangul.attributive_form(stem, irregular) == attributive


@pytest.mark.parametrize(("stem", "irregular", "nikka", "myeonseo", "polite_honorific"), [
    ("듣", "ㄷ", "들으니까", "들으면서", "들으세요"),
    ("걷", "ㄷ", "걸으니까", "걸으면서", "걸으세요"),
    ("돕", "ㅂ", "도우니까", "도우면서", "도우세요"),
    ("눕", "ㅂ", "누우니까", "누우면서", "누우세요"),
    ("짓", "ㅅ", "지으니까", "지으면서", "지으세요"),
    ("낫", "ㅅ", "나으니까", "나으면서", "나으세요"),
    ("부르", "르", "부르니까", "부르면서", "부르세요"),
    ("읽", "", "읽으니까", "읽으면서", "읽으세요"),
    ("만들", "", "만드니까", "만들면서", "만드세요"),
])
def test_eu_endings_of_irregular_stems_are_written_by_rule(stem, irregular, nikka, myeonseo, polite_honorific):
    assert "".join(nikka_word(stem, hangul.past_stem(stem, irregular), "present", irregular)) == nikka
    assert "".join(myeonseo_word(stem, irregular)) == myeonseo
    assert "".join(honorific_words(stem, "present", False, "polite", irregular)[0]) == polite_honorific


def test_h_irregular_adjectives_drop_their_h_before_eu_endings():
    assert "".join(nikka_word("노랗", "노랬", "present", "ㅎ")) == "노라니까"
    assert "".join(nikka_word("춥", "추웠", "present", "ㅂ")) == "추우니까"
    assert "".join(nikka_word("춥", "추웠", "past", "ㅂ")) == "추웠으니까"


# --- the lexicon: every entry conjugates, tags that meet ------------------------------------------------------

def test_the_learner_lexicon_reaches_a_learners_core_vocabulary():
    lexicon = learner_lexicon()
    assert lexicon.entries > 2000
    assert len(lexicon.transitive) >= 250
    assert len(lexicon.intransitive) + len(lexicon.motion) >= 120
    assert len(lexicon.adjectives) >= 200
    everyday = everyday_lexicon()
    assert all(entry in getattr(lexicon, field) for field in ("common_nouns", "places", "transitive", "adjectives",
                                                              "time_words") for entry in getattr(everyday, field))


def test_every_learner_entry_conjugates_by_the_rules_of_its_class():
    everyday = everyday_lexicon()
    verbs = [v for v in learner_lexicon().verbs if v not in everyday.verbs]
    adjectives = [a for a in learner_lexicon().adjectives if a not in everyday.adjectives]
    assert len(verbs) > 200 and len(adjectives) > 100
    for verb in verbs:
        assert hangul.past_stem(verb.stem, verb.irregular) == verb.past_stem, verb
        if verb.irregular in ("ㅂ", "ㄷ", "ㅎ", "ㅅ"):
            assert hangul.future_form(verb.stem, verb.irregular) == verb.future_stem, verb
        for tense in TENSES:
            for register in REGISTERS:
                words, lexical, tense_index = verb_pieces(verb, tense, False, False, register)
                assert all(piece for word in words for piece in word), (verb, tense, register)
                assert 0 <= lexical <= tense_index < len(words), (verb, tense, register)
        assert verb.en_past and present_participle(verb.en_base).split()[0].endswith("ing")
    for adjective in adjectives:
        assert hangul.past_stem(adjective.stem, adjective.irregular) == adjective.past_stem, adjective
        assert hangul.attributive_form(adjective.stem, adjective.irregular) == adjective.attributive, adjective


def test_every_verb_and_adjective_finds_nouns_it_fits():
    """A verb's object tags and an adjective's tags meet some noun's tags, so the grammar can draw a pair."""
    lexicon = learner_lexicon()
    tags = set().union(*(noun.tags for noun in lexicon.common_nouns + lexicon.places))
    assert all(verb.objects & tags for verb in lexicon.transitive), [
        v.stem for v in lexicon.transitive if not v.objects & tags]
    assert all(adjective.applies_to & tags for adjective in lexicon.adjectives)
    person_verbs = [v for v in lexicon.verbs if "person" in v.subjects]
    assert len(person_verbs) > 350


def test_english_forms_of_new_verbs_are_data_where_irregular():
    by_base = {(v.stem, v.en_base): v for v in learner_lexicon().verbs}
    assert by_base[("운전하", "drive")].en_past == "drove"
    assert by_base[("깨우", "wake up")].en_past == "woke up"
    assert by_base[("늦잠자", "oversleep")].en_past == "overslept"
    assert present_participle("quit") == "quitting"


# --- the grammar: pieces, alignments, streams ---------------------------------------------------------------

@pytest.mark.parametrize("kind", KINDS)
def test_every_construction_writes_pieces_the_learner_tokenizer_reads_back(kind, tokenizer):
    grammar = LearnerGrammar(3)
    vocab = tokenizer.get_vocab()
    for register in ("plain", "polite", "formal", "banmal") * 10:
        pair = grammar.sample(register, kind=kind)
        assert_pair_reads_back(pair, tokenizer, vocab)
        assert sum(bool(link) for link in pair.alignment) >= len(pair.target) // 2  # most words are aligned


def test_sampled_learner_sentences_are_read_back_exactly_and_use_the_new_words(tokenizer):
    learner_only = {v.stem for v in learner_lexicon().verbs} - {v.stem for v in everyday_lexicon().verbs}
    pairs = generate_pairs(1500, seed=21, grammar="learner")
    for pair in pairs:
        ids = tokenizer(pair.source_text)["input_ids"][:-1]
        assert tokenizer.convert_ids_to_tokens(ids) == list(pair.source), pair.source_text
    pieces = {piece.removeprefix("##") for pair in pairs for piece in pair.source}
    assert len(learner_only & pieces) > 20  # new stems appear (whole stems as pieces: 외우, 끄, 깨우 ...)


def test_irregular_stems_reach_the_eu_constructions_in_the_learner_grammar_only():
    flagged = next(v for v in learner_lexicon().verbs if v.irregular == "ㅅ" and "person" in v.subjects)
    assert takes_eu_endings(flagged, "learner") and not takes_eu_endings(flagged, "everyday")
    # the core's hand-written irregular stems carry no flag: the learner grammar reads their class off the past stem
    by_stem = {v.stem: v for v in learner_lexicon().verbs + learner_lexicon().adjectives}
    assert [eu_class(by_stem[s], "learner") for s in ("듣", "걷", "돕", "굽", "쉽", "노랗", "먹", "자르")] == [
        "ㄷ", "ㄷ", "ㅂ", "ㅂ", "ㅂ", "ㅎ", "", "르"]
    assert eu_class(by_stem["듣"], "everyday") == ""  # the everyday grammar keeps its stream (and its 듣으세요)
    regular = next(v for v in learner_lexicon().verbs if not v.irregular and v.stem)
    assert takes_eu_endings(regular, "learner") and takes_eu_endings(regular, "everyday")
    seen = {word for pair in generate_pairs(3000, seed=9, grammar="learner")
            for word in ("".join(pair.source[i:i + 2]).replace("##", "") for i in range(len(pair.source) - 1))}
    assert seen & {"들으세요", "걸으세요", "도우세요", "누우세요", "들으면서", "걸으면서", "들으니까", "걸으니까",
                   "도우니까", "도우면서", "지으세요", "나으니까", "들으셨어요", "걸으셨어요", "도우셨어요"}


def test_the_learner_vocabulary_keeps_the_everyday_ids_and_holds_every_generated_token():
    everyday, learner = ko_en_vocabulary(grammar="everyday"), ko_en_vocabulary(grammar="learner")
    assert learner[:len(everyday)] == everyday and len(learner) > len(everyday) + 2000
    assert learner[len(everyday):] == tuple(sorted(learner[len(everyday):]))
    vocabulary = set(learner)
    for pair in generate_pairs(2000, seed=13, grammar="learner"):
        assert set(pair.source) <= vocabulary and set(pair.target) <= vocabulary


def test_the_learner_grammar_and_the_everyday_one_keep_their_own_streams():
    assert type(ko_en_grammar(0, "learner")) is LearnerGrammar and type(ko_en_grammar(0, "everyday")) is EverydayGrammar
    learner, everyday = generate_pairs(200, seed=4, grammar="learner"), generate_pairs(200, seed=4, grammar="everyday")
    assert [p.source_text for p in learner] != [p.source_text for p in everyday]
    # the everyday grammar draws only from its own lexicon (the model trained on it evaluates on what it learned)
    known = set(ko_en_vocabulary(grammar="everyday"))
    assert all(set(p.source) <= known and set(p.target) <= known for p in everyday)
    assert isinstance(LearnerGrammar(0).lexicon.transitive[0], Verb)


def test_the_model_card_of_a_learner_model_counts_its_own_lexicon_and_vocabulary():
    # the task registry reads the training grammar once, at import: a process of its own trains on "learner"
    env = {**os.environ, "TRANSFORMER_EXPLORER_TRAINING_GRAMMAR": "learner"}
    code = "from transformer_core.training.model_card import data_notes; print(data_notes('ko-en'))"
    run = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    notes = run.stdout
    lexicon = learner_lexicon()
    assert f"{lexicon.entries} Korean lexical entries" in notes and f"{len(lexicon.adjectives)} adjectives" in notes
    added = len(ko_en_vocabulary(grammar="learner")) - len(ko_en_vocabulary(grammar="everyday"))
    assert 'Learner grammar (config.json "grammar": "learner")' in notes and f"({added} tokens)" in notes
    assert "so the everyday model continued from the full grammar's weights" in notes


# --- homonyms: one Korean sentence, one English translation ---------------------------------------------------

def _homonym_stems(grammar: LearnerGrammar) -> dict[str, list[Verb]]:
    senses: dict[str, list[Verb]] = {}
    for verb in grammar.lexicon.transitive:
        senses.setdefault(verb.stem, []).append(verb)
    return {stem: verbs for stem, verbs in senses.items() if len({v.en_base for v in verbs}) > 1}


def test_the_learner_lexicon_has_verbs_with_two_english_senses():
    """The premise of the two tests below (먹다: eat food, take medicine; 쓰다: write, wear; 부르다: call, sing)."""
    stems = _homonym_stems(LearnerGrammar(0))
    assert {"먹", "쓰", "부르", "보", "하"} <= set(stems)
    assert {v.en_base for v in stems["먹"]} == {"eat", "take"}


def test_a_what_question_reads_a_homonym_verb_in_one_sense():
    """뭐 먹었어? has no object to tell eat from take: the grammar must ask it in one sense only, or the model
    learns to pick either (it said 'What did Minsu take yesterday?')."""
    grammar = LearnerGrammar(5)
    verbs_of: dict[str, set[str]] = {}
    for _ in range(6000):
        pair = grammar._verb_sentence("transitive", "past", False, True, "polite", "what")
        predicate = len(pair.source_words) - 2  # the verb word before "?": 먹었어요, 했어요
        english = " ".join(word for word, links in zip(pair.target, pair.word_alignment, strict=True)
                           if predicate in links and word != "did")  # What DID Minsu EAT ...: the verb
        verbs_of.setdefault(pair.source_words[predicate], set()).add(english)
    ambiguous = {word: verbs for word, verbs in verbs_of.items() if len(verbs) > 1}
    assert not ambiguous, ambiguous
    assert verbs_of.get("먹었어요") == {"eat"} and verbs_of.get("했어요") == {"do"}
    assert verbs_of.get("불렀어요") == {"sing"}


def test_an_object_noun_takes_one_sense_of_a_homonym_verb():
    """시험을 봤다 is 'took an exam', never 'saw an exam': the objects of a stem's senses do not overlap."""
    grammar = LearnerGrammar(0)
    for stem, senses in _homonym_stems(grammar).items():
        seen: dict[str, str] = {}
        for sense in senses:
            for noun in grammar._object_nouns(sense):
                assert seen.setdefault(noun.ko, sense.en_base) == sense.en_base, (stem, noun.ko)
    see = next(v for v in grammar.lexicon.transitive if (v.stem, v.en_base) == ("보", "see"))
    take = next(v for v in grammar.lexicon.transitive if (v.stem, v.en_base) == ("보", "take"))
    assert "시험" in {n.ko for n in grammar._object_nouns(take)}
    seen_objects = {n.ko for n in grammar._object_nouns(see)}
    assert "시험" not in seen_objects and "영화" in seen_objects
