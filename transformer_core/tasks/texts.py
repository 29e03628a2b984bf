"""The tasks' texts for config.json's "description" and the model card's data section (read by the Task
entries in tasks/__init__.py; the ko-en notes are formatted with the lexicon's counts when a card is written)."""

DESCRIPTIONS = {
    "ko-en": "Toy Korean -> English translation, trained on a synthetic grammar whose every sentence pair carries "
             "its gold word alignment. Paper architecture (post-LN, sinusoidal positions, ReLU, shared embeddings) "
             "at small size. Korean morpheme pieces (학교 ##에) and English words in one joint vocabulary.",
    "lab-ko-en": "Toy Korean -> English translation trained in the training lab (transformer_core/training) on "
                 "the synthetic grammar's compact core when it has one. Paper architecture (post-LN, sinusoidal "
                 "positions, ReLU, shared embeddings). Korean morpheme pieces and English words, one joint vocabulary.",
    "letters-reverse": "Reverses a string of 3-12 lowercase letters (a-z), trained in the training lab: its "
                       "cross-attention should follow the anti-diagonal.",
    "letters-copy": "Copies a string of 3-12 lowercase letters (a-z), trained in the training lab: its "
                    "cross-attention should follow the diagonal.",
    "letters-sort": "Sorts the letters of a string of 3-12 lowercase letters (a-z), trained in the training lab: "
                    "each output letter should attend to an input position holding that letter.",
    "reverse": "Reverses any text of up to 64 characters (Hangul, Latin, digits, punctuation, emoji): its "
               "cross-attention should follow the anti-diagonal. Character-level vocabulary, shared embeddings.",
}

CARD_NOTES = {
    "ko-en": """\
Sentences come from `transformer_core/data` (a synchronous Korean/English grammar of everyday
Korean, {entries} Korean lexical entries: {nouns} nouns (family, people and jobs, names, animals,
food, drinks, home and school objects, clothes, vehicles, plants, school subjects, sports,
weather, body, events, places), {pronouns} pronouns, {verbs} verbs, {adjectives} adjectives,
{times} time words, {adverbs} adverbs, numbers 2-10; {vocab} tokens in all). Templates:
S-O-V -> S-V-O with optional place (에서 -> at / in), instrument (으로/로 -> with), time word and
manner adverb (빨리 -> quickly); motion to a place (에 -> to; 집에 -> home); adjective predicates
with degree adverbs (아주 -> very); 이다 (저는 학생이에요 -> I am a student; 이것은 사과가 아니에요);
questions: yes/no, 뭐 / 누가 / 누구 / 어디 / 언제 (What did you eat? Who came? Where do you go?) and
어때 (오늘 날씨 어때? -> How is the weather today?); attributive adjectives; determiners 그 / 이 / 저 /
내 / 우리 / 너의 ... (the / this / that / my / our / your); numbers with counters (고양이 두 마리 ->
two cats); 와/과 coordination; past / present / future; negation (안, 아니다); four speech levels
(plain 먹는다, polite 먹어요, formal 먹습니다, banmal 먹어), which English does not mark. Korean
conjugation is computed from each stem and its irregular class (ㅂ ㄷ 르 ㅎ ㅅ); English agreement
(a/an, -s, do/does/did, am/is/are/was/were, irregular pasts and plurals) is computed.

Vocabulary: one joint vocabulary for both languages, because the paper ties the source embedding,
the target embedding and the output projection (section 3.4). Korean is cut into morpheme pieces,
English into words: 학교에 갔어요 -> 학교 ##에 갔 ##어요 (WordPiece, longest match first, over a
vocabulary that is every stem and every particle/ending of the grammar, not learned from a corpus).
So a known stem with a known ending is known in any combination, and a word with any part the
grammar lacks is one <unk>. Punctuation is split off (먹었니? -> 먹었 ##니 ?).

Gold alignment: for each English word, the Korean pieces of the word(s) it translates (school ->
학교 ##에). Unaligned (not scored): a / an, and "the" of places, time phrases and bare subjects,
which Korean does not write. "the" from 그 is aligned to 그; do/does/did/is/was/will to the Korean
word carrying the tense; not -> 안; at/to/with/and to the word carrying the particle; what/who/
where/when/how to 뭐/누구/어디/언제/어때.

Held out: a Korean sentence whose text hashes into bucket 0 of 20 (`grammar/splits.py`) is never trained on;
evaluation samples only from that bucket.""",
    "reverse": """\
Texts come from `transformer_core/data/reverse.py`, in four styles: random character soup (45 %;
length 1-64 drawn uniformly, characters from every class of the vocabulary so each entry is seen
often: all 11,172 Hangul syllables, compatibility jamo, ASCII, Latin-1 letters, punctuation, about
500 single-code-point emoji), word-like runs (20 %; random syllables / letters / digits, sometimes
one character repeated as in ㅋㅋㅋ, with spaces and punctuation), real-looking Korean and English
sentences from the ko-en grammar cut to 64 characters (25 %), and repeats (10 %; one to four
distinct characters repeated, where only position tells the characters apart). A length
curriculum grows the longest text from 8 to 64 characters over the first 30 % of the run.

Vocabulary: one character per token (spaces included), decoded by concatenation. Characters outside
the vocabulary (e.g. emoji with a variation selector, CJK ideographs) become <unk> and are dropped
from the decoded output. Source and target share one vocabulary and one tied embedding matrix,
which lets copying generalize to characters seen rarely.

Training uses a sampled softmax (the batch's own target ids plus random others, 2,048 candidates)
to keep the 12k-way output layer affordable on a CPU; inference uses the full softmax. Unlike
ko-en-toy, this model is pre-LN (LayerNorm before each sublayer, plus a final one per stack): with
post-LN it stayed on its loss plateau for most of the 15-minute budget.

Held out: texts whose hash falls in bucket 0 of 20 are never trained on; evaluation samples only
from that bucket, plus hand-written Korean and English sentences (`tasks/heldout.py: REAL_SENTENCES`).""",
}


