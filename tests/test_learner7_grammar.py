"""Grammar "learner7": the learner6 grammar plus what a first-level learner's core word list (level1_words.json) had
that it lacked, and two patterns (N살 많다 / 어리다: three years older than; vocatives: 선생님, ... -> Teacher, ...):
native numerals standing alone (아이가 둘 있어요 -> I have two children), basic nouns with two
meanings told apart by the verb they go with (차를 운전하다 a car / 차를 마시다 tea; 배를 타다 a boat / 배를 먹다 a
pear / 배가 고프다 the belly; 눈이 아프다 eyes / 눈이 오다 snow; 다리가 아프다 legs / 다리를 건너다 a bridge; 이를
닦다, 이가 아프다 teeth; 키가 크다 tall), 듣다 as listen to (music) or hear (a sound), 많다 / 적다, 모르다 and
-(으)ㄹ 줄 알다 / 모르다. Grammars learner3 to learner6 are exactly as they were on main. The Korean and English each
construction writes are written out here by hand."""

from __future__ import annotations

import json
from functools import cache

import pytest

from tests.grammar_checks import ChosenWords as ChosenWordsMixin
from tests.grammar_checks import (
    aligned_words,
    assert_conjugated_by_rule,
    assert_pair_reads_back,
    stream_sha256,
    unread_sentences,
    vocabulary_sha256,
    written,
)
from transformer_core.data import hangul
from transformer_core.data.ko_en import EXTENDED_GRAMMARS, adjective_pieces, common_phrase, pronoun_phrase, verb_pieces
from transformer_core.data.ko_en_everyday import Learner6Grammar, Learner7Grammar, ko_en_grammar
from transformer_core.data.ko_en_forms import FEW, MANY, fixed_subject_words, grammar_lexicon, not_know_verb
from transformer_core.data.level1_audit import LIST_PATH, level1_words, missing_words
from transformer_core.data.tokenization import build_ko_en_tokenizer
from transformer_core.data.vocabulary import ko_en_vocabulary

NEW_KINDS = [kind for kind in Learner7Grammar.KINDS if kind not in Learner6Grammar.KINDS]

# Measured on this branch's base (84ab2a4, before grammar learner7): sha256 of json.dumps([[source, target,
# alignment] ...], ensure_ascii=False) of generate_pairs(3000, seed=4, grammar=...), and of the learner6 vocabulary
# joined by newlines (the 16,786 tokens a learner6 model has, special tokens not counted).
STREAM_SHA256 = {"learner3": "23e1056255874a1c70bec28c5641a310e588863e884d3739e6a80d60b309af86",
                 "learner4": "ec6117de5874bc050cb2bde8e24e022ff972b195b7280b92034a2ac156b91f2c",
                 "learner5": "ad1d028de978ee6e1c09ab66e811e55b9d42dcd5f322e0d60f93112d557b636c",
                 "learner6": "91d6299706322b7fca1091eb1ab29f15f64d2908dc57f47950e1914e10b4dbbd"}
LEARNER6_VOCABULARY_SHA256 = "2c845f39231b6d67455a13f596eae4e7afb2f90254c9f816388732cd3c1a7f40"
LEARNER6_VOCABULARY_SIZE = 16786


@cache
def _tokenizer():
    return build_ko_en_tokenizer(grammar="learner7")


# --- grammars learner3 to learner6 are untouched --------------------------------------------------------------------

@pytest.mark.parametrize("grammar", ["learner3", "learner4", "learner5", "learner6"])
def test_the_earlier_streams_are_those_of_main(grammar):
    assert stream_sha256(grammar) == STREAM_SHA256[grammar]


def test_the_learner6_vocabulary_is_that_of_main():
    vocabulary = ko_en_vocabulary(grammar="learner6")
    assert len(vocabulary) == LEARNER6_VOCABULARY_SIZE
    assert vocabulary_sha256(vocabulary) == LEARNER6_VOCABULARY_SHA256


