"""What to train: the tasks, their data streams and tokenizers, the model shapes, the settings.

Two kinds of recipe live here:

* `RECIPES`: the bundled models' recipes (`python -m transformer_core train --task ko-en --out DIR`
  retrains models/ko-en-toy; `--task reverse` models/reverse).
* The training lab's recipes (`LabRecipe`: task, size preset, time budget, seed). The page and the
  CLI (`--task ko-en --preset class`) build the same `TrainSettings` + `TransformerConfig` from one
  `LabRecipe`, through `lab_plan()`, so a run prepared before class is the run the page would make.

The tasks themselves (data, tokenizers, held-out examples, goals, probes) are transformer_core/tasks/:
lab tasks `ko-en` (the toy translation grammar; its compact core when the grammar offers one), three
letter tasks whose attention has an obvious right answer (`reverse`, `copy`, `sort`) and the speech-level
classifier. This module holds what a run of them needs: presets, schedules, model shapes.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from dataclasses import dataclass, field

from transformer_core.data import BOS_ID, EOS_ID, PAD_ID
from transformer_core.data.reverse import MAX_CHARS
from transformer_core.grammar.base import REGISTERS
from transformer_core.models.config import TransformerConfig
from transformer_core.models.rnn import RNNConfig
from transformer_core.tasks import LAB_TASKS, LengthLimit, lab_stream, lab_task, task_stream
from transformer_core.tasks.heldout import Example


@dataclass(frozen=True)
class TrainSettings:
    """Everything a run needs besides the model shape."""

    task: str
    steps: int
    batch_size: int
    peak_lr: float
    warmup: int
    cooldown_fraction: float = 0.2  # the last fraction of steps decays linearly to zero
    label_smoothing: float = 0.1
    seed: int = 0
    threads: int = 1  # 1: on a shared 2-core CPU, two threads per process fight and run several times slower
    max_minutes: float = 0.0  # time budget: schedule and curriculum follow the clock, stop when used up (0 = none)
    sampled_softmax: int = 0  # >0: train the output layer on this many candidate ids per batch (big vocabularies)
    buckets: int = 16  # batches drawn together and grouped by length (less padding)
    curriculum_fraction: float = 0.0  # reverse: grow the text length from 8 to 64 over this share of the steps
    # reverse: weights of ReverseData's styles (random, words, sentence, repeats); () = the data's defaults
    style_weights: tuple[int, ...] = ()
    data_workers: int = 0  # >0: that many processes write the training pairs (a GPU outruns one; pair_workers.py)
    # parameter-name prefixes to train (the rest frozen); () = all. Finishing a sampled-softmax model with the
    # full softmax on its last layers only keeps what the lower layers learned (and their attention) as it is.
    train_only: tuple[str, ...] = ()


@dataclass(frozen=True)
class TaskRecipe:
    """Default model shape and training settings of one bundled task."""

    model: dict
    settings: dict
    tiny_model: dict = field(default_factory=dict)
    architecture: str = "transformer"  # or "rnn": the 2015 attention RNN (rnn.py); `model` holds RNNConfig fields
    data: str = ""  # the data stream when it is not the recipe's name ("ko-en-rnn" trains on "ko-en")
    description: str = ""  # config.json's description when it is not the task's (another architecture)


RECIPES: dict[str, TaskRecipe] = {
    "ko-en": TaskRecipe(
        # The learner grammar (2,438 lemmas, four speech levels): d_ff 768 and a 20-minute budget from scratch;
        # the bundled model continues from the earlier one (its card has the command lines).
        model=dict(d_model=256, n_heads=4, n_encoder_layers=2, n_decoder_layers=2, d_ff=768, max_len=128),
        settings=dict(steps=8000, batch_size=64, peak_lr=1e-3, warmup=400, sampled_softmax=0, max_minutes=20.0),
        tiny_model=dict(d_model=32, n_heads=2, n_encoder_layers=1, n_decoder_layers=1, d_ff=64, max_len=64),
    ),
    "reverse": TaskRecipe(
        # Pre-LN (+ final LayerNorm): on this task it leaves its plateau much sooner than post-LN.
        model=dict(d_model=128, n_heads=4, n_encoder_layers=2, n_decoder_layers=2, d_ff=512, max_len=128,
                   norm_first=True, final_norm=True),
        settings=dict(steps=6000, batch_size=32, peak_lr=4e-3, warmup=200, sampled_softmax=2048, max_minutes=13.0,
                      curriculum_fraction=0.3),
        tiny_model=dict(d_model=32, n_heads=2, n_encoder_layers=1, n_decoder_layers=1, d_ff=64, max_len=80,
                        norm_first=True, final_norm=True),
    ),
    # Bahdanau et al. (2015) at toy size: E 128, bidirectional GRU 2 x 128 (h_j: 256), decoder GRU 128,
    # alignment model 128, maxout 128 (tied to the shared embedding). Same data, tokenizer, loss, schedule.
    # Full softmax: on the learner grammar's 9,241 tokens a sampled softmax over 1,024 candidates taught the RNN to
    # drop the rare content words at greedy decoding (58 % exact, then 2 %; docs/models.md).
    "ko-en-rnn": TaskRecipe(
        model=dict(embed_dim=128, hidden_size=128, attn_size=128, maxout_size=128, max_len=128),
        settings=dict(steps=8000, batch_size=32, peak_lr=3e-3, warmup=300, sampled_softmax=0, max_minutes=13.0),
        tiny_model=dict(embed_dim=16, hidden_size=16, attn_size=16, maxout_size=16, max_len=64),
        architecture="rnn", data="ko-en",
        description="Toy Korean -> English translation by the 2015 attention RNN (Bahdanau et al.): bidirectional "
                    "GRU encoder, GRU decoder, additive attention e_tj = v^T tanh(W_s s_{t-1} + W_h h_j), one "
                    "alignment per step. Same synthetic grammar, tokenizer and gold alignments as ko-en-toy.",
    ),
}


def recipe_data(task: str) -> str:
    """The data stream (and tokenizer) of a bundled recipe: 'ko-en-rnn' -> 'ko-en'; others: the name itself."""
    recipe = RECIPES.get(task)
    return recipe.data if recipe is not None and recipe.data else task


# --- the lab's recipes -------------------------------------------------------------------------------

@dataclass(frozen=True)
class Preset:
    """A model size for the lab: the numbers the page shows."""

    name: str
    d_model: int
    n_heads: int
    layers: int  # per side (encoder = decoder)
    d_ff: int
    peak_lr: float
    warmup: int
    batch_size: int
    snapshot_every: int  # steps between snapshots (held-out metrics + the probe's attention)
    steps: int = 500  # the schedule's length: a run ends here or when its time budget is used up, first of the two

    def model_fields(self) -> dict:
        return dict(d_model=self.d_model, n_heads=self.n_heads, n_encoder_layers=self.layers,
                    n_decoder_layers=self.layers, d_ff=self.d_ff)


PRESETS: dict[str, Preset] = {
    # tiny: for tests and a first look (seconds); class: the default (benchmarks/lab_steps.py, docs/lab.md:
    # ko-en reaches 95 % exact / 85 % alignment at step 450 of its 500: 3e-3 peak after a short warmup and
    # batches of 128 on the compact core's vocabulary); larger: more heads and layers to compare, longer budget.
    "tiny": Preset("tiny", d_model=32, n_heads=2, layers=1, d_ff=64, peak_lr=3e-3, warmup=30, batch_size=32,
                   snapshot_every=25, steps=1500),
    "class": Preset("class", d_model=128, n_heads=4, layers=2, d_ff=256, peak_lr=3e-3, warmup=100, batch_size=128,
                    snapshot_every=40, steps=500),
    "larger": Preset("larger", d_model=256, n_heads=8, layers=3, d_ff=1024, peak_lr=7e-4, warmup=300, batch_size=64,
                     snapshot_every=40, steps=1500),
}
# The lab's tasks are transformer_core/tasks/'s LAB_TASKS (lab name -> Task); these views, keyed by lab name,
# are read from it. An encoder + [CLS] classifier (training/classify.py): the speech level of a Korean
# sentence. Its "exact match" is the held-out accuracy (the one label right); its "alignment" the share of
# held-out sentences whose last-layer [CLS] row of attention (head average) peaks on the verb ending.
LETTER_TASKS = tuple(name for name, task in LAB_TASKS.items() if task.letters)
CLASSIFIER_TASKS = tuple(name for name, task in LAB_TASKS.items() if task.classifier)
# The classifier's shapes per preset (d_model, heads, encoder layers, d_ff): smaller than the translator's,
# a four-way label needs less (class: 95 % held-out at step 450 to 1,350 over seeds 0-2, benchmarks/speech_level.py)
CLASSIFIER_SHAPES: dict[str, tuple[int, int, int, int]] = {"tiny": (32, 2, 1, 64), "class": (64, 4, 2, 128),
                                                           "larger": (128, 8, 3, 512)}
CLASSIFIER_BATCH, CLASSIFIER_LR = 32, 2e-3
DEFAULT_BUDGET_S = 120
# What a lab run aims for on its held-out sentences: (exact match, alignment accuracy), each task's goals;
# benchmarks/lab_steps.py measures the steps each preset needs to get there.
GOALS: dict[str, tuple[float, float]] = {name: task.goals for name, task in LAB_TASKS.items()}
# A fixed sentence whose attention the lab records at every snapshot (unless the user's own fits).
DEFAULT_PROBES: dict[str, str] = {name: task.probe for name, task in LAB_TASKS.items()}


def meets_goal(task: str, exact: float, alignment: float) -> bool:
    """Whether held-out scores reach the lab task's goal."""
    return lab_task(task).meets_goal(exact, alignment)


