"""The fifth round of the learner lexicon (data/lexicon_learner5.json): it loads on top of the earlier rounds
without repeating a lemma, its irregular stems conjugate as hangul.py's rules say (checked against forms written
out by hand here), its tags are tags other entries use, and no new Korean string already means something else."""

from __future__ import annotations

import json

import pytest

from transformer_core.data import hangul, lexicon
from transformer_core.data.lexicon import Adjective, Noun, TimeWord, Verb

EARLIER = ("full", "everyday", "learner", "learner2", "learner3", "learner4")
VERB_FIELDS = ("transitive", "intransitive", "motion")
PAIR_FIELDS = ("degree_adverbs", "manner_adverbs")


def _raw_round() -> dict:
    return json.loads((lexicon.DATA_DIR / "lexicon_learner5.json").read_text(encoding="utf-8"))


def _new_entries() -> dict[str, list]:
    """The fifth round's entries by field, as the loader builds them."""
    types = {"common_nouns": Noun, "places": Noun, "adjectives": Adjective, "time_words": TimeWord,
             **{field: Verb for field in VERB_FIELDS}}
    entries = {}
    for field, rows in _raw_round().items():
        if field.startswith("_"):
            continue
        entries[field] = ([tuple(row) for row in rows] if field in PAIR_FIELDS
                          else [lexicon._entry(types[field], row) for row in rows])
    return entries


NEW = _new_entries()
BEFORE = lexicon.load_additions(*EARLIER)
AFTER = lexicon.load_additions(*EARLIER, "learner5")


def test_the_round_loads_on_the_earlier_ones_and_adds_every_entry_once():
    """load_additions raises on a repeated lemma; every entry of the file is added (none swallowed)."""
    assert set(NEW) <= {"common_nouns", "places", "adjectives", "time_words", *VERB_FIELDS, *PAIR_FIELDS}
    for field, entries in NEW.items():
        assert len(getattr(AFTER, field)) == len(getattr(BEFORE, field)) + len(entries), field
    keys = [lexicon._keys(field, entry) for field, entries in NEW.items() for entry in entries]
    assert len(keys) == len(set(keys))
    assert sum(len(entries) for entries in NEW.values()) >= 400


def test_the_loader_rejects_the_round_when_an_entry_repeats_an_earlier_lemma(tmp_path, monkeypatch):
    raw = _raw_round()
    earlier_verb = next(v for v in BEFORE.transitive if v.stem == "먹")
    raw["transitive"] = raw["transitive"] + [{"stem": "먹", "past_stem": "먹었", "en_base": earlier_verb.en_base,
                                              "en_past": earlier_verb.en_past, "kind": "transitive",
                                              "subjects": ["person"], "objects": ["food"]}]
    for name in EARLIER:
        (tmp_path / f"lexicon_{name}.json").write_bytes((lexicon.DATA_DIR / f"lexicon_{name}.json").read_bytes())
    (tmp_path / "lexicon_learner5.json").write_text(json.dumps(raw, ensure_ascii=False), encoding="utf-8")
    monkeypatch.setattr(lexicon, "DATA_DIR", tmp_path)
    lexicon.load_lexicon.cache_clear()
    lexicon.load_additions.cache_clear()
    try:
        with pytest.raises(ValueError, match="repeats an entry"):
            lexicon.load_additions(*EARLIER, "learner5")
    finally:
        monkeypatch.undo()
        lexicon.load_lexicon.cache_clear()
        lexicon.load_additions.cache_clear()


