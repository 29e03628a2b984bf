"""The guided lesson: the step list, predict-step answers read from the trace (several sentences, two
models), figures and equations for every step, projector styling, the join URL and its QR code; and the
/lesson page under AppTest, walked step by step in both languages for ko-en-toy and minilm-l6."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import numpy as np
import pytest

import transformer_core as core
from explorer import lesson_service
from explorer.figures import lesson
from explorer.i18n import STRINGS

ROOT = Path(__file__).resolve().parent.parent
DECODER_STEPS = {"causal_mask", "decoder_layer", "cross_attention", "next_token", "shared_weights", "decoding",
                 "training"}
KO_EN = "ko-en-toy"
ENCODER = "minilm-l6"
KO_SENTENCES = ["고양이가 공원에서 생선을 먹었다.", "학생이 책을 읽는다.", "개가 아이를 보지 않았다.",
                "선생님이 학교에서 사과를 먹는다."]
EN_SENTENCES = ["The cat ate the fish.", "Students read books in the library every morning."]
AVAILABLE = {info.name for info in core.list_models() if info.available}

pytestmark = pytest.mark.usefixtures("one_torch_thread")  # as app.py runs: one torch thread



def number_of(step_id: str) -> int:
    """The 1-based number of a step (the numbers move when steps are added; tests name steps by id)."""
    return next(s.number for s in lesson.lesson_steps() if s.id == step_id)


def need(model: str) -> None:
    if model not in AVAILABLE:
        pytest.skip(f"{model} is not available here")


@cache
def loaded(model: str) -> core.LoadedModel:
    return core.load(model)


@cache
def lesson_data(model: str, text: str) -> lesson.LessonData:
    traced = core.trace_text(loaded(model), text)
    return lesson_service.lesson_data(traced, loaded(model), text)


# ------------------------------------------------------------------------------------------------
# The path


def test_the_path_follows_the_forward_pass_in_at_least_eighteen_numbered_steps():
    steps = lesson.lesson_steps()
    assert 18 <= len(steps) <= 24
    assert [s.number for s in steps] == list(range(1, len(steps) + 1))
    ids = [s.id for s in steps]
    assert len(set(ids)) == len(ids)
    order = ["tokens", "embedding", "position", "sinusoids", "why_attention", "scores", "softmax", "scaling",
             "values", "multihead", "addnorm", "ffn", "encoder_layer", "causal_mask", "decoder_layer",
             "cross_attention", "next_token", "shared_weights", "decoding", "training", "full_picture"]
    assert [i for i in ids if i in order] == order  # the forward pass, "why" steps where their question comes up
    assert {s.id for s in steps if s.decoder} == DECODER_STEPS
    for step in steps:
        assert (ROOT / step.page).is_file(), step.page
        for part in ("title", "body") if step.id != "full_picture" else ("title",):
            korean, english = STRINGS[f"lesson.{step.id}.{part}"]
            assert korean and english


@pytest.mark.parametrize(("raw", "expected"), [("7", 7), (" 3 ", 3), ("0", 1), ("-4", 1), ("99", 15), ("abc", 1),
                                               (None, 1), ("2.5", 1)])
def test_a_step_number_from_the_url_is_clamped_and_never_raises(raw, expected):
    assert lesson.parse_step(raw, 15) == expected


def test_an_encoder_only_model_skips_the_decoder_steps_both_ways():
    steps = lesson.lesson_steps()
    by_id = {s.id: s.number for s in steps}
    last_encoder, full = by_id["encoder_layer"], by_id["full_picture"]
    assert lesson.neighbour(last_encoder, +1, has_decoder=False) == full
    assert lesson.neighbour(full, -1, has_decoder=False) == last_encoder
    assert lesson.neighbour(last_encoder, +1, has_decoder=True) == by_id["causal_mask"]
    assert lesson.neighbour(1, -1, has_decoder=True) == 1  # the ends stay put
    assert lesson.neighbour(len(steps), +1, has_decoder=True) == len(steps)
    assert {s.id for s in lesson.skipped_steps(False)} == DECODER_STEPS
    assert lesson.skipped_steps(True) == []


# ------------------------------------------------------------------------------------------------
# Answers come from the trace (recomputed here from the raw tensors, for several sentences)


@pytest.mark.parametrize("text", KO_SENTENCES)
def test_predict_answers_match_the_trace_for_an_encoder_decoder(text: str):
    need(KO_EN)
    data = lesson_data(KO_EN, text)
    trace = data.trace
    assert data.has_decoder

    # tokens: the count the tokenizer gives, the length of src.ids
    question = lesson.question_for("tokens", data, "en")
    ids = loaded(KO_EN).tokenizer(text)["input_ids"]
    assert question.answer_labels == [str(len(ids))] == [str(trace["src.ids"].shape[1])]

    # Q for one head: [S, d_k] from the traced q [B, H, S, d_k]
    question = lesson.question_for("scores", data, "en")
    _, _, s, d_k = trace["encoder.0.self_attn.q"].shape
    assert question.answer_labels == [f"[{s}, {d_k}]"]
    assert d_k == loaded(KO_EN).config.d_model // loaded(KO_EN).config.n_heads

    # strongest key of the focus query in the focus head
    i, head = lesson.focus_query(data), lesson.focus_head(data)
    row = trace["encoder.0.self_attn.weights"][0, head, i]
    question = lesson.question_for("softmax", data, "en")
    assert question.answer == frozenset({int(row.argmax())})

    # causal mask: position p sees exactly 0..p (one sentence, no padding)
    p = lesson.causal_position(data)
    question = lesson.question_for("causal_mask", data, "en")
    assert question.multi and question.answer == frozenset(range(p + 1))
    assert bool(trace["tgt.causal_mask"][p, : p + 1].all()) and not bool(trace["tgt.causal_mask"][p, p + 1:].any())

    # cross-attention: argmax over the source of the last layer's head average
    r = lesson.cross_row(data)
    last = trace.n_layers("decoder") - 1
    averaged = trace[f"decoder.{last}.cross_attn.weights"][0, :, r].mean(dim=0)
    question = lesson.question_for("cross_attention", data, "en")
    assert question.answer == frozenset({int(averaged.argmax())})
    assert data.predicted_tokens[r] in question.prompt.replace("\\", "")

    # next token: the argmax of the traced logits, which is the token the model wrote
    r = lesson.next_token_row(data)
    question = lesson.question_for("next_token", data, "en")
    best = int(trace["logits"][0, r].argmax())
    chosen = loaded(KO_EN).tokenizer.convert_ids_to_tokens([best])[0]
    assert question.answer_labels == [chosen] == [data.predicted_tokens[r]]
    assert len(question.options) >= 2


@pytest.mark.parametrize("text", EN_SENTENCES)
def test_predict_answers_match_the_trace_for_an_encoder_only_model(text: str):
    need(ENCODER)
    data = lesson_data(ENCODER, text)
    assert not data.has_decoder
    question = lesson.question_for("tokens", data, "ko")
    assert question.answer_labels == [str(data.trace["src.ids"].shape[1])]
    _, _, s, d_k = data.trace["encoder.0.self_attn.q"].shape
    assert lesson.question_for("scores", data, "ko").answer_labels == [f"[{s}, {d_k}]"]
    i, head = lesson.focus_query(data), lesson.focus_head(data)
    assert data.src_tokens[i] not in data.specials  # the focus is a real word, not [CLS]
    expected = int(data.trace["encoder.0.self_attn.weights"][0, head, i].argmax())
    assert lesson.question_for("softmax", data, "ko").answer == frozenset({expected})
    for step_id in ("causal_mask", "cross_attention", "next_token"):
        assert lesson.question_for(step_id, data, "ko") is None


def test_a_question_judges_right_wrong_and_no_guess():
    need(KO_EN)
    data = lesson_data(KO_EN, KO_SENTENCES[0])
    single = lesson.question_for("cross_attention", data, "en")
    right = next(iter(single.answer))
    wrong = next(i for i in range(len(single.options)) if i not in single.answer)
    assert single.is_right(right) is True and single.is_right(wrong) is False and single.is_right(None) is None
    multi = lesson.question_for("causal_mask", data, "en")
    assert multi.is_right(sorted(multi.answer)) is True
    assert multi.is_right(sorted(multi.answer)[:-1]) is False  # missing one position is wrong
    assert multi.is_right([*multi.answer, len(multi.options) - 1]) is False  # a future position is wrong


def test_the_sentences_give_different_questions():
    """Not hard-coded to one sentence: the cross-attention question changes with the sentence."""
    need(KO_EN)
    prompts = {lesson.question_for("cross_attention", lesson_data(KO_EN, text), "en").prompt for text in KO_SENTENCES}
    options = {lesson.question_for("softmax", lesson_data(KO_EN, text), "en").options for text in KO_SENTENCES}
    assert len(prompts) > 1 and len(options) == len(KO_SENTENCES)


# ------------------------------------------------------------------------------------------------
# Every step: its figure, shape and equation from the trace


@pytest.mark.parametrize("lang", ["ko", "en"])
@pytest.mark.parametrize(("model", "text"), [(KO_EN, KO_SENTENCES[0]), (ENCODER, EN_SENTENCES[0])])
def test_every_available_step_builds_one_figure_a_shape_and_an_equation(model: str, text: str, lang: str):
    need(model)
    data = lesson_data(model, text)
    shapes = {name: list(shape) for name, shape in data.trace.shapes().items()}
    for step in lesson.lesson_steps():
        if not lesson.available(step, data.has_decoder):
            with pytest.raises(ValueError, match="needs a decoder"):
                lesson.build_step(step, data, lang)
            continue
        view = lesson.build_step(step, data, lang)
        shown = [x is not None for x in (view.figure, view.chips_html, view.table)]
        assert sum(shown) == 1, (step.id, shown)  # ONE focused figure
        assert view.title and view.body and view.latex, step.id
        assert json.loads(view.shape) in list(shapes.values()), (step.id, view.shape)
        if view.figure is not None:
            assert view.figure.layout.title.text
    scores = lesson.build_step(lesson.lesson_steps()[number_of("scores") - 1], data, lang)
    i, head = lesson.focus_query(data), lesson.focus_head(data)
    bars = np.asarray(scores.figure.data[0].x, dtype=np.float32)
    assert np.allclose(bars, data.trace.numpy("encoder.0.self_attn.scores")[head][i])  # the traced numbers


def test_token_text_in_figure_titles_is_escaped():
    need(KO_EN)
    data = lesson_data(KO_EN, KO_SENTENCES[0])
    hostile = lesson.LessonData(**{**data.__dict__, "src_tokens": ["<b>x</b>", *data.src_tokens[1:]]})
    view = lesson.build_step(lesson.lesson_steps()[number_of("scores") - 1], hostile, "en")
    assert "<b>" not in view.figure.layout.title.text and "&lt;b&gt;" in view.figure.layout.title.text


# ------------------------------------------------------------------------------------------------
# Projector mode


def test_projector_figures_use_cividis_large_text_and_fit_one_screen():
    need(KO_EN)
    data = lesson_data(KO_EN, KO_SENTENCES[0])
    cividis = [list(c) for c in lesson.PROJECTOR_SCALE]
    for step in lesson.lesson_steps():
        view = lesson.build_step(step, data, "en")
        if view.figure is None:
            continue
        fig = lesson.projector_figure(view.figure).to_plotly_json()
        layout = fig["layout"]
        assert layout["font"]["size"] >= 20
        square_tiles = step.id == "full_picture"  # keeps its own height: its tiles stay square
        assert square_tiles or layout["height"] <= lesson.PROJECTOR_MAX_HEIGHT, step.id
        for key, axis in layout.items():
            if key.startswith(("xaxis", "yaxis")):
                assert axis["tickfont"]["size"] >= 20, (step.id, key)
        for trace in fig["data"]:
            if trace["type"] == "heatmap" and "colorscale" in trace:
                assert [list(c) for c in trace["colorscale"]] == cividis, step.id
        if "coloraxis" in layout:
            assert [list(c) for c in layout["coloraxis"]["colorscale"]] == cividis
        assert view.figure.layout.font.size < 20  # the original is left alone


def test_projector_css_hides_the_chrome_and_sets_large_body_text():
    assert "stSidebar" in lesson.page_css(True) and "stSidebar" not in lesson.page_css(False)
    assert "katex-display" in lesson.page_css(False)  # long equations scroll on a phone
    css = lesson.projector_css()
    assert css.startswith("<style>") and css.rstrip().endswith("</style>")
    for testid in ("stSidebar", "stHeader", "stToolbar"):
        assert f'[data-testid="{testid}"]' in css
    assert f"font-size: {lesson.PROJECTOR_BODY_PX}px" in css and lesson.PROJECTOR_BODY_PX >= 24
    assert "<script" not in css


# ------------------------------------------------------------------------------------------------
# Joining from a phone


def test_the_join_url_replaces_localhost_with_the_network_address_and_keeps_everything_else():
    params = {"text": "고양이가 생선을 먹었다.", "model": KO_EN, "lang": "English", "step": "7"}
    url, replaced = lesson.join_url("http://localhost:8501/lesson", params, lan_address="192.168.1.20")
    parts = urlsplit(url)
    assert replaced and parts.netloc == "192.168.1.20:8501" and parts.path == "/lesson"
    assert {k: v[0] for k, v in parse_qs(parts.query).items()} == params  # Korean text survives the round trip
    url, replaced = lesson.join_url("https://class.example.org/app/lesson", params, lan_address="10.0.0.1")
    assert not replaced and url.startswith("https://class.example.org/app/lesson?")
    url, replaced = lesson.join_url("http://127.0.0.1:8600/", {"step": "2"}, lan_address=None)
    assert not replaced and url == "http://127.0.0.1:8600/lesson?step=2"
    assert lesson.join_url(None, {"step": "1"})[0] == "http://localhost:8501/lesson?step=1"


# Byte-mode capacity at error correction level M, versions 1-10 (ISO/IEC 18004, table 7).
BYTE_CAPACITY_M = [14, 26, 42, 62, 84, 106, 122, 152, 180, 213]


@pytest.mark.parametrize("url", ["http://192.168.1.20:8501/lesson?step=3",
                                 "http://10.0.0.5:8501/lesson?text=%EA%B3%A0%EC%96%91%EC%9D%B4%EA%B0%80+%EC%83%9D"
                                 "%EC%84%A0%EC%9D%84&model=ko-en-toy&lang=%ED%95%9C%EA%B5%AD%EC%96%B4&step=13"])
def test_the_qr_code_holds_the_url_in_the_smallest_version_that_fits(url: str):
    import struct

    qr = lesson.qr_code(url)
    n_bytes = len(url.encode("utf-8"))
    assert qr.mode == "byte" and qr.error == "M" and not qr.is_micro
    version = int(qr.version)
    fits = [v + 1 for v, capacity in enumerate(BYTE_CAPACITY_M) if capacity >= n_bytes]
    assert fits and version == fits[0]  # the payload length decides the version
    matrix = np.array([list(row) for row in qr.matrix], dtype=np.uint8)
    assert matrix.shape == (17 + 4 * version,) * 2
    other = np.array([list(row) for row in lesson.qr_code(url + "0").matrix], dtype=np.uint8)
    assert other.shape != matrix.shape or (other != matrix).any()  # a different payload, a different code
    png = lesson.qr_png(url, scale=4)
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", png[16:24])
    assert width == height == (17 + 4 * version + 8) * 4  # the symbol plus a 4-module quiet zone, scaled


# ------------------------------------------------------------------------------------------------
# The page under AppTest

from tests.requirements_check import needed  # noqa: E402  (a skip, or a failure under CI=true)

streamlit_testing = needed("streamlit.testing.v1")


def new_lesson(model: str, text: str, lang: str, **params: str):
    at = streamlit_testing.AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.query_params.update({"model": model, "text": text, "lang": "English" if lang == "en" else "한국어",
                            **params})
    at.run()
    at.switch_page("pages/lesson.py").run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def charts(at) -> list[dict]:
    return [json.loads(chart.proto.spec) for chart in at.get("plotly_chart")]


def answer_and_reveal(at, question: lesson.Question, right: bool) -> None:
    pills = next(p for p in at.pills if p.key.startswith(f"lesson_q_{question.id}_"))
    if question.multi:
        choice = sorted(question.answer) if right else [len(question.options) - 1]
    else:
        choice = next(iter(question.answer)) if right else \
            next(i for i in range(len(question.options)) if i not in question.answer)
    pills.set_value(choice).run()
    at.button(key=f"lesson_reveal_{question.id}").click().run()
    assert not at.exception, [e.value for e in at.exception]


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["ko", "en"])
@pytest.mark.parametrize(("model", "text"), [(KO_EN, KO_SENTENCES[0]), (ENCODER, EN_SENTENCES[0])])
def test_the_lesson_walks_every_step_in_both_languages(model: str, text: str, lang: str):
    need(model)
    data = lesson_data(model, text)
    at = new_lesson(model, text, lang)
    visited, asked = [], 0
    while True:
        number = int(at.query_params["step"])
        step = lesson.lesson_steps()[number - 1]
        visited.append(step.id)
        heading = at.subheader[0].value
        assert str(number) in heading
        expected = lesson.build_step(step, data, lang)
        assert expected.title in heading
        assert any(m.value == expected.body for m in at.markdown), step.id
        if expected.focus:  # which layer, head and query the step follows
            assert expected.focus in [c.value for c in at.caption], step.id
        assert at.get("page_link")[-1].proto.page == Path(step.page).stem, step.id  # the full page
        if expected.question is not None:
            assert not charts(at), f"{step.id}: the figure must wait for the guess"
            right = asked % 2 == 0  # alternate right and wrong guesses
            answer_and_reveal(at, expected.question, right)
            assert (len(at.success) == 1) is right and (len(at.error) == 1) is (not right), step.id
            asked += 1
        assert any(expected.latex in latex.value for latex in at.latex), step.id
        if expected.figure is not None:
            assert len(charts(at)) == 1, step.id  # one figure per step
            assert charts(at)[0]["layout"]["title"]["text"] == expected.figure.layout.title.text
        if lang == "ko":
            assert any("\uac00" <= ch <= "\ud7a3" for ch in heading)
        else:
            assert not any("\uac00" <= ch <= "\ud7a3" for ch in heading)
        following = at.button(key="lesson_next")
        if following.disabled:
            break
        following.click().run()
        assert not at.exception, [e.value for e in at.exception]
    available = [s.id for s in lesson.lesson_steps() if lesson.available(s, data.has_decoder)]
    assert visited == available
    assert asked >= (6 if data.has_decoder else 3)
    at.button(key="lesson_prev").click().run()
    assert int(at.query_params["step"]) == lesson.lesson_steps().index(
        next(s for s in lesson.lesson_steps() if s.id == available[-2])) + 1


@pytest.mark.slow
def test_a_link_opens_its_step_and_projector_mode():
    need(KO_EN)
    step = str(number_of("multihead"))
    at = new_lesson(KO_EN, KO_SENTENCES[0], "en", step=step, present="1")
    assert at.query_params["step"] == step and at.query_params["present"] == "1"
    assert f"Step {step} of {len(lesson.lesson_steps())}" in at.subheader[0].value
    assert at.toggle(key="lesson_present_toggle").value is True
    styles = [h.proto.body for h in at.get("html") if "<style>" in h.proto.body]
    assert styles and "stSidebar" in styles[0]
    colorscale = charts(at)[0]["layout"]["coloraxis"]["colorscale"]
    assert [list(c) for c in colorscale] == [list(c) for c in lesson.PROJECTOR_SCALE]
    assert at.get("image"), "the QR code is on every projector step"
    at.toggle(key="lesson_present_toggle").set_value(False).run()
    assert "present" not in at.query_params and \
        not [h for h in at.get("html") if "<style>" in h.proto.body and "stSidebar" in h.proto.body]
    assert at.query_params["step"] == step


@pytest.mark.slow
def test_a_decoder_step_on_an_encoder_model_explains_the_absence():
    need(ENCODER)
    at = new_lesson(ENCODER, EN_SENTENCES[0], "en", step=str(number_of("cross_attention")))
    assert any("encoder-only" in i.value for i in at.info)
    assert not charts(at)
    at.button(key="lesson_next").click().run()
    assert at.query_params["step"] == str(number_of("full_picture"))


@pytest.mark.slow
def test_the_arrow_keys_act_only_while_a_projector_lesson_is_on_screen():
    """The → / ← listener stays in the browser tab but acts only while the page holds its marker (.lesson-keys,
    lesson.KEYS_JS): the projector lesson writes it; the lesson off the projector and the next page do not."""
    need(KO_EN)

    def has_keys(at) -> bool:
        return any('class="lesson-keys"' in html.proto.body for html in at.get("html"))

    at = new_lesson(KO_EN, KO_SENTENCES[0], "ko", step="5", present="1")
    assert has_keys(at)
    at.switch_page("pages/encoder.py").run()
    assert not at.exception and not has_keys(at)
    assert not has_keys(new_lesson(KO_EN, KO_SENTENCES[0], "ko", step="5"))


def test_empty_and_hostile_text_on_the_lesson_page():
    need(KO_EN)
    at = new_lesson(KO_EN, "   ", "en", step=str(number_of("softmax")))
    assert at.info and not charts(at) and not at.error
    hostile = "<img src=x onerror=alert(1)> **bold** [link](http://example.com) $x$"
    for step in ("1", str(number_of("softmax")), str(number_of("cross_attention"))):
        at = new_lesson(KO_EN, hostile, "en", step=step)
        for element in list(at.markdown) + list(at.caption) + list(at.info) + list(at.success):
            assert "<img src=x" not in element.value and hostile not in element.value, step
        for html in at.get("html"):
            assert "<img" not in html.proto.body, step
        for chart in charts(at):
            assert "<img" not in json.dumps(chart["layout"].get("title", {})), step


# ------------------------------------------------------------------------------------------------
# The text follows the chosen model (one check per bundled model), and the new steps' numbers are the
# formulas written out here


BUNDLED = ["ko-en-toy", "reverse", "paper-base", "minilm-l6"]
PROBE = {"ko-en-toy": KO_SENTENCES[0], "reverse": "attention", "paper-base": KO_SENTENCES[1],
         "minilm-l6": EN_SENTENCES[0]}


@cache
def every_view(model: str, lang: str) -> dict[str, lesson.StepView]:
    data = lesson_data(model, PROBE[model])
    return {s.id: lesson.build_step(s, data, lang) for s in lesson.lesson_steps()
            if lesson.available(s, data.has_decoder)}


def all_text(view: lesson.StepView) -> str:
    return "\n".join([view.title, view.body, view.latex, view.focus, view.reveal])


@pytest.mark.slow  # over 3 s (issue 49: `make test-fast` keeps the tests of a few seconds)
@pytest.mark.parametrize("lang", ["ko", "en"])
@pytest.mark.parametrize("model", BUNDLED)
def test_the_lesson_text_follows_the_model(model: str, lang: str):
    need(model)
    config = loaded(model).config
    views = every_view(model, lang)
    assert len(lesson.lesson_steps()) >= 18
    post_ln = r"\text{LayerNorm}(x + \text{MHA}(x))"
    pre_ln = r"x + \text{MHA}(\text{LN}(x))"
    layer = views["encoder_layer"].latex
    if config.norm_first:  # reverse: the pre-LN formula, never the paper's post-LN one
        assert pre_ln in layer and post_ln not in layer
        assert "pre-LN" in views["addnorm"].latex and post_ln not in views["addnorm"].latex
        assert STRINGS["lesson.addnorm.body_pre"][lang == "en"] in views["addnorm"].body
    else:
        assert post_ln in layer and pre_ln not in layer
        assert r"\text{LayerNorm}(x + \text{MHA}(x))" in views["addnorm"].latex
    scaled_sentence = t_("lesson.embedding.scaled", lang)
    if not config.scale_embedding:  # MiniLM: never told it is multiplied by √d_model
        for view in views.values():
            assert scaled_sentence not in view.body, view.step.id
            assert r"\sqrt{d_{model}} = \sqrt" not in view.latex and "E[id]·√d" not in str(view.figure), view.step.id
        assert STRINGS["lesson.embedding.no_scale"][lang == "en"] in views["embedding"].body
    else:
        assert scaled_sentence in views["embedding"].body
    # the words after the name (a Korean particle after {name} takes the form the name is read with)
    untrained = STRINGS["lesson.untrained"][lang == "en"].split("{name}")[1].removeprefix("은(는)")[:12]
    for view in views.values():  # paper-base: "untrained" on every step; the trained models: never
        assert (untrained in view.body) is (not loaded(model).trained), view.step.id
    ko_en_sentence = STRINGS["lesson.cross_attention.task_ko_en"][lang == "en"]
    korean_english = [v.step.id for v in views.values() if ko_en_sentence in v.body
                      or STRINGS["lesson.causal_mask.task_ko_en"][lang == "en"] in v.body]
    assert (korean_english != []) is (model == "ko-en-toy"), korean_english
    if model == "reverse":
        assert STRINGS["lesson.cross_attention.task_reverse"][lang == "en"] in views["cross_attention"].body
    if config.positional == "learned":
        assert STRINGS["lesson.sinusoids.learned"][lang == "en"][:20] in views["sinusoids"].body


def t_(key: str, lang: str) -> str:
    """A catalog sentence up to its first placeholder (enough to find it in a body)."""
    return STRINGS[key][lang == "en"].split("{")[0]


def test_pe_of_pos_plus_k_is_a_rotation_of_pe_of_pos_in_the_models_table():
    need(KO_EN)
    data = lesson_data(KO_EN, KO_SENTENCES[0])
    pos = data.trace["src.pos"].double().numpy()  # [S, d] (numpy() would drop a leading batch axis)
    d = data.info.d_model
    p, k = lesson.paper.rotation_positions(pos.shape[0])
    assert k >= 1
    omega = np.array([1.0 / 10000 ** (2 * i / d) for i in range(d // 2)])
    expected = np.empty(d)  # the paper's formula at pos + k, written out
    expected[0::2], expected[1::2] = np.sin((p + k) * omega), np.cos((p + k) * omega)
    assert np.allclose(pos[p + k], expected, atol=1e-5)
    assert np.allclose(lesson.paper.rotated(pos[p], k, d), expected, atol=1e-5)
    minilm = lesson_data(ENCODER, EN_SENTENCES[0]) if ENCODER in AVAILABLE else None
    if minilm is not None:  # learned positions: no rotation
        learned = minilm.trace["src.pos"].double().numpy()
        miss = np.abs(lesson.paper.rotated(learned[1], 2, minilm.info.d_model) - learned[3]).max()
        assert miss > 0.1 * np.abs(learned[3]).max()  # sinusoids: below 1e-5 of it


def test_the_training_step_numbers_are_the_papers_formulas_and_torchs_losses():
    import torch

    need(KO_EN)
    data = lesson_data(KO_EN, KO_SENTENCES[0])
    d = data.info.d_model
    assert lesson.paper.learning_rate(np.array([4000]), d)[0] == pytest.approx(d ** -0.5 * 4000 ** -0.5)
    assert lesson.paper.learning_rate(np.array([100]), d)[0] == pytest.approx(d ** -0.5 * 100 * 4000 ** -1.5)
    assert lesson.paper.learning_rate(np.array([16000]), d)[0] == pytest.approx(d ** -0.5 * 16000 ** -0.5)
    ce, smoothed, n = lesson.paper.training_losses(data)
    # teacher-forced training scores every row, the last one too (it predicts the end token)
    logits = torch.as_tensor(data.trace.numpy("logits")).double()
    eos = loaded(KO_EN).tokenizer.eos_token_id
    targets = torch.as_tensor([*[int(i) for i in data.trace.numpy("tgt.ids")][1:], eos])
    assert n == logits.shape[0] == len(targets)
    assert ce == pytest.approx(float(torch.nn.functional.cross_entropy(logits, targets)), abs=1e-6)
    assert smoothed == pytest.approx(float(torch.nn.functional.cross_entropy(logits, targets, label_smoothing=0.1)),
                                     abs=1e-6)


def test_the_decoding_step_scores_with_gnmts_penalty():
    need(KO_EN)
    data = lesson_data(KO_EN, KO_SENTENCES[0])
    assert lesson.paper.gnmt_penalty(7) == pytest.approx(((5 + 7) / 6) ** 0.6)
    log_p, length = lesson.paper.output_log_probability(data)
    logits = data.trace.numpy("logits").astype(np.float64)
    log_probs = logits - np.log(np.exp(logits - logits.max(-1, keepdims=True)).sum(-1, keepdims=True)) \
        - logits.max(-1, keepdims=True)
    written = [*[int(i) for i in data.trace.numpy("tgt.ids")][1:], loaded(KO_EN).tokenizer.eos_token_id]
    assert length == len(written)
    assert lesson.paper.training_losses(data)[2] == length  # step 21 averages over the rows step 20 counts
    assert log_p == pytest.approx(sum(log_probs[t, w] for t, w in enumerate(written)), abs=1e-6)


def test_shared_weights_and_cross_kv_are_checked_on_the_model():
    need(KO_EN)
    data = lesson_data(KO_EN, KO_SENTENCES[0])
    model = loaded(KO_EN).model
    assert data.facts.tied and model.lm_head.weight is model.src.token.weight  # the same Parameter
    # Recomputed here, head by head from the weight rows, not through model_facts: K and V of every decoder
    # layer's cross-attention are the FINAL encoder output times that layer's W_K, W_V (plus bias).
    memory = data.trace.numpy("encoder.out").astype(np.float64)  # [S, D] (numpy() drops the batch axis)
    n_heads = model.config.n_heads
    d_k = model.config.d_model // n_heads
    errors, trap_errors = [], []
    for layer, block in enumerate(model.decoder.layers):
        worst = trap = 0.0
        for name, proj, other in (("k", block.cross_attn.w_k, block.cross_attn.w_v),
                                  ("v", block.cross_attn.w_v, block.cross_attn.w_k)):
            recorded = data.trace.numpy(f"decoder.{layer}.cross_attn.{name}").astype(np.float64)  # [H, S, d_k]
            for h in range(n_heads):
                rows = slice(h * d_k, (h + 1) * d_k)
                weight = proj.weight.detach().double().numpy()[rows]  # [d_k, D]
                bias = proj.bias.detach().double().numpy()[rows]
                worst = max(worst, float(np.abs(memory @ weight.T + bias - recorded[h]).max()))
                wrong = other.weight.detach().double().numpy()[rows]  # the trap: V projected with W_K
                trap = max(trap, float(np.abs(memory @ wrong.T + other.bias.detach().double().numpy()[rows]
                                              - recorded[h]).max()))
        errors.append(worst)
        trap_errors.append(trap)
    assert max(errors) < 1e-4 and min(trap_errors) > 1e-2  # the right weights rebuild K, V; the swapped ones do not
    assert data.facts.cross_kv_error == pytest.approx(errors, abs=1e-5)  # the figure the lesson prints
    view = every_view(KO_EN, "en")["shared_weights"]
    assert r"\max\lvert W_{out} - E\rvert = 0.000" in view.latex


def test_table_1_is_filled_in_with_this_sentences_n_and_the_models_d():
    need(KO_EN)
    data = lesson_data(KO_EN, KO_SENTENCES[0])
    n, d = data.n_src, data.info.d_model
    table = every_view(KO_EN, "en")["why_attention"].table
    assert table.iloc[0, 2] == f"{n * n * d:,}" and table.iloc[1, 2] == f"{n * d * d:,}"
    assert table.iloc[1, 5] == n and table.iloc[0, 5] == 1