LETTER_NOTES = """\
Strings of 3-12 letters drawn uniformly from a-z (`transformer_core/tasks/`); the
target is the reversed / copied / sorted string. One token per letter; vocabulary: the 4 special
tokens + 26 letters. Strings whose hash falls in bucket 0 of 20 are held out and never trained on;
alignment is scored against the known source position(s) of each output letter."""

LAB_KO_EN_NOTES = (
    "Sentence pairs from the compact core of the synchronous Korean/English grammar in\n"
    "`transformer_core/data` (`KoEnGrammar(seed, core=True)`: everyday people, animals, places,\n"
    "objects, tenses), with their gold alignment; the tokenizer holds the core's tokens only (Korean\n"
    "morpheme pieces and English words, one joint vocabulary shared by the tied embeddings; a word\n"
    "outside the core is <unk>). Held out:\n"
    "a Korean sentence whose text hashes into bucket 0 of 20 is never trained on; the metrics are\n"
    "measured on that bucket of the same core grammar (`python -m transformer_core evaluate DIR` does\n"
    "the same: config.json says \"grammar\": \"core\").")


EVERYDAY_NOTES = """\
Everyday grammar (stage "everyday"; `transformer_core/grammar/constructions_everyday.py`): the
grammar above plus the constructions learners say first, each with its gold alignment: desire -고 싶다
(먹고 싶어요 -> want to eat); progressive -고 있다 (is reading); requests -아/어 주세요 and 좀 (문 좀 열어
주세요 -> Please open the door; 물 주세요 -> Please give me water); existence and place 있다/없다 with
위/안/옆/밑/앞/뒤에 (책상 위에 연필이 있다 -> There is a pencil on the desk) and possession (저는 시간이
없어요 -> I do not have time); 어디에 있어요? (Where is ...?); reason -아서/-니까 and contrast -지만 (two
clauses: ..., so ... / ..., but ...); while -(으)면서; negation 못 / -지 않다 / -지 못하다 (cannot, could not,
does not); suggestions -ㄹ래? / -자 (Do you want to ...? / Let's ...); 왜, 얼마, 몇 (몇 시예요? 몇 살이에요?
몇 개 있어요?); native numbers with 잔 / 시 / 살 / 개 / 명 (커피 두 잔 -> two cups of coffee; 세 시 -> three
o'clock; 열 살 -> ten years old) and Sino-Korean floors (삼 층 -> the third floor); honorific -(으)시-
(선생님이 읽으세요 -> The teacher reads); transport -을 타고 (by bus); frequency -마다 (every morning);
degree 너무 / 아주 / 많이 / 조금; dropped subjects (내일 학교에 갈 거예요 -> I will go to the school tomorrow; a
question without a subject asks "you"). The vocabulary keeps the full grammar's ids and appends the new
pieces ({added} tokens), so this model continued from the full grammar's weights. A sentence outside these
constructions gets a notice on every page (the grammar's recogniser, `grammar/recogniser.py`)."""

