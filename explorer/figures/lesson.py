"""The guided lesson (/lesson): an ordered path through "Attention Is All You Need" on the sidebar's
sentence. Pure: a trace and its tokens in; step definitions, one figure per step, equations with the
live numbers, predict-then-reveal questions with answers read from the trace, the join URL and its
QR code out. No streamlit here (pages/lesson.py only lays these out).

Steps are numbered from 1 (the number is what the URL carries: `/lesson?step=7`). The decoder steps
exist for every model so a number always means the same step; an encoder-only model skips them.
"""

from __future__ import annotations

import html
import io
import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from urllib.parse import urlencode, urlsplit, urlunsplit

import numpy as np
import pandas as pd
import plotly.graph_objects as go
from plotly.colors import get_colorscale

from explorer.figures import figures
from explorer.figures.attention import CROSS, ENC_SELF, array, softmax, stack, top_k
from explorer.figures.steps import LayerInfo, attention_steps, encoder_chain, ffn_step, shape_str
from explorer.figures.tokenization import from_tokens, ids_to_tokens, token_chips_html
from explorer.i18n import md_escape, t

# ------------------------------------------------------------------------------------------------
# The path


@dataclass(frozen=True)
class LessonStep:
    """One stop of the lesson: its 1-based number, an id (i18n keys `lesson.<id>.*`), the full page
    that shows more, and whether it needs a decoder."""

    number: int
    id: str
    page: str
    decoder: bool = False


_PATH: tuple[tuple[str, str, bool], ...] = (
    ("tokens", "pages/tokens.py", False),
    ("ids", "pages/tokens.py", False),
    ("embedding", "pages/embeddings.py", False),
    ("position", "pages/embeddings.py", False),
    ("scores", "pages/encoder.py", False),
    ("softmax", "pages/encoder.py", False),
    ("values", "pages/encoder.py", False),
    ("multihead", "pages/encoder.py", False),
    ("addnorm", "pages/encoder.py", False),
    ("ffn", "pages/encoder.py", False),
    ("encoder_layer", "pages/encoder.py", False),
    ("causal_mask", "pages/decoder.py", True),
    ("cross_attention", "pages/decoder.py", True),
    ("next_token", "pages/decoder.py", True),
    ("full_picture", "pages/heads.py", False),
)


def lesson_steps() -> list[LessonStep]:
    """Every step in order (the same list for every model)."""
    return [LessonStep(i + 1, step_id, page, decoder) for i, (step_id, page, decoder) in enumerate(_PATH)]


def parse_step(raw: object, n_steps: int) -> int:
    """A step number from the URL ('7'), clamped to 1..n_steps; anything unreadable is step 1."""
    try:
        value = int(str(raw).strip())
    except (TypeError, ValueError):
        return 1
    return min(max(value, 1), max(n_steps, 1))


def available(step: LessonStep, has_decoder: bool) -> bool:
    """Whether the model has what the step shows (decoder steps need an encoder-decoder)."""
    return has_decoder or not step.decoder


def neighbour(number: int, direction: int, has_decoder: bool, steps: Sequence[LessonStep] | None = None) -> int:
    """The next (direction=+1) or previous (-1) step this model has; `number` itself at either end."""
    steps = list(steps or lesson_steps())
    candidate = number + direction
    while 1 <= candidate <= len(steps):
        if available(steps[candidate - 1], has_decoder):
            return candidate
        candidate += direction
    return number


def skipped_steps(has_decoder: bool, steps: Sequence[LessonStep] | None = None) -> list[LessonStep]:
    """The steps an encoder-only model skips (none for an encoder-decoder)."""
    return [s for s in (steps or lesson_steps()) if not available(s, has_decoder)]


# ------------------------------------------------------------------------------------------------
# What a step needs from the model and the trace


@dataclass(frozen=True)
class LessonData:
    """One sentence through one model: the trace, its tokens and the config values the steps use."""

    trace: object  # transformer_core.Trace (name -> tensor, with .numpy(name))
    src_tokens: list[str]
    tgt_tokens: list[str]
    predicted_tokens: list[str]
    has_decoder: bool
    info: LayerInfo
    scale_embedding: bool
    positional: str  # "sinusoidal" or "learned"
    specials: frozenset[str]
    tokenizer: object = None  # for the next-token candidates' strings and the token chips
    text: str = ""  # the sentence as typed
    sinusoidal_layout: str = "interleaved"  # "halves": Marian's sines-then-cosines table

    @classmethod
    def from_view(cls, traced, loaded, text: str = "") -> LessonData:
        """From a core TextTrace, the LoadedModel that produced it and the sentence."""
        cfg = loaded.config
        tokenizer = loaded.tokenizer
        return cls(trace=traced.trace, src_tokens=list(traced.src_tokens), tgt_tokens=list(traced.tgt_tokens),
                   predicted_tokens=list(traced.predicted_tokens), has_decoder=traced.has_decoder,
                   info=LayerInfo(cfg.d_model, cfg.n_heads, cfg.d_ff, cfg.norm_first, cfg.activation),
                   scale_embedding=bool(cfg.scale_embedding), positional=str(cfg.positional),
                   specials=frozenset(getattr(tokenizer, "all_special_tokens", []) or []), tokenizer=tokenizer,
                   text=text, sinusoidal_layout=str(getattr(cfg, "sinusoidal_layout", "interleaved")))

    @property
    def n_src(self) -> int:
        return len(self.src_tokens)

    @property
    def d_k(self) -> int:
        return self.info.d_model // self.info.n_heads


