"""benchmarks/everyday.py: the hand-written sentence file's shape, the content-word matcher, and its main on a
three-sentence file with the tiny model (coverage recomputed here from the outputs, not read from the summary)."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

import pytest

import transformer_core
from tests.conftest import TINY_WORDS

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "benchmarks" / "everyday.py"
DATA = ROOT / "benchmarks" / "data" / "everyday_ko_en.tsv"
# The second, fresh set: written on 2026-11-26 by someone never shown the grammar, the lexicon or DATA, to check
# that DATA's figure predicts new sentences (docs/models.md). (file, the fewest rows it holds)
DATA_FILES = [(DATA, 200), (ROOT / "benchmarks" / "data" / "everyday_fresh_ko_en.tsv", 130)]


@pytest.fixture(scope="module")
def everyday():
    spec = importlib.util.spec_from_file_location("everyday_benchmark", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    yield module
    sys.modules.pop(spec.name, None)


def data_rows(path: Path = DATA) -> list[list[str]]:
    """The file's rows read here with plain string splitting (not the script's parser), header dropped."""
    lines = [line for line in path.read_text(encoding="utf-8").splitlines()
             if line.strip() and not line.startswith("#")]
    assert lines[0].split("\t") == ["topic", "level", "korean", "english", "content"]
    return [line.split("\t") for line in lines[1:]]


@pytest.mark.parametrize(("path", "fewest"), DATA_FILES)
def test_data_file_has_distinct_korean_sentences_each_with_a_content_word(path, fewest):
    rows = data_rows(path)
    assert len(rows) >= fewest
    assert all(len(row) == 5 for row in rows)
    korean = [row[2] for row in rows]
    assert len(set(korean)) == len(korean), "duplicate sentences"
    assert all(re.search(r"[\uac00-\ud7a3]", text) for text in korean)
    for row in rows:
        slots = [slot for slot in row[4].split(";") if any(v.strip() for v in slot.split("|"))]
        assert slots, f"no content word for {row[2]}"
        assert row[4] == row[4].lower(), f"content words must be lower-case: {row[4]}"
    assert {row[1] for row in rows} == {"haeyo", "hamnida", "hae", "haera"}


def test_data_file_does_not_reuse_the_test_suites_everyday_sentences():
    """tests/data/everyday_korean.txt measures the grammar's coverage, so the grammar is tuned on it; the benchmark
    must stay outside that loop."""
    suite = {line.strip() for line in (ROOT / "tests" / "data" / "everyday_korean.txt").read_text(encoding="utf-8")
             .splitlines()}
    assert not suite & {row[2] for path, _ in DATA_FILES for row in data_rows(path)}


def test_the_fresh_set_shares_no_sentence_with_the_benchmark():
    (main, _), (fresh, _) = DATA_FILES
    assert not {row[2] for row in data_rows(main)} & {row[2] for row in data_rows(fresh)}


@pytest.mark.parametrize(("path", "fewest"), DATA_FILES)
def test_script_parser_reads_every_row_of_the_data_file(everyday, path, fewest):
    sentences = everyday.load_sentences(path)
    assert len(sentences) == len(data_rows(path)) >= fewest
    first = data_rows(path)[0]
    assert sentences[0].korean == first[2]
    assert sentences[0].content == " ; ".join("|".join(v.strip() for v in slot.split("|")) for slot in
                                              first[4].split(";"))


def test_matcher_needs_every_slot_as_whole_words(everyday):
    slots = everyday.parse_slots("eat|ate ; lunch")
    assert slots == (("eat", "ate"), ("lunch",))
    assert everyday.missing_slots("I ate lunch together.", slots) == []
    assert everyday.missing_slots("I ate a launch.", slots) == ["lunch"]
    assert everyday.missing_slots("We had dinner.", slots) == ["eat|ate", "lunch"]
    assert not everyday.carries("The scat was there.", "cat")
    assert not everyday.carries("Cats sleep.", "cat")
    assert everyday.carries("The CAT sleeps.", "cat")
    assert everyday.carries("My mom's car.", "mom")


def test_matcher_reads_several_words_numbers_and_negative_contractions(everyday):
    assert everyday.carries("I like ice cream.", "ice cream")
    assert not everyday.carries("I like ice and cream.", "ice cream")
    assert everyday.carries("I am twenty-five years old.", "twenty five")
    assert everyday.carries("It costs 10,000 won.", "10,000")
    assert not everyday.carries("It costs 10,000 won.", "10")  # 10,000 is one number
    for sentence in ("I didn't go.", "I can't swim.", "I cannot swim.", "I won't go.", "I don\u2019t know."):
        assert everyday.carries(sentence, "not"), sentence
    assert not everyday.carries("I know nothing.", "not")


def test_malformed_rows_are_named_with_their_line(everyday, tmp_path):
    bad = tmp_path / "bad.tsv"
    bad.write_text("topic\tlevel\tkorean\tenglish\tcontent\nfood\thaeyo\t배고파요.\tI'm hungry.\t ; \n",
                   encoding="utf-8")
    with pytest.raises(ValueError, match=r"bad.tsv:2: no content word"):
        everyday.load_sentences(bad)
    bad.write_text("topic\tlevel\tkorean\tenglish\tcontent\nfood\thaeyo\thungry\tI'm hungry.\thungry\n",
                   encoding="utf-8")
    with pytest.raises(ValueError, match=r"bad.tsv:2: the Korean column has no Hangul"):
        everyday.load_sentences(bad)
    assert everyday.main(["--data", str(tmp_path / "none.tsv")]) == 2


def test_detector_rates_count_firings_against_wrong_translations(everyday):
    # four wrong, two correct; fired on wrong #1, #2, #3 and correct #5: recall 3/4, precision 3/4, 1 of 2 correct
    wrong = [True, True, True, True, False, False]
    fired = [True, True, True, False, True, False]
    rates = everyday.detector_rates(wrong, fired)
    assert (rates["recall"], rates["precision"], rates["false_alarm_rate"]) == (0.75, 0.75, 0.5)
    assert rates["wrong_unflagged"] == 1  # wrong #4: a wrong translation shown with no notice, what a student trusts
    assert f"{rates['wrong_unflagged']} wrong with no notice" in everyday._rates_lines("notice", rates)[0]
    assert everyday.detector_rates([False], [False])["recall"] is None  # nothing wrong: recall undefined, not 0


def test_main_prints_coverage_of_the_tiny_models_outputs(everyday, tmp_path, tiny_model_dir, capsys):
    # The random tiny model writes words of its own vocabulary: the first slot holds all of them (any output with a
    # word carries it), the second sentence asks for a word it does not know, the third for two of its words.
    rows = [("food", "haera", "고양이가 생선을 먹는다", "The cat eats fish.", "|".join(TINY_WORDS[:-2])),
            ("food", "haeyo", "고양이가 먹는다", "The cat eats.", "zebra"),
            ("home", "haera", "생선을 먹는다 ?", "Eats fish?", "먹는다|fish ; eats|생선을")]
    data = tmp_path / "three.tsv"
    data.write_text("topic\tlevel\tkorean\tenglish\tcontent\n" + "".join("\t".join(r) + "\n" for r in rows),
                    encoding="utf-8")
    loaded = transformer_core.load(tiny_model_dir)
    outputs = [transformer_core.trace_text(loaded, row[2]).output_text for row in rows]

    def covered(output: str, content: str) -> bool:  # written out here: every slot has a variant among the words
        words = re.findall(r"\w+", output.lower())
        return all(any(v.strip() in words for v in slot.split("|")) for slot in content.split(";"))

    expected = sum(covered(output, row[4]) for output, row in zip(outputs, rows, strict=True))
    assert everyday.main(["--model", str(tiny_model_dir), "--data", str(data), "--show-misses"]) == 0
    printed = capsys.readouterr().out
    assert f"coverage: {expected}/3 = {100 * expected / 3:.1f} %" in printed
    assert "zebra" in printed  # the second sentence can never be covered: it is listed as a miss
    # the notice's numbers, counted here from each sentence's own report against the coverage written out above
    from transformer_core.inference.report import translation_report

    fired = [bool(translation_report(loaded, row[2])["outside_training"]) for row in rows]
    wrong = [not covered(output, row[4]) for output, row in zip(outputs, rows, strict=True)]
    hits = sum(f and w for f, w in zip(fired, wrong, strict=True))
    assert f"outside_training notice: fired on {sum(fired)} sentences; " in printed
    assert f"({hits} of {sum(wrong)} wrong translations)" in printed
    assert f"{sum(wrong) - hits} wrong with no notice" in printed


def test_notice_rates_follow_the_reports_outside_training_flag(everyday, tiny_model_dir):
    """With a report that has the flag (here: the fallback's real output, flagged when the text has 생선을), the
    summary's notice rates are those of the flag against the uncovered sentences, counted here."""
    sentences = [everyday.Sentence("food", "haera", text, "", slots) for text, slots in
                 [("고양이가 생선을 먹는다", (("zebra",),)), ("고양이가 먹는다", (("zebra",),)),
                  ("생선을 먹는다", (tuple(TINY_WORDS[:-2]),)), ("고양이가", (tuple(TINY_WORDS[:-2]),))]]

    def report(loaded, text):
        return {**everyday.fallback_report(loaded, text), "outside_training": "생선을" in text}

    results = everyday.translate_all(transformer_core.load(tiny_model_dir), sentences, report)
    wrong = [bool(everyday.missing_slots(r.output, s.slots)) for r, s in zip(results, sentences, strict=True)]
    fired = ["생선을" in s.korean for s in sentences]
    hits = sum(w and f for w, f in zip(wrong, fired, strict=True))
    notice = everyday.summarize(results)["notice"]
    assert notice["recall"] == hits / sum(wrong)
    assert notice["precision"] == hits / sum(fired)
    assert notice["fired_on_correct"] == sum(f and not w for w, f in zip(wrong, fired, strict=True))
    summary_text = everyday.format_summary("tiny", Path("x.tsv"), everyday.summarize(results), results, False)
    assert f"recall {100 * hits / sum(wrong):.1f} %" in summary_text
    assert "not available" not in summary_text
