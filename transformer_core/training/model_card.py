"""The model card and the files written next to a trained model: loss.csv, loss.png, README.md.

`write_model_dir(out, result, settings, config, metrics, command)` writes a complete model directory
(config.json + model.safetensors + tokenizer + card); the lab adds its recipe and curves through
`extra_sections`.
"""

from __future__ import annotations

import csv
import re
from pathlib import Path

import torch

from transformer_core.io.loading import save_model_dir
from transformer_core.models.config import TransformerConfig
from transformer_core.models.rnn import RNNConfig
from transformer_core.tasks import has_core_grammar, task_stream
from transformer_core.tasks.texts import ROUND_CARD_NOTES
from transformer_core.training.loop import TrainResult
from transformer_core.training.recipes import RECIPES, TrainSettings, recipe_data


def write_loss_csv(path: Path, history: list[dict]) -> None:
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=["step", "loss", "lr", "seconds"])
        writer.writeheader()
        writer.writerows(history)


def draw_loss_png(path: Path, history: list[dict], width: int = 640, height: int = 360) -> bool:
    """The loss curve (a 50-step running mean) as a PNG, drawn with Pillow if it is installed."""
    try:
        from PIL import Image, ImageDraw
    except ImportError:
        return False
    losses = [row["loss"] for row in history]
    if len(losses) < 2:
        return False
    smoothed = [sum(losses[max(0, i - 49):i + 1]) / (i + 1 - max(0, i - 49)) for i in range(len(losses))]
    left, top, right, bottom = 60, 20, width - 20, height - 40
    low, high = min(smoothed), max(smoothed)
    span = (high - low) or 1.0
    image = Image.new("RGB", (width, height), "white")
    draw = ImageDraw.Draw(image)
    draw.rectangle((left, top, right, bottom), outline="black")
    points = [(left + (right - left) * i / (len(smoothed) - 1), bottom - (bottom - top) * (v - low) / span)
              for i, v in enumerate(smoothed)]
    draw.line(points, fill=(31, 119, 180), width=2)
    draw.text((left, bottom + 8), f"step 1 .. {history[-1]['step']}", fill="black")
    draw.text((4, top), f"{high:.2f}", fill="black")
    draw.text((4, bottom - 10), f"{low:.2f}", fill="black")
    draw.text((left + 8, top + 6), "training loss (label-smoothed, running mean of 50)", fill="black")
    image.save(path)
    return True


def grammar_field(task: str) -> dict:
    """config.json's "grammar" of a bundled recipe on the ko-en grammar: the grammar its data came from
    (evaluate and every held-out sample read it back through tasks.model_task)."""
    data, core = task_stream(recipe_data(task))
    return {"grammar": data.whole_grammar} if data.grammar and not core else {}


def write_model_dir(out: Path, result: TrainResult, settings: TrainSettings, config: TransformerConfig,
                    metrics: dict, command: str = "", extra_config: dict | None = None,
                    extra_sections: list[str] | None = None, training_notes: list[str] | None = None,
                    final_dir: Path | None = None) -> None:
    """config.json + model.safetensors + tokenizer, the loss curve and the model card.

    final_dir: where the directory will end up when `out` is a temporary one (named in the card)."""
    save_model_dir(out, result.model, result.tokenizer, description=describe_task(settings.task),
                   extra={"task": recipe_data(settings.task), **grammar_field(settings.task), **(extra_config or {})})
    write_loss_csv(out / "loss.csv", result.history)
    draw_loss_png(out / "loss.png", result.history)
    write_model_card(out, result, settings, config, metrics, command, extra_sections, training_notes, final_dir)


def data_notes(task: str) -> str:
    """The model card's data section of a data stream (its task's card notes), with the lexicon's real counts."""
    data, core = task_stream(recipe_data(task))
    if core:
        if not has_core_grammar():
            return ("Trained in the lab on the full grammar (this build has no compact core).\n\n"
                    + data_notes(data.name))
        return data.lab_card_notes
    if not data.grammar:
        return data.card_notes
    from transformer_core.grammar.base import EXTENDED_GRAMMARS, stage_of
    from transformer_core.grammar.forms import grammar_lexicon
    from transformer_core.grammar.vocabulary import ko_en_vocabulary, stage_sizes

    lexicon = grammar_lexicon(stage_of(data.whole_grammar))
    verbs = {(v.stem, v.en_base) for v in lexicon.verbs}
    vocabulary = ko_en_vocabulary(grammar=data.whole_grammar)
    notes = data.card_notes.format(
        entries=lexicon.entries, nouns=len(lexicon.common_nouns) + len(lexicon.places) + len(lexicon.names),
        pronouns=len(lexicon.pronouns), verbs=len(verbs), adjectives=len(lexicon.adjectives),
        times=len(lexicon.time_words), adverbs=len(lexicon.degree_adverbs) + len(lexicon.manner_adverbs),
        vocab=len(vocabulary))
    sizes = stage_sizes()
    for before, stage in zip(("full", *EXTENDED_GRAMMARS[:-1]), EXTENDED_GRAMMARS, strict=True):
        text = ROUND_CARD_NOTES[stage].format(added=sizes[stage] - sizes[before])
        if stage != EXTENDED_GRAMMARS[-1]:  # an earlier stage's model, which this one's chain continued from
            text = re.sub(r"so(\s)this model continued", rf"so\1the {stage} model continued", text)
        notes += "\n\n" + text
    return notes


