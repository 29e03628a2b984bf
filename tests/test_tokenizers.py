"""The two tokenizers: built with `tokenizers`, loaded back with transformers.AutoTokenizer, offline."""

from __future__ import annotations

import json
import unicodedata
from pathlib import Path

import pytest

from transformer_core.data import BOS_ID, EOS_ID, PAD_ID, UNK_ID, generate_pairs
from transformer_core.data.charset import COMPATIBILITY_JAMO, EMOJI, HANGUL_SYLLABLES
from transformer_core.io.loading import load_tokenizer, models_dir
from transformer_core.tasks import task_named

WEIRD_INPUTS = ["", " ", "   \n\t ", "😀", "👍🏽", "❤️", "Hello, World!", "日本語のテキスト", "ㅋㅋㅋ", "a" * 500,
                "고양이가\u200b생선을", "<s></s><pad>", "e\u0301", "\x00\x01", "🇰🇷", "?!.,", "1234567890"]


@pytest.fixture(scope="module", params=["ko-en", "reverse"])
def saved_tokenizer(request, tmp_path_factory):
    """Each tokenizer saved with save_pretrained and loaded back the way the app loads it."""
    directory = tmp_path_factory.mktemp(request.param)
    task_named(request.param).tokenizer().save_pretrained(str(directory))
    return request.param, load_tokenizer(directory)


@pytest.fixture(scope="module")
def ko_en(tmp_path_factory):
    directory = tmp_path_factory.mktemp("ko-en")
    task_named("ko-en").tokenizer().save_pretrained(str(directory))
    return load_tokenizer(directory)


@pytest.fixture(scope="module")
def reverse(tmp_path_factory):
    directory = tmp_path_factory.mktemp("reverse")
    task_named("reverse").tokenizer().save_pretrained(str(directory))
    return load_tokenizer(directory)


def test_special_token_ids(saved_tokenizer):
    _, tokenizer = saved_tokenizer
    assert (tokenizer.pad_token_id, tokenizer.bos_token_id, tokenizer.eos_token_id, tokenizer.unk_token_id) == (
        PAD_ID, BOS_ID, EOS_ID, UNK_ID) == (0, 1, 2, 3)
    assert tokenizer.convert_ids_to_tokens([0, 1, 2, 3]) == ["<pad>", "<s>", "</s>", "<unk>"]


def test_saved_files(tmp_path):
    task_named("ko-en").tokenizer().save_pretrained(str(tmp_path))
    assert (tmp_path / "tokenizer.json").is_file()
    config = json.loads((tmp_path / "tokenizer_config.json").read_text(encoding="utf-8"))
    assert (config["bos_token"], config["eos_token"], config["pad_token"], config["unk_token"]) == (
        "<s>", "</s>", "<pad>", "<unk>")


def test_encoding_appends_eos(saved_tokenizer):
    _, tokenizer = saved_tokenizer
    ids = tokenizer("고양이가 생선을 먹는다.")["input_ids"]
    assert ids[-1] == EOS_ID
    assert BOS_ID not in ids


@pytest.mark.parametrize("text", WEIRD_INPUTS)
def test_weird_input_ends_with_eos_and_decodes_without_loss(saved_tokenizer, text):
    _, tokenizer = saved_tokenizer
    ids = tokenizer(text)["input_ids"]
    assert ids[-1] == EOS_ID
    decoded = tokenizer.decode(ids, skip_special_tokens=True)
    assert not any(special in decoded and special not in text for special in tokenizer.all_special_tokens), decoded
    if not set(tokenizer.all_special_ids) & set(ids[:-1]):  # only real pieces (no <unk>) before the EOS:
        assert tokenizer(decoded)["input_ids"] == ids, (text, decoded)  # decoding loses nothing


def test_ko_en_pieces_and_punctuation(ko_en):
    """Korean words split into stem + particle/ending pieces; English words stay whole."""
    tokens = ko_en.convert_ids_to_tokens(ko_en("고양이가 생선을 먹었니?")["input_ids"])
    assert tokens == ["고양이", "##가", "생선", "##을", "먹었", "##니", "?", "</s>"]
    tokens = ko_en.convert_ids_to_tokens(ko_en("A cat eats fish.")["input_ids"])
    assert tokens == ["A", "cat", "eats", "fish", ".", "</s>"]
    # A known stem with a known ending is known even if the grammar never wrote this sentence.
    tokens = ko_en.convert_ids_to_tokens(ko_en("우리 엄마는 학교에 갔어요.")["input_ids"])
    assert tokens == ["우리", "엄마", "##는", "학교", "##에", "갔", "##어요", ".", "</s>"]
    # Punctuation splits even without spaces; a word with any unknown part is one <unk>.
    tokens = ko_en.convert_ids_to_tokens(ko_en("고양이가 생선을 좋아해요!?")["input_ids"])
    assert tokens == ["고양이", "##가", "생선", "##을", "좋아", "##해", "##요", "<unk>", "?", "</s>"]
    tokens = ko_en.convert_ids_to_tokens(ko_en("고양이가 생선을 좋아하거든요")["input_ids"])
    assert tokens == ["고양이", "##가", "생선", "##을", "<unk>", "</s>"]
    # (Hello is a word since learner9's set phrases: 안녕하세요 -> Hello)
    assert ko_en.convert_ids_to_tokens(ko_en("Howdy 😀 world")["input_ids"]) == ["<unk>"] * 3 + ["</s>"]