_WORDLIKE = re.compile(r"\w", re.UNICODE)


def _is_word(token: str, specials: frozenset[str]) -> bool:
    return token not in specials and bool(_WORDLIKE.search(token))


def focus_query(data: LessonData) -> int:
    """The source position the encoder steps follow: the first real word (not [CLS], not punctuation)."""
    return next((i for i, tok in enumerate(data.src_tokens) if _is_word(tok, data.specials)), 0)


FOCUS_LAYER = 0  # the encoder steps follow layer 0 (the full pages show the others)


def focus_head(data: LessonData) -> int:
    """The layer-0 head the encoder steps follow: the first whose strongest key for the focus query is
    another real word (many heads park their weight on a special token); head 0 if none is."""
    i = focus_query(data)
    weights = data.trace.numpy(f"encoder.{FOCUS_LAYER}.self_attn.weights")[:, i]  # [H, S]
    best = [int(np.argmax(row)) for row in weights]
    for wanted in (lambda j: j != i and _is_word(data.src_tokens[j], data.specials),
                   lambda j: _is_word(data.src_tokens[j], data.specials)):
        found = next((h for h, j in enumerate(best) if wanted(j)), None)
        if found is not None:
            return found
    return 0


def causal_position(data: LessonData) -> int:
    """The decoder position the causal-mask question asks about (position 2, or the last one if shorter)."""
    return min(2, max(len(data.tgt_tokens) - 1, 0))


def cross_weights(data: LessonData) -> np.ndarray:
    """Cross-attention of the LAST decoder layer, averaged over heads: [T, S] (the project's alignment view)."""
    maps = stack(data.trace, CROSS)  # [L, H, T, S]
    return maps[-1].mean(axis=0).astype(np.float64)


def cross_row(data: LessonData) -> int:
    """The output step the cross-attention question asks about: among the words the model writes, the one
    whose most-read source word sits farthest from its own relative place (the clearest reordering)."""
    weights = cross_weights(data)
    n_rows, n_cols = weights.shape
    best, best_shift = None, -1.0
    for row, tok in enumerate(data.predicted_tokens[:n_rows]):
        if not _is_word(tok, data.specials):
            continue
        src = int(np.argmax(weights[row]))
        shift = abs(row / max(n_rows - 1, 1) - src / max(n_cols - 1, 1))
        if shift > best_shift + 1e-9:
            best, best_shift = row, shift
    return 0 if best is None else best


def next_token_row(data: LessonData) -> int:
    """The output step the next-token question asks about: the last real word the model writes."""
    rows = [i for i, tok in enumerate(data.predicted_tokens) if _is_word(tok, data.specials)]
    return rows[-1] if rows else 0


# ------------------------------------------------------------------------------------------------
# Predict, then reveal: questions whose answers are read from the trace


@dataclass(frozen=True)
class Question:
    """A question asked before the figure is shown. Options are labels; `answer` holds the indices of
    the right ones (`multi`: the whole set must be chosen)."""

    id: str
    prompt: str  # Markdown (token strings escaped)
    options: tuple[str, ...]
    answer: frozenset[int]
    multi: bool = False

    def is_right(self, choice: int | Sequence[int] | None) -> bool | None:
        """True / False for a guess, None when nothing was chosen."""
        if choice is None:
            return None
        if self.multi:
            chosen = frozenset(int(c) for c in choice)  # type: ignore[union-attr]
            return chosen == self.answer
        return int(choice) in self.answer  # type: ignore[arg-type]

    @property
    def answer_labels(self) -> list[str]:
        return [self.options[i] for i in sorted(self.answer)]


def _token_options(tokens: Sequence[str]) -> tuple[str, ...]:
    return tuple(f"{i}: {tok}" for i, tok in enumerate(tokens))


def token_count_answer(data: LessonData) -> int:
    """How many tokens the sentence became: the length of `src.ids` in the trace."""
    return int(data.trace["src.ids"].shape[1])


def q_shape_answer(data: LessonData, layer: int = FOCUS_LAYER) -> tuple[int, int]:
    """The shape of Q for ONE head: the trace's q [B, H, S, d_k] without batch and head -> (S, d_k)."""
    shape = tuple(int(s) for s in data.trace[f"encoder.{layer}.self_attn.q"].shape)
    return shape[2], shape[3]


def strongest_key_answer(data: LessonData, query: int, layer: int = FOCUS_LAYER, head: int | None = None) -> int:
    """The source position query `query` gives the most weight to (encoder self-attention, one head;
    by default the focus head)."""
    head = focus_head(data) if head is None else head
    return int(np.argmax(data.trace.numpy(f"encoder.{layer}.self_attn.weights")[head][query]))


def visible_positions_answer(data: LessonData, position: int) -> frozenset[int]:
    """The target positions decoder position `position` may attend to: the True entries of its row of
    `tgt.causal_mask` (True = may attend)."""
    mask = array(data.trace, "tgt.causal_mask").astype(bool)
    return frozenset(int(j) for j in np.flatnonzero(mask[position]))


def cross_answer(data: LessonData, row: int) -> int:
    """The source position output step `row` reads most (last decoder layer, heads averaged)."""
    return int(np.argmax(cross_weights(data)[row]))


