"""UI strings of the training lab (/train), merged into viz.i18n.STRINGS."""

STRINGS: dict[str, tuple[str, str]] = {
    "nav.train": ("학습 실험실", "Training lab"),
    "lab.title": ("학습 실험실", "Training lab"),
    "lab.intro": (
        "논문의 모델을 지금 여기서 처음부터 학습시켜 봅니다. 학습이 진행되는 동안 손실과 정확도 곡선이 그려지고, "
        "고정된 예문의 어텐션이 흐릿한 상태에서 정답 정렬(어느 단어가 어느 단어를 보는지)로 바뀌는 모습을 볼 수 "
        "있습니다. 같은 설정으로 시작한 사람들은 모두 하나의 학습을 함께 봅니다.",
        "Train the paper's model from scratch, right here. While it trains, the loss and accuracy curves grow "
        "and the attention of a fixed probe sentence turns from a blur into the right alignment (which word "
        "looks at which). Everyone who starts the same recipe watches one shared run."),
    "lab.task": ("과제", "Task"),
    "lab.task.ko-en": ("한→영 번역 (장난감 문법)", "Korean → English (toy grammar)"),
    "lab.task.reverse": ("뒤집기 (a–z 글자)", "Reverse (letters a–z)"),
    "lab.task.copy": ("복사 (a–z 글자)", "Copy (letters a–z)"),
    "lab.task.sort": ("정렬 (a–z 글자)", "Sort (letters a–z)"),
    "lab.task_help": (
        "뒤집기·복사·정렬은 정답 어텐션이 분명합니다: 뒤집기는 반대 대각선, 복사는 대각선, 정렬은 같은 글자.",
        "Reverse, copy and sort have an obvious right attention: the anti-diagonal, the diagonal, "
        "the same letter."),
    "lab.preset": ("크기", "Size"),
    "lab.preset.tiny": ("아주 작게", "tiny"),
    "lab.preset.class": ("수업용", "class"),
    "lab.preset.larger": ("크게", "larger"),
    "lab.budget": ("학습 시간 (초)", "Time budget (s)"),
    "lab.seed": ("시드", "Seed"),
    "lab.seed_help": ("같은 시드 = 같은 초기 가중치와 같은 데이터 순서.",
                      "Same seed = same initial weights and the same data order."),
    "lab.col.preset": ("크기", "size"),
    "lab.col.d_model": ("d_model", "d_model"),
    "lab.col.heads": ("헤드", "heads"),
    "lab.col.layers": ("층 (인코더+디코더)", "layers (enc+dec)"),
    "lab.col.d_ff": ("d_ff", "d_ff"),
    "lab.col.params": ("파라미터 수", "parameters"),
    "lab.start": ("학습 시작", "Start"),
    "lab.stop": ("중지", "Stop"),
    "lab.grammar_core": ("한→영 과제는 장난감 문법의 핵심 부분(일상의 사람·동물·장소·물건·시제)으로 "
                         "학습하고 평가합니다.",
                         "Korean → English trains and tests on the toy grammar's compact core (everyday people, "
                         "animals, places, objects, tenses)."),
    "lab.grammar_full": ("한→영 과제는 현재 장난감 문법 전체로 학습합니다 (핵심 문법은 아직 없습니다).",
                         "Korean → English trains on the current toy grammar (no compact core yet)."),
    "lab.probe_user": ("관찰 문장: 사이드바의 문장 **{text}** (이 과제에 맞습니다).",
                       "Probe sentence: the sidebar's sentence **{text}** (it fits this task)."),
    "lab.probe_default": ("관찰 문장: **{text}** (사이드바의 문장은 이 과제에 맞지 않아 기본 문장을 씁니다).",
                          "Probe sentence: **{text}** (the sidebar's sentence does not fit this task, so the "
                          "default is used)."),
    "lab.device_note": ("장치: {device}", "Device: {device}"),
    "lab.queued": ("대기 중: 대기열 {position}번째입니다. 먼저 시작된 학습 {running}개가 끝나면 시작합니다.",
                   "Waiting: position {position} in the queue; starts when the {running} running job(s) finish."),
    "lab.progress": ("{step}단계 · 경과 {elapsed} / {budget} · 남은 시간 {remaining} · 초당 {rate:.1f}단계",
                     "step {step} · elapsed {elapsed} / {budget} · remaining {remaining} · {rate:.1f} steps/s"),
    "lab.watchers": ("이 학습을 보는 사람: {n}명", "watching this run: {n}"),
    "lab.starting": ("학습을 준비하는 중…", "Preparing the run…"),
    "lab.now_says": ("모델의 현재 출력 ({step}단계): {output}", "What the model says now (step {step}): {output}"),
    "lab.says_at": ("{step}단계의 출력: {output}", "Output at step {step}: {output}"),
    "lab.empty_output": ("(빈 출력)", "(empty output)"),
    "lab.kind": ("어텐션 종류", "Attention kind"),
    "lab.layer": ("층", "Layer"),
    "lab.head": ("헤드", "Head"),
    "lab.no_snapshot": ("첫 스냅숏을 기다리는 중…", "Waiting for the first snapshot…"),
    "lab.done": ("학습 완료: {steps}단계, {seconds:.0f}초. 평가 문장 {n}개: 정확히 일치 {exact:.1%}, "
                 "정렬 정확도 {align:.1%}.",
                 "Training finished: {steps} steps in {seconds:.0f} s. On {n} held-out sentences: exact match "
                 "{exact:.1%}, alignment accuracy {align:.1%}."),
    "lab.saved": ("모델을 **{name}**(으)로 저장했습니다. 사이드바의 모델 목록에서 골라 모든 페이지에서 살펴보세요.",
                  "Saved as **{name}**. Pick it in the sidebar's model list to explore it on every page."),
    "lab.open_model": ("이 모델로 개요 열기", "Open the overview with this model"),
    "lab.save_failed": ("모델을 저장하지 못했습니다: {reason}. 학습 결과는 이 페이지에서 계속 볼 수 있고, "
                        "실험실은 계속 동작합니다.",
                        "The model could not be saved: {reason}. The run stays viewable here and the lab keeps "
                        "running."),
    "lab.failed": ("학습이 실패했습니다: {reason}", "The training failed: {reason}"),
    "lab.cancelled": ("학습이 {step}단계에서 중지되었습니다.", "The training was stopped at step {step}."),
    "lab.stop_left": ("다른 사람도 이 학습을 보고 있어서 멈추지 않고, 내 화면에서만 보기를 그만두었습니다.",
                      "Others are watching this run, so it keeps going; you stopped watching it."),
    "lab.stop_done": ("학습을 중지했습니다.", "The run was stopped."),
    "lab.replay": ("다시 보기", "Replay"),
    "lab.replay_help": ("슬라이더로 스냅숏을 고르면 그 순간의 어텐션을 보여 줍니다. "
                        "곡선의 세로선이 그 순간입니다.",
                        "Pick a snapshot with the slider to see the attention at that moment; the vertical line "
                        "on the curves marks it."),
    "lab.step_slider": ("학습 단계", "Training step"),
    "lab.play": ("재생", "Play"),
    "lab.run_missing": ("저장된 학습 '{name}'을(를) 찾을 수 없습니다: {reason}", "No saved run '{name}': {reason}"),
    "lab.run_title": ("저장된 학습 다시 보기: {name}", "Replaying the saved run: {name}"),
    "lab.back": ("새 학습 시작하기", "Start a new run"),
    "lab.finished_jobs": ("끝난 학습 {n}개", "{n} finished run(s)"),
    "lab.col.recipe": ("설정", "recipe"),
    "lab.col.state": ("상태", "state"),
    "lab.col.steps": ("단계", "steps"),
    "lab.col.exact": ("정확히 일치", "exact match"),
    "lab.col.replay": ("다시 보기", "replay"),
    "lab.state.queued": ("대기", "queued"),
    "lab.state.running": ("학습 중", "running"),
    "lab.state.done": ("완료", "done"),
    "lab.state.failed": ("실패", "failed"),
    "lab.state.cancelled": ("중지됨", "stopped"),
    "lab.metrics_note": (
        "정확히 일치: 평가용(학습에 쓰지 않은) 문장 {n}개에서 탐욕 디코딩 출력이 정답과 같은 비율. "
        "정렬 정확도: 정답을 넣었을 때 각 출력 단어를 예측하는 크로스 어텐션(헤드 평균)이 가장 크게 보는 "
        "입력 단어가 정답 단어인 비율{extra}.",
        "Exact match: share of {n} held-out sentences (never trained on) whose greedy output equals the "
        "reference. Alignment: teacher-forced on the reference, share of output words whose cross-attention "
        "row (head average) peaks on the right input word{extra}."),
    "lab.anti_diagonal_note": (" (뒤집기: 반대 대각선의 비율)", " (reverse: the anti-diagonal share)"),
    # figures
    "fig.lab.loss": ("학습 손실", "training loss"),
    "fig.lab.exact": ("정확히 일치", "exact match"),
    "fig.lab.alignment": ("정렬 정확도", "alignment accuracy"),
    "fig.lab.alignment_reverse": ("반대 대각선 비율", "anti-diagonal share"),
    "fig.lab.step": ("학습 단계", "training step"),
    "fig.lab.percent": ("%", "%"),
    "fig.lab.curves": ("학습 곡선", "Training curves"),
    "fig.lab.attention": ("{kind} · 층 {layer} · 헤드 {head} · {step}단계", "{kind} · layer {layer} · head {head} · "
                          "step {step}"),
    "fig.lab.shown": ("보이는 스냅숏", "shown snapshot"),
}
