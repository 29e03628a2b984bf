"""Model directories and built-ins: finding, checking, listing and loading them.

What each kind of model is (config.json's `model_type` -> classes, files, weight map, built-ins) is ONE
table, families.py; this module only walks it. A model directory is Hugging Face-style:
    config.json         the config's fields (+ "model_type", free-form "description"); model_type
                        "transformer-explorer" is a `Transformer`, "rnn-attention" the 2015
                        attention RNN of rnn.py
    model.safetensors   the weights (safetensors.torch.save_model, so tied weights are fine)
    tokenizer.json      built with the `tokenizers` library (+ tokenizer_config.json)
The tokenizer is always loaded with `transformers.AutoTokenizer.from_pretrained(dir)`.

A transformers checkpoint directory (what `save_pretrained` or `huggingface-cli download` writes, with
config.json's model_type "bert" or "marian") loads too, through the weight maps of bert.py / marian.py
(its family's `load`); the picker marks it as the user's checkpoint.

`load(name)` resolves, in order: an existing directory path, a built-in name
(`paper-base`, `minilm-l6`), then `models/NAME`, then `lab_models/NAME` (models the training lab
saved, outside git; env TRANSFORMER_EXPLORER_LAB_MODELS).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import torch

from transformer_core.io.families import BUILTINS, FAMILIES, NATIVE_FILES, family_of, missing_files, unsupported_reason
from transformer_core.io.files import (
    MODEL_TYPE,
    REPO_ROOT,
    LoadedModel,
    ModelUnavailableError,
    lab_models_dir,
    load_tokenizer,
    models_dir,
)
from transformer_core.models.transformer import Transformer

__all__ = ["BUILTINS", "DEFAULT_MODEL", "FAMILIES", "REPO_ROOT", "LoadedModel", "ModelInfo", "ModelUnavailableError",
           "Transformer", "check_model_dir", "lab_models_dir", "list_models", "load", "load_model_dir",
           "load_tokenizer", "model_type_of", "models_dir", "save_model_dir"]
@dataclass(frozen=True)
class ModelInfo:
    """One entry of the model picker: usable or not, and why not."""

    name: str
    available: bool
    reason: str = ""
    builtin: bool = False
    lab: bool = False  # saved by the training lab (lab_models/)
    architecture: str = MODEL_TYPE  # config.json's model_type
    checkpoint: bool = False  # a transformers checkpoint the user dropped in (bert, marian; see hf.py)


def save_model_dir(directory: str | Path, model: Transformer, tokenizer=None, description: str = "",
                   extra: dict | None = None) -> Path:
    """Write config.json + model.safetensors (+ the tokenizer files) into `directory`."""
    from safetensors.torch import save_model

    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    model_type = getattr(model.config, "model_type", MODEL_TYPE)
    config = {"model_type": model_type, **model.config.to_dict(), "description": description, **(extra or {})}
    (directory / "config.json").write_text(json.dumps(config, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    save_model(model, str(directory / "model.safetensors"))
    if tokenizer is not None:
        tokenizer.save_pretrained(str(directory))
    return directory


def load_model_dir(directory: str | Path, name: str | None = None,
                   device: torch.device | str = "cpu") -> LoadedModel:
    """Load a model directory through its family (families.py); raises ModelUnavailableError with a plain
    reason if it is broken."""
    directory = Path(directory)
    problem = check_model_dir(directory)
    if problem:
        raise ModelUnavailableError(problem)
    family = family_of(model_type_of(directory))
    try:
        if family.load is not None:  # a transformers checkpoint, through its weight map
            return family.load(directory, name=name, device=device)
        return _load_native_dir(directory, family, name, device)
    except ModelUnavailableError:
        raise
    except Exception as exc:  # a variant the map lacks, a corrupt file: say which, keep the app up
        kind = f" as {family.model_type}" if family.checkpoint else ""
        raise ModelUnavailableError(f"{directory.name}: cannot be loaded{kind} "
                                    f"({type(exc).__name__}: {exc})") from exc


def _load_native_dir(directory: Path, family, name: str | None, device: torch.device | str) -> LoadedModel:
    """One of this project's own model dirs: config.json's fields, model.safetensors, tokenizer.json."""
    from safetensors.torch import load_model

    raw = json.loads((directory / "config.json").read_text(encoding="utf-8"))
    config = family.config_class.from_dict(raw)
    model = family.model_class(config)
    load_model(model, str(directory / "model.safetensors"), strict=True)
    tokenizer = load_tokenizer(directory)
    model.to(device).eval()
    return LoadedModel(
        name=name or directory.name, model=model, tokenizer=tokenizer, config=config,
        kind="encoder-decoder" if config.has_decoder else "encoder", directory=directory,
        description=raw.get("description", ""), architecture=raw["model_type"],
        task=str(raw.get("task") or ""), grammar=str(raw.get("grammar") or ""),
        notice_min_lead=float(raw.get("notice_min_lead") or 0.0),
    )


def check_model_dir(directory: Path) -> str:
    """'' if the directory looks loadable, else a plain-language reason."""
    if not directory.is_dir():
        return f"{directory.name}: no such model directory"
    if not (directory / "config.json").is_file():
        return f"{directory.name}: missing config.json"
    architecture = model_type_of(directory)
    family = family_of(architecture)
    if family is None and architecture:  # a readable config of an architecture no loader knows
        return unsupported_reason(directory, architecture)
    missing = missing_files(directory, family) if family is not None else \
        [name for (name,) in NATIVE_FILES if not (directory / name).is_file()]
    if missing and family is not None and family.checkpoint:
        return f"{directory.name}: a {architecture} checkpoint, but missing {', '.join(missing)}"
    if missing:
        return f"{directory.name}: missing {', '.join(missing)}"
    if family is None:  # config.json unreadable, or without a model_type
        try:
            raw = json.loads((directory / "config.json").read_text(encoding="utf-8"))
        except (ValueError, UnicodeDecodeError) as exc:
            return f"{directory.name}: config.json is not valid JSON ({exc})"
        return unsupported_reason(directory, str(raw.get("model_type", "")) if isinstance(raw, dict) else "")
    return ""


DEFAULT_MODEL = "ko-en-toy"


def model_type_of(directory: Path) -> str:
    """config.json's model_type ('' when unreadable)."""
    try:
        raw = json.loads((directory / "config.json").read_text(encoding="utf-8"))
        return str(raw.get("model_type", "")) if isinstance(raw, dict) else ""
    except (OSError, ValueError, UnicodeDecodeError):
        return ""


