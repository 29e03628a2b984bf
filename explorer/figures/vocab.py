"""What a model knows: unknown words in the input, example sentences, the translator's word list.

Pure functions (no streamlit, no model math, no files): the overview's honest notice counts the words with a
<unk> piece from a `explorer.figures.tokenization.Tokenization`; the word list (explorer/vocab_service.py reads
it from the grammar's lexicon) is searched here. The example sentences are read by explorer/vocab_service.py.
"""

from __future__ import annotations

import math
import unicodedata
from dataclasses import dataclass

import pandas as pd

from explorer.figures.tokenization import Tokenization, word_spans
from explorer.i18n import md_escape

# Korean specimens the tokens page's explanation shows in both languages (what the page teaches is Korean).
TOKENIZATION_SPECIMENS = dict(school="학교에 → 학교 ##에", went="갔어요 → 갔 ##어요",
                              studied="공부했어요 → 공부 ##했 ##어요", like="좋아해요")
WORDLIST_SPECIMENS = dict(endings="먹어요, 먹었습니다, 먹을 거야", particles="를, 에서, 와")


@dataclass(frozen=True)
class UnknownWords:
    """The input's whitespace-separated words and, for each, whether any of its pieces is <unk>."""

    words: list[str]
    unknown: list[bool]

    @property
    def n_words(self) -> int:
        return len(self.words)

    @property
    def n_unknown(self) -> int:
        return sum(self.unknown)

    @property
    def unknown_words(self) -> list[str]:
        return [word for word, unknown in zip(self.words, self.unknown, strict=True) if unknown]


def _is_punctuation(text: str) -> bool:
    return bool(text) and all(unicodedata.category(c).startswith("P") for c in text)


def unknown_words(tok: Tokenization) -> UnknownWords:
    """Which input words the model cannot see: a word counts as unknown if any of its pieces is <unk>.

    A word made only of punctuation (a lone "?") is not counted either way.
    """
    unknown = [False] * len(tok.words)
    for word, is_unk in zip(tok.word_index, tok.is_unk, strict=True):
        if word is not None and is_unk:
            unknown[word] = True
    kept = [i for i, word in enumerate(tok.words) if not _is_punctuation(word)]
    return UnknownWords([tok.words[i] for i in kept], [unknown[i] for i in kept])


FOLDINGS = ("as-is", "lower", "fold")  # tried in turn: tokenizers that keep text, lowercase it, or strip accents


def _folded(text: str, folding: str = "fold") -> tuple[str, list[int]]:
    """`text` as a tokenizer's normaliser may leave it — 'as-is', 'lower'cased, or 'fold'ed like BERT's
    (lowercase, NFD, no combining marks or control characters) — and, per character, its index in `text`."""
    chars, where = [], []
    for index, char in enumerate(text):
        parts = char if folding == "as-is" else char.lower() if folding == "lower" else \
            unicodedata.normalize("NFD", char.lower())
        for part in parts:
            if folding == "fold" and (unicodedata.combining(part)
                                      or (unicodedata.category(part) in ("Cc", "Cf") and not part.isspace())):
                continue
            chars.append(part)
            where.append(index)
    return "".join(chars), where


def _piece_text(piece: str) -> str:
    """The text a piece stands for, without WordPiece's '##' or a SentencePiece / byte-BPE word marker."""
    return piece.removeprefix("##").replace("▁", "").replace("Ġ", "").strip()


MAX_ALIGN_STEPS = 200_000  # a search this long means the pieces do not fit the text: give up (no words marked)