# --- the audit of the level-1 word list ----------------------------------------------------------------------------

def test_the_level1_list_names_its_source_and_holds_about_three_hundred_words_by_part_of_speech():
    raw = json.loads(LIST_PATH.read_text(encoding="utf-8"))
    assert "국립국어원" in raw["_source"] and "never from any benchmark" in raw["_source"]
    words = level1_words()
    assert sum(map(len, words.values())) >= 300
    for part in ("verbs", "adjectives"):
        assert all(word.endswith("다") for word in words[part]), part
    for part, listed in words.items():
        assert len(listed) == len(set(listed)), part


def test_learner7_knows_the_level1_words_learner6_lacked_that_it_adds():
    """Written out here: the words of the list learner6 lacks and learner7 knows (entries or constructions)."""
    before, after = missing_words("learner6"), missing_words("learner7")
    added = {"nouns": {"아주머니", "입", "차표", "이"}, "verbs": {"모르다"}, "adjectives": {"많다", "적다", "쓰다"},
             "adverbs": {"항상"},
             "numerals": {"하나", "둘", "셋", "넷", "다섯", "여섯", "일곱", "여덟", "아홉", "열"}}
    for part, words in added.items():
        assert words <= set(before[part]), part
        assert not words & set(after[part]), part
    assert sum(map(len, after.values())) < sum(map(len, before.values()))


# --- each construction's sentences written out by hand -------------------------------------------------------------

class ChosenWords(ChosenWordsMixin, Learner7Grammar):
    """Learner7Grammar with its words chosen (grammar_checks.ChosenWords); `collocations`: the (noun, stem) pairs of
    the lexicon's fixed_subject and fixed_object entries it keeps; `pronoun`: the subject is this pronoun (저는)."""

    def __init__(self, seed: int, first: str = "", collocations=(), pronoun: str = "", **fields) -> None:
        super().__init__(seed, first, **fields)
        self._pronoun = pronoun
        if collocations:
            kept = {name: [e for e in getattr(self.lexicon, name) if (e.noun, e.stem) in collocations]
                    for name in ("fixed_subject", "fixed_object")}
            self.lexicon = type(self.lexicon)(**{**self.lexicon.__dict__, **kept})

    def _subject(self, role=None, person_only=True, drop=0.15, question=False):
        if not self._pronoun:
            return super()._subject(role, person_only, drop, question)
        self._question = question
        return pronoun_phrase(next(p for p in self.lexicon.pronouns if p.topic == self._pronoun), "topic")

    def _noun_phrase(self, tags, role, allow_pronoun=True, allow_number=True, allow_conjunction=False,
                     exclude_adjective=None):
        noun = next(n for n in self.lexicon.common_nouns if n.tags & tags)
        return common_phrase(noun, role, None, False, None)


CAR_DRIVE, CAR_RIDE, CAR_STOP = [("차", "운전하")], [("차", "타")], [("차", "세우")]
BOAT, BRIDGE, TEETH = [("배", "타")], [("다리", "건너")], [("이", "닦")]
SORE_EYES, BAD_EYES, SORE_LEGS, TOOTHACHE = [("눈", "아프")], [("눈", "나쁘")], [("다리", "아프")], [("이", "아프")]
TALL, SHORT = [("키", "크")], [("키", "작")]
CHILD = dict(nouns=["아이"])
PEOPLE = dict(nouns=["사람"], places=["공원"])
ANSWER = dict(nouns=["답"])
SWIM = dict(intransitive=[("수영하", "swim")])
OLDER = dict(names=["민수", "지수"])
EAT = dict(transitive=[("먹", "eat")], nouns=["사과"], motion=["가"], places=["학교"])
CALLED = dict(nouns=["사과"], transitive=[("먹", "eat")], names=["민수"])
CALLED_JIEUN = dict(nouns=["사과"], transitive=[("먹", "eat")], names=["지은"])
CAKE = dict(transitive=[("만들", "make")], nouns=["케이크"])


