"""The Korean-English lexicon of the toy translation task, read from data files by ONE loader.

Two vocabularies, each one JSON file beside this module: `lexicon_core.json` (the compact core grammar, a
few hundred entries) and `lexicon_full.json` (the core plus about 1,500 entries); additions files on top of the
full one: `lexicon_everyday.json` (the everyday grammar's few words) and `lexicon_learner.json` (the learner
grammar's: a Korean learner's core vocabulary by topic), read by `load_additions`, which rejects repeats.
Each file maps a `Lexicon` field to its list of entries, one entry a line; an entry is a dataclass below
written as a JSON object of its fields (fields at their default are left out; sets and tuples are lists).
Korean conjugation forms (past stems, attributive and future forms) are written out: the core's by hand,
the everyday entries as hangul.py computes them from the stem and its irregular class (`irregular`);
tests/test_lexicon_data.py holds the everyday ones to hangul.py's rules.

Each entry carries what the grammar needs: Korean stems (with the irregular past stems written
out), English forms that are not regular, and semantic tags that keep sentences sensible
(only food is eaten, only people read).
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from transformer_core.grammar import hangul
from transformer_core.grammar.english import plural

DATA_DIR = Path(__file__).resolve().parent


@dataclass(frozen=True)
class Noun:
    """A common noun, a name or a place. `tags` decide which verbs and adjectives fit it."""

    ko: str
    en: str
    tags: frozenset[str]
    en_plural: str = ""
    mass: bool = False  # no a/an and no numbers: milk, water, music
    plural_only: bool = False  # pants, scissors: no a/an, no numbers, plural agreement

    @property
    def proper(self) -> bool:
        """A place name (Seoul, Korea): no 'the' before it, 'in' rather than 'at'."""
        return "proper" in self.tags

    @property
    def plural(self) -> str:
        return self.en_plural or plural(self.en)

    @property
    def is_name(self) -> bool:
        return "name" in self.tags

    @property
    def counter(self) -> str:
        """The Korean counter word used with numbers: 명 people, 마리 animals, 권 books, 개 things."""
        if "person" in self.tags:
            return "명"
        if "animal" in self.tags:
            return "마리"
        if "book" in self.tags:
            return "권"
        return "개"


@dataclass(frozen=True)
class Pronoun:
    """A personal pronoun with its (irregular) Korean subject forms: 나는 / 내가 / 나를."""

    topic: str
    subject: str
    object: str
    en_subject: str
    en_object: str
    person: int
    plural: bool


@dataclass(frozen=True)
class Verb:
    """An action verb. `kind`: transitive (object), intransitive (optionally at a place) or motion (to a place)."""

    stem: str  # 먹, 만들, 공부하
    past_stem: str  # 먹었, 만들었, 공부했
    en_base: str
    en_past: str
    kind: str
    subjects: frozenset[str]  # tags a subject needs one of
    objects: frozenset[str] = frozenset()  # tags an object needs one of
    tools: tuple[str, ...] = ()  # Korean nouns usable with 으로/로
    future_stem: str = ""  # irregular -(으)ㄹ form: 듣 -> 들을, 돕 -> 도울
    prefix: str = ""  # 하다 verbs: the noun part, split off by negation (공부 안 했다)
    irregular: str = ""  # hangul.IRREGULAR_CLASSES: "ㅂ", "ㄷ", "르", "ㅎ", "ㅅ" or ""


@dataclass(frozen=True)
class Adjective:
    """A descriptive verb (adjective). Attributive-only ones (화난, 늙은) are not used as predicates."""

    stem: str
    attributive: str
    past_stem: str
    en: str
    applies_to: frozenset[str]
    predicative: bool = True
    irregular: str = ""


@dataclass(frozen=True)
class TimeWord:
    """A time expression; `links[i]` is the Korean word index English word i translates (-1: unaligned)."""

    ko: tuple[str, ...]
    en: tuple[str, ...]
    links: tuple[int, ...]
    tenses: tuple[str, ...]


@dataclass(frozen=True)
class FixedSubject:
    """A verb or adjective said with its own subject noun, never another (비가 오다 -> it rains, 배가
    고프다 -> be hungry, 머리가 아프다 -> have a headache, 감기에 걸리다 -> catch a cold). `noun` takes
    `particle` (a hangul.PARTICLES kind: "subject" 이/가, "goal" 에). `frame` says how English says it:
    "weather" (`en_subject` and the verb `en`, `en_past`: it rains / it rained / it is raining), "be" (a person
    is `en`: hungry), "have" (a person has `en`: a headache) or "verb" (a person `en` / `en_past`: catch a cold /
    caught a cold). `action`: a verb (오다, 나다, 걸리다), else an adjective (고프다); its forms come from `stem`
    and `past_stem` by rule (hangul.py)."""

    noun: str
    particle: str
    stem: str
    past_stem: str
    action: bool
    frame: str
    en: str
    en_past: str = ""
    en_subject: str = ""
    irregular: str = ""


@dataclass(frozen=True)
class Lexicon:
    """One vocabulary the grammar draws from: the compact core or the full everyday one."""

    common_nouns: list[Noun]
    places: list[Noun]
    names: list[Noun]
    pronouns: list[Pronoun]
    transitive: list[Verb]
    intransitive: list[Verb]
    motion: list[Verb]
    adjectives: list[Adjective]
    time_words: list[TimeWord]
    numbers: list[tuple[str, str]]
    tools: dict[str, Noun]
    degree_adverbs: list[tuple[str, str]]
    manner_adverbs: list[tuple[str, str]]
    fixed_subject: list[FixedSubject] = dataclasses.field(default_factory=list)  # 비가 오다 ... (grammar learner6)
    # a verb said with its own object noun, whose sense the verb picks (차를 운전하다 -> drive a car, 배를 타다 -> take
    # a boat, 이를 닦다 -> brush one's teeth): FixedSubject entries with particle "object" (grammar learner7)
    fixed_object: list[FixedSubject] = dataclasses.field(default_factory=list)

    @property
    def verbs(self) -> list[Verb]:
        return self.transitive + self.intransitive + self.motion

    @property
    def entries(self) -> int:
        """Korean lexical entries: nouns, names, pronouns, verbs, adjectives, time words, numbers, adverbs."""
        verb_stems = {(v.stem, v.en_base) for v in self.verbs}
        return (len(self.common_nouns) + len(self.places) + len(self.names) + len(self.pronouns) + len(verb_stems)
                + len(self.adjectives) + len(self.time_words) + len(self.numbers) + len(self.degree_adverbs)
                + len(self.manner_adverbs) + len(self.fixed_subject) + len(self.fixed_object))


class LexiconError(ValueError):
    """A bad entry of a lexicon file, named by file, line and field."""


_TYPES = {"str": str, "bool": bool, "int": int, "frozenset[str]": (list, str), "tuple[str, ...]": (list, str),
          "tuple[int, ...]": (list, int)}


def _problem(annotation: str, value) -> str:
    """What is wrong with `value` for a field of type `annotation` ('' when nothing)."""
    expected = _TYPES.get(annotation)
    if expected is None:
        return ""
    if isinstance(expected, tuple):
        container, item = expected
        if not isinstance(value, container) or not all(isinstance(v, item) and not isinstance(v, bool) for v in value):
            return f"expected a list of {item.__name__}, got {value!r}"
        return ""
    if not isinstance(value, expected) or (expected is int and isinstance(value, bool)):
        return f"expected {expected.__name__}, got {value!r}"
    return ""


def _entry(cls, values, where: str = ""):
    """One dataclass entry from its JSON object: lists become the field's frozenset or tuple. The schema check:
    a missing or unknown field, a value of the wrong type or an unknown irregular class is a LexiconError naming
    `where` (file and line), the entry's kind and the field."""
    def bad(field: str, problem: str) -> LexiconError:
        return LexiconError(f"{where}: {cls.__name__} entry, field {field!r}: {problem}")

    if not isinstance(values, dict):
        raise LexiconError(f"{where}: a {cls.__name__} entry is a JSON object of its fields, got {values!r}")
    kwargs = {}
    for f in dataclasses.fields(cls):
        if f.name not in values:
            if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                raise bad(f.name, "missing")
            continue
        value = values[f.name]
        problem = _problem(str(f.type), value)
        if problem:
            raise bad(f.name, problem)
        if str(f.type).startswith("frozenset"):
            value = frozenset(value)
        elif str(f.type).startswith("tuple"):
            value = tuple(value)
        kwargs[f.name] = value
    for unknown in sorted(set(values) - set(kwargs)):
        raise bad(unknown, "no such field")
    entry = cls(**kwargs)
    if getattr(entry, "irregular", "") not in hangul.IRREGULAR_CLASSES:
        raise bad("irregular", f"unknown irregular class {entry.irregular!r}; expected one of "
                               f"{sorted(hangul.IRREGULAR_CLASSES)}")
    return entry


