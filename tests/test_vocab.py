"""Issue 13: everyday Korean the translator knows (coverage), an honest notice when it does not,
examples one click away, the searchable word list, and user text that never becomes a control token."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import transformer_core as core
from explorer.figures.vocab import (
    marked_text_markdown,
    search_words,
    unknown_words,
    unknown_words_from_pieces,
)
from explorer.tokenizer_service import from_tokens, tokenize
from explorer.vocab_service import known_words, load_examples
from tests.requirements_check import needed
from transformer_core.inference.text import encode_text
from transformer_core.io.loading import load_tokenizer, models_dir
from transformer_core.tasks import task_named

ROOT = Path(__file__).resolve().parent.parent
EVERYDAY = ROOT / "tests" / "data" / "everyday_korean.txt"
HANGUL = re.compile("[가-힣]")
TYPED_SPECIALS = "<pad> </s> <s> <unk> [SEP] [CLS] [PAD] [MASK] a<pad>b"


def everyday_sentences() -> list[str]:
    lines = EVERYDAY.read_text(encoding="utf-8").splitlines()
    return [line for line in lines if line.strip() and not line.startswith("#")]


def available_models() -> list[str]:
    return [info.name for info in core.list_models() if info.available]


# --- coverage -------------------------------------------------------------------------------------------

def test_everyday_sentences_are_mostly_known_to_the_bundled_translator():
    """Share of 어절 (space-separated words) with no <unk> piece, on hand-written sentences >= 85 %."""
    sentences = everyday_sentences()
    assert len(sentences) >= 40
    tokenizer = load_tokenizer(models_dir() / "ko-en-toy")
    words = [word for sentence in sentences for word in sentence.split()]
    known = [tokenizer.unk_token not in tokenizer.tokenize(word) for word in words]
    coverage = sum(known) / len(words)
    print(f"everyday coverage: {sum(known)} of {len(words)} 어절 = {coverage:.1%}")
    assert coverage >= 0.85


def test_the_model_card_and_readme_state_the_coverage_and_quality():
    card = (models_dir() / "ko-en-toy" / "README.md").read_text(encoding="utf-8")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    exact = re.search(r"exact match: (\d+\.\d)%", card)
    alignment = re.search(r"alignment accuracy \(best layer, head average\): (\d+\.\d)%", card)
    coverage = re.search(r"everyday coverage: (\d+\.\d)%", card)
    assert exact and alignment and coverage, "the card lacks its measured figures"
    for figure in (exact, alignment, coverage):
        assert f"{figure.group(1)} %" in readme or f"{figure.group(1)}%" in readme, figure.group(0)


# --- the honest notice --------------------------------------------------------------------------------

def test_unknown_words_counts_words_with_an_unk_piece():
    tokenizer = task_named("ko-en").tokenizer()
    report = unknown_words(tokenize(tokenizer, "고양이가 쩝쩝거리며 생선을 꿀꺽했다 ?"))
    assert report.words == ["고양이가", "쩝쩝거리며", "생선을", "꿀꺽했다"]  # a lone "?" is not a word
    assert report.unknown == [False, True, False, True]
    assert (report.n_unknown, report.n_words) == (2, 4)
    assert report.unknown_words == ["쩝쩝거리며", "꿀꺽했다"]
    known = unknown_words(tokenize(tokenizer, "우리 엄마는 학교에 갔어요."))
    assert known.n_unknown == 0 and known.n_words == 4


ODD_INPUTS = ["고양이가 쩝쩝거리며 생선을 꿀꺽했다 ?", "고양이가 🐱 공원에서 xyzzy를 먹었다!",
              "Hello 世界, café NAÏVE déjà-vu 😀 ok?", "  spaces   and\ttabs 고양이가  ", "?", "ÅngströmΩ ﬁne ｆｕｌｌ",
              "a b c 가나다 라마 😀😀 끝.",
              "빠르게 달렸다 ㅋㅋㅋ 퍽!", "zero\u200bwidth 고양이\u0301가"]


@pytest.mark.parametrize("name", available_models())
def test_unknown_words_from_the_traces_pieces_match_the_tokenizers_offsets(name):
    """The overview reads unknown words from the trace's own pieces (no second tokenization): on odd input
    (emoji, mixed scripts, accents, ligatures, tabs, zero-width characters, a long text cut to max_len) it finds
    the same words as the tokenizer's character offsets do."""
    loaded = core.load(name)
    tokenizer, max_len = loaded.tokenizer, loaded.config.max_len
    long_text = " ".join(ODD_INPUTS) * 12
    checked_unknown = 0
    for text in [*ODD_INPUTS, long_text]:
        for limit in (max_len, 12):
            expected = unknown_words(tokenize(tokenizer, text, max_length=limit))
            if limit == max_len:  # the pieces a trace holds: what the core encoded
                ids, n_full = encode_text(loaded, text)
                pieces, truncated = tokenizer.convert_ids_to_tokens(ids), n_full > len(ids)
            else:
                cut = tokenize(tokenizer, text, max_length=limit)
                pieces, truncated = cut.pieces, cut.n_truncated > 0
            got = unknown_words_from_pieces(text, from_tokens(tokenizer, pieces), truncated=truncated)
            assert (got.words, got.unknown) == (expected.words, expected.unknown), (name, limit, text[:40])
            checked_unknown += expected.n_unknown
    assert checked_unknown > 0  # the inputs do hold words this model cannot see


def test_marked_text_escapes_user_text():
    tokenizer = task_named("ko-en").tokenizer()
    markdown = marked_text_markdown(unknown_words(tokenize(tokenizer, "**굵게** 고양이가")))
    assert "**굵게**" not in markdown and "\\*\\*굵게\\*\\*" in markdown
    assert markdown.count(":orange-background[") == 1