@pytest.mark.parametrize(("kind", "fields", "register", "korean", "english"), [
    ("count_alone", CHILD, "polite", "민수는 아이가 둘 있어요.", "Minsu has two children."),
    ("count_alone", CHILD, "polite", "민수는 아이가 하나 있어요.", "Minsu has one child."),
    ("count_alone", CHILD, "polite", "민수는 아이가 셋 있었어요.", "Minsu had three children."),
    ("count_alone", CHILD, "polite", "민수는 아이가 넷 있어요?", "Does Minsu have four children?"),
    ("count_alone", CHILD, "plain", "민수는 아이가 다섯 있다.", "Minsu has five children."),
    ("count_alone", dict(CHILD, pronoun="저는"), "formal", "저는 아이가 둘 있습니다.", "I have two children."),
    ("sense", dict(collocations=CAR_DRIVE), "polite", "민수는 차를 운전해요.", "Minsu drives a car."),
    ("sense", dict(collocations=CAR_DRIVE), "polite", "민수는 차를 운전했어요.", "Minsu drove a car."),
    ("sense", dict(collocations=CAR_DRIVE), "polite", "민수는 차를 운전했어요?", "Did Minsu drive a car?"),
    ("sense", dict(collocations=CAR_RIDE), "polite", "민수는 차를 탈 거예요.", "Minsu will ride in a car."),
    ("sense", dict(collocations=CAR_STOP), "polite", "민수는 차를 세웠어요.", "Minsu stopped the car."),
    ("sense", dict(collocations=BOAT), "polite", "민수는 배를 탔어요.", "Minsu took a boat."),
    ("sense", dict(collocations=BOAT), "plain", "민수는 배를 탄다.", "Minsu takes a boat."),
    ("sense", dict(collocations=BRIDGE), "polite", "민수는 다리를 건넜어요.", "Minsu crossed a bridge."),
    ("sense", dict(collocations=TEETH, pronoun="저는"), "polite", "저는 이를 닦아요.", "I brush my teeth."),
    ("sense", dict(collocations=TEETH, pronoun="그는"), "polite", "그는 이를 닦았어요.", "He brushed his teeth."),
    ("sense", dict(collocations=TEETH, pronoun="그녀는"), "formal", "그녀는 이를 닦습니다.",
     "She brushes her teeth."),
    ("body", dict(collocations=SORE_EYES), "polite", "민수는 눈이 아파요.", "Minsu has sore eyes."),
    ("body", dict(collocations=BAD_EYES), "polite", "민수는 눈이 나빠요.", "Minsu has bad eyes."),
    ("body", dict(collocations=SORE_LEGS), "polite", "민수는 다리가 아팠어요.", "Minsu had sore legs."),
    ("body", dict(collocations=TOOTHACHE), "polite", "민수는 이가 아파요.", "Minsu has a toothache."),
    ("body", dict(collocations=TALL), "polite", "민수는 키가 커요.", "Minsu is tall."),
    ("body", dict(collocations=TALL), "polite", "민수는 키가 안 커요.", "Minsu is not tall."),
    ("body", dict(collocations=SHORT), "banmal", "민수는 키가 작아.", "Minsu is short."),
    ("many_few", PEOPLE, "polite", "공원에 사람이 많아요.", "There are many people at the park."),
    ("many_few", PEOPLE, "polite", "사람이 적어요.", "There are few people."),
    ("many_few", PEOPLE, "polite", "공원에 사람이 많았어요.", "There were many people at the park."),
    ("many_few", PEOPLE, "formal", "사람이 많습니다.", "There are many people."),
    ("many_few", PEOPLE, "plain", "공원에 사람이 적다.", "There are few people at the park."),
    ("not_know", ANSWER, "polite", "민수는 답을 몰라요.", "Minsu does not know the answer."),
    ("not_know", ANSWER, "polite", "민수는 답을 몰랐어요.", "Minsu did not know the answer."),
    ("not_know", ANSWER, "formal", "민수는 답을 모릅니다.", "Minsu does not know the answer."),
    ("not_know", ANSWER, "plain", "민수는 답을 모른다.", "Minsu does not know the answer."),
    ("not_know", ANSWER, "polite", "민수는 답을 모를 거예요.", "Minsu will not know the answer."),
    ("know_how", SWIM, "polite", "민수는 수영할 줄 알아요.", "Minsu knows how to swim."),
    ("know_how", SWIM, "polite", "민수는 수영할 줄 몰라요.", "Minsu does not know how to swim."),
    ("know_how", SWIM, "polite", "민수는 수영할 줄 알아요?", "Does Minsu know how to swim?"),
    ("know_how", SWIM, "polite", "민수는 수영할 줄 알았어요.", "Minsu knew how to swim."),
    ("know_how", CAKE, "polite", "민수는 케이크를 만들 줄 알아요.", "Minsu knows how to make a cake."),
    ("know_how", CAKE, "formal", "민수는 케이크를 만들 줄 모릅니다.", "Minsu does not know how to make a cake."),
    ("adverb_aspect", EAT, "polite", "민수는 항상 사과를 먹어요.", "Minsu always eats an apple."),
    ("adverb_aspect", EAT, "polite", "민수는 항상 사과를 먹어요?", "Does Minsu always eat an apple?"),
    ("adverb_aspect", EAT, "formal", "민수는 항상 학교에 갑니다.", "Minsu always goes to the school."),
    ("older_by", OLDER, "polite", "민수는 지수보다 세 살 많아요.", "Minsu is three years older than Jisu."),
    ("older_by", OLDER, "polite", "민수는 지수보다 한 살 어려요.", "Minsu is one year younger than Jisu."),
    ("older_by", OLDER, "polite", "민수는 지수보다 두 살 많았어요.", "Minsu was two years older than Jisu."),
    ("older_by", OLDER, "polite", "민수는 지수보다 세 살 많아요?", "Is Minsu three years older than Jisu?"),
    ("older_by", OLDER, "plain", "민수는 지수보다 열 살 어리다.", "Minsu is ten years younger than Jisu."),
    ("older_by", OLDER, "formal", "민수는 지수보다 다섯 살 많습니다.", "Minsu is five years older than Jisu."),
    ("vocative", CALLED, "polite", "선생님 , 사과를 주세요.", "Teacher , please give me an apple."),
    ("vocative", CALLED, "polite", "민수 씨 , 사과를 주세요.", "Minsu , please give me an apple."),
    ("vocative", CALLED, "banmal", "민수야 , 사과를 줘.", "Minsu , please give me an apple."),
    ("vocative", CALLED, "banmal", "엄마 , 사과를 먹지 마.", "Mom , do not eat an apple."),
    ("vocative", CALLED, "formal", "민수 씨 , 사과를 드십시오.", "Minsu , please eat an apple."),
    ("vocative", CALLED_JIEUN, "banmal", "지은아 , 사과를 먹지 마.", "Jieun , do not eat an apple."),
])
def test_each_new_construction_writes_the_korean_and_english_a_teacher_writes(kind, fields, register, korean,
                                                                             english):
    pairs = written(ChosenWords(1, **fields), kind, (register,), n=3000)
    assert (korean, english) in pairs


