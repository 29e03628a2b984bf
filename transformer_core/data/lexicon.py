"""The Korean-English lexicon of the toy translation task: a few hundred entries.

Each entry carries what the grammar needs: Korean stems (with the irregular past stems written
out), English forms that are not regular, and semantic tags that keep sentences sensible
(only food is eaten, only people read).
"""

from __future__ import annotations

from dataclasses import dataclass

from transformer_core.data import everyday_lexicon as everyday
from transformer_core.data import hangul
from transformer_core.data.english import plural


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


def _tags(text: str) -> frozenset[str]:
    return frozenset(text.split())


def _nouns(rows: str, base_tags: str, mass: bool = False) -> list[Noun]:
    """Parse 'ko en [plural] [+tag ...]' lines."""
    nouns = []
    for line in rows.strip().splitlines():
        fields = line.split()
        ko, en = fields[0], fields[1]
        extra = [f[1:] for f in fields[2:] if f.startswith("+")]
        irregular = [f for f in fields[2:] if not f.startswith("+")]
        nouns.append(Noun(ko, en, _tags(base_tags) | frozenset(extra) | {en}, irregular[0] if irregular else "", mass))
    return nouns


PEOPLE = _nouns("""
아이 child children
소년 boy
소녀 girl
학생 student
선생님 teacher
의사 doctor
농부 farmer
요리사 chef
경찰관 officer
화가 artist
배우 actor
기술자 engineer
삼촌 uncle
이모 aunt
할머니 grandmother
할아버지 grandfather
아기 baby
친구 friend
여자 woman women
남자 man men
가수 singer
간호사 nurse
군인 soldier
왕 king
왕자 prince
공주 princess
이웃 neighbor
소방관 firefighter
과학자 scientist
작가 writer
손님 guest
""", "person")

NAMES = _nouns("""
민수 Minsu
지은 Jieun
서연 Seoyeon
준호 Junho
하준 Hajun
수빈 Subin
지민 Jimin
도윤 Doyun
유나 Yuna
철수 Cheolsu
영희 Younghee
민준 Minjun
하늘 Haneul
소라 Sora
태민 Taemin
은비 Eunbi
""", "person name")

PRONOUNS = [
    Pronoun("나는", "내가", "나를", "I", "me", 1, False),
    Pronoun("너는", "네가", "너를", "you", "you", 2, False),
    Pronoun("우리는", "우리가", "우리를", "we", "us", 1, True),
    Pronoun("그는", "그가", "그를", "he", "him", 3, False),
    Pronoun("그녀는", "그녀가", "그녀를", "she", "her", 3, False),
    Pronoun("그들은", "그들이", "그들을", "they", "them", 3, True),
]

ANIMALS = _nouns("""
고양이 cat
개 dog
새 bird +bird
말 horse +rideable
소 cow
돼지 pig
토끼 rabbit
곰 bear
호랑이 tiger
사자 lion
코끼리 elephant
원숭이 monkey
오리 duck +bird
닭 chicken +bird
쥐 mouse mice
여우 fox
늑대 wolf wolves
양 sheep sheep
물고기 fish fish
부엉이 owl +bird
독수리 eagle +bird
개미 ant
문어 octopus octopuses
거북이 turtle
펭귄 penguin
유니콘 unicorn +rideable
강아지 puppy
하마 hippo
기린 giraffe
다람쥐 squirrel
개구리 frog
뱀 snake
염소 goat
낙타 camel +rideable
""", "animal")

FOODS = _nouns("""
사과 apple
바나나 banana
오렌지 orange
달걀 egg
양파 onion
감자 potato potatoes
토마토 tomato tomatoes
당근 carrot
케이크 cake +baked
쿠키 cookie +baked
샌드위치 sandwich
피자 pizza +baked
햄버거 hamburger
복숭아 peach
딸기 strawberry
레몬 lemon
수박 watermelon
만두 dumpling
도넛 donut
파이 pie +baked
포도 grape
망고 mango mangoes
""", "food") + _nouns("""
빵 bread +baked
생선 fish
밥 rice
수프 soup
""", "food", mass=True)

