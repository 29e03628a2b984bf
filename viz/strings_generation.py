"""UI strings of generation: decoding strategies, sampling, beam search, the KV cache (merged into viz.i18n)."""

STRINGS: dict[str, tuple[str, str]] = {
    # the strategy control
    "gen.section": ("디코딩 전략", "Decoding strategy"),
    "gen.section_caption": (
        "출력은 아래에서 고른 전략으로 코어(generation.py)가 만듭니다. KV 캐시를 써서 단계마다 새 토큰 하나만 "
        "디코더에 넣습니다. 이 페이지의 모든 그림은 그렇게 만든 출력 위에서 한 번 기록한 teacher-forcing 패스입니다.",
        "The core (generation.py) makes the output with the strategy chosen below, feeding the decoder one new "
        "token per step thanks to the KV cache. Every picture on this page comes from ONE recorded "
        "teacher-forced pass over that output."),
    "gen.strategy": ("전략", "Strategy"),
    "gen.strategy_greedy": ("그리디", "Greedy"),
    "gen.strategy_sample": ("샘플링", "Sampling"),
    "gen.strategy_beam": ("빔 서치", "Beam search"),
    "gen.strategy_help": (
        "그리디: 매 단계 가장 확률 높은 토큰. 샘플링: 온도·top-k·top-p로 다듬은 분포에서 무작위로 뽑기 (시드가 같으면 "
        "결과도 같음). 빔 서치: 가설 여러 개를 함께 키우며 로그 확률 합이 가장 큰 문장을 고름.",
        "Greedy: the most probable token at every step. Sampling: a random draw from the distribution shaped "
        "by temperature, top-k and top-p (same seed, same result). Beam search: grows several hypotheses at "
        "once and returns the one with the best summed log-probability."),
    "gen.temperature": ("온도", "Temperature"),
    "gen.temperature_help": (
        "logits를 온도로 나눈 뒤 softmax. 1보다 작으면 분포가 뾰족해지고, 크면 평평해집니다. 0은 그리디와 같습니다.",
        "Logits are divided by the temperature before the softmax: below 1 the distribution gets sharper, above "
        "1 flatter. 0 is greedy."),
    "gen.top_k": ("top-k (0 = 끔)", "top-k (0 = off)"),
    "gen.top_k_help": ("확률이 가장 높은 k개만 남기고 나머지는 버립니다.",
                       "Keep only the k most probable tokens."),
    "gen.top_p": ("top-p (1 = 끔)", "top-p (1 = off)"),
    "gen.top_p_help": (
        "확률 높은 순으로 더해 p에 처음 닿을 때까지의 토큰만 남깁니다 (nucleus sampling).",
        "Keep the most probable tokens until their probabilities first add up to p (nucleus sampling)."),
    "gen.seed": ("시드", "Seed"),
    "gen.seed_help": ("난수 생성기의 시드. 같은 시드는 같은 출력을 줍니다.",
                      "The random generator's seed: the same seed gives the same output."),
    "gen.beam_width": ("빔 너비", "Beam width"),
    "gen.beam_width_help": ("단계마다 남겨 두는 가설의 수 (1이면 그리디와 같음).",
                            "Hypotheses kept at every step (1 is greedy)."),
    "gen.length_penalty": ("길이 벌점 α", "Length penalty α"),
    "gen.length_penalty_help": (
        "끝난 가설의 점수 = 로그 확률 합 / 길이^α. α가 클수록 긴 문장이 유리해집니다.",
        "A finished hypothesis scores (summed log-probability) / length^α: a larger α favours longer outputs."),
    "gen.output": ("출력 ({strategy})", "Output ({strategy})"),
    "gen.output_empty": (
        "(빈 출력: 모델이 바로 끝 토큰을 냈습니다)",
        "(empty: the model said end-of-sentence at once)"),
    "gen.timing": ("디코딩 {decode_ms:.0f} ms (KV 캐시) · 기록한 패스 {forward_ms:.0f} ms",
                   "decoding {decode_ms:.0f} ms (KV cache) · recorded pass {forward_ms:.0f} ms"),
    "gen.limit_reached": (
        "출력이 길이 한도에 닿아 멈췄습니다: 새 토큰 {n}개, 모델이 끝 토큰을 내기 전입니다. 한도는 논문의 규칙대로 "
        "입력 길이 + 50이고, 위치 표(max_len {max_len}) 안에서입니다.",
        "The output stopped at the length limit: {n} new tokens, before the model said end-of-sentence. The "
        "limit is the paper's rule, input length + 50, within the positional table (max_len {max_len})."),
    "gen.progress": ("생성 중: 토큰 {step} / 최대 {limit}", "Generating: token {step} of at most {limit}"),
    "gen.chosen": ("이 단계에서 고른 토큰", "Token chosen at this step"),
    "gen.not_generated": ("(한도: 생성 안 됨)", "(limit: not generated)"),
    # sampling
    "gen.sampling_title": (
        "단계 {t}의 샘플링 분포: 원래 → 온도 → 자르기",
        "Sampling at step {t}: raw → temperature → cut"),
    "gen.sampling_caption": (
        "세 칸 모두 같은 후보(원래 확률이 높은 순)입니다. 오른쪽은 top-k / top-p로 잘라낸 뒤 다시 합이 1이 되게 한 "
        "분포로, 실제 뽑기는 여기서 합니다. 회색 = 잘려 나간 토큰, 빨강 = 실제로 뽑힌 토큰.",
        "All three panels show the same candidates (most probable first). The right one is renormalised after "
        "the top-k / top-p cut: the draw uses it. Grey = cut away, red = the token actually drawn."),
    "gen.panel_raw": ("softmax(logits)", "softmax(logits)"),
    "gen.panel_tempered": (
        "softmax(logits / {temperature})",
        "softmax(logits / {temperature})"),
    "gen.panel_cut": ("top-k {k}, top-p {p} 후", "after top-k {k}, top-p {p}"),
    "gen.cut_away": ("잘림", "cut"),
    # beam search
    "gen.beam_title": ("빔 서치의 가설 나무", "Beam search: the tree of hypotheses"),
    "gen.beam_caption": (
        "x = 단계, 점 하나 = 후보 하나 (마우스를 올리면 로그 확률 합과 점수). 파랑 = 살아남은 가설, "
        "초록 별 = 끝 토큰으로 끝난 가설, 회색 = 잘려 나간 후보, 빨강 = 최종 출력의 경로.",
        "x = step, one dot per candidate (hover for its summed log-probability and score). Blue = kept, green "
        "star = finished with end-of-sentence, grey = pruned, red = the path of the returned output."),
    "gen.beam_capped": (
        "처음 {n}단계만 그렸습니다 (전체 {total}단계).",
        "Only the first {n} steps are drawn ({total} in all)."),
    "gen.log_prob": ("로그 확률 합", "summed log-probability"),
    "gen.score": ("점수", "score"),
    "gen.status_alive": ("살아남음", "kept"),
    "gen.status_finished": ("끝남 (EOS)", "finished (EOS)"),
    "gen.status_pruned": ("잘림", "pruned"),
    "gen.status_chosen": ("최종 출력", "returned output"),
    "gen.beam_step_axis": ("단계", "step"),
    "gen.beam_rank_axis": ("후보 (순위)", "candidate (rank)"),
    # KV cache
    "gen.kv_section": ("KV 캐시", "KV cache"),
    "gen.kv_caption": (
        "단계 t에서 디코더는 새 토큰 하나만 넣습니다. 셀프 어텐션의 K와 V는 층마다 캐시에 한 행씩 쌓이고"
        "(빨간 틀 = 이번 단계에 추가된 행, 빈 행 = 아직 없음), 새 쿼리는 캐시의 0..t행을 읽습니다(왼쪽 막대). "
        "크로스 어텐션의 K와 V는 "
        "인코더 출력에서 첫 단계에 한 번만 계산합니다. 값은 기록한 패스의 decoder.ℓ.self_attn.k / v 이고, 테스트가 "
        "캐시와 같음을 확인합니다.",
        "At step t the decoder is fed only the new token. Each layer's self-attention K and V grow by one row "
        "per step in the cache (red frame = the row appended at this step, blank = not there yet), and the new "
        "query reads rows 0..t (left bars). Cross-attention's K and V are computed once from the encoder output, "
        "at the first step. Values are the recorded pass's decoder.ℓ.self_attn.k / v; a test holds them "
        "equal to the cache."),
    "gen.kv_title": (
        "단계 {t}의 KV 캐시 (층 {layer}, 헤드 {head})",
        "KV cache at step {t} (layer {layer}, head {head})"),
    "gen.kv_reads": ("쿼리 {t}가 읽는 행", "rows query {t} reads"),
    "gen.kv_k": ("캐시된 K", "cached K"),
    "gen.kv_v": ("캐시된 V", "cached V"),
    "gen.kv_position_axis": ("위치 (캐시 행)", "position (cache row)"),
    "gen.kv_dim_axis": ("d_k 차원", "d_k dimension"),
    "gen.kv_layer": ("KV 층", "KV layer"),
    "gen.kv_head": ("KV 헤드", "KV head"),
}
