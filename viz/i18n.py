"""Every UI string of Transformer Explorer, in Korean and English, in ONE place.

`t(key, lang, **values)` returns the string for 'ko' or 'en' with `{placeholders}` filled in.
Strings may use Markdown (pages render them with st.markdown/st.caption); user text is never put
into them — pages show user text with st.text / st.code / st.dataframe.
"""

from __future__ import annotations

DEFAULT_LANG = "ko"
LANG_CHOICES = {"한국어": "ko", "English": "en"}  # sidebar label -> code (the label is what the URL holds)

# key: (Korean, English)
STRINGS: dict[str, tuple[str, str]] = {
    # navigation
    "nav.overview": ("개요", "Overview"),
    "nav.tokens": ("토큰화", "Tokens"),
    "nav.embeddings": ("임베딩 · 위치 인코딩", "Embeddings"),
    "nav.encoder": ("인코더", "Encoder"),
    "nav.decoder": ("디코더", "Decoder"),
    "nav.heads": ("헤드 비교", "Heads"),
    # sidebar
    "sidebar.text": ("문장", "Sentence"),
    "sidebar.text_help": ("문장을 입력하고 Enter를 누르세요. 주소창의 ?text= 에도 저장됩니다.",
                          "Type a sentence and press Enter. It is also kept in the URL (?text=)."),
    "sidebar.model": ("모델", "Model"),
    "sidebar.model_help": ("models/ 의 모델과 내장 모델입니다. 주소창의 ?model= 에 저장됩니다.",
                           "Bundled and built-in models. Kept in the URL (?model=)."),
    "sidebar.unavailable": ("사용할 수 없는 모델 {n}개", "{n} unavailable model(s)"),
    "sidebar.device": ("장치", "Device"),
    "sidebar.device_help": (
        "계산에 쓸 장치 (GPU가 있으면 cuda).",
        "Where the forward pass runs (cuda when a GPU is present)."),
    # messages
    "msg.empty_text": ("왼쪽 사이드바에 문장을 입력하세요. 빈 입력은 계산하지 않습니다.",
                       "Type a sentence in the sidebar on the left. Nothing is computed for empty input."),
    "msg.no_models": ("사용할 수 있는 모델이 없습니다. 사이드바에서 이유를 확인하세요.",
                      "No model is available; the sidebar lists why."),
    "msg.unknown_model": ("이런 이름의 모델이 없습니다", "no model by that name"),
    "msg.requested_model_unavailable": (
        "주소에 있는 모델 '{name}'을(를) 쓸 수 없어 기본 모델을 보여 줍니다. 이유: {reason}",
        "The model '{name}' from the URL is not available, so the default is shown. "
        "Reason: {reason}"),
    "msg.model_unavailable": ("모델 '{name}'을(를) 불러올 수 없습니다. 이유: {reason}",
                              "The model '{name}' cannot be loaded. Reason: {reason}"),
    "msg.trace_failed": ("이 문장을 처리할 수 없습니다: {reason}", "This sentence could not be processed: {reason}"),
    "msg.cuda_missing": ("CUDA를 골랐지만 이 컴퓨터에는 CUDA 장치가 없어 CPU에서 계산했습니다.",
                         "CUDA was chosen but no CUDA device is available here: this ran on the CPU."),
    "msg.cuda_oom": ("GPU 메모리가 부족해 이 입력은 CPU에서 계산했습니다.",
                     "The GPU ran out of memory for this input: it ran on the CPU instead."),
    "msg.tracing": ("문장을 모델에 통과시키는 중…", "Running the sentence through the model…"),
    "msg.untrained": ("'{name}'은(는) 학습되지 않은 모델입니다: 논문과 같은 크기지만 가중치가 무작위라서 모양(shape)은 "
                      "진짜이지만 어텐션 패턴과 출력은 의미가 없습니다.",
                      "'{name}' is UNTRAINED: the paper's dimensions with random weights. The shapes are real, "
                      "but the attention patterns and the output are noise."),
    "msg.truncated": (
        "입력이 너무 깁니다: 토큰 {n_total}개 중 뒤쪽 {n_cut}개를 잘라 내고 앞의 {max_len}개만 사용했습니다.",
        "The input is too long: {n_cut} of its {n_total} tokens were cut; only the first {max_len} "
        "are used."),
    "msg.encoder_only": ("'{name}'은(는) 인코더만 있는 모델(BERT 계열)이라 디코더가 없습니다. 마스크드 셀프 어텐션, "
                         "크로스 어텐션, 단계별 디코딩은 인코더-디코더 모델(예: ko-en-toy)을 고르면 볼 수 있습니다.",
                         "'{name}' is an encoder-only model (BERT-style): it has no decoder. Pick an "
                         "encoder-decoder model (e.g. ko-en-toy) to see masked self-attention, cross-attention "
                         "and step-by-step decoding."),
    "msg.no_output_encoder": (
        "인코더만 있는 모델은 출력 문장을 만들지 않습니다. 결과는 토큰마다 하나씩인 벡터 {shape}입니다.",
        "An encoder-only model produces no output text: its result is one vector per token, "
        "{shape}."),
    "msg.special_hidden": (
        "특수 토큰 숨김 켜짐: {tokens} 의 행과 열을 빼고, 각 행의 합이 다시 1이 되도록 정규화했습니다.",
        "Hiding special tokens is ON: the rows and columns of {tokens} are removed and each row "
        "is renormalised to sum to 1."),
    "msg.special_none": ("이 문장에는 숨길 특수 토큰이 없습니다.", "This sentence has no special tokens to hide."),
    "msg.pick_two_heads": ("비교할 헤드를 2~4개 고르세요.", "Pick 2 to 4 heads to compare."),
    "msg.diff_shapes": ("고른 첫 두 헤드의 모양이 달라서(셀프 vs 크로스) 차이 지도를 그릴 수 없습니다.",
                        "The first two heads have different shapes (self vs cross), so there is no difference map."),
    "msg.learned_positions": (
        "이 모델은 사인·코사인 대신 학습된 위치 임베딩을 씁니다(BERT). 아래 값은 학습된 표의 행입니다.",
        "This model learns its positions (BERT) instead of using sines and cosines: the values "
        "below are rows of a learned table."),
    "msg.no_target": ("인코더만 있는 모델이라 타깃(디코더) 쪽 임베딩이 없습니다.",
                      "An encoder-only model has no target (decoder) side."),
    "msg.bert_input": ("BERT 입력은 토큰 + 위치 + 토큰 타입 임베딩의 합에 LayerNorm을 한 것입니다.",
                       "A BERT input is LayerNorm(token + position + token-type embedding)."),
    "msg.same_tokenizer": ("{name}: {other}와(과) 같은 토크나이저", "{name}: same tokenizer as {other}"),
    "msg.tokenizer_failed": (
        "{name}: 토크나이저를 불러올 수 없음 ({reason})",
        "{name}: tokenizer unavailable ({reason})"),
    "msg.chart_budget": ("차트 {n}개", "{n} charts"),
    # common labels
    "label.layer": ("층 (layer)", "Layer"),
    "label.head": ("헤드 (head)", "Head"),
    "label.query_token": ("쿼리 토큰 i (식에 쓰는 행)", "Query token i (the row in the equations)"),
    "label.key_token": ("키 토큰 j (식에 쓰는 열)", "Key token j (the column in the equations)"),
    "label.auto_key": ("자동: 가중치가 가장 큰 키", "auto: the key with the largest weight"),
    "label.side": ("어느 쪽", "Side"),
    "label.source": ("소스 (인코더 입력)", "Source (encoder input)"),
    "label.target": ("타깃 (디코더 입력)", "Target (decoder input)"),
    "btn.csv": ("CSV 내려받기", "Download CSV"),
    "btn.npy": ("NPY 내려받기", "Download NPY"),
    "export.caption": ("그림은 차트 오른쪽 위 카메라 아이콘으로 PNG로 저장할 수 있습니다.",
                       "Save any chart as PNG with the camera icon at its top right."),
    # overview
    "overview.title": ("트랜스포머 탐험기", "Transformer Explorer"),
    "overview.intro": ("문장 하나가 'Attention Is All You Need'의 트랜스포머를 지나가는 과정을 단계별로 봅니다. "
                       "왼쪽에서 문장과 모델을 고르고, 아래 그림의 각 단계를 눌러 자세히 보세요.",
                       "Watch one sentence go through the Transformer of 'Attention Is All You Need', stage by "
                       "stage. Choose a sentence and a model on the left, then open any stage of the diagram."),
    "overview.input": ("입력 문장", "Input sentence"),
    "overview.output": ("모델 출력", "Model output"),
    "overview.output_empty": ("(빈 출력)", "(empty output)"),
    "overview.model": ("모델", "Model"),
    "overview.forward": ("순전파 시간", "Forward time"),
    "overview.decode": ("탐욕 디코딩 시간", "Greedy decoding time"),
    "overview.device": ("장치", "Device"),
    "overview.tokens": ("토큰 수 (입력 → 출력)", "Tokens (in → out)"),
    "overview.diagram": ("구조도 (실제 텐서 모양)", "Architecture (live tensor shapes)"),
    "overview.diagram_caption": ("B=1 (문장 하나), S=소스 길이 {S}, T=타깃 길이 {T}, D=d_model {D}, H=헤드 {H}, "
                                 "d_k={dk}, d_ff={dff}, V=어휘 {V}",
                                 "B=1 (one sentence), S=source length {S}, T=target length {T}, D=d_model {D}, "
                                 "H=heads {H}, d_k={dk}, d_ff={dff}, V=vocabulary {V}"),
    "overview.encoder": ("인코더", "Encoder"),
    "overview.decoder": ("디코더", "Decoder"),
    "overview.box_tokens": ("토큰 id", "Token ids"),
    "overview.box_tgt_tokens": ("타깃 토큰 id ([BOS] + 출력)", "Target token ids ([BOS] + output)"),
    "overview.box_embed": ("임베딩 × √d_model + 위치 인코딩", "Embedding × √d_model + positional encoding"),
    "overview.box_encoder_layers": ("인코더 층 × {n}: 셀프 어텐션 → Add & Norm → FFN → Add & Norm",
                                    "Encoder layer × {n}: self-attention → Add & Norm → FFN → Add & Norm"),
    "overview.box_decoder_layers": ("디코더 층 × {n}: 마스크드 셀프 어텐션 → 크로스 어텐션 → FFN (각각 Add & Norm)",
                                    "Decoder layer × {n}: masked self-attention → cross-attention → FFN "
                                    "(each with Add & Norm)"),
    "overview.box_memory": ("인코더 출력 (memory)", "Encoder output (memory)"),
    "overview.box_logits": ("선형층 → softmax → 다음 토큰", "Linear → softmax → next token"),
    "overview.box_heads": ("모든 층 × 모든 헤드의 어텐션", "Attention of every layer × every head"),
    "overview.open": ("열기: {page}", "Open: {page}"),
    "overview.qkv": ("Q/K/V", "Q/K/V"),
    "overview.attn": ("어텐션 가중치", "attention weights"),
    "overview.cross": ("크로스 어텐션", "cross-attention"),
    "overview.ffn": ("FFN 은닉층", "FFN hidden"),
    "overview.description": ("모델 설명", "About this model"),
    # tokens
    "tokens.title": ("토큰화", "Tokenization"),
    "tokens.intro": ("문장을 모델이 아는 조각(토큰)으로 자르고, 각 조각을 어휘 id로 바꿉니다. "
                     "빨간 칩은 어휘에 없는 [UNK], 점선 칩은 특수 토큰입니다.",
                     "The sentence is cut into pieces (tokens) the model knows, and each piece becomes a "
                     "vocabulary id. Red chips are unknown pieces ([UNK]); dashed chips are special tokens."),
    "tokens.source": ("입력 토큰 (소스)", "Input tokens (source)"),
    "tokens.target": ("출력 쪽 토큰: 디코더 입력 ([BOS] + 출력)", "Output side: decoder input ([BOS] + output)"),
    "tokens.counts": ("토큰 {n}개 · [UNK] {unk}개 · 특수 토큰 {special}개 · 단어 {words}개",
                      "{n} tokens · {unk} [UNK] · {special} special · {words} words"),
    "tokens.table": ("조각 ↔ 단어 표", "Piece ↔ word table"),
    "tokens.compare": ("다른 토크나이저로 같은 문장 자르기", "The same sentence through the other tokenizers"),
    "tokens.compare_caption": ("토큰화만 합니다 (모델 계산 없음).", "Tokenizing only (no model runs)."),
    "tokens.compare_none": ("비교할 다른 토크나이저가 없습니다.", "There is no other tokenizer to compare with."),
    "tokens.unk_title": ("어휘에 없는 조각 [UNK]", "unknown piece [UNK]"),
    "tokens.special_title": ("특수 토큰", "special token"),
    "col.pos": ("위치", "position"),
    "col.piece": ("조각", "piece"),
    "col.id": ("id", "id"),
    "col.kind": ("종류", "kind"),
    "col.word_index": ("단어 번호", "word #"),
    "col.word": ("원래 단어", "word"),
    "kind.normal": ("일반", "normal"),
    "kind.special": ("특수", "special"),
    "kind.unk": ("UNK", "UNK"),
    # embeddings
    "emb.title": ("임베딩과 위치 인코딩", "Embeddings and positional encoding"),
    "emb.intro": ("토큰 id마다 임베딩 행렬의 한 행을 꺼내 √d_model을 곱하고, 위치마다 정해진 사인·코사인 벡터(PE)를 "
                  "더합니다. 그 합이 인코더(소스)와 디코더(타깃)의 입력입니다.",
                  "Each token id picks one row of the embedding matrix, scaled by √d_model; a fixed sine/cosine "
                  "vector (PE) per position is added. The sum is the encoder (source) / decoder (target) input."),
    "emb.scaling": ("√d_model 스케일링", "The √d_model scaling"),
    "emb.scaling_off": ("이 모델은 임베딩에 √d_model을 곱하지 않습니다 (BERT).",
                        "This model does not scale its embeddings by √d_model (BERT)."),
    "emb.norms_caption": ("토큰별 벡터 크기(L2 노름): 스케일링 전후의 임베딩, PE, 그리고 합.",
                          "Per-token vector sizes (L2 norm): the embedding before and after scaling, PE, and the sum."),
    "emb.pe_heatmap": ("위치 인코딩 PE (위치 × 차원)", "Positional encoding PE (positions × dimensions)"),
    "emb.curves": (
        "고른 차원의 PE 곡선: 짝수 차원은 sin, 홀수 차원은 cos",
        "PE curves of chosen dimensions: even = sin, odd = cos"),
    "emb.dims": ("곡선으로 볼 차원", "Dimensions to plot"),
    "emb.similarity": ("PE · PEᵀ: 위치 벡터끼리의 내적 (가까운 위치일수록 비슷)",
                       "PE · PEᵀ: dot products between position vectors (nearby positions are alike)"),
    "emb.sum": ("토큰 임베딩 + 위치 인코딩 = 입력", "Token embedding + positional encoding = the input"),
    "emb.panel_embed": ("E[id]·√d", "E[id]·√d"),
    "emb.panel_pe": ("PE", "PE"),
    "emb.panel_type": ("토큰 타입", "token type"),
    "emb.panel_input": ("입력 X", "input X"),
    "col.token": ("토큰", "token"),
    "col.norm_raw": ("‖E[id]‖", "‖E[id]‖"),
    "col.norm_scaled": ("‖E[id]·√d‖", "‖E[id]·√d‖"),
    "col.norm_pe": ("‖PE‖", "‖PE‖"),
    "col.norm_input": ("‖X‖", "‖X‖"),
    # encoder
    "enc.title": ("인코더 층 하나씩", "The encoder, layer by layer"),
    "enc.intro": ("층과 헤드를 고르면, 입력 X가 Q·K·V, 헤드 나누기, QKᵀ/√d_k, 마스크, softmax, ·V, 이어 붙이기, W_O, "
                  "Add & Norm, FFN을 지나가는 과정을 실제 모양과 숫자로 보여 줍니다.",
                  "Pick a layer and a head: follow X through Q, K, V, the head split, QKᵀ/√d_k, the mask, softmax, "
                  "·V, concat, W_O, Add & Norm and the FFN, with live shapes and numbers."),
    "enc.chain": (
        "계산 순서 (쿼리 i, 키 j, 헤드 h의 실제 숫자)",
        "The chain (live numbers for query i, key j, head h)"),
    "enc.heads": (
        "층 {layer}의 모든 헤드 어텐션 (행 = 쿼리, 열 = 키)",
        "Every head of layer {layer} (rows = queries, columns = keys)"),
    "enc.head_detail": ("층 {layer} · 헤드 {head}: softmax 전 점수, 후 가중치, 그리고 이 헤드의 Q, K, V (토큰 × d_k)",
                        "Layer {layer} · head {head}: scores before and weights after softmax, and the head's "
                        "Q, K, V (tokens × d_k)"),
    "enc.qkv": ("헤드 {head}의 Q, K, V (토큰 × d_k)", "Head {head}'s Q, K, V (tokens × d_k)"),
    "enc.scores": ("헤드 {head}: softmax 전 점수와 후 가중치", "Head {head}: scores before and weights after softmax"),
    "enc.ffn": ("층 {layer}의 FFN 은닉 활성값 (토큰 × d_ff)", "Layer {layer}'s FFN hidden activations (tokens × d_ff)"),
    "enc.download": ("보이는 어텐션 행렬 내려받기 (층 {layer}, 헤드 {head})",
                     "Download the attention matrix shown (layer {layer}, head {head})"),
    "enc.download_layer": ("층 {layer}의 모든 헤드 가중치 내려받기 (CSV: 헤드, 쿼리, 키, 값)",
                           "Download every head's weights of layer {layer} (CSV: head, query, key, value)"),
    "dec.download_layer": ("층 {layer}의 모든 헤드 크로스 어텐션 가중치 내려받기",
                           "Download every head's cross-attention weights of layer {layer}"),
    "overview.causal": ("인과 마스크", "causal mask"),
    "enc.tokens_ij": ("i = {i}, j = {j}", "i = {i}, j = {j}"),
    # decoder
    "dec.title": ("디코더: 마스크드 셀프 어텐션, 크로스 어텐션, 단계별 디코딩",
                  "The decoder: masked self-attention, cross-attention, step-by-step decoding"),
    "dec.intro": ("디코더는 [BOS]로 시작해 한 번에 한 토큰씩 만듭니다. 인과 마스크 때문에 위치 t는 0..t만 볼 수 있고, "
                  "크로스 어텐션으로 인코더 출력(소스 토큰)을 읽습니다.",
                  "The decoder starts from [BOS] and makes one token at a time. The causal mask lets position t see "
                  "only 0..t; cross-attention reads the encoder output (the source tokens)."),
    "dec.masked": ("마스크드 셀프 어텐션: 마스크 → 점수 → 마스크 적용(−∞) → softmax (층 {layer}, 헤드 {head})",
                   "Masked self-attention: mask → scores → masked (−∞) → softmax (layer {layer}, head {head})"),
    "dec.self_heads": ("층 {layer}의 모든 헤드: 마스크드 셀프 어텐션 (타깃 × 타깃)",
                       "Every head of layer {layer}: masked self-attention (target × target)"),
    "dec.cross_heads": ("층 {layer}의 모든 헤드: 크로스 어텐션 (타깃 × 소스)",
                        "Every head of layer {layer}: cross-attention (target × source)"),
    "dec.mask_caption": ("−∞ 칸(회색)은 미래 위치라 볼 수 없습니다. softmax 후에는 정확히 0이 됩니다.",
                         "Cells at −∞ (grey) are future positions the query may not see; after softmax they are "
                         "exactly 0."),
    "dec.steps": ("단계별 디코딩", "Step-by-step decoding"),
    "dec.steps_caption": (
        "인과 마스크 덕분에, 한 번의 기록된 패스에서 위치 t의 행은 탐욕 디코딩의 t단계가 본 것과 같습니다.",
        "Thanks to the causal mask, row t of the one recorded pass is exactly what greedy decoding "
        "saw at step t."),
    "dec.step": ("단계 t", "Step t"),
    "dec.topk": ("상위 k개", "Top k"),
    "dec.so_far": ("지금까지의 디코더 입력", "Decoder input so far"),
    "dec.chosen": ("고른 토큰 (argmax)", "Chosen token (argmax)"),
    "dec.topk_title": ("단계 {t}의 다음 토큰 확률 (softmax(logits), 상위 {k}개)",
                       "Next-token probabilities at step {t} (softmax of logits, top {k})"),
    "dec.sources_title": ("단계 {t}에서 각 헤드가 본 소스 토큰 (크로스 어텐션, 모든 층 × 헤드)",
                          "Source tokens each head looked at in step {t} (cross-attention, every layer × head)"),
    "dec.download_self": ("마스크드 셀프 어텐션 가중치", "Masked self-attention weights"),
    "dec.download_cross": ("크로스 어텐션 가중치", "Cross-attention weights"),
    # heads
    "heads.title": ("헤드 비교", "Compare heads"),
    "heads.intro": ("헤드 2~4개를 나란히 놓고 차이를 봅니다. 아래 표와 지도는 모든 층의 모든 헤드를 요약합니다.",
                    "Put 2 to 4 heads side by side and see their difference. The table and maps below summarise "
                    "every head of every layer."),
    "heads.hide_special": ("특수 토큰 숨기기 (행 재정규화)", "Hide special tokens (renormalise rows)"),
    "heads.pick": ("비교할 헤드 (2~4개)", "Heads to compare (2 to 4)"),
    "heads.compare_title": ("고른 헤드 나란히 보기", "The chosen heads side by side"),
    "heads.stats": ("모든 헤드의 통계 (열 제목을 눌러 정렬)", "Statistics of every head (click a column to sort)"),
    "heads.stats_caption": ("엔트로피(비트): 낮을수록 한 곳에 집중 · 평균 거리: 쿼리와 키 위치 차이의 가중 평균 · "
                            "특수 비중: 특수 토큰에 준 어텐션 · 대각/이전/역대각: a[i,i], a[i,i−1], a[i,n−1−i]의 평균",
                            "Entropy (bits): lower = more focused · mean distance: weighted mean |query − key| "
                            "position · special share: attention on special tokens · diagonal / previous / "
                            "anti-diagonal: mean of a[i,i], a[i,i−1], a[i,n−1−i]"),
    "heads.similarity": (
        "헤드 유사도: 1 − 젠슨-섀넌 발산 ({kind})",
        "Head similarity: 1 − Jensen-Shannon divergence ({kind})"),
    "heads.similarity_kind": ("유사도를 볼 어텐션 종류", "Attention kind for the similarity map"),
    "heads.overview": ("모든 층 × 모든 헤드 한눈에 보기 (한 그림)", "All layers × all heads at a glance (one figure)"),
    "heads.overview_caption": (
        "한 칸 = 헤드 하나의 어텐션 지도 (행 = 쿼리, 열 = 키). 긴 문장은 칸마다 평균 내어 줄였습니다.",
        "One tile = one head's map (rows = queries, columns = keys). Long sentences are "
        "averaged down per tile."),
    "heads.download": ("고른 헤드들의 행렬 내려받기", "Download the chosen heads' matrices"),
    "kind.encoder.self_attn": ("인코더 셀프", "encoder self"),
    "kind.decoder.self_attn": ("디코더 셀프(마스크)", "decoder self (masked)"),
    "kind.decoder.cross_attn": ("크로스", "cross"),
    "stat.kind": ("종류", "kind"),
    "stat.layer": ("층", "layer"),
    "stat.head": ("헤드", "head"),
    "stat.entropy": ("엔트로피(비트)", "entropy (bits)"),
    "stat.distance": ("평균 거리", "mean distance"),
    "stat.special": ("특수 토큰 비중", "special share"),
    "stat.diagonal": ("대각", "diagonal"),
    "stat.previous": ("이전 토큰", "previous token"),
    "stat.anti_diagonal": ("역대각", "anti-diagonal"),
    # chain steps
    "step.x": ("입력 X (이 층에 들어오는 값)", "Input X (what enters this layer)"),
    "step.qkv": ("Q, K, V 투영", "Q, K, V projections"),
    "step.split": ("헤드로 나누기", "Split into heads"),
    "step.scores": ("점수 QKᵀ / √d_k", "Scores QKᵀ / √d_k"),
    "step.mask": ("마스크", "Mask"),
    "step.softmax": ("softmax → 어텐션 가중치", "softmax → attention weights"),
    "step.context": ("가중치 · V", "weights · V"),
    "step.concat": ("헤드 이어 붙이기 (concat)", "Concatenate heads"),
    "step.wo": ("출력 투영 W_O", "Output projection W_O"),
    "step.addnorm1": ("Add & Norm (어텐션 뒤)", "Add & Norm (after attention)"),
    "step.ffn": ("위치별 피드포워드 FFN", "Position-wise feed-forward FFN"),
    "step.addnorm2": ("Add & Norm (FFN 뒤)", "Add & Norm (after the FFN)"),
    # figures
    "fig.query": ("쿼리", "query"),
    "fig.key": ("키", "key"),
    "fig.query_axis": ("쿼리 토큰 (행)", "query token (row)"),
    "fig.key_axis": ("키 토큰 (열)", "key token (column)"),
    "fig.weight": ("가중치", "weight"),
    "fig.score": ("점수", "score"),
    "fig.mask": ("마스크", "mask"),
    "fig.allowed": ("볼 수 있음", "may attend"),
    "fig.blocked": ("막힘", "blocked"),
    "fig.head_n": ("헤드 {head}", "head {head}"),
    "fig.mask_panel": ("① 인과 마스크", "① causal mask"),
    "fig.scores_panel": ("② 점수 QKᵀ/√d_k", "② scores QKᵀ/√d_k"),
    "fig.masked_panel": ("③ 마스크 적용 (−∞)", "③ masked (−∞)"),
    "fig.weights_panel": ("④ softmax 가중치", "④ softmax weights"),
    "fig.scores_before": ("softmax 전 점수", "scores before softmax"),
    "fig.weights_after": ("softmax 후 가중치", "weights after softmax"),
    "fig.token": ("토큰", "token"),
    "fig.token_axis": ("토큰", "token"),
    "fig.dim": ("차원", "dim"),
    "fig.dim_axis": ("차원", "dimension"),
    "fig.value": ("값", "value"),
    "fig.position": ("위치", "position"),
    "fig.position_axis": ("위치", "position"),
    "fig.pe_dim": ("차원 {dim} ({fn})", "dim {dim} ({fn})"),
    "fig.pe_traced": ("차원 {dim} (기록값)", "dim {dim} (traced)"),
    "fig.pe_value": ("PE 값", "PE value"),
    "fig.probability": ("확률", "probability"),
    "fig.candidate_axis": ("다음 토큰 후보", "next-token candidate"),
    "fig.head": ("헤드", "head"),
    "fig.layer": ("층", "layer"),
    "fig.head_axis": ("헤드", "head"),
    "fig.layer_axis": ("층", "layer"),
    "fig.source_token": ("소스 토큰", "source token"),
    "fig.source_axis": ("소스 토큰", "source token"),
    "fig.layer_head_axis": ("층 · 헤드", "layer · head"),
    "fig.difference": ("차이 A − B", "difference A − B"),
    "fig.similarity": ("유사도", "similarity"),
    "fig.hidden_unit": ("은닉 유닛", "hidden unit"),
    "fig.activation": ("활성값", "activation"),
}