DRINKS = _nouns("""
우유 milk
물 water
커피 coffee
주스 juice
콜라 cola
코코아 cocoa
레모네이드 lemonade
""", "drink", mass=True)

OBJECTS = _nouns("""
공 ball +toy
가방 bag +openable
상자 box +openable +sendable
의자 chair
컵 cup +breakable +cleanable
접시 plate +breakable +cleanable
창문 window +openable +breakable +cleanable
문 door +openable
열쇠 key
시계 watch
우산 umbrella +openable
모자 hat
사진 photo +sendable
그림 picture +sendable
연필 pencil +tool
펜 pen +tool
칼 knife knives +tool
숟가락 spoon +tool
포크 fork +tool
붓 brush +tool
망치 hammer +tool
크레용 crayon +tool
컴퓨터 computer +tool
전화기 phone
카메라 camera
장난감 toy +toy
인형 doll +toy
선물 gift +sendable
거울 mirror +breakable +cleanable
바구니 basket
병 bottle +openable +breakable
지도 map
노트북 laptop
담요 blanket
베개 pillow
램프 lamp
냉장고 refrigerator +openable +cleanable
방 room +cleanable
""", "object")

BOOKS = _nouns("""
책 book
신문 newspaper
잡지 magazine
소설 novel
시 poem
이야기 story +sound
편지 letter +sendable
공책 notebook
""", "book")

CLOTHES = _nouns("""
셔츠 shirt
코트 coat
치마 skirt
재킷 jacket
교복 uniform
드레스 dress
스웨터 sweater
""", "clothes")

VEHICLES = _nouns("""
자전거 bicycle +rideable
버스 bus +rideable
기차 train +rideable
택시 taxi +rideable
자동차 car +rideable +cleanable
오토바이 motorcycle +rideable
트럭 truck +rideable
보트 boat +rideable
""", "vehicle")

PLANTS = _nouns("""
꽃 flower
나무 tree
장미 rose
씨앗 seed
튤립 tulip
해바라기 sunflower
""", "plant")

SCHOOL_SUBJECTS = _nouns("""
영어 English
수학 math
음악 music +sound
역사 history
과학 science
한국어 Korean
미술 art
""", "subject", mass=True)

SONGS = _nouns("""
노래 song
""", "sound")

PLACES = _nouns("""
공원 park
도서관 library
학교 school
시장 market
식당 restaurant
병원 hospital
은행 bank
역 station
바다 sea
강 river
산 mountain
카페 cafe
정원 garden
부엌 kitchen +cleanable
교실 classroom +cleanable
가게 store
호텔 hotel
공항 airport
영화관 cinema
박물관 museum
동물원 zoo
서점 bookstore
수영장 pool
대학교 university
농장 farm
숲 forest
해변 beach
교회 church
""", "place")

COMMON_NOUNS: list[Noun] = PEOPLE + ANIMALS + FOODS + DRINKS + OBJECTS + BOOKS + CLOTHES + VEHICLES + PLANTS \
    + SCHOOL_SUBJECTS + SONGS
ALL_NOUNS: list[Noun] = COMMON_NOUNS + NAMES + PLACES
NOUN_BY_KO: dict[str, Noun] = {noun.ko: noun for noun in COMMON_NOUNS + PLACES}

ANY_THING = "person animal food drink object book clothes vehicle plant"
ANIMATE = "person animal"

