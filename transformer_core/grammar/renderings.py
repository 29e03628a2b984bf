"""What the grammar writes each Korean content word as in English: the check that a translation kept its words.

A model can give a known sentence a fluent, confident translation that drops or swaps a word (우리는 함께 점심을
먹었다 -> "we ate a baker"; 음악 듣는 것을 좋아합니다 -> "I like music"): every word is known, the construction
too, and the model is sure. The grammar's gold alignments say which English words each source piece becomes. This
module collects, for the first piece of every content word (the recogniser's classes: N nouns, names, places,
pronoun stems and the noun part of 하다 verbs; P verb and adjective stems; A attributive adjectives; ADV adverbs;
T time words; NUM numbers), the English words aligned to it on the grammar's training side (점심 -> lunch,
lunches; 나 -> i, me, my; 듣 -> listen, hear, ...). A translation that holds none of a word's English has lost that
word, and the report names it (inference/report.py). Nouns alone were checked until 2026-12-07; the other classes
raised the notice's recall on the everyday benchmark from 75.0 % to 85.5 % (docs/models.md).

The table is data of the grammar, like the recogniser's: built from training-side sentences only, stored beside
this module (renderings_<grammar>.json). Like the recogniser's, the table only grows: it holds what was seen while
building it at each stage the grammar grew through (learner5 to learner10 in git), and a rebuild adds to it.

    python -m transformer_core.grammar.renderings build   # add a fresh build's renderings (minutes)
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from functools import cache
from pathlib import Path

from transformer_core.grammar.base import GRAMMAR, GRAMMAR_ALIASES
from transformer_core.grammar.recogniser import piece_classes, training_side, word_shapes

DATA_DIR = Path(__file__).resolve().parent
GRAMMARS = (GRAMMAR,)  # the compact core has no table and no check
BUILD_SENTENCES = 200_000
# A piece is checked only when the grammar writes it with a content word nearly always: 더 (more) is a noun piece
# too (더 재미없다 -> "more boring"), but most of its English is the function word "more" or an ending (-er).
WRITTEN_SHARE = 0.95
MIN_OCCURRENCES = 5
# English closed-class words say nothing of which word it was: the gold alignment gives a word the article,
# preposition, auxiliary or conjunction its construction brings along (배가 고파요 -> "is hungry", 공부하면서 ->
# "while studying"), and with them any output holding "is" or "while" would keep the word. Pronouns stay: they are
# what the pronoun stems (나, 그녀) are written as.
_FUNCTION_WORDS_TEXT = (
    "a an the this that these those some any every each all both no other another such "
    "of to at in on into onto for with from by about over under after before during until up down out off around "
    "near behind next between through across along without than as like per 's "
    "is am are was were be been being do does did done have has had having will would shall should can could may "
    "might must let's let please not n't don't doesn't didn't isn't aren't wasn't weren't won't can't cannot "
    "and or but so because while if when then also too only very just even still already again ever never often "
    "always sometimes usually really much many more most less least few little lot lots"
)
FUNCTION_WORDS = frozenset(_FUNCTION_WORDS_TEXT.split())
_WORD = re.compile(r"[a-z0-9]+(?:['-][a-z0-9]+)*|'s")


def english_words(text: str | Iterable[str]) -> list[str]:
    """The lower-cased English words of a sentence or of its tokens ("felt-tip" stays one word)."""
    joined = text if isinstance(text, str) else " ".join(text)
    return _WORD.findall(joined.lower())


# The recogniser's classes of content words; a first piece it does not list is P (a predicate stem). The rest of
# its classes are function pieces (their class is the piece itself: 안, 못, 좀 ...).
CONTENT_CLASSES = frozenset({"N", "P", "A", "ADV", "T", "NUM"})


def is_content_piece(piece: str, classes: dict[str, str]) -> bool:
    """A word's first piece whose class (`classes`: recogniser.piece_classes) is a content word's."""
    return not piece.startswith("##") and classes.get(piece, "P") in CONTENT_CLASSES


def path_of(grammar: str) -> Path:
    return DATA_DIR / f"renderings_{GRAMMAR_ALIASES.get(grammar, grammar)}.json"


def has_renderings(grammar: str) -> bool:
    return GRAMMAR_ALIASES.get(grammar, grammar) in GRAMMARS and path_of(grammar).exists()


@cache
def renderings(grammar: str) -> dict[str, frozenset[str]]:
    """Content piece -> the English words the grammar writes for it (renderings_<grammar>.json)."""
    raw = json.loads(path_of(grammar).read_text(encoding="utf-8"))["words"]
    return {piece: frozenset(words) for piece, words in raw.items()}


def collect(pairs: Iterable, grammar: str) -> tuple[dict[str, set[str]], dict[str, int], dict[str, int]]:
    """Over sentence pairs with gold alignments (SentencePair: `alignment[j]` holds the source pieces target
    token j is aligned to): content piece -> the English words aligned to it, how often the piece occurs, and how
    often it is written with a word that is not a FUNCTION_WORD."""
    classes = piece_classes(grammar)
    table: dict[str, set[str]] = {}
    occurrences: dict[str, int] = {}
    written: dict[str, int] = {}
    for pair in pairs:
        content: dict[int, list[str]] = {}
        for token, sources in zip(pair.target, pair.alignment, strict=True):
            words = [word for word in english_words(token) if word not in FUNCTION_WORDS]
            for index in sources:
                content.setdefault(index, []).extend(words)
        for index, piece in enumerate(pair.source):
            if not is_content_piece(piece, classes):
                continue
            occurrences[piece] = occurrences.get(piece, 0) + 1
            if content.get(index):
                written[piece] = written.get(piece, 0) + 1
                table.setdefault(piece, set()).update(content[index])
    return table, occurrences, written


def lost_words(pieces: Sequence[str], output: str, grammar: str) -> list[int]:
    """Indices of the words (as recogniser.word_shapes counts them) that the output does not carry: a first piece
    with a table entry none of whose English words is in `output`."""
    table = renderings(grammar)
    carried = set(english_words(output))
    return [index for index, (_, piece_indices) in enumerate(word_shapes(pieces, grammar))
            if (written := table.get(pieces[piece_indices[0]])) and not written & carried]


def build(grammar: str, n: int = BUILD_SENTENCES, seed: int = 0) -> dict:
    """The table of `n` training-side sentences of `grammar` (held-out ones are skipped: they measure it)."""
    table, occurrences, written = collect(training_side(grammar, n, seed), grammar)
    kept = {piece: sorted(words) for piece, words in sorted(table.items())
            if occurrences[piece] >= MIN_OCCURRENCES and written[piece] >= WRITTEN_SHARE * occurrences[piece]}
    return {"grammar": grammar, "sentences": n, "seed": seed, "written_share": WRITTEN_SHARE,
            "min_occurrences": MIN_OCCURRENCES, "left_out": sorted(set(occurrences) - set(kept)), "words": kept}


def grown(built: dict, stored: dict | None) -> dict:
    """A fresh build added to the stored table: each piece's words are those of both (the table only grows)."""
    if stored is None:
        return built
    table = {piece: set(words) for piece, words in stored["words"].items()}
    for piece, words in built["words"].items():
        table.setdefault(piece, set()).update(words)
    about = {"_about": stored["_about"]} if "_about" in stored else {}  # what the stored table was grown from
    return {**about, **built, "words": {piece: sorted(words) for piece, words in sorted(table.items())}}


def main(argv: list[str] | None = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(prog="python -m transformer_core.grammar.renderings",
                                     description="Add the English renderings of the grammar's content words seen on "
                                                 "its training side to renderings_*.json.")
    parser.add_argument("command", choices=["build"])
    parser.add_argument("grammars", nargs="*", metavar="GRAMMAR", help=f"default: {' '.join(GRAMMARS)}")
    parser.add_argument("--sentences", type=int, default=BUILD_SENTENCES)
    args = parser.parse_args(argv)
    for grammar in args.grammars or GRAMMARS:
        stored = json.loads(path_of(grammar).read_text(encoding="utf-8")) if path_of(grammar).exists() else None
        data = grown(build(grammar, args.sentences), stored)
        path_of(grammar).write_text(json.dumps(data, ensure_ascii=False, indent=0) + "\n", encoding="utf-8")
        print(f"{grammar}: {len(data['words'])} content pieces from {data['sentences']} sentences "
              f"-> {path_of(grammar)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