def next_token_candidates(data: LessonData, row: int, k: int = 4) -> tuple[list[str], list[float], str]:
    """The k most likely next tokens at output step `row` (from the traced logits), their probabilities,
    and the one the model chose (the argmax)."""
    probs = softmax(data.trace.numpy("logits")[row])
    ids, top = top_k(probs, k)
    tokens = ids_to_tokens(data.tokenizer, ids.tolist()) if data.tokenizer is not None else [str(i) for i in ids]
    return tokens, [float(p) for p in top], tokens[0]


def question_for(step_id: str, data: LessonData, lang: str) -> Question | None:
    """The predict-first question of a step (None if the step asks nothing)."""
    esc = md_escape
    if step_id == "tokens":
        answer = token_count_answer(data)
        n_words = len(data.text.split()) if data.text.strip() else answer - 1
        pool = sorted(v for v in {answer, n_words, answer - 1, answer + 1, answer + 2} if v >= 1)
        options = tuple(str(v) for v in pool)
        return Question("tokens", t("lesson.q.tokens", lang), options, frozenset({pool.index(answer)}))
    if step_id == "scores":
        s, d_k = q_shape_answer(data)
        d, h = data.info.d_model, data.info.n_heads
        shapes = [(s, d_k), (s, d), (d_k, s), (h, s, d_k), (s, s)]
        labels = sorted({shape_str(x) for x in shapes})
        right = shape_str((s, d_k))
        return Question("q_shape", t("lesson.q.q_shape", lang, h=h, d=d), tuple(labels),
                        frozenset({labels.index(right)}))
    if step_id == "softmax":
        i = focus_query(data)
        answer = strongest_key_answer(data, i)
        prompt = t("lesson.q.strongest", lang, token=esc(data.src_tokens[i]), i=i, head=focus_head(data))
        return Question("strongest", prompt, _token_options(data.src_tokens), frozenset({answer}))
    if not data.has_decoder:
        return None
    if step_id == "causal_mask":
        p = causal_position(data)
        return Question("causal", t("lesson.q.causal", lang, p=p, token=esc(data.tgt_tokens[p])),
                        _token_options(data.tgt_tokens), visible_positions_answer(data, p), multi=True)
    if step_id == "cross_attention":
        row = cross_row(data)
        return Question("cross", t("lesson.q.cross", lang, token=esc(data.predicted_tokens[row])),
                        _token_options(data.src_tokens), frozenset({cross_answer(data, row)}))
    if step_id == "next_token":
        row = next_token_row(data)
        tokens, _, chosen = next_token_candidates(data, row)
        labels = sorted(set(tokens))
        so_far = " ".join(data.predicted_tokens[:row])
        return Question("next", t("lesson.q.next", lang, so_far=esc(so_far) or "∅"), tuple(labels),
                        frozenset({labels.index(chosen)}))
    return None


# ------------------------------------------------------------------------------------------------
# One step, ready to lay out


@dataclass
class StepView:
    """Everything a step shows: its text (Markdown), shape, equation (LaTeX), ONE figure (a plotly
    figure, or token chips HTML, or a small table), the optional question and what the reveal says."""

    step: LessonStep
    title: str
    body: str
    shape: str
    latex: str
    figure: go.Figure | None = None
    chips_html: str | None = None
    table: pd.DataFrame | None = None
    question: Question | None = None
    reveal: str = ""  # Markdown said once the answer is shown
    page_title_key: str = ""
    focus: str = ""  # which layer / head / query position the step follows (Markdown)


_FOLLOWS_ONE_QUERY = {"scores", "softmax", "values", "addnorm", "ffn"}
_PAGE_TITLES = {"pages/tokens.py": "nav.tokens", "pages/embeddings.py": "nav.embeddings",
                "pages/encoder.py": "nav.encoder", "pages/decoder.py": "nav.decoder", "pages/heads.py": "nav.heads"}


def _plain(token: str) -> str:
    """A token inside a plotly title: HTML-escaped (plotly reads titles as pseudo-HTML)."""
    return html.escape(token, quote=False)


def _chain_step(steps, key: str):
    return next(s for s in steps if s.key == key)


def _row_bars(values: np.ndarray, tokens: Sequence[str], highlight: int, *, title: str, lang: str,
              value_title: str, bounded: bool) -> go.Figure:
    """One query's row (scores or weights over the keys) as horizontal bars, one per key token."""
    labels = figures.unique_labels(tokens)
    values = np.asarray(values, dtype=np.float32)
    colors = ["#d93025" if i == highlight else "#8ab4f8" for i in range(len(labels))]
    trace = {"type": "bar", "x": values, "y": labels, "orientation": "h", "marker": {"color": colors},
             "text": [f"{v:.2f}" for v in values], "textposition": "auto",
             "hovertemplate": f"{t('fig.key', lang)}: %{{y}}<br>{value_title}: %{{x:.4f}}<extra></extra>"}
    x_axis = figures._linear(value_title, showgrid=True, zeroline=True)
    if bounded:
        x_axis["range"] = [0, 1]
    layout = {"xaxis": x_axis, "yaxis": figures._y_category(t("fig.key_axis", lang))}
    return figures._figure([trace], layout, title, max(300, 90 + 34 * len(labels)), bgcolor="white")


