"""benchmarks/translator_goals.py: issue 27's goals for a candidate translator measured in one run. The goal checks
against the issue's numbers written here, the notice's held-out rate against translation_report called here, and
its main on the bundled model with a three-sentence file (coverage recomputed here from the outputs)."""

from __future__ import annotations

import importlib.util
import json
import sys
from dataclasses import replace
from pathlib import Path

import pytest

import transformer_core
from transformer_core.inference.report import translation_report
from transformer_core.tasks import model_task

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "benchmarks" / "translator_goals.py"
THREE = ("topic\tlevel\tkorean\tenglish\tcontent\n"
         "food\thaera\t고양이가 생선을 먹었다.\tThe cat ate fish.\tcat ; fish|fishes\n"
         "school\thaeyo\t학교에 가요.\tI go to school.\tschool ; go|goes\n"
         "food\thaeyo\t피자를 먹고 싶어요.\tI want to eat pizza.\tpizza ; want\n")


@pytest.fixture(scope="module")
def goals():
    spec = importlib.util.spec_from_file_location("translator_goals", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    yield module
    sys.modules.pop(spec.name, None)


def figures(exact=0.96, alignment=0.9, fire=0.04, coverage=0.75, recall=0.8, weights=30.0) -> dict:
    notice = {"recall": recall, "wrong_unflagged": 3}
    return {"model": "m", "grammar": "learner8", "calibrated": True, "exact_match": exact,
            "alignment_accuracy": alignment, "held_out_notice": {"n": 100, "fired": round(100 * fire), "rate": fire},
            "benchmarks": {"everyday": {"n": 4, "covered": 3, "coverage": coverage, "notice": notice},
                           "fresh": {"n": 4, "covered": 3, "coverage": coverage, "notice": notice}},
            "weights_mb": weights}


def test_goals_are_the_issues_numbers_with_their_bounds_included(goals):
    assert all(goals.goals_met(figures()).values())  # 75 % and 80 % are met, 5 % and 50 MB are allowed
    assert goals.goals_met(figures(fire=0.05, weights=50.0))["held_out_fire"]
    missed = goals.goals_met(figures(exact=0.949, alignment=0.849, fire=0.051, coverage=0.749, recall=0.799,
                                     weights=50.1))
    assert missed == {"exact_match": False, "alignment_accuracy": False, "held_out_fire": False, "coverage": False,
                      "notice_recall": False, "weights_mb": False}
    assert goals.goals_met(figures(recall=None))["notice_recall"] is None  # no notice: not a pass


def test_the_table_names_what_each_model_misses(goals):
    table = goals.format_table([figures(), figures(coverage=0.566) | {"model": "bundled"}])
    assert "m: every goal met" in table
    assert "bundled: not met: coverage" in table
    assert "3/4 75.0 %" in table


@pytest.mark.slow  # over 3 s (issue 49: `make test-fast` keeps the tests of a few seconds)
def test_the_held_out_rate_counts_the_notice_of_the_seed_99_sentences(goals):
    # a threshold most sentences fall below, so the count is not 0 = 0 (the bundled notice fires on ~2 %)
    bundled = replace(transformer_core.load("ko-en-toy"), notice_min_lead=30.0)
    counts = goals.held_out_fire_rate(bundled, 12, translation_report)
    reports = [translation_report(bundled, pair.source_text) for pair in model_task(bundled).held_out_pairs(12, 99)]
    assert counts["fired"] == sum(bool(r["outside_training"]) for r in reports)
    assert counts["lost_words"] == sum(bool(r["lost_words"]) for r in reports)
    assert counts["rate"] == counts["fired"] / 12 and 0 < counts["fired"] <= 12
    assert counts["low_confidence"] == sum(bool(r["low_confidence"]) for r in reports)


@pytest.mark.slow  # over 3 s (issue 49: `make test-fast` keeps the tests of a few seconds)
def test_main_measures_a_model_on_the_benchmark_files(goals, tmp_path, monkeypatch, capsys):
    data = tmp_path / "three.tsv"
    data.write_text(THREE, encoding="utf-8")
    monkeypatch.setattr(goals, "DATA_FILES", {"everyday": data, "fresh": data})
    assert goals.main(["--model", "ko-en-toy", "--against", "", "--eval-n", "8", "--held-out", "4", "--json"]) == 0
    [measured] = json.loads(capsys.readouterr().out)
    bundled = transformer_core.load("ko-en-toy")
    outputs = [translation_report(bundled, line.split("\t")[2])["output_text"].lower()
               for line in THREE.splitlines()[1:]]
    wanted = [[slot.split("|") for slot in line.split("\t")[4].split(" ; ")] for line in THREE.splitlines()[1:]]
    covered = sum(all(any(f" {v} " in f" {o.rstrip('.?!')} " for v in slot) for slot in slots)
                  for o, slots in zip(outputs, wanted, strict=True))
    assert measured["benchmarks"]["everyday"]["covered"] == covered
    assert measured["held_out_notice"]["n"] == 4 and measured["grammar"] == bundled.grammar
    assert measured["weights_mb"] == pytest.approx((ROOT / "models" / "ko-en-toy" / "model.safetensors").stat().st_size
                                                   / 1e6)


def test_main_says_which_model_it_cannot_load(goals, capsys):
    assert goals.main(["--model", "no-such-model", "--against", ""]) == 2
    assert "no-such-model" in capsys.readouterr().err