_VERB_ROWS = [
    # stem, past stem, English base, English past, subject tags, object tags, tools, future stem, prefix
    ("먹", "먹었", "eat", "ate", ANIMATE, "food", "숟가락 포크", "", ""),
    ("마시", "마셨", "drink", "drank", ANIMATE, "drink", "", "", ""),
    ("사", "샀", "buy", "bought", "person", "food drink object book clothes vehicle plant", "", "", ""),
    ("팔", "팔았", "sell", "sold", "person", "food drink object book clothes vehicle", "", "", ""),
    ("보", "봤", "see", "saw", ANIMATE, ANY_THING + " place", "", "", ""),
    ("좋아하", "좋아했", "like", "liked", ANIMATE, ANY_THING + " subject place", "", "", ""),
    ("싫어하", "싫어했", "hate", "hated", ANIMATE, ANY_THING + " subject", "", "", ""),
    ("만들", "만들었", "make", "made", "person", "food object clothes toy", "", "", ""),
    ("읽", "읽었", "read", "read", "person", "book", "", "", ""),
    ("쓰", "썼", "write", "wrote", "person", "book", "펜 연필 컴퓨터", "", ""),
    ("찾", "찾았", "find", "found", ANIMATE, "person animal food object book clothes", "", "", ""),
    ("잃어버리", "잃어버렸", "lose", "lost", "person", "object book clothes", "", "", ""),
    ("씻", "씻었", "wash", "washed", "person", "food object animal", "", "", ""),
    ("자르", "잘랐", "cut", "cut", "person", "food", "칼", "", ""),
    ("던지", "던졌", "throw", "threw", "person", "object food", "", "", ""),
    ("잡", "잡았", "catch", "caught", ANIMATE, "animal toy", "", "", ""),
    ("열", "열었", "open", "opened", "person", "openable", "열쇠", "", ""),
    ("닫", "닫았", "close", "closed", "person", "openable", "", "", ""),
    ("그리", "그렸", "draw", "drew", "person", "person animal object plant place vehicle food", "연필 붓 펜 크레용", "",
     ""),
    ("배우", "배웠", "learn", "learned", "person", "subject", "컴퓨터", "", ""),
    ("가르치", "가르쳤", "teach", "taught", "person", "subject", "", "", ""),
    ("돕", "도왔", "help", "helped", ANIMATE, "person animal", "", "도울", ""),
    ("만나", "만났", "meet", "met", "person", "person", "", "", ""),
    ("부르", "불렀", "call", "called", "person", "person animal", "", "", ""),
    ("쫓", "쫓았", "chase", "chased", ANIMATE, "person animal", "", "", ""),
    ("키우", "키웠", "raise", "raised", "person", "animal plant", "", "", ""),
    ("심", "심었", "plant", "planted", "person", "plant", "", "", ""),
    ("먹이", "먹였", "feed", "fed", "person", "animal person", "숟가락", "", ""),
    ("고치", "고쳤", "fix", "fixed", "person", "object vehicle toy", "망치", "", ""),
    ("빌리", "빌렸", "borrow", "borrowed", "person", "book object vehicle", "", "", ""),
    ("보내", "보냈", "send", "sent", "person", "sendable", "", "", ""),
    ("받", "받았", "receive", "received", "person", "sendable", "", "", ""),
    ("듣", "들었", "hear", "heard", ANIMATE, "sound", "", "들을", ""),
    ("입", "입었", "wear", "wore", "person", "clothes", "", "", ""),
    ("타", "탔", "ride", "rode", "person", "rideable", "", "", ""),
    ("굽", "구웠", "bake", "baked", "person", "baked", "", "구울", ""),
    ("숨기", "숨겼", "hide", "hid", ANIMATE, "object food book toy", "", "", ""),
    ("고르", "골랐", "choose", "chose", "person", "food object book clothes toy", "", "", ""),
    ("닦", "닦았", "wipe", "wiped", "person", "cleanable", "", "", ""),
    ("깨뜨리", "깨뜨렸", "break", "broke", ANIMATE, "breakable", "망치", "", ""),
    ("잊", "잊었", "forget", "forgot", "person", "person object book", "", "", ""),
    ("밀", "밀었", "push", "pushed", ANIMATE, "object vehicle person animal", "", "", ""),
    ("끌", "끌었", "pull", "pulled", ANIMATE, "object vehicle toy", "", "", ""),
    ("공부하", "공부했", "study", "studied", "person", "subject", "", "", "공부"),
    ("청소하", "청소했", "clean", "cleaned", "person", "cleanable", "", "", "청소"),
    ("요리하", "요리했", "cook", "cooked", "person", "food", "", "", "요리"),
]