LEARNER_NOTES = """\
Learner grammar (stage "learner"): the everyday constructions above over a bigger lexicon: the
full and everyday entries plus a Korean learner's core vocabulary (the learner additions file that
`transformer_core/grammar/lexicon.py` reads: the everyday verbs, adjectives, nouns, adverbs and time words of school,
home, family, food, weather, body, feelings, places, shops, transport and hobbies, written by topic the way the
beginner levels of the National Institute of Korean Language's learner word list choose them), and irregular
stems in -(으)니까 / -(으)면서 / -(으)시- too (들으니까, 도우세요). The vocabulary keeps the everyday grammar's ids
and appends the new pieces ({added} tokens), so this model continued from the everyday model's weights."""

LEARNER2_NOTES = """\
Learner grammar, second round (stage "learner2"): the learner grammar's constructions over its
lexicon plus 1,000 more entries of a learner's beginner to lower-intermediate vocabulary (the learner2 additions
file that `transformer_core/grammar/lexicon.py` reads: daily routine, chores, cooking, ordering, shopping, clothes,
health, travel, directions, work, phone and computer, nature and animals, places and shops, time; verbs and
adjectives first). The vocabulary keeps the learner grammar's ids and appends the new pieces ({added} tokens), so
this model continued from the learner model's weights."""

LEARNER3_NOTES = """\
Learner grammar, third round (stage "learner3"): the learner2 grammar plus the beginner syllabus's
constructions it lacked: -(으)ㄹ 수 있다/없다 (can, cannot), -아/어야 하다/되다 (have to), -아/어도 되다 (may),
-(으)면 안 되다 (must not), -고 (and), -(으)면 (if), -(으)ㄹ 때 (when), -기 전에 / -(으)ㄴ 후에 (before / after
V-ing), -(으)러 가다 and -(으)려고 (to V), -아/어 보다 (tried V-ing), -(으)ㄴ 적이 있다 (have V-ed before, have never
V-ed), -지 마세요 (do not), -(으)ㅂ시다 (let's), -(으)세요 requests (please), object relative clauses (민수가 만든
케이크 -> the cake that Minsu made), and honorific suppletion for elders (드세요 for 먹다 / 마시다, 주무세요 for
자다, 말씀하세요 for 말하다, 계세요 for being at a place; 께서), over a third round of the lexicon (the learner3
additions file). The vocabulary keeps the learner2 grammar's ids and appends the new pieces ({added} tokens), so
this model continued from the learner2 model's weights."""