@pytest.mark.parametrize(("kind", "fields", "korean", "expected"), [
    ("count_alone", CHILD, "민수는 아이가 둘 있어요.",
     {"Minsu": {"민수는"}, "has": {"있어요"}, "two": {"둘"}, "children": {"아이가"}}),
    ("sense", dict(collocations=CAR_DRIVE), "민수는 차를 운전했어요.",
     {"drove": {"운전했어요"}, "a": set(), "car": {"차를"}}),
    ("sense", dict(collocations=CAR_RIDE), "민수는 차를 탔어요.",
     {"rode": {"탔어요"}, "in": {"차를"}, "car": {"차를"}}),
    ("sense", dict(collocations=TEETH, pronoun="저는"), "저는 이를 닦아요.",
     {"I": {"저는"}, "brush": {"닦아요"}, "my": set(), "teeth": {"이를"}}),
    ("body", dict(collocations=SORE_EYES), "민수는 눈이 아파요.",
     {"has": {"아파요"}, "sore": {"눈이", "아파요"}, "eyes": {"눈이", "아파요"}}),
    ("body", dict(collocations=TALL), "민수는 키가 커요.", {"is": {"커요"}, "tall": {"키가", "커요"}}),
    ("many_few", PEOPLE, "공원에 사람이 많아요.",
     {"There": set(), "are": {"많아요"}, "many": {"많아요"}, "people": {"사람이"}, "park": {"공원에"}}),
    ("not_know", ANSWER, "민수는 답을 몰라요.",
     {"does": {"몰라요"}, "not": {"몰라요"}, "know": {"몰라요"}, "answer": {"답을"}}),
    ("know_how", SWIM, "민수는 수영할 줄 알아요.",
     {"knows": {"알아요"}, "how": {"줄"}, "to": {"수영할"}, "swim": {"수영할"}}),
    ("know_how", SWIM, "민수는 수영할 줄 몰라요.", {"does": {"몰라요"}, "not": {"몰라요"}, "know": {"몰라요"}}),
    ("older_by", OLDER, "민수는 지수보다 세 살 많아요.",
     {"is": {"많아요"}, "three": {"세"}, "years": {"살"}, "older": {"많아요"}, "than": {"지수보다"},
      "Jisu": {"지수보다"}}),
    ("adverb_aspect", EAT, "민수는 항상 사과를 먹어요.",
     {"always": {"항상"}, "eats": {"먹어요"}, "apple": {"사과를"}}),
    ("vocative", CALLED, "선생님 , 사과를 주세요.", {"Teacher": {"선생님"}, ",": {","}, "apple": {"사과를"}}),
    ("vocative", CALLED, "민수 씨 , 사과를 주세요.",
     {"Minsu": {"민수", "씨"}, ",": {","}, "please": {"주세요"}}),
])
def test_the_gold_alignment_points_each_english_word_at_its_korean_word(kind, fields, korean, expected):
    grammar = ChosenWords(4, **fields)
    pair = next(p for p in (grammar.sample("polite", kind=kind) for _ in range(4000)) if p.source_text == korean)
    links = aligned_words(pair)
    assert {word: links[word] for word in expected} == expected


