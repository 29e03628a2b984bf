"""The lexicon is data (transformer_core/grammar/lexicon_core.json, lexicon_full.json) read by one loader."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import transformer_core
from tests.grammar_checks import assert_conjugated_by_rule
from transformer_core.grammar import lexicon

CORE_STEMS = {(v.stem, v.kind) for v in lexicon.CORE.verbs} | {a.attributive for a in lexicon.CORE.adjectives}


def test_everyday_conjugations_follow_hangul_rules_for_their_irregular_class():
    """Entries beyond the core were written as hangul.py conjugates their stem: check them against the rules."""
    verbs = [v for v in lexicon.FULL.verbs if (v.stem, v.kind) not in CORE_STEMS]
    adjectives = [a for a in lexicon.FULL.adjectives if a.predicative and a.attributive not in CORE_STEMS]
    assert len(verbs) > 50 and len(adjectives) > 50
    assert_conjugated_by_rule(verbs, adjectives)


def test_the_full_lexicon_contains_the_core_one():
    for field in ("common_nouns", "places", "names", "pronouns", "intransitive", "motion", "adjectives", "time_words"):
        full = getattr(lexicon.FULL, field)
        assert all(entry in full for entry in getattr(lexicon.CORE, field)), field


def test_the_loader_rejects_an_unknown_field_or_irregular_class(tmp_path, monkeypatch):
    raw = json.loads((lexicon.DATA_DIR / "lexicon_core.json").read_text(encoding="utf-8"))
    monkeypatch.setattr(lexicon, "DATA_DIR", tmp_path)
    lexicon.load_lexicon.cache_clear()
    try:
        bad = dict(raw, common_nouns=[{**raw["common_nouns"][0], "colour": "red"}])
        (tmp_path / "lexicon_bad.json").write_text(json.dumps(bad), encoding="utf-8")
        with pytest.raises(ValueError, match="field 'colour': no such field"):
            lexicon.load_lexicon("bad")
        odd = dict(raw, transitive=[{**raw["transitive"][0], "irregular": "ㅋ"}])
        (tmp_path / "lexicon_odd.json").write_text(json.dumps(odd), encoding="utf-8")
        with pytest.raises(ValueError, match="irregular"):
            lexicon.load_lexicon("odd")
        (tmp_path / "lexicon_same.json").write_text(json.dumps(raw), encoding="utf-8")
        assert lexicon.load_lexicon("same") == lexicon.CORE
    finally:
        lexicon.load_lexicon.cache_clear()


def test_an_additions_file_that_repeats_an_entry_is_refused(tmp_path, monkeypatch):
    """Each additions file adds only what the lexicon lacks: a repeated lemma (noun, verb, adjective, time word,
    adverb) is an error naming the file and the entry; a homonym with another meaning is not a repeat."""
    full = json.loads((lexicon.DATA_DIR / "lexicon_full.json").read_text(encoding="utf-8"))
    for name in ("core", "full", "everyday", "learner"):
        (tmp_path / f"lexicon_{name}.json").write_bytes((lexicon.DATA_DIR / f"lexicon_{name}.json").read_bytes())
    monkeypatch.setattr(lexicon, "DATA_DIR", tmp_path)
    lexicon.load_lexicon.cache_clear()
    lexicon.load_additions.cache_clear()
    repeats = {"common_nouns": full["common_nouns"][5], "transitive": full["transitive"][0],
               "adjectives": full["adjectives"][3], "time_words": full["time_words"][0],
               "manner_adverbs": full["manner_adverbs"][0]}
    try:
        for field, entry in repeats.items():
            extra = json.dumps({"_about": "test", field: [entry]})
            (tmp_path / "lexicon_extra.json").write_text(extra, encoding="utf-8")
            lexicon.load_additions.cache_clear()
            with pytest.raises(ValueError, match=rf"lexicon_extra.json line \d+ repeats .*{field}"):
                lexicon.load_additions("full", "extra")
        twice = {"common_nouns": [{"ko": "도토리묵", "en": "acorn jelly", "tags": ["food"]}] * 2}
        (tmp_path / "lexicon_extra.json").write_text(json.dumps(twice), encoding="utf-8")
        lexicon.load_additions.cache_clear()
        with pytest.raises(ValueError, match="repeats"):
            lexicon.load_additions("full", "extra")
        homonym = {"common_nouns": [{**full["common_nouns"][5], "en": "something else", "tags": ["object"]}]}
        (tmp_path / "lexicon_extra.json").write_text(json.dumps(homonym), encoding="utf-8")
        lexicon.load_additions.cache_clear()
        assert len(lexicon.load_additions("full", "extra").common_nouns) == len(full["common_nouns"]) + 1
        lexicon.load_additions.cache_clear()
        with pytest.raises(ValueError, match=r"lexicon_learner\.json line \d+ repeats"):  # the learner file twice
            lexicon.load_additions("full", "everyday", "learner", "learner")
    finally:
        lexicon.load_lexicon.cache_clear()
        lexicon.load_additions.cache_clear()


@pytest.mark.parametrize("grammar", ["learner", "learner2", "learner3", "learner4"])
def test_the_shipped_additions_repeat_nothing(grammar):
    from transformer_core.grammar.forms import grammar_lexicon

    learner = grammar_lexicon(grammar)
    nouns = [(n.ko, n.en) for n in learner.common_nouns + learner.places + learner.names]
    assert len(nouns) == len(set(nouns))
    verbs = [(v.stem, v.en_base, v.kind) for v in learner.verbs]
    assert len(verbs) == len(set(verbs))


def test_the_lexicon_is_read_by_one_loader_and_written_in_no_python_module():
    core = Path(transformer_core.__file__).parent
    readers = [p for p in core.rglob("*.py") if "lexicon_" in p.read_text(encoding="utf-8") and p.name != "lexicon.py"]
    assert readers == []
    assert not (core / "data" / "everyday_lexicon.py").exists()
    assert sorted(p.name for p in (core / "grammar").glob("lexicon_*.json")) == [
        "lexicon_core.json", "lexicon_everyday.json", "lexicon_full.json", "lexicon_learner.json",
        "lexicon_learner10.json", "lexicon_learner2.json", "lexicon_learner3.json", "lexicon_learner4.json",
        "lexicon_learner5.json", "lexicon_learner6.json", "lexicon_learner7.json",
        "lexicon_learner8.json", "lexicon_learner9.json"]


@pytest.mark.parametrize(("additions", "before"), [("learner", ("everyday",)), ("learner2", ("everyday", "learner"))])
def test_every_entry_of_an_additions_file_conjugates_by_the_rules_of_its_class(additions, before):
    """The learner files' verbs and adjectives (each read through the one loader, on top of the files before it)
    were written as hangul.py conjugates their stem and irregular class."""
    grown, base = lexicon.load_additions("full", *before, additions), lexicon.load_additions("full", *before)
    verbs = [v for v in grown.verbs if v not in base.verbs]
    adjectives = [a for a in grown.adjectives if a not in base.adjectives]
    assert len(verbs) > 190 and len(adjectives) > 90
    assert_conjugated_by_rule(verbs, adjectives)


@pytest.mark.parametrize(("entry", "field", "problem"), [
    ('{"ko": "도토리묵", "en": "acorn jelly", "tags": "food"}', "tags", "expected a list of str"),
    ('{"ko": "도토리묵", "tags": ["food"]}', "en", "missing"),
    ('{"ko": "도토리묵", "en": "acorn jelly", "tags": ["food"], "colour": "brown"}', "colour", "no such field"),
    ('{"ko": "도토리묵", "en": "acorn jelly", "tags": ["food"], "mass": "yes"}', "mass", "expected bool"),
])
def test_the_schema_check_names_the_file_line_and_field_of_a_bad_entry(tmp_path, monkeypatch, entry, field, problem):
    """One bad entry among good ones: the error says which file, which line and which field, and what is wrong."""
    for name in ("core", "full"):
        (tmp_path / f"lexicon_{name}.json").write_bytes((lexicon.DATA_DIR / f"lexicon_{name}.json").read_bytes())
    good = '{"ko": "묵", "en": "jelly", "tags": ["food"], "mass": true}'
    (tmp_path / "lexicon_extra.json").write_text(
        '{\n "_about": "test",\n "common_nouns": [\n  ' + good + ',\n  ' + entry + '\n ]\n}\n', encoding="utf-8")
    monkeypatch.setattr(lexicon, "DATA_DIR", tmp_path)
    lexicon.load_lexicon.cache_clear()
    lexicon.load_additions.cache_clear()
    try:
        with pytest.raises(lexicon.LexiconError) as raised:
            lexicon.load_additions("full", "extra")
    finally:
        lexicon.load_lexicon.cache_clear()
        lexicon.load_additions.cache_clear()
    message = str(raised.value)
    assert message.startswith("lexicon_extra.json line 5: Noun entry, field "), message
    assert f"field {field!r}: {problem}" in message, message


def test_the_schema_check_names_a_bad_pair_and_an_unknown_irregular_class(tmp_path, monkeypatch):
    for name in ("core", "full"):
        (tmp_path / f"lexicon_{name}.json").write_bytes((lexicon.DATA_DIR / f"lexicon_{name}.json").read_bytes())
    verb = ('{"stem": "뭉", "past_stem": "뭉었", "en_base": "lump", "en_past": "lumped", "kind": "transitive", '
            '"subjects": ["person"], "irregular": "ㅋ"}')
    cases = {'{"manner_adverbs": [["빨리"]]}': ("lexicon_extra.json line 1: manner_adverbs entry: expected "
                                              "[Korean, English]"),
             '{\n"transitive": [\n' + verb + '\n]}': ("lexicon_extra.json line 3: Verb entry, field 'irregular': "
                                                      "unknown irregular class 'ㅋ'")}
    monkeypatch.setattr(lexicon, "DATA_DIR", tmp_path)
    try:
        for text, message in cases.items():
            (tmp_path / "lexicon_extra.json").write_text(text, encoding="utf-8")
            lexicon.load_lexicon.cache_clear()
            lexicon.load_additions.cache_clear()
            with pytest.raises(lexicon.LexiconError, match=re.escape(message)):
                lexicon.load_additions("full", "extra")
    finally:
        lexicon.load_lexicon.cache_clear()
        lexicon.load_additions.cache_clear()


def test_every_word_table_is_read_by_the_module_it_names():
    """word_lists.json is the grammar's words beyond the lexicon: each table read where its `used_by` says, no table
    left that nothing reads, and no module of constructions, forms or the vocabulary holds a literal table of words
    (hangul.py's and base.py's endings by rule stay code)."""
    import ast

    raw = json.loads(lexicon.WORD_LISTS.read_text(encoding="utf-8"))
    tables = {name: table for name, table in raw.items() if not name.startswith("_")}
    assert len(tables) > 60 and set(lexicon.word_lists()) == set(tables)
    for name, table in tables.items():
        module = (lexicon.DATA_DIR / table["used_by"]).read_text(encoding="utf-8")
        assert f'word_list("{name}")' in module, (name, table["used_by"])
        assert table["about"], name
    modules = [*lexicon.DATA_DIR.glob("forms*.py"), *lexicon.DATA_DIR.glob("constructions_*.py"),
               lexicon.DATA_DIR / "vocabulary.py"]
    for path in sorted(modules):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Tuple | ast.Dict):
                words = [c for c in ast.walk(node.value) if isinstance(c, ast.Constant) and isinstance(c.value, str)]
                names = [n for n in ast.walk(node.value) if isinstance(n, ast.Name)]
                assert len(words) < 8 or names, f"{path.name} line {node.lineno}: a table of words in code"


def schema_error(load, path: Path) -> str:
    """The message of the LexiconError that `load(path)` raises on a bad data file."""
    with pytest.raises(lexicon.LexiconError) as error:
        load(path)
    return str(error.value)


@pytest.mark.parametrize(("table", "problem"), [
    ('{"used_by": "forms.py", "about": "x", "words": ["a", 1.5]}', "field BAD.words[1]: expected a word"),
    ('{"used_by": "forms.py", "about": "x", "words": [["a", true]]}', "field BAD.words[0][1]: expected a word"),
    ('{"used_by": "forms.py", "about": "x", "words": {"go": ["went", null]}}', "field BAD.words['go'][1]"),
    ('{"used_by": "forms.py", "words": ["a"]}', "expected the fields ['used_by', 'about', 'words']"),
    ('{"used_by": "forms.py", "about": "x", "words": []}', "field 'words': expected a non-empty list"),
])
def test_a_bad_word_table_is_named_by_file_line_and_field(tmp_path, table, problem):
    path = tmp_path / "word_lists.json"
    path.write_text('{\n"_about": "test",\n"GOOD": {"used_by": "forms.py", "about": "x", "words": ["a"]},\n'
                    f'"BAD": {table}\n}}\n', encoding="utf-8")
    message = schema_error(lexicon.word_lists, path)
    assert message.startswith("word_lists.json line 4: ") and problem in message, message


def test_every_kind_of_sentence_the_grammar_draws_has_its_builder():
    """kinds.json is the grammar's table of constructions: "full" first (a base sentence), every other kind the
    builder method _KIND; the base grammar's two tables name the sentence kinds KoEnGrammar builds."""
    from transformer_core.grammar.base import GRAMMAR, KINDS_CORE, KINDS_FULL, sentence_kinds
    from transformer_core.grammar.constructions_deixis import DeixisGrammar

    kinds = sentence_kinds(GRAMMAR)
    assert next(iter(kinds)) == "full" and len(kinds) > 100 and kinds == DeixisGrammar.KINDS
    missing = [kind for kind in list(kinds)[1:] if not callable(getattr(DeixisGrammar, f"_{kind}", None))]
    assert missing == []
    assert set(KINDS_CORE) <= set(KINDS_FULL) == {"transitive", "intransitive", "motion", "adjective", "copula", "wh",
                                                   "how"}


@pytest.mark.parametrize(("row", "problem"), [
    ('["desire", 0, "everyday"]', "field weight: expected a whole number above 0, got 0"),
    ('["full", 3, "everyday"]', "field kind: expected a new kind's name, got 'full'"),
    ('["desire", 6, "learner99"]', "field stage: expected one of everyday, learner"),
    ('["desire", 6]', "expected [kind, weight, stage], got ['desire', 6]"),
])
def test_a_bad_kind_is_named_by_file_line_and_field(tmp_path, row, problem):
    from transformer_core.grammar.base import GRAMMAR, sentence_kinds

    path = tmp_path / "kinds.json"
    path.write_text(f'{{\n"_about": "test",\n"{GRAMMAR}": [\n ["full", 40, "everyday"],\n {row}\n]\n}}\n',
                    encoding="utf-8")
    message = schema_error(lambda file: sentence_kinds(GRAMMAR, file), path)
    assert message.startswith(f"kinds.json line 5: table '{GRAMMAR}'") and problem in message, message