LEARNER4_NOTES = """\
Learner grammar, fourth round (stage "learner4"): the learner3 grammar plus
the beginner syllabus's items it still lacked: -겠- (제가 하겠습니다 -> I will do; 하겠어요? -> Will you
do?), -(으)ㄹ게요 (a promise: I will), -기 때문에 and N 때문에 (because, because of), -고 나서 (after
V-ing), -게 되다 (came to V), -기로 하다 (decided to V), -(으)ㄴ/는/(으)ㄹ 것 같다 (I think ...), -는데 /
-(으)ㄴ데 (..., but), -지요? / -죠? (..., right?), -네요 (English says the same statement), -아/어 있다
(문이 열려 있어요 -> The door is open), N보다 (더) ADJ (bigger than N) and PLACE에서 제일 / 가장 ADJ (the
biggest in PLACE), over the learner3 lexicon plus the months (일월에 -> in January; the
learner4 additions file). The vocabulary keeps the learner3 grammar's ids and appends the
new pieces ({added} tokens), so this model continued from the learner3 model's weights."""

LEARNER5_NOTES = """\
Learner grammar, fifth round (stage "learner5"): the learner4 grammar plus
the beginner syllabus's items it still lacked: N만 (사과만 먹었어요 -> ate only an apple), N도
(사과도 -> an apple too), N하고 / N(이)랑 (지수하고 -> with Jisu), PLACE에서 PLACE까지 (집에서
학교까지 -> from home to the school), -(으)ㄹ까요? (우리 같이 먹을까요? -> Shall we eat
together?), -아/어 드릴까요? (Shall I ... for you?), -아/어 주다 with N에게 / N한테 (만들어 줬어요
-> made ... for N; an elder: N께 ... 드렸어요), -아/어지다 (날씨가 추워졌어요 -> The weather got
colder) and V-는 것을 / V-기를 좋아하다 (like V-ing), over the learner4 lexicon plus the fifth
round (the learner5 additions file). The vocabulary keeps the learner4 grammar's ids and appends
the new pieces ({added} tokens), so this model continued from the learner4 model's weights."""

LEARNER6_NOTES = """\
Learner grammar, sixth round (stage "learner6"): the learner5 grammar plus
weather and body collocations with their own subject (비가 와요 -> It is raining; 배가 고파요 ->
I am hungry; 머리가 아파요 -> I have a headache; 감기에 걸렸어요 -> I caught a cold), 시간이 걸리다
with durations (삼십 분 걸려요 -> It takes 30 minutes), -아/어서 of sequence (학교에 가서 친구를
만났어요 -> went to the school and met a friend), -거나 (V1 or V2), Sino-Korean numbers with 원 and
분 (오천 원이에요 -> is 5,000 won; 세 시 삼십 분 -> 3:30), TIME부터 TIME까지 and N 시에 / N 시쯤 (at
about N o'clock), N밖에 with a negative (only N), numbers typed as digits (3시 30분, 5000원, 2024년),
years with 년, times with 번 (세 번 -> three times), native numbers past twelve (스무 살), 보통 /
벌써 / 아직 (usually / already / still, not ... yet) and 어느 / 무슨 (which / what kind of), over the
learner5 lexicon plus the collocations (the learner6 additions file).
The vocabulary keeps the learner5 grammar's ids and appends the new pieces ({added} tokens), so
this model continued from the learner5 model's weights."""

LEARNER7_NOTES = """\
Learner grammar, seventh round (stage "learner7"): the learner6 grammar plus
what a first-level learner's core word list still had that it lacked: native numerals standing
alone (아이가 둘 있어요 -> I have two children), nouns with two meanings told apart by their verb
(차를 운전했어요 -> drove a car, 차를 마셨어요 -> drank tea; 배를 탔어요 -> took a boat; 이를 닦아요
-> brush my teeth; 눈이 아파요 -> have sore eyes; 키가 커요 -> is tall), 듣다 as listen to (music)
or hear (a sound), 많다 / 적다 (there are many / few), 모르다 (does not know) and -(으)ㄹ 줄 알다 /
모르다 (knows how to swim), over the learner6 lexicon plus the learner7 additions file.
The vocabulary keeps the learner6 grammar's ids and appends the new pieces ({added} tokens), so
this model continued from the learner6 model's weights."""

