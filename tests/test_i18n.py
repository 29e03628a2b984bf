"""UI strings: one catalog per language with the same keys and placeholders; every key the code uses exists."""

from __future__ import annotations

import json
import re
import string
from pathlib import Path

import pytest

from explorer.i18n import CATALOG_DIR, CATALOGS, LANG_CHOICES, PLURAL_FORMS, STRINGS, forms, md_escape, t
from explorer.i18n import placeholders as entry_placeholders

ROOT = Path(__file__).resolve().parent.parent
SOURCES = [ROOT / "app.py", *sorted((ROOT / "pages").glob("*.py")),
           *sorted((ROOT / "explorer" / "figures").glob("*.py"))]
HANGUL = re.compile(r"[\uac00-\ud7a3]")


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_every_key_has_korean_and_english():
    for key, (korean, english) in STRINGS.items():
        assert korean.strip() and english.strip(), key
        assert not HANGUL.search(english), f"{key}: Korean text in the English string"


def test_korean_strings_are_korean():
    """Most UI strings must really be translated (symbols-only strings such as 'Q/K/V' may be shared)."""
    translated = [key for key, (korean, _) in STRINGS.items() if HANGUL.search(korean)]
    assert len(translated) / len(STRINGS) > 0.8


def test_placeholders_match_between_languages():
    for key, (korean, english) in STRINGS.items():
        assert placeholders(korean) == placeholders(english), key


def test_both_catalogs_hold_the_same_keys_and_placeholders():
    assert CATALOGS["ko"].keys() == CATALOGS["en"].keys()
    for key in CATALOGS["ko"]:
        assert entry_placeholders(CATALOGS["ko"][key]) == entry_placeholders(CATALOGS["en"][key]), key


def test_plural_entries_have_every_form_and_count_with_n():
    plural = {key: entry for lang in CATALOGS for key, entry in CATALOGS[lang].items() if isinstance(entry, dict)}
    assert plural  # English counts use plural forms ("1 finished run", "2 finished runs")
    for key, entry in plural.items():
        assert set(entry) == set(PLURAL_FORMS), key
        assert "n" in entry_placeholders(entry), key
    assert t("lab.finished_jobs", "en", n=1) == "1 finished run"
    assert t("lab.finished_jobs", "en", n=2) == "2 finished runs"
    assert not any("(s)" in text for entry in CATALOGS["en"].values() for text in forms(entry))


def test_catalog_files_are_sorted_one_key_per_line():
    for lang in CATALOGS:
        lines = (CATALOG_DIR / f"{lang}.json").read_text(encoding="utf-8").splitlines()[1:-1]
        keys = [json.loads("{" + line.rstrip(",") + "}").popitem()[0] for line in lines]
        assert keys == sorted(keys) == sorted(CATALOGS[lang]), lang


def keys_used_in_code() -> set[str]:
    used = set()
    pattern = re.compile(r"""\b(?:tr|t)\(\s*f?["']([a-z_]+\.[a-zA-Z0-9_.]+)["']""")
    for path in SOURCES:
        used |= set(pattern.findall(path.read_text(encoding="utf-8")))
    return used


def test_every_key_used_in_code_exists():
    used = keys_used_in_code()
    assert len(used) > 50  # the scan really finds the calls
    missing = sorted(k for k in used if k not in STRINGS)
    assert not missing, missing


def test_dynamic_keys_exist():
    """Keys built at run time (f"kind.{kind}", f"stat.{name}", f"col.{name}") exist for every value."""
    from explorer.figures.head_stats import STAT_FIELDS
    from transformer_core.tracing.names import ATTENTION_KINDS

    for kind in ATTENTION_KINDS:
        assert f"kind.{kind}" in STRINGS
    for name in ("kind", "layer", "head", *STAT_FIELDS):
        assert f"stat.{name}" in STRINGS
    for name in ("pos", "piece", "id", "kind", "word_index", "word", "token", "norm_raw", "norm_scaled", "norm_pe",
                 "norm_input"):
        assert f"col.{name}" in STRINGS
    for name in ("overview", "tokens", "embeddings", "encoder", "decoder", "heads"):
        assert f"nav.{name}" in STRINGS


def test_t_fills_placeholders_and_picks_language():
    assert t("fig.head_n", "ko", head=3) == "헤드 3"
    assert t("fig.head_n", "en", head=3) == "head 3"
    assert t("nav.encoder", "en") == "Encoder"
    with pytest.raises(KeyError):
        t("no.such.key", "en")


def test_language_choices():
    assert set(LANG_CHOICES.values()) == {"ko", "en"}


def test_md_escape_neutralises_markdown():
    escaped = md_escape("**bold** [link](http://x) :red[x] $x$ <b>")
    assert "\\*\\*bold\\*\\*" in escaped
    assert "\\[link\\]\\(http\\:" in escaped
    assert "\\$x\\$" in escaped
    assert "\\:red\\[x\\]" in escaped
    assert "\\<b\\>" in escaped
    assert md_escape("고양이가 생선을") == "고양이가 생선을"