@dataclass(frozen=True)
class LabRecipe:
    """One lab run, the key of a lab job: the same recipe always means the same training."""

    task: str = "ko-en"
    preset: str = "class"
    budget_s: int = DEFAULT_BUDGET_S
    seed: int = 0
    device: str = "cpu"
    max_steps: int = 0  # 0 = as many steps as the time budget allows (tests use a fixed count)
    probe: str = ""  # '' = the task's default probe sentence

    def __post_init__(self) -> None:
        if self.task not in LAB_TASKS:
            raise ValueError(f"unknown lab task {self.task!r}; expected one of {', '.join(LAB_TASKS)}")
        if self.preset not in PRESETS:
            raise ValueError(f"unknown preset {self.preset!r}; expected one of {', '.join(PRESETS)}")
        if self.budget_s <= 0 and self.max_steps <= 0:
            raise ValueError("a lab run needs a time budget or a step count")

    @property
    def probe_text(self) -> str:
        return self.probe or lab_task(self.task).probe

    @property
    def name(self) -> str:
        """The saved model's directory name (stable for a recipe)."""
        steps = f"-{self.max_steps}steps" if self.max_steps else ""
        probe = "" if not self.probe else "-p" + hashlib.blake2b(self.probe.encode("utf-8"), digest_size=3).hexdigest()
        return f"lab-{self.task}-{self.preset}-{self.budget_s}s-seed{self.seed}{steps}{probe}"