def build_step(step: LessonStep, data: LessonData, lang: str, compact: bool = False) -> StepView:
    """The step's text, shape, equation, figure and question, all from `data`'s trace. A decoder step
    of an encoder-only model raises ValueError (the page explains the absence instead)."""
    if not available(step, data.has_decoder):
        raise ValueError(f"step {step.number} ({step.id}) needs a decoder; this trace has none")
    builder = _BUILDERS[step.id]
    view = builder(step, data, lang)
    if compact and step.id == "full_picture":  # shorter square tiles: the whole picture on one projector screen
        view.figure = _full_picture_figure(data, lang, assumed_width=360)
    view.question = question_for(step.id, data, lang)
    if step.id in _FOLLOWS_ONE_QUERY:
        i = focus_query(data)
        view.focus = t("lesson.focus", lang, layer=FOCUS_LAYER, head=focus_head(data), i=i,
                       token=md_escape(data.src_tokens[i]))
    view.page_title_key = _PAGE_TITLES[step.page]
    return view


def _title(step: LessonStep, lang: str) -> str:
    return t(f"lesson.{step.id}.title", lang)


def _body(step: LessonStep, lang: str, **values) -> str:
    return t(f"lesson.{step.id}.body", lang, **values)


def _tokens_step(step: LessonStep, data: LessonData, lang: str) -> StepView:
    n = token_count_answer(data)
    chips = None
    if data.tokenizer is not None:
        chips = token_chips_html(from_tokens(data.tokenizer, data.src_tokens), t("lesson.unk", lang),
                                 t("lesson.special", lang))
    latex = rf"\text{{text}} \;\to\; (t_0, t_1, \dots, t_{{{n - 1}}}),\qquad S = {n}"
    return StepView(step, _title(step, lang), _body(step, lang, n=n), shape_str((1, n)), latex, chips_html=chips,
                    reveal=t("lesson.tokens.reveal", lang, n=n))


def _ids_step(step: LessonStep, data: LessonData, lang: str) -> StepView:
    ids = [int(i) for i in data.trace.numpy("src.ids")]
    vocab = len(data.tokenizer) if data.tokenizer is not None else max(ids) + 1
    table = pd.DataFrame({t("lesson.col.pos", lang): range(len(ids)), t("lesson.col.token", lang): data.src_tokens,
                          t("lesson.col.id", lang): ids})
    shown = r",\ ".join(str(i) for i in ids[:8]) + (r",\ \dots" if len(ids) > 8 else "")
    latex = rf"\text{{ids}} = ({shown}),\qquad 0 \le \text{{id}} < V = {vocab}"
    return StepView(step, _title(step, lang), _body(step, lang, vocab=vocab), shape_str(data.trace["src.ids"].shape),
                    latex, table=table)


def _embedding_step(step: LessonStep, data: LessonData, lang: str) -> StepView:
    from explorer.figures.tables import scaling_latex

    embed = data.trace.numpy("src.embed")
    d = data.info.d_model
    i = focus_query(data)
    if data.scale_embedding:
        latex = scaling_latex(d, embed[i], math.sqrt(d))
        body = _body(step, lang, d=d, sqrt=f"{math.sqrt(d):.2f}")
    else:
        latex = rf"x = E[\mathrm{{id}}],\quad E \in \mathbb{{R}}^{{V\times {d}}}\ (\text{{no}}\ \sqrt{{d_{{model}}}})"
        body = _body(step, lang, d=d, sqrt=f"{math.sqrt(d):.2f}") + "\n\n" + t("lesson.embedding.no_scale", lang)
    fig = figures.vectors_heatmap([("E[id]·√d" if data.scale_embedding else "E[id]", embed)], data.src_tokens,
                                  title=_title(step, lang), lang=lang)
    return StepView(step, _title(step, lang), body, shape_str(data.trace["src.embed"].shape), latex, figure=fig)


def _position_step(step: LessonStep, data: LessonData, lang: str) -> StepView:
    pos = array(data.trace, "src.pos")
    inputs = data.trace.numpy("src.input")
    d = data.info.d_model
    p = min(1, pos.shape[0] - 1)
    if data.positional == "sinusoidal" and data.sinusoidal_layout == "halves":
        h = (d + 1) // 2  # Marian: the sines fill the first half, the cosines the second
        latex = (rf"\begin{{gathered}}PE_{{(pos,i)}} = \sin\!\left(pos / 10000^{{2i/{d}}}\right),\ "
                 rf"PE_{{(pos,{h}+i)}} = \cos\!\left(pos / 10000^{{2i/{d}}}\right) \\ "
                 rf"PE_{{({p},0)}} = \sin({p}) = {pos[p, 0]:.3f},\quad "
                 rf"PE_{{({p},{h})}} = \cos({p}) = {pos[p, h]:.3f} \\ "
                 rf"x_{{{p}}} = E[\mathrm{{id}}_{{{p}}}]\sqrt{{d}} + PE_{{{p}}} = "
                 rf"({inputs[p, 0]:.3f},\ {inputs[p, 1]:.3f},\ \dots)\end{{gathered}}")
        body = _body(step, lang) + "\n\n" + t("msg.marian_positions", lang, half=h)
    elif data.positional == "sinusoidal":
        latex = (rf"\begin{{gathered}}PE_{{(pos,2i)}} = \sin\!\left(pos / 10000^{{2i/{d}}}\right),\ "
                 rf"PE_{{(pos,2i+1)}} = \cos\!\left(pos / 10000^{{2i/{d}}}\right) \\ "
                 rf"PE_{{({p},0)}} = \sin({p}) = {pos[p, 0]:.3f},\quad PE_{{({p},1)}} = \cos({p}) = {pos[p, 1]:.3f} \\ "
                 rf"x_{{{p}}} = E[\mathrm{{id}}_{{{p}}}]\sqrt{{d}} + PE_{{{p}}} = "
                 rf"({inputs[p, 0]:.3f},\ {inputs[p, 1]:.3f},\ \dots)\end{{gathered}}")
        body = _body(step, lang)
    else:
        latex = (rf"\begin{{gathered}}x = \text{{LayerNorm}}(E[\mathrm{{id}}] + P[pos] + T[\text{{type}}]) \\ "
                 rf"P[{p}] = ({pos[p, 0]:.3f},\ {pos[p, 1]:.3f},\ \dots)\ (\text{{learned}})\end{{gathered}}")
        body = _body(step, lang) + "\n\n" + t("lesson.position.learned", lang)
    positions = [str(i) for i in range(pos.shape[0])]
    fig = figures.vectors_heatmap([("PE", pos)], positions, title=_title(step, lang), lang=lang,
                                  row_title=t("fig.position_axis", lang))
    return StepView(step, _title(step, lang), body, shape_str(pos.shape), latex, figure=fig)


