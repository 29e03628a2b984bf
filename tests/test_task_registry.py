"""The task registry (transformer_core/tasks/) is the one place that knows the tasks: no other module compares
a task's name (read from the source with ast), and each task's held-out examples are right on their own terms
(the gold alignment rebuilt here from the text, independently of the task's code)."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from transformer_core.data import EOS_ID, is_held_out
from transformer_core.tasks import KO_EN, LAB_TASKS, STREAMS, TASKS, lab_task, task_named, task_stream

ROOT = Path(__file__).resolve().parent.parent
REGISTRY = ROOT / "transformer_core" / "tasks"
TASK_NAMES = frozenset(TASKS) | frozenset(LAB_TASKS) | frozenset(STREAMS) | {"ko-en-rnn"}
SOURCES = [ROOT / "app.py",
           *sorted(p for folder in ("transformer_core", "explorer", "pages", "benchmarks")
                   for p in (ROOT / folder).rglob("*.py") if REGISTRY not in p.parents)]


def task_name_comparisons(path: Path) -> list[tuple[int, str]]:
    """(line, literal) of every ==, !=, in, not in whose other side is a task-name literal (or a tuple, list or
    set of them), every `case "ko-en":`, and every .startswith("letters-")-style prefix test on a task name."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Compare):
            for operand in (node.left, *node.comparators):
                values = operand.elts if isinstance(operand, ast.Tuple | ast.List | ast.Set) else [operand]
                found += [(node.lineno, v.value) for v in values
                          if isinstance(v, ast.Constant) and v.value in TASK_NAMES]
        elif isinstance(node, ast.MatchValue) and isinstance(node.value, ast.Constant) \
                and node.value.value in TASK_NAMES:
            found.append((node.lineno, node.value.value))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and node.func.attr in ("startswith", "removeprefix") and node.args \
                and isinstance(node.args[0], ast.Constant) and node.args[0].value == "letters-":
            found.append((node.lineno, "letters-"))
    return found


