"""The grammar's own recogniser: is a tokenized Korean sentence built the way the grammar builds sentences?

A model trained on the grammar only ever saw the grammar's constructions. Known words in a construction
the grammar never writes (먹어 봤어요 "tried eating", 먹고 갔어요 "ate and went") get a confident, wrong
translation. This module finds them: each Korean word is reduced to its *shape*, the class of its first
piece followed by its continuation pieces (먹었어요 -> P ##어요, 학교에 -> N ##에, 싶었다 -> 싶었 ##다), and
a sentence is inside the grammar when every pair of neighbouring shapes (with ^ and $ at the ends) was
written by the grammar. The pairs are collected from the grammar's own training side (`build`), stored
beside this module (constructions_<grammar>.json), and a pair never seen names the two words around it. The
table only grows: a rebuild adds the pairs it sees to those stored (the grammar's table holds the pairs seen while
building it at each stage the grammar grew through, learner4 to learner10 in git: a pair of an earlier stage too
rare to be drawn again, 학생 세 명이 칼로, is still the grammar's).

Classes of a first piece: N (nouns, names, places, pronoun stems, the noun part of 하다 verbs), NUM
(numbers), T (time words), ADV (manner and degree adverbs), A (attributive adjectives), the piece itself
for the grammar's function words (auxiliaries 싶/있/없/않/못하, 좀, 안, 못, 몇, 왜, 얼마, 그, 이, ...),
and P (every other stem or predicate form). Pieces the vocabulary lacks are <unk> and reported as unknown words instead.

    python -m transformer_core.grammar.recogniser build   # add the pairs of a fresh build (minutes)
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from functools import cache
from pathlib import Path

from transformer_core.grammar.base import CONTINUATION, DETERMINERS, GRAMMAR, GRAMMAR_ALIASES, stage_of
from transformer_core.grammar.lexicon import CORE, Lexicon
from transformer_core.grammar.splits import is_held_out

DATA_DIR = Path(__file__).resolve().parent
GRAMMARS = ("core", GRAMMAR)
BUILD_SENTENCES = {"core": 20_000, GRAMMAR: 400_000}
FUNCTION_PIECES = frozenset({
    "싶", "싶었", "싶어", "싶을", "있", "있었", "있어", "있을", "없", "없었", "없어", "없을",
    "않", "않았", "않아", "않을", "못", "못했", "못해", "못할", "주", "줘", "좀", "안",
    "몇", "왜", "얼마", "뭐", "무엇", "누가", "누구", "어디", "언제",
    "같이", "것이다", "거야", "거예요", "것입니다", "것입니까", "타", "살", "시", "잔", "층", "명", "마리", "개", "권",
    "위", "옆", "밑", "앞", "뒤", "어떤", "어떻", "어땠", "어때", "아니다", "아니에요", "아닙니다", "아니야", "아니니",
    "아닙니까", "아니었다", "아니었어요", "아니었습니다", "아니었어", "아니었니", "아니었습니까", ".", "?",
    "때문", "나서", "것", "같", "같아", "제일", "가장",  # learner4 (not 더: learner2 has it)
    *(word[0] for word, _ in DETERMINERS),
})
START, END = "^", "$"
# Shapes ignore the sound-conditioned variants of a particle or ending (학교는 / 집은, 가세요 / 읽으세요 /
# 공부하세요): the construction is the same, and the pairs to collect are fewer.
ALLOMORPHS = {"##는": "##은", "##가": "##이", "##를": "##을", "##와": "##과", "##로": "##으로"}


def canonical_piece(piece: str) -> str:
    """The shape's form of a continuation piece: ##는 -> ##은, ##으세요 -> ##세요, ##하세요 -> ##세요."""
    piece = ALLOMORPHS.get(piece, piece)
    if piece.startswith("##으") and len(piece) > 3:
        return "##" + piece[3:]
    if piece.startswith("##하") and len(piece) > 3:
        return "##" + piece[3:]
    return piece


def grammar_words(grammar: str) -> Lexicon:
    if stage_of(grammar) == "core":
        return CORE
    from transformer_core.grammar.forms import grammar_lexicon

    return grammar_lexicon(stage_of(grammar))


@cache
def piece_classes(grammar: str) -> dict[str, str]:
    """First piece -> its class (pieces not listed are P, or themselves when a function word)."""
    lexicon = grammar_words(grammar)
    lexicons = [CORE, lexicon]
    classes: dict[str, str] = {}
    for lex in lexicons:
        for verb in lex.verbs:  # 요리 of 요리하다, 공부 of 공부하다: nouns too (요리를 좋아해요)
            if verb.prefix or (len(verb.stem) > 1 and verb.stem.endswith("하")):
                classes.setdefault(verb.prefix or verb.stem[:-1], "N")
        for pronoun in lex.pronouns:
            for form in (pronoun.topic, pronoun.subject, pronoun.object):
                classes.setdefault(form[:-1], "N")
        for ko, _ in lex.numbers:
            classes[ko] = "NUM"
        for time_word in lex.time_words:
            for word in time_word.ko:
                from transformer_core.grammar.base import split_particle

                classes[split_particle(word)[0]] = "T"
        for ko, _ in lex.degree_adverbs + lex.manner_adverbs:
            classes[ko] = "ADV"
        for adjective in lex.adjectives:
            from transformer_core.grammar.base import attributive_word

            classes.setdefault(attributive_word(adjective)[0], "A")
    for lex in lexicons:  # after the time words: 점심 (lunch) is a noun, 점심에 (at lunch) reads alike
        for noun in lex.common_nouns + lex.places + lex.names:
            if classes.get(noun.ko, "T") in ("T", "P", "A"):
                classes[noun.ko] = "N"
    if stage_of(grammar) != "core":
        from transformer_core.grammar.forms import AGES, NATIVE_ONE, SINO_FLOORS

        for ko, _ in (*AGES, *SINO_FLOORS, NATIVE_ONE, ("열한", ""), ("열두", "")):
            classes[ko] = "NUM"
    for piece in FUNCTION_PIECES:
        classes[piece] = piece
    return classes