def _chain(data: LessonData, query: int, key: int):
    return encoder_chain(data.trace, FOCUS_LAYER, focus_head(data), query, key, data.info)


def _scores_step(step: LessonStep, data: LessonData, lang: str) -> StepView:
    i = focus_query(data)
    head = focus_head(data)
    scores = data.trace.numpy(f"encoder.{FOCUS_LAYER}.self_attn.scores")[head][i]
    j = int(np.argmax(scores))
    latex = _chain_step(_chain(data, i, j), "step.scores").latex
    title = t("lesson.scores.fig", lang, token=_plain(data.src_tokens[i]), head=head)
    fig = _row_bars(scores, data.src_tokens, j, title=title, lang=lang, value_title=t("fig.score", lang), bounded=False)
    s, d_k = q_shape_answer(data)
    return StepView(step, _title(step, lang), _body(step, lang, token=md_escape(data.src_tokens[i]), d_k=d_k),
                    shape_str(data.trace[f"encoder.{FOCUS_LAYER}.self_attn.scores"].shape), latex, figure=fig,
                    reveal=t("lesson.scores.reveal", lang, s=s, d_k=d_k, h=data.info.n_heads, d=data.info.d_model))


def _softmax_step(step: LessonStep, data: LessonData, lang: str) -> StepView:
    i = focus_query(data)
    head = focus_head(data)
    weights = data.trace.numpy(f"encoder.{FOCUS_LAYER}.self_attn.weights")[head][i]
    j = strongest_key_answer(data, i)
    latex = _chain_step(_chain(data, i, j), "step.softmax").latex
    title = t("lesson.softmax.fig", lang, token=_plain(data.src_tokens[i]), head=head)
    fig = _row_bars(weights, data.src_tokens, j, title=title, lang=lang, value_title=t("fig.weight", lang),
                    bounded=True)
    return StepView(step, _title(step, lang), _body(step, lang, token=md_escape(data.src_tokens[i])),
                    shape_str(data.trace[f"encoder.{FOCUS_LAYER}.self_attn.weights"].shape), latex, figure=fig,
                    reveal=t("lesson.softmax.reveal", lang, token=md_escape(data.src_tokens[i]),
                             target=md_escape(data.src_tokens[j]), w=f"{weights[j]:.2f}"))


def _values_step(step: LessonStep, data: LessonData, lang: str) -> StepView:
    i = focus_query(data)
    p = f"encoder.{FOCUS_LAYER}.self_attn"
    head = focus_head(data)
    v = data.trace.numpy(f"{p}.v")[head]
    context = data.trace.numpy(f"{p}.context")[head]
    latex = _chain_step(_chain(data, i, strongest_key_answer(data, i)), "step.context").latex
    fig = figures.vectors_heatmap([("V", v), (t("lesson.values.panel", lang), context)], data.src_tokens,
                                  title=_title(step, lang), lang=lang, shared_scale=True)
    return StepView(step, _title(step, lang), _body(step, lang, d_k=data.d_k),
                    shape_str(data.trace[f"{p}.context"].shape), latex, figure=fig)


def _multihead_step(step: LessonStep, data: LessonData, lang: str) -> StepView:
    i = focus_query(data)
    chain = _chain(data, i, strongest_key_answer(data, i))
    latex = r"\begin{gathered}" + _chain_step(chain, "step.concat").latex + r" \\ " + \
        _chain_step(chain, "step.wo").latex.replace(r"\begin{gathered}", "").replace(r"\end{gathered}", "") + \
        r"\end{gathered}"
    weights = data.trace.numpy(f"encoder.{FOCUS_LAYER}.self_attn.weights")
    fig = figures.heads_grid(weights, data.src_tokens, data.src_tokens, title=t("lesson.multihead.fig", lang),
                             lang=lang, n_cols=2 if data.info.n_heads <= 4 else 4)
    for trace in fig.data:  # no numbers in the cells: they overlap on a phone (hover shows them)
        trace.texttemplate = None
    return StepView(step, _title(step, lang),
                    _body(step, lang, h=data.info.n_heads, d_k=data.d_k, d=data.info.d_model),
                    shape_str(data.trace[f"encoder.{FOCUS_LAYER}.self_attn.out"].shape), latex, figure=fig)