# Where a task needs another schedule than its preset's (benchmarks/lab_steps.py, docs/lab.md): the class
# preset on the letter tasks met the goal at step 750 (reverse) and 700 (sort) of 800, not within 500;
# their steps are cheap (a 30-letter vocabulary).
TASK_STEPS: dict[tuple[str, str], int] = {("class", task): 800 for task in LETTER_TASKS}
TASK_STEPS.update({(preset, task): 2000 for preset in CLASSIFIER_SHAPES for task in CLASSIFIER_TASKS})  # the plateau


def planned_steps(recipe: LabRecipe) -> int:
    """The steps a lab run's schedule plans (its step limit, else its preset's for its task); the time budget
    may end it sooner."""
    return recipe.max_steps or TASK_STEPS.get((recipe.preset, recipe.task), PRESETS[recipe.preset].steps)


def tokenizer_for(task: str, lab: bool = False):
    """The tokenizer of a lab task (`lab`) or of a bundled recipe's data stream: the task's own."""
    return (lab_task(task) if lab else task_stream(recipe_data(task))[0]).tokenizer(lab=lab)


def probe_problem(task: str, text: str, tokenizer) -> dict | None:
    """Why `text` cannot be the lab's probe for `task`, or None if it fits (the task's rule: tasks/)."""
    return lab_task(task).probe_problem(text, tokenizer)


def fits_task(task: str, text: str, tokenizer) -> bool:
    """Whether `text` can be the lab's probe for `task`: every piece known, short enough."""
    return lab_task(task).fits_probe(text, tokenizer)


# --- data streams ------------------------------------------------------------------------------------

def curriculum_length(progress: float, settings: TrainSettings, start: int = 8, longest: int = MAX_CHARS) -> int:
    """Length curriculum: the longest text grows linearly from `start` to `longest` over the first
    `curriculum_fraction` of the run (short reversals are learned first, then extended)."""
    ramp = settings.curriculum_fraction
    if ramp <= 0 or progress >= ramp:
        return longest
    return min(longest, start + round((longest - start) * progress / ramp))


def training_pairs(task: str, vocab: dict[str, int], seed: int, limit: LengthLimit | None = None,
                   style_weights: tuple[int, ...] = ()) -> Iterator[tuple[list[int], list[int]]]:
    """Endless (source ids + EOS, target ids) pairs of a data stream (a task's name, 'lab-ko-en' for the lab's
    core grammar; a bundled recipe with its own `data`, 'ko-en-rnn', reads that stream)."""
    data, core = task_stream(recipe_data(task))
    return data.training_pairs(vocab, seed, core, limit, style_weights)


def data_task(task: str) -> str:
    """The data stream name of a lab task ('ko-en' -> 'lab-ko-en', 'copy' -> 'letters-copy')."""
    return lab_stream(lab_task(task))