def _pair(row, where: str, field: str) -> tuple[str, str]:
    """A (Korean, English) pair of a pair field (numbers, adverbs)."""
    if not (isinstance(row, list) and len(row) == 2 and all(isinstance(v, str) for v in row)):
        raise LexiconError(f"{where}: {field} entry: expected [Korean, English], got {row!r}")
    return tuple(row)


def read_entries(path: Path) -> dict[str, list[tuple[int, object]]]:
    """A lexicon file's fields, each a list of (line, entry): the line each entry starts on, for the schema
    check's messages (keys starting with "_" are notes and left out)."""
    text = path.read_text(encoding="utf-8")
    json.loads(text)  # a syntax error names its line itself
    decoder, i, fields = json.JSONDecoder(), text.index("{") + 1, {}

    def skip(i: int) -> int:
        while text[i] in " \t\r\n,:":
            i += 1
        return i

    while (i := skip(i)) < len(text) and text[i] != "}":
        key, i = decoder.raw_decode(text, i)
        i = skip(i)
        if text[i] != "[":
            _, i = decoder.raw_decode(text, i)
            if not key.startswith("_"):
                fields[key] = []
            continue
        rows, i = [], i + 1
        while (i := skip(i)) < len(text) and text[i] != "]":
            line = text.count("\n", 0, i) + 1
            row, i = decoder.raw_decode(text, i)
            rows.append((line, row))
        i += 1
        if not key.startswith("_"):
            fields[key] = rows
    return fields


