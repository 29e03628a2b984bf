"""The everyday grammar's forms by rule (connective, auxiliary and honorific endings, English -ing forms),
its constants, and every word it can write (the vocabulary reads these; generator.py samples sentences).
"""

from __future__ import annotations

from transformer_core.grammar import english, hangul
from transformer_core.grammar.base import (
    EXTENDED_GRAMMARS,
    REGISTERS,
    Word,
    attach,
    copula_ending,
    predicate_word,
    stem_pieces,
)
from transformer_core.grammar.lexicon import Adjective, Lexicon, Verb, load_additions

GRAMMAR_NAME = "everyday"
LEARNER_GRAMMAR = "learner"  # the everyday constructions over the full + everyday + learner lexicon
LEARNER2_GRAMMAR = "learner2"  # the same over the learner lexicon's second round too (its additions file "learner2")
LEARNER3_GRAMMAR = "learner3"  # learner2 + a beginner syllabus's constructions, over the lexicon's third round too
LEARNER4_GRAMMAR = "learner4"  # learner3 + the syllabus items it lacked (-겠-, -(으)ㄹ게요 ...) + the months
LEARNER5_GRAMMAR = "learner5"  # learner4 + the beginner items it lacked (만, 도, -(으)ㄹ까요?, -아/어 주다 ...)
LEARNER6_GRAMMAR = "learner6"  # learner5 + weather and body collocations, -아/어서 (sequence), numbers, -거나 ...
LEARNER7_GRAMMAR = "learner7"  # learner6 + the level-1 word list's missing words, senses told apart by collocation
LEARNER8_GRAMMAR = "learner8"  # learner7 + noun compounds, durations and dates, -대요, a learner's everyday verbs
LEARNER9_GRAMMAR = "learner9"  # learner8 + spoken particles (dropped 을/를, topic 은/는 on time words), 몇 시에 /
#                                몇 층에, 밖에 / 하나도 / 아무도 / 아무것도, greetings
LEARNER10_GRAMMAR = "learner10"  # learner9 + 여기 / 거기 / 저기, 밖 / 근처, N이 되다, 아무 N도, 있으면 / 없으면
# The additions files each grammar reads on top of the full lexicon, in order (lexicon.py reads them): its own and
# those of every grammar before it.
ADDITIONS = {grammar: EXTENDED_GRAMMARS[:i + 1] for i, grammar in enumerate(EXTENDED_GRAMMARS)}
# Grammars whose 으-endings (-(으)니까, -(으)면서, -(으)시-) take irregular stems too (들으니까, 도우세요, 나으면서):
# the everyday grammar left those stems out, and its stream stays as it was.
IRREGULAR_EU_GRAMMARS = frozenset({LEARNER_GRAMMAR, LEARNER2_GRAMMAR, LEARNER3_GRAMMAR, LEARNER4_GRAMMAR,
                                   LEARNER5_GRAMMAR, LEARNER6_GRAMMAR, LEARNER7_GRAMMAR, LEARNER8_GRAMMAR,
                                   LEARNER9_GRAMMAR, LEARNER10_GRAMMAR})
# Grammars with the syllabus constructions (syllabus_korean_words / syllabus_english_words; Learner3Grammar).
SYLLABUS_GRAMMARS = frozenset({LEARNER3_GRAMMAR, LEARNER4_GRAMMAR, LEARNER5_GRAMMAR, LEARNER6_GRAMMAR,
                               LEARNER7_GRAMMAR, LEARNER8_GRAMMAR, LEARNER9_GRAMMAR, LEARNER10_GRAMMAR})
# Grammars with the second syllabus round too (learner4_korean_words / learner4_english_words; Learner4Grammar).
SYLLABUS2_GRAMMARS = frozenset({LEARNER4_GRAMMAR, LEARNER5_GRAMMAR, LEARNER6_GRAMMAR, LEARNER7_GRAMMAR,
                                LEARNER8_GRAMMAR, LEARNER9_GRAMMAR, LEARNER10_GRAMMAR})
# Grammars with the third syllabus round too (learner5_korean_words / learner5_english_words; Learner5Grammar).
SYLLABUS3_GRAMMARS = frozenset({LEARNER5_GRAMMAR, LEARNER6_GRAMMAR, LEARNER7_GRAMMAR, LEARNER8_GRAMMAR,
                                LEARNER9_GRAMMAR, LEARNER10_GRAMMAR})
# Grammars with the fourth syllabus round too (learner6_korean_words / learner6_english_words; Learner6Grammar).
SYLLABUS4_GRAMMARS = frozenset({LEARNER6_GRAMMAR, LEARNER7_GRAMMAR, LEARNER8_GRAMMAR, LEARNER9_GRAMMAR,
                                LEARNER10_GRAMMAR})
# Grammars with the fifth syllabus round too (learner7_korean_words / learner7_english_words; Learner7Grammar).
SYLLABUS5_GRAMMARS = frozenset({LEARNER7_GRAMMAR, LEARNER8_GRAMMAR, LEARNER9_GRAMMAR, LEARNER10_GRAMMAR})
# Grammars with the sixth syllabus round too (learner8_korean_words / learner8_english_words; Learner8Grammar).
SYLLABUS6_GRAMMARS = frozenset({LEARNER8_GRAMMAR, LEARNER9_GRAMMAR, LEARNER10_GRAMMAR})
# Grammars with the seventh syllabus round too (learner9_korean_words / learner9_english_words; Learner9Grammar).
SYLLABUS7_GRAMMARS = frozenset({LEARNER9_GRAMMAR, LEARNER10_GRAMMAR})
# Grammars with the eighth syllabus round too (learner10_korean_words / learner10_english_words; Learner10Grammar).
SYLLABUS8_GRAMMARS = frozenset({LEARNER10_GRAMMAR})

# --- the lexicon: the full one plus the additions -----------------------------------------------------------------


def grammar_lexicon(grammar: str = GRAMMAR_NAME) -> Lexicon:
    """The full lexicon plus the additions of `grammar` ("everyday": meals, time, -마다 words; "learner": those
    and a learner's core vocabulary; "learner2": those and its second round), read by lexicon.py."""
    if grammar not in ADDITIONS:
        raise ValueError(f"unknown grammar {grammar!r}; expected one of {', '.join(ADDITIONS)}")
    return load_additions("full", *ADDITIONS[grammar])


def everyday_lexicon() -> Lexicon:
    """The full lexicon plus the everyday additions (meals, time, -마다 words)."""
    return grammar_lexicon(GRAMMAR_NAME)


def learner_lexicon() -> Lexicon:
    """The everyday lexicon plus the learner additions (a learner's verbs, adjectives, nouns, ...)."""
    return grammar_lexicon(LEARNER_GRAMMAR)


def learner2_lexicon() -> Lexicon:
    """The learner lexicon plus its second round (the additions file "learner2": 1,000 more entries)."""
    return grammar_lexicon(LEARNER2_GRAMMAR)


def learner3_lexicon() -> Lexicon:
    """The learner2 lexicon plus the third round (the additions file "learner3")."""
    return grammar_lexicon(LEARNER3_GRAMMAR)


# --- Korean forms by rule ---------------------------------------------------------------------------------------

def is_ha(stem: str) -> bool:
    return len(stem) > 1 and stem.endswith("하")


def piece_word(base: str, ending: str, stem: str) -> Word:
    """(base, ending) as tokenizer pieces; a 하다 stem splits before 하 (공부 + 하고, 공부 + 해서)."""
    if is_ha(stem) and (base + ending).startswith(stem[:-1]):
        return stem_pieces(base + ending, stem) if ending or base != stem else (stem[:-1], "하")
    return (base, ending) if ending else (base,)


def eu_ending(stem: str, ending: str, irregular: str = "") -> Word:
    """An ending with 으 after a consonant (읽 + 으세요, 가 + 세요, 만들 + 면서, 만드 + 세요 for ㄴ/ㅅ/ㅂ endings);
    irregular stems change first (hangul.eu_stem): 듣 -> 들 + 으세요, 돕 -> 도우 + 세요, 낫 -> 나 + 으면서,
    노랗 -> 노라 + 니까."""
    if irregular:
        base, eu = hangul.eu_stem(stem, irregular)
        return piece_word(base, ("으" if eu else "") + ending, stem)
    final = hangul.final_consonant(stem)
    if final == hangul.FINAL_RIEUL:
        base = stem if ending.startswith(("면", "러", "려")) else hangul.drop_rieul(stem)
        return piece_word(base, ending, stem)
    if final != hangul.FINAL_NONE:
        return piece_word(stem, "으" + ending, stem)
    return piece_word(stem, ending, stem)


def regular(entry: Verb | Adjective) -> bool:
    """Stems whose 으-endings follow the plain rule (irregular ㄷ/ㅂ/ㅅ/ㅎ/르 stems are left to the full grammar)."""
    return not entry.irregular and bool(getattr(entry, "stem", ""))


def eu_class(entry: Verb | Adjective, grammar: str = GRAMMAR_NAME) -> str:
    """The irregular class the 으-endings of `grammar` conjugate this entry by. The core's hand-written irregular
    verbs carry no flag (돕 -> 도왔, 듣 -> 들었, 굽 -> 구웠, 걷 -> 걸었: their forms are written out); the learner
    grammar reads their class off the written past stem (the class whose rule gives it), so 듣 -> 들으세요. The
    everyday grammar keeps the flag as written (its stream stays as it was)."""
    if entry.irregular or grammar not in IRREGULAR_EU_GRAMMARS or not getattr(entry, "stem", ""):
        return entry.irregular
    if hangul.past_stem(entry.stem) == entry.past_stem:
        return ""
    return next((name for name in hangul.IRREGULAR_CLASSES[1:]
                 if hangul.past_stem(entry.stem, name) == entry.past_stem), "")


def takes_eu_endings(entry: Verb | Adjective, grammar: str = GRAMMAR_NAME) -> bool:
    """Does `grammar` write -(으)니까 / -(으)면서 / -(으)시- on this entry? Regular stems always; irregular ones
    in the learner grammars (by hangul.eu_stem)."""
    return regular(entry) or (grammar in IRREGULAR_EU_GRAMMARS and bool(getattr(entry, "stem", "")))


def infinitive(past: str) -> str:
    return hangul.infinitive_from_past(past)


def go_word(stem: str) -> Word:
    """-고: 먹고, 공부하고."""
    return piece_word(stem, "고", stem)


def aseo_word(stem: str, past: str) -> Word:
    """-아서/-어서: 먹어서, 피곤해서, 가서."""
    return piece_word(infinitive(past), "서", stem)


def nikka_word(stem: str, past: str, tense: str, irregular: str = "") -> Word:
    """-(으)니까: 먹으니까, 가니까, 만드니까, 먹었으니까, 들으니까 (ㄷ), 추우니까 (ㅂ)."""
    if tense == "past":
        return piece_word(past, "으니까", stem)
    return eu_ending(stem, "니까", irregular)


def jiman_word(stem: str, past: str, tense: str) -> Word:
    """-지만: 먹지만, 먹었지만."""
    return piece_word(past if tense == "past" else stem, "지만", stem)


def myeonseo_word(stem: str, irregular: str = "") -> Word:
    """-(으)면서: 먹으면서, 가면서, 만들면서, 걸으면서 (ㄷ)."""
    return eu_ending(stem, "면서", irregular)


def ji_word(stem: str) -> Word:
    """-지 before 않다 / 못하다: 먹지."""
    return piece_word(stem, "지", stem)


def auxiliary_words(stem: str, past: str, tense: str, question: bool, register: str, action: bool) -> list[Word]:
    """An auxiliary predicate (싶다, 있다, 않다, 못하다) in one tense and register."""
    future = hangul.future_adnominal(stem)
    return [tuple(word) for word in predicate_word(stem, past, future, tense, question, register, action)]


