"""Grammar "learner2": the learner grammar over the second round of the learner lexicon (lexicon_learner2.json).
Its vocabulary grows the learner one at its end (a learner model's weights carry over); every generated pair reads
back through its tokenizer; the homonym rules hold for it too; grammar "learner", on which the bundled models
were trained and are evaluated, is exactly as it was on main."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.grammar_checks import assert_pair_reads_back, english_senses, stream_sha256, vocabulary_sha256
from transformer_core.data.ko_en_everyday import Learner2Grammar, LearnerGrammar, generate_pairs, ko_en_grammar
from transformer_core.data.ko_en_forms import everyday_lexicon, learner2_lexicon, learner_lexicon
from transformer_core.data.lexicon import Verb, load_additions
from transformer_core.data.tokenization import TRAINING_GRAMMAR, build_ko_en_tokenizer
from transformer_core.data.vocabulary import ko_en_vocabulary

REPO = Path(__file__).resolve().parents[1]
KINDS = [kind for kind in Learner2Grammar.KINDS if kind != "full"]
# Measured on main at f51bed8 (the commit whose ko-en-toy and ko-en-rnn-attention were trained on grammar
# "learner"): sha256 of json.dumps([[source, target, alignment] ...], ensure_ascii=False) of
# generate_pairs(300, seed=4, grammar="learner"), and of the learner vocabulary joined by newlines.
LEARNER_STREAM_SHA256 = "a725164f189176bf493173efaf1ba1655668387fff5d0b82924eb6c9de80a268"
LEARNER_VOCABULARY_SHA256 = "d025823682cb5ce5b3e72e2c2747731a362edcdbdf61839c894901e54717aff3"
LEARNER_VOCABULARY_SIZE = 9237  # 9,241 with the special tokens: the learner model's embedding rows


@pytest.fixture(scope="module")
def tokenizer():
    return build_ko_en_tokenizer(grammar="learner2")


# --- grammar "learner" is untouched ------------------------------------------------------------------------------

def test_the_learner_stream_and_vocabulary_are_those_the_bundled_models_learned():
    assert stream_sha256("learner", n=300) == LEARNER_STREAM_SHA256
    vocabulary = ko_en_vocabulary(grammar="learner")
    assert len(vocabulary) == LEARNER_VOCABULARY_SIZE
    assert vocabulary_sha256(vocabulary) == LEARNER_VOCABULARY_SHA256


def test_the_learner_grammar_reads_no_entry_of_the_second_round():
    learner = learner_lexicon()
    assert learner == load_additions("full", "everyday", "learner") and learner.entries == 2438
    raw = json.loads((REPO / "transformer_core/data/lexicon_learner2.json").read_text(encoding="utf-8"))
    second = {(row["ko"], row["en"]) for row in raw["common_nouns"] + raw["places"]}
    assert len(second) == 643 and not second & {(n.ko, n.en) for n in learner.common_nouns + learner.places}
    assert type(ko_en_grammar(0, "learner")) is LearnerGrammar and type(ko_en_grammar(0, "learner2")) is Learner2Grammar


# --- the lexicon and the vocabulary ------------------------------------------------------------------------------

def test_the_second_round_adds_a_thousand_entries_on_top_of_the_learner_lexicon():
    raw = json.loads((REPO / "transformer_core/data/lexicon_learner2.json").read_text(encoding="utf-8"))
    counts = {field: len(rows) for field, rows in raw.items() if not field.startswith("_")}
    assert sum(counts.values()) == 1000
    learner, learner2 = learner_lexicon(), learner2_lexicon()
    assert learner2.entries == learner.entries + 1000
    for field in ("common_nouns", "places", "transitive", "intransitive", "motion", "adjectives", "time_words",
                  "degree_adverbs", "manner_adverbs"):
        assert getattr(learner2, field)[:len(getattr(learner, field))] == getattr(learner, field), field
        assert len(getattr(learner2, field)) == len(getattr(learner, field)) + counts[field], field


def test_the_learner2_vocabulary_keeps_the_learner_ids_and_holds_every_generated_token():
    learner, learner2 = ko_en_vocabulary(grammar="learner"), ko_en_vocabulary(grammar="learner2")
    assert learner2[:len(learner)] == learner and len(learner2) > len(learner) + 2000
    assert learner2[len(learner):] == tuple(sorted(learner2[len(learner):]))
    vocabulary = set(learner2)
    for pair in generate_pairs(2000, seed=13, grammar="learner2"):
        assert set(pair.source) <= vocabulary and set(pair.target) <= vocabulary, pair.source_text


def test_the_learner2_tokenizer_gives_the_learner_tokens_their_bundled_ids(tokenizer):
    learner = build_ko_en_tokenizer(grammar="learner").get_vocab()
    grown = tokenizer.get_vocab()
    assert {token: grown[token] for token in learner} == learner
    assert sorted(grown.values()) == list(range(len(grown)))


# --- the grammar: pieces, alignments, new words ------------------------------------------------------------------

@pytest.mark.parametrize("kind", KINDS)
def test_every_construction_writes_pieces_the_learner2_tokenizer_reads_back(kind, tokenizer):
    grammar = Learner2Grammar(3)
    vocab = tokenizer.get_vocab()
    for register in ("plain", "polite", "formal", "banmal") * 10:
        pair = grammar.sample(register, kind=kind)
        assert_pair_reads_back(pair, tokenizer, vocab)


def test_sampled_learner2_sentences_are_read_back_exactly_and_use_the_second_rounds_words(tokenizer):
    learner = learner_lexicon()
    new_stems = {v.stem for v in learner2_lexicon().verbs} - {v.stem for v in learner.verbs}
    new_nouns = {n.ko for n in learner2_lexicon().common_nouns} - {n.ko for n in learner.common_nouns}
    pairs = generate_pairs(1500, seed=21, grammar="learner2")
    for pair in pairs:
        ids = tokenizer(pair.source_text)["input_ids"][:-1]
        assert tokenizer.convert_ids_to_tokens(ids) == list(pair.source), pair.source_text
    pieces = {piece.removeprefix("##") for pair in pairs for piece in pair.source}
    assert len(new_stems & pieces) > 20 and len(new_nouns & pieces) > 50


# --- homonyms: the learner grammar's rules hold for learner2 -----------------------------------------------------

def _homonym_stems(grammar: LearnerGrammar) -> dict[str, list[Verb]]:
    senses: dict[str, list[Verb]] = {}
    for verb in grammar.lexicon.transitive:
        senses.setdefault(verb.stem, []).append(verb)
    return {stem: verbs for stem, verbs in senses.items() if len({v.en_base for v in verbs}) > 1}


def test_the_second_round_adds_no_korean_word_with_a_second_english_sense():
    """A new homonym would need its own sense in 뭐 questions (WHAT_QUESTION_SENSES); the round added none."""
    senses = english_senses

    before, after = senses(learner_lexicon()), senses(learner2_lexicon())
    grown = {word: meanings for word, meanings in after.items() if len(meanings) > 1 and before.get(word) != meanings}
    assert grown == {}
    assert set(_homonym_stems(Learner2Grammar(0))) == set(_homonym_stems(LearnerGrammar(0))) >= {"먹", "보", "하"}


def test_a_what_question_of_learner2_reads_a_homonym_verb_in_one_sense():
    grammar = Learner2Grammar(5)
    verbs_of: dict[str, set[str]] = {}
    for _ in range(6000):
        pair = grammar._verb_sentence("transitive", "past", False, True, "polite", "what")
        predicate = len(pair.source_words) - 2  # the verb word before "?"
        english = " ".join(word for word, links in zip(pair.target, pair.word_alignment, strict=True)
                           if predicate in links and word != "did")
        verbs_of.setdefault(pair.source_words[predicate], set()).add(english)
    ambiguous = {word: verbs for word, verbs in verbs_of.items() if len(verbs) > 1}
    assert not ambiguous, ambiguous
    assert verbs_of.get("먹었어요") == {"eat"} and verbs_of.get("했어요") == {"do"}


def test_an_object_noun_of_learner2_takes_one_sense_of_a_homonym_verb():
    grammar = Learner2Grammar(0)
    for stem, senses in _homonym_stems(grammar).items():
        seen: dict[str, str] = {}
        for sense in senses:
            for noun in grammar._object_nouns(sense):
                assert seen.setdefault(noun.ko, sense.en_base) == sense.en_base, (stem, noun.ko)
    take = next(v for v in grammar.lexicon.transitive if (v.stem, v.en_base) == ("보", "take"))
    see = next(v for v in grammar.lexicon.transitive if (v.stem, v.en_base) == ("보", "see"))
    assert "시험" in {n.ko for n in grammar._object_nouns(take)}
    assert "시험" not in {n.ko for n in grammar._object_nouns(see)}


# --- choosing the grammar of one training run --------------------------------------------------------------------

def _run(code: str, grammar: str | None) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "TRANSFORMER_EXPLORER_TRAINING_GRAMMAR"}
    if grammar is not None:
        env["TRANSFORMER_EXPLORER_TRAINING_GRAMMAR"] = grammar
    return subprocess.run([sys.executable, "-c", code], cwd=REPO, env=env, capture_output=True, text=True,
                          timeout=600)


def test_the_environment_picks_the_grammar_of_one_training_run():
    """TRANSFORMER_EXPLORER_TRAINING_GRAMMAR=learner2: the ko-en recipe's tokenizer, stream, config.json field and
    card are learner2's; unset: learner's; a name that is no grammar: a clear error."""
    code = ("import json; from transformer_core.training.recipes import tokenizer_for;"
            "from transformer_core.training.model_card import grammar_field, data_notes;"
            "from transformer_core.tasks import task_named;"
            "from transformer_core.training.cli import command_line;"
            "pair = task_named('ko-en').held_out_pairs(1, seed=5)[0];"
            "print(json.dumps([len(tokenizer_for('ko-en')), grammar_field('ko-en'), pair.source_text,"
            " 'config.json \"grammar\": \"learner2\"' in data_notes('ko-en'),"
            " command_line('ko-en', ['--task', 'ko-en', '--out', 'o']),"
            " command_line('reverse', ['--task', 'reverse'])]))")
    grown = _run(code, "learner2")
    assert grown.returncode == 0, grown.stderr
    size, field, sentence, card, command, other = json.loads(grown.stdout)
    assert size == len(ko_en_vocabulary(grammar="learner2")) + 4 and field == {"grammar": "learner2"} and card
    assert sentence in {p.source_text for p in Learner2Grammar(5).samples(2000)}
    # the card's command line reproduces the run: the variable in front (ko-en only)
    assert command == ("TRANSFORMER_EXPLORER_TRAINING_GRAMMAR=learner2 "
                       "python -m transformer_core train --task ko-en --out o")
    assert other == "python -m transformer_core train --task reverse"
    default = _run(code, None)
    assert default.returncode == 0, default.stderr
    size, field, _, _, command, _ = json.loads(default.stdout)
    assert [size, field] == [len(ko_en_vocabulary(grammar=TRAINING_GRAMMAR)) + 4, {"grammar": TRAINING_GRAMMAR}]
    assert command == "python -m transformer_core train --task ko-en --out o"
    wrong = _run(code, "no-such-grammar")  # not a next round's name: learner9 became a grammar
    assert wrong.returncode != 0
    assert "TRANSFORMER_EXPLORER_TRAINING_GRAMMAR='no-such-grammar' names no grammar" in wrong.stderr


def test_the_model_card_of_a_learner2_model_counts_its_lexicon_and_says_where_it_continued_from():
    code = ("from transformer_core.training.model_card import data_notes; print(data_notes('ko-en'))")
    notes = _run(code, "learner2")
    assert notes.returncode == 0, notes.stderr
    lexicon = learner2_lexicon()
    assert f"{lexicon.entries} Korean lexical entries" in notes.stdout
    added = len(ko_en_vocabulary(grammar="learner2")) - len(ko_en_vocabulary(grammar="learner"))
    assert f"({added} tokens), so\nthis model continued from the learner model's weights" in notes.stdout
    assert "so the learner model continued from the everyday model's weights" in notes.stdout
    assert everyday_lexicon().entries < learner_lexicon().entries < lexicon.entries