LEARNER8_NOTES = """\
Learner grammar, eighth round (stage "learner8"): the learner7 grammar plus
noun-noun compounds (영어 숙제 -> English homework, 학교 식당 -> school cafeteria, 한국 음식 ->
Korean food, 생일 선물 -> birthday present), durations with 동안 (삼 년 동안 -> for 3 years),
dates (삼월 오 일에 -> on March 5), reported speech -대요 / -(이)래요 (민수는 바쁘대요 -> Minsu
says that he is busy), -는데 before a suggestion (피곤한데 같이 집에 갈까요? -> I am tired, so
shall we go home together?) and a learner's everyday verbs the lexicon lacked (혼나다, 깨지다, 길을
잃다, 줄을 서다, 시험에 붙다, 배탈이 나다 ...), over the learner7 lexicon plus the learner8 additions
file. The vocabulary keeps the learner7 grammar's ids and appends the new pieces ({added} tokens),
so this model continued from the learner7 model's weights."""

LEARNER9_NOTES = """\
Learner grammar, ninth round (stage "learner9"): the learner8 grammar plus the
particles as learners hear them spoken, with the same English: an object without 을/를 (같이
영화 볼래? -> Do you want to see a movie together?), a subject without 이/가 before 있다 / 없다
(시간 있어요?), the topic 은/는 on a time word (내일은 학교에 안 가요 -> I do not go to the
school tomorrow) and 에는 on a place before 있다 / 없다; 몇 시에 / 몇 층에 questions (몇 시에 학교에 가요?
-> What time do you go to the school?), 밖에 with a negative (한 시간밖에 없어요 -> I have only one hour), 하나도
(이 문제는 하나도 안 어려워요 -> This problem is not difficult at all), 아무도 / 아무것도 (아무것도 안 먹었어요 -> I did
not eat anything), the first day's set phrases (안녕하세요 -> Hello, 감사합니다 -> Thank you) and
a few words the lexicon lacked (경제학, 군대, 살이 빠지다, 피아노를 치다 ...), over the learner8
lexicon plus the learner9 additions file. The vocabulary keeps the learner8 grammar's ids and
appends the new pieces ({added} tokens), so this model continued from the learner8 model's
weights."""

LEARNER10_NOTES = """\
Learner grammar, tenth round (stage "learner10"): the learner9 grammar plus a
place named by pointing wherever a place was drawn (여기서 공부하고 싶어요 -> I want to study
here; 저기에 가방이 있어요 -> There is a bag over there; 거기 가요 -> I go there), 밖 and 근처
beside 위 / 안 / 옆 (책상 근처에 사과가 있어요 -> There is an apple near the desk; 밖에 ->
outside), N이 되다 (의사가 되고 싶어요 -> I want to become a doctor), 아무 N도 with a
negative (아무 책도 안 읽었어요 -> I did not read any books) and N이 있으면 / 없으면 (시간이 있으면
학교에 갈 거예요 -> If I have time, I will go to the school), over the learner9 lexicon. The
vocabulary keeps the learner9 grammar's ids and appends the new pieces ({added} tokens), so this
model continued from the learner9 model's weights."""

# Each stage the grammar grew through (grammar.base.EXTENDED_GRAMMARS; until issue 49 each a grammar of its own) ->
# its card notes; a model's card carries the notes of every stage (training/model_card.data_notes).
ROUND_CARD_NOTES = {
    "everyday": EVERYDAY_NOTES, "learner": LEARNER_NOTES, "learner2": LEARNER2_NOTES, "learner3": LEARNER3_NOTES,
    "learner4": LEARNER4_NOTES, "learner5": LEARNER5_NOTES, "learner6": LEARNER6_NOTES, "learner7": LEARNER7_NOTES,
    "learner8": LEARNER8_NOTES, "learner9": LEARNER9_NOTES, "learner10": LEARNER10_NOTES,
}
