"""The reverse task: any text of up to 64 characters -> the same characters in reverse order.

The gold alignment is the anti-diagonal: output character j comes from input character n - 1 - j.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from transformer_core.data import charset
from transformer_core.grammar.base import KoEnGrammar
from transformer_core.grammar.splits import is_held_out

MAX_CHARS = 64

# (characters, weight) for the "random soup" style: every vocabulary entry is drawn often.
_CHARACTER_CLASSES = [
    (charset.HANGUL_SYLLABLES, 32),
    (charset.ASCII_LETTERS, 18),
    (charset.ASCII_DIGITS, 6),
    ([" "], 10),
    (charset.ASCII_PUNCTUATION, 7),
    (charset.EXTRA_PUNCTUATION, 4),
    (charset.LATIN1_LETTERS, 4),
    (charset.COMPATIBILITY_JAMO, 6),
    (charset.EMOJI, 13),
]


@dataclass(frozen=True)
class ReverseExample:
    """A source text and its reversal."""

    source: str
    style: str

    @property
    def target(self) -> str:
        return self.source[::-1]


def anti_diagonal(n_chars: int) -> list[int]:
    """Gold alignment of the reverse task: output character j comes from input character n - 1 - j."""
    return [n_chars - 1 - j for j in range(n_chars)]


class ReverseData:
    """Seeded generator of texts to reverse: random characters, words, sentences, and repeats."""

    STYLES = ("random", "words", "sentence", "repeats")
    WEIGHTS = (45, 20, 25, 10)

    def __init__(self, seed: int = 0, max_chars: int = MAX_CHARS) -> None:
        self.rng = random.Random(seed)
        self.max_chars = max_chars
        self.grammar = KoEnGrammar(seed + 1)
        self._classes = [chars for chars, _ in _CHARACTER_CLASSES]
        self._weights = [weight for _, weight in _CHARACTER_CLASSES]

    def random_text(self) -> str:
        """Characters drawn independently from every class of the vocabulary."""
        length = self.rng.randint(1, self.max_chars)
        classes = self.rng.choices(self._classes, self._weights, k=length)
        return "".join(self.rng.choice(chars) for chars in classes)

    def words_text(self) -> str:
        """Word-like runs of random Hangul syllables or Latin letters (sometimes one character repeated, like
        ㅋㅋㅋ), with spaces and punctuation between."""
        parts: list[str] = []
        limit = self.rng.randint(1, self.max_chars)
        while sum(map(len, parts)) < limit:
            kind = self.rng.random()
            if kind < 0.1:  # a run of one character, as in ㅋㅋㅋ, !!!, ...
                char = self.rng.choice(self.rng.choices(self._classes, self._weights)[0])
                parts.append(char * self.rng.randint(2, 6))
            elif kind < 0.5:
                parts.append("".join(self.rng.choices(charset.HANGUL_SYLLABLES, k=self.rng.randint(1, 5))))
            elif kind < 0.85:
                word = "".join(self.rng.choices(charset.ASCII_LETTERS, k=self.rng.randint(1, 9)))
                parts.append(word)
            elif kind < 0.93:
                parts.append("".join(self.rng.choices(charset.ASCII_DIGITS, k=self.rng.randint(1, 4))))
            else:
                parts.append(self.rng.choice(charset.EMOJI))
            if self.rng.random() < 0.15:
                parts[-1] += self.rng.choice(".,!?~")
            parts.append(" ")
        return "".join(parts).strip()[:limit] or "a"

    def sentence_text(self) -> str:
        """One or more Korean or English sentences of the toy grammar, cut to fit."""
        pieces: list[str] = []
        while not pieces or (self.rng.random() < 0.4 and sum(map(len, pieces)) < self.max_chars):
            pair = self.grammar.sample()
            pieces.append(pair.source_text if self.rng.random() < 0.5 else pair.target_text)
        return " ".join(pieces)[: self.max_chars].strip() or "a"

    def repeats_text(self) -> str:
        """Few distinct characters, many repeats ("ㅋㅋ ㅋㅋㅋ", "abba"): only position tells them apart."""
        alphabet = [self.rng.choice(self.rng.choices(self._classes, self._weights)[0])
                    for _ in range(self.rng.randint(1, 4))]
        return "".join(self.rng.choices(alphabet, k=self.rng.randint(1, self.max_chars)))

    def sample(self) -> ReverseExample:
        style = self.rng.choices(self.STYLES, self.WEIGHTS)[0]
        text = {"random": self.random_text, "words": self.words_text, "sentence": self.sentence_text,
                "repeats": self.repeats_text}[style]()
        return ReverseExample(text, style)

    def sample_split(self, held_out: bool) -> ReverseExample:
        """A sample from one side of the hash split (training: held_out=False)."""
        while True:
            example = self.sample()
            if is_held_out(example.source) == held_out:
                return example


def reverse_examples(n: int, seed: int = 0, held_out: bool = False) -> list[ReverseExample]:
    """`n` examples from one side of the split, the same for the same seed."""
    data = ReverseData(seed)
    return [data.sample_split(held_out) for _ in range(n)]
