"""The paper's base model as a built-in: its dimensions (Table 3, base), seeded random weights and
ko-en-toy's tokenizer (listed by families.py under the Transformer's family)."""

from __future__ import annotations

import math

import torch

from transformer_core.io.files import LoadedModel, ModelUnavailableError, load_tokenizer, models_dir
from transformer_core.models.config import TransformerConfig
from transformer_core.models.transformer import Transformer


def load_paper_base(device: torch.device | str = "cpu") -> LoadedModel:
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
    model = seeded_init(Transformer(config), seed=0)  # same "untrained" weights on every load
    model.to(device).eval()
    return LoadedModel(
        name="paper-base", model=model, tokenizer=tokenizer, config=config, kind="encoder-decoder",
        directory=None, trained=False,
        description="The paper's base model (d_model 512, 8 heads, 6+6 layers, d_ff 2048), UNTRAINED: "
                    "seeded random weights, so shapes are real but attention patterns and output are noise.",
    )


def seeded_init(model: Transformer, seed: int) -> Transformer:
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


def paper_base_available() -> str:
    return "" if (models_dir() / "ko-en-toy" / "tokenizer.json").is_file() else "paper-base: needs models/ko-en-toy"
