"""What every grammar round on the everyday constructions keeps from the one before it (learner2 -> learner3 ->
learner4 -> learner5 -> learner6 -> learner7 -> learner8: every grammar of EXTENDED_GRAMMARS from learner2 on is a
round here):
the old token ids (so `train --init-from` continues a model), its new tokens sorted after them, and every pair it
generates typed back by its own tokenizer into exactly the pieces it trains on."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from itertools import pairwise
from pathlib import Path

import pytest

from transformer_core.data.ko_en import EXTENDED_GRAMMARS
from transformer_core.data.ko_en_everyday import generate_pairs
from transformer_core.data.ko_en_forms import grammar_lexicon
from transformer_core.data.tokenization import build_ko_en_tokenizer
from transformer_core.data.vocabulary import ko_en_vocabulary

ROUNDS = list(pairwise(EXTENDED_GRAMMARS[2:]))  # (learner2, learner3), (learner3, learner4), ...


def test_the_rounds_are_the_grammars_in_order():
    assert ROUNDS[0] == ("learner2", "learner3") and ROUNDS[-1][1] == EXTENDED_GRAMMARS[-1]


@pytest.mark.parametrize(("before", "after"), ROUNDS)
def test_a_round_keeps_the_ids_before_it_and_sorts_its_new_tokens_after_them(before, after):
    old, grown = ko_en_vocabulary(grammar=before), ko_en_vocabulary(grammar=after)
    assert grown[:len(old)] == old and len(grown) > len(old)
    assert grown[len(old):] == tuple(sorted(grown[len(old):]))
    old_ids = build_ko_en_tokenizer(grammar=before).get_vocab()
    grown_ids = build_ko_en_tokenizer(grammar=after).get_vocab()
    assert {token: grown_ids[token] for token in old_ids} == old_ids


@pytest.mark.parametrize("grammar", [after for _, after in ROUNDS])
def test_every_generated_pair_is_typed_back_into_the_pieces_it_trains_on(grammar):
    tokenizer, vocabulary = build_ko_en_tokenizer(grammar=grammar), set(ko_en_vocabulary(grammar=grammar))
    for pair in generate_pairs(2000, seed=13, grammar=grammar):
        assert set(pair.source) <= vocabulary and set(pair.target) <= vocabulary, pair.source_text
        assert len(pair.alignment) == len(pair.target)
        assert all(0 <= i < len(pair.source) for link in pair.alignment for i in link), pair.source_text
        ids = tokenizer(pair.source_text)["input_ids"][:-1]
        assert tokenizer.unk_token_id not in ids, pair.source_text
        assert tokenizer.convert_ids_to_tokens(ids) == list(pair.source), pair.source_text


# one construction each round's card notes name (its own words, written in data_notes)
ROUND_NOTES = {"learner3": "-(으)ㄹ 수 있다/없다 (can, cannot)", "learner4": "-기로 하다 (decided to V)",
               "learner5": "N하고 / N(이)랑 (지수하고 -> with Jisu)", "learner6": "배가 고파요 -> I am hungry",
               "learner7": "아이가 둘 있어요 -> I have two children",
               "learner8": "삼 년 동안 -> for 3 years",
               "learner9": "한 시간밖에 없어요 -> I have only one hour",
               "learner10": "의사가 되고 싶어요 -> I want to become a doctor"}


@pytest.mark.parametrize(("before", "after"), ROUNDS)
def test_the_environment_picks_a_rounds_grammar_for_one_training_run_and_its_card_says_what_it_continued_from(
        before, after):
    code = ("import json; from transformer_core.training.recipes import tokenizer_for;"
            "from transformer_core.training.model_card import grammar_field, data_notes;"
            "print(json.dumps([len(tokenizer_for('ko-en')), grammar_field('ko-en'), data_notes('ko-en')]))")
    env = {k: v for k, v in os.environ.items() if k != "TRANSFORMER_EXPLORER_TRAINING_GRAMMAR"}
    env["TRANSFORMER_EXPLORER_TRAINING_GRAMMAR"] = after
    run = subprocess.run([sys.executable, "-c", code], cwd=Path(__file__).resolve().parents[1], env=env,
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    size, field, notes = json.loads(run.stdout)
    assert size == len(ko_en_vocabulary(grammar=after)) + 4 and field == {"grammar": after}
    text = " ".join(notes.split())
    assert f"{grammar_lexicon(after).entries} Korean lexical entries" in text
    added = len(ko_en_vocabulary(grammar=after)) - len(ko_en_vocabulary(grammar=before))
    assert f"({added} tokens), so this model continued from the {before} model's weights" in text
    earlier = EXTENDED_GRAMMARS[EXTENDED_GRAMMARS.index(before) - 1]
    assert f"so the {before} model continued from the {earlier} model's weights" in text
    assert ROUND_NOTES.get(after, "") in text and after in ROUND_NOTES
