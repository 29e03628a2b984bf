"""What a model knows: unknown words in the input, example sentences, the translator's word list.

Pure functions (no streamlit, no model math): the overview's honest notice counts the words with a
<unk> piece from a `explorer.figures.tokenization.Tokenization`; examples come from the model directory's
examples.json (built-in lists for the models that ship without a directory); the word list is the
ko-en grammar's lexicon (transformer_core/data/lexicon.py FULL), searchable, by category.
"""

from __future__ import annotations

import json
import unicodedata
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from explorer.figures.tokenization import Tokenization
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


def marked_text_markdown(report: UnknownWords, colour: str = "orange") -> str:
    """The input as Markdown, unknown words highlighted (every word escaped: user text is never markup)."""
    parts = []
    for word, unknown in zip(report.words, report.unknown, strict=True):
        escaped = md_escape(word)
        parts.append(f":{colour}-background[**{escaped}**]" if unknown else escaped)
    return " ".join(parts)


# --- example sentences ------------------------------------------------------------------------------

EXAMPLES_FILE = "examples.json"

# Models without a directory of their own (built in): their examples live here.
BUILT_IN_EXAMPLES: dict[str, list[dict[str, str]]] = {
    "minilm-l6": [
        {"text": "The cat sat on the mat.", "note": "short English sentence"},
        {"text": "Attention is all you need.", "note": "the paper's title"},
        {"text": "I love learning about transformers!", "note": "punctuation and a long word"},
        {"text": "Seoul is the capital of Korea.", "note": "names"},
        {"text": "안녕하세요, 만나서 반가워요.", "note": "Korean: see how an English vocabulary splits it"},
    ],
}


def load_examples(directory: Path | None, name: str = "", fallback: Path | None = None) -> list[dict[str, str]]:
    """The model's example sentences ({"text", "note"}), from DIR/examples.json, else the built-in list,
    else `fallback`/examples.json (paper-base borrows ko-en-toy's: it shares its tokenizer)."""
    for candidate in (directory, None, fallback):
        if candidate is None:
            if name in BUILT_IN_EXAMPLES:
                return list(BUILT_IN_EXAMPLES[name])
            continue
        path = Path(candidate) / EXAMPLES_FILE
        if path.is_file():
            try:
                data = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                continue
            items = data.get("examples", []) if isinstance(data, dict) else data
            examples = [item if isinstance(item, dict) else {"text": str(item)} for item in items]
            return [e for e in examples if isinstance(e.get("text"), str) and e["text"].strip()]
    return []


# --- the translator's word list -----------------------------------------------------------------------

CATEGORY_TAGS = ("person", "animal", "food", "drink", "object", "book", "clothes", "vehicle", "plant", "subject",
                 "sport", "nature", "weather", "body", "event", "show", "idea", "place")


def known_words() -> pd.DataFrame:
    """Every Korean entry of the ko-en grammar (the full lexicon): category, Korean, English.

    Categories are keys into explorer/i18n (ko.json, en.json) ("vocab.cat.animal", ...)."""
    from transformer_core.data.lexicon import FULL

    rows: list[tuple[str, str, str]] = []
    for noun in FULL.common_nouns + FULL.places:
        category = next((tag for tag in CATEGORY_TAGS if tag in noun.tags), "object")
        rows.append((category, noun.ko, noun.en))
    rows += [("name", noun.ko, noun.en) for noun in FULL.names]
    rows += [("pronoun", p.topic[:-1], p.en_subject) for p in FULL.pronouns]
    seen = set()
    for verb in FULL.verbs:
        if (verb.stem, verb.en_base) not in seen:
            seen.add((verb.stem, verb.en_base))
            rows.append(("verb", verb.stem + "다", "to " + verb.en_base))
    rows += [("adjective", a.stem + "다" if a.stem else a.attributive, a.en) for a in FULL.adjectives]
    rows += [("adverb", ko, en) for ko, en in FULL.degree_adverbs + FULL.manner_adverbs]
    rows += [("time", " ".join(t.ko), " ".join(t.en)) for t in FULL.time_words]
    rows += [("number", ko, en) for ko, en in FULL.numbers]
    return pd.DataFrame(rows, columns=["category", "korean", "english"])


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


def is_ko_en_translator(directory: Path | None) -> bool:
    """Was the model trained on the ko-en grammar (config.json "task": "ko-en" or "lab-ko-en")?"""
    if directory is None or not (Path(directory) / "config.json").is_file():
        return False
    try:
        task = json.loads((Path(directory) / "config.json").read_text(encoding="utf-8")).get("task")
    except (OSError, ValueError, AttributeError):
        return False
    return task in ("ko-en", "lab-ko-en")