# --- one English sense for one collocation, never a coin toss --------------------------------------------------------

# (the noun with its particle, the stem that picks the sense) -> the English words of that sense; written here from a
# dictionary.
CAR, TEA, BOAT_, PEAR, BRIDGE_, TEETH_, EYES = {"car"}, {"tea"}, {"boat"}, {"pear"}, {"bridge"}, {"teeth"}, {"eyes"}
SENSES = {("차를", "운전"): CAR, ("차를", "세우"): CAR, ("차를", "타"): CAR, ("차를", "마시"): TEA,
          ("배를", "타"): BOAT_, ("배를", "먹"): PEAR, ("다리를", "건너"): BRIDGE_, ("이를", "닦"): TEETH_,
          ("눈이", "아프"): EYES, ("눈이", "나쁘"): EYES, ("눈이", "오"): {"snow", "snowing", "snowed", "snows"},
          ("다리가", "아프"): {"legs"}, ("이가", "아프"): {"toothache"}, ("키가", "크"): {"tall"},
          ("키가", "작"): {"short"}, ("배가", "고프"): {"hungry"}, ("배가", "아프"): {"stomachache"}}
# The stems' Korean forms the stream writes (the predicate word starts so): 운전했어요, 탔어요, 닦아요, 아팠어요 ...
STEM_STARTS = {
    "운전": ("운전",), "세우": ("세우", "세웠", "세웁", "세운", "세울"), "타": ("타", "탔", "탑", "탄", "탈"),
    "마시": ("마시", "마셔", "마셨", "마십", "마신", "마실"), "먹": ("먹",),
    "건너": ("건너", "건넜", "건넙", "건넌", "건널"), "닦": ("닦",), "아프": ("아파", "아팠", "아픕", "아프", "아플"),
    "나쁘": ("나빠", "나빴", "나쁩", "나쁘", "나쁠"), "오": ("와", "왔", "옵", "온", "올", "오"),
    "크": ("커", "컸", "큽", "크", "클"), "작": ("작",), "고프": ("고파", "고팠", "고픕", "고프", "고플")}


