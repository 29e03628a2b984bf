"""UI strings: one module, both languages complete, every key the code uses exists."""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest

from viz.i18n import LANG_CHOICES, STRINGS, md_escape, t

ROOT = Path(__file__).resolve().parent.parent
SOURCES = [ROOT / "app.py", *sorted((ROOT / "pages").glob("*.py")), *sorted((ROOT / "viz").glob("*.py"))]
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
    from viz.attention import ATTENTION_KINDS
    from viz.head_stats import STAT_FIELDS

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