_INTRANSITIVE_ROWS = [
    ("놀", "놀았", "play", "played", ANIMATE, "", ""),
    ("자", "잤", "sleep", "slept", ANIMATE, "", ""),
    ("울", "울었", "cry", "cried", ANIMATE, "", ""),
    ("웃", "웃었", "laugh", "laughed", "person", "", ""),
    ("뛰", "뛰었", "run", "ran", ANIMATE, "", ""),
    ("걷", "걸었", "walk", "walked", ANIMATE, "걸을", ""),
    ("쉬", "쉬었", "rest", "rested", ANIMATE, "", ""),
    ("앉", "앉았", "sit", "sat", ANIMATE, "", ""),
    ("서", "섰", "stand", "stood", ANIMATE, "", ""),
    ("기다리", "기다렸", "wait", "waited", ANIMATE, "", ""),
    ("공부하", "공부했", "study", "studied", "person", "", "공부"),
    ("일하", "일했", "work", "worked", "person", "", "일"),
    ("수영하", "수영했", "swim", "swam", ANIMATE, "", "수영"),
    ("운동하", "운동했", "exercise", "exercised", "person", "", "운동"),
    ("노래하", "노래했", "sing", "sang", "person bird", "", "노래"),
    ("요리하", "요리했", "cook", "cooked", "person", "", "요리"),
    ("운전하", "운전했", "drive", "drove", "person", "", "운전"),
]

_MOTION_ROWS = [
    ("가", "갔", "go", "went", ANIMATE),
    ("오", "왔", "come", "came", ANIMATE),
    ("돌아가", "돌아갔", "return", "returned", ANIMATE),
    ("걸어가", "걸어갔", "walk", "walked", ANIMATE),
    ("뛰어가", "뛰어갔", "run", "ran", ANIMATE),
    ("날아가", "날아갔", "fly", "flew", "bird"),
]

TRANSITIVE_VERBS = [
    Verb(stem, past, base, en_past, "transitive", _tags(subjects), _tags(objects), tuple(tools.split()), future, prefix)
    for stem, past, base, en_past, subjects, objects, tools, future, prefix in _VERB_ROWS
]
INTRANSITIVE_VERBS = [
    Verb(stem, past, base, en_past, "intransitive", _tags(subjects), future_stem=future, prefix=prefix)
    for stem, past, base, en_past, subjects, future, prefix in _INTRANSITIVE_ROWS
]
MOTION_VERBS = [Verb(stem, past, base, en_past, "motion", _tags(subjects)) for stem, past, base, en_past, subjects
                in _MOTION_ROWS]
ALL_VERBS: list[Verb] = TRANSITIVE_VERBS + INTRANSITIVE_VERBS + MOTION_VERBS