_ENTRY_TYPES = {"common_nouns": Noun, "places": Noun, "names": Noun, "pronouns": Pronoun, "transitive": Verb,
                "intransitive": Verb, "motion": Verb, "adjectives": Adjective, "time_words": TimeWord, "tools": Noun,
                "fixed_subject": FixedSubject, "fixed_object": FixedSubject}
_PAIRS = ("numbers", "degree_adverbs", "manner_adverbs")  # (Korean, English) pairs


def _entries(field_name: str, rows: list[tuple[int, object]], file: str) -> list:
    if field_name in _PAIRS:
        return [_pair(row, f"{file} line {line}", field_name) for line, row in rows]
    return [_entry(_ENTRY_TYPES[field_name], row, f"{file} line {line}") for line, row in rows]


@cache
def load_lexicon(name: str) -> Lexicon:
    """The lexicon `name` ('core' or 'full') from lexicon_<name>.json: the one loader of the vocabulary."""
    path = DATA_DIR / f"lexicon_{name}.json"
    raw = read_entries(path)
    fields = {}
    for field in dataclasses.fields(Lexicon):
        if field.name not in raw and field.name not in ("fixed_subject", "fixed_object"):
            raise LexiconError(f"{path.name}: no field {field.name!r}")
        entries = _entries("common_nouns" if field.name == "tools" else field.name, raw.get(field.name, []),
                           path.name)
        fields[field.name] = {noun.ko: noun for noun in entries} if field.name == "tools" else entries
    return Lexicon(**fields)


def _keys(field_name: str, entry) -> tuple:
    """What makes two entries the same lemma: a noun's (Korean, English) in any noun field, a verb's
    (stem, English, kind), an adjective's (attributive, English), a time word's or a pair's Korean."""
    if field_name in ("common_nouns", "places", "names"):
        return ("noun", entry.ko, entry.en)
    if field_name in ("transitive", "intransitive", "motion"):
        return ("verb", entry.stem, entry.en_base, entry.kind)
    if field_name == "adjectives":
        return ("adjective", entry.attributive, entry.en)
    if field_name == "pronouns":
        return ("pronoun", entry.topic, entry.en_subject)
    if field_name == "time_words":
        return ("time", entry.ko)
    if field_name in ("fixed_subject", "fixed_object"):
        return (field_name, entry.noun, entry.stem, entry.en)
    return (field_name, entry[0])  # numbers, degree and manner adverbs: (Korean, English)


