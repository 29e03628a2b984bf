"""The model's configuration: one frozen dataclass, the paper's base model by default."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Literal

# Table 3 of the paper: parameters (x 10^6) of the base and the big model, as printed.
PAPER_PARAMETERS: dict[str, int] = {"base": 65_000_000, "big": 213_000_000}


def model_parameters(model) -> int:
    """Trainable parameters of a built model, a tied (shared) matrix counted once."""
    return sum(p.numel() for p in {id(p): p for p in model.parameters()}.values())


def parameter_count(config: TransformerConfig) -> int:
    """Parameters of `Transformer(config)` counted from the formula, without building it (the paper-base
    count the overview quotes would otherwise allocate 63 M floats): per layer 4 projections d×d + d per
    attention, the FFN's d×d_ff + d_ff + d_ff×d + d, 2·d per LayerNorm; the embedding (V×d) once when shared,
    the output bias V. Only the paper's kind of model (sinusoidal positions, no token types, no embedding
    LayerNorm); anything else raises ValueError."""
    if config.positional != "sinusoidal" or config.type_vocab_size or config.embed_norm:
        raise ValueError("parameter_count covers sinusoidal models without token types or embedding LayerNorm")
    d, d_ff = config.d_model, config.d_ff
    attention, ffn, norm = 4 * (d * d + d), 2 * d * d_ff + d_ff + d, 2 * d
    encoder = config.n_encoder_layers * (attention + ffn + 2 * norm) + (norm if config.final_norm else 0)
    decoder = config.n_decoder_layers * (2 * attention + ffn + 3 * norm) + \
        (norm if config.final_norm and config.n_decoder_layers else 0)
    embeddings = config.src_vocab_size * d
    if config.n_decoder_layers:
        output = config.tgt_vocab_size  # lm_head's bias; its weight is the shared embedding
        if not config.share_embeddings:
            output += 2 * config.tgt_vocab_size * d  # a target embedding and an output matrix of their own
        embeddings += output
    return embeddings + encoder + decoder


@dataclass(frozen=True)
class TransformerConfig:
    """Hyper-parameters of the encoder-decoder (or encoder-only) Transformer.

    Defaults are the base model of Vaswani et al. (2017), Table 3, with the paper's shared embeddings
    (section 3.4): `Transformer(TransformerConfig())` has 63.1 M parameters, where Table 3 rounds the
    base model to 65 M (the paper does not say what it counted; see `PAPER_PARAMETERS`).
    """

    src_vocab_size: int = 37000  # paper: a shared BPE vocabulary of about 37 000 tokens
    tgt_vocab_size: int = 37000  # 0 for an encoder-only model
    d_model: int = 512  # width of every residual-stream vector
    n_heads: int = 8  # h; each head has d_k = d_v = d_model / h = 64
    n_encoder_layers: int = 6  # N
    n_decoder_layers: int = 6  # N; 0 makes an encoder-only model (BERT-style)
    d_ff: int = 2048  # inner width of the position-wise feed-forward network
    dropout: float = 0.1  # P_drop, on sublayer outputs, embeddings and attention weights
    norm_first: bool = False  # False: post-LN as in the paper, norm(x + sublayer(x))
    final_norm: bool = False  # a LayerNorm after each stack (nn.Transformer always adds one)
    max_len: int = 512  # longest sequence the positional encoding covers
    activation: Literal["relu", "gelu", "silu"] = "relu"  # paper: ReLU; BERT: GELU (erf form); Marian: SiLU (swish)
    positional: Literal["sinusoidal", "learned"] = "sinusoidal"  # paper: sinusoidal
    # Where the sinusoidal table puts its sines and cosines: "interleaved" = the paper's formula (sin at even
    # dimensions, cos at odd ones); "halves" = Marian's layout (all sines in the first half, cosines in the second).
    sinusoidal_layout: Literal["interleaved", "halves"] = "interleaved"
    layer_norm_eps: float = 1e-5  # nn.LayerNorm's default; BERT uses 1e-12
    scale_embedding: bool = True  # multiply token embeddings by sqrt(d_model) (paper, section 3.4)
    embed_norm: bool = False  # LayerNorm on the summed input embedding (BERT)
    type_vocab_size: int = 0  # token-type (segment) embeddings (BERT: 2); 0 = none
    # Paper, section 3.4: one weight matrix for both embeddings and the pre-softmax projection.
    # Needs src_vocab_size == tgt_vocab_size (one shared vocabulary).
    share_embeddings: bool = True
    pad_token_id: int = 0
    bos_token_id: int = 1  # the decoder's start token
    eos_token_id: int = 2

    def __post_init__(self) -> None:
        if self.d_model % self.n_heads:
            raise ValueError(f"d_model ({self.d_model}) must be divisible by n_heads ({self.n_heads})")
        if self.activation not in ("relu", "gelu", "silu"):
            raise ValueError(f"activation must be 'relu', 'gelu' or 'silu', not {self.activation!r}")
        if self.sinusoidal_layout not in ("interleaved", "halves"):
            raise ValueError(f"sinusoidal_layout must be 'interleaved' or 'halves', not {self.sinusoidal_layout!r}")
        if self.share_embeddings and self.has_decoder and self.src_vocab_size != self.tgt_vocab_size:
            raise ValueError("share_embeddings needs src_vocab_size == tgt_vocab_size")
        if self.positional not in ("sinusoidal", "learned"):
            raise ValueError(f"positional must be 'sinusoidal' or 'learned', not {self.positional!r}")

    @property
    def d_k(self) -> int:
        """Width of one head's queries, keys and values."""
        return self.d_model // self.n_heads

    @property
    def has_decoder(self) -> bool:
        return self.n_decoder_layers > 0

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, values: dict[str, Any]) -> TransformerConfig:
        """Build from a config.json dict, ignoring keys that are not fields (model_type, ...)."""
        names = {f.name for f in dataclasses.fields(cls)}
        return cls(**{k: v for k, v in values.items() if k in names})
