"""The reverse task's characters: Hangul, compatibility jamo, ASCII, punctuation, Latin-1 letters, emoji."""

from __future__ import annotations

HANGUL_SYLLABLES = [chr(c) for c in range(0xAC00, 0xD7A4)]  # all 11,172
COMPATIBILITY_JAMO = [chr(c) for c in range(0x3131, 0x318F)]  # ㄱ .. ㆎ (94)
ASCII_PRINTABLE = [chr(c) for c in range(0x20, 0x7F)]  # space .. ~ (95)
ASCII_LETTERS = [c for c in ASCII_PRINTABLE if c.isalpha()]
ASCII_DIGITS = [c for c in ASCII_PRINTABLE if c.isdigit()]
ASCII_PUNCTUATION = [c for c in ASCII_PRINTABLE if not c.isalnum() and c != " "]
LATIN1_LETTERS = [chr(c) for c in range(0xC0, 0x100) if chr(c) not in "×÷"]  # À .. ÿ
EXTRA_PUNCTUATION = list("“”‘’…·•–—「」『』《》〈〉【】、。～！？，．：；（）°×÷€£¥₩©®™※★☆♥♡♪→←↑↓¡¿«»§¶")

# Single-code-point emoji that display as emoji without a variation selector.
_EMOJI_RANGES = [
    (0x1F600, 0x1F64F),  # smileys and gestures
    (0x1F300, 0x1F320),  # weather, globe, moon
    (0x1F337, 0x1F37C),  # plants, food, drink
    (0x1F380, 0x1F393),  # celebration
    (0x1F3A0, 0x1F3CA),  # activities, sports
    (0x1F400, 0x1F43E),  # animals
    (0x1F442, 0x1F4AF),  # body parts, people, hearts, symbols
    (0x1F680, 0x1F6C5),  # transport
    (0x1F910, 0x1F92F),  # more faces
    (0x1F970, 0x1F97A),  # more faces
]
_EMOJI_SINGLES = [0x2B50, 0x2728, 0x26BD, 0x2615, 0x2705, 0x274C, 0x2753, 0x2757, 0x23F0, 0x231B, 0x1F525, 0x1F4F1,
                  0x1F4DA, 0x1F4D6, 0x1F4DD, 0x1F4E7, 0x1F4F7, 0x1F4FA, 0x1F50D, 0x1F511, 0x1F514, 0x1F381]
EMOJI = sorted({chr(c) for start, end in _EMOJI_RANGES for c in range(start, end + 1)}
               | {chr(c) for c in _EMOJI_SINGLES})


def reverse_characters() -> list[str]:
    """Every character of the reverse tokenizer's vocabulary, in a fixed order, without duplicates."""
    seen: dict[str, None] = {}
    for group in (ASCII_PRINTABLE, EXTRA_PUNCTUATION, LATIN1_LETTERS, COMPATIBILITY_JAMO, HANGUL_SYLLABLES, EMOJI):
        for char in group:
            seen.setdefault(char, None)
    return list(seen)