_ADJECTIVE_ROWS = [
    # stem, attributive, past stem, English, applies to
    ("작", "작은", "작았", "small", "person animal food object clothes vehicle plant place book"),
    ("크", "큰", "컸", "big", "person animal food object clothes vehicle plant place"),
    ("귀엽", "귀여운", "귀여웠", "cute", "person animal toy"),
    ("예쁘", "예쁜", "예뻤", "pretty", "person plant clothes object place"),
    ("빠르", "빠른", "빨랐", "fast", "animal vehicle"),
    ("느리", "느린", "느렸", "slow", "animal vehicle"),
    ("비싸", "비싼", "비쌌", "expensive", "object clothes food drink vehicle book"),
    ("싸", "싼", "쌌", "cheap", "object clothes food drink vehicle book"),
    ("쉽", "쉬운", "쉬웠", "easy", "book subject"),
    ("어렵", "어려운", "어려웠", "difficult", "book subject"),
    ("재미있", "재미있는", "재미있었", "interesting", "book subject person place"),
    ("정직하", "정직한", "정직했", "honest", "person"),
    ("유용하", "유용한", "유용했", "useful", "object book"),
    ("행복하", "행복한", "행복했", "happy", "person animal"),
    ("슬프", "슬픈", "슬펐", "sad", "person animal book"),
    ("배고프", "배고픈", "배고팠", "hungry", "person animal"),
    ("조용하", "조용한", "조용했", "quiet", "person animal place"),
    ("시끄럽", "시끄러운", "시끄러웠", "noisy", "person animal place"),
    ("깨끗하", "깨끗한", "깨끗했", "clean", "object clothes place vehicle"),
    ("더럽", "더러운", "더러웠", "dirty", "object clothes place vehicle animal"),
    ("무겁", "무거운", "무거웠", "heavy", "object book animal"),
    ("가볍", "가벼운", "가벼웠", "light", "object clothes"),
    ("길", "긴", "길었", "long", "book clothes vehicle"),
    ("짧", "짧은", "짧았", "short", "book clothes"),
    ("뜨겁", "뜨거운", "뜨거웠", "hot", "food drink"),
    ("차갑", "차가운", "차가웠", "cold", "food drink"),
    ("달", "단", "달았", "sweet", "food drink"),
    ("맛있", "맛있는", "맛있었", "delicious", "food drink"),
    ("아름답", "아름다운", "아름다웠", "beautiful", "person plant place clothes"),
    ("밝", "밝은", "밝았", "bright", "place"),
    ("어둡", "어두운", "어두웠", "dark", "place"),
    ("높", "높은", "높았", "tall", "plant"),
    ("영리하", "영리한", "영리했", "smart", "person animal"),
    ("용감하", "용감한", "용감했", "brave", "person animal"),
    ("친절하", "친절한", "친절했", "kind", "person"),
    ("노랗", "노란", "노랬", "yellow", "object clothes vehicle plant"),
    ("빨갛", "빨간", "빨갰", "red", "object clothes vehicle plant"),
    ("파랗", "파란", "파랬", "blue", "object clothes vehicle"),
    ("하얗", "하얀", "하얬", "white", "object clothes vehicle animal"),
    ("까맣", "까만", "까맸", "black", "object clothes vehicle animal"),
    ("새롭", "새로운", "새로웠", "new", "object clothes book vehicle"),
]
_ATTRIBUTIVE_ONLY_ROWS = [
    ("늙은", "old", "person animal"),
    ("화난", "angry", "person animal"),
]

ADJECTIVES: list[Adjective] = [
    Adjective(stem, attributive, past, en, _tags(applies)) for stem, attributive, past, en, applies in _ADJECTIVE_ROWS
] + [Adjective("", attributive, "", en, _tags(applies), predicative=False)
     for attributive, en, applies in _ATTRIBUTIVE_ONLY_ROWS]

NUMBERS: list[tuple[str, str]] = [
    ("두", "two"), ("세", "three"), ("네", "four"), ("다섯", "five"), ("여섯", "six"), ("일곱", "seven"),
    ("여덟", "eight"), ("아홉", "nine"),
]

