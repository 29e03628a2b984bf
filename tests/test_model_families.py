"""The model-family table (transformer_core/io/families.py) is the one place a model_type is registered:
the loader, the picker, the error messages and the UI's labels all read it."""

from __future__ import annotations

import json
from pathlib import Path

import torch

from transformer_core.io import families, loading
from transformer_core.io.families import FAMILIES, family_of

ROOT = Path(__file__).resolve().parent.parent


def test_each_family_is_keyed_by_its_model_type_and_builds_its_model_from_a_default_config():
    for model_type, family in FAMILIES.items():
        assert family.model_type == model_type
        if not family.checkpoint:  # native families save every field, so defaults make a model
            model = family.model_class(family.config_class(src_vocab_size=11, tgt_vocab_size=11))
            assert isinstance(model, torch.nn.Module)


def test_a_checkpoint_family_has_a_loader_a_weight_map_and_a_label_in_both_languages():
    catalogs = [json.loads((ROOT / "explorer" / "i18n" / f"{code}.json").read_text(encoding="utf-8"))
                for code in ("ko", "en")]
    checkpoints = [f for f in FAMILIES.values() if f.checkpoint]
    assert {f.model_type for f in checkpoints} == {"bert", "marian"}
    for family in checkpoints:
        assert callable(family.load) and callable(family.weight_map)
        assert all(family.label_key in catalog for catalog in catalogs), family.label_key


def test_every_builtin_is_listed_and_loading_reads_the_same_table():
    assert loading.BUILTINS is families.BUILTINS
    assert set(families.BUILTINS) == {"paper-base", "minilm-l6"}
    listed = {info.name for info in loading.list_models() if info.builtin}
    assert listed == set(families.BUILTINS)


def test_an_unknown_model_type_is_refused_naming_every_family(tmp_path):
    directory = tmp_path / "gpt"
    directory.mkdir()
    (directory / "config.json").write_text(json.dumps({"model_type": "gpt2"}), encoding="utf-8")
    assert family_of("gpt2") is None
    reason = loading.check_model_dir(directory)
    assert reason == ("gpt: model_type 'gpt2' is not supported (supported: transformer-explorer, rnn-attention, "
                      "bert, marian)")


def test_a_checkpoint_missing_its_files_names_each_of_them(tmp_path):
    directory = tmp_path / "opus"
    directory.mkdir()
    (directory / "config.json").write_text(json.dumps({"model_type": "marian"}), encoding="utf-8")
    (directory / "source.spm").write_bytes(b"")
    assert loading.check_model_dir(directory) == ("opus: a marian checkpoint, but missing model.safetensors or "
                                                   "pytorch_model.bin, target.spm, vocab.json")