def word_shapes(pieces: list[str] | tuple[str, ...], grammar: str) -> list[tuple[str, list[int]]]:
    """Each word's shape and the indices of its pieces: ['학교', '##에', '갔', '##다'] -> [('N ##에', [0, 1]),
    ('P ##다', [2, 3])]."""
    classes = piece_classes(grammar)
    shapes: list[tuple[str, list[int]]] = []
    for i, piece in enumerate(pieces):
        if piece.startswith(CONTINUATION) and shapes:
            shape, indices = shapes[-1]
            shapes[-1] = (f"{shape} {canonical_piece(piece)}", [*indices, i])
        else:
            shapes.append((classes.get(piece, "P"), [i]))
    return shapes


def shape_pairs(pieces: list[str] | tuple[str, ...], grammar: str) -> list[tuple[str, str, int]]:
    """(left shape, right shape, index of the right word) for every neighbouring pair, ^ and $ at the ends."""
    shapes = [START, *(shape for shape, _ in word_shapes(pieces, grammar)), END]
    return [(shapes[i], shapes[i + 1], i) for i in range(len(shapes) - 1)]


def path_of(grammar: str) -> Path:
    return DATA_DIR / f"constructions_{GRAMMAR_ALIASES.get(grammar, grammar)}.json"


@cache
def known_pairs(grammar: str) -> frozenset[tuple[str, str]]:
    """The shape pairs the grammar writes (from constructions_<grammar>.json)."""
    raw = json.loads(path_of(grammar).read_text(encoding="utf-8"))
    return frozenset((left, right) for left, right in raw["pairs"])


def has_recogniser(grammar: str) -> bool:
    return GRAMMAR_ALIASES.get(grammar, grammar) in GRAMMARS and path_of(grammar).exists()


def outside_word_indices(pieces: list[str] | tuple[str, ...], grammar: str) -> list[int]:
    """Indices of the words (in piece-word order) around a shape pair the grammar never writes.
    Words holding an <unk> piece are skipped (they are unknown words, named separately)."""
    known = known_pairs(grammar)
    words = word_shapes(pieces, grammar)
    unknown = {w for w, (_, indices) in enumerate(words) if any(pieces[i] == "<unk>" for i in indices)}
    outside: set[int] = set()
    for left, right, right_index in shape_pairs(pieces, grammar):
        left_index = right_index - 1
        if left_index in unknown or right_index in unknown:
            continue
        if (left, right) not in known:
            outside.update(i for i in (left_index, right_index) if 0 <= i < len(words))
    return sorted(outside - unknown)


def training_side(grammar: str, n: int, seed: int = 0) -> Iterator:
    """The first `n` training-side sentence pairs of `grammar`'s stream (held-out ones are skipped, so the
    held-out sentences measure what a table built from these gives fairly)."""
    from transformer_core.grammar.generator import ko_en_grammar

    source = ko_en_grammar(seed, grammar)
    seen = 0
    while seen < n:
        pair = source.sample()
        if not is_held_out(pair.source_text):
            seen += 1
            yield pair


def build(grammar: str, n: int | None = None, seed: int = 0) -> dict:
    """Collect the shape pairs of `n` training-side sentences of `grammar`."""
    n = n or BUILD_SENTENCES[grammar]
    pairs: set[tuple[str, str]] = set()
    for pair in training_side(grammar, n, seed):
        pairs.update((left, right) for left, right, _ in shape_pairs(pair.source, grammar))
    return {"grammar": grammar, "sentences": n, "seed": seed, "pairs": sorted(pairs)}


def grown(built: dict, stored: dict | None) -> dict:
    """A fresh build added to the stored table: its pairs and those stored (the table only grows)."""
    if stored is None:
        return built
    pairs = {tuple(pair) for pair in built["pairs"]} | {tuple(pair) for pair in stored["pairs"]}
    return {**built, "pairs": sorted(pairs)}


def main(argv: list[str] | None = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(prog="python -m transformer_core.grammar.recogniser",
                                     description="Add the shape pairs of a fresh build from the grammar's training "
                                                 "side to constructions_*.json.")
    parser.add_argument("command", choices=["build"])
    parser.add_argument("grammars", nargs="*", metavar="GRAMMAR", help=f"default: {' '.join(GRAMMARS)}")
    args = parser.parse_args(argv)
    for grammar in args.grammars or GRAMMARS:
        stored = json.loads(path_of(grammar).read_text(encoding="utf-8")) if path_of(grammar).exists() else None
        data = grown(build(grammar), stored)
        path_of(grammar).write_text(json.dumps(data, ensure_ascii=False, indent=0) + "\n", encoding="utf-8")
        print(f"{grammar}: {len(data['pairs'])} shape pairs from {data['sentences']} sentences -> {path_of(grammar)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