def _align_unknown(folded: str, tok: Tokenization, truncated: bool, folding: str) -> list[tuple[int, int]] | None:
    """The folded-text span of every <unk> piece: known pieces match their text exactly ('##' ones right
    after the previous piece, others after any whitespace); an <unk> covers a run of non-space characters
    (shortest first; for a word vocabulary, those ending at a pre-token boundary first), or one whitespace
    character if the tokenizer keeps spaces as pieces (a character vocabulary); the pieces cover the whole text
    unless it was cut (`truncated`). A depth-first search that branches only at <unk> pieces; None when nothing
    fits within MAX_ALIGN_STEPS."""
    pieces = [("special", "") if special and not unk else ("unk", "") if unk else ("space", piece) if piece.isspace()
              else ("cont" if piece.startswith("##") else "known", _folded(_piece_text(piece), folding)[0])
              for piece, special, unk in zip(tok.pieces, tok.is_special, tok.is_unk, strict=True)]
    keeps_space = any(kind == "space" for kind, _ in pieces)

    def skip_space(pos: int) -> int:
        while pos < len(folded) and folded[pos].isspace():
            pos += 1
        return pos

    def advance(i: int, pos: int) -> tuple[int, int] | None:
        """Follow the pieces that have one way to match, up to the next <unk> (or the end); None on a mismatch."""
        while i < len(pieces):
            kind, text = pieces[i]
            if kind == "unk":
                return i, pos
            if kind == "space" and folded.startswith(text, pos):  # a character vocabulary's space piece
                pos += len(text)
            elif kind == "cont" or (kind == "known" and text):
                start = pos if kind == "cont" else skip_space(pos)
                if not folded.startswith(text, start):
                    return None
                pos = start + len(text)
            i += 1
        return i, pos

    def word_boundary(end: int) -> bool:
        """Where a pre-tokenizer ends a word: before a space or the end, on either side of punctuation."""
        return (end == len(folded) or folded[end].isspace() or _is_punctuation(folded[end])
                or _is_punctuation(folded[end - 1]))

    def options(pos: int) -> list[tuple[int, int]]:
        found = [(pos, pos + 1)] if keeps_space and pos < len(folded) and folded[pos].isspace() else []
        start = end = skip_space(pos)
        spans = []
        while end < len(folded) and not folded[end].isspace():
            end += 1
            spans.append((start, end))
        if keeps_space:  # a character vocabulary: an <unk> is one character
            return found + spans
        # A word vocabulary's <unk> is one pre-token (a word, or one punctuation mark) first: a cut text (truncated)
        # fits any order, and shortest-first let several <unk>s share one word's letters and miss the next words.
        return found + [s for s in spans if word_boundary(s[1])] + [s for s in spans if not word_boundary(s[1])]

    stack: list[tuple[int, int, list[tuple[int, int]], int]] = []  # (unk index, position, options, option tried)
    failed: set[tuple[int, int]] = set()
    state = advance(0, 0)
    for _ in range(MAX_ALIGN_STEPS):
        if state is not None and state[0] == len(pieces):
            if truncated or skip_space(state[1]) == len(folded):
                return [frame[2][frame[3]] for frame in stack]
            state = None
        if state is not None and state not in failed:
            choices = options(state[1])
            if choices:
                stack.append((state[0], state[1], choices, 0))
                state = advance(state[0] + 1, choices[0][1])
                continue
            failed.add(state)
        while stack:  # backtrack to the last <unk> with an untried option
            i, pos, choices, tried = stack.pop()
            if tried + 1 < len(choices):
                stack.append((i, pos, choices, tried + 1))
                state = advance(i + 1, choices[tried + 1][1])
                break
            failed.add((i, pos))
        else:
            return None
    return None


def unknown_words_from_pieces(text: str, tok: Tokenization, truncated: bool = False) -> UnknownWords:
    """`unknown_words` for pieces the model already has (a trace's source tokens, through
    `tokenization.from_tokens`), without tokenizing `text` again: the pieces are aligned with the text
    (see _align_unknown; `truncated`: they cover only its start) and a word is unknown if an <unk> piece
    lies in it. A word made only of punctuation is not counted, as in unknown_words."""
    spans = word_spans(text)
    unknown = [False] * len(spans)
    for folding in FOLDINGS if any(tok.is_unk) else ():
        folded, where = _folded(text, folding)
        found = _align_unknown(folded, tok, truncated, folding)
        if found is None:
            continue
        for start, end in found:
            first, last = where[start], where[end - 1]
            for w, (w_start, w_end) in enumerate(spans):
                if w_start <= last and w_end > first:
                    unknown[w] = True
        break
    kept = [i for i, (start, end) in enumerate(spans) if not _is_punctuation(text[start:end])]
    return UnknownWords([text[spans[i][0]:spans[i][1]] for i in kept], [unknown[i] for i in kept])