def test_ko_en_shares_one_vocabulary(ko_en):
    vocab = ko_en.get_vocab()
    assert "고양이" in vocab and "##가" in vocab and "cat" in vocab and "The" in vocab and "the" in vocab
    assert "고양이가" not in vocab  # particles are pieces of their own
    assert len(set(vocab.values())) == len(vocab) == len(ko_en)


def test_ko_en_decode_joins_words_and_attaches_punctuation(ko_en):
    for pair in generate_pairs(300, seed=9):
        for words, text in ((pair.source, pair.source_text), (pair.target, pair.target_text)):
            ids = ko_en(text)["input_ids"]
            assert ko_en.convert_ids_to_tokens(ids[:-1]) == list(words)
            assert ko_en.decode(ids, skip_special_tokens=True) == text
            with_bos = [BOS_ID, *ids, PAD_ID, PAD_ID]
            assert ko_en.decode(with_bos, skip_special_tokens=True) == text


def test_reverse_is_character_level_and_keeps_spaces(reverse):
    text = "Hi  there, 한국어 😀!"
    ids = reverse(text)["input_ids"]
    assert len(ids) == len(text) + 1
    assert "".join(reverse.convert_ids_to_tokens(ids[:-1])) == text
    assert reverse.decode(ids, skip_special_tokens=True) == text
    assert reverse.decode(ids[:-1][::-1], skip_special_tokens=True) == text[::-1]
    assert reverse.decode(reverse(" a ")["input_ids"], skip_special_tokens=True) == " a "


def test_reverse_vocabulary(reverse):
    vocab = reverse.get_vocab()
    assert all(char in vocab for char in HANGUL_SYLLABLES)
    assert len(HANGUL_SYLLABLES) == 11172
    assert all(char in vocab for char in COMPATIBILITY_JAMO)
    assert all(chr(c) in vocab for c in range(0x20, 0x7F))
    assert 300 <= len(EMOJI) <= 800 and all(char in vocab for char in EMOJI)
    assert UNK_ID in reverse("日")["input_ids"]


def test_reverse_normalizes_decomposed_hangul(reverse):
    decomposed = unicodedata.normalize("NFD", "한국")
    assert len(decomposed) == 6  # ㅎㅏㄴㄱㅜㄱ
    assert reverse.convert_ids_to_tokens(reverse(decomposed)["input_ids"]) == ["한", "국", "</s>"]


def test_bundled_ko_en_tokenizer_matches_the_code():
    """models/ko-en-toy/tokenizer.json is what the code writes for the grammar its config.json names (same ids)."""
    import json

    from transformer_core.data.tokenization import build_ko_en_tokenizer

    directory = models_dir() / "ko-en-toy"
    bundled = load_tokenizer(directory)
    grammar = json.loads((directory / "config.json").read_text(encoding="utf-8"))["grammar"]
    assert bundled.get_vocab() == build_ko_en_tokenizer(grammar=grammar).get_vocab()


def test_bundled_reverse_tokenizer_matches_the_code():
    directory = models_dir() / "reverse"
    if not (directory / "tokenizer.json").is_file():
        pytest.fail(f"{Path(directory)} has no tokenizer.json")
    assert load_tokenizer(directory).get_vocab() == task_named("reverse").tokenizer().get_vocab()


@pytest.mark.parametrize("task", ["ko-en", "reverse"])
def test_typed_special_tokens_stay_text(task, tmp_path):
    """"<pad>", "</s>", "<s>", "<unk>" typed by a user are characters, never control tokens."""
    task_named(task).tokenizer().save_pretrained(str(tmp_path))
    tokenizer = load_tokenizer(tmp_path)
    for text in ["<pad>", "</s>", "<s>", "<unk>", "a </s> b", "<pad><pad>", "[SEP] [CLS] [PAD] [MASK]"]:
        ids = tokenizer(text)["input_ids"]
        assert ids[-1] == EOS_ID and EOS_ID not in ids[:-1]
        assert PAD_ID not in ids and BOS_ID not in ids
        if task == "reverse":  # character level: every typed character is its own token
            assert len(ids) == len(text) + 1
