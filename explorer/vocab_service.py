"""What a model knows, read from files: its example sentences (models/NAME/examples.json, built-in lists for the
models that ship without a directory) and the translator's word list (the ko-en grammar's lexicon,
transformer_core/grammar/lexicon.py FULL) as a table explorer.figures.vocab.search_words searches. No Streamlit here."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

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


# --- the translator's word list ----------------------------------------------------------------------------

CATEGORY_TAGS = ("person", "animal", "food", "drink", "object", "book", "clothes", "vehicle", "plant", "subject",
                 "sport", "nature", "weather", "body", "event", "show", "idea", "place")


def known_words() -> pd.DataFrame:
    """Every Korean entry of the ko-en grammar (the full lexicon): category, Korean, English.

    Categories are keys into explorer/i18n (ko.json, en.json) ("vocab.cat.animal", ...)."""
    from transformer_core.grammar.lexicon import FULL

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