def outside_marked_markdown(report: UnknownWords, constructions: set[str], lost: set[str] = frozenset()) -> str:
    """The input as Markdown: unknown words on orange, words of a construction the model never learned on
    violet, known words the translation lost on blue (every word escaped: user text is never markup)."""
    parts = []
    for word, unknown in zip(report.words, report.unknown, strict=True):
        escaped = md_escape(word)
        if unknown:
            parts.append(f":orange-background[**{escaped}**]")
        elif word in constructions or word.strip(".?!,") in constructions:
            parts.append(f":violet-background[**{escaped}**]")
        elif word in lost or word.strip(".?!,") in lost:
            parts.append(f":blue-background[**{escaped}**]")
        else:
            parts.append(escaped)
    return " ".join(parts)


def marked_text_markdown(report: UnknownWords, colour: str = "orange") -> str:
    """The input as Markdown, unknown words highlighted (every word escaped: user text is never markup)."""
    parts = []
    for word, unknown in zip(report.words, report.unknown, strict=True):
        escaped = md_escape(word)
        parts.append(f":{colour}-background[**{escaped}**]" if unknown else escaped)
    return " ".join(parts)


# --- the translator's word list (built by explorer/vocab_service.py) ------------------------------------


def search_words(table: pd.DataFrame, query: str, category: str | None = None) -> pd.DataFrame:
    """Rows whose Korean or English contains `query` (case-insensitive), optionally one category only."""
    rows = table
    if category:
        rows = rows[rows["category"] == category]
    query = (query or "").strip().lower()
    if query:
        rows = rows[rows["korean"].str.contains(query, regex=False)
                    | rows["english"].str.lower().str.contains(query, regex=False)]
    return rows.reset_index(drop=True)


def probability_text(p: float) -> str:
    """A probability as a student reads it: whole percents from 10 %, finer below (never a bare "0%")."""
    if p >= 0.995:
        return f"{p:.1%}" if p < 0.9995 else ">99.9%"
    if p >= 0.1:
        return f"{p:.0%}"
    if p >= 0.01:
        return f"{p:.1%}"
    return f"{p:.2%}" if p >= 0.0001 else "<0.01%"


def unsure_notice_values(lead, min_lead: float, quantile: float) -> dict[str, str]:
    """The unsure notice's placeholders for `lead` (inference/report.py's Lead): the word and its runner-up with
    their probabilities and how many times as likely the word was (e^gap), the threshold as such a ratio, the
    share of right translations above it."""
    return {"word": md_escape(lead.word), "runner_up": md_escape(lead.runner_up),
            "p_word": probability_text(lead.p_word), "p_runner_up": probability_text(lead.p_runner_up),
            "step_ratio": ratio_text(math.exp(lead.gap)), "ratio": ratio_text(math.exp(min_lead)),
            "share": f"{1 - quantile:.0%}"}


def ratio_text(ratio: float) -> str:
    """How many times as likely: whole numbers from 10 on, one decimal below; never 0.0 (a ratio under 1 is the
    other word's lead: unsure_notice words it as a draw, `ratio_text` only ever gets the larger over the smaller)."""
    if ratio < 1:
        raise ValueError(f"a ratio of {ratio}: say how many times as likely the likelier word was instead")
    return f"{ratio:,.0f}" if ratio >= 10 else f"{ratio:.1f}"


def unsure_notice(lead, min_lead: float, quantile: float, drawn: bool) -> tuple[str, dict[str, str]]:
    """The unsure notice's catalog key and placeholders. Greedy and beam outputs: the written word was the model's
    first choice and led its runner-up by little (`vocab.unsure_notice`). A sampled output whose draw took a word
    the model did not find likeliest (gap < 0; the runner-up is then the likeliest word): the notice speaks of the
    draw and names the likeliest word beside it (`vocab.unsure_notice_drawn`), never of a "first choice"."""
    if drawn and lead.gap < 0:
        return "vocab.unsure_notice_drawn", {
            "word": md_escape(lead.word), "p_word": probability_text(lead.p_word),
            "likeliest": md_escape(lead.runner_up), "p_likeliest": probability_text(lead.p_runner_up)}
    return "vocab.unsure_notice", unsure_notice_values(lead, min_lead, quantile)
