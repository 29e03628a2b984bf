"""Math in UI text (issue 30, item 6): the paper's symbols are `$...$` wherever Markdown shows them, so
Streamlit's bundled KaTeX renders them; figure text gets plotly's <sub>/<sup> instead."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from explorer.glossary import TERMS, glossary_markdown
from explorer.i18n import CATALOGS, forms
from explorer.mathtext import bare_math, figure_math, md_escape_keeping_math

ROOT = Path(__file__).resolve().parent.parent

# Written out here, independent of explorer.mathtext: a symbol with a ^ (W^O, W_i^Q, xW^V, QK^T) or a
# projection matrix named with _ (W_O, W_K), outside a $...$ span
BARE = re.compile(r"[A-Za-z]+(_[A-Za-z0-9]+)?\^[A-Za-z{\\]|\bW_[QKVO](?![A-Za-z0-9])")


def text_outside_math(text: str) -> str:
    """`text` with every $...$ span cut out (spans never nest and never hold a $)."""
    return re.sub(r"\$[^$]+\$", " ", text)


def shown_texts() -> list[tuple[str, str]]:
    """(where, text) of every catalog string and every glossary definition, both languages."""
    found = [(f"{lang}:{key}", text) for lang, catalog in CATALOGS.items() for key, entry in catalog.items()
             for text in forms(entry)]
    found += [(f"glossary:{term.en}:{field}", getattr(term, field)) for term in TERMS
              for field in ("ko_def", "en_def")]
    return found


def test_no_catalog_or_glossary_string_writes_a_symbol_outside_math():
    bare = [(where, m.group(0)) for where, text in shown_texts() for m in BARE.finditer(text_outside_math(text))]
    assert not bare, bare


def test_the_symbols_are_in_math_spans_in_both_languages():
    for lang in ("ko", "en"):
        body = CATALOGS[lang]["lesson.multihead.body"]
        assert all(f"${symbol}$" in body for symbol in ("W_i^Q", "W_i^K", "W_i^V", "W^O")), lang


def test_bare_math_finds_what_markdown_would_show_raw():
    assert bare_math("heads W_i^Q and W^O, out W_O; d_k stays") == ["W_i^Q", "W^O", "W_O"]
    assert bare_math("heads $W_i^Q$ and $W^O$를") == []


def test_escaping_keeps_math_spans_and_escapes_the_rest():
    assert md_escape_keeping_math("a_b $W_i^Q$ c|d") == r"a\_b $W_i^Q$ c\|d"
    assert md_escape_keeping_math("no math, 5 * 3") == r"no math, 5 \* 3"


def test_figure_text_gets_plotly_sub_and_sup():
    assert figure_math("proj $W_i^Q$ and $W^O$") == "proj W<sub>i</sub><sup>Q</sup> and W<sup>O</sup>"


def test_the_glossary_markdown_keeps_math_for_katex():
    for lang in ("ko", "en"):
        head = glossary_markdown(lang, "W_i^Q")
        assert "$W_i^Q$, $W_i^K$, $W_i^V$" in head, head
        assert "\\$" not in head


from tests.requirements_check import needed  # noqa: E402  (a skip, or a failure under CI=true)

streamlit_testing = needed("streamlit.testing.v1")


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_the_glossary_and_lesson_pages_hand_math_to_katex(lang: str):
    at = streamlit_testing.AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.query_params["lang"] = "English" if lang == "en" else "한국어"
    at.run()
    at.switch_page("pages/glossary.py").run()
    assert not at.exception, [e.value for e in at.exception]
    shown = "\n".join(m.value for m in at.markdown)
    assert "$q = xW^Q$" in shown and "$W^O$" in shown
    assert not BARE.search(text_outside_math(shown)), BARE.search(text_outside_math(shown))


def test_the_lesson_hands_the_multihead_symbols_to_katex():
    from explorer.figures.lesson import lesson_steps

    number = next(s.number for s in lesson_steps() if s.id == "multihead")
    at = streamlit_testing.AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.query_params["lang"] = "한국어"
    at.query_params["step"] = str(number)
    at.run()
    at.switch_page("pages/lesson.py").run()
    assert not at.exception, [e.value for e in at.exception]
    shown = "\n".join(m.value for m in at.markdown)
    assert "$W_i^Q$, $W_i^K$, $W_i^V$" in shown and "$W^O$를" in shown, shown[:400]
    assert not BARE.search(text_outside_math(shown)), BARE.search(text_outside_math(shown))
