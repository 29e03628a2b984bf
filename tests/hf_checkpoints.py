"""Tiny random-weight transformers checkpoints, written the way a user's download looks.

`save_bert` and `save_marian` build a randomly initialised transformers model, save it with
`save_pretrained` next to a tokenizer made here (a WordPiece vocab.txt for BERT; for Marian a
SentencePiece model trained on a few sentences with sentencepiece's own trainer), and return the
transformers model for comparison. No weights are downloaded. LayerNorm weights and biases and
Marian's final_logits_bias are randomised too: at their initial 1 / 0 a swapped or skipped one
would hide.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import torch

SENTENCES = [
    "나는 학교에 간다.", "I go to school.", "그는 책을 읽는다.", "He reads a book.",
    "우리는 밥을 먹었다.", "We ate rice.", "고양이가 잔다.", "The cat sleeps.",
    "오늘 날씨가 좋다.", "The weather is nice today.", "선생님이 학생에게 말했다.", "The teacher spoke to the student.",
]
SPECIAL = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]


def _randomise_norms(model: torch.nn.Module, seed: int) -> None:
    generator = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for name, param in model.named_parameters():
            if "LayerNorm" in name or "layer_norm" in name:
                if name.endswith("weight"):
                    param.copy_(torch.rand(param.shape, generator=generator) + 0.5)
                else:
                    param.copy_(torch.rand(param.shape, generator=generator) - 0.5)


def bert_vocab(size: int) -> list[str]:
    """A WordPiece vocabulary: the specials, every character of SENTENCES, a few ##pieces, then [unused] rows."""
    chars = sorted({c for s in SENTENCES for c in s if not c.isspace()})
    words = sorted({w for s in SENTENCES for w in s.replace(".", " ").split()})
    vocab = [*SPECIAL, *chars, *[f"##{c}" for c in chars], *words]
    vocab = list(dict.fromkeys(vocab))
    if len(vocab) > size:
        raise ValueError(f"vocabulary of {size} is too small for {len(vocab)} pieces")
    return vocab + [f"[unused{i}]" for i in range(size - len(vocab))]


def save_bert(directory: Path, *, layers: int = 2, heads: int = 4, width: int = 32, ffn: int = 48,
              vocab: int = 160, head: str = "masked-lm", seed: int = 0):
    """A random BertForMaskedLM / BertForSequenceClassification / BertModel saved with its tokenizer; returns it."""
    from transformers import BertConfig, BertForMaskedLM, BertForSequenceClassification, BertModel, BertTokenizer

    directory.mkdir(parents=True, exist_ok=True)
    (directory / "vocab.txt").write_text("\n".join(bert_vocab(vocab)) + "\n", encoding="utf-8")
    # Cased, as bert-base-multilingual-cased: lower-casing strips accents, which splits Hangul into jamo.
    tokenizer = BertTokenizer(str(directory / "vocab.txt"), do_lower_case=False)
    config = BertConfig(vocab_size=vocab, hidden_size=width, num_hidden_layers=layers, num_attention_heads=heads,
                        intermediate_size=ffn, max_position_embeddings=64, num_labels=4)
    torch.manual_seed(seed)
    model_class = {"masked-lm": BertForMaskedLM, "classifier": BertForSequenceClassification, "model": BertModel}[head]
    model = model_class(config).eval()
    _randomise_norms(model, seed)
    model.save_pretrained(str(directory))
    tokenizer.save_pretrained(str(directory))
    return model


def train_sentencepiece(vocab_size: int) -> bytes:
    """A unigram SentencePiece model trained on SENTENCES: eos </s> = 0, unk = 1 (Marian's order), no bos/pad."""
    import sentencepiece as spm

    buffer = io.BytesIO()
    spm.SentencePieceTrainer.train(
        sentence_iterator=iter(SENTENCES * 4), model_writer=buffer, vocab_size=vocab_size, model_type="unigram",
        character_coverage=1.0, eos_id=0, unk_id=1, bos_id=-1, pad_id=-1, hard_vocab_limit=False,
        minloglevel=2, num_threads=1,
    )
    return buffer.getvalue()


def save_marian(directory: Path, *, layers: tuple[int, int] = (2, 2), heads: int = 4, width: int = 32,
                ffn: int = 48, spm_vocab: int = 70, activation: str = "swish", seed: int = 0):
    """A random MarianMTModel saved with a MarianTokenizer (pad = decoder start = the last id); returns it."""
    import sentencepiece as spm
    from transformers import MarianConfig, MarianMTModel, MarianTokenizer

    directory.mkdir(parents=True, exist_ok=True)
    proto = train_sentencepiece(spm_vocab)
    for name in ("source.spm", "target.spm"):
        (directory / name).write_bytes(proto)
    processor = spm.SentencePieceProcessor(model_proto=proto)
    vocab = {processor.id_to_piece(i): i for i in range(processor.get_piece_size())}
    vocab["<pad>"] = len(vocab)  # as in opus-mt: pad is the last id
    (directory / "vocab.json").write_text(json.dumps(vocab, ensure_ascii=False), encoding="utf-8")
    tokenizer = MarianTokenizer(str(directory / "source.spm"), str(directory / "target.spm"),
                                str(directory / "vocab.json"), source_lang="ko", target_lang="en")
    config = MarianConfig(
        vocab_size=len(vocab), decoder_vocab_size=len(vocab), d_model=width, encoder_layers=layers[0],
        decoder_layers=layers[1], encoder_attention_heads=heads, decoder_attention_heads=heads,
        encoder_ffn_dim=ffn, decoder_ffn_dim=ffn, max_position_embeddings=64, activation_function=activation,
        scale_embedding=True, init_std=0.2, pad_token_id=tokenizer.pad_token_id, eos_token_id=tokenizer.eos_token_id,
        decoder_start_token_id=tokenizer.pad_token_id, share_encoder_decoder_embeddings=True,
    )
    torch.manual_seed(seed)
    model = MarianMTModel(config).eval()
    _randomise_norms(model, seed)
    with torch.no_grad():
        generator = torch.Generator().manual_seed(seed + 1)
        model.final_logits_bias.copy_(0.1 * torch.randn(model.final_logits_bias.shape, generator=generator))
    # init_std 0.2 and a small random logits bias: random outputs that vary from step to step.
    # Plain greedy in transformers' generate: no forced EOS at the limit, no banned words.
    model.generation_config.forced_eos_token_id = None
    model.generation_config.bad_words_ids = None
    model.save_pretrained(str(directory))
    tokenizer.save_pretrained(str(directory))
    return model