ANY_TENSE = ("past", "present", "future")
TIME_WORDS: list[TimeWord] = [
    TimeWord(("어제",), ("yesterday",), (0,), ("past",)),
    TimeWord(("오늘",), ("today",), (0,), ANY_TENSE),
    TimeWord(("내일",), ("tomorrow",), (0,), ("future",)),
    TimeWord(("지금",), ("now",), (0,), ("present",)),
    TimeWord(("매일",), ("every", "day"), (0, 0), ("present",)),
    TimeWord(("아침에",), ("in", "the", "morning"), (0, -1, 0), ANY_TENSE),
    TimeWord(("오후에",), ("in", "the", "afternoon"), (0, -1, 0), ANY_TENSE),
    TimeWord(("저녁에",), ("in", "the", "evening"), (0, -1, 0), ANY_TENSE),
    TimeWord(("밤에",), ("at", "night"), (0, 0), ANY_TENSE),
    TimeWord(("주말에",), ("on", "the", "weekend"), (0, -1, 0), ANY_TENSE),
    TimeWord(("지난주에",), ("last", "week"), (0, 0), ("past",)),
    TimeWord(("다음", "주에"), ("next", "week"), (0, 1), ("future",)),
]

TOOLS: dict[str, Noun] = {noun.ko: noun for noun in OBJECTS if "tool" in noun.tags or noun.ko == "열쇠"}


# --- the everyday lexicon (the full grammar); the lists above are the core ------------------------

_FRUIT_NAMES = ("apple banana orange peach strawberry lemon watermelon grape mango pear tangerine persimmon kiwi "
                "cherry blueberry pineapple plum melon coconut avocado lime")
FRUIT = frozenset(_FRUIT_NAMES.split())


def _english(text: str) -> str:
    return text.replace("_", " ")


def _everyday_nouns(rows: str, base_tags: str, mass: bool = False) -> list[Noun]:
    """Parse everyday_lexicon noun lines: 'ko en [plural] [+tag ...] [!] [%]'."""
    nouns = []
    for line in rows.strip().splitlines():
        fields = line.split()
        ko, en = fields[0], _english(fields[1])
        extra = {f[1:] for f in fields[2:] if f.startswith("+")}
        irregular = [_english(f) for f in fields[2:] if f[0] not in "+!%"]
        tags = _tags(base_tags) | extra | {en}
        if en in FRUIT:
            tags |= {"fruit"}
        nouns.append(Noun(ko, en, frozenset(tags), irregular[0] if irregular else "", mass or "!" in fields,
                          "%" in fields))
    return nouns


def _options(fields: list[str]) -> tuple[str, bool]:
    irregular = next((f.split("=", 1)[1] for f in fields if f.startswith("irr=")), "")
    if irregular not in hangul.IRREGULAR_CLASSES:
        raise ValueError(f"unknown irregular class {irregular!r}")
    return irregular, "split" in fields


def _everyday_verbs(rows: str, with_objects: bool = True) -> list[Verb]:
    """Parse 'STEM KIND ENGLISH PAST SUBJECTS [OBJECTS] [irr=..] [split]'; Korean forms are computed."""
    verbs = []
    kinds = {"t": "transitive", "i": "intransitive", "m": "motion"}
    for line in rows.strip().splitlines():
        fields = line.split()
        stem, kind, en, en_past, subjects = fields[:5]
        objects = fields[5] if with_objects and len(fields) > 5 and "=" not in fields[5] else "-"
        irregular, split = _options(fields[5:])
        future = hangul.future_form(stem, irregular) if irregular in ("ㅂ", "ㄷ", "ㅎ", "ㅅ") else ""
        verbs.append(Verb(stem, hangul.past_stem(stem, irregular), _english(en), _english(en_past), kinds[kind],
                          frozenset(subjects.split(",")),
                          frozenset() if objects == "-" else frozenset(objects.split(",")),
                          future_stem=future, prefix=stem[:-1] if split else "", irregular=irregular))
    return verbs


def _everyday_adjectives(rows: str) -> list[Adjective]:
    adjectives = []
    for line in rows.strip().splitlines():
        fields = line.split()
        stem, en, applies = fields[:3]
        irregular, _ = _options(fields[3:])
        adjectives.append(Adjective(stem, hangul.attributive_form(stem, irregular),
                                    hangul.past_stem(stem, irregular), _english(en), frozenset(applies.split(",")),
                                    irregular=irregular))
    return adjectives