@cache
def load_additions(base: str, *names: str) -> Lexicon:
    """The lexicon `base` plus the entries of lexicon_<name>.json for each of `names` in turn (the everyday
    grammar's additions: meals, time, -마다 words; the learner grammar's: a learner's core vocabulary); keys
    starting with "_" are notes. An addition that repeats an entry already there (the same lemma, see `_keys`)
    is an error: each file adds only what the ones before it lack."""
    lexicon = load_lexicon(base)
    fields = {f.name: list(getattr(lexicon, f.name)) if f.name != "tools" else dict(lexicon.tools)
              for f in dataclasses.fields(Lexicon)}
    seen = {_keys(name, entry) for name, rows in fields.items() if name != "tools" for entry in rows}
    for name in names:
        file = f"lexicon_{name}.json"
        for field_name, rows in read_entries(DATA_DIR / file).items():
            if field_name not in fields:
                raise LexiconError(f"{file} line {rows[0][0] if rows else 1}: no Lexicon field {field_name!r}")
            entries = _entries("common_nouns" if field_name == "tools" else field_name, rows, file)
            if field_name == "tools":
                fields[field_name].update({noun.ko: noun for noun in entries})
                continue
            for (line, _), entry in zip(rows, entries, strict=True):
                key = _keys(field_name, entry)
                if key in seen:
                    raise LexiconError(f"{file} line {line} repeats an entry already in the lexicon: "
                                       f"{field_name} {key[1:]}")
                seen.add(key)
            fields[field_name] += entries
    return Lexicon(**fields)


WORD_LISTS = DATA_DIR / "word_lists.json"
_WORD_LIST_KEYS = ("used_by", "about", "words")


def _word_list_value(value, where: str, field: str):
    """A table's words with its JSON lists as tuples; a leaf that is not a string or a whole number (true, 1.5,
    null) is a LexiconError naming `where` (file and line) and the field. A string may be empty where a table says
    so (THING_COMPOUNDS: "" for a mass noun's plural)."""
    if isinstance(value, list):
        return tuple(_word_list_value(item, where, f"{field}[{i}]") for i, item in enumerate(value))
    if isinstance(value, dict):
        return {key: _word_list_value(item, where, f"{field}[{key!r}]") for key, item in value.items()}
    if isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool)):
        return value
    raise LexiconError(f"{where}: field {field}: expected a word (a string) or a whole number, got {value!r}")


@cache
def word_lists(path: Path = WORD_LISTS) -> dict[str, object]:
    """Every table of word_lists.json (the grammar's words and endings beyond the lexicon files) by name, checked:
    each a JSON object of exactly used_by, about and words, words a list or an object of words and numbers."""
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines()
    tables = {}
    for name, table in json.loads(text).items():
        if name.startswith("_"):
            continue
        line = next((i for i, row in enumerate(lines, 1) if row.startswith(f'"{name}":')), 1)
        where = f"{path.name} line {line}"
        if not isinstance(table, dict) or tuple(table) != _WORD_LIST_KEYS:
            got = list(table) if isinstance(table, dict) else table
            raise LexiconError(f"{where}: table {name!r}: expected the fields {list(_WORD_LIST_KEYS)}, got {got!r}")
        if not isinstance(table["words"], list | dict) or not table["words"]:
            raise LexiconError(f"{where}: table {name!r}, field 'words': expected a non-empty list or object")
        tables[name] = _word_list_value(table["words"], where, f"{name}.words")
    return tables


def word_list(name: str):
    """The table `name` of word_lists.json: a tuple (its JSON lists as tuples) or a dict."""
    return word_lists()[name]


CORE = load_lexicon("core")
FULL = load_lexicon("full")

# The core's lists under their old names (tests and the grammar's checks read them).
ALL_VERBS: list[Verb] = CORE.verbs
ADJECTIVES: list[Adjective] = CORE.adjectives
NUMBERS: list[tuple[str, str]] = CORE.numbers
TOOLS: dict[str, Noun] = CORE.tools
NOUN_BY_KO: dict[str, Noun] = {noun.ko: noun for noun in CORE.common_nouns + CORE.places}
