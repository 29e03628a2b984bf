"""Every UI string of Transformer Explorer: one catalog per language (ko.json, en.json), same keys.

`t(key, lang, **values)` returns the string for 'ko' or 'en' with `{placeholders}` filled in. A value
that depends on a count is an object of plural forms ({"one": …, "other": …}), chosen by `n`
(Korean needs none). A Korean particle after a placeholder is written in its two forms (`{d}을(를)`) and `t`
picks the one the value is read with (explorer/i18n/particles.py). Strings may use Markdown (pages render
them with st.markdown/st.caption); user text is never put into them — pages show user text with st.text /
st.code / st.dataframe.
Add a key to BOTH catalogs (kept sorted, one key per line: `python -m explorer.i18n --sort`).
"""

from __future__ import annotations

import json
import string
from pathlib import Path
from types import MappingProxyType

from explorer.i18n.particles import resolve as resolve_particles

DEFAULT_LANG = "ko"
LANGUAGES = ("ko", "en")
LANG_CHOICES = {"한국어": "ko", "English": "en"}  # sidebar label -> code (the label is what the URL holds)
PLURAL_FORMS = ("one", "other")
CATALOG_DIR = Path(__file__).resolve().parent

Entry = str | dict[str, str]


def _load(lang: str) -> dict[str, Entry]:
    return json.loads((CATALOG_DIR / f"{lang}.json").read_text(encoding="utf-8"))


CATALOGS: MappingProxyType[str, dict[str, Entry]] = MappingProxyType({lang: _load(lang) for lang in LANGUAGES})


def forms(entry: Entry) -> list[str]:
    """Every text of an entry: the string, or each of its plural forms."""
    return [entry] if isinstance(entry, str) else [entry[form] for form in PLURAL_FORMS]


def placeholders(entry: Entry) -> set[str]:
    """The {names} an entry fills in (all plural forms together)."""
    return {name for text in forms(entry) for _, name, _, _ in string.Formatter().parse(text) if name}


def _choose(entry: Entry, values: dict) -> str:
    if isinstance(entry, str):
        return entry
    return entry["one"] if values.get("n") == 1 else entry["other"]


def t(key: str, lang: str = DEFAULT_LANG, **values) -> str:
    """The string `key` in `lang` ('ko' or 'en'), with `{placeholders}` filled from `values`. In Korean a
    two-form particle right after a placeholder (`{d}을(를)`) becomes the form the value is read with."""
    catalog = CATALOGS["en" if lang == "en" else "ko"]
    text = _choose(catalog[key], values)
    if not values:
        return text
    if lang != "en":
        text = resolve_particles(text, values)
    return text.format(**values)


# key -> (Korean, English) for readers that want both side by side (plural entries: their 'other' form).
STRINGS: MappingProxyType[str, tuple[str, str]] = MappingProxyType({
    key: (forms(CATALOGS["ko"][key])[-1], forms(CATALOGS["en"][key])[-1]) for key in CATALOGS["ko"]
})

_MARKDOWN_SPECIALS = set("\\`*_{}[]()#+-.!|<>~$:=")


def md_escape(value: object) -> str:
    """Backslash-escape Markdown (and Streamlit's :directive: / $math$) characters: a value shown as text."""
    return "".join("\\" + c if c in _MARKDOWN_SPECIALS else c for c in str(value))


def write_catalog(lang: str, catalog: dict[str, Entry]) -> None:
    """Write one catalog sorted by key, one key per line (so parallel additions merge cleanly)."""
    items = sorted(catalog.items())
    lines = [f"  {json.dumps(k, ensure_ascii=False)}: {json.dumps(v, ensure_ascii=False)}" for k, v in items]
    (CATALOG_DIR / f"{lang}.json").write_text("{\n" + ",\n".join(lines) + "\n}\n", encoding="utf-8")