def honorific_words(stem: str, tense: str, question: bool, register: str, irregular: str = "") -> list[Word]:
    """-(으)시-: 가세요 / 읽으셨어요 / 가신다 / 가셨다 / 가십니다 / 가실 거예요 (banmal speaks of elders politely)."""
    register = "polite" if register == "banmal" else register
    if tense == "future":
        auxiliary = {"plain": ("것이다",), "polite": ("거예요",), "formal": ("것입니다",)}[register]
        if question:
            return [eu_ending(stem, {"plain": "실까", "polite": "실까요", "formal": "실까요"}[register], irregular)]
        return [eu_ending(stem, "실", irregular), auxiliary]
    if tense == "past":
        ending = {"plain": "셨니" if question else "셨다", "polite": "셨어요",
                  "formal": "셨습니까" if question else "셨습니다"}[register]
    else:
        ending = {"plain": "시니" if question else "신다", "polite": "세요",
                  "formal": "십니까" if question else "십니다"}[register]
    return [eu_ending(stem, ending, irregular)]


def rae_word(stem: str, polite: bool) -> Word:
    """-(으)ㄹ래(요)?: 먹을래, 갈래요, 공부할래."""
    future = hangul.future_adnominal(stem)
    return piece_word(future, "래요" if polite else "래", stem)


def ja_word(stem: str) -> Word:
    """-자: 먹자, 가자, 공부하자."""
    return piece_word(stem, "자", stem)


REQUEST_ENDINGS = (("주", "세요"), ("주", "십시오"), ("줘",))  # 주세요 (polite), 주십시오 (formal), 줘 (banmal)

# --- English forms ------------------------------------------------------------------------------------------------

ING_EXCEPTIONS = {"lie": "lying", "die": "dying", "tie": "tying", "see": "seeing", "be": "being",
                  "forget": "forgetting", "begin": "beginning", "travel": "traveling", "visit": "visiting",
                  "open": "opening", "listen": "listening", "enter": "entering", "wonder": "wondering",
                  "quit": "quitting"}


def present_participle(base: str) -> str:
    """eat -> eating, make -> making, run -> running, study -> studying, turn on -> turning on."""
    first, *rest = base.split()
    if first in ING_EXCEPTIONS:
        word = ING_EXCEPTIONS[first]
    elif first.endswith("ie"):
        word = first[:-2] + "ying"
    elif first.endswith("e") and not first.endswith(("ee", "ye", "oe")) and len(first) > 2:
        word = first[:-1] + "ing"
    elif (len(first) >= 3 and first[-1] not in "aeiouwxy" and first[-2] in "aeiou" and first[-3] not in "aeiou"
          and sum(c in "aeiou" for c in first) == 1):
        word = first + first[-1] + "ing"
    else:
        word = first + "ing"
    return " ".join([word, *rest])


def verb_form(base: str, tense: str, person: int, plural: bool) -> str:
    """present (eats / eat) or past (ate is not regular: only for want -> wanted, have -> had)."""
    if tense == "past":
        return {"want": "wanted", "have": "had"}.get(base, base + "ed")
    first, *rest = base.split()
    inflected = english.third_person_singular(first) if english.takes_third_person_s(person, plural) else first
    return " ".join([inflected, *rest])


# Places relative to a noun: Korean position noun + 에 -> English preposition.
POSITIONS = (("위", "on"), ("안", "in"), ("옆", "next to"), ("밑", "under"), ("앞", "in front of"), ("뒤", "behind"))
SINO_FLOORS = (("일", "first"), ("삼", "third"), ("사", "fourth"), ("오", "fifth"), ("육", "sixth"),
               ("칠", "seventh"), ("팔", "eighth"), ("구", "ninth"), ("십", "tenth"))  # 이 층 reads as "this floor"
NATIVE_ONE = ("한", "one")
AGES = (("스무", "twenty"), ("서른", "thirty"), ("마흔", "forty"), ("쉰", "fifty"))
PRONOUNS = ("I", "you", "he", "she", "we", "they")
ELDERS = ("선생님", "할머니", "할아버지", "어머니", "아버지", "부모님", "손님", "교수님", "사장님", "의사")
TRANSPORT_VERBS = ("가", "오")
ENGLISH_WORDS = ("want", "wants", "wanted", "to", "please", "Please", "give", "me", "there", "There", "no", "on",
                 "under", "next", "in", "front", "of", "behind", "have", "has", "had", "so", "but", "while", ",",
                 "cannot", "could", "can", "Let's", "why", "Why", "old", "years", "year", "o'clock", "It", "it",
                 "time", "What", "many", "much", "How", "how", "cup", "cups", "by", "floor", "is", "are", "a",
                 "the", "one", "be", "able", "not", "will", "Do", "Does", "Did", "do", "does", "did", "you", "I",
                 "Is", "Are", "Was", "Were", "Can", "Could", "Will", "each", "every")


# --- every word the everyday grammar adds (the vocabulary enumerates these; no sampling) -------------------------

def everyday_korean_words(grammar: str = GRAMMAR_NAME) -> set[Word]:
    """The Korean words (as pieces) of the constructions above, for every verb and adjective of the lexicon of
    `grammar` ("everyday", "learner", "learner2" or "learner3"; learner3's syllabus words: syllabus_korean_words)."""
    from itertools import product

    lexicon = grammar_lexicon(grammar)
    words: set[Word] = {("좀",), ("몇",), ("왜",), ("같이",), ("우리",), ("그",), ("이",), ("저",), ("못",), ("안",),
                        ("어디", "에"), ("타", "고"), ("것이다",), ("거예요",), ("것입니다",), ("거야",),
                        *REQUEST_ENDINGS, ("열한",), ("열두",), (NATIVE_ONE[0],)}
    words.update((ko,) for ko, _ in (*AGES, *SINO_FLOORS, *lexicon.numbers))
    words.add(attach("층", "goal"))
    words.update(attach(position, "goal") for position, _ in POSITIONS)
    for counter in ("잔", "명", "개", "마리", "권"):
        words.update({(counter,), attach(counter, "object"), attach(counter, "subject")})
    for tense, question, register in product(("present", "past"), (False, True), REGISTERS):
        for noun in ("살", "시", "얼마"):
            words.add((noun, copula_ending(noun, tense, question, register)))
    for stem, past, action in (("싶", "싶었", False), ("있", "있었", False), ("없", "없었", False),
                               ("않", "않았", True), ("못하", "못했", True), ("않", "않았", False)):
        for tense, question, register in product(("past", "present", "future"), (False, True), REGISTERS):
            words.update(auxiliary_words(stem, past, tense, question, register, action))
    for verb in lexicon.verbs:
        stem, past = verb.stem, verb.past_stem
        words.update({go_word(stem), ji_word(stem), piece_word(infinitive(past), "", stem), ja_word(stem),
                      rae_word(stem, True), rae_word(stem, False), aseo_word(stem, past),
                      jiman_word(stem, past, "past"), jiman_word(stem, past, "present")})
        if verb.prefix:
            rest, rest_past = stem[len(verb.prefix):], past[len(verb.prefix):]
            for tense, register in product(("past", "present"), REGISTERS):
                words.update(tuple(w) for w in predicate_word(rest, rest_past, hangul.future_adnominal(rest), tense,
                                                              False, register, True))
        if takes_eu_endings(verb, grammar):
            irregular = eu_class(verb, grammar)
            words.update({nikka_word(stem, past, "past", irregular), nikka_word(stem, past, "present", irregular),
                          myeonseo_word(stem, irregular)})
            for tense, question, register in product(("past", "present", "future"), (False, True), REGISTERS):
                words.update(honorific_words(stem, tense, question, register, irregular))
    for adjective in lexicon.adjectives:
        if adjective.predicative and adjective.stem:
            stem, past = adjective.stem, adjective.past_stem
            words.update({aseo_word(stem, past), jiman_word(stem, past, "past"), jiman_word(stem, past, "present")})
            if takes_eu_endings(adjective, grammar):
                words.update({nikka_word(stem, past, "past", eu_class(adjective, grammar)),
                              nikka_word(stem, past, "present", eu_class(adjective, grammar))})
    if grammar in SYLLABUS_GRAMMARS:
        words |= syllabus_korean_words(lexicon, grammar)
    if grammar in SYLLABUS2_GRAMMARS:
        words |= learner4_korean_words(lexicon)
    if grammar in SYLLABUS3_GRAMMARS:
        words |= learner5_korean_words(lexicon)
    if grammar in SYLLABUS4_GRAMMARS:
        words |= learner6_korean_words(lexicon)
    if grammar in SYLLABUS5_GRAMMARS:
        words |= learner7_korean_words(lexicon)
    if grammar in SYLLABUS6_GRAMMARS:
        words |= learner8_korean_words(lexicon)
    if grammar in SYLLABUS7_GRAMMARS:
        words |= learner9_korean_words(lexicon)
    if grammar in SYLLABUS8_GRAMMARS:
        words |= learner10_korean_words(lexicon)
    return words


def everyday_english_words(grammar: str = GRAMMAR_NAME) -> set[str]:
    """English words the constructions add: -ing forms, ordinals, counters, want/have/there/please ..."""
    lexicon = grammar_lexicon(grammar)
    words = set(ENGLISH_WORDS) | {"eleven", "twelve", "we", "they", "he", "she", "I", "you"}
    words.update(en for _, en in (*AGES, *SINO_FLOORS))
    for verb in lexicon.verbs:
        words.update(present_participle(verb.en_base).split())
    words.update(word[:1].upper() + word[1:] for word in ("please", "there", "let's", "how", "what", "why", "it",
                                                          "do", "does", "did", "we", "they", "he", "she", "you"))
    if grammar in SYLLABUS_GRAMMARS:
        words |= syllabus_english_words(lexicon)
    if grammar in SYLLABUS2_GRAMMARS:
        words |= learner4_english_words(lexicon)
    if grammar in SYLLABUS3_GRAMMARS:
        words |= learner5_english_words(lexicon)
    if grammar in SYLLABUS4_GRAMMARS:
        words |= learner6_english_words(lexicon)
    if grammar in SYLLABUS5_GRAMMARS:
        words |= learner7_english_words(lexicon)
    if grammar in SYLLABUS6_GRAMMARS:
        words |= learner8_english_words(lexicon)
    if grammar in SYLLABUS7_GRAMMARS:
        words |= learner9_english_words(lexicon)
    if grammar in SYLLABUS8_GRAMMARS:
        words |= learner10_english_words(lexicon)
    return words


# --- the syllabus constructions of grammar learner3 (Learner3Grammar) ----------------------------------------------

# Honorific suppletion: the stem an elder's -(으)시- goes on (먹다/마시다 -> 드시다, 자다 -> 주무시다, 말하다 ->
# 말씀하시다; 있다 "stay" -> 계시다 is its own construction). honorific_words(base, ...) writes 드세요, 주무셨어요.
HONORIFIC_BASES = {"먹": "드", "마시": "드", "자": "주무", "말하": "말씀하"}
STAY_BASE = "계"  # 계시다: 할머니는 집에 계세요 (an elder is at a place)
GI_BEFORE, AFTER = ("전", "에"), ("후", "에")  # -기 전에 (before V-ing), -(으)ㄴ 후에 (after V-ing)
SU, JEOK = ("수",), ("적", "이")  # -(으)ㄹ 수 있다 (can), -(으)ㄴ 적이 있다 (have V-ed)
TTAE = ("때",)  # -(으)ㄹ 때 (when)
DONT_ENDINGS = {"polite": ("마", "세요"), "formal": ("마십", "시오"), "banmal": ("마",), "plain": ("마", "라")}
# English past participles that differ from the simple past (the lexicon writes only the past): eaten, gone ...
PAST_PARTICIPLES = {
    "ate": "eaten", "went": "been", "saw": "seen", "wrote": "written", "took": "taken", "gave": "given",
    "drove": "driven", "rode": "ridden", "spoke": "spoken", "broke": "broken", "chose": "chosen",
    "forgot": "forgotten", "began": "begun", "drank": "drunk", "sang": "sung", "swam": "swum", "ran": "run",
    "came": "come", "became": "become", "knew": "known", "grew": "grown", "threw": "thrown", "flew": "flown",
    "drew": "drawn", "wore": "worn", "tore": "torn", "woke": "woken", "hid": "hidden", "bit": "bitten",
    "fell": "fallen", "shook": "shaken", "stole": "stolen", "froze": "frozen", "rose": "risen",
    "showed": "shown", "did": "done", "blew": "blown", "sank": "sunk", "rang": "rung", "forgave": "forgiven",
    "mistook": "mistaken", "got": "gotten", "woke up": "woken up", "got up": "gotten up", "ran away": "run away",
    "gave up": "given up", "took off": "taken off", "wrote down": "written down", "threw away": "thrown away",
    "came back": "come back", "went out": "gone out", "got off": "gotten off", "got on": "gotten on",
    "fell asleep": "fallen asleep", "overslept": "overslept", "lay": "lain",
    "lay down": "lain down", "swept": "swept", "slept": "slept", "read": "read", "met": "met", "made": "made",
    "bought": "bought", "sold": "sold", "taught": "taught", "caught": "caught", "thought": "thought",
    "brought": "brought", "fought": "fought", "heard": "heard", "held": "held", "kept": "kept", "left": "left",
    "lent": "lent", "lost": "lost", "paid": "paid", "put": "put", "said": "said", "sent": "sent", "sat": "sat",
    "spent": "spent", "stood": "stood", "told": "told", "understood": "understood", "won": "won", "cut": "cut",
    "hit": "hit", "hurt": "hurt", "let": "let", "shut": "shut", "set": "set", "built": "built", "felt": "felt",
    "fed": "fed", "found": "found", "had": "had", "hung": "hung", "led": "led", "meant": "meant",
    "shot": "shot", "slid": "slid", "spun": "spun", "stuck": "stuck", "swung": "swung", "wept": "wept",
    "quit": "quit", "cost": "cost", "spread": "spread", "burst": "burst", "bet": "bet", "dug": "dug",
    "learned": "learned", "dreamed": "dreamed", "lit": "lit", "bent": "bent", "bound": "bound",
}


