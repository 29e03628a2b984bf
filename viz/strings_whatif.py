"""UI strings of the /experiments page (what-if interventions) and the heads page's importance column
(merged into viz.i18n.STRINGS)."""

STRINGS: dict[str, tuple[str, str]] = {
    "nav.experiments": ("실험 (What if)", "What if"),
    "whatif.title": ("실험: 이걸 바꾸면 어떻게 될까?", "What if…? Experiments on the model"),
    "whatif.intro": (
        "헤드를 끄거나, 위치 인코딩이나 인과 마스크를 없애거나, 단어 순서를 섞은 뒤 실행해 보세요. 원래 출력과 바뀐 "
        "출력을 나란히 보여 줍니다. 그림으로는 헤드가 어디를 보는지만 알 수 있지만, 꺼 보면 헤드가 무슨 일을 하는지 "
        "알 수 있습니다. 실험 내용은 주소(URL)에 저장되므로 링크로 그대로 공유할 수 있습니다.",
        "Switch heads off, remove positional encoding or the causal mask, or shuffle the words, then run. The "
        "original and the changed output are shown side by side. Pictures tell where a head looks; switching it "
        "off tells what it does. The experiment is kept in the URL, so a link reproduces it."),
    "whatif.heads_off": ("**끌 헤드** (층 × 헤드, 어텐션 종류별)",
                         "**Heads to switch off** (layers × heads, per kind of attention)"),
    "whatif.head_help": ("{kind} 어텐션, 층 {layer}, 헤드 {head}", "{kind} attention, layer {layer}, head {head}"),
    "whatif.method": ("끄는 방법", "How a head is switched off"),
    "whatif.method_zero": ("0으로 (출력 지우기)", "zero (erase its output)"),
    "whatif.method_mean": ("평균으로 바꾸기", "mean-ablate"),
    "whatif.method_uniform": ("고르게 보기", "uniform attention"),
    "whatif.method_help": (
        "0으로: 헤드의 출력(context)을 0으로 만듭니다. 평균으로: 고정된 참고 문장들에서 그 헤드가 낸 평균 출력으로 "
        "바꿉니다(입력에 따라 달라지는 정보만 지움). 고르게 보기: 가중치를 허용된 키(마스크가 True인 곳)에 똑같이 "
        "나눠 줍니다.",
        "zero: the head's output (context) becomes 0. mean: replaced by the head's mean output over a fixed "
        "reference set of sentences (removes only what depends on the input). uniform: its weights are spread "
        "evenly over the allowed keys (True in the mask)."),
    "whatif.pe": ("위치 인코딩 없애기", "Remove positional encoding"),
    "whatif.pe_keep": ("그대로", "keep"),
    "whatif.pe_src": ("원문(인코더)", "source (encoder)"),
    "whatif.pe_tgt": ("번역(디코더)", "target (decoder)"),
    "whatif.pe_both": ("둘 다", "both"),
    "whatif.pe_help": ("위치 벡터를 0으로 바꿉니다: 모델은 단어가 몇 번째인지 알 수 없게 됩니다.",
                       "Positional vectors become zero: the model no longer knows where each word stands."),
    "whatif.nocausal": ("인과 마스크 없애기", "Remove the causal mask"),
    "whatif.nocausal_help": ("디코더 셀프 어텐션이 뒤쪽(미래) 토큰도 보게 됩니다.",
                             "Decoder self-attention may look at later (future) tokens."),
    "whatif.shuffle": ("원문 단어 섞기", "Shuffle the source words"),
    "whatif.shuffle_help": ("같은 단어들을 순서만 바꿔 입력합니다(문장 끝 문장부호는 그대로). 시드가 같으면 같은 순서.",
                            "The same words in another order (final punctuation stays). Same seed, same order."),
    "whatif.shuffle_seed": ("섞기 시드", "Shuffle seed"),
    "whatif.run": ("실행", "Run"),
    "whatif.clear": ("모두 해제", "Clear all"),
    "whatif.nothing": ("아직 아무것도 바꾸지 않았습니다. 위에서 헤드를 고르거나 스위치를 켠 뒤 **실행**을 누르세요.",
                       "Nothing is changed yet. Pick heads or switches above and press **Run**."),
    "whatif.running": ("실험: {what}", "Experiment: {what}"),
    "whatif.desc_off": ("헤드 끄기 {heads} ({method})", "heads off {heads} ({method})"),
    "whatif.desc_pe": ("위치 인코딩 없음: {side}", "no positional encoding: {side}"),
    "whatif.desc_causal": ("인과 마스크 없음", "no causal mask"),
    "whatif.desc_shuffle": ("단어 섞기 (시드 {seed})", "words shuffled (seed {seed})"),
    "whatif.computing": ("바뀐 모델로 번역하는 중…", "Running the changed model…"),
    "whatif.failed": ("이 실험을 실행할 수 없습니다: {reason}", "This experiment cannot run: {reason}"),
    "whatif.bad_url": ("주소에 있는 실험 설정을 쓸 수 없어 무시했습니다: {reason}",
                       "The experiment in the URL was ignored: {reason}"),
    "whatif.shuffled_input": ("**섞은 입력:**", "**Shuffled input:**"),
    "whatif.original": ("원래 모델", "Original model"),
    "whatif.patched": ("바꾼 모델", "Changed model"),
    "whatif.same_output": ("출력이 그대로입니다: 이 개입은 이 문장의 번역을 바꾸지 않았습니다.",
                           "The output is unchanged: this intervention does not change this sentence's output."),
    "whatif.changed_output": ("출력이 바뀌었습니다: 토큰 {n}개가 달라졌습니다(색으로 표시).",
                              "The output changed: {n} token(s) differ (highlighted)."),
    "whatif.causal_note": (
        "인과 마스크를 없애면 생성할 때 마지막 위치는 여전히 미래가 없지만(아직 만들지 않았으니까), 앞쪽 위치들이 "
        "뒤에 생긴 토큰을 섞어 보게 됩니다. 아래 그림의 기록된 패스(teacher forcing)에서는 각 행이 정답인 다음 "
        "단어를 볼 수 있으므로, 그림과 생성 결과가 정확히 같지 않을 수 있습니다.",
        "Without the causal mask, the last position still has no future while generating (it does not exist "
        "yet), but earlier positions now mix in the tokens that came after them. In the recorded teacher-forced "
        "pass below every row can see the next word (the answer), so pictures and generated output may differ."),
    "whatif.prob_heading": ("단계별: 원래 토큰의 확률", "Step by step: probability of the original token"),
    "whatif.prob_title": ("원래 출력의 각 토큰 확률: 원래 모델 vs 바꾼 모델",
                          "Probability of each original output token: original vs changed model"),
    "whatif.prob_caption": (
        "둘 다 기록된 패스입니다: 원래 트레이스, 그리고 바꾼 모델을 **원래 출력** 위에서 teacher forcing으로 한 번 "
        "돌린 패스. 표의 마지막 열은 바꾼 모델이 스스로 생성한 토큰입니다(자체 트레이스).",
        "Both from recorded passes: the original trace, and one teacher-forced pass of the changed model over "
        "the **original output**. The table's last column is the changed model's own output (its own trace)."),
    "whatif.before": ("이전 (원래 모델)", "before (original)"),
    "whatif.after": ("이후 (바꾼 모델)", "after (changed)"),
    "whatif.difference": ("이전 − 이후", "before − after"),
    "whatif.axis_step": ("생성 단계의 원래 토큰", "original token at each step"),
    "whatif.axis_prob": ("확률", "probability"),
    "whatif.axis_token": ("토큰", "token"),
    "whatif.axis_change": ("1 − 코사인 유사도", "1 − cosine similarity"),
    "whatif.col_step": ("단계", "step"),
    "whatif.col_token": ("원래 토큰", "original token"),
    "whatif.col_before": ("확률 (이전)", "p before"),
    "whatif.col_after": ("확률 (이후)", "p after"),
    "whatif.col_patched": ("바꾼 모델의 토큰", "changed model's token"),
    "whatif.attn_heading": ("헤드 하나의 어텐션: 이전과 이후", "One head's attention, before and after"),
    "whatif.attn_kind": ("어텐션 종류", "Attention"),
    "whatif.after_on": ("'이후' 그림", "'After' map"),
    "whatif.after_forced": ("원래 출력 위에서", "on the original output"),
    "whatif.after_own": ("자기 출력 위에서", "on its own output"),
    "whatif.attn_title": ("{head} 어텐션 가중치", "{head} attention weights"),
    "whatif.attn_is_off": (
        "이 헤드는 꺼져 있습니다 ({method}). '0으로'와 '평균으로'는 헤드의 출력만 바꾸므로 가중치 그림은 그대로일 수 "
        "있습니다: 바뀌는 것은 다음 층들입니다.",
        "This head is switched off ({method}). 'zero' and 'mean' replace the head's output only, so its weights "
        "may look unchanged: what changes is everything after it."),
    "whatif.attn_shapes_differ": ("토큰이 달라 같은 축에 겹쳐 그릴 수 없어, 두 그림을 따로 보여 줍니다.",
                                  "The tokens differ, so the two maps are shown separately."),
    "whatif.encoder_only_controls": (
        "인코더만 있는 모델입니다: 디코더가 없으니 번역 출력과 인과 마스크도 없습니다. 인코더 헤드와 위치 인코딩만 "
        "바꿀 수 있고, 결과는 각 토큰의 마지막 표현이 얼마나 움직였는지로 보여 줍니다.",
        "An encoder-only model: no decoder, so no translation and no causal mask. Only encoder heads and "
        "positional encoding can be changed; the result is how far each token's final representation moved."),
    "whatif.encoder_only": ("'{name}'은(는) 인코더만 있어 출력 문장이 없습니다. 아래는 토큰별 변화량입니다.",
                            "'{name}' is encoder-only: there is no output text. Below: how much each token moved."),
    "whatif.encoder_shuffled": ("단어를 섞으면 토큰 위치가 달라 토큰별로 비교할 수 없습니다.",
                                "With shuffled words the tokens sit elsewhere, so they cannot be compared one by one."),
    "whatif.change_title": ("토큰별 마지막 인코더 표현의 변화", "Change of each token's final encoder state"),
    "whatif.importance": ("헤드 중요도: 하나씩 꺼 보면", "Head importance: switch each one off"),
    "whatif.importance_missing": (
        "'{name}'에 대한 헤드 중요도 표가 아직 없습니다. 계산: `python -m transformer_core.evaluate models/{name} "
        "--head-importance`",
        "No head-importance table for '{name}' yet. Compute it: `python -m transformer_core.evaluate "
        "models/{name} --head-importance`"),
    "whatif.importance_stale": ("이 표는 지금과 다른 가중치로 계산되었습니다(모델이 다시 학습됨). 다시 계산하세요.",
                                "This table was computed for other weights (the model was retrained): recompute it."),
    "whatif.importance_caption": (
        "보류된 예문 {n}개에서 헤드 하나(또는 층 전체)를 '{method}' 방식으로 껐을 때. 기준: 정확히 일치 {exact}%, "
        "정렬 정확도 {align}% (디코더 층 {layer}의 헤드 평균). 감소폭이 큰 순서.",
        "On {n} held-out examples, one head (or a whole layer) switched off by '{method}'. Baseline: exact match "
        "{exact}%, alignment {align}% (decoder layer {layer}, head average). Largest drop first."),
    "whatif.col_rank": ("순위", "rank"),
    "whatif.col_id": ("헤드", "head"),
    "whatif.col_exact": ("정확히 일치 %", "exact match %"),
    "whatif.col_exact_drop": ("일치 감소 (%p)", "exact drop (pp)"),
    "whatif.col_align": ("정렬 %", "alignment %"),
    "whatif.col_align_drop": ("정렬 감소 (%p)", "alignment drop (pp)"),
    "whatif.try_top": ("1위 헤드 {head} 끄기", "Switch off the top head {head}"),
    "whatif.explain_title": ("이 실험들은 무엇을 보여 줄까?", "What do these experiments show?"),
    "whatif.explain_heads": (
        "**헤드 끄기.** 멀티헤드 어텐션은 헤드들의 출력을 이어 붙여 W_O를 곱합니다. 헤드 h의 출력을 0으로 만드는 것은 "
        "W_O에서 그 헤드의 열을 0으로 만드는 것과 정확히 같습니다(테스트로 증명). 번역이 깨지면 그 헤드가 필요했던 "
        "것이고, 그대로면 다른 헤드가 대신하거나 원래 쓸모가 적었던 것입니다.",
        "**Heads off.** Multi-head attention concatenates the heads' outputs and multiplies by W_O. Zeroing "
        "head h's output is exactly zeroing its columns of W_O (proven in the tests). If the translation "
        "breaks, the head was needed; if not, others cover for it or it did little."),
    "whatif.explain_pe": (
        "**위치 인코딩 없애기.** 어텐션 자체는 순서를 모릅니다: 위치 벡터가 없으면 인코더는 단어 가방(bag of words)을 "
        "보는 셈입니다. 한국어는 조사 덕분에 순서가 바뀌어도 뜻이 남는 경우가 많습니다: 번역이 얼마나 버티는지 보세요.",
        "**No positional encoding.** Attention by itself does not know order: without positions the encoder sees "
        "a bag of words. Korean particles often keep the meaning when order changes: see how much survives."),
    "whatif.explain_causal": (
        "**인과 마스크 없애기.** 학습할 때 디코더는 정답 번역 전체를 한꺼번에 입력받습니다(teacher forcing). 마스크가 "
        "없으면 위치 t가 다음 단어를 그냥 보고 베낄 수 있어서, 모델은 번역 대신 베끼기를 배우게 됩니다. 그래서 학습은 "
        "미래를 가립니다. 추론할 때는 미래가 아직 없습니다: 한 단어씩 왼쪽에서 오른쪽으로 만들기 때문입니다. 그래도 "
        "마스크를 없애면 앞 위치들이 나중 토큰을 보게 되어 학습 때 본 적 없는 표현이 생기고, 출력이 바뀔 수 있습니다.",
        "**No causal mask.** In training the decoder gets the whole reference translation at once (teacher "
        "forcing). Without the mask position t could simply read the next word and copy it, so the model would "
        "learn to copy instead of translating: training hides the future. At inference the future does not "
        "exist yet (words are made left to right), but with the mask removed earlier positions now see later "
        "tokens, states the model never met in training, and the output can change."),
    "whatif.explain_shuffle": (
        "**단어 섞기.** 입력 단계의 실험입니다(모델은 그대로). 한국어는 조사가 역할을 표시하므로, 어순을 섞어도 "
        "번역이 맞게 나오면 모델이 순서가 아니라 조사를 읽고 있다는 뜻입니다.",
        "**Shuffled words.** An input-level experiment (the model is unchanged). Korean marks roles with "
        "particles: if the translation survives shuffling, the model reads particles, not positions."),
    "stat.importance": ("끄면 일치 감소 (%p)", "exact drop if off (pp)"),
}
