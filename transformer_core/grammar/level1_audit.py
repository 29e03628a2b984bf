"""Which of a first-level learner's core words (level1_words.json: its source is named there) a grammar's lexicon
lacks, part of speech by part of speech.

    python -m transformer_core.grammar.level1_audit learner6   # the words learner6 lacks, one part of speech a line
    python -m transformer_core.grammar.level1_audit            # the newest grammar (learner10)

A noun is known when a noun, place or name of the lexicon is written so; a verb or adjective (dictionary form, ...다)
when an entry of that part of speech has its stem; an adverb or time word when the lexicon's adverbs or time words
hold it or the grammar writes it as a word of its own (같이, 좀, 안 are the constructions' words); a native numeral
standing alone (하나, 둘: 아이가 둘 있어요) when a construction of the grammar counts with it (다섯 before a counter,
다섯 개, is not the numeral standing alone).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from transformer_core.grammar.base import GRAMMAR, stage_of

LIST_PATH = Path(__file__).resolve().parent / "level1_words.json"
PARTS = ("nouns", "verbs", "adjectives", "adverbs", "time_words", "numerals")


def level1_words() -> dict[str, list[str]]:
    """The first-level core words by part of speech (dictionary forms)."""
    raw = json.loads(LIST_PATH.read_text(encoding="utf-8"))
    return {part: list(raw[part]) for part in PARTS}


def known_words(grammar: str = GRAMMAR) -> dict[str, set[str]]:
    """What grammar `grammar` knows of each part of speech, as dictionary forms: its lexicon's entries (the nouns and
    stems of its collocations, the noun part of its 하다 verbs too), the words its constructions write, and the
    lemmas a construction of its own says (forms.CONSTRUCTION_LEMMAS: 모르다, 많다, 하나 ...)."""
    from transformer_core.grammar.forms import CONSTRUCTION_LEMMAS, grammar_lexicon
    from transformer_core.grammar.vocabulary import korean_words

    lexicon = grammar_lexicon(stage_of(grammar))
    written = {"".join(word) for word in korean_words(grammar=grammar)}
    collocations = lexicon.fixed_subject + lexicon.fixed_object
    adverbs = {ko for ko, _ in lexicon.degree_adverbs + lexicon.manner_adverbs}
    times = {" ".join(t.ko).removesuffix("에") for t in lexicon.time_words}
    times |= {"".join(t.ko).removesuffix("에") for t in lexicon.time_words}
    lemmas = CONSTRUCTION_LEMMAS if stage_of(grammar) != "core" else {}
    return {"nouns": {n.ko for n in lexicon.common_nouns + lexicon.places + lexicon.names}
            | {e.noun for e in collocations} | {v.prefix for v in lexicon.verbs if v.prefix},
            "verbs": {v.stem + "다" for v in lexicon.verbs} | {e.stem + "다" for e in collocations if e.action}
            | set(lemmas.get("verbs", ())),
            "adjectives": {a.stem + "다" for a in lexicon.adjectives if a.stem}
            | {e.stem + "다" for e in collocations if not e.action} | set(lemmas.get("adjectives", ())),
            "adverbs": adverbs | times | written,
            "time_words": times | written,
            "numerals": {w for w in written if w in lemmas.get("numerals", ())}}  # standing alone, not 다섯 개


def missing_words(grammar: str = GRAMMAR) -> dict[str, list[str]]:
    """The first-level words grammar `grammar` lacks, by part of speech, in the list's order."""
    known = known_words(grammar)
    return {part: [word for word in words if word not in known[part]] for part, words in level1_words().items()}


def main(argv: list[str] | None = None) -> int:
    """Print what the grammar lacks of the list, part of speech by part of speech."""
    parser = argparse.ArgumentParser(prog="python -m transformer_core.grammar.level1_audit",
                                     description="Which first-level core words (level1_words.json) the grammar's "
                                                 "lexicon lacks, one part of speech a line.")
    parser.parse_args(sys.argv[1:] if argv is None else argv)
    grammar = GRAMMAR
    words = level1_words()
    missing = missing_words(grammar)
    total = sum(map(len, words.values()))
    lacking = sum(map(len, missing.values()))
    print(f"{grammar}: {total - lacking} of {total} first-level words known, {lacking} lacking")
    for part in PARTS:
        print(f"{part} ({len(missing[part])} of {len(words[part])} lacking): {' '.join(missing[part])}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