def _addnorm_step(step: LessonStep, data: LessonData, lang: str) -> StepView:
    i = focus_query(data)
    prefix = f"encoder.{FOCUS_LAYER}"
    latex = _chain_step(_chain(data, i, 0), "step.addnorm1").latex
    panels = [("x", data.trace.numpy(f"{prefix}.in")), ("MHA(x)", data.trace.numpy(f"{prefix}.self_attn.out")),
              ("x + MHA(x)", data.trace.numpy(f"{prefix}.add1")), ("LayerNorm", data.trace.numpy(f"{prefix}.norm1"))]
    fig = figures.vectors_heatmap(panels, data.src_tokens, title=_title(step, lang), lang=lang)
    body = _body(step, lang) + ("\n\n" + t("lesson.addnorm.pre_ln", lang) if data.info.norm_first else "")
    return StepView(step, _title(step, lang), body, shape_str(data.trace[f"{prefix}.add1"].shape), latex, figure=fig)


def _ffn_step(step: LessonStep, data: LessonData, lang: str) -> StepView:
    i = focus_query(data)
    prefix = f"encoder.{FOCUS_LAYER}"
    latex = ffn_step(data.trace, prefix, i, data.info).latex
    fig = figures.activation_heatmap(data.trace.numpy(f"{prefix}.ffn.hidden"), data.src_tokens,
                                     title=_title(step, lang), lang=lang, col_title=t("fig.hidden_unit", lang),
                                     value_title=t("fig.activation", lang))
    return StepView(step, _title(step, lang), _body(step, lang, d=data.info.d_model, d_ff=data.info.d_ff),
                    shape_str(data.trace[f"{prefix}.ffn.hidden"].shape), latex, figure=fig)


def _encoder_layer_step(step: LessonStep, data: LessonData, lang: str) -> StepView:
    n = data.trace.n_layers("encoder")
    i = focus_query(data)
    x_in = data.trace.numpy("encoder.0.in")
    out = data.trace.numpy("encoder.out")
    panels = [(t("lesson.encoder_layer.in", lang), x_in), (t("lesson.encoder_layer.after", lang, n=1),
                                                           data.trace.numpy("encoder.0.out"))]
    if n > 1:
        panels.append((t("lesson.encoder_layer.after", lang, n=n), out))
    fig = figures.vectors_heatmap(panels, data.src_tokens, title=_title(step, lang), lang=lang)
    a, b = x_in[i].astype(np.float64), out[i].astype(np.float64)
    cosine = float(a @ b / max(np.linalg.norm(a) * np.linalg.norm(b), 1e-12))
    latex = (rf"\begin{{gathered}}x' = \text{{LayerNorm}}(x + \text{{MHA}}(x)),\quad "
             rf"\text{{Layer}}(x) = \text{{LayerNorm}}(x' + \text{{FFN}}(x')) \\ "
             rf"N = {n}:\quad \cos(x_{{{i}}}, \text{{memory}}_{{{i}}}) = {cosine:.3f}\end{{gathered}}")
    return StepView(step, _title(step, lang), _body(step, lang, n=n), shape_str(data.trace["encoder.out"].shape),
                    latex, figure=fig)


def _causal_step(step: LessonStep, data: LessonData, lang: str) -> StepView:
    p = causal_position(data)
    masked = data.trace.numpy("decoder.0.self_attn.masked_scores")[0]
    latex = _chain_step(attention_steps(data.trace, "decoder", 0, "self_attn", 0, p, 0, data.info),
                        "step.mask").latex
    fig = figures.attention_heatmap(masked, data.tgt_tokens, data.tgt_tokens, title=t("lesson.causal_mask.fig", lang),
                                    lang=lang, value_title=t("fig.score", lang), diverging=True)
    seen = visible_positions_answer(data, p)
    return StepView(step, _title(step, lang), _body(step, lang), shape_str(array(data.trace, "tgt.causal_mask").shape),
                    latex, figure=fig,
                    reveal=t("lesson.causal_mask.reveal", lang, p=p,
                             seen=", ".join(f"{j}: {md_escape(data.tgt_tokens[j])}" for j in sorted(seen))))


def _cross_step(step: LessonStep, data: LessonData, lang: str) -> StepView:
    weights = cross_weights(data)
    row = cross_row(data)
    src = cross_answer(data, row)
    n_layers = data.trace.n_layers("decoder")
    fig = figures.attention_heatmap(weights.astype(np.float32), data.predicted_tokens[: weights.shape[0]],
                                    data.src_tokens, title=t("lesson.cross_attention.fig", lang, layer=n_layers - 1),
                                    lang=lang, row_title=t("lesson.output_axis", lang),
                                    col_title=t("fig.source_axis", lang))
    heads = data.trace.numpy(f"decoder.{n_layers - 1}.cross_attn.weights")[:, row, src]
    latex = (rf"\begin{{gathered}}\text{{CrossAttn}} = \text{{softmax}}\!\left(\frac{{Q_{{dec}} K_{{enc}}^\top}}"
             rf"{{\sqrt{{d_k}}}}\right) V_{{enc}} \\ \bar a_{{{row},{src}}} = \frac{{1}}{{{len(heads)}}}"
             rf"\sum_h a^{{(h)}}_{{{row},{src}}} = {float(weights[row, src]):.3f}\end{{gathered}}")
    return StepView(step, _title(step, lang), _body(step, lang),
                    shape_str(data.trace[f"decoder.{n_layers - 1}.cross_attn.weights"].shape), latex, figure=fig,
                    reveal=t("lesson.cross_attention.reveal", lang, token=md_escape(data.predicted_tokens[row]),
                             src=md_escape(data.src_tokens[src]), w=f"{weights[row, src]:.2f}"))


