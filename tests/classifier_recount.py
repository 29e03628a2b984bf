"""The speech-level classifier's figures recounted one sentence at a time, unpadded, from the encoder's recorded
pass and the head written out (never the classifier's forward or classify.accuracy)."""

from __future__ import annotations

import torch

from transformer_core.tracing.names import AttentionKind, attention_name
from transformer_core.training.classify import EncoderClassifier

ENDING_PUNCTUATION = {".", "?", "</s>"}


def last_word_piece(pieces: list[str]) -> int:
    """Written again here: the last piece that is not punctuation or </s> (the verb ending's last piece)."""
    return max(i for i, piece in enumerate(pieces) if piece not in ENDING_PUNCTUATION)


def cls_logits_by_hand(model: EncoderClassifier, ids: torch.Tensor) -> tuple[torch.Tensor, dict]:
    """The encoder's recorded pass, its [CLS] row (position 0 of encoder.out) and the head written out:
    logits = W h + b (not the classifier's forward). Returns (logits [n_labels], the trace)."""
    trace = model.encoder.trace(ids)
    cls_row = trace["encoder.out"][0, 0].double()  # [D]
    weight, bias = model.head.weight.double(), model.head.bias.double()  # [n_labels, D], [n_labels]
    return torch.stack([(weight[k] * cls_row).sum() + bias[k] for k in range(len(bias))]), trace


def recount_classifier(model: EncoderClassifier, tokenizer, examples) -> tuple[float, float]:
    """(accuracy, share whose last-layer head-averaged [CLS] row peaks on the verb ending's last piece), one
    sentence at a time, unpadded, from the recorded pass and the head written out."""
    right = on_ending = 0
    last = attention_name(AttentionKind.ENCODER_SELF, model.encoder.config.n_encoder_layers - 1)
    model.eval()
    for example in examples:
        ids = torch.tensor([list(example.ids)])
        with torch.no_grad():
            logits, trace = cls_logits_by_hand(model, ids)
            row = trace[last][0, :, 0, :].mean(0)
        right += int(logits.argmax()) == example.label
        on_ending += int(row.argmax()) == last_word_piece(tokenizer.convert_ids_to_tokens(list(example.ids)))
    return right / len(examples), on_ending / len(examples)
