"""Evaluate a bundled model on a fresh held-out sample: exact match and cross-attention alignment.

    python -m transformer_core evaluate models/ko-en-toy [--json] [--n 500] [--seed 0]
    python -m transformer_core evaluate models/reverse --json
    python -m transformer_core evaluate models/ko-en-toy --head-importance --json   (importance.py)

Exact match: the greedy output equals the reference, token for token. Alignment: teacher-forced on
the reference, the cross-attention row that predicts each target word (its query is the previous
token) must have its largest weight on the gold source word (see alignment.py); reported per decoder
layer for the head average, and for every single head. The 2015 attention RNN (rnn.py) has one
alignment per step (`rnn.attn.weights`): it is scored as one layer with one head
(`cross_attention_maps`). JSON keys: exact_match, exact_match_by_group,
alignment_accuracy (best layer, head average), best_layer, best_head {layer, head, accuracy},
alignment_accuracy_best_head, per_layer, per_head, scored_words, input_row_alignment (diagnostic:
the same score on the row whose query is the target word itself), failures (up to 20 misses).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping
from pathlib import Path

from transformer_core.analysis.alignment import anti_diagonal_gold
from transformer_core.analysis.heldout import REAL_SENTENCES, Example
from transformer_core.analysis.scoring import (  # noqa: F401  (re-exported: the one scoring loop)
    HeldOutScore,
    cross_attention,
    cross_attention_maps,
    decoding_limit,
    score_examples,
    summarize,
)
from transformer_core.data import EOS_ID, is_held_out
from transformer_core.data.ko_en_everyday import ko_en_grammar
from transformer_core.data.reverse import ReverseData
from transformer_core.io.loading import LoadedModel, load
from transformer_core.tracing.hooks import Patch

# --- samples --------------------------------------------------------------------------------------

def ko_en_examples(tokenizer, n: int, seed: int, core: bool = False, grammar_name: str = "full") -> list[Example]:
    """`n` distinct held-out sentence pairs (their Korean text hashes into the evaluation bucket);
    `core=True` draws them from the compact core grammar (`KoEnGrammar(seed, core=True)`), else from
    `grammar_name` ("full" or "everyday": what config.json's "grammar" says the model was trained on)."""
    vocab = tokenizer.get_vocab()
    grammar = ko_en_grammar(seed, "core" if core else grammar_name)
    seen: set[str] = set()
    examples = []
    while len(examples) < n:
        pair = grammar.sample()
        if pair.source_text in seen or not is_held_out(pair.source_text):
            continue
        seen.add(pair.source_text)
        source_ids = [vocab[w] for w in pair.source] + [EOS_ID]
        examples.append(Example(source_ids, [vocab[w] for w in pair.target], list(pair.alignment), "generated"))
    return examples


def reverse_example(tokenizer, text: str, group: str) -> Example:
    ids = tokenizer(text)["input_ids"]  # characters + EOS
    chars = ids[:-1]
    return Example(ids, chars[::-1], anti_diagonal_gold(len(chars)), group)


def reverse_examples_for_eval(tokenizer, n: int, seed: int) -> list[Example]:
    """`n` held-out generated texts (random / words / sentence styles) plus the hand-written sentences."""
    data = ReverseData(seed)
    examples = []
    seen: set[str] = set()
    while len(examples) < n:
        example = data.sample_split(held_out=True)
        if example.source in seen:
            continue
        seen.add(example.source)
        examples.append(reverse_example(tokenizer, example.source, example.style))
    examples += [reverse_example(tokenizer, text, "real") for text in REAL_SENTENCES]
    return examples


# --- scoring (scoring.py holds the one loop) --------------------------------------------------------

def score(model, examples: list[Example], batch_size: int = 64,
          patches: Mapping[str, Patch] | None = None) -> dict:
    """The metrics dict of `model` (under `patches`) on `examples`: `score_examples(...)[0].metrics()`."""
    return score_examples(model, examples, batch_size, patches)[0].metrics()


def task_of(loaded: LoadedModel) -> str:
    """The task a model was trained on ('ko-en', 'reverse', 'letters-copy', ...): `loaded.task`, read from
    config.json's "task" once when the model was loaded; '' when it names none (never guessed)."""
    return loaded.task


def _task(loaded: LoadedModel, task: str | None) -> str:
    """`task`, else the model's own; ValueError when neither names one."""
    task = task or task_of(loaded)
    if not task:
        raise ValueError(f"{loaded.name}: its config.json names no task; pass one (--task ko-en or --task reverse)")
    return task


def trained_on_core(loaded: LoadedModel) -> bool:
    """Was the model trained on the core grammar? (config.json "grammar": "core", written by the lab)."""
    return loaded.grammar == "core"


def whole_grammar_of(loaded: LoadedModel) -> str:
    """The whole grammar a ko-en model was trained on: "everyday" when config.json says so, else "full"
    (models trained before the everyday grammar name none, or "core" for the lab's)."""
    return "everyday" if loaded.grammar == "everyday" else "full"


def evaluate_model(loaded: LoadedModel, task: str | None = None, n: int = 500, seed: int = 0,
                   batch_size: int = 64, core: bool | None = None) -> dict:
    """Metrics of `loaded` on `n` fresh held-out examples of its task.

    ko-en: `core` True measures on the core grammar, False on the whole grammar, None: what
    config.json's "grammar" says ("core" or anything else = the whole grammar)."""
    task = _task(loaded, task)
    if task == "ko-en":
        core = trained_on_core(loaded) if core is None else core
        examples = ko_en_examples(loaded.tokenizer, n, seed, core=core, grammar_name=whole_grammar_of(loaded))
    elif task == "reverse":
        examples = reverse_examples_for_eval(loaded.tokenizer, n, seed)
    elif task.startswith("letters-"):  # the training lab's copy / reverse / sort of a-z strings
        from transformer_core.training.recipes import held_out_examples

        examples = held_out_examples(task.removeprefix("letters-"), loaded.tokenizer, n, seed)
    else:
        raise ValueError(f"unknown task {task!r}")
    metrics = score_examples(loaded.model, examples, batch_size)[0].metrics()
    tokenizer = loaded.tokenizer
    metrics["failures"] = [
        {"source": tokenizer.decode(f["source_ids"], skip_special_tokens=True),
         "output": tokenizer.decode(f["output_ids"], skip_special_tokens=True),
         "expected": tokenizer.decode(f["target_ids"], skip_special_tokens=True)} for f in metrics["failures"]
    ]
    grammar = {"grammar": "core" if core else whole_grammar_of(loaded)} if task == "ko-en" else {}
    return {"model": loaded.name, "task": task, "n": n, "seed": seed, **grammar, **metrics}


def format_report(metrics: dict) -> str:
    """Plain-text summary for the terminal."""
    lines = [f"{metrics['model']} ({metrics['task']}): {metrics['n']} held-out examples, seed {metrics['seed']}",
             f"exact match: {metrics['exact_match']:.1%}"]
    lines += [f"  {group}: {value:.1%}" for group, value in metrics["exact_match_by_group"].items()]
    lines.append(f"alignment accuracy, best layer (head average): {metrics['alignment_accuracy']:.1%} "
                 f"(decoder layer {metrics['best_layer']}, {metrics['scored_words']} scored words)")
    best = metrics["best_head"]
    lines.append(f"alignment accuracy, best head: {best['accuracy']:.1%} (layer {best['layer']}, head {best['head']})")
    for layer, (average, heads) in enumerate(zip(metrics["per_layer"], metrics["per_head"], strict=True)):
        lines.append(f"  layer {layer}: average {average:.1%}; heads " + " ".join(f"{h:.1%}" for h in heads))
    shifted = metrics["input_row_alignment"]
    lines.append(f"diagnostic, scoring the row whose query is the word itself: best layer {shifted['best_layer']:.1%}, "
                 f"best head {shifted['best_head']:.1%}")
    for failure in metrics["failures"][:5]:
        lines.append(f"  miss: {failure['source']!r} -> {failure['output']!r} (expected {failure['expected']!r})")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m transformer_core evaluate", description=__doc__.split("\n")[0])
    parser.add_argument("model", help="model directory or name (e.g. models/ko-en-toy)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--n", type=int, help="held-out examples to draw (default 500; 200 with --head-importance)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--task", choices=["ko-en", "reverse"], help="default: from config.json")
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--core", action=argparse.BooleanOptionalAction, default=None,
                        help="ko-en: measure on the core grammar (default: config.json's \"grammar\")")
    parser.add_argument("--head-importance", action="store_true",
                        help="switch off each head (and each layer) alone and measure the drop; writes "
                             "head_importance.json into the model directory (see importance.py)")
    parser.add_argument("--method", choices=["zero", "mean", "uniform"], default="zero",
                        help="how --head-importance switches a head off")
    parser.add_argument("--max-rows", type=int, default=256, help="batch rows per pass for --head-importance")
    args = parser.parse_args(argv)
    loaded = load(Path(args.model) if Path(args.model).is_dir() else args.model)
    try:
        if args.head_importance:
            return head_importance_main(loaded, args)
        metrics = evaluate_model(loaded, args.task, args.n or 500, args.seed, args.batch_size, core=args.core)
    except ValueError as exc:  # no task, an unknown task, an encoder-only model: a message, not a traceback
        print(f"evaluate: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(metrics, ensure_ascii=False))
    else:
        print(format_report(metrics))
    return 0


def examples_for(loaded: LoadedModel, task: str, n: int, seed: int, core: bool | None = None) -> list[Example]:
    """The held-out sample of a task (ko-en: n sentence pairs, core grammar as evaluate_model decides;
    reverse: n texts + the hand-written ones)."""
    if task == "ko-en":
        return ko_en_examples(loaded.tokenizer, n, seed, core=trained_on_core(loaded) if core is None else core,
                              grammar_name=whole_grammar_of(loaded))
    if task == "reverse":
        return reverse_examples_for_eval(loaded.tokenizer, n, seed)
    raise ValueError(f"unknown task {task!r}")


def head_importance_main(loaded: LoadedModel, args) -> int:
    """--head-importance: the table, printed and written to <model dir>/head_importance.json."""
    from transformer_core.analysis.importance import FILE_NAME, format_table, head_importance

    task = _task(loaded, args.task)
    n = args.n or 200
    examples = examples_for(loaded, task, n, args.seed, args.core)
    last = [-1]

    def progress(done: int, total: int) -> None:
        percent = 100 * done // total
        if percent // 10 != last[0]:
            last[0] = percent // 10
            print(f"head importance: {percent}% ({done}/{total} experiment x example pairs)", file=sys.stderr)

    result = head_importance(loaded, examples, task, args.method, args.batch_size, args.max_rows, progress)
    result["seed"] = args.seed
    if task == "ko-en":
        result["grammar"] = ("core" if (trained_on_core(loaded) if args.core is None else args.core)
                             else whole_grammar_of(loaded))
    if loaded.directory is not None:
        path = loaded.directory / FILE_NAME
        path.write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"wrote {path}", file=sys.stderr)
    print(json.dumps(result, ensure_ascii=False) if args.json else format_table(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