def _next_token_step(step: LessonStep, data: LessonData, lang: str) -> StepView:
    row = next_token_row(data)
    tokens, probs, chosen = next_token_candidates(data, row, k=5)
    fig = figures.top_k_bar(tokens, probs, chosen, title=t("lesson.next_token.fig", lang, t=row), lang=lang)
    vocab = int(data.trace["logits"].shape[-1])
    latex = (rf"P(y_{{{row + 1}}} \mid y_{{\le {row}}}, x) = \text{{softmax}}(h_{{{row}}} W^\top),\quad "
             rf"W \in \mathbb{{R}}^{{{vocab}\times {data.info.d_model}}},\quad \max P = {probs[0]:.3f}")
    return StepView(step, _title(step, lang), _body(step, lang, v=vocab), shape_str(data.trace["logits"].shape),
                    latex, figure=fig,
                    reveal=t("lesson.next_token.reveal", lang, token=md_escape(chosen), p=f"{probs[0]:.1%}"))


def _full_picture_figure(data: LessonData, lang: str, assumed_width: int = 900) -> go.Figure:
    """Every layer x head of every attention kind in ONE figure (square tiles)."""
    from explorer.figures.attention import DEC_SELF, kinds_in

    names = {ENC_SELF: t("lesson.kind.enc", lang), DEC_SELF: t("lesson.kind.dec", lang),
             CROSS: t("lesson.kind.cross", lang)}
    stacks = [(names[kind], stack(data.trace, kind)) for kind in kinds_in(data.trace)]
    return figures.all_heads_overview(stacks, title=t("lesson.full_picture.title", lang), lang=lang,
                                      assumed_width=assumed_width)


def _full_picture_step(step: LessonStep, data: LessonData, lang: str) -> StepView:
    from explorer.figures.attention import kinds_in

    stacks = [stack(data.trace, kind) for kind in kinds_in(data.trace)]
    fig = _full_picture_figure(data, lang)
    shapes = data.trace.shapes()
    chain = [("ids", shapes["src.ids"]), ("X", shapes["src.input"]), (r"\text{memory}", shapes["encoder.out"])]
    if data.has_decoder:
        chain.append((r"\text{logits}", shapes["logits"]))
    latex = r"\;\to\;".join(rf"{name}\,{shape_str(shape)}" for name, shape in chain)
    n_heads = sum(s.shape[0] * s.shape[1] for s in stacks)
    body = t("lesson.full_picture.body", lang, n=n_heads) if data.has_decoder else \
        t("lesson.full_picture.body_encoder", lang, n=n_heads)
    last = shapes["logits"] if data.has_decoder else shapes["encoder.out"]
    return StepView(step, _title(step, lang), body, shape_str(last), latex, figure=fig)


_BUILDERS: dict[str, Callable[[LessonStep, LessonData, str], StepView]] = {
    "tokens": _tokens_step, "ids": _ids_step, "embedding": _embedding_step, "position": _position_step,
    "scores": _scores_step, "softmax": _softmax_step, "values": _values_step, "multihead": _multihead_step,
    "addnorm": _addnorm_step, "ffn": _ffn_step, "encoder_layer": _encoder_layer_step, "causal_mask": _causal_step,
    "cross_attention": _cross_step, "next_token": _next_token_step, "full_picture": _full_picture_step,
}


# ------------------------------------------------------------------------------------------------
# Projector mode

PROJECTOR_SCALE = get_colorscale("Cividis")  # colour-blind safe (blue -> yellow), monotone in lightness
PROJECTOR_FONT_PX = 20  # figure text; tick labels stay readable from the back of a room
PROJECTOR_BODY_PX = 26  # page body text in projector mode (>= 24 px at 1920x1080)
PROJECTOR_MAX_HEIGHT = 640  # one figure per screen next to the text at 1080 px
PROJECTOR_MIN_HEIGHT = 540


def projector_figure(fig: go.Figure) -> go.Figure:
    """A copy of `fig` for a projector: larger text and tick labels, the cividis colour scale on every
    heatmap, bars in two colours that differ in lightness, a height that fits one 1080 px screen."""
    spec = fig.to_plotly_json()
    layout = dict(spec.get("layout", {}))
    layout["font"] = {**layout.get("font", {}), "size": PROJECTOR_FONT_PX}
    title = dict(layout.get("title", {}))
    title["font"] = {**title.get("font", {}), "size": PROJECTOR_FONT_PX + 6}
    layout["title"] = title
    for key in list(layout):
        if key.startswith(("xaxis", "yaxis")):
            axis = dict(layout[key])
            axis["tickfont"] = {"size": PROJECTOR_FONT_PX}
            if isinstance(axis.get("title"), dict):
                axis["title"] = {**axis["title"], "font": {"size": PROJECTOR_FONT_PX}}
            layout[key] = axis
    layout["annotations"] = [{**a, "font": {**a.get("font", {}), "size": PROJECTOR_FONT_PX}}
                             for a in layout.get("annotations", [])]
    if "coloraxis" in layout:
        axis = dict(layout["coloraxis"])
        axis.pop("cmid", None)
        axis["colorscale"] = PROJECTOR_SCALE
        axis["colorbar"] = {**axis.get("colorbar", {}), "tickfont": {"size": PROJECTOR_FONT_PX - 2}}
        layout["coloraxis"] = axis
    layout["plot_bgcolor"] = "white"  # masked (−∞) cells: white gaps, unlike any cividis colour
    height = int(layout.get("height") or 0)
    keeps_aspect = any(isinstance(v, dict) and "scaleanchor" in v for v in layout.values())
    if not keeps_aspect:  # square tiles (the all-heads overview) keep their own height and gaps
        layout["height"] = min(max(height + 80, PROJECTOR_MIN_HEIGHT), PROJECTOR_MAX_HEIGHT)
    layout["margin"] = {"l": 10, "r": 10, "t": 80, "b": 10}
    n_maps = sum(1 for trace in spec.get("data", []) if trace.get("type") == "heatmap")
    data = []
    for trace in spec.get("data", []):
        trace = dict(trace)
        if trace.get("type") == "heatmap":
            if "colorscale" in trace:
                trace["colorscale"] = PROJECTOR_SCALE
                trace.pop("zmid", None)
            trace["colorbar"] = {**trace.get("colorbar", {}), "tickfont": {"size": PROJECTOR_FONT_PX - 2}}
            if "texttemplate" in trace and n_maps > 2:  # numbers in many small panels would overlap
                trace.pop("texttemplate")
            elif "texttemplate" in trace:
                trace["textfont"] = {"size": PROJECTOR_FONT_PX - 4}
        elif trace.get("type") == "bar":
            colors = trace.get("marker", {}).get("color")
            if isinstance(colors, list | tuple):
                first = colors[0] if colors else None
                highlighted = [c != "#8ab4f8" for c in colors] if first is not None else []
                trace["marker"] = {**trace["marker"],
                                   "color": ["#00204c" if h else "#a9a9a9" for h in highlighted]}
            trace["textfont"] = {"size": PROJECTOR_FONT_PX}
        data.append(trace)
    return go.Figure({"data": data, "layout": layout}, _validate=False)


