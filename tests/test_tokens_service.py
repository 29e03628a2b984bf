"""explorer/tokens_service.py without Streamlit: the sentence through the bundled tokenizers, each distinct one once,
a tokenizer that fails to load or repeats another as a note (never an error)."""

from __future__ import annotations

import pytest

from explorer import tokens_service
from transformer_core.io.loading import load_tokenizer, models_dir

TEXT = "고양이가 공원에서 생선을 먹었다."


def bundled(name: str):
    return load_tokenizer(models_dir() / name)


def test_source_pieces_are_the_tokenizers_own_and_cut_to_the_models_longest_input():
    tokenizer = bundled("reverse")
    ids = tokenizer(TEXT)["input_ids"]
    whole = tokens_service.source_tokens(tokenizer, TEXT, None)
    assert whole.ids == list(ids) and whole.pieces == tokenizer.convert_ids_to_tokens(list(ids))
    cut = tokens_service.source_tokens(tokenizer, TEXT, 5)
    assert len(cut.ids) == 5 and cut.n_truncated == len(ids) - 5


def test_the_comparison_keeps_each_distinct_tokenizer_once_and_notes_the_rest():
    loaded = {"ko-en-toy": bundled("ko-en-toy"), "reverse": bundled("reverse"), "copy-of-toy": bundled("ko-en-toy")}

    def load(name: str):
        if name == "broken":
            raise OSError("no tokenizer.json")
        return loaded[name]

    comparison = tokens_service.compare_with_others("ko-en-toy", loaded["ko-en-toy"], TEXT,
                                                    ["ko-en-toy", "reverse", "copy-of-toy", "broken"], load)
    assert list(comparison.results) == ["ko-en-toy", "reverse"]
    for name, tok in comparison.results.items():
        assert tok.ids == list(loaded[name](TEXT)["input_ids"])
    assert comparison.notes == [tokens_service.TokenizerNote("same", "copy-of-toy", other="ko-en-toy"),
                                tokens_service.TokenizerNote("failed", "broken", reason="OSError")]


@pytest.mark.parametrize("others", [[], ["ko-en-toy"]])
def test_nothing_to_compare_gives_no_results(others):
    tokenizer = bundled("ko-en-toy")
    comparison = tokens_service.compare_with_others("ko-en-toy", tokenizer, TEXT, others, lambda name: tokenizer)
    assert comparison.results == {} and comparison.notes == []
