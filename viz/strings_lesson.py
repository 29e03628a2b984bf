"""UI strings of the guided lesson (/lesson) (merged into viz.i18n.STRINGS). Key -> (Korean, English)."""

STRINGS: dict[str, tuple[str, str]] = {
    "nav.lesson": ("수업", "Lesson"),
    "lesson.page_title": ("수업: 논문 따라 한 걸음씩", "Lesson: the paper, one step at a time"),
    "lesson.intro": ("사이드바의 문장이 트랜스포머를 지나가는 길을 \"Attention Is All You Need\"의 순서대로 "
                     "따라갑니다. 모든 그림과 숫자는 이 문장의 실제 계산에서 나왔습니다.",
                     "Follow the sidebar's sentence through the Transformer in the order of \"Attention Is All You "
                     "Need\". Every picture and number comes from this sentence's real forward pass."),
    "lesson.step_of": ("{n}단계 / {total}", "Step {n} of {total}"),
    "lesson.prev": ("이전", "Previous"),
    "lesson.next": ("다음", "Next"),
    "lesson.jump": ("단계로 이동", "Go to step"),
    "lesson.present": ("프로젝터 모드", "Projector mode"),
    "lesson.present_help": ("사이드바와 메뉴를 숨기고 글자와 눈금을 크게, 색각 이상에도 구별되는 색(cividis)으로 "
                            "보여 줍니다. → / ← 키로 단계를 넘깁니다.",
                            "Hides the sidebar and menus, enlarges text and tick labels and uses a "
                            "colour-blind-safe scale (cividis). → / ← move between steps."),
    "lesson.keys": ("키보드: → 다음, ← 이전", "Keyboard: → next, ← previous"),
    "lesson.shape": ("모양", "Shape"),
    "lesson.more": ("자세히: {page}", "More: {page}"),
    "lesson.focus": ("따라가는 위치: 층 {layer}, 헤드 {head}, 쿼리 {i} ({token})",
                     "Following: layer {layer}, head {head}, query {i} ({token})"),
    "lesson.predict": ("먼저 예상해 보세요", "Predict first"),
    "lesson.reveal": ("정답 보기", "Reveal"),
    "lesson.your_guess": ("내 예상", "Your guess"),
    "lesson.right": ("정답입니다! ", "Right! "),
    "lesson.wrong": ("아쉽네요. 정답: {answer}. ", "Not quite. The answer: {answer}. "),
    "lesson.no_guess": ("정답: {answer}. ", "The answer: {answer}. "),
    "lesson.hidden": ("예상을 고른 뒤 '정답 보기'를 누르면 그림과 식이 나타납니다.",
                      "Pick a guess, then press Reveal: the figure and the equation appear."),
    "lesson.join": ("휴대폰으로 같이 보기", "Join from a phone"),
    "lesson.join_caption": ("QR 코드를 찍으면 같은 문장, 같은 단계가 열립니다.",
                            "Scan the code to open the same sentence at the same step."),
    "lesson.join_lan": ("이 컴퓨터의 네트워크 주소({host})를 넣었습니다. 휴대폰이 같은 네트워크에 있어야 합니다.",
                        "Uses this computer's network address ({host}); phones must be on the same network."),
    "lesson.join_local": ("이 주소(localhost)는 이 컴퓨터에서만 열립니다. 서버의 네트워크 주소로 접속해 주세요.",
                          "This address (localhost) only opens on this computer: open the app by the server's "
                          "network address instead."),
    "lesson.absent": ("이 모델({name})은 인코더만 있어서 이 단계(디코더)가 없습니다.",
                      "This model ({name}) is encoder-only: it has no decoder, so this step is absent."),
    "lesson.skipped": ("이 모델은 인코더만 있습니다. 디코더 단계({steps})는 건너뜁니다: 문장을 만들어 내지 않고, "
                       "문장의 각 토큰을 벡터로 바꾸는 것까지가 이 모델의 일입니다.",
                       "This model is encoder-only. The decoder steps ({steps}) are skipped: it writes no "
                       "sentence; turning each token into a vector is all it does."),
    "lesson.unk": ("모르는 토큰", "unknown token"),
    "lesson.special": ("특수 토큰", "special token"),
    "lesson.col.pos": ("위치", "position"),
    "lesson.col.token": ("토큰", "token"),
    "lesson.col.id": ("id", "id"),
    "lesson.output_axis": ("만들어지는 출력 토큰 (행)", "output token being written (row)"),
    "lesson.kind.enc": ("인코더 셀프 어텐션", "encoder self-attention"),
    "lesson.kind.dec": ("디코더 셀프 어텐션 (마스크)", "decoder self-attention (masked)"),
    "lesson.kind.cross": ("크로스 어텐션", "cross-attention"),
    "lesson.q.tokens": ("이 문장은 토큰 몇 개가 될까요? (특수 토큰 포함)",
                        "How many tokens will this sentence become (special tokens included)?"),
    "lesson.q.q_shape": ("헤드 하나의 Q는 어떤 모양일까요? (배치 차원 제외, 헤드 {h}개, d_model = {d})",
                         "What shape is Q for ONE head (without the batch dimension; {h} heads, d_model = {d})?"),
    "lesson.q.strongest": ("헤드 {head}에서 위치 {i}의 '{token}'은(는) 어느 토큰에 가장 큰 가중치를 줄까요?",
                           "In head {head}, which token will '{token}' (position {i}) give the most weight?"),
    "lesson.q.causal": ("디코더 위치 {p} ('{token}')은(는) 어느 위치들을 볼 수 있을까요? 모두 고르세요.",
                        "Which positions can decoder position {p} ('{token}') see? Pick all of them."),
    "lesson.q.cross": ("'{token}'을(를) 쓸 때 모델은 원문의 어느 토큰을 가장 많이 볼까요?",
                       "While writing '{token}', which source token will the model look at most?"),
    "lesson.q.next": ("지금까지 쓴 말: \"{so_far}\". 다음 토큰은 무엇일까요?",
                      "Written so far: \"{so_far}\". Which token comes next?"),
    "lesson.tokens.title": ("글자에서 토큰으로", "From text to tokens"),
    "lesson.tokens.body": ("컴퓨터는 글자를 바로 계산할 수 없어서, 먼저 문장을 토큰이라는 조각으로 자릅니다. "
                           "조각은 단어일 수도, 단어의 일부일 수도 있습니다. 문장 끝이나 시작을 알리는 특수 토큰도 "
                           "붙습니다.",
                           "A computer cannot compute with letters directly, so the sentence is first cut into "
                           "pieces called tokens. A piece can be a word or part of a word; special tokens mark the "
                           "start or the end."),
    "lesson.tokens.reveal": ("이 문장은 토큰 {n}개가 되었습니다.", "This sentence became {n} tokens."),
    "lesson.ids.title": ("토큰에서 번호(id)로", "From tokens to ids"),
    "lesson.ids.body": ("각 토큰은 어휘 사전의 번호로 바뀝니다. 사전에는 {vocab}개의 토큰이 있고, 모델이 실제로 "
                        "받는 것은 이 번호들의 줄입니다.",
                        "Each token becomes its number in the vocabulary ({vocab} tokens). What the model really "
                        "receives is this row of numbers."),
    "lesson.embedding.title": ("임베딩 × √d_model", "Embedding × √d_model"),
    "lesson.embedding.body": ("번호마다 길이 {d}의 벡터가 하나씩 있는 큰 표(임베딩)가 있습니다. 토큰의 번호로 그 "
                              "행을 꺼내고, 논문대로 √{d} ≈ {sqrt}를 곱합니다. 그림의 한 줄이 토큰 하나의 "
                              "벡터입니다.",
                              "A big table (the embedding) holds one vector of length {d} per id. Each token's row "
                              "is looked up and, as in the paper, multiplied by √{d} ≈ {sqrt}. One row of the "
                              "picture is one token's vector."),
    "lesson.embedding.no_scale": ("이 모델(BERT 계열)은 √d_model을 곱하지 않습니다.",
                                  "This model (BERT family) does not multiply by √d_model."),
    "lesson.position.title": ("위치 인코딩", "Positional encoding"),
    "lesson.position.body": ("어텐션만으로는 단어의 순서를 알 수 없습니다. 그래서 위치마다 다른 사인·코사인 무늬를 "
                             "벡터에 더합니다. 그림의 한 줄이 한 위치의 무늬입니다: 앞쪽 차원은 빨리, 뒤쪽 차원은 "
                             "천천히 변합니다.",
                             "Attention alone cannot tell the order of the words, so a different sine/cosine "
                             "pattern is added for each position. One row of the picture is one position's "
                             "pattern: early dimensions change fast, later ones slowly."),
    "lesson.position.learned": ("이 모델은 사인·코사인 대신 위치마다 학습한 벡터를 더합니다.",
                                "This model adds a learned vector per position instead of sines and cosines."),
    "lesson.scores.title": ("쿼리 하나의 점수 Q·K", "One query's scores Q·K"),
    "lesson.scores.body": ("'{token}'의 쿼리 벡터 q를 모든 토큰의 키 벡터 k와 내적합니다. 값이 클수록 "
                           "'{token}'에게 그 토큰이 더 중요합니다. 숫자가 너무 커지지 않도록 √d_k = √{d_k}로 "
                           "나눕니다.",
                           "The query vector q of '{token}' is multiplied (dot product) with every token's key "
                           "vector k. The bigger the value, the more that token matters to '{token}'. Dividing by "
                           "√d_k = √{d_k} keeps the numbers from growing too large."),
    "lesson.scores.fig": ("'{token}'의 점수 (층 0, 헤드 {head})", "Scores of '{token}' (layer 0, head {head})"),
    "lesson.scores.reveal": ("헤드 하나의 Q는 [{s}, {d_k}]입니다: 토큰 {s}개, 각각 d_k = {d} / {h} = {d_k}차원.",
                             "Q for one head is [{s}, {d_k}]: {s} tokens, each with d_k = {d} / {h} = {d_k} "
                             "dimensions."),
    "lesson.softmax.title": ("softmax: 점수를 비율로", "softmax: scores become shares"),
    "lesson.softmax.body": ("softmax는 점수들을 0과 1 사이의 비율로 바꾸고, 합이 정확히 1이 되게 합니다. 큰 점수는 "
                            "더 커진 몫을 가져갑니다. 이 비율이 '{token}'이(가) 각 토큰을 얼마나 보는지입니다.",
                            "softmax turns the scores into shares between 0 and 1 that add up to exactly 1; a "
                            "large score takes an even larger share. These shares say how much '{token}' looks at "
                            "each token."),
    "lesson.softmax.fig": ("'{token}'의 어텐션 가중치 (층 0, 헤드 {head})",
                           "Attention weights of '{token}' (layer 0, head {head})"),
    "lesson.softmax.reveal": ("'{token}'은(는) '{target}'에 가장 큰 가중치 {w}를 줍니다.",
                              "'{token}' gives its largest weight, {w}, to '{target}'."),
    "lesson.values.title": ("가중치 · V: 정보 모으기", "weights · V: gathering information"),
    "lesson.values.body": ("각 토큰은 값 벡터 v도 가지고 있습니다. 가중치만큼 v들을 섞어 더하면 새 벡터가 "
                           "나옵니다: 주변 토큰에서 필요한 정보를 모은 결과입니다. 헤드 하나에서는 길이 d_k = "
                           "{d_k}입니다.",
                           "Every token also has a value vector v. Mixing the v's in proportion to the weights "
                           "gives a new vector: the information gathered from the other tokens. In one head it has "
                           "length d_k = {d_k}."),
    "lesson.values.panel": ("가중치 · V", "weights · V"),
    "lesson.multihead.title": ("멀티헤드: 나누고 이어 붙이기", "Multi-head: split and concatenate"),
    "lesson.multihead.body": ("같은 계산을 헤드 {h}개가 따로 합니다. 벡터 {d}차원을 {h}조각(각 {d_k}차원)으로 "
                              "나눠서, 헤드마다 다른 관계를 봅니다. 결과를 다시 이어 붙이고 W_O를 곱해 {d}차원으로 "
                              "돌아갑니다.",
                              "{h} heads do the same computation separately: the {d} dimensions are split into {h} "
                              "pieces of {d_k}, so each head can look for a different relation. The results are "
                              "concatenated again and multiplied by W_O, back to {d} dimensions."),
    "lesson.multihead.fig": ("층 0의 모든 헤드", "Every head of layer 0"),
    "lesson.addnorm.title": ("Add & Norm", "Add & Norm"),
    "lesson.addnorm.body": ("어텐션의 결과를 원래 입력에 더하고(잔차 연결), LayerNorm으로 각 토큰 벡터의 평균을 0, "
                            "분산을 1로 맞춥니다. 더하기 덕분에 원래 정보가 사라지지 않고, 정규화 덕분에 숫자가 "
                            "안정됩니다.",
                            "The attention result is added to the original input (the residual connection) and "
                            "LayerNorm rescales each token's vector to mean 0 and variance 1. The addition keeps "
                            "the original information; the normalisation keeps the numbers steady."),
    "lesson.addnorm.pre_ln": ("이 모델은 pre-LN입니다: LayerNorm을 서브층 앞에 둡니다.",
                              "This model is pre-LN: LayerNorm comes before each sublayer."),
    "lesson.ffn.title": ("피드포워드 FFN", "Feed-forward FFN"),
    "lesson.ffn.body": ("이제 토큰마다 따로 작은 신경망을 통과합니다: {d}차원을 {d_ff}차원으로 넓히고, 음수를 "
                        "0으로 자른 뒤 다시 {d}차원으로 줄입니다. 어텐션이 '모으기'라면 FFN은 모은 것을 "
                        "'생각하기'입니다.",
                        "Now each token goes through a small network on its own: {d} dimensions are widened to "
                        "{d_ff}, negatives are cut to zero, and it is narrowed back to {d}. If attention gathers, "
                        "the FFN thinks about what was gathered."),
    "lesson.encoder_layer.title": ("인코더 층 전체", "A whole encoder layer"),
    "lesson.encoder_layer.body": ("어텐션 → Add & Norm → FFN → Add & Norm이 인코더 층 하나입니다. 이 모델은 이것을 "
                                  "{n}번 쌓았습니다. 마지막 출력(memory)에는 토큰마다 문장 전체의 맥락이 담겨 "
                                  "있습니다.",
                                  "Attention → Add & Norm → FFN → Add & Norm is one encoder layer; this model "
                                  "stacks {n} of them. The last output (the memory) holds, for every token, the "
                                  "context of the whole sentence."),
    "lesson.encoder_layer.in": ("입력 x", "input x"),
    "lesson.encoder_layer.after": ("{n}층 뒤", "after layer {n}"),
    "lesson.causal_mask.title": ("디코더의 마스크: 미래는 보지 않기", "The decoder's mask: no peeking ahead"),
    "lesson.causal_mask.body": ("디코더는 번역을 한 토큰씩 씁니다. 학습할 때 정답 문장 전체가 들어가므로, 아직 "
                                "쓰지 않은 뒤쪽 토큰을 보지 못하게 점수를 −∞로 가립니다. softmax 뒤 그 자리는 0이 "
                                "됩니다.",
                                "The decoder writes the translation one token at a time. The whole target sentence "
                                "is fed in at once, so the scores of later tokens, not written yet, are covered "
                                "with −∞; after softmax they become 0."),
    "lesson.causal_mask.fig": ("마스크된 점수 (디코더 층 0, 헤드 0; 빈칸 = −∞)",
                               "Masked scores (decoder layer 0, head 0; blank = −∞)"),
    "lesson.causal_mask.reveal": ("위치 {p}는 자기 자신과 앞쪽만 봅니다: {seen}.",
                                  "Position {p} sees only itself and what came before: {seen}."),
    "lesson.cross_attention.title": ("크로스 어텐션: 어순 바꾸기", "Cross-attention: the reordering"),
    "lesson.cross_attention.body": ("디코더의 쿼리가 인코더의 출력(memory)을 봅니다: 영어 단어를 쓸 때마다 한국어 "
                                    "문장의 어디를 읽을지 고르는 것입니다. 한국어는 동사가 끝에, 영어는 주어 바로 "
                                    "뒤에 오므로 그림의 밝은 칸이 대각선에서 벗어납니다.",
                                    "The decoder's queries look at the encoder's output (the memory): for every "
                                    "word it writes, it chooses where to read in the source. Korean puts the verb "
                                    "last and English right after the subject, so the bright cells leave the "
                                    "diagonal."),
    "lesson.cross_attention.fig": ("크로스 어텐션 (층 {layer}, 헤드 평균)",
                                   "Cross-attention (layer {layer}, heads averaged)"),
    "lesson.cross_attention.reveal": ("'{token}'을(를) 쓸 때 '{src}'을(를) 가장 많이 봅니다 (가중치 {w}).",
                                      "While writing '{token}' it reads '{src}' most (weight {w})."),
    "lesson.next_token.title": ("다음 토큰의 확률", "Next-token probabilities"),
    "lesson.next_token.body": ("디코더의 마지막 벡터에 어휘 전체({v}개)의 점수를 매기고 softmax로 확률을 만듭니다. "
                               "가장 확률이 높은 토큰을 쓰고, 그것을 다시 입력에 붙여 다음 토큰을 구합니다.",
                               "The decoder's last vector gets a score for every token of the vocabulary ({v}) and "
                               "softmax turns them into probabilities. The most likely token is written, appended "
                               "to the input, and the next one is computed."),
    "lesson.next_token.fig": ("{t}단계의 다음 토큰 후보", "Next-token candidates at step {t}"),
    "lesson.next_token.reveal": ("모델은 '{token}'을(를) 골랐습니다 (확률 {p}).", "The model chose '{token}' ({p})."),
    "lesson.full_picture.title": ("전체 그림", "The full picture"),
    "lesson.full_picture.body": ("지금까지 본 것이 모두 합쳐진 모습입니다: 모든 층의 모든 헤드({n}개)가 이 "
                                 "문장에서 본 어텐션. 토큰 → 벡터 → 인코더 → 디코더 → 다음 토큰, 이것이 "
                                 "트랜스포머입니다.",
                                 "Everything so far, together: the attention of every head of every layer ({n} in "
                                 "all) on this sentence. Tokens → vectors → encoder → decoder → next token: that "
                                 "is the Transformer."),
    "lesson.full_picture.body_encoder": ("인코더의 모든 층, 모든 헤드({n}개)가 이 문장에서 본 어텐션입니다. "
                                         "인코더만 있는 모델은 여기까지: 토큰마다 문맥을 담은 벡터를 만들어 "
                                         "검색이나 분류에 씁니다.",
                                         "The attention of every encoder layer and head ({n} in all) on this "
                                         "sentence. An encoder-only model ends here: a context-aware vector per "
                                         "token, used for search or classification."),
}