# Forms written out by hand, as a Korean teacher conjugates them: stem -> (past stem, -아/어 form, -(으)ㄹ form).
HAND_VERB_FORMS = {
    "엿듣": ("엿들었", "엿들어", "엿들을"),  # ㄷ: 엿들어요, 엿들을 거예요
    "농사짓": ("농사지었", "농사지어", "농사지을"),  # ㅅ: 농사지어요
    "엎지르": ("엎질렀", "엎질러", "엎지를"),  # 르: 엎질러요
    "앞지르": ("앞질렀", "앞질러", "앞지를"),
    "타이르": ("타일렀", "타일러", "타이를"),
    "소리지르": ("소리질렀", "소리질러", "소리지를"),
    "건네": ("건넸", "건네", "건넬"),  # regular vowel stems
    "당기": ("당겼", "당겨", "당길"),
    "외치": ("외쳤", "외쳐", "외칠"),
    "꾸짖": ("꾸짖었", "꾸짖어", "꾸짖을"),
    "뒹굴": ("뒹굴었", "뒹굴어", "뒹굴"),  # ㄹ stem
    "낳": ("낳았", "낳아", "낳을"),  # regular ㅎ final of a verb
    "당선되": ("당선됐", "당선돼", "당선될"),
    "다니": ("다녔", "다녀", "다닐"),
}
# stem -> (past stem, -아/어 form, attributive)
HAND_ADJECTIVE_FORMS = {
    "지겹": ("지겨웠", "지겨워", "지겨운"),  # ㅂ: 지겨워요
    "징그럽": ("징그러웠", "징그러워", "징그러운"),
    "싱그럽": ("싱그러웠", "싱그러워", "싱그러운"),
    "신비롭": ("신비로웠", "신비로워", "신비로운"),
    "갑작스럽": ("갑작스러웠", "갑작스러워", "갑작스러운"),
    "따갑": ("따가웠", "따가워", "따가운"),
    "기다랗": ("기다랬", "기다래", "기다란"),  # ㅎ: 기다래요
    "가느다랗": ("가느다랬", "가느다래", "가느다란"),
    "높다랗": ("높다랬", "높다래", "높다란"),
    "가능하": ("가능했", "가능해", "가능한"),  # 하다
    "세련되": ("세련됐", "세련돼", "세련된"),
    "쌀쌀맞": ("쌀쌀맞았", "쌀쌀맞아", "쌀쌀맞은"),
}
# Attributive-only adjectives (not predicates, like 늙은): the -(으)ㄴ form of a verb the lexicon does not have.
HAND_ATTRIBUTIVE_ONLY = {"오래된": "오래되", "익은": "익", "젖은": "젖", "지친": "지치", "취한": "취하"}
FINAL_OF_CLASS = {"ㅂ": hangul.FINAL_BIEUP, "ㄷ": hangul.FINAL_DIGEUT, "ㅅ": hangul.FINAL_SIOS,
                  "ㅎ": hangul.FINAL_HIEUH}


def _new_verbs() -> list[Verb]:
    return [verb for field in VERB_FIELDS for verb in NEW.get(field, [])]


def test_hand_written_forms_match_the_entries_and_hangul_rules():
    verbs = {verb.stem: verb for verb in _new_verbs()}
    adjectives = {adjective.stem: adjective for adjective in NEW["adjectives"]}
    for stem, (past, infinitive, future) in HAND_VERB_FORMS.items():
        verb = verbs[stem]
        assert verb.past_stem == past == hangul.past_stem(stem, verb.irregular), stem
        assert hangul.infinitive_from_past(verb.past_stem) == infinitive, stem
        assert (verb.future_stem or hangul.future_adnominal(stem)) == future == hangul.future_form(stem, verb.irregular)
    for stem, (past, infinitive, attributive) in HAND_ADJECTIVE_FORMS.items():
        adjective = adjectives[stem]
        assert adjective.past_stem == past == hangul.past_stem(stem, adjective.irregular), stem
        assert hangul.infinitive_from_past(adjective.past_stem) == infinitive, stem
        assert adjective.attributive == attributive == hangul.attributive_form(stem, adjective.irregular), stem


def test_every_irregular_class_of_the_round_has_a_hand_written_sample():
    classes = {entry.irregular for entry in _new_verbs() + NEW["adjectives"] if entry.irregular}
    sampled = ({verb.irregular for verb in _new_verbs() if verb.stem in HAND_VERB_FORMS}
               | {adj.irregular for adj in NEW["adjectives"] if adj.stem in HAND_ADJECTIVE_FORMS})
    assert classes == {"ㅂ", "ㄷ", "르", "ㅎ", "ㅅ"}
    assert classes <= sampled


