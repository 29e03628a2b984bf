"""English agreement: a/an, third-person -s, plurals, be/do by person and number."""

from __future__ import annotations

# Spelled with a vowel letter but said with a consonant sound, and the other way round.
CONSONANT_SOUND = ("uni", "use", "usu", "eu", "one")
VOWEL_SOUND = ("hour", "honest", "honor", "heir")
SIBILANT_ENDINGS = ("s", "x", "z", "ch", "sh")


def indefinite_article(next_word: str) -> str:
    """'a' or 'an' by the sound of the next word: an apple, a unicorn, an honest boy."""
    lower = next_word.lower()
    if lower.startswith(VOWEL_SOUND):
        return "an"
    if lower.startswith(CONSONANT_SOUND):
        return "a"
    return "an" if lower[:1] in "aeiou" else "a"


def third_person_singular(base: str) -> str:
    """eat -> eats, watch -> watches, go -> goes, study -> studies, play -> plays, have -> has."""
    if base == "have":
        return "has"
    if base.endswith(SIBILANT_ENDINGS) or base.endswith("o"):
        return base + "es"
    if base.endswith("y") and base[-2:-1] not in tuple("aeiou"):
        return base[:-1] + "ies"
    return base + "s"


def plural(noun: str) -> str:
    """Regular plurals: cat -> cats, box -> boxes, peach -> peaches, strawberry -> strawberries, toy -> toys."""
    if noun.endswith(SIBILANT_ENDINGS):
        return noun + "es"
    if noun.endswith("y") and noun[-2:-1] not in tuple("aeiou"):
        return noun[:-1] + "ies"
    return noun + "s"


def be_form(person: int, is_plural: bool, past: bool) -> str:
    """am / is / are / was / were for a subject of `person` (1, 2, 3) and number."""
    if past:
        return "were" if is_plural or person == 2 else "was"
    if is_plural or person == 2:
        return "are"
    return "am" if person == 1 else "is"


def do_form(person: int, is_plural: bool, past: bool) -> str:
    """do / does / did for do-support in questions and negation."""
    if past:
        return "did"
    return "does" if person == 3 and not is_plural else "do"


def takes_third_person_s(person: int, is_plural: bool) -> bool:
    """Does the present-tense verb take -s after this subject (he eats, they eat, I eat)?"""
    return person == 3 and not is_plural


def capitalize_first(words: list[str]) -> list[str]:
    """The sentence's first word with a capital letter (names and 'I' already have one)."""
    if not words:
        return words
    return [words[0][:1].upper() + words[0][1:], *words[1:]]

AUXILIARIES = frozenset({"do", "does", "did", "am", "is", "are", "was", "were"})