def held_out_examples(task: str, tokenizer, n: int, seed: int = 12345) -> list[Example]:
    """`n` distinct held-out examples of a lab task (never trained on: the hash split)."""
    return lab_task(task).held_out(tokenizer, n, seed, core=True)


# --- model shape ---------------------------------------------------------------------------------------

def base_config_values(vocab_size: int) -> dict:
    """The paper's architecture at any size: sinusoidal, ReLU, shared embeddings, post-LN."""
    return dict(src_vocab_size=vocab_size, tgt_vocab_size=vocab_size, share_embeddings=True, norm_first=False,
                activation="relu", positional="sinusoidal", pad_token_id=PAD_ID, bos_token_id=BOS_ID,
                eos_token_id=EOS_ID)


def build_config(task: str, tiny: bool, overrides: dict, vocab_size: int) -> TransformerConfig | RNNConfig:
    """A bundled task's model shape (tiny for tests): sinusoidal, ReLU, shared embeddings; post-LN unless the
    recipe says otherwise (reverse: pre-LN). An "rnn" recipe gives an RNNConfig (Transformer overrides ignored)."""
    recipe = RECIPES[task]
    shape = dict(recipe.tiny_model if tiny else recipe.model)
    if recipe.architecture == "rnn":
        return RNNConfig(src_vocab_size=vocab_size, tgt_vocab_size=vocab_size, pad_token_id=PAD_ID,
                         bos_token_id=BOS_ID, eos_token_id=EOS_ID, **shape)
    shape.update({k: v for k, v in overrides.items() if v is not None})
    values = base_config_values(vocab_size)
    values.update(shape)
    return TransformerConfig(**values)


def count_parameters(config: TransformerConfig) -> int:
    """Parameters of a model of this shape (shared embeddings counted once), without building it."""
    d, f, v = config.d_model, config.d_ff, config.src_vocab_size
    attention = 4 * (d * d + d)
    ffn = d * f + f + f * d + d
    norm = 2 * d
    encoder = config.n_encoder_layers * (attention + ffn + 2 * norm)
    decoder = config.n_decoder_layers * (2 * attention + ffn + 3 * norm)
    final = 2 * norm if config.final_norm else 0
    if not config.tgt_vocab_size:  # the speech-level classifier: an encoder and a [CLS] head, no output layer
        return v * d + encoder + final + len(REGISTERS) * (d + 1)
    return v * d + encoder + decoder + final + v  # embedding (tied with lm_head) + lm_head bias


@dataclass(frozen=True)
class LabPlan:
    """Everything `train()` needs for a lab recipe, plus the tokenizer and the probe."""

    recipe: LabRecipe
    settings: TrainSettings
    config: TransformerConfig
    tokenizer: object
    snapshot_every: int


def lab_plan(recipe: LabRecipe, tokenizer=None) -> LabPlan:
    """The one translation from a lab recipe to settings + model shape (page and CLI both use it)."""
    preset = PRESETS[recipe.preset]
    task = lab_task(recipe.task)
    tokenizer = tokenizer or task.tokenizer(lab=True)
    if task.classifier:  # an encoder only, the classifier's own shape and optimiser settings
        d_model, n_heads, layers, d_ff = CLASSIFIER_SHAPES[recipe.preset]
        config = TransformerConfig(**{**base_config_values(len(tokenizer)), "tgt_vocab_size": 0,
                                      "share_embeddings": False, "d_model": d_model, "n_heads": n_heads,
                                      "n_encoder_layers": layers, "n_decoder_layers": 0, "d_ff": d_ff,
                                      "max_len": 64, "dropout": 0.1})
        settings = TrainSettings(task=recipe.task, steps=planned_steps(recipe), batch_size=CLASSIFIER_BATCH,
                                 peak_lr=CLASSIFIER_LR, warmup=0, label_smoothing=0.0, seed=recipe.seed, threads=1,
                                 max_minutes=recipe.budget_s / 60 if recipe.budget_s else 0.0)
        return LabPlan(recipe, settings, config, tokenizer, 50)
    max_len = 64 if task.letters else 128
    config = TransformerConfig(**{**base_config_values(len(tokenizer)), **preset.model_fields(), "max_len": max_len,
                                    "dropout": 0.0})
    settings = TrainSettings(
        task=lab_stream(task), steps=planned_steps(recipe), batch_size=preset.batch_size,
        peak_lr=preset.peak_lr, warmup=min(preset.warmup, max(1, (recipe.max_steps or 10**9) // 4)),
        seed=recipe.seed, threads=1, max_minutes=recipe.budget_s / 60 if recipe.budget_s else 0.0,
        buckets=4 if task.letters else 8,
    )
    return LabPlan(recipe, settings, config, tokenizer, preset.snapshot_every)
