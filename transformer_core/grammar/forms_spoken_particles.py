"""The forms by rule, constants and words of grammar stage learner9 (SpokenParticlesGrammar in
constructions_spoken_particles.py): the seventh syllabus round (the topic 은/는 on time words, 몇 시에 / 몇 층에,
밖에, 하나도, 아무도 / 아무것도, set phrases, possessives, N 말고, KIND 중에서). Its words: learner9_korean_words /
learner9_english_words (forms.py collects them for the vocabulary).
"""

from __future__ import annotations

from transformer_core.grammar import hangul
from transformer_core.grammar.base import Word, attach
from transformer_core.grammar.forms_collocations_numbers import FLOOR, HOUR, HOURS
from transformer_core.grammar.lexicon import Lexicon, word_list

ONLY_BEFORE_NEGATIVE = "밖에"  # N밖에 없다 / 안 V: only N (the particle goes with a negative predicate)
AT_ALL = "하나도"  # 하나도 안 ADJ: not ADJ at all; N이 하나도 없다: no N at all
NOBODY, NOTHING = "아무도", "아무것도"  # with a negative predicate: nobody, (not) anything
HOW_MANY = "몇"  # 몇 시에 -> what time; 몇 층에 -> what floor
SET_PHRASES = word_list("SET_PHRASES")
TOPIC_TIME_WORDS = frozenset(word_list("TOPIC_TIME_WORDS"))
NO_TOPIC_TIME_WORDS = frozenset({"오랜만에"})  # 오랜만에 (after a long time) takes no 는
OWNERS = word_list("OWNERS")
PEOPLE_OWNERS = OWNERS[2:]
OWNED_ASKED = word_list("OWNED_ASKED")
OWNED_FOUND = word_list("OWNED_FOUND")
THING_KEYS = word_list("THING_KEYS")
THING_TICKETS = word_list("THING_TICKETS")
COUNTERS = frozenset(word_list("COUNTERS"))
INSTEAD_OF = "말고"  # N1 말고 N2: N2 instead of N1
WHAT_KIND = "어떤"  # 어떤 N: what kind of N (beside learner6's 무슨 and 어느)
ALTERNATIVE_KINDS = word_list("ALTERNATIVE_KINDS")
AMONG, MOST = ("중", "에서"), "제일"  # KIND 중에서 N을 제일 좋아하다: like N the most among KINDs
AMONG_KINDS = tuple((kind, en, frozenset(members)) for kind, en, members in word_list("AMONG_KINDS"))
LEARNER9_ENGLISH = word_list("LEARNER9_ENGLISH")


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
