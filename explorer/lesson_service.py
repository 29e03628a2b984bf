"""The lesson's service (/lesson): one sentence through one model as the steps read it (LessonData). The
model's weights (analysis.model_facts), its task and its tokenizer are read here, once, so that the step
builders in explorer/figures/lesson/ only read the values they are given. No Streamlit here."""

from __future__ import annotations

from explorer.figures.lesson import LessonData
from explorer.figures.steps import LayerInfo
from explorer.tokenizer_service import from_tokens, special_tokens, vocabulary
from transformer_core.analysis.model_facts import model_facts
from transformer_core.tasks import model_task


def task_family(loaded) -> str:
    """What a model was trained to do (its task's family, transformer_core/tasks), as the lesson's text needs it:
    'ko-en' (Korean -> English translation), 'reverse', 'copy', 'sort', or '' (unknown, untrained, or no task)."""
    task = model_task(loaded)
    return task.family if task is not None else ""


def lesson_data(traced, loaded, text: str = "") -> LessonData:
    """From a core TextTrace, the LoadedModel that produced it and the sentence as typed."""
    cfg = loaded.config
    tokenizer = loaded.tokenizer
    return LessonData(
        trace=traced.trace, src_tokens=list(traced.src_tokens), tgt_tokens=list(traced.tgt_tokens),
        predicted_tokens=list(traced.predicted_tokens), has_decoder=traced.has_decoder,
        info=LayerInfo(cfg.d_model, cfg.n_heads, cfg.d_ff, cfg.norm_first, cfg.activation),
        scale_embedding=bool(cfg.scale_embedding), positional=str(cfg.positional),
        specials=frozenset(special_tokens(tokenizer)),
        vocabulary=vocabulary(tokenizer) if tokenizer is not None else (),
        source=from_tokens(tokenizer, list(traced.src_tokens)) if tokenizer is not None else None,
        text=text, sinusoidal_layout=str(getattr(cfg, "sinusoidal_layout", "interleaved")),
        task=task_family(loaded), trained=bool(loaded.trained), final_norm=bool(cfg.final_norm),
        facts=model_facts(loaded.model, traced.trace), model_name=loaded.name, max_len=int(cfg.max_len))
