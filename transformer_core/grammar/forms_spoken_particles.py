"""The forms by rule, constants and words of grammar stage learner9 (SpokenParticlesGrammar in
constructions_spoken_particles.py): the seventh syllabus round (the topic 은/는 on time words, 몇 시에 / 몇 층에,
밖에, 하나도, 아무도 / 아무것도, set phrases, possessives, N 말고, KIND 중에서). Its words: learner9_korean_words /
learner9_english_words (forms.py collects them for the vocabulary).
"""

from __future__ import annotations

from transformer_core.grammar import hangul
from transformer_core.grammar.base import Word, attach
from transformer_core.grammar.forms_collocations_numbers import FLOOR, HOUR, HOURS
from transformer_core.grammar.lexicon import Lexicon

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