def past_participle(verb: Verb) -> str:
    """eat -> eaten, go -> been (한국에 간 적이 있다: has been to Korea), study -> studied; '' when the lexicon's
    irregular past has no participle written here (the verb is left out of -(으)ㄴ 적이 있다)."""
    if verb.en_past.endswith("ed") and " " not in verb.en_past and verb.en_past not in PAST_PARTICIPLES:
        return verb.en_past
    if verb.en_past in PAST_PARTICIPLES:
        return PAST_PARTICIPLES[verb.en_past]
    first, *rest = verb.en_past.split()
    if rest and first.endswith("ed") and first not in PAST_PARTICIPLES:
        return verb.en_past  # picked up, turned on
    if rest and first in PAST_PARTICIPLES:
        return " ".join([PAST_PARTICIPLES[first], *rest])
    return ""


def past_adnominal(stem: str, irregular: str = "") -> Word:
    """-(으)ㄴ on a verb (what was done): 먹 -> 먹은, 가 -> 간, 만들 -> 만든, 듣 -> 들은, 돕 -> 도운, 짓 -> 지은,
    공부하 -> 공부 + 한."""
    base, eu = hangul.eu_stem(stem, irregular)
    if eu:
        return piece_word(base, "은", stem)
    return piece_word(hangul.add_final(hangul.drop_rieul(base), hangul.FINAL_NIEUN), "", stem)


def present_adnominal(stem: str, irregular: str = "") -> Word:
    """-는 on a verb (what is done): 먹 -> 먹는, 가 -> 가는, 만들 -> 만드는, 듣 -> 듣는, 공부하 -> 공부 + 하는."""
    return piece_word(hangul.drop_rieul(stem), "는", stem)


def future_adnominal_word(verb: Verb) -> Word:
    """-(으)ㄹ before 수 (can): 먹을, 갈, 만들, 들을, 도울, 공부 + 할."""
    return piece_word(verb.future_stem or hangul.future_adnominal(verb.stem), "", verb.stem)


def ya_word(stem: str, past: str) -> Word:
    """-아/어야 before 하다 / 되다 (have to): 먹어야, 가야, 공부 + 해야."""
    return piece_word(infinitive(past), "야", stem)


def gi_word(stem: str) -> Word:
    """-기 before 전에 (before V-ing): 먹기, 가기, 공부 + 하기."""
    return piece_word(stem, "기", stem)


def reo_word(stem: str, irregular: str = "") -> Word:
    """-(으)러 before 가다 / 오다 (to V): 먹으러, 사러, 만들러, 들으러 (ㄷ), 도우러 (ㅂ)."""
    return eu_ending(stem, "러", irregular)


def myeon_word(stem: str, irregular: str = "") -> Word:
    """-(으)면 (if): 먹으면, 가면, 만들면, 들으면 (ㄷ), 추우면 (ㅂ), 피곤 + 하면."""
    return eu_ending(stem, "면", irregular)


def ryeogo_word(stem: str, irregular: str = "") -> Word:
    """-(으)려고 (in order to): 먹으려고, 사려고, 만들려고, 들으려고 (ㄷ), 도우려고 (ㅂ)."""
    return eu_ending(stem, "려고", irregular)


def do_word(stem: str, past: str) -> Word:
    """-아/어도 before 되다 (may): 먹어도, 가도, 공부 + 해도."""
    return piece_word(infinitive(past), "도", stem)


def ttae_words(verb: Verb, tense: str) -> list[Word]:
    """-(으)ㄹ 때 (when): 먹을 때, 갈 때, 들을 때 (ㄷ); past 먹었을 때, 갔을 때."""
    if tense == "past":
        return [piece_word(verb.past_stem, "을", verb.stem), TTAE]
    return [future_adnominal_word(verb), TTAE]


def bsida_word(stem: str, irregular: str = "") -> Word:
    """-(으)ㅂ시다 (let's, to a group): 먹읍시다, 갑시다, 만듭시다 (ㄹ drops), 들읍시다 (ㄷ), 도웁시다 (ㅂ)."""
    base, eu = hangul.eu_stem(stem, irregular)
    if eu:
        return piece_word(base, "읍시다", stem)
    return piece_word(hangul.add_final(hangul.drop_rieul(base), hangul.FINAL_BIEUP), "시다", stem)


def honorific_base(verb: Verb) -> tuple[str, str]:
    """(stem, irregular class) the -(으)시- endings go on: 먹 -> ('드', ''), 자 -> ('주무', ''), 듣 -> ('듣', 'ㄷ')."""
    if verb.stem in HONORIFIC_BASES:
        return HONORIFIC_BASES[verb.stem], ""
    return verb.stem, eu_class(verb, LEARNER3_GRAMMAR)


SYLLABUS_ENGLISH = ("that", "the", "when", "When", "may", "May", "must", "if", "If",
                    "before", "after", "never", "ever", "tried", "try", "Try", "been", "Have", "Has",
                    "has", "have", "had", "Can", "Could", "can", "could", "Please", "please", "Let's", "not", "Do",
                    "do", "and", "to", "will", "there", ",", "is", "are", "was", "were", "Is", "Are", "Was",
                    "Were", "home", "at")


def syllabus_korean_words(lexicon: Lexicon, grammar: str = LEARNER3_GRAMMAR) -> set[Word]:
    """Every Korean word (as pieces) the syllabus constructions write, for every verb and adjective of `lexicon`."""
    from itertools import product

    words: set[Word] = {GI_BEFORE, AFTER, SU, JEOK, TTAE, ("안",), *DONT_ENDINGS.values()}
    words.update((elder, particle) for elder in ELDERS for particle in ("께서", "께서는"))
    for tense, question, register in product(("past", "present", "future"), (False, True), REGISTERS):
        for stem, past, action in (("하", "했", True), ("되", "됐", True), ("보", "봤", True)):
            words.update(auxiliary_words(stem, past, tense, question, register, action))
        for base in (*HONORIFIC_BASES.values(), STAY_BASE):
            words.update(honorific_words(base, tense, question, register))
    for verb in lexicon.verbs:
        stem, past = verb.stem, verb.past_stem
        irregular = eu_class(verb, grammar)
        words.update({past_adnominal(stem, irregular), future_adnominal_word(verb), ya_word(stem, past),
                      gi_word(stem), reo_word(stem, irregular), myeon_word(stem, irregular),
                      bsida_word(stem, irregular), go_word(stem), ji_word(stem),
                      piece_word(infinitive(past), "", stem), ryeogo_word(stem, irregular), do_word(stem, past),
                      *ttae_words(verb, "past"), *ttae_words(verb, "present"), present_adnominal(stem)})
        base, base_irregular = honorific_base(verb)
        words.add(eu_ending(base, "십시오", base_irregular))  # -(으)십시오: please (formal)
        for tense, question, register in product(("past", "present", "future"), (False, True), REGISTERS):
            words.update(honorific_words(base, tense, question, register, base_irregular))
    for adjective in lexicon.adjectives:
        if adjective.predicative and adjective.stem and takes_eu_endings(adjective, grammar):
            words.add(myeon_word(adjective.stem, eu_class(adjective, grammar)))
    return words


def syllabus_english_words(lexicon: Lexicon) -> set[str]:
    """English words the syllabus constructions add: if, before, after, never, ever, past participles ..."""
    words = set(SYLLABUS_ENGLISH)
    for verb in lexicon.verbs:
        words.update(past_participle(verb).split())
        words.update(verb_form(verb.en_base, "present", 3, False).split())
    return words


# --- the second syllabus round of grammar learner4 (Learner4Grammar) ----------------------------------------------

# -겠- (intention: I will V; Will you V?): the ending by speech level, (statement, question).
GESS_ENDINGS = {"plain": ("겠다", "겠니"), "polite": ("겠어요", "겠어요"), "formal": ("겠습니다", "겠습니까"),
                "banmal": ("겠어", "겠어")}
WILL_ENDINGS = {"plain": "게", "polite": "게요", "formal": "게요", "banmal": "게"}  # -(으)ㄹ게(요): I will (a promise)
BECAUSE, NASEO, THING = ("때문", "에"), ("나서",), ("것",)  # -기 때문에, -고 나서, -(으)ㄴ/는 것 같다
SEEM = ("같", "같았")  # 같다: the stem and past stem of -(으)ㄴ/는 것 같다 (I think ...)
TAG_ENDINGS = ("지요", "죠")  # -지요? / -죠? (..., right?)
# N 때문에 (because of the N): the nouns that can be a reason (the weather, traffic, noise, an exam); not a season
# (because of the summer) nor a word English says without "the" (global warming).
REASON_TAGS = frozenset({"weather", "traffic", "noise", "exam"})
NOT_REASONS = frozenset({"season"})
REASONS_WITHOUT_THE = frozenset({"global warming", "climate"})
# -아/어 있다 (a state that results): the verbs that take it and the English state (문이 열려 있어요 -> The door is
# open; 민수는 앉아 있어요 -> Minsu is sitting); 꺼지다: a lamp or light is off, a candle or fire is out.
STATE_ENGLISH = {"열리": "open", "닫히": "closed", "앉": "sitting", "서": "standing", "눕": "lying down",
                 "꺼지": "off"}
STATE_OUT_TAGS = frozenset({"candle", "fire"})
# N보다 (더) ADJ and PLACE에서 제일/가장 ADJ: English comparatives and superlatives by rule (english_degree), for
# the adjectives a person can be compared in (not these: they do not grade, or their -er reads as another word).
UNGRADED = frozenset({"different", "similar", "intact", "unique", "perfect", "just", "late", "fine", "hurt", "sorry",
                      "wronged", "close", "free", "full", "naive", "afraid", "fun"})
IRREGULAR_DEGREES = {"good": ("better", "best"), "bad": ("worse", "worst")}
TWO_VOWEL_SYLLABLES = frozenset({"fluent"})  # flu-ent: one vowel group, two syllables (more fluent)
MORE = ("더",)
SUPERLATIVE_WORDS = (("제일",), ("가장",))
LEARNER4_ENGLISH = ("because", "Because", "after", "After", "I", "think", "decided", "decide", "Did", "did",
                    "came", "come", "will", "Will", "you", "right", ",", "to", "but", "open", "closed", "sitting",
                    "standing", "lying", "down", "off", "out", "Is", "Are", "Was", "Were", "the", "The", "than",
                    "more", "most", "in", "of")


