"""/corpus (여러 문장에서 / Across sentences) under AppTest: both languages, the heatmap equals the core's statistics,
URL state, bad corpora get a clear message, the /heads table's "behaviour over N sentences" column, a model
without heads; and the figure builders on their own."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
import torch

import transformer_core as core
from explorer.figures import corpus as cfig
from explorer.i18n import md_escape, t
from tests.requirements_check import needed
from transformer_core.analysis import heads as H

streamlit_testing = needed("streamlit.testing.v1")
AppTest = streamlit_testing.AppTest

from tests.test_experiments_page import APP, MODELS  # noqa: E402

PAGE = "pages/corpus.py"
pytestmark = [pytest.mark.skipif("ko-en-toy" not in MODELS, reason="models/ko-en-toy is not bundled"),
              pytest.mark.usefixtures("one_torch_thread")]


def open_page(lang: str = "English", **params: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=300)
    at.query_params.update({"model": "ko-en-toy", "lang": lang, "sentences": "50", **params})
    at.switch_page(PAGE).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def figure(at: AppTest, index: int) -> dict:
    return json.loads(at.get("plotly_chart")[index].proto.spec)


@pytest.mark.slow  # over 3 s (issue 49: `make test-fast` keeps the tests of a few seconds)
@pytest.mark.parametrize("lang, code", [("English", "en"), ("한국어", "ko")])
def test_the_page_shows_every_heads_behaviour_in_both_languages(lang, code):
    at = open_page(lang)
    # Independent: the core's statistics on the same 50 held-out sentences.
    loaded = core.load("ko-en-toy")
    stats = H.corpus_statistics(loaded, H.heldout_corpus(loaded, 50))
    assert at.title[0].value == t("corpus.title", code)
    tokens = sum(stats.query_tokens.values())
    assert at.success[0].value.startswith(t("corpus.summary", code, n=50, tokens=tokens, seconds="~").split("~")[0])
    heat = figure(at, 0)["data"][0]
    expected = np.stack([stats.stats[:, H.STATS.index(b)] for b in H.BEHAVIOURS], axis=1)
    z = np.array([[np.nan if v is None else v for v in row] for row in heat["z"]], dtype=float)
    assert z.shape == (24, 6)
    assert np.allclose(z, expected, atol=1e-5, equal_nan=True)
    assert heat["x"][-1] == t("corpus.stat.aligned", code)
    table = at.dataframe[0].value
    assert len(table) == 24 and t("corpus.group.aligned", code) in set(table[t("corpus.group", code)])
    assert len(at.get("plotly_chart")) == 1 + 1 + 1 + 2  # behaviours, similarity, query/key, most / least maps
    # one name per head on the whole page (issue 30): the behaviour map's, e.g. "인코더 셀프 · L0 · H0"
    names = list(figure(at, 0)["data"][0]["y"])
    assert f"{t('kind.encoder.self_attn', code)} · L0 · H0" in names
    assert {y.rsplit(" · ", 1)[0] for y in figure(at, 1)["data"][0]["y"]} == set(names)  # similarity: name · group
    assert any(names_in in figure(at, 2)["layout"]["title"]["text"] for names_in in names)  # the query/key map
    groups = at.table[0].value  # the group table lists every head, whole
    listed = [name for cell in groups[t("corpus.group_heads", code)] for name in cell.split(", ")]
    assert sorted(listed) == sorted(names)


def test_the_head_and_behaviour_live_in_the_url_and_the_links_carry_the_head():
    at = open_page(chead="enc.1.2", behaviour="previous")
    assert [s.value for s in at.selectbox][:2] == ["enc.1.2", "previous"]
    links = [link.proto for link in at.get("page_link")]
    assert {link.page for link in links} == {"heads", "experiments"}
    heads_link = next(link for link in links if link.page == "heads")
    assert "layer=1" in heads_link.query_string and "head=2" in heads_link.query_string
    assert "off=enc.1.2" in next(link for link in links if link.page == "experiments").query_string
    at.selectbox[0].set_value("dec.0.1").run()
    assert at.query_params["chead"] == ["dec.0.1"] or at.query_params["chead"] == "dec.0.1"
    # The query/key map: one query and one key per real token of the first sentences, both markers present.
    qk = next(f for f in (figure(at, i) for i in range(len(at.get("plotly_chart"))))
              if f["data"] and f["data"][0].get("type") == "scatter")
    assert [d["marker"]["symbol"] for d in qk["data"]] == ["circle", "x"]
    assert len(qk["data"][0]["x"]) > 0 and len(qk["data"][1]["x"]) > 0


def test_the_most_and_least_sentences_are_the_extremes_of_the_per_sentence_values():
    """The two tables against a recount: cross-attention head (layer 1, head 0)'s share of weight on the gold
    source tokens, per sentence from one unpadded trace each, over the same 50 held-out sentences; the five
    highest and the five lowest, with their texts."""
    at = open_page(chead="cross.1.0", behaviour="aligned")
    most, least = at.dataframe[1].value, at.dataframe[2].value  # after the heads table (groups: a st.table)
    column, sentence = t("corpus.stat.aligned", "en"), t("corpus.sentence", "en")
    loaded = core.load("ko-en-toy")
    recounted = []
    for item in H.heldout_corpus(loaded, 50).items:
        trace = loaded.model.trace(torch.tensor([item.source_ids]), torch.tensor([item.decoder_ids]))
        weights = trace["decoder.1.cross_attn.weights"][0, 0].double()  # [T, S]
        scored = [(t_, sources) for t_, sources in enumerate(item.gold) if sources]
        share = sum(float(weights[t_, list(sources)].sum()) for t_, sources in scored) / len(scored)
        recounted.append((share, item.text))
    ranked = sorted(recounted, key=lambda pair: -pair[0])
    assert ranked[0][0] - ranked[-1][0] > 0.05  # the sentences differ: picking the wrong five would show
    assert list(most[column]) == pytest.approx([v for v, _ in ranked[:5]], abs=5.01e-4)  # shown to 3 decimals
    assert list(least[column]) == pytest.approx([v for v, _ in ranked[::-1][:5]], abs=5.01e-4)
    assert list(most[sentence]) == [text for _, text in ranked[:5]]
    assert list(least[sentence]) == [text for _, text in ranked[::-1][:5]]


@pytest.mark.parametrize("text, key", [
    ("The cat eats fish.\nHello world", "corpus.err.wrong_language"),
    ("\n  \n", "corpus.err.empty"),
    ("고양이가 생선을 먹는다\n" * 1001, "corpus.err.too_long"),
])
def test_bad_pasted_text_gets_a_clear_message(text, key):
    at = open_page(corpus="text")
    assert not at.get("plotly_chart")
    at.text_area[0].set_value(text)
    at.button[0].click().run()
    assert not at.exception, [e.value for e in at.exception]
    lines = cfig.parse_corpus_text(text)
    assert at.error[0].value == t(key, "en", n=len(lines), limit=1000, name=md_escape("ko-en-toy"))
    assert not at.get("plotly_chart")


def test_pasted_korean_text_is_analysed_without_alignment():
    at = open_page(corpus="text")
    at.text_area[0].set_value("고양이가 생선을 먹는다\n학생이 책을 읽는다\n")
    at.button[0].click().run()
    assert not at.exception and not at.error
    heat = figure(at, 0)["data"][0]
    assert t("corpus.stat.aligned", "en") not in heat["x"]  # no gold alignment: not measured
    assert "2" in at.success[0].value


def test_the_sidebar_examples_are_a_corpus():
    at = open_page(corpus="examples")
    n = len(core.load("ko-en-toy").directory.joinpath("examples.json").read_text(encoding="utf-8").split('"text"')) - 1
    assert at.success[0].value.startswith(f"{n} sentences")


def test_the_heads_table_gets_the_behaviour_column_once_a_corpus_is_cached():
    open_page()  # 50 held-out sentences, cached for the process
    at = AppTest.from_file(APP, default_timeout=300)
    at.query_params.update({"model": "ko-en-toy", "lang": "English"})
    at.switch_page("pages/heads.py").run()
    assert not at.exception, [e.value for e in at.exception]
    title = t("heads.corpus_column", "en", n=50)
    frame = next(f.value for f in at.dataframe if title in f.value.columns)
    cells = list(frame[title])
    assert len(cells) == 24 and all(isinstance(c, str) for c in cells)
    assert cells[-1].startswith(t("corpus.stat.aligned", "en"))  # cross L1 H3 is an alignment head


@pytest.mark.skipif("minilm-l6" not in MODELS, reason="minilm-l6 is not available here")
def test_an_encoder_only_model_offers_no_held_out_sentences_and_shows_encoder_heads_only():
    at = open_page(model="minilm-l6")
    assert t("corpus.no_heldout", "en", name=md_escape("minilm-l6")) in [c.value for c in at.caption]
    heads = figure(at, 0)["data"][0]["y"]
    assert heads and all(label.startswith(t("kind.encoder.self_attn", "en")) for label in heads)


# --- the figure builders ----------------------------------------------------------------------------

def test_behaviour_heatmap_keeps_special_tokens_and_blanks_unmeasured_cells():
    fig = cfig.behaviour_heatmap(np.array([[0.5, math.nan]]), ["enc L0 H0"], ["last (</s>)", "aligned"],
                                 title="x", lang="en")
    trace = fig.to_dict()["data"][0]
    assert trace["x"][0] == "last (&lt;/s&gt;)"  # plotly reads labels as HTML
    assert trace["z"] == [[0.5, None]] and trace["text"] == [["0.50", ""]]


def test_similarity_map_follows_the_order_and_is_one_minus_distance():
    distance = np.array([[0.0, 0.9, 0.1], [0.9, 0.0, 0.8], [0.1, 0.8, 0.0]])
    fig = cfig.similarity_map(distance, [0, 2, 1], ["a", "b", "c"], ["g1", "g2", "g1"], title="x", lang="en")
    trace = fig.data[0]
    assert list(trace.x) == ["a · g1", "c · g1", "b · g2"]
    assert np.allclose(np.asarray(trace.z), 1 - distance[np.ix_([0, 2, 1], [0, 2, 1])])


def test_head_column_names_the_largest_share():
    rows = [{"diagonal": 0.1, "previous": 0.8, "aligned": None}, None]
    assert cfig.head_column(rows, {"diagonal": "diag", "previous": "prev", "aligned": "al"}) == ["prev 0.80", None]
    assert cfig.parse_corpus_text("\ufeffa\r\n\r\n b \n") == ["a", "b"]


@pytest.mark.slow  # over 3 s (issue 49: `make test-fast` keeps the tests of a few seconds)
@pytest.mark.skipif("paper-base" not in MODELS, reason="paper-base is not available here")
def test_a_large_model_analyses_at_most_200_sentences_and_says_so():
    at = open_page(model="paper-base", sentences="500")
    expected = t("corpus.large_model_cut", "en", n=500, limit=200, name=md_escape("paper-base"))
    assert expected in [i.value for i in at.info]
    assert at.success[0].value.startswith("200 sentences")


def test_sentence_maps_are_one_figure_with_each_sentences_own_tokens_on_one_scale():
    maps = [(np.eye(2), ["a", "b"], ["x", "y"]), (np.full((3, 1), 1.0), ["c", "d", "e"], ["z"])]
    figure_object = cfig.sentence_maps(maps, ["#1", "#2"], title="t", lang="en", row_title="q", col_title="k")
    fig = figure_object.to_dict()
    first, second = fig["data"]
    assert first["y"] == ["a", "b"] and first["x"] == ["x", "y"] and second["y"] == ["c", "d", "e"]
    np.testing.assert_allclose(np.asarray(figure_object.data[1].z, dtype=float), np.full((3, 1), 1.0))
    assert first["coloraxis"] == second["coloraxis"] == "coloraxis"
    top, bottom = fig["layout"]["yaxis"]["domain"], fig["layout"]["yaxis2"]["domain"]
    assert bottom[1] < top[0]  # one under the other, apart
    assert [a["text"] for a in fig["layout"]["annotations"]] == ["#1", "#2"]