def _model_info(directory: Path, all_architectures: bool, lab: bool = False) -> ModelInfo | None:
    """A directory's picker entry; None for a family the picker does not open, unless `all_architectures`."""
    architecture = model_type_of(directory)
    family = family_of(architecture)
    if family is not None and not family.in_picker and not all_architectures:
        return None
    problem = check_model_dir(directory)
    return ModelInfo(directory.name, not problem, problem, lab=lab,
                     architecture=architecture if family is not None else MODEL_TYPE,
                     checkpoint=family is not None and family.checkpoint)


def list_models(all_architectures: bool = False) -> list[ModelInfo]:
    """Every Transformer model directory in models/ (and lab_models/) and every built-in, each marked
    available or not.

    Other architectures (the 2015 attention RNN) are left out unless `all_architectures`: the
    stage pages and the model picker show Transformers; /history loads the RNN by name.
    """
    infos = []
    root = models_dir()
    if root.is_dir():
        for directory in sorted(p for p in root.iterdir() if p.is_dir() and not p.name.startswith((".", "_"))):
            if directory.name in BUILTINS:
                continue
            info = _model_info(directory, all_architectures)
            if info is not None:
                infos.append(info)
    for name, (_, availability) in BUILTINS.items():
        problem = availability()
        infos.append(ModelInfo(name, not problem, problem, builtin=True))
    taken = {info.name for info in infos}
    lab_root = lab_models_dir()
    if lab_root.is_dir():  # the lab's models, after the bundled ones; a name never shadows a bundled model
        for directory in sorted(p for p in lab_root.iterdir() if p.is_dir() and not p.name.startswith((".", "_"))):
            if directory.name not in taken:
                info = _model_info(directory, all_architectures, lab=True)
                if info is not None:
                    infos.append(info)
    return infos


def load(name_or_dir: str | Path, device: torch.device | str = "cpu") -> LoadedModel:
    """Load a model by directory path, built-in name, or name under models/."""
    path = Path(name_or_dir)
    if path.is_dir() and ((path / "config.json").exists() or path.parent != Path(".")):
        return load_model_dir(path, device=device)  # a path: a broken directory says what it lacks
    name = str(name_or_dir)
    if name in BUILTINS:
        loader, availability = BUILTINS[name]
        problem = availability()
        if problem:
            raise ModelUnavailableError(problem)
        return loader(device)
    for root in (models_dir(), lab_models_dir()):
        candidate = root / name
        if candidate.is_dir() and candidate.resolve().parent == root.resolve():
            return load_model_dir(candidate, name=name, device=device)
    known = ", ".join(info.name for info in list_models())
    raise ModelUnavailableError(f"no model named {name!r}; known models: {known}")