def gess_word(stem: str, register: str, question: bool = False) -> Word:
    """-겠- (I will, intention): 먹겠어요, 가겠습니다, 만들겠다, 듣겠어 (the stem never changes), 공부 + 하겠어요."""
    return piece_word(stem, GESS_ENDINGS[register][question], stem)


def will_word(verb: Verb, register: str) -> Word:
    """-(으)ㄹ게요 (I will, a promise): 먹을게요, 갈게요, 만들게요 (ㄹ stays), 들을게요 (ㄷ), 도울게요 (ㅂ),
    공부 + 할게요;
    -(으)ㄹ게 in banmal and plain speech."""
    return piece_word("".join(future_adnominal_word(verb)), WILL_ENDINGS[register], verb.stem)


def gi_past_word(stem: str, past: str, tense: str) -> Word:
    """-기 (before 때문에 / 로): 먹기, 가기, 공부 + 하기; past 먹었기, 갔기, 공부 + 했기."""
    return piece_word(past, "기", stem) if tense == "past" else gi_word(stem)


def giro_word(stem: str) -> Word:
    """-기로 (before 하다: decided to V): 먹기로, 가기로, 공부 + 하기로."""
    return piece_word(stem, "기로", stem)


def ge_word(stem: str) -> Word:
    """-게 (before 되다: came to V): 먹게, 가게, 만들게, 공부 + 하게."""
    return piece_word(stem, "게", stem)


def seem_adnominal(verb: Verb, tense: str, irregular: str = "") -> Word:
    """The adnominal before 것 같다: present -는 (먹는, 만드는), past -(으)ㄴ (먹은, 만든, 들은), future -(으)ㄹ (먹을,
    만들, 들을)."""
    if tense == "past":
        return past_adnominal(verb.stem, irregular)
    if tense == "future":
        return future_adnominal_word(verb)
    return present_adnominal(verb.stem, irregular)


def neunde_word(entry: Verb | Adjective, tense: str) -> Word:
    """-는데 / -(으)ㄴ데 (background, contrast: ..., but): 먹는데, 만드는데, 먹었는데; adjectives 피곤 + 한데, 좋은데,
    추운데, 맛있는데, 피곤 + 했는데."""
    if tense == "past":
        return piece_word(entry.past_stem, "는데", entry.stem)
    if isinstance(entry, Adjective):
        return piece_word(entry.attributive, "데", entry.stem)
    return piece_word(hangul.drop_rieul(entry.stem), "는데", entry.stem)


def tag_word(stem: str, past: str, tense: str, ending: str = "지요") -> Word:
    """-지요? / -죠? (..., right?): 먹지요, 먹죠, 먹었지요, 공부 + 하죠."""
    return piece_word(past if tense == "past" else stem, ending, stem)


def neyo_word(stem: str, past: str, tense: str) -> Word:
    """-네요 (exclamation): 먹네요, 만드네요 (ㄹ drops), 덥네요, 피곤 + 하네요; past 먹었네요."""
    if tense == "past":
        return piece_word(past, "네요", stem)
    return piece_word(hangul.drop_rieul(stem), "네요", stem)


def _syllables(word: str) -> int:
    """Vowel groups of an English word, a silent final e not counted: big 1, brave 1, happy 2, quiet 1, gentle 2."""
    import re

    if word.endswith("e") and not word.endswith(("ee", "le")):
        word = word[:-1]
    return max(1, len(re.findall(r"[aeiouy]+", word[1:] if word.startswith("y") else word)))