# Each feature keeps its strings in its own module (viz/strings_<feature>.py, a dict STRINGS of the same
# form), merged here once; a key defined twice is an error, so features never silently override each other.
def _merge(*modules) -> None:
    for module in modules:
        clash = STRINGS.keys() & module.STRINGS.keys()
        if clash:
            raise KeyError(f"UI string keys defined twice: {sorted(clash)}")
        STRINGS.update(module.STRINGS)


from viz import strings_lesson, strings_nav  # noqa: E402

_merge(strings_nav)
_merge(strings_lesson)
from viz import strings_lab  # noqa: E402

_merge(strings_lab)
from viz import strings_whatif  # noqa: E402

_merge(strings_whatif)
from viz import strings_generation  # noqa: E402

_merge(strings_generation)
from viz import strings_vocab  # noqa: E402

_merge(strings_vocab)
from viz import strings_history  # noqa: E402

_merge(strings_history)


def t(key: str, lang: str = DEFAULT_LANG, **values) -> str:
    """The string `key` in `lang` ('ko' or 'en'), with `{placeholders}` filled from `values`."""
    korean, english = STRINGS[key]
    text = english if lang == "en" else korean
    return text.format(**values) if values else text


_MARKDOWN_SPECIALS = set("\\`*_{}[]()#+-.!|<>~$:=")


def md_escape(value: object) -> str:
    """Backslash-escape Markdown (and Streamlit's :directive: / $math$) characters: a value shown as text."""
    return "".join("\\" + c if c in _MARKDOWN_SPECIALS else c for c in str(value))
