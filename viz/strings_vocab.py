"""UI strings of issue 13: the unknown-word notice, the example picker, the word list and the
tokenization explanation (merged into viz.i18n.STRINGS)."""

STRINGS: dict[str, tuple[str, str]] = {
    # overview: the honest notice next to the output
    "vocab.unknown_notice": (
        "단어 {total}개 중 {n}개는 이 모델이 모르는 단어입니다(`<unk>`). 모델은 그 단어를 볼 수 없으니 "
        "번역은 추측입니다.",
        "{n} of {total} words are unknown to this model (`<unk>`); it cannot see them, so the translation is a guess.",
    ),
    "vocab.unknown_notice_encoder": (
        "단어 {total}개 중 {n}개는 이 모델이 모르는 단어입니다(`<unk>`): 모두 같은 `<unk>` 벡터가 됩니다.",
        "{n} of {total} words are unknown to this model (`<unk>`): they all get the same `<unk>` vector.",
    ),
    "vocab.unknown_marked": ("모르는 단어 표시:", "Unknown words marked:"),
    "vocab.unknown_hint": (
        "이 모델이 아는 단어는 토큰 페이지의 단어 목록에서, 예문은 사이드바에서 찾을 수 있습니다.",
        "What this model knows: the word list on the Tokens page; ready-made sentences: the examples in the sidebar.",
    ),
    # sidebar: one-click examples
    "vocab.examples": ("예문 (누르면 입력됩니다)", "Examples (click to use)"),
    "vocab.examples_help": (
        "이 모델의 모델 카드에 있는 예문입니다. 하나를 누르면 입력 문장이 바뀝니다.",
        "Example sentences from this model's card. Click one to make it the input sentence.",
    ),
    # tokens page: why pieces, and the word list
    "vocab.why_title": ("왜 이렇게 자를까? (ko-en-toy의 토큰화)", "Why cut it like this? (ko-en-toy's tokenization)"),
    "vocab.why_body": (
        "한국어 어절은 **어간 + 조사/어미**로 자릅니다: {school}, {went}, {studied}. "
        "`##`는 앞 조각에 붙는 조각이라는 표시입니다(WordPiece). "
        "어휘는 말뭉치에서 배운 것이 아니라 문법이 가진 모든 어간과 모든 조사·어미 목록이고, 각 단어는 가장 긴 "
        "조각부터 맞춰 자릅니다. 그래서 아는 어간에 아는 어미가 붙으면 처음 보는 조합이라도 압니다"
        "(어절마다 단어를 외우던 예전 방식은 {like}도 몰랐습니다). 한 조각이라도 모르면 그 단어 전체가 "
        "`<unk>` 하나가 됩니다. 영어는 단어 그대로입니다. 두 언어가 한 어휘를 함께 쓰는 이유: 논문은 입력 "
        "임베딩, 출력 임베딩, 출력층을 하나의 행렬로 묶습니다(3.4절).",
        "Korean words are cut into **stem + particle/ending**: {school}, {went}, {studied}. "
        "`##` marks a piece that continues the piece before it (WordPiece). "
        "The vocabulary is not learned from a corpus: it is every stem and every particle/ending the grammar has, "
        "and each word is cut longest piece first. So a known stem with a known ending is known even in a "
        "combination never seen (the old whole-word vocabulary did not even know {like}). If any part of a word "
        "is unknown, the whole word becomes one `<unk>`. English words stay whole. Both languages share one "
        "vocabulary because the paper ties the input embeddings, the output embeddings and the output layer into "
        "one matrix (section 3.4).",
    ),
    "vocab.wordlist_title": ("번역기가 아는 단어 ({n}개)", "Words the translator knows ({n})"),
    "vocab.wordlist_caption": (
        "ko-en 문법의 모든 어휘 항목입니다. 동사·형용사는 모든 활용형({endings} …), 명사는 모든 조사({particles} …)와 "
        "함께 압니다.",
        "Every entry of the ko-en grammar. Verbs and adjectives are known in every ending ({endings} …), "
        "nouns with every particle ({particles} …).",
    ),
    "vocab.wordlist_search": ("찾기 (한국어 또는 영어)", "Search (Korean or English)"),
    "vocab.wordlist_category": ("분류", "Category"),
    "vocab.wordlist_matches": ("{n}개 찾음", "{n} found"),
    "vocab.col.category": ("분류", "category"),
    "vocab.col.korean": ("한국어", "Korean"),
    "vocab.col.english": ("영어", "English"),
    "vocab.cat.person": ("사람·가족·직업", "people, family, jobs"),
    "vocab.cat.animal": ("동물", "animals"),
    "vocab.cat.food": ("음식", "food"),
    "vocab.cat.drink": ("음료", "drinks"),
    "vocab.cat.object": ("물건", "objects"),
    "vocab.cat.book": ("책", "books"),
    "vocab.cat.clothes": ("옷", "clothes"),
    "vocab.cat.vehicle": ("탈것", "vehicles"),
    "vocab.cat.plant": ("식물", "plants"),
    "vocab.cat.subject": ("과목", "school subjects"),
    "vocab.cat.sport": ("운동·취미", "sports, hobbies"),
    "vocab.cat.nature": ("자연", "nature"),
    "vocab.cat.weather": ("날씨", "weather"),
    "vocab.cat.body": ("몸", "body"),
    "vocab.cat.event": ("행사", "events"),
    "vocab.cat.show": ("영화·방송", "shows"),
    "vocab.cat.idea": ("생각·말", "ideas"),
    "vocab.cat.place": ("장소", "places"),
    "vocab.cat.name": ("이름", "names"),
    "vocab.cat.pronoun": ("대명사", "pronouns"),
    "vocab.cat.verb": ("동사", "verbs"),
    "vocab.cat.adjective": ("형용사", "adjectives"),
    "vocab.cat.adverb": ("부사", "adverbs"),
    "vocab.cat.time": ("때", "time"),
    "vocab.cat.number": ("수", "numbers"),
}