def test_every_entry_is_written_as_hangul_conjugates_its_stem_and_class():
    for verb in _new_verbs():
        assert verb.past_stem == hangul.past_stem(verb.stem, verb.irregular), verb.stem
        future = hangul.future_form(verb.stem, verb.irregular)
        assert verb.future_stem == (future if future != hangul.future_adnominal(verb.stem) else ""), verb.stem
        if verb.prefix:
            assert verb.stem.startswith(verb.prefix) and verb.stem[len(verb.prefix):] in ("하", "되"), verb.stem
    for adjective in NEW["adjectives"]:
        if not adjective.predicative:
            source = HAND_ATTRIBUTIVE_ONLY[adjective.attributive]
            assert adjective.stem == adjective.past_stem == "" and not adjective.irregular, adjective.attributive
            assert adjective.attributive == hangul.attributive_form(source), adjective.attributive
            assert source not in {verb.stem for verb in AFTER.verbs}, source
            continue
        assert adjective.stem
        assert adjective.past_stem == hangul.past_stem(adjective.stem, adjective.irregular), adjective.stem
        assert adjective.attributive == hangul.attributive_form(adjective.stem, adjective.irregular), adjective.stem


def test_irregular_stems_have_the_shape_of_their_class():
    """ㅂ/ㄷ/ㅅ/ㅎ stems end in that final, 르 stems in 르; ㅎ stems have a bright vowel (파랗다 -> 파래요): hangul.py
    writes ㅐ for every ㅎ stem, which is wrong for dark ones (누렇다 -> 누레요), so the round has none."""
    for entry in _new_verbs() + NEW["adjectives"]:
        if entry.irregular in FINAL_OF_CLASS:
            assert hangul.final_consonant(entry.stem) == FINAL_OF_CLASS[entry.irregular], entry.stem
        if entry.irregular == "르":
            assert entry.stem.endswith("르"), entry.stem
        if entry.irregular == "ㅎ":
            assert hangul.decompose(entry.stem[-1])[1] == hangul.MEDIAL_A, entry.stem


def test_english_verb_forms_need_no_agreement_the_grammar_cannot_give():
    """No "be ..." verb (was/were), no possessive (brush one's teeth): the grammar conjugates en_base/en_past only."""
    for verb in _new_verbs():
        for form in (verb.en_base, verb.en_past):
            words = form.split()
            assert words[0] not in ("be", "was", "were") and not {"my", "one's", "his", "her"} & set(words), form
    irregular_pasts = {"sell": "sold", "buy": "bought", "hold": "held", "run": "ran", "flee": "fled", "kneel": "knelt",
                       "overhear": "overheard", "overtake": "overtook", "send": "sent", "spend": "spent", "pay": "paid",
                       "leave": "left", "set": "set", "broadcast": "broadcast", "grow": "grew", "hide": "hid"}
    for verb in _new_verbs():
        head = verb.en_base.split()[0]
        if head in irregular_pasts:
            assert verb.en_past.split()[0] == irregular_pasts[head], verb.en_base


def _tags_of_nouns(lex) -> set[str]:
    return {tag for noun in lex.common_nouns + lex.places + lex.names + list(lex.tools.values()) for tag in noun.tags}


def test_no_tag_dangles():
    """A verb's subjects/objects and an adjective's applies_to name tags some noun carries; a new noun's tags,
    besides its own English word, are tags some other entry (or the grammar, through the earlier rounds) uses."""
    noun_tags = _tags_of_nouns(AFTER)
    for verb in _new_verbs():
        assert verb.subjects and verb.subjects <= noun_tags, verb.stem
        assert verb.objects <= noun_tags, (verb.stem, verb.objects - noun_tags)
        assert bool(verb.objects) == (verb.kind == "transitive"), verb.stem
    for adjective in NEW["adjectives"]:
        assert adjective.applies_to and adjective.applies_to <= noun_tags, (adjective.stem,
                                                                            adjective.applies_to - noun_tags)
    new_nouns = NEW["common_nouns"] + NEW["places"]
    for noun in new_nouns:
        assert noun.en in noun.tags, noun.ko
        others = _tags_of_nouns(BEFORE) | {tag for other in new_nouns if other is not noun for tag in other.tags}
        assert noun.tags - {noun.en} <= others, (noun.ko, noun.tags - {noun.en} - others)
    for place in NEW["places"]:
        assert "place" in place.tags, place.ko


def test_time_words_link_each_english_word_to_a_korean_one():
    for word in NEW["time_words"]:
        assert len(word.links) == len(word.en), word.ko
        assert all(-1 <= link < len(word.ko) for link in word.links), word.ko
        assert word.tenses and set(word.tenses) <= {"past", "present", "future"}, word.ko


