"""Math in UI text: the paper's symbols (W_i^Q, W^O, ...) are written as `$...$` in the catalogs and the
glossary, which st.markdown renders with its bundled KaTeX. This module finds bare symbols (the test
uses BARE_MATH), escapes Markdown around the math spans, and turns math spans into plotly's HTML
(<sub>/<sup>) for figure text, where no LaTeX renderer exists offline."""

from __future__ import annotations

import re

from explorer.i18n import md_escape

# a `$...$` span (no $ inside; not `$$`)
MATH_SPAN = re.compile(r"(?<!\$)\$(?!\$)([^$\n]+?)\$(?!\$)")
# a symbol typed with ^ (W^O, W_i^Q, xW^V, ...) or one of the paper's projection matrices typed with _
# as its superscript (W_O, W_K): these must be inside $...$ wherever Markdown shows them
BARE_MATH = re.compile(r"[A-Za-z]+(?:_[A-Za-z0-9]+)?\^(?:[A-Za-z]+|\{[^}]*\}|\\top)|\bW_[QKVO]\b")


def outside_math(text: str) -> list[str]:
    """The pieces of `text` outside its `$...$` spans."""
    return MATH_SPAN.split(text)[::2]


def bare_math(text: str) -> list[str]:
    """The math symbols `text` writes outside `$...$` (what Markdown would show as raw _ and ^)."""
    return [m.group(0) for piece in outside_math(text) for m in BARE_MATH.finditer(piece)]


def md_escape_keeping_math(text: str) -> str:
    """`text` Markdown-escaped, except its `$...$` spans, which stay math for KaTeX."""
    pieces = MATH_SPAN.split(text)
    return "".join(f"${piece}$" if i % 2 else md_escape(piece) for i, piece in enumerate(pieces))


def _html_script(latex: str) -> str:
    """One math span's LaTeX as plotly HTML: W_i^Q -> W<sub>i</sub><sup>Q</sup>."""
    html = latex.replace(r"\top", "T").replace(r"\sqrt", "√").replace("{", "").replace("}", "")
    html = re.sub(r"_([A-Za-z0-9]+)", r"<sub>\1</sub>", html)
    return re.sub(r"\^([A-Za-z0-9]+)", r"<sup>\1</sup>", html)


def figure_math(text: str) -> str:
    """`text` for a plotly title or label: each `$...$` span as <sub>/<sup> HTML, which plotly draws."""
    return MATH_SPAN.sub(lambda m: _html_script(m.group(1)), text)
