"""The app's terms, in ONE place (explorer/glossary.json, read here): the Korean word chosen for each
idea, the English word, a one-line definition in both languages, the paper's section, and where the term
appears (pages and lesson steps).

The /glossary page shows this list; tests/test_glossary.py reads VARIANTS and fails when a catalog
(explorer/i18n/*.json) uses a word the glossary replaced (질의 for 쿼리, 교차 어텐션 for 크로스 어텐션, ...).
"""

from __future__ import annotations

import html
import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import parse_qsl, urlencode


@dataclass(frozen=True)
class Term:
    """One glossary entry. `pages` are page url paths ("" = the overview); `step` a lesson step id."""

    ko: str
    en: str
    ko_def: str
    en_def: str
    section: str = ""  # the paper's section ("3.2.1"); "" when the paper does not use the term
    pages: tuple[str, ...] = ()
    step: str = ""


GLOSSARY_FILE = Path(__file__).resolve().parent / "glossary.json"


def _load() -> tuple[Term, ...]:
    rows = json.loads(GLOSSARY_FILE.read_text(encoding="utf-8"))
    return tuple(Term(**{**row, "pages": tuple(row.get("pages", ()))}) for row in rows)


TERMS: tuple[Term, ...] = _load()  # explorer/glossary.json: one term per line

# Words the glossary replaced: (language, what a catalog must not say, what to say instead). The test
# looks for each `wrong` as plain text in every string of that language's catalog.
VARIANTS: tuple[tuple[str, str, str], ...] = (
    ("ko", "질의", "쿼리"),
    ("ko", "교차 어텐션", "크로스 어텐션"),
    ("ko", "교차어텐션", "크로스 어텐션"),
    ("ko", "탐욕", "그리디"),
    ("ko", "greedy", "그리디"),
    ("ko", "Greedy", "그리디"),
    ("ko", "보류된", "평가용"),
    ("ko", "서브층", "하위 층"),
    ("ko", "서브 층", "하위 층"),
    ("ko", "소스", "원문"),
    ("ko", "타깃", "출력"),
    ("ko", "Transformer", "트랜스포머"),
    ("ko", "파라미터", "매개변수"),
    ("ko", "정렬 (a", "알파벳순 배열"),
    ("ko", "[BOS]", "<s>"),
    ("ko", "[UNK]", "<unk>"),
    ("ko", "1층 뒤", "층 0의 출력"),
    ("ko", "모양(shape)", "모양"),
    ("en", "[BOS]", "<s>"),
    ("en", "[UNK]", "<unk>"),
    # the second teacher's read (issue 30): one word per concept, 합니다체 throughout
    ("ko", "정확히 일치", "완전 일치율"),
    ("ko", "역대각", "반대 대각선"),
    ("ko", "기울기", "그래디언트"),
    ("ko", "합쇼체", "하십시오체"),
    ("ko", "문체", "높임 등급"),
    ("ko", "행동", "패턴"),
    ("ko", "디코더 셀프(마스크)", "마스크드 셀프 어텐션"),
    ("ko", "셀프 어텐션 (마스크)", "마스크드 셀프 어텐션"),
    ("ko", "젠슨", "Jensen–Shannon"),
    ("ko", "3장", "3절"),
    ("ko", "4장", "4절"),
    ("ko", "세요", "십시오 (합니다체)"),
    ("ko", "까요?", "ㅂ니까? (합니다체)"),
    ("ko", "네요", "습니다 (합니다체)"),
    ("en", "Jensen-Shannon divergence", "Jensen–Shannon distance"),
)


def url_of(page: str) -> str:
    """A page's link in the app ('' is the overview)."""
    return "/" + page


NAV_KEYS = {"": "nav.overview", "tokens": "nav.tokens", "embeddings": "nav.embeddings", "encoder": "nav.encoder",
            "decoder": "nav.decoder", "heads": "nav.heads", "train": "nav.train", "experiments": "nav.experiments",
            "history": "nav.history", "lesson": "nav.lesson", "explain": "nav.explain", "corpus": "nav.corpus"}


def matches(term: Term, query: str) -> bool:
    """Whether a search text occurs in the term's words or definitions (case-insensitive)."""
    needle = query.strip().lower()
    return not needle or any(needle in text.lower() for text in (term.ko, term.en, term.ko_def, term.en_def))


# The URL keys every page shares (explorer.state: the sidebar's text, model, device, lang; layer, head):
# a glossary link carries them, so the page it opens shows the same sentence in the same language.
SHARED_URL_KEYS = ("text", "model", "device", "lang", "layer", "head")


def links(term: Term, lang: str) -> list[tuple[str, str]]:
    """(label, url) of every place the term appears: its pages, then the lesson step that explains it."""
    from explorer.figures.lesson.steps import lesson_steps
    from explorer.i18n import t

    found = [(t(NAV_KEYS[page], lang), url_of(page)) for page in term.pages]
    if term.step:
        number = next(s.number for s in lesson_steps() if s.id == term.step)
        found.append((t("glossary.step", lang, n=number, title=t(f"lesson.{term.step}.title", lang)),
                      f"/lesson?step={number}"))
    return found


def with_shared_state(url: str, shared: Mapping[str, str]) -> str:
    """`url` with the shared URL keys of `shared` (this page's query) added; the url's own keys win."""
    path, _, own = url.partition("?")
    query = {k: shared[k] for k in SHARED_URL_KEYS if shared.get(k) not in (None, "")}
    query.update(parse_qsl(own))
    return path + ("?" + urlencode(query) if query else "")


def same_tab_link(label: str, url: str) -> str:
    """An HTML anchor that opens `url` in this tab (a Markdown link opens a new tab in Streamlit)."""
    from explorer.i18n import md_escape

    return f'<a href="{html.escape(url, quote=True)}" target="_self">{md_escape(html.escape(label))}</a>'


def glossary_markdown(lang: str, query: str = "", shared: Mapping[str, str] | None = None) -> str:
    """The glossary as a Markdown list in `lang`: the word, the other language's word, the definition, the
    paper's section and links that keep `shared` (the page's URL state). Text is escaped (definitions hold
    _ and | of formulas) except `$...$` math, which KaTeX renders; show it with unsafe_allow_html (the
    links are <a target="_self">)."""
    from explorer.i18n import md_escape, t
    from explorer.mathtext import md_escape_keeping_math

    lines = []
    for term in sorted((x for x in TERMS if matches(x, query)), key=lambda x: x.ko if lang == "ko" else x.en.lower()):
        word, other = (term.ko, term.en) if lang == "ko" else (term.en, term.ko)
        definition = term.ko_def if lang == "ko" else term.en_def
        parts = [f"**{md_escape(word)}** · {md_escape(other)}: {md_escape_keeping_math(definition)}"]
        if term.section:
            parts.append(t("glossary.section", lang, section=term.section))
        places = " · ".join(same_tab_link(label, with_shared_state(url, shared or {}))
                            for label, url in links(term, lang))
        if places:
            parts.append(places)
        lines.append("- " + " — ".join(parts))
    return "\n".join(lines)