def describe_task(task: str) -> str:
    """One-paragraph description stored in config.json: the bundled recipe's own, else its data stream's task's
    (the lab's ko-en: the compact core's)."""
    recipe = RECIPES.get(task)
    if recipe is not None and recipe.description:
        return recipe.description
    data, core = task_stream(recipe_data(task))
    return data.lab_description if core and data.lab_description else data.description


def format_metrics(metrics: dict, single_attention: bool = False) -> list[str]:
    """Markdown lines for the model card's metrics section (`single_attention`: the RNN's one alignment)."""
    if not metrics:
        return ["(not evaluated)"]
    lines = [f"- evaluated on {metrics.get('n', '?')} held-out examples (seed {metrics.get('seed', '?')})",
             f"- exact match: {metrics['exact_match']:.1%}"]
    for name, value in metrics.get("exact_match_by_group", {}).items():
        lines.append(f"  - {name}: {value:.1%}")
    if "alignment_accuracy" in metrics and single_attention:
        lines.append(f"- alignment accuracy (rnn.attn.weights, the one alignment per decoder step): "
                     f"{metrics['alignment_accuracy']:.1%} ({metrics.get('scored_words', '?')} scored words)")
    elif "alignment_accuracy" in metrics:
        lines.append(f"- alignment accuracy (best layer, head average): {metrics['alignment_accuracy']:.1%} "
                     f"(decoder layer {metrics['best_layer']})")
        best = metrics["best_head"]
        lines.append(f"- alignment accuracy (best single head): {best['accuracy']:.1%} "
                     f"(layer {best['layer']}, head {best['head']})")
        per_layer = ", ".join(f"layer {i}: {v:.1%}" for i, v in enumerate(metrics["per_layer"]))
        lines.append(f"- per layer (head average): {per_layer}")
    return lines


def write_model_card(out: Path, result: TrainResult, settings: TrainSettings, config: TransformerConfig,
                     metrics: dict, command: str = "", extra_sections: list[str] | None = None,
                     training_notes: list[str] | None = None, final_dir: Path | None = None) -> None:
    """README.md: task, data, config, training, metrics (+ the lab's or a fine-tune's own sections)."""
    n_parameters = sum(p.numel() for p in result.model.parameters())
    size_mb = (out / "model.safetensors").stat().st_size / 1e6 if (out / "model.safetensors").exists() else 0.0
    device = result.trained_on or str(next(result.model.parameters()).device).split(":")[0].upper()
    threads = "1 thread" if torch.get_num_threads() == 1 else f"{torch.get_num_threads()} threads"
    where = f"this machine's {device} ({threads})" if device == "CPU" else f"one {device} GPU"
    shown = Path(final_dir or out)
    command = command or f"python -m transformer_core train --task {settings.task} --out {shown.as_posix()}"
    rnn = isinstance(config, RNNConfig)
    if rnn:
        shape = [
            f"- embedding E {config.embed_dim}, bidirectional GRU encoder 2 x {config.hidden_size} (h_j has "
            f"{2 * config.hidden_size}), GRU decoder {config.hidden_size}, alignment model A {config.attn_size}, "
            f"maxout output {config.maxout_size} (pool 2), max_len {config.max_len}",
            f"- additive attention, one alignment per decoder step; shared embeddings (source = target = output "
            f"projection), vocabulary {config.src_vocab_size}",
        ]
    else:
        shape = [
            f"- d_model {config.d_model}, {config.n_heads} heads (d_k {config.d_k}), {config.n_encoder_layers} "
            f"encoder + {config.n_decoder_layers} decoder layers, d_ff {config.d_ff}, max_len {config.max_len}",
            f"- {'pre' if config.norm_first else 'post'}-LN, {config.positional} positions, {config.activation}, "
            f"shared embeddings (source = target = output projection), vocabulary {config.src_vocab_size}",
        ]
    lines = [
        f"# {shown.name}", "", describe_task(settings.task), "",
        "## Data", "", data_notes(settings.task), "",
        "## Model", "", *shape,
        f"- {n_parameters:,} parameters, model.safetensors {size_mb:.1f} MB",
        "", "## Training", "",
        f"- `{command}` (seed {settings.seed})",
        f"- {result.steps_done} steps x {settings.batch_size} freshly generated examples, Adam (0.9, 0.98, 1e-9), "
        f"peak learning rate {settings.peak_lr:g} after {settings.warmup} warmup steps, then 1/sqrt(step) decay "
        f"and a linear cool-down over the last {settings.cooldown_fraction:.0%}",
        f"- label smoothing {settings.label_smoothing}, dropout {config.dropout}, gradient clipping 1.0"
        + (f", sampled softmax over {settings.sampled_softmax} candidates" if settings.sampled_softmax else "")
        + (f"; trained only {', '.join(settings.train_only)} (the rest frozen)" if settings.train_only else ""),
        f"- final training loss {result.history[-1]['loss']:.3f} "
        f"({'label-smoothed' if settings.label_smoothing else 'plain cross-entropy'}); curve in loss.csv",
        f"- training time {result.seconds / 60:.1f} min on {where}",
        *(training_notes or []),
        "", "## Metrics", "", *format_metrics(metrics, single_attention=rnn), "",
        "Alignment accuracy: teacher-forced on the gold target; for each scored target word, the row of "
        + ("α (rnn.attn.weights) of the decoder step that predicts it (its input is the previous token)" if rnn
           else "cross-attention that predicts it (its query is the previous token)")
        + " is taken, and its argmax over the source words (the appended </s> excluded) must be a gold source "
        "word. Re-run with "
        f"`python -m transformer_core evaluate {shown.as_posix()}`.", "",
        *(extra_sections or []),
    ]
    (out / "README.md").write_text("\n".join(lines), encoding="utf-8")