def test_each_sense_of_a_noun_with_two_meanings_is_written_only_with_the_verb_that_picks_it():
    """In 6,000 pairs of the learner7 stream and of its sense and body kinds: wherever a homonym's word stands right
    before a predicate that picks a sense (SENSES), the English says that sense and no other sense of the noun."""
    grammar = Learner7Grammar(21)
    pairs = [grammar.sample() for _ in range(3000)]
    pairs += [grammar.sample(kind=kind) for kind in ("sense", "body") for _ in range(1500)]
    others = {noun: set().union(*(sense for (n, _), sense in SENSES.items() if n == noun)) for noun, _ in SENSES}
    seen = set()
    for pair in pairs:
        words = list(pair.source_words)
        for i, word in enumerate(words[:-1]):
            following = words[i + 1] if words[i + 1] != "안" or i + 2 >= len(words) else words[i + 2]
            for (noun, stem), sense in SENSES.items():
                if word == noun and following.startswith(STEM_STARTS[stem]):
                    seen.add((noun, stem))
                    assert sense & set(pair.target), (pair.source_text, pair.target_text)
                    assert not (others[noun] - sense) & set(pair.target), pair.target_text
    assert seen >= {("차를", "운전"), ("배를", "타"), ("다리를", "건너"), ("이를", "닦"),
                    ("눈이", "아프"), ("키가", "크"), ("이가", "아프")}


def test_listen_to_takes_music_a_song_or_the_radio_and_hear_every_other_sound():
    """듣다's objects: 음악, 노래, 라디오 -> listen to; 소리, 이야기, 뉴스 -> hear (one English verb an object)."""
    grammar = Learner7Grammar(5)
    hear, listen = (next(v for v in grammar.lexicon.transitive if (v.stem, v.en_base) == ("듣", en))
                    for en in ("hear", "listen to"))
    heard = {grammar._object(hear).phrase.en[-1] for _ in range(600)}
    listened = {grammar._object(listen).phrase.en[-1] for _ in range(600)}
    tagged = {en.split()[-1]: n.tags for n in grammar.lexicon.common_nouns for en in (n.en, n.plural)}
    assert {"music", "song", "radio", "jazz"} <= listened and not heard & listened
    assert all(tagged[word] & {"music", "song", "radio"} for word in listened)
    assert {"sound", "story", "news"} <= heard


# --- forms by rule, against forms written out here ---------------------------------------------------------------

def _said(words) -> str:
    return " ".join("".join(word) for word in words)