# --- examples and the word list ---------------------------------------------------------------------------

def test_the_translator_card_lists_examples_for_every_grammar_feature():
    examples = load_examples(models_dir() / "ko-en-toy")
    texts = [e["text"] for e in examples]
    assert len(texts) >= 12 and len(set(texts)) == len(texts)
    assert all(HANGUL.search(text) for text in texts)  # Korean first: every example is Korean
    joined = " ".join(texts)
    for feature in ("뭐", "누가", "어디", "언제", "어때", "이에요", "아니에요", "와 ", "습니다", "거예요", "안 ",
                    "어?", "다.", "세 명", "로 "):
        assert feature in joined, feature
    readme = (models_dir() / "ko-en-toy" / "README.md").read_text(encoding="utf-8")
    assert all(text in readme for text in texts), "the model card lists its examples"


def test_every_model_offers_examples():
    for name in available_models():
        directory = models_dir() / name
        fallback = models_dir() / "ko-en-toy" if name == "paper-base" else None
        examples = load_examples(directory if directory.is_dir() else None, name, fallback)
        assert len(examples) >= 3, name


def test_word_list_is_searchable_by_korean_english_and_category():
    table = known_words()
    assert len(table) >= 1500
    assert {"animal", "food", "verb", "adjective", "place", "weather"} <= set(table["category"])
    cats = search_words(table, "고양이")
    assert "cat" in set(cats["english"])
    assert "학교" in set(search_words(table, "SCHOOL")["korean"])
    animals = search_words(table, "", "animal")
    assert set(animals["category"]) == {"animal"} and len(animals) > 50


# --- user text stays text --------------------------------------------------------------------------------

@pytest.mark.parametrize("name", available_models())
def test_typed_special_tokens_are_text_on_every_model(name):
    """Typed <pad>, </s>, [SEP] ... never become control tokens: the source mask is all True, nothing is
    masked away, and the special tokens the pipeline adds itself (EOS, or CLS ... SEP) are still there."""
    loaded = core.load(name)
    tokenizer = loaded.tokenizer
    ids, _ = encode_text(loaded, TYPED_SPECIALS)
    pad_id = loaded.config.pad_token_id
    assert pad_id not in ids
    specials_added = [i for i in ids if i in set(tokenizer.all_special_ids) and i != tokenizer.unk_token_id]
    if loaded.kind == "encoder":  # BERT: [CLS] first, [SEP] last, and no other control token
        assert ids[0] == tokenizer.cls_token_id and ids[-1] == tokenizer.sep_token_id
        assert specials_added == [tokenizer.cls_token_id, tokenizer.sep_token_id]
    else:
        assert ids[-1] == tokenizer.eos_token_id and specials_added == [tokenizer.eos_token_id]
    traced = core.trace_text(loaded, TYPED_SPECIALS, max_new_tokens=2)
    mask = traced.trace["src.mask"]
    assert mask.shape[-1] == len(ids) and bool(mask.all())
    assert traced.src_tokens.count(tokenizer.pad_token) == 0


# --- the app --------------------------------------------------------------------------------------------

def _app(text: str | None, model: str = "ko-en-toy"):
    streamlit_testing = needed("streamlit.testing.v1")
    at = streamlit_testing.AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.query_params["model"] = model
    if text is not None:
        at.query_params["text"] = text
    at.query_params["lang"] = "English"
    return at


@pytest.mark.skipif("ko-en-toy" not in available_models(), reason="needs models/ko-en-toy")
def test_overview_says_how_many_words_are_unknown_and_marks_them():
    at = _app("고양이가 쩝쩝거리며 생선을 꿀꺽했다.").run()
    assert not at.exception, [e.value for e in at.exception]
    warnings = [w.value for w in at.warning]
    assert any("2 of 4 words are unknown to this model" in w and "guess" in w for w in warnings), warnings
    marked = " ".join(m.value for m in at.markdown)
    assert ":orange-background[**쩝쩝거리며**]" in marked and ":orange-background[**꿀꺽했다\\.**]" in marked
    assert ":orange-background[**고양이가**]" not in marked
    known = _app("우리 엄마는 학교에 갔어요.").run()
    assert not any("unknown to this model" in w.value for w in known.warning)


@pytest.mark.skipif("ko-en-toy" not in available_models(), reason="needs models/ko-en-toy")
def test_example_pills_put_the_sentence_in_the_input_in_one_click():
    at = _app(None).run()
    pills = at.button_group(key="example_pick")
    examples = [e["text"] for e in load_examples(models_dir() / "ko-en-toy")]
    assert pills.options == examples
    pills.set_value(examples[0]).run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.text_input(key="text").value == examples[0]
    assert at.button_group(key="example_pick").value is None  # released: the same pill works again
    assert examples[0] in [c.value for c in at.code]  # the overview shows the new input


@pytest.mark.skipif("ko-en-toy" not in available_models(), reason="needs models/ko-en-toy")
def test_tokens_page_explains_the_pieces_and_searches_the_word_list():
    at = _app("고양이가 생선을 먹었다.").run()
    at.switch_page("pages/tokens.py").run()
    assert not at.exception, [e.value for e in at.exception]
    labels = [e.label for e in at.expander]
    assert any("Why cut it like this" in label for label in labels)
    assert any(label.startswith("Words the translator knows") for label in labels)
    assert any("학교에 → 학교 \\#\\#에" in m.value for m in at.markdown)
    at.text_input(key="wordlist_query").set_value("cat").run()
    table = next(frame.value for frame in at.dataframe if "Korean" in frame.value.columns)  # the word list
    assert "고양이" in set(table["Korean"]) and all("cat" in e.lower() or "cat" in k for k, e in
                                                    zip(table["Korean"], table["English"], strict=True))
