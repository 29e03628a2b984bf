"""A text's pieces as the pages show them: the Tokenization value (built by explorer/tokenizer_service.py, which
runs the tokenizer), its piece <-> word table and its coloured chips. Pure: no tokenizer is called here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import pandas as pd


def word_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of each whitespace-separated word of `text`."""
    return [(m.start(), m.end()) for m in re.finditer(r"\S+", text)]


@dataclass(frozen=True)
class Tokenization:
    """One text through one tokenizer: pieces, ids and what each piece is."""

    pieces: list[str]
    ids: list[int]
    is_special: list[bool]
    is_unk: list[bool]
    word_index: list[int | None]  # index of the whitespace-separated input word, None for specials
    words: list[str]  # the input's whitespace-separated words
    n_truncated: int  # pieces cut to fit max_length (0 if none)

    @property
    def n_unk(self) -> int:
        return sum(self.is_unk)


def tokenization_table(tok: Tokenization, labels: dict[str, str]) -> pd.DataFrame:
    """The piece <-> word table; `labels` names the columns (pos, piece, id, kind, word_index, word)."""
    kinds = []
    for special, unk in zip(tok.is_special, tok.is_unk, strict=True):
        kinds.append(labels["unk"] if unk else labels["special"] if special else labels["normal"])
    return pd.DataFrame({
        labels["pos"]: range(len(tok.pieces)),
        labels["piece"]: tok.pieces,
        labels["id"]: tok.ids,
        labels["kind"]: kinds,
        labels["word_index"]: ["—" if w is None else str(w) for w in tok.word_index],
        labels["word"]: [tok.words[w] if w is not None else "" for w in tok.word_index],
    })


def token_chips_html(tok: Tokenization, unk_title: str = "UNK", special_title: str = "special") -> str:
    """Pieces as coloured chips (HTML). Every piece is HTML-escaped: user text is never markup."""
    import html

    chips = []
    for piece, token_id, special, unk in zip(tok.pieces, tok.ids, tok.is_special, tok.is_unk, strict=True):
        if unk:
            style, title = "background:#fde2e1;border:2px solid #d93025;color:#a50e0e;", unk_title
        elif special:
            style, title = "background:#ececec;border:1px dashed #777;color:#444;", special_title
        else:
            style, title = "background:#e8f0fe;border:1px solid #8ab4f8;color:#174ea6;", ""
        shown = piece.replace(" ", "␣") if piece.strip() else (piece.replace(" ", "␣") or "∅")
        chips.append(
            f'<span title="{html.escape(title)}" style="{style}display:inline-block;margin:3px;padding:4px 8px;'
            f'border-radius:12px;font-size:1.05rem;font-family:\'Noto Sans CJK KR\',sans-serif;">'
            f'{html.escape(shown)}<sub style="margin-left:4px;color:#666;font-size:0.7rem">{int(token_id)}</sub></span>'
        )
    return '<div style="line-height:2.2">' + "".join(chips) + "</div>"