@pytest.mark.parametrize(("noun", "stem", "polite", "past", "formal", "plain"), [
    ("차", "운전하", "차를 운전해요", "차를 운전했어요", "차를 운전합니다", "차를 운전한다"),
    ("차", "타", "차를 타요", "차를 탔어요", "차를 탑니다", "차를 탄다"),
    ("차", "세우", "차를 세워요", "차를 세웠어요", "차를 세웁니다", "차를 세운다"),
    ("배", "타", "배를 타요", "배를 탔어요", "배를 탑니다", "배를 탄다"),
    ("다리", "건너", "다리를 건너요", "다리를 건넜어요", "다리를 건넙니다", "다리를 건넌다"),
    ("이", "닦", "이를 닦아요", "이를 닦았어요", "이를 닦습니다", "이를 닦는다"),
    ("눈", "아프", "눈이 아파요", "눈이 아팠어요", "눈이 아픕니다", "눈이 아프다"),
    ("눈", "나쁘", "눈이 나빠요", "눈이 나빴어요", "눈이 나쁩니다", "눈이 나쁘다"),
    ("키", "크", "키가 커요", "키가 컸어요", "키가 큽니다", "키가 크다"),
    ("키", "작", "키가 작아요", "키가 작았어요", "키가 작습니다", "키가 작다"),
])
def test_the_collocations_conjugate_as_a_textbook_writes_them(noun, stem, polite, past, formal, plain):
    lexicon = grammar_lexicon("learner7")
    entry = next(e for e in lexicon.fixed_subject + lexicon.fixed_object if (e.noun, e.stem) == (noun, stem))
    assert hangul.past_stem(entry.stem, entry.irregular) == entry.past_stem

    def said(tense, register):
        return _said(fixed_subject_words(entry, tense, False, False, register)[0])

    assert [said("present", "polite"), said("past", "polite"), said("present", "formal"),
            said("present", "plain")] == [polite, past, formal, plain]


def test_moreuda_manta_and_jeokda_conjugate_as_a_textbook_writes_them():
    """모르다 is 르-irregular (몰라요, 몰랐어요), 많다 and 적다 regular adjectives (많아요, 적었어요)."""
    know = next(v for v in grammar_lexicon("learner7").transitive if v.stem == "알")
    moreuda = not_know_verb(know)
    assert [_said(verb_pieces(moreuda, tense, False, False, register)[0]) for tense, register in
            (("present", "polite"), ("past", "polite"), ("present", "formal"), ("present", "plain"),
             ("future", "polite"), ("present", "banmal"))] == [
        "몰라요", "몰랐어요", "모릅니다", "모른다", "모를 거예요", "몰라"]
    assert [_said(adjective_pieces(MANY, tense, False, False, register)[0]) for tense, register in
            (("present", "polite"), ("past", "polite"), ("present", "formal"), ("present", "plain"))] == [
        "많아요", "많았어요", "많습니다", "많다"]
    assert [_said(adjective_pieces(FEW, tense, False, False, register)[0]) for tense, register in
            (("present", "polite"), ("past", "polite"), ("present", "formal"))] == ["적어요", "적었어요", "적습니다"]


def test_the_new_lexicon_entries_conjugate_by_the_rules_of_their_class():
    """듣다 'listen to' is ㄷ-irregular (들었, 들을), 쓰다 'bitter' drops its ㅡ (썼, 쓴)."""
    lexicon = grammar_lexicon("learner7")
    listen = next(v for v in lexicon.transitive if v.en_base == "listen to")
    bitter = next(a for a in lexicon.adjectives if (a.stem, a.en) == ("쓰", "bitter"))
    assert (listen.stem, listen.past_stem, listen.future_stem, listen.irregular) == ("듣", "들었", "들을", "ㄷ")
    assert (bitter.stem, bitter.past_stem, bitter.attributive) == ("쓰", "썼", "쓴")
    assert_conjugated_by_rule([listen], [bitter])


# --- the vocabulary, the tokenizer, the grammar's invariants ---------------------------------------------------------