BASE_CSS = """<style>
[data-testid="stMain"] .katex-display { overflow-x: auto; overflow-y: hidden; padding-bottom: 2px; }
</style>"""  # a long equation scrolls inside its box on a phone instead of being cut off


def page_css(present: bool) -> str:
    """The lesson's <style>: equations scroll sideways on narrow screens; plus the projector's rules."""
    return BASE_CSS + (projector_css() if present else "")


def projector_css() -> str:
    """The projector's <style>: no sidebar, header or top navigation; large body text (>= 24 px);
    smaller again on a narrow (phone) screen."""
    px = PROJECTOR_BODY_PX
    return f"""<style>
[data-testid="stSidebar"], [data-testid="stSidebarCollapsedControl"], [data-testid="stExpandSidebarButton"],
[data-testid="stHeader"], [data-testid="stToolbar"], [data-testid="stDecoration"] {{ display: none !important; }}
[data-testid="stMainBlockContainer"] {{ padding-top: 1.2rem !important; max-width: 100% !important; }}
[data-testid="stMain"] p, [data-testid="stMain"] li, [data-testid="stMain"] label, [data-testid="stMain"] button,
[data-testid="stMain"] [data-testid="stCaptionContainer"] {{ font-size: {px}px !important; }}
[data-testid="stMain"] h1 {{ font-size: {int(px * 1.7)}px !important; }}
[data-testid="stMain"] h3 {{ font-size: {int(px * 1.4)}px !important; }}
[data-testid="stMain"] .katex {{ font-size: {int(px * 1.05)}px !important; }}
[data-testid="stMain"] code {{ font-size: {px - 2}px !important; }}
@media (max-width: 700px) {{
  [data-testid="stMain"] p, [data-testid="stMain"] li, [data-testid="stMain"] label,
  [data-testid="stMain"] button {{ font-size: 18px !important; }}
  [data-testid="stMain"] h1, [data-testid="stMain"] h3 {{ font-size: 24px !important; }}
  [data-testid="stMain"] .katex {{ font-size: 16px !important; }}
}}
</style>"""


# ------------------------------------------------------------------------------------------------
# Joining from a phone

LOCAL_HOSTS = {"localhost", "127.0.0.1", "::1", "0.0.0.0", "[::1]"}


def join_url(page_url: str | None, params: dict[str, str], page: str = "lesson",
             lan_address: str | None = None) -> tuple[str, bool]:
    """The URL a phone opens to join: the app's address as the browser sees it (`page_url`, e.g.
    st.context.url), on the lesson page, with `params` (sentence, model, language, step).

    A local address (localhost) is useless on a phone: it is replaced by `lan_address` (the server's
    address in the local network) when given. Returns (url, whether the host was replaced)."""
    parts = urlsplit(page_url or "http://localhost:8501/")
    scheme = parts.scheme or "http"
    netloc = parts.netloc or "localhost:8501"
    host = parts.hostname or "localhost"
    replaced = False
    if host in LOCAL_HOSTS and lan_address:
        port = f":{parts.port}" if parts.port else ""
        netloc, replaced = f"{lan_address}{port}", True
    path = parts.path or "/"
    segments = [s for s in path.split("/") if s]
    if segments and segments[-1] == page:
        segments = segments[:-1]
    base = "/" + "/".join([*segments, page])
    query = urlencode({k: v for k, v in params.items() if v is not None and v != ""})
    return urlunsplit((scheme, netloc, base, query, "")), replaced


def qr_code(url: str):
    """The QR code of `url` (segno.QRCode; error correction M, never a micro code)."""
    import segno

    return segno.make(url, error="m", micro=False)


def qr_png(url: str, scale: int = 8) -> bytes:
    """`url`'s QR code as PNG bytes (dark on white, a 4-module quiet zone)."""
    buffer = io.BytesIO()
    qr_code(url).save(buffer, kind="png", scale=scale, border=4)
    return buffer.getvalue()