def english_degree(adjective: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(comparative, superlative) words: big -> (bigger,), (biggest,); happy -> happier, happiest; nice -> nicer;
    good -> better, best; tired, boring, careful, cold-hearted -> (more, tired), (most, tired)."""
    if adjective in IRREGULAR_DEGREES:
        better, best = IRREGULAR_DEGREES[adjective]
        return (better,), (best,)
    syllables = _syllables(adjective)
    short = (" " not in adjective and "-" not in adjective and not adjective.endswith(("ed", "ing", "ful"))
             and adjective not in TWO_VOWEL_SYLLABLES
             and (syllables == 1 or (syllables == 2 and adjective.endswith("y"))))
    if not short:
        return ("more", *adjective.split()), ("most", *adjective.split())
    if syllables == 2:  # happy -> happi
        base = adjective[:-1] + "i"
    elif adjective.endswith("e"):  # nice -> nic
        base = adjective[:-1]
    elif (len(adjective) >= 3 and adjective[-1] not in "aeiouwxy" and adjective[-2] in "aeiou"
          and adjective[-3] not in "aeiou"):  # big -> bigg
        base = adjective + adjective[-1]
    else:
        base = adjective
    return (base + "er",), (base + "est",)


def comparable(adjective: Adjective) -> bool:
    """An adjective a person is compared in (N보다 더 ADJ, 제일 ADJ)."""
    return (adjective.predicative and bool(adjective.stem) and "person" in adjective.applies_to
            and adjective.en not in UNGRADED)


def learner4_korean_words(lexicon: Lexicon) -> set[Word]:
    """Every Korean word (as pieces) the second syllabus round writes, for every verb and adjective of `lexicon`."""
    from itertools import product

    words: set[Word] = {BECAUSE, NASEO, THING, MORE, *SUPERLATIVE_WORDS}
    for noun in lexicon.common_nouns + lexicon.names:
        if noun.is_name or "person" in noun.tags:
            words.add((noun.ko, "보다"))
    for tense, question, register in product(("past", "present", "future"), (False, True), REGISTERS):
        words.update(auxiliary_words(*SEEM, "present", question, register, action=False))
        for stem, past in (("하", "했"), ("되", "됐")):
            words.update(auxiliary_words(stem, past, tense, question, register, action=True))
    for verb in lexicon.verbs:
        stem, past = verb.stem, verb.past_stem
        irregular = eu_class(verb, LEARNER4_GRAMMAR)
        words.update({giro_word(stem), ge_word(stem), go_word(stem), neunde_word(verb, "past"),
                      neunde_word(verb, "present"), neyo_word(stem, past, "past"), neyo_word(stem, past, "present")})
        words.update(will_word(verb, register) for register in REGISTERS)
        words.update(gess_word(stem, register, question) for register in REGISTERS for question in (False, True))
        words.update(gi_past_word(stem, past, tense) for tense in ("past", "present"))
        words.update(seem_adnominal(verb, tense, irregular) for tense in ("past", "present", "future"))
        words.update(tag_word(stem, past, tense, ending) for tense in ("past", "present") for ending in TAG_ENDINGS)
    for adjective in lexicon.adjectives:
        if adjective.predicative and adjective.stem and adjective.attributive:
            stem, past = adjective.stem, adjective.past_stem
            words.update({neunde_word(adjective, "past"), neunde_word(adjective, "present"),
                          neyo_word(stem, past, "past"), neyo_word(stem, past, "present")})
            words.update(gess_word(stem, register, question) for register in REGISTERS for question in (False, True))
    return words


def learner4_english_words(lexicon: Lexicon) -> set[str]:
    """English words the second syllabus round adds: because, think, decided, right ..., and the comparatives and
    superlatives of the adjectives a person is compared in."""
    words = set(LEARNER4_ENGLISH)
    for adjective in lexicon.adjectives:
        if comparable(adjective):
            comparative, superlative = english_degree(adjective.en)
            words.update(comparative + superlative)
    return words


# --- the third syllabus round of grammar learner5 (Learner5Grammar) -----------------------------------------------

ONLY, ALSO = "만", "도"  # N만 (only N), N도 (N too): in place of the object particle
UNTIL = "까지"  # PLACE1에서 PLACE2까지 (from PLACE1 to PLACE2)
# The motion verbs whose English says "from ... to ..." (walked from the house to the school), by stem and sense.
FROM_TO_VERBS = frozenset({("가", "go"), ("오", "come"), ("걸어가", "walk"), ("걸어오", "walk"), ("뛰어가", "run"),
                           ("날아가", "fly"), ("돌아가", "return"), ("이사하", "move"), ("달려가", "dash")})
COMPANION_PARTICLES = ("하고", "랑")  # N하고 / N(이)랑 (with N; 이랑 after a consonant)
# -(으)ㄹ까요? (Shall we V?): the ending by speech level (the plain and banmal -(으)ㄹ까).
SHALL_ENDINGS = {"plain": "까", "polite": "까요", "formal": "까요", "banmal": "까"}
# -아/어 주다 (V for someone): the recipient's particle (에게 / 한테; an elder 께, with 드리다 in place of 주다).
RECIPIENT_PARTICLES = ("에게", "한테")
ELDER_RECIPIENT = "께"
GIVE, GIVE_HUMBLE = ("주", "줬"), ("드리", "드렸")
# The verbs whose -아/어 주다 English says with "for" (만들어 줬어요 -> made ... for N), by stem and English sense (a
# stem with another sense, 쓰다 write / use, is not one of them).
BENEFACTIVE_VERBS = frozenset({("만들", "make"), ("사", "buy"), ("읽", "read"), ("찾", "find"), ("그리", "draw"),
                               ("고치", "fix"), ("요리하", "cook")})
# -아/어지다 (got ADJ-er): 지다's stem and past stem; the weather adjectives whose change English says "got colder".
BECOME = ("지", "졌")
CHANGING_WEATHER = frozenset({"hot", "cold", "warm", "cool", "good", "bad", "clear", "cloudy", "humid", "chilly",
                              "mild", "dry"})
# -는 것을 / -기를 좋아하다 (like V-ing), 싫어하다 (hate V-ing): the verbs by stem and English sense.
LIKING_VERBS = frozenset({("좋아하", "like"), ("싫어하", "hate")})
# What one likes doing: a learner's hobbies and chores (the intransitive verbs by stem and English sense), so
# that 좋아하다 never says "likes crashing".
ACTIVITY_VERBS = frozenset({
    ("놀", "play"), ("자", "sleep"), ("뛰", "run"), ("달리", "run"), ("걷", "walk"), ("쉬", "rest"),
    ("공부하", "study"), ("일하", "work"), ("수영하", "swim"), ("운동하", "exercise"), ("노래하", "sing"),
    ("요리하", "cook"), ("운전하", "drive"), ("춤추", "dance"), ("여행하", "travel"), ("산책하", "take a walk"),
    ("쇼핑하", "go shopping"), ("이야기하", "talk"), ("설거지하", "do the dishes"), ("청소하", "clean"),
    ("캠핑하", "go camping"), ("낚시하", "go fishing"), ("등산하", "go hiking"), ("낮잠자", "take a nap"),
    ("외출하", "go out"), ("목욕하", "take a bath"), ("조깅하", "jog"), ("게임하", "play games"),
    ("빨래하", "do the laundry"), ("외식하", "eat out"), ("요가하", "do yoga"), ("독서하", "read")})
# What one does with someone (N하고 / N(이)랑): the hobbies and chores, going somewhere (the motion verbs), and these
# (by stem and English sense); not "chase Jisu with the classmate", which English reads as a tool or a third party.
JOINT_VERBS = frozenset({("먹", "eat"), ("마시", "drink"), ("보", "watch"), ("만들", "make"), ("요리하", "cook"),
                         ("공부하", "study")})
LEARNER5_ENGLISH = ("from", "with", "only", "too", "Shall", "shall", "we", "for", "got", "get", "Did", "did", "Will",
                    "will", "the", "The", "weather", "I", "you", "?", ".", "like", "likes", "liked", "hate", "hates",
                    "hated", "Do", "Does")


def shall_word(verb: Verb, register: str) -> Word:
    """-(으)ㄹ까요? (Shall we V?): 먹을 + 까요, 갈 + 까요, 만들 + 까요 (ㄹ stays), 들을 + 까요 (ㄷ), 도울 + 까요 (ㅂ),
    공부 + 할 + 까요; -(으)ㄹ까 in banmal and plain speech."""
    return (*future_adnominal_word(verb), SHALL_ENDINGS[register])  # the pieces of the future question 먹을까요


def particle_word(noun: str, particle: str) -> Word:
    """A noun with a particle that never changes after a consonant: 사과 + 만, 책 + 도, 민수 + 에게, 할머니 + 께."""
    return (noun, particle)


def offer_word(register: str) -> Word:
    """-아/어 드릴까요? (Shall I V for you?): 드릴 + 까요 (polite and formal speech), 줄 + 까 (banmal and plain)."""
    return ("드릴", "까요") if register in ("polite", "formal") else ("줄", "까")


def companion_word(noun: str, particle: str) -> Word:
    """N하고 / N(이)랑 (with N): 지수 + 하고, 지수 + 랑, 학생 + 이랑."""
    if particle == "랑" and hangul.final_consonant(noun):
        particle = "이랑"
    return (noun, particle)


def become_words(adjective: Adjective, tense: str, question: bool, register: str) -> list[Word]:
    """-아/어지다 (got ADJ-er): 추워 + 졌어요, 따뜻 + 해 + 졌어요, 좋아 + 질 + 거예요 (추워질 거예요); the
    infinitive joined to 지다's first word."""
    lexical = piece_word(infinitive(adjective.past_stem), "", adjective.stem)
    first, *rest = auxiliary_words(*BECOME, tense, question, register, action=True)
    return [(*lexical, *first), *rest]


def nominal_words(verb: Verb, irregular: str, gi: bool) -> list[Word]:
    """V-는 것을 (수영하는 것을 -> swimming: 수영 + 하는, 것 + 을) or V-기를 (수영 + 하기 + 를, 걷기 + 를)."""
    if gi:
        return [(*gi_word(verb.stem), "를")]
    return [present_adnominal(verb.stem, irregular), ("것", "을")]


def learner5_korean_words(lexicon: Lexicon) -> set[Word]:
    """Every Korean word (as pieces) the third syllabus round writes, for every verb and adjective of `lexicon`."""
    from itertools import product

    words: set[Word] = {particle_word(place.ko, UNTIL) for place in lexicon.places}
    for noun in lexicon.common_nouns + lexicon.names:
        words.update({particle_word(noun.ko, ONLY), particle_word(noun.ko, ALSO)})
        if noun.is_name or "person" in noun.tags:
            words.update(particle_word(noun.ko, particle) for particle in (*RECIPIENT_PARTICLES, ELDER_RECIPIENT))
            words.update(companion_word(noun.ko, particle) for particle in COMPANION_PARTICLES)
    words.update(offer_word(register) for register in REGISTERS)
    for tense, question, register in product(("past", "present", "future"), (False, True), REGISTERS):
        for stem, past in (GIVE, GIVE_HUMBLE):
            words.update(auxiliary_words(stem, past, tense, question, register, action=True))
    for verb in lexicon.verbs:
        words.update(shall_word(verb, register) for register in REGISTERS)
        words.add(piece_word(infinitive(verb.past_stem), "", verb.stem))
        for gi in (False, True):
            words.update(nominal_words(verb, eu_class(verb, LEARNER5_GRAMMAR), gi))
    for adjective in lexicon.adjectives:
        if adjective.predicative and adjective.stem:
            for tense, question, register in product(("past", "present", "future"), (False, True), REGISTERS):
                words.update(become_words(adjective, tense, question, register))
    return words


def learner5_english_words(lexicon: Lexicon) -> set[str]:
    """English words the third syllabus round adds: only, too, Shall, for, got ..., and the comparatives of the
    adjectives that get -아/어지다 (colder, busier, more tired)."""
    words = set(LEARNER5_ENGLISH)
    for adjective in lexicon.adjectives:
        if comparable(adjective) or adjective.en in CHANGING_WEATHER:
            words.update(english_degree(adjective.en)[0])
    return words


# --- the fourth syllabus round of grammar learner6 (Learner6Grammar) ----------------------------------------------

BUT = "밖에"  # N밖에 + a negative predicate (사과밖에 안 먹었어요 -> ate only an apple)
SEQUENCE = "서"  # -아/어서 of sequence (가서 만났어요 -> went and met): aseo_word, the reason's word
OR_ENDING = "거나"  # -거나 (V1 or V2): 먹거나, 가거나, 공부하거나
FROM, UNTIL_TIME, ABOUT = "부터", "까지", "쯤"  # TIME부터 TIME까지 (from ... to ...), N쯤 (about N)
HOUR, MINUTE, HALF, WON, HOURS = "시", "분", "반", "원", "시간"  # 세 시 삼십 분, 세 시 반, 오천 원, 두 시간
HOW_LONG = ("얼마나",)  # 얼마나 걸려요? -> How long does it take?
TAKE, TAKE_PAST = "걸리", "걸렸"  # 시간이 걸리다 / N 분 걸리다 (it takes N minutes)
SINO_DIGITS = "일이삼사오육칠팔구"
# Native numbers before a counter (한 시, 두 시간 ... 열두 시), with their English words.
NATIVE_COUNTS = (("한", "one"), ("두", "two"), ("세", "three"), ("네", "four"), ("다섯", "five"), ("여섯", "six"),
                 ("일곱", "seven"), ("여덟", "eight"), ("아홉", "nine"), ("열", "ten"), ("열한", "eleven"),
                 ("열두", "twelve"))
# Minutes (Sino-Korean: 오 분, 삼십 분), minutes past the hour, prices in won (오천 원, 만 오천 원): the English
# writes a Sino-Korean number as digits (5 minutes, 3:30, 5,000 won), a native one as a word (two hours, three
# o'clock).
DURATION_MINUTES = (5, 10, 15, 20, 30, 40, 45, 50)
CLOCK_MINUTES = (10, 15, 20, 30, 40, 45, 50)
PRICES = (500, 1000, 1500, 2000, 2500, 3000, 3500, 4000, 5000, 6000, 7000, 8000, 9000, 10000, 12000, 15000, 20000,
          25000, 30000, 35000, 40000, 50000, 100000)
# -아/어서 of sequence with one object for both verbs (케이크를 만들어서 먹었어요 -> made a cake and ate it): the
# first verbs (by stem and English sense) and the second ones; the object fits both.
SEQUENCE_FIRST = frozenset({("만들", "make"), ("사", "buy"), ("요리하", "cook"), ("빌리", "borrow"), ("씻", "wash"),
                            ("찾", "find"), ("받", "receive"), ("굽", "bake"), ("끓이", "boil")})
SEQUENCE_SECOND = frozenset({("먹", "eat"), ("마시", "drink"), ("읽", "read"), ("입", "wear"), ("팔", "sell"),
                             ("보", "watch"), ("쓰", "use")})
LEARNER6_ENGLISH = ("only", "it", "It", "is", "Is", "was", "Was", "will", "Will", "be", "not", "did", "Did", "do", "Do",
                    "does", "Does", "have", "has", "had", "am", "are", "Are", "were", "and", "or", "from", "to",
                    "about", "at", "o'clock", "takes", "take", "took", "How", "how", "long", "a", "an", "hour",
                    "hours", "minutes", "won", "lot", "of", "time", "them", "This", "this", "The", "the", "That",
                    "that", "now", "?", ".")


def fixed_subject_predicate(entry) -> Verb | Adjective:
    """A collocation's (lexicon.FixedSubject) verb or adjective as the lexicon's Verb or Adjective, so its forms come
    from the same rules as every other (오다 -> 와요, 고프다 -> 고파요, 마르다 -> 말라요)."""
    if entry.action:
        future = hangul.future_form(entry.stem, entry.irregular) if entry.irregular in ("ㅂ", "ㄷ", "ㅎ", "ㅅ") else ""
        return Verb(entry.stem, entry.past_stem, entry.en, entry.en_past or entry.en, "intransitive", frozenset(),
                    future_stem=future, irregular=entry.irregular)
    return Adjective(entry.stem, hangul.attributive_form(entry.stem, entry.irregular), entry.past_stem, entry.en,
                     frozenset(), irregular=entry.irregular)


def fixed_subject_words(entry, tense: str, negated: bool, question: bool, register: str
                        ) -> tuple[list[Word], int, int]:
    """A collocation's Korean words: its noun with its particle, then the predicate (안 first when negated): 비가
    왔어요, 배가 안 고파요, 감기에 걸렸어요. Returns the words, the predicate's lexical index and its tense index."""
    from transformer_core.grammar.base import adjective_pieces, verb_pieces

    predicate = fixed_subject_predicate(entry)
    pieces = verb_pieces if entry.action else adjective_pieces
    words, lexical, tense_index = pieces(predicate, tense, negated, question, register)
    return [attach(entry.noun, entry.particle), *words], lexical + 1, tense_index + 1


def sino_words(n: int) -> list[Word]:
    """A Sino-Korean number as Korean writes it in hangul, spaced after 만 (맞춤법 제44항), each word cut into its
    syllables: 10 -> [('십',)], 25 -> [('이', '십', '오')], 1,500 -> [('천', '오', '백')], 35,000 -> [('삼', '만'),
    ('오', '천')], 10,000 -> [('만',)] (일 is not said before 십, 백, 천 and 만)."""
    if not 0 < n < 100_000_000:
        raise ValueError(f"sino_words writes 1 to 99,999,999, not {n}")

    def below_ten_thousand(k: int) -> str:
        text = ""
        for value, unit in ((1000, "천"), (100, "백"), (10, "십")):
            digit = k // value % 10
            if digit:
                text += ("" if digit == 1 else SINO_DIGITS[digit - 1]) + unit
        return text + (SINO_DIGITS[k % 10 - 1] if k % 10 else "")

    high, low = divmod(n, 10_000)
    words = [("" if high == 1 else below_ten_thousand(high)) + "만"] if high else []
    if low:
        words.append(below_ten_thousand(low))
    return [tuple(word) for word in words]


def english_number(n: int) -> str:
    """A Sino-Korean number in English: digits with thousands commas (5,000; 30)."""
    return f"{n:,}"


# -- numbers typed as digits (3시 30분, 5000원, 2024년, 20살): one piece per digit after the first (5000원 -> 5 ##0
# ##0 ##0 ##원; the tokenizer's longest match may take a whole English number first: 30분 -> 30 ##분) --
DIGITS = "0123456789"
DIGIT_SHARE = 0.4  # the share of learner6's numbers written as digits, as students type them
YEAR, TIMES, AGE = "년", "번", "살"  # 2024년 (Sino-Korean), 세 번 (native: three times), 열세 살 (native)
YEARS = (1990, 1995, 1999, 2000, 2001, 2005, 2010, 2015, 2018, 2019, 2020, 2021, 2022, 2023, 2024, 2025, 2026)
NATIVE_TENS = ("열", "스물", "서른", "마흔", "쉰")
NATIVE_UNITS = ("한", "두", "세", "네", "다섯", "여섯", "일곱", "여덟", "아홉")
ENGLISH_UNITS = ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine")
ENGLISH_TEENS = ("ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen",
                 "nineteen")
ENGLISH_TENS = ("twenty", "thirty", "forty", "fifty")


def digit_word(n: int, *rest: str) -> Word:
    """A number typed as digits with what follows it in the same word: digit_word(30, "분") -> ('3', '0', '분')
    (30분), digit_word(5000, "원", "이에요") -> 5000원이에요; no thousands comma (the tokenizer would cut it off)."""
    if n < 0:
        raise ValueError(f"digit_word writes whole numbers from 0, not {n}")
    return (*str(n), *rest)


def native_count(n: int) -> tuple[str, str]:
    """A native Korean number before a counter (1 to 59), with its English word: 13 -> ('열세', 'thirteen'), 20 ->
    ('스무', 'twenty'; 스물 becomes 스무 before a counter), 21 -> ('스물한', 'twenty-one'), 35 -> ('서른다섯',
    'thirty-five')."""
    if not 0 < n < 60:
        raise ValueError(f"native_count writes 1 to 59, not {n}")
    tens, units = divmod(n, 10)
    unit_ko = NATIVE_UNITS[units - 1] if units else ""
    if tens == 0:
        return unit_ko, ENGLISH_UNITS[units - 1]
    if tens == 1:
        return "열" + unit_ko, ENGLISH_TEENS[units]
    if tens == 2 and not units:
        return "스무", "twenty"
    english_word = ENGLISH_TENS[tens - 2] + ("-" + ENGLISH_UNITS[units - 1] if units else "")
    return NATIVE_TENS[tens - 1] + unit_ko, english_word


FLOOR = "층"  # 2층에 (typed: on the 2nd floor)


def english_ordinal(n: int) -> str:
    """An ordinal typed as digits: 1st, 2nd, 3rd, 4th, 11th, 12th, 13th, 21st."""
    suffix = "th" if n % 100 in (11, 12, 13) else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def times_english(n: int) -> list[str]:
    """N번 (times) in English: once, twice, three times; typed as digits: 3 times."""
    return {1: ["once"], 2: ["twice"]}.get(n, [native_count(n)[1], "times"])


def sequence_word(verb: Verb) -> Word:
    """-아/어서 of sequence: 가서, 만들어서, 구워서 (ㅂ), 요리 + 해서 (the reason's aseo_word)."""
    return aseo_word(verb.stem, verb.past_stem)


def or_word(verb: Verb) -> Word:
    """-거나 (V1 or V2): 먹 + 거나, 가 + 거나, 공부 + 하거나."""
    return piece_word(verb.stem, OR_ENDING, verb.stem)


def learner6_korean_words(lexicon: Lexicon) -> set[Word]:
    """Every Korean word (as pieces) the fourth syllabus round writes: the collocations in every form, numbers with
    their counters, 부터 / 까지 / 쯤 on hours, -거나 and -아/어서 on every verb."""
    from itertools import product

    words: set[Word] = {HOW_LONG, (HOURS,), (HALF,), (WON,), (MINUTE,), attach("시간", "subject"), ("많이",)}
    for entry in lexicon.fixed_subject:
        for tense, negated, question, register in product(("past", "present", "future"), (False, True),
                                                          (False, True), REGISTERS):
            words.update(fixed_subject_words(entry, tense, negated, question, register)[0])
    for tense, question, register in product(("past", "present", "future"), (False, True), REGISTERS):
        words.update(auxiliary_words(TAKE, TAKE_PAST, tense, question, register, action=True))
    for number, _ in NATIVE_COUNTS:
        words.add((number,))
    for n in (*DURATION_MINUTES, *CLOCK_MINUTES, *PRICES):
        words.update(sino_words(n))
    for ending in (FROM, UNTIL_TIME, ABOUT, "에"):
        words.update({(HOUR, ending), (HALF, ending), (MINUTE, ending)})
    words.update({(HOUR,), (MINUTE, ABOUT), (HOURS, ABOUT), (WON, ABOUT)})
    for noun in (HOUR, MINUTE, HALF, WON):
        for tense, question, register in product(("present", "past"), (False, True), REGISTERS):
            words.add((noun, copula_ending(noun, tense, question, register)))
    for verb in lexicon.verbs:
        words.update({sequence_word(verb), or_word(verb)})
    words.update(particle_word(noun.ko, BUT) for noun in lexicon.common_nouns + lexicon.names)
    # numbers typed as digits: the digits (5, ##0), each counter after them (##시, ##분, ##원 ...) with its endings
    words.update((digit,) for digit in DIGITS)
    words.update(("1", digit) for digit in DIGITS)
    words.update({(YEAR, "에"), (TIMES,)})
    words.update(sino_words(year)[0] for year in YEARS)
    words.update((native_count(n)[0],) for n in range(1, 60))
    counted = [word for word in words if word and word[0] in (HOUR, MINUTE, WON, HOURS, YEAR, TIMES)]
    counted.append(attach(FLOOR, "goal"))
    for tense, question, register in product(("present", "past"), (False, True), REGISTERS):
        counted.append((AGE, copula_ending(AGE, tense, question, register)))
    words.update(("1", *word) for word in counted)
    words.update({("보통",), ("벌써",), ("아직",), ("어느",), ("무슨",)})  # usually, already, still / yet; which
    return words


def learner6_english_words(lexicon: Lexicon) -> set[str]:
    """English words the fourth syllabus round adds: the collocations' words (raining, headache, caught ...), the
    numbers as digits (5,000; 3:30; 30) and as words, it / takes / o'clock ..."""
    words = set(LEARNER6_ENGLISH)
    for entry in lexicon.fixed_subject:
        words.update(entry.en.split() + entry.en_past.split() + entry.en_subject.split())
        words.update(english.capitalize_first(entry.en_subject.split())[:1])
        if entry.frame == "weather":
            words.update({english.third_person_singular(entry.en), present_participle(entry.en)})
    words.update(english_number(n) for n in (*DURATION_MINUTES, *PRICES))
    words.update(f"{hour}:{minute:02d}" for hour in range(1, 13) for minute in CLOCK_MINUTES)
    words.update(en for _, en in NATIVE_COUNTS)
    # numbers typed as digits, said in digits: 3 o'clock, 30 minutes, 20 years old, in 2024, 3 times; ages past twelve
    words.update(str(n) for n in (*range(1, 60), *YEARS))
    words.update(native_count(n)[1] for n in range(1, 60))
    words.update({"in", "once", "twice", "times", "year", "years", "old", "on", "floor"})
    words.update(english_ordinal(n) for n in range(1, 11))
    # 보통 / 벌써 / 아직 (is still eating, has not eaten yet); 어느 / 무슨 (Which book, What kind of book)
    words.update({"usually", "already", "still", "yet", "has", "have", "which", "Which", "what", "What", "kind",
                  "of", "Usually", "Already"})
    for verb in lexicon.verbs:
        if " " not in verb.en_base:
            words.add(present_participle(verb.en_base))
            if past_participle(verb):
                words.add(past_participle(verb))
    return words


# --- the fifth syllabus round of grammar learner7 (Learner7Grammar): the level-1 word list's missing words ---------

# Native numbers standing alone, as a count after the counted noun (아이가 둘 있어요 -> I have two children); before
# a counter they are 한, 두, 세, 네 (NATIVE_COUNTS).
STANDALONE_NUMBERS = (("하나", "one"), ("둘", "two"), ("셋", "three"), ("넷", "four"), ("다섯", "five"),
                      ("여섯", "six"), ("일곱", "seven"), ("여덟", "eight"), ("아홉", "nine"), ("열", "ten"))
# 많다 / 적다 (there are many / few Ns), by hangul.py's rules like every adjective: 많아요, 많았어요, 적습니다.
MANY = Adjective("많", hangul.attributive_form("많"), hangul.past_stem("많"), "many", frozenset())
FEW = Adjective("적", hangul.attributive_form("적"), hangul.past_stem("적"), "few", frozenset())
# 모르다 (not know: 몰라요, 몰랐어요, 모를 거예요; 르-irregular), the same objects as 알다.
NOT_KNOW_STEM = "모르"
JUL = ("줄",)  # -(으)ㄹ 줄 알다 / 모르다 (know / not know how to V)
# What one knows how to do (-(으)ㄹ 줄 알다): a skill, never a single act (not "knows how to sob"): swim, drive, cook,
# dance, sing, ski ..., and these with an object: make (a cake), play (the piano), ride (a bicycle), speak, use.
SKILL_VERBS = frozenset({
    ("수영하", "swim"), ("운전하", "drive"), ("요리하", "cook"), ("춤추", "dance"), ("노래하", "sing"),
    ("스키타", "ski"), ("만들", "make"), ("타", "ride"), ("치", "play"), ("쓰", "use"), ("읽", "read"),
    ("고치", "fix"), ("그리", "draw"), ("말하", "speak")})
# The level-1 words learner7 writes in constructions of its own, not as lexicon entries (level1_audit reads this).
CONSTRUCTION_LEMMAS = {"verbs": ("모르다",), "adjectives": ("많다", "적다"),
                       "numerals": tuple(ko for ko, _ in STANDALONE_NUMBERS)}
# Vocatives at the start of a request (선생님, ... -> Teacher, ...): the elders and parents one calls by their title,
# in every speech level; a name takes 씨 in polite speech (민수 씨) and 아 / 야 in banmal and plain speech (지은아,
# 민수야: hangul.py's vocative particle).
VOCATIVE_TITLES = (("선생님", "Teacher"), ("할머니", "Grandma"), ("할아버지", "Grandpa"), ("엄마", "Mom"),
                   ("아빠", "Dad"))
NAME_TITLE = "씨"
# The first English words of a request that a vocative before them lowers (Teacher, please ...).
LOWERED_AFTER_VOCATIVE = frozenset({"Please", "Do", "Let's", "Shall", "Will", "Can", "Did", "Does", "Are",
                                    "Is", "What", "Where", "Why", "How", "When"})
POSSESSIVES = {"I": "my", "you": "your", "we": "our", "they": "their", "he": "his", "she": "her"}
LEARNER7_ENGLISH = ("There", "there", "is", "are", "was", "were", "Is", "Are", "many", "few", "a", "lot", "of",
                    "little", "not", "do", "does", "did", "Do", "Does", "Did", "will", "know", "knew", "how", "to",
                    "has", "have", "had", "Has", "Have", "one", "two", *POSSESSIVES.values())


YOUNGER = Adjective("어리", hangul.attributive_form("어리"), hangul.past_stem("어리"), "younger", frozenset())


def vocative_word(name: str) -> Word:
    """A name called in banmal or plain speech: 민수 -> 민수야, 지은 -> 지은아 (아 after a final consonant)."""
    return (name, "아" if hangul.final_consonant(name) != hangul.FINAL_NONE else "야")


def not_know_verb(know: Verb) -> Verb:
    """모르다 as a Verb with 알다's objects: its forms come from hangul.py's 르 rule (몰라요, 몰랐어요)."""
    return Verb(NOT_KNOW_STEM, hangul.past_stem(NOT_KNOW_STEM, "르"), "know", "knew", "transitive",
                know.subjects, know.objects, irregular="르")


def own_english(text: str, subject_english: str) -> str:
    """A collocation's English with {own} as the subject's possessive: brush {own} teeth -> brush my teeth (I)."""
    return text.replace("{own}", POSSESSIVES[subject_english]) if "{own}" in text else text


def learner7_korean_words(lexicon: Lexicon) -> set[Word]:
    """Every Korean word (as pieces) the fifth syllabus round writes: the object collocations in every form, 많다 /
    적다, 모르다, -(으)ㄹ 줄, the standalone numerals."""
    from itertools import product

    from transformer_core.grammar.base import adjective_pieces, verb_pieces

    words: set[Word] = {JUL, *((ko,) for ko, _ in STANDALONE_NUMBERS), (",",), (NAME_TITLE,), ("항상",)}
    words.update((ko,) for ko, _ in VOCATIVE_TITLES)
    words.update(vocative_word(name.ko) for name in lexicon.names)
    words.update((name.ko, "보다") for name in lexicon.names)
    for n in range(1, 11):
        words.add((native_count(n)[0],))
    words.add((AGE,))
    know = next(v for v in lexicon.transitive if v.stem == "알")
    for tense, negated, question, register in product(("past", "present", "future"), (False, True), (False, True),
                                                      REGISTERS):
        for entry in lexicon.fixed_object:
            words.update(fixed_subject_words(entry, tense, negated, question, register)[0])
        for adjective in (MANY, FEW, YOUNGER):
            words.update(adjective_pieces(adjective, tense, negated, question, register)[0])
        words.update(verb_pieces(not_know_verb(know), tense, negated, question, register)[0])
    for verb in lexicon.verbs:
        words.add(future_adnominal_word(verb))
    return words


def learner7_english_words(lexicon: Lexicon) -> set[str]:
    """English words the fifth syllabus round adds: the collocations' (car, boat, teeth, tall ...), many / few,
    the possessives of brush my teeth."""
    words = set(LEARNER7_ENGLISH) | {en for _, en in STANDALONE_NUMBERS} | {",", "older", "younger", "than", "year",
                                                                          "years"}
    words.update(en for _, en in VOCATIVE_TITLES)
    words.update(word.lower() for word in LOWERED_AFTER_VOCATIVE)
    words.add("always")  # 항상 (Learner7Grammar.ASPECT_ADVERBS)
    words.update(name.en for name in lexicon.names)
    for entry in lexicon.fixed_object:
        for possessive in POSSESSIVES.values():
            words.update(entry.en.replace("{own}", possessive).split())
            words.update(entry.en_past.replace("{own}", possessive).split())
        verb = entry.en.split()[0]
        words.update({verb, english.third_person_singular(verb)})
    return words


# --- the sixth syllabus round of grammar learner8 (Learner8Grammar): compounds, durations, dates, -대요 ------------

# Noun-noun compounds (학교 식당 -> school cafeteria, 영어 숙제 -> English homework): a class of modifiers times a class
# of heads, the first noun modifying the second in both languages (English keeps the Korean order: modifier, head).
# A head: (Korean, English, English plural or "" for a mass noun, its article ("a": a / an, "the", "" none), the
# verbs it is the object of as (stem, English)).
# A modifier: (Korean, English); a country's English is its adjective (한국 음식 -> Korean food).
SUBJECT_MODIFIERS = (("영어", "English"), ("한국어", "Korean"), ("수학", "math"), ("과학", "science"),
                     ("역사", "history"), ("음악", "music"))
COUNTRY_MODIFIERS = (("한국", "Korean"), ("일본", "Japanese"), ("중국", "Chinese"), ("미국", "American"),
                     ("프랑스", "French"), ("이탈리아", "Italian"))
EVENT_MODIFIERS = (("생일", "birthday"), ("크리스마스", "Christmas"))
THING_COMPOUNDS = (
    (SUBJECT_MODIFIERS, (("숙제", "homework", "", "the", (("하", "do"), ("끝내", "finish"))),
                         ("책", "book", "books", "a", (("읽", "read"), ("사", "buy"))),
                         ("선생님", "teacher", "teachers", "the", (("만나", "meet"),)),
                         ("수업", "class", "", "", (("좋아하", "like"),)))),
    (COUNTRY_MODIFIERS, (("음식", "food", "", "", (("먹", "eat"), ("좋아하", "like"), ("만들", "make"))),
                         ("노래", "song", "songs", "a", (("부르", "sing"), ("좋아하", "like"))),
                         ("영화", "movie", "movies", "a", (("보", "see"), ("좋아하", "like"))))),
    (EVENT_MODIFIERS, (("선물", "present", "presents", "a", (("사", "buy"), ("받", "receive"))),
                       ("케이크", "cake", "cakes", "a", (("먹", "eat"), ("만들", "make"), ("사", "buy"))),
                       ("카드", "card", "cards", "a", (("쓰", "write"), ("받", "receive"))))),
)
# Places named by a compound, with what one does there (at the place: 에서; to it: 에 with 가다).
PLACE_COMPOUNDS = (
    ((("학교", "school"),), (("식당", "cafeteria", (("일하", "work"),)),
                            ("도서관", "library", (("공부하", "study"), ("일하", "work"))),
                            ("운동장", "playground", (("놀", "play"), ("운동하", "exercise"))))),
    ((("회사", "company"),), (("식당", "cafeteria", (("일하", "work"),)),)),
    ((("과일", "fruit"), ("꽃", "flower"), ("옷", "clothes"), ("신발", "shoe"), ("채소", "vegetable")),
     (("가게", "shop", (("일하", "work"),)),)),
)
# With 좋아하다 (like) a countable head is plural and bare (likes Korean movies); with the others it takes "a".
GENERIC_VERBS = frozenset({"like"})

# Durations with 동안 (for): the counter, whether its number is native (한 달, 두 시간) or Sino-Korean (삼 년, 십 분),
# the numbers it takes, and its English; a Sino-Korean number is written in digits in English (for 3 years), a
# native one in words (for two months), as learner6's numbers. One of a unit is a / an (일 년 -> a year, 한 달 ->
# a month); 일주일 (a week), 하루 (a day) and 이틀 (two days) are words of their own.
DURING = "동안"
DURATION_UNITS = (("년", "sino", (1, 3, 4, 5, 10), "year"), ("달", "native", (1, 2, 3, 6), "month"),
                  ("주", "sino", (3, 4), "week"), ("일", "sino", (3, 5, 10), "day"),
                  ("시간", "native", (1, 2, 3, 5), "hour"), ("분", "sino", (10, 20, 30), "minute"))
# Digits typed (2년, 2주, 3일 ...): the numbers 이 (2) and 사 (4) read as other words in hangul before 년 and 주 (이
# 년 "this ...", 이 주 "this week"), so 2 is typed only.
TYPED_DURATIONS = {"년": (1, 2, 3, 5, 10), "주": (1, 2, 3), "일": (2, 3, 5, 7, 10), "분": (10, 20, 30)}
DURATION_WORDS = ((("일주일",), ("a", "week")), (("하루",), ("a", "day")), (("이틀",), ("two", "days")))
# What one does for years, months, weeks or days (studied Korean for 3 years; not "slept for 3 years"); for hours and
# minutes any activity (learner6's STILL_VERBS).
LONG_ACTIVITIES = frozenset({("공부하", "study"), ("일하", "work"), ("여행하", "travel"), ("운동하", "exercise"),
                             ("쉬", "rest"), ("배우", "learn")})
LONG_UNITS = ("년", "달", "주", "일")

# Dates: N월 N일 (Sino-Korean: 삼월 오 일 -> March 5; typed 3월 5일); 유월 and 시월 drop the final consonant of 육
# and 십.
MONTHS = (("일월", "January"), ("이월", "February"), ("삼월", "March"), ("사월", "April"), ("오월", "May"),
          ("유월", "June"), ("칠월", "July"), ("팔월", "August"), ("구월", "September"), ("시월", "October"),
          ("십일월", "November"), ("십이월", "December"))
MONTH, DAY = "월", "일"
TODAY = "오늘"

# Reported speech -대요 / -(이)래요 (N says that ...): the plain form's final 다 becomes 대 (먹는다 -> 먹는대요,
# 간다 -> 간대요, 바쁘다 -> 바쁘대요, 먹었다 -> 먹었대요); the copula's 이다 -> 이래요 (학생이래요, 의사래요); the
# future 거예요 -> 거래요 (먹을 거래요). 요 in polite and formal speech, none in banmal and plain (바쁘대).
REPORTED_ENDING, REPORTED_COPULA, REPORTED_FUTURE = "대", "래", "거래"
# Who says it, with the pronoun English repeats in the clause (Minsu says that he ...): names a Korean reads as a
# man's or a woman's (unisex ones left out: 지수, 지민, 수빈, 하늘, 지호), and the third-person pronouns.
NAME_PRONOUNS = {"민수": "he", "준호": "he", "하준": "he", "도윤": "he", "철수": "he", "민준": "he", "태민": "he",
                 "현우": "he", "서준": "he", "우진": "he", "시우": "he", "건우": "he", "지은": "she", "서연": "she",
                 "유나": "she", "영희": "she", "소라": "she", "은비": "she", "민지": "she", "예린": "she",
                 "수아": "she", "하은": "she", "윤서": "she", "다은": "she", "채원": "she"}
# The jobs a -(이)래요 sentence names (민수는 의사래요 -> Minsu says that he is a doctor).
JOBS = ("학생", "의사", "요리사", "가수", "간호사", "군인", "작가", "기자", "변호사", "회사원", "대학생", "선생님")
# The states a -는데 of background gives as the reason for a suggestion or request (피곤한데 집에 갈까요? -> I am
# tired , so shall we go home?): how one feels, not what one is like (not "I am stingy , so ...").
BACKGROUND_STATES = frozenset({"배고프", "바쁘", "피곤하", "아프", "심심하", "졸리", "배부르", "목마르", "한가하"})
LEARNER8_ENGLISH = ("says", "say", "that", "so", ",", "It", "it", "am", "he", "she", "they", "is", "are", "was",
                    "were", "will", "a", "an", "for", "on", "Today", "today", "the", "to", "at")


def reported_word(entry: Verb | Adjective, tense: str, register: str) -> list[Word]:
    """-대요 on a verb or adjective: the plain form with its 다 made 대 (+ 요 in polite and formal speech): 먹 ->
    먹 + 는대요, 가 -> 간 + 대요, 만들 -> 만든 + 대요, 바쁘 -> 바쁘 + 대요, 먹었 + 대요, 공부 + 한 + 대요;
    the future 먹을 거래요."""
    yo = "요" if register in ("polite", "formal") else ""
    if tense == "future":
        if not isinstance(entry, Verb):
            raise ValueError(f"the reported future is a verb's: {entry!r}")
        return [future_adnominal_word(entry), (REPORTED_FUTURE + yo,)]
    action = isinstance(entry, Verb)
    plain = predicate_word(entry.stem, entry.past_stem, "", tense, False, "plain", action)
    *first, last = plain[-1]
    if not last.endswith("다"):
        raise ValueError(f"no plain 다 form to report: {plain!r}")
    return [(*first, last[:-1] + REPORTED_ENDING + yo)]


def reported_copula_word(noun: str, tense: str, register: str) -> Word:
    """-(이)래요 on a noun: 학생 + 이래요, 의사 + 래요; past 학생 + 이었대요, 의사 + 였대요 (요 as reported_word)."""
    yo = "요" if register in ("polite", "formal") else ""
    vowel = hangul.final_consonant(noun) == hangul.FINAL_NONE
    if tense == "past":
        return (noun, ("였" if vowel else "이었") + REPORTED_ENDING + yo)
    return (noun, ("" if vowel else "이") + REPORTED_COPULA + yo)


def duration_english(n: int, unit: str, native: bool) -> list[str]:
    """a year, 3 years (Sino-Korean: digits), a month, two months (native: words), an hour."""
    if n == 1:
        return ["an" if unit == "hour" else "a", unit]
    return [native_count(n)[1] if native else str(n), unit + "s"]


def date_english(month: int, day: int) -> list[str]:
    """March 5 (the month's name, the day in digits)."""
    return [MONTHS[month - 1][1], str(day)]


def learner8_korean_words(lexicon: Lexicon) -> set[Word]:
    """Every Korean word (as pieces) the sixth syllabus round writes: the compounds' nouns with their particles,
    durations with 동안, dates, -대요 on every verb and adjective and -(이)래요 on the jobs."""
    from itertools import product

    words: set[Word] = {(DURING,), (TODAY, "은")}
    for modifiers, heads in THING_COMPOUNDS:
        words.update((ko,) for ko, _ in modifiers)
        words.update(attach(head[0], "object") for head in heads)
    for modifiers, heads in PLACE_COMPOUNDS:
        words.update((ko,) for ko, _ in modifiers)
        for head in heads:
            words.update({attach(head[0], "goal"), attach(head[0], "location")})
    for unit, kind, numbers, _ in DURATION_UNITS:
        words.add((unit,))
        for n in numbers:
            words.update(sino_words(n) if kind == "sino" else [(native_count(n)[0],)])
    for unit, numbers in TYPED_DURATIONS.items():
        words.update(digit_word(n, unit) for n in numbers)
    words.update(word for word, _ in DURATION_WORDS)
    words.update((ko,) for ko, _ in MONTHS)
    for n in range(1, 32):
        words.update(sino_words(n))
        words.add(digit_word(n, MONTH))
        words.add(digit_word(n, DAY, "에"))
        for tense, register in product(("present", "past"), REGISTERS):
            words.add(digit_word(n, DAY, copula_ending(DAY, tense, False, register)))
    words.add((DAY, "에"))
    for tense, register in product(("present", "past"), REGISTERS):
        words.add((DAY, copula_ending(DAY, tense, False, register)))
    for register in REGISTERS:
        for verb in lexicon.verbs:
            for tense in ("present", "past", "future"):
                words.update(reported_word(verb, tense, register))
        for adjective in lexicon.adjectives:
            if adjective.predicative and adjective.stem:
                for tense in ("present", "past"):
                    words.update(reported_word(adjective, tense, register))
        for job in JOBS:
            for tense in ("present", "past"):
                words.add(reported_copula_word(job, tense, register))
    words.update(attach(name, role) for name in NAME_PRONOUNS for role in ("topic", "subject"))
    return words


def learner8_english_words(lexicon: Lexicon) -> set[str]:
    """English words the sixth syllabus round adds: the compounds' words, the durations' and dates' (for, years,
    March, 5), says / that and the pronouns."""
    words = set(LEARNER8_ENGLISH)
    for modifiers, heads in THING_COMPOUNDS:
        words.update(en for _, en in modifiers)
        for _, en, plural, _, _ in heads:
            words.update({en, plural} - {""})
    for modifiers, heads in PLACE_COMPOUNDS:
        words.update(en for _, en in modifiers)
        words.update(head[1] for head in heads)
    for _, kind, numbers, en in DURATION_UNITS:
        for n in numbers:
            words.update(duration_english(n, en, kind == "native"))
    for unit, numbers in TYPED_DURATIONS.items():
        en = next(e for u, _, _, e in DURATION_UNITS if u == unit)
        words.update(w for n in numbers for w in duration_english(n, en, False))
    words.update(w for _, en in DURATION_WORDS for w in en)
    words.update(en for _, en in MONTHS)
    words.update(str(n) for n in range(1, 32))
    return words


# --- the seventh syllabus round of grammar learner9 (Learner9Grammar): spoken particles, 몇 시에, 밖에, 아무도 ------

ONLY_BEFORE_NEGATIVE = "밖에"  # N밖에 없다 / 안 V: only N (the particle goes with a negative predicate)
AT_ALL = "하나도"  # 하나도 안 ADJ: not ADJ at all; N이 하나도 없다: no N at all
NOBODY, NOTHING = "아무도", "아무것도"  # with a negative predicate: nobody, (not) anything
HOW_MANY = "몇"  # 몇 시에 -> what time; 몇 층에 -> what floor
# Set phrases a learner says on the first day, each with its one English: the whole Korean sentence is aligned to
# the whole English one (a greeting is not built from parts a learner sees).
SET_PHRASES = (
    (("안녕하세요",), ("Hello",)), (("안녕",), ("Hi",)), (("안녕히", "가세요"), ("Goodbye",)),
    (("안녕히", "계세요"), ("Goodbye",)), (("감사합니다",), ("Thank", "you")), (("고맙습니다",), ("Thank", "you")),
    (("고마워요",), ("Thank", "you")), (("고마워",), ("Thanks",)), (("죄송합니다",), ("I", "am", "sorry")),
    (("미안해요",), ("I", "am", "sorry")), (("미안해",), ("I", "am", "sorry")),
    (("만나서", "반갑습니다"), ("Nice", "to", "meet", "you")), (("만나서", "반가워요"), ("Nice", "to", "meet", "you")),
    (("실례합니다",), ("Excuse", "me")), (("잘", "자"), ("Good", "night")), (("잘", "가"), ("Bye",)),
)
# Time words that take the topic particle in speech (내일은 학교에 안 가요; 봄에는 꽃이 펴요): the day words and
# every time word ending in 에 (the last word of a two-word one: 다음 주에는). Not -마다, 매일, 방금, 곧, 아까.
TOPIC_TIME_WORDS = frozenset({"어제", "오늘", "내일", "지금", "요즘", "모레", "올해", "그저께"})
NO_TOPIC_TIME_WORDS = frozenset({"오랜만에"})  # 오랜만에 (after a long time) takes no 는
# A noun before another, as an owner or a kind (learner9's possessive kind): 강아지 이름 -> the puppy's name, 동생
# 생일 -> my younger sibling's birthday (family is 'my' unless said otherwise), 차 열쇠 -> the car key, 비행기 표 ->
# a plane ticket. Owners with the English before the head; heads with what one asks or does with them.
OWNERS = (("강아지", "the puppy's"), ("고양이", "the cat's"), ("친구", "my friend's"), ("동생", "my younger sibling's"),
          ("언니", "my older sister's"), ("누나", "my older sister's"), ("형", "my older brother's"),
          ("오빠", "my older brother's"), ("사촌", "my cousin's"), ("엄마", "my mom's"), ("아빠", "my dad's"),
          ("선생님", "the teacher's"), ("민수", "Minsu's"), ("지수", "Jisu's"))
PEOPLE_OWNERS = OWNERS[2:]
OWNED_ASKED = (("이름", "name", "뭐"), ("전화번호", "phone number", "뭐"), ("주소", "address", "뭐"),
               ("생일", "birthday", "언제"))
OWNED_FOUND = (("가방", "bag"), ("방", "room"), ("열쇠", "key"), ("휴대폰", "cell phone"), ("지갑", "wallet"))
THING_KEYS = (("차", "car"), ("집", "house"), ("방", "room"), ("사무실", "office"))
THING_TICKETS = (("비행기", "plane"), ("기차", "train"), ("버스", "bus"), ("영화", "movie"), ("콘서트", "concert"))
COUNTERS = frozenset({"개", "명", "마리", "권", "잔", "병", "그릇", "장", "대"})  # counters a particle moves off
INSTEAD_OF = "말고"  # N1 말고 N2: N2 instead of N1
WHAT_KIND = "어떤"  # 어떤 N: what kind of N (beside learner6's 무슨 and 어느)
# The kinds two nouns of which a learner sets against each other (커피 말고 차, 버스 말고 지하철).
ALTERNATIVE_KINDS = ("drink", "fruit", "sport", "subject", "clothes", "instrument", "vehicle")
AMONG, MOST = ("중", "에서"), "제일"  # KIND 중에서 N을 제일 좋아하다: like N the most among KINDs
# The kinds one picks a favourite among: the kind's word, its English (plural) and the tags (or words) of its members.
AMONG_KINDS = (("과일", "fruits", frozenset({"fruit", "사과", "바나나", "딸기", "포도", "수박", "복숭아", "오렌지"})),
               ("운동", "sports", frozenset({"sport"})),
               ("과목", "subjects", frozenset({"subject"})), ("동물", "animals", frozenset({"animal"})),
               ("악기", "instruments", frozenset({"instrument"})), ("음료", "drinks", frozenset({"drink"})),
               ("계절", "seasons", frozenset({"봄", "여름", "가을", "겨울"})))
LEARNER9_ENGLISH = ("What", "what", "time", "floor", "on", "only", "at", "all", "no", "nobody",
                    "anything", "There", "there", "is", "was", "does", "do", "did", "not", "has", "have", "had",
                    "one", "hour", "hours", "an")


def topic_time_texts(lexicon: Lexicon) -> frozenset[str]:
    """The time words (as written: 내일, 봄에, 주에 of 다음 주에) that take the topic particle in speech: the day
    words of TOPIC_TIME_WORDS and every time word of the lexicon ending in 에 (the last word of a two-word one)."""
    from transformer_core.grammar.base import split_particle

    lasts = {"".join(split_particle(time.ko[-1])) for time in lexicon.time_words}
    return frozenset(w for w in lasts if w in TOPIC_TIME_WORDS or (w.endswith("에") and len(w) > 1
                                                                    and w not in NO_TOPIC_TIME_WORDS))


def topic_time_word(word: Word, time_texts: frozenset[str]) -> Word | None:
    """A time word with the topic particle it takes in speech: ('내일',) -> ('내일', '은'); ('봄', '에') ->
    ('봄', '에', '는'); None for a word that is not in `time_texts` (topic_time_texts)."""
    text = "".join(word)
    if text in time_texts:
        return (*word, hangul.attach_particle(text, "topic")[len(text):])
    return None


def learner9_korean_words(lexicon: Lexicon) -> set[Word]:
    """Every Korean word (as pieces) the seventh syllabus round writes: time words with 은/는 (split as the
    tokenizer cuts the time word), counters and nouns with 밖에, 하나도, 아무도, 아무것도, 몇 and the set phrases."""
    from transformer_core.grammar.base import split_particle

    words: set[Word] = {(AT_ALL,), (NOBODY,), (NOTHING,), (HOW_MANY,), (HOUR, "에"), (FLOOR, "에"),
                        (HOURS, ONLY_BEFORE_NEGATIVE)}
    time_texts = topic_time_texts(lexicon)
    for time in lexicon.time_words:
        topic = topic_time_word(split_particle(time.ko[-1]), time_texts)
        if topic is not None:
            words.add(topic)
    for noun in lexicon.common_nouns:
        if noun.counter:
            words.add((noun.counter, ONLY_BEFORE_NEGATIVE))
        words.add((noun.ko, ONLY_BEFORE_NEGATIVE))
    for phrase, _ in SET_PHRASES:
        words.update((w,) for w in phrase)
    words.update((ko,) for ko, _ in (*OWNERS, *THING_KEYS, *THING_TICKETS))
    words.update({AMONG, (MOST,), ("뭐", "를"), (INSTEAD_OF,), (WHAT_KIND,), *((kind,) for kind, _, _ in AMONG_KINDS)})
    for head in ("열쇠", "표", *(h for h, _, _ in OWNED_ASKED), *(h for h, _ in OWNED_FOUND)):
        words.update(attach(head, role) for role in ("subject", "topic", "object"))
    return words


def learner9_english_words(lexicon: Lexicon) -> set[str]:
    """English words the seventh syllabus round adds: what time / floor, only, at all, nobody, anything, the set
    phrases' words."""
    words = set(LEARNER9_ENGLISH)
    for _, en in SET_PHRASES:
        words.update(en)
    for _, en in (*OWNERS, *THING_KEYS, *THING_TICKETS, *OWNED_FOUND):
        words.update(en.split())
    words.update(w for _, en, _ in OWNED_ASKED for w in en.split())
    words.update({"key", "keys", "ticket", "tickets", "When", "when", "Where", "where", "What", "instead", "of",
                  "among", "the", "most", "Let's"})
    words.update(en for _, en, _ in AMONG_KINDS)
    return words


# --- the eighth syllabus round of grammar learner10 (Learner10Grammar): here / there, outside / near, become ------

# 여기 / 거기 / 저기: a place named by pointing, with the English that takes no preposition (여기서 공부해요 -> I study
# here; 여기 와요 -> come here; 저기에 가방이 있어요 -> There is a bag over there).
DEICTIC_PLACES = (("여기", ("here",)), ("거기", ("there",)), ("저기", ("over", "there")))
# Positions beside POSITIONS (위 on, 안 in ...): 집 밖에 -> outside the house; 학교 근처에 -> near the school.
LEARNER10_POSITIONS = (("밖", "outside"), ("근처", "near"))
BECOME_NOUN = ("되", "됐")  # N이 되다 (become a N): stem and past stem (돼요, 됐어요, 될 거예요, 되고 싶어요)
ANY = "아무"  # 아무 N도 + a negative: (not) any N
LEARNER10_ENGLISH = ("here", "there", "over", "outside", "near", "become", "becomes", "became", "any", "if", "If",
                     ",", "will", "want", "wants", "wanted", "to", "a", "an", "do", "does", "did", "not", "have",
                     "has", "had")


def deictic_word(ko: str, role: str) -> Word:
    """여기 as a place: "location" -> 여기서 (the spoken 에서), "goal" -> 여기에, "bare" -> 여기 (여기 와요)."""
    return {"location": (ko, "서"), "goal": (ko, "에"), "bare": (ko,)}[role]


def learner10_korean_words(lexicon: Lexicon) -> set[Word]:
    """Every Korean word (as pieces) the eighth syllabus round writes: 여기 / 거기 / 저기 with 서, 에 or nothing,
    밖에 / 근처에, 되다's forms, 아무 and N도 for every noun, 있으면 / 없으면."""
    from itertools import product

    words: set[Word] = {(ANY,), go_word(BECOME_NOUN[0]), myeon_word("있"), myeon_word("없")}
    for (ko, _), role in product(DEICTIC_PLACES, ("location", "goal", "bare")):
        words.add(deictic_word(ko, role))
    words.update(attach(position, "goal") for position, _ in LEARNER10_POSITIONS)
    for tense, question, register in product(("past", "present", "future"), (False, True), REGISTERS):
        words.update(auxiliary_words(*BECOME_NOUN, tense, question, register, action=True))
    for noun in lexicon.common_nouns:
        words.add((noun.ko, "도"))
    for job in JOBS:
        words.update({attach(job, "subject"), attach(job, "topic")})
    return words


def learner10_english_words(lexicon: Lexicon) -> set[str]:
    """English words the eighth syllabus round adds: here, there, over there, outside, near, become, any, the
    plurals of nouns after any."""
    words = set(LEARNER10_ENGLISH)
    words.update(w for noun in lexicon.common_nouns if not noun.mass and not noun.plural_only
                 for w in noun.plural.split())
    return words