def test_the_learner7_vocabulary_holds_its_constructions_new_pieces():
    """(ids kept, new tokens sorted, pairs typed back: tests/test_grammar_rounds.py)"""
    learner6, learner7 = ko_en_vocabulary(grammar="learner6"), ko_en_vocabulary(grammar="learner7")
    assert learner7[:LEARNER6_VOCABULARY_SIZE] == learner6
    new = {"하나", "둘", "셋", "넷", "몰라", "몰랐", "모를", "많", "많아", "많았", "아주머니", "차표", "eyes", "legs",
           "listen", "listened", "brushed", "mouth", "their"}
    assert new <= set(learner7[len(learner6):])


@pytest.mark.parametrize("kind", [*NEW_KINDS, "body"])
def test_every_new_construction_reads_back_in_every_register(kind):
    grammar, tokenizer = Learner7Grammar(3), _tokenizer()
    vocab = tokenizer.get_vocab()
    for register in ("plain", "polite", "formal", "banmal") * 10:
        assert_pair_reads_back(grammar.sample(register, kind=kind), tokenizer, vocab)


def test_learner7_is_a_grammar_of_its_own():
    assert type(ko_en_grammar(0, "learner7")) is Learner7Grammar and "learner7" in EXTENDED_GRAMMARS
    assert list(Learner7Grammar.KINDS)[:len(Learner6Grammar.KINDS)] == list(Learner6Grammar.KINDS)
    assert NEW_KINDS == ["count_alone", "sense", "many_few", "not_know", "know_how", "older_by", "vocative"]
    assert Learner7Grammar.TYPED_CUT


def test_the_new_constructions_are_a_modest_share_of_the_stream():
    """About a fifteenth of the sentences (learner6's fourteen kinds were 14.5 %)."""
    new = sum(Learner7Grammar.KINDS[kind] for kind in NEW_KINDS)
    assert (new, sum(Learner7Grammar.KINDS.values())) == (19, 275)  # 6.9 %


NEW_SENTENCES = (
    "저는 아이가 둘 있어요.", "저는 동생이 하나 있어요.", "저는 차를 운전해요.", "저는 배를 탔어요.",
    "저는 이를 닦았어요.", "저는 다리를 건넜어요.", "저는 눈이 아파요.", "저는 이가 아파요.", "민수는 키가 커요.",
    "공원에 사람이 많아요.", "사람이 적어요.", "저는 답을 몰라요.", "저는 수영할 줄 알아요.",
    "저는 수영할 줄 몰라요.", "저는 음악을 들어요.", "저는 차를 마셔요.", "저는 민수보다 세 살 많아요.",
    "지수는 민수보다 두 살 어려요.", "저는 항상 커피를 마셔요.",
    "선생님, 사과를 주세요.", "민수야, 같이 가자.", "민수 씨, 사과를 주세요.")


def test_the_learner7_recogniser_reads_the_new_constructions():
    """Typed sentences of the new constructions (written here): learner7's tokenizer and recogniser know each."""
    assert unread_sentences(NEW_SENTENCES, "learner7") == []


def test_learner6_names_the_new_words_unknown():
    tokenizer = build_ko_en_tokenizer(grammar="learner6")
    for sentence in ("저는 아이가 둘 있어요.", "저는 답을 몰라요.", "공원에 사람이 많아요.", "사과가 하나 있어요."):
        assert tokenizer.unk_token in tokenizer.tokenize(sentence), sentence


def test_the_audit_command_prints_each_part_of_speech_and_refuses_an_unknown_grammar(capsys):
    from transformer_core.data.level1_audit import main

    assert main(["learner6"]) == 0
    out = capsys.readouterr().out
    lacking = missing_words("learner6")
    total = sum(map(len, level1_words().values()))
    assert out.splitlines()[0] == (f"learner6: {total - sum(map(len, lacking.values()))} of {total} first-level "
                                   f"words known, {sum(map(len, lacking.values()))} lacking")
    assert f"numerals ({len(lacking['numerals'])} of 10 lacking): 하나 둘 셋 넷" in out
    assert main(["learner99"]) == 2 and "unknown grammar 'learner99'" in capsys.readouterr().err
