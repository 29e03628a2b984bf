"""The glossary (/glossary): one word per idea. The catalogs use only the glossary's words (a variant such as
질의 for 쿼리 or [BOS] for <s> fails here); every entry is complete and links to pages and lesson steps that
exist; the page renders in both languages and its search filters."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from explorer.figures.lesson import lesson_steps
from explorer.glossary import NAV_KEYS, TERMS, VARIANTS, glossary_markdown, links
from explorer.i18n import CATALOGS, forms

ROOT = Path(__file__).resolve().parent.parent


def app_url_paths() -> set[str]:
    """The url paths app.py's SECTIONS gives its pages (None = the overview, '')."""
    tree = ast.parse((ROOT / "app.py").read_text(encoding="utf-8"))
    sections = next(node.value for node in ast.walk(tree) if isinstance(node, ast.AnnAssign)
                    and getattr(node.target, "id", "") == "SECTIONS")
    pages = ast.literal_eval(sections)
    return {url or "" for entries in pages.values() for _, _, _, url in entries}


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_the_catalogs_use_only_the_glossarys_words(lang: str):
    found = [(key, wrong, right) for key, entry in CATALOGS[lang].items() for text in forms(entry)
             for code, wrong, right in VARIANTS if code == lang and wrong in text]
    assert not found, "\n".join(f"{key}: '{wrong}' -> '{right}'" for key, wrong, right in found)


def test_every_term_has_both_words_a_definition_and_links_that_exist():
    urls = app_url_paths()
    step_ids = {s.id for s in lesson_steps()}
    assert "glossary" in urls  # the page is in the navigation
    assert len(TERMS) >= 40
    assert len({t.ko for t in TERMS}) == len(TERMS) and len({t.en for t in TERMS}) == len(TERMS)
    for term in TERMS:
        assert term.ko and term.en and term.ko_def and term.en_def, term
        assert set(term.pages) <= urls and set(term.pages) <= set(NAV_KEYS), term.ko
        assert not term.step or term.step in step_ids, term.ko
        assert links(term, "ko") and links(term, "en"), term.ko


def test_the_search_filters_and_formulas_are_escaped():
    every = glossary_markdown("en")
    assert every.count("\n") + 1 == len(TERMS)
    query = glossary_markdown("ko", "쿼리")
    assert "**쿼리**" in query and "**빔 서치**" not in query
    assert r"√d\_k" in glossary_markdown("ko", "점수")  # _ would start italics in Markdown
    assert glossary_markdown("en", "no such term at all") == ""


from tests.requirements_check import needed  # noqa: E402  (a skip, or a failure under CI=true)

streamlit_testing = needed("streamlit.testing.v1")


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_the_glossary_page_renders_and_searches_in_both_languages(lang: str):
    at = streamlit_testing.AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.query_params["lang"] = "English" if lang == "en" else "한국어"
    at.run()
    at.switch_page("pages/glossary.py").run()
    assert not at.exception, [e.value for e in at.exception]
    shown = "\n".join(m.value for m in at.markdown)
    assert ("**크로스 어텐션**" if lang == "ko" else r"**cross\-attention**") in shown
    at.text_input(key="glossary_q").set_value("beam").run()
    shown = "\n".join(m.value for m in at.markdown)
    assert ("**빔 서치**" if lang == "ko" else "**beam search**") in shown and "**LayerNorm**" not in shown


def test_links_open_in_the_same_tab_and_carry_the_shared_url_state():
    from urllib.parse import parse_qs, urlparse

    from explorer.glossary import with_shared_state

    shared = {"text": "나는 갔다.", "lang": "English", "glossary_q": "beam", "head": "2"}
    url = with_shared_state("/lesson?step=7", shared)
    assert urlparse(url).path == "/lesson"
    assert parse_qs(urlparse(url).query) == {"text": ["나는 갔다."], "lang": ["English"], "head": ["2"], "step": ["7"]}
    text = glossary_markdown("en", "multi-head attention", shared)
    assert 'target="_self"' in text and "](/" not in text  # no Markdown link (those open a new tab)
    assert 'href="/encoder?text=' in text and "glossary_q" not in text
