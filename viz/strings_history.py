"""UI strings of the 2015 → 2017 page (/history), merged into viz.i18n.STRINGS."""

STRINGS: dict[str, tuple[str, str]] = {
    "nav.history": ("2015 → 2017", "2015 → 2017"),
    "hist.title": ("2015 → 2017: RNN 번역기의 어텐션과 Transformer",
                   "2015 → 2017: attention in an RNN translator and in the Transformer"),
    "hist.intro": (
        "어텐션은 Transformer보다 먼저 나왔습니다. 2015년 Bahdanau 등의 번역기는 순환 신경망(GRU)이 단어를 하나씩 "
        "읽고 쓰면서, 매 단계 작은 신경망으로 원문 단어마다 점수를 매겼습니다(가산 어텐션, 한 개의 '헤드'). "
        "2017년 Transformer는 순환을 없애고 여러 헤드의 scaled dot-product 어텐션만 남겼습니다. "
        "같은 문장을 두 모델에 넣어 비교합니다.",
        "Attention is older than the Transformer. In 2015 the translator of Bahdanau et al. read and wrote one word "
        "at a time with a recurrent network (GRU) and, at every step, scored each source word with a small neural "
        "network (additive attention, a single 'head'). In 2017 the Transformer removed the recurrence and kept "
        "only attention: scaled dot-product, several heads. The same sentence goes through both models here.",
    ),
    "hist.not_ko_en": (
        "사이드바의 모델 {name}은(는) 한국어 → 영어 번역기가 아니므로 RNN과 비교할 수 없습니다. "
        "이 페이지는 같은 데이터로 학습한 Transformer인 {fallback}을(를) 2015년 RNN과 비교합니다.",
        "The sidebar model {name} is not a Korean → English translator, so it cannot be compared with the RNN. "
        "This page compares {fallback}, the Transformer trained on the same data, with the 2015 RNN.",
    ),
    "hist.outputs": ("두 모델의 번역", "Both translations"),
    "hist.rnn_label": ("2015 · RNN + 가산 어텐션 ({name})", "2015 · RNN + additive attention ({name})"),
    "hist.transformer_label": ("2017 · Transformer ({name})", "2017 · Transformer ({name})"),
    "hist.rnn_short": ("RNN (2015)", "RNN (2015)"),
    "hist.transformer_short": ("Transformer (2017)", "Transformer (2017)"),
    "hist.empty_output": ("(빈 출력)", "(empty output)"),
    "hist.alignments": ("정렬: 출력 단어를 쓸 때 원문의 어디를 보았나",
                        "Alignment: where each model looks while writing a word"),
    "hist.alignments_caption": (
        "각 행은 그 단어를 쓰는 디코더 단계입니다(행 t의 어텐션이 t번째 출력 단어를 예측). RNN에는 단계마다 정렬이 "
        "하나뿐이고, Transformer에는 디코더 층마다 헤드 수만큼 있습니다. 두 그림 모두 같은 문장의 실제 계산에서 "
        "나온 값입니다.",
        "Each row is the decoder step that writes that word (row t's attention predicts output word t). The RNN "
        "has one alignment per step; the Transformer has one per head in every decoder layer. Both maps are "
        "tensors of the pass that produced the translations above.",
    ),
    "hist.rnn_map_title": ("2015: α (rnn.attn.weights), 하나의 정렬", "2015: α (rnn.attn.weights), one alignment"),
    "hist.tf_map_title": (
        "2017: 교차 어텐션, 층 {layer}, 헤드 평균", "2017: cross-attention, layer {layer}, head average",
    ),
    "hist.tf_heads_title": (
        "2017: 교차 어텐션, 층 {layer}, 헤드별", "2017: cross-attention, layer {layer}, each head",
    ),
    "hist.axis_written": ("쓰는 단어 (디코더 단계)", "word being written (decoder step)"),
    "hist.scores": ("두 점수 함수, 실제 숫자로", "The two score functions, with live numbers"),
    "hist.scores_caption": (
        "출력 단계 t와 원문 토큰 j를 고르면 두 모델이 그 쌍에 매긴 점수를 계산 과정과 함께 보여 줍니다. "
        "벡터는 앞의 몇 개 값만 표시합니다. 괄호 안의 'trace' 값은 기록된 텐서로, 다시 계산한 값과 같아야 합니다.",
        "Pick a decoder step t and a source token j: each model's score for that pair, with its pieces. Vectors "
        "show their first values. The 'trace' value in brackets is the recorded tensor; the recomputed value must "
        "match it.",
    ),
    "hist.pick_step": ("출력 단계 t (쓰는 단어)", "decoder step t (word being written)"),
    "hist.pick_source": ("원문 토큰 j", "source token j"),
    "hist.pick_head": ("Transformer 헤드", "Transformer head"),
    "hist.additive_title": ("2015 · 가산 어텐션 (Bahdanau)", "2015 · additive attention (Bahdanau)"),
    "hist.additive_text": (
        "이전 디코더 상태 s_(t-1)와 원문 상태 h_j를 각각 행렬로 변환해 더하고 tanh를 거친 뒤 벡터 v와 내적합니다: "
        "작은 신경망이 한 쌍마다 점수를 냅니다. RNN 출력의 단계 {t} ('{word}')와 원문 토큰 {j} ('{src}').",
        "The previous decoder state s_(t-1) and the source state h_j are each projected, added, put through tanh "
        "and dotted with a vector v: a small neural network scores every pair. RNN step {t} ('{word}') and source "
        "token {j} ('{src}').",
    ),
    "hist.dot_title": ("2017 · scaled dot-product 어텐션", "2017 · scaled dot-product attention"),
    "hist.dot_text": (
        "질의 q와 키 k의 내적을 √d_k로 나눕니다: 곱셈 한 번이라 모든 쌍을 행렬곱 하나로 한꺼번에 계산합니다. "
        "Transformer 출력의 단계 {t} ('{word}')와 원문 토큰 {j} ('{src}').",
        "The dot product of query q and key k, divided by √d_k: one multiplication, so every pair comes out of one "
        "matrix product at once. Transformer step {t} ('{word}') and source token {j} ('{src}').",
    ),
    "hist.steps": ("순서대로 밟아야 하는 단계 수와 측정 시간", "Sequential steps and measured times"),
    "hist.steps_caption": (
        "RNN은 원문 S개 토큰을 하나씩 읽고(양방향은 나란히), 디코더가 T번 한 단계씩 나아갑니다: 학습 중 정답을 "
        "알고 있어도 S + T 단계입니다. Transformer는 층마다 모든 위치를 한꺼번에 계산하므로 학습 때 순서대로 "
        "거치는 것은 층 수(인코더 + 디코더)뿐입니다. 번역을 생성할 때는 둘 다 단어를 하나씩 만듭니다. "
        "시간은 이 서버에서 이 문장에 대해 측정한 값입니다(기록하는 forward 한 번, 그리고 greedy 디코딩).",
        "The RNN reads the S source tokens one by one (both directions side by side) and its decoder advances T "
        "times, one step after another: S + T steps even in training, when the whole target is known. The "
        "Transformer handles every position of a layer at once, so a training pass runs through its layers "
        "(encoder + decoder) only. When generating, both make one word at a time. Times are measured on this "
        "server for this sentence (the recorded forward pass, and greedy decoding).",
    ),
    "hist.steps_title": ("순서대로 실행되는 단계 (이 문장)", "Steps that must run one after another (this sentence)"),
    "hist.steps_axis": ("단계 수", "steps"),
    "hist.steps_forward": ("학습 패스 (teacher forcing)", "training pass (teacher forcing)"),
    "hist.steps_generate": ("번역 생성 (greedy)", "generating the translation (greedy)"),
    "hist.col_model": ("모델", "model"),
    "hist.col_output": ("출력", "output"),
    "hist.col_sizes": ("길이", "lengths"),
    "hist.col_seq_forward": ("학습 패스 단계", "training-pass steps"),
    "hist.col_seq_generate": ("생성 단계", "generation steps"),
    "hist.col_forward_ms": ("forward (ms)", "forward (ms)"),
    "hist.col_decode_ms": ("greedy 디코딩 (ms)", "greedy decoding (ms)"),
    "hist.col_params": ("파라미터", "parameters"),
    "hist.times_note": (
        "시간은 이 문장이 처음 계산될 때 측정되어 캐시에 함께 저장됩니다. 작은 모델에서는 Python 오버헤드가 커서 "
        "절대값보다 단계 수가 차이를 더 잘 보여 줍니다.",
        "Times are measured when this sentence is first computed and cached with it. On models this small, Python "
        "overhead weighs a lot: the step counts show the difference better than the absolute times.",
    ),
    "hist.changed": ("2015 → 2017: 무엇이 바뀌었나", "2015 → 2017: what changed"),
    "hist.changed_text": (
        "- **순환을 없앴다.** RNN은 s_t를 얻으려면 s_(t-1)이 있어야 해서 단어 수만큼 차례로 계산합니다. "
        "Transformer의 층은 모든 위치를 한 번에 계산합니다.\n"
        "- **Q, K, V.** 2015년의 점수는 (s_(t-1), h_j) 쌍마다 작은 신경망 vᵀtanh(W_s s + W_h h)로 계산했습니다. "
        "2017년에는 질의·키·값을 따로 투영하고 점수는 내적 q·k/√d_k, 결과는 값 V의 가중합입니다.\n"
        "- **셀프 어텐션.** RNN에서 어텐션은 디코더가 원문을 볼 때만 쓰였고, 문맥은 순환이 날랐습니다. "
        "Transformer는 인코더와 디코더 안에서도 어텐션으로 문맥을 모읍니다(위치는 위치 인코딩이 알려 줍니다).\n"
        "- **여러 헤드.** 단계마다 정렬 하나 대신, 층마다 여러 헤드가 서로 다른 관계를 봅니다.\n"
        "- **병렬 학습.** 정답 문장을 알면 Transformer는 모든 위치의 손실을 한 번의 행렬 연산으로 계산합니다"
        "(디코더는 인과 마스크로 미래를 가립니다). 그래서 GPU에서 훨씬 빨리, 더 큰 모델을 학습할 수 있었습니다.",
        "- **The recurrence is gone.** The RNN needs s_(t-1) to compute s_t, so it runs once per word, in order. "
        "A Transformer layer computes every position at once.\n"
        "- **Q, K, V.** In 2015 each (s_(t-1), h_j) pair was scored by a small network, vᵀtanh(W_s s + W_h h). In "
        "2017 queries, keys and values get their own projections, the score is a dot product q·k/√d_k, and the "
        "result is a weighted sum of the values V.\n"
        "- **Self-attention.** In the RNN, attention was only how the decoder looked at the source; the "
        "recurrence carried the context. The Transformer also gathers context inside the encoder and the decoder "
        "with attention (positions come from the positional encoding).\n"
        "- **Several heads.** Instead of one alignment per step, every layer has several heads that can follow "
        "different relations.\n"
        "- **Parallel training.** With the target sentence known, a Transformer computes the loss at every "
        "position in one pass of matrix products (the causal mask hides the future in the decoder), which made "
        "training far faster on GPUs and allowed much larger models.",
    ),
}