def _written_strings(lex_entries: dict[str, list]) -> dict[str, set[str]]:
    """Each Korean string an entry writes (noun, stem, past/future stem, -아/어 and -아/어서 forms, attributive,
    a 하다 verb's noun part, a one-word time word, an adverb) -> the English meanings it carries."""
    strings: dict[str, set[str]] = {}

    def put(korean: str, english: str) -> None:
        if korean:
            strings.setdefault(korean, set()).add(english)

    for field, entries in lex_entries.items():
        for entry in entries:
            if field in ("common_nouns", "places", "names"):
                put(entry.ko, entry.en)
            elif field in VERB_FIELDS:
                infinitive = hangul.infinitive_from_past(entry.past_stem)
                for form in (entry.stem, entry.past_stem, entry.future_stem or hangul.future_adnominal(entry.stem),
                             entry.prefix, infinitive, infinitive + "서",
                             hangul.attributive_form(entry.stem, entry.irregular)):  # past adnominal: 상한 음식
                    put(form, entry.en_base)
            elif field == "adjectives":
                for form in (entry.stem, entry.attributive, entry.past_stem):
                    put(form, entry.en)
            elif field == "time_words":
                put(" ".join(entry.ko), " ".join(entry.en))
            elif field in (*PAIR_FIELDS, "numbers"):
                put(entry[0], entry[1])
    return strings


def test_no_new_korean_string_already_means_something_else():
    """사서 'librarian' would be 사다's 사서, 뿌리다's 뿌리 is 'root', 상한 'spoiled' is 상하다's 상한 'that went bad':
    such entries were left out."""
    fields = ("common_nouns", "places", "names", *VERB_FIELDS, "adjectives", "time_words", *PAIR_FIELDS, "numbers")
    earlier = _written_strings({field: getattr(BEFORE, field) for field in fields})
    new = _written_strings(NEW)
    clashes = {korean: (sorted(meanings), sorted(earlier[korean])) for korean, meanings in new.items()
               if korean in earlier and not meanings & earlier[korean]}
    assert clashes == {}
    within = {korean: sorted(meanings) for korean, meanings in new.items() if len(meanings) > 1}
    assert within == {}


def test_a_new_noun_is_no_earlier_verbs_stem_and_a_new_verb_no_earlier_noun():
    earlier_nouns = {noun.ko for noun in BEFORE.common_nouns + BEFORE.places + BEFORE.names}
    earlier_stems = {verb.stem for verb in BEFORE.verbs} | {adj.stem for adj in BEFORE.adjectives if adj.stem}
    for noun in NEW["common_nouns"] + NEW["places"]:
        assert noun.ko not in earlier_stems, noun.ko
    for entry in _new_verbs() + NEW["adjectives"]:
        assert entry.stem not in earlier_nouns and entry.stem not in earlier_stems, entry.stem
        assert getattr(entry, "prefix", "") not in earlier_nouns, entry.stem


def test_english_plurals_of_the_new_nouns():
    """Plurals english.plural gets wrong are data: passersby, sisters-in-law, reindeer, flatfish."""
    nouns = {noun.ko: noun for noun in NEW["common_nouns"]}
    hand = {"행인": "passersby", "형수": "sisters-in-law", "매형": "brothers-in-law", "장모": "mothers-in-law",
            "순록": "reindeer", "광어": "flatfish", "미꾸라지": "loaches", "라즈베리": "raspberries",
            "스마트워치": "smartwatches", "엄지손가락": "thumbs"}
    for korean, english_plural in hand.items():
        assert nouns[korean].plural == english_plural, korean
    for noun in NEW["common_nouns"]:
        if "-in-law" in noun.en:
            assert noun.plural.endswith("s-in-law"), noun.en
        assert not (noun.mass and noun.plural_only), noun.ko


# The grammar's question words (ko_en_everyday.py writes them; the lexicon files do not).
QUESTION_WORDS = {"몇", "얼마", "언제", "어디", "누가", "누구", "뭐", "무엇", "왜", "어떻게"}


def test_no_word_of_a_new_time_word_is_a_stem_or_a_question_word():
    """다음 주 월요일에's 주 would be 주다's stem, 몇 년 전에's 몇 the question word 'how many': left out."""
    stems = {verb.stem for verb in AFTER.verbs} | {adj.stem for adj in AFTER.adjectives if adj.stem}
    for word in NEW["time_words"]:
        assert not set(word.ko) & (stems | QUESTION_WORDS), word.ko