def test_the_check_catches_each_kind_of_task_name_comparison(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text('if task == "ko-en": pass\nif t in ("reverse", "copy"): pass\nok = "sort" != x\n'
                      'if task.startswith("letters-"): pass\nif name == "ko-en-toy": pass\n'
                      'match task:\n    case "speech-level": pass\n', encoding="utf-8")
    assert sorted(task_name_comparisons(sample)) == [(1, "ko-en"), (2, "copy"), (2, "reverse"), (3, "sort"),
                                                     (4, "letters-"), (7, "speech-level")]


def test_no_module_outside_the_registry_compares_task_names():
    assert len(SOURCES) > 50
    offenders = [f"{path.relative_to(ROOT)}:{line}: {literal!r}" for path in SOURCES
                 for line, literal in task_name_comparisons(path)]
    assert offenders == [], "ask the Task (transformer_core/tasks) instead:\n" + "\n".join(offenders)


def test_analysis_never_imports_training():
    for path in sorted((ROOT / "transformer_core" / "analysis").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                assert not node.module.startswith("transformer_core.training"), f"{path.name} imports {node.module}"


def test_every_name_a_model_dir_or_the_lab_uses_finds_its_task():
    assert {name: task.name for name, task in LAB_TASKS.items()} == {
        "ko-en": "ko-en", "reverse": "letters-reverse", "copy": "letters-copy", "sort": "letters-sort",
        "speech-level": "speech-level"}
    assert task_stream("lab-ko-en") == (KO_EN, True) and task_stream("ko-en") == (KO_EN, False)
    assert task_named("lab-ko-en") is KO_EN
    with pytest.raises(ValueError, match="unknown task 'french'"):
        task_named("french")
    with pytest.raises(ValueError, match="unknown lab task"):
        lab_task("letters-copy")


@pytest.mark.parametrize("name", ["reverse", "copy", "sort"])
def test_letter_examples_are_held_out_and_their_gold_points_at_the_letter_each_output_copies(name):
    task = lab_task(name)
    tokenizer = task.tokenizer(lab=True)
    inverse = {i: token for token, i in tokenizer.get_vocab().items()}
    examples = task.held_out(tokenizer, 30, seed=5)
    assert len(examples) == 30 and len({tuple(e.source_ids) for e in examples}) == 30
    for example in examples:
        assert example.source_ids[-1] == EOS_ID
        text = "".join(inverse[i] for i in example.source_ids[:-1])
        assert is_held_out(text)
        target = "".join(inverse[i] for i in example.target_ids)
        assert target == {"reverse": text[::-1], "copy": text, "sort": "".join(sorted(text))}[name]
        for letter, sources in zip(target, example.gold, strict=True):  # each gold position holds that letter
            assert sources and all(text[j] == letter for j in sources)
        if name == "reverse":
            assert example.gold == [(len(text) - 1 - t,) for t in range(len(text))]


def test_ko_en_examples_are_held_out_and_differ_between_the_whole_grammar_and_its_core():
    tokenizer = KO_EN.tokenizer()
    whole = KO_EN.held_out(tokenizer, 20, seed=3)
    assert len(whole) == 20
    for example in whole:
        text = tokenizer.decode(example.source_ids, skip_special_tokens=True)
        assert example.source_ids[-1] == EOS_ID and len(example.gold) == len(example.target_ids)
        assert all(0 <= j < len(example.source_ids) - 1 for sources in example.gold for j in sources), text
    pairs = KO_EN.held_out_pairs(20, seed=3)
    assert all(is_held_out(pair.source_text) for pair in pairs)


def test_a_lab_model_names_its_task_and_grammar_only_when_its_task_is_the_grammar():
    from transformer_core.tasks import has_core_grammar
    from transformer_core.training.lab_run import lab_config_fields
    from transformer_core.training.recipes import LabRecipe

    ko_en = lab_config_fields(LabRecipe(task="ko-en", preset="tiny"))
    assert ko_en["task"] == "ko-en" and ko_en["grammar"] == ("core" if has_core_grammar() else "full")
    for name in ("reverse", "copy", "sort", "speech-level"):
        fields = lab_config_fields(LabRecipe(task=name, preset="tiny"))
        assert set(fields) == {"lab_recipe"} and fields["lab_recipe"]["task"] == name


@pytest.mark.parametrize(("grammar", "bound"), [("everyday-korean", "everyday-korean"),
                                                ("learner10", "everyday-korean"), ("", "everyday-korean")])
def test_a_loaded_ko_en_model_is_held_out_on_the_one_grammar(grammar, bound):
    """A ko-en model's held-out sentences come from the one grammar, whatever its config.json calls it (the bundled
    models' "learner10" is its old name); a bundled recipe trains on TRAINING_GRAMMAR and writes it."""
    from types import SimpleNamespace

    from transformer_core.data.tokenization import TRAINING_GRAMMAR
    from transformer_core.grammar.generator import ko_en_grammar
    from transformer_core.tasks import model_task
    from transformer_core.training.model_card import grammar_field

    task = model_task(SimpleNamespace(task="ko-en", grammar=grammar))
    assert task.whole_grammar == bound
    source, expected = ko_en_grammar(5, bound), []
    while len(expected) < 4:  # the grammar's own stream, its held-out side
        text = source.sample().source_text
        if is_held_out(text) and text not in expected:
            expected.append(text)
    assert [pair.source_text for pair in task.held_out_pairs(4, seed=5)] == expected
    assert grammar_field("ko-en") == {"grammar": TRAINING_GRAMMAR}


def test_new_models_train_on_the_grammar_of_the_bundled_translators():
    """TRAINING_GRAMMAR (what `train --task ko-en` and the lab's whole-grammar runs use) is the grammar the bundled
    ko-en-toy and ko-en-rnn-attention say they learned: one place names the default, the models' config.json."""
    from transformer_core.data.tokenization import TRAINING_GRAMMAR
    from transformer_core.grammar.base import GRAMMAR_ALIASES

    for name in ("ko-en-toy", "ko-en-rnn-attention"):
        config = json.loads((ROOT / "models" / name / "config.json").read_text(encoding="utf-8"))
        assert GRAMMAR_ALIASES.get(config["grammar"], config["grammar"]) == TRAINING_GRAMMAR, name