def _adverbs(rows: str) -> list[tuple[str, str]]:
    return [(line.split()[0], _english(line.split()[1])) for line in rows.strip().splitlines()]


def _unique(items: list, key) -> list:
    seen: set = set()
    kept = []
    for item in items:
        if key(item) not in seen:
            seen.add(key(item))
            kept.append(item)
    return kept


EVERYDAY_NOUNS: list[Noun] = (
    _everyday_nouns(everyday.PEOPLE, "person") + _everyday_nouns(everyday.ANIMALS, "animal")
    + _everyday_nouns(everyday.FOODS, "food") + _everyday_nouns(everyday.DRINKS, "drink", mass=True)
    + _everyday_nouns(everyday.OBJECTS, "object") + _everyday_nouns(everyday.BOOKS, "book")
    + _everyday_nouns(everyday.CLOTHES, "clothes") + _everyday_nouns(everyday.VEHICLES, "vehicle")
    + _everyday_nouns(everyday.PLANTS, "plant") + _everyday_nouns(everyday.SUBJECTS, "subject")
    + _everyday_nouns(everyday.SPORTS, "sport") + _everyday_nouns(everyday.HOBBIES, "sport")
    + _everyday_nouns(everyday.NATURE, "nature") + _everyday_nouns(everyday.WEATHER, "weather")
    + _everyday_nouns(everyday.WEATHER_THINGS, "nature")
    + _everyday_nouns(everyday.BODY, "body") + _everyday_nouns(everyday.EVENTS, "event")
    + _everyday_nouns(everyday.SHOWS, "show") + _everyday_nouns(everyday.IDEAS, "idea")
    + _everyday_nouns(everyday.MORE_PEOPLE, "person") + _everyday_nouns(everyday.MORE_ANIMALS, "animal")
    + _everyday_nouns(everyday.MORE_FOODS, "food") + _everyday_nouns(everyday.MORE_OBJECTS, "object")
    + _everyday_nouns(everyday.MORE_NATURE, "nature") + _everyday_nouns(everyday.MORE_IDEAS, "idea")
    + _everyday_nouns(everyday.THIRD_BATCH_OBJECTS, "object") + _everyday_nouns(everyday.THIRD_BATCH_FOODS, "food")
    + _everyday_nouns(everyday.THIRD_BATCH_ANIMALS, "animal") + _everyday_nouns(everyday.THIRD_BATCH_CLOTHES, "clothes")
    + _everyday_nouns(everyday.THIRD_BATCH_PLANTS, "plant")
)
EVERYDAY_PLACES: list[Noun] = (_everyday_nouns(everyday.PLACES, "place")
                               + _everyday_nouns(everyday.MORE_PLACES, "place")
                               + _everyday_nouns(everyday.THIRD_BATCH_PLACES, "place"))

# Core verbs take more kinds of objects in the everyday grammar (you like soccer, see a movie).
_MORE_OBJECTS = {
    "좋아하": "sport show event weather nature",
    "싫어하": "sport show event weather",
    "보": "show event nature",
    "배우": "sport",
    "가르치": "sport",
    "듣": "show",
    "씻": "body",
    "그리": "nature",
    "찾": "toy vehicle",
    "사": "toy fruit",
    "만들": "event",
    "잊": "idea event",
}


def _extend_objects(verb: Verb) -> Verb:
    from dataclasses import replace

    extra = _MORE_OBJECTS.get(verb.stem, "")
    if verb.kind != "transitive" or not extra:
        return verb
    return replace(verb, objects=verb.objects | _tags(extra))


def _full_time_words() -> list[TimeWord]:
    one = ("past", "present", "future")
    words = [
        TimeWord(("요즘",), ("these", "days"), (0, 0), ("present",)),
        TimeWord(("작년에",), ("last", "year"), (0, 0), ("past",)),
        TimeWord(("내년에",), ("next", "year"), (0, 0), ("future",)),
        TimeWord(("어젯밤에",), ("last", "night"), (0, 0), ("past",)),
        TimeWord(("방금",), ("just", "now"), (0, 0), ("past",)),
        TimeWord(("나중에",), ("later",), (0,), ("future",)),
        TimeWord(("곧",), ("soon",), (0,), ("future",)),
        TimeWord(("매주",), ("every", "week"), (0, 0), ("present",)),
        TimeWord(("점심에",), ("at", "lunch"), (0, 0), one),
        TimeWord(("지난달에",), ("last", "month"), (0, 0), ("past",)),
        TimeWord(("다음", "달에"), ("next", "month"), (0, 1), ("future",)),
        TimeWord(("이번", "주에"), ("this", "week"), (0, 1), one),
    ]
    for ko, en in (("봄에", "spring"), ("여름에", "summer"), ("가을에", "fall"), ("겨울에", "winter")):
        words.append(TimeWord((ko,), ("in", "the", en), (0, -1, 0), one))
    for ko, en in (("월요일에", "Monday"), ("화요일에", "Tuesday"), ("수요일에", "Wednesday"), ("목요일에", "Thursday"),
                   ("금요일에", "Friday"), ("토요일에", "Saturday"), ("일요일에", "Sunday")):
        words.append(TimeWord((ko,), ("on", en), (0, 0), one))
    return words


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

    @property
    def verbs(self) -> list[Verb]:
        return self.transitive + self.intransitive + self.motion

    @property
    def entries(self) -> int:
        """Korean lexical entries: nouns, names, pronouns, verbs, adjectives, time words, numbers, adverbs."""
        verb_stems = {(v.stem, v.en_base) for v in self.verbs}
        return (len(self.common_nouns) + len(self.places) + len(self.names) + len(self.pronouns) + len(verb_stems)
                + len(self.adjectives) + len(self.time_words) + len(self.numbers) + len(self.degree_adverbs)
                + len(self.manner_adverbs))


CORE = Lexicon(COMMON_NOUNS, PLACES, NAMES, PRONOUNS, TRANSITIVE_VERBS, INTRANSITIVE_VERBS, MOTION_VERBS, ADJECTIVES,
               TIME_WORDS, NUMBERS, TOOLS, [], [])

_everyday_transitive = _everyday_verbs(everyday.VERBS)
_everyday_intransitive = _everyday_verbs(everyday.INTRANSITIVE_VERBS, with_objects=False)
_everyday_motion = _everyday_verbs(everyday.MOTION_VERBS, with_objects=False)

FULL = Lexicon(
    common_nouns=_unique(COMMON_NOUNS + EVERYDAY_NOUNS, lambda n: n.ko),
    places=_unique(PLACES + EVERYDAY_PLACES, lambda n: n.ko),
    names=_unique(NAMES + _everyday_nouns(everyday.EXTRA_NAMES, "person name"), lambda n: n.ko),
    pronouns=[*PRONOUNS, Pronoun("저는", "제가", "저를", "I", "me", 1, False),
              Pronoun("저희는", "저희가", "저희를", "we", "us", 1, True)],
    transitive=_unique([_extend_objects(v) for v in TRANSITIVE_VERBS] + _everyday_transitive,
                       lambda v: (v.stem, v.kind, v.en_base)),
    intransitive=_unique(INTRANSITIVE_VERBS + _everyday_intransitive, lambda v: (v.stem, v.kind)),
    motion=_unique(MOTION_VERBS + _everyday_motion, lambda v: (v.stem, v.kind)),
    adjectives=_unique(ADJECTIVES + _everyday_adjectives(everyday.ADJECTIVES), lambda a: a.attributive),
    time_words=TIME_WORDS + _full_time_words(),
    numbers=[*NUMBERS, ("열", "ten")],
    tools=TOOLS,
    degree_adverbs=_adverbs(everyday.DEGREE_ADVERBS),
    manner_adverbs=_adverbs(everyday.MANNER_ADVERBS),
)
