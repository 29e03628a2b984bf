"""Are a translator's output probabilities what it believes? Token calibration and sampled draws.

A model trained with a sampled softmax (the loss sees the right word and a few thousand others) can rank the words
right and still spread half its probability over the words the loss never showed it: greedy decoding is fine,
the numbers the pages show (softmax, beam scores, sampling) are not. These measures say so:

- `teacher_forced_probabilities`: one teacher-forced pass over each held-out reference; per output token (EOS
  included) the probability of the reference token, the largest probability and whether it is the argmax. A
  sentence is right when every position's argmax is its reference token; that is exactly when greedy decoding
  writes the reference, so on right sentences the reference token IS the written word.
- `expected_calibration_error`: tokens binned by their largest probability (equal-width bins); the mean gap
  between a bin's mean confidence and its accuracy, weighted by the bin's share of tokens (Guo et al. 2017).
- `sample_texts`: `draws` translations of one sentence by plain sampling (temperature 1, no top-k / top-p).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import torch

from transformer_core.inference.batching import pad_batch
from transformer_core.inference.generation import generate, output_limit
from transformer_core.tasks.heldout import Example


@dataclass(frozen=True)
class TokenProbabilities:
    """Per output token of a set of references (teacher-forced), flat over all sentences."""

    reference: torch.Tensor  # [N] p(reference token)
    confidence: torch.Tensor  # [N] the largest probability at that position
    correct: torch.Tensor  # [N] bool: the argmax is the reference token
    sentence: torch.Tensor  # [N] index of the sentence the token belongs to
    sentence_right: torch.Tensor  # [n_sentences] bool: every token's argmax is right (greedy writes the reference)

    def right_sentence_tokens(self) -> torch.Tensor:
        """[N] bool: the token belongs to a sentence the model translates right."""
        return self.sentence_right[self.sentence]

    def mean_written_probability(self) -> float:
        """Mean probability of the written word over the tokens of the right sentences (nan when none is right)."""
        mask = self.right_sentence_tokens()
        return float(self.reference[mask].mean()) if bool(mask.any()) else float("nan")

    def exact(self) -> float:
        return float(self.sentence_right.float().mean())


@torch.no_grad()
def teacher_forced_probabilities(model, examples: Sequence[Example], batch_size: int = 64) -> TokenProbabilities:
    """One teacher-forced pass per batch (BOS + reference in, reference + EOS predicted); see the module doc."""
    cfg = model.config
    device = next(model.parameters()).device
    was_training = model.training
    model.eval()
    reference, confidence, correct, sentence, right = [], [], [], [], []
    try:
        for start in range(0, len(examples), batch_size):
            batch = examples[start:start + batch_size]
            src = pad_batch([e.source_ids for e in batch], cfg.pad_token_id).to(device)
            tgt = pad_batch([[cfg.bos_token_id, *e.target_ids] for e in batch], cfg.pad_token_id).to(device)
            probs = torch.softmax(model(src, tgt).float(), dim=-1).cpu()  # [B, T, V]
            for b, example in enumerate(batch):
                labels = torch.tensor([*example.target_ids, cfg.eos_token_id])  # [T_b]
                rows = probs[b, : len(labels)]  # [T_b, V]: row t predicts labels[t]
                top, argmax = rows.max(-1)
                hit = argmax == labels
                reference.append(rows.gather(-1, labels[:, None])[:, 0])
                confidence.append(top)
                correct.append(hit)
                sentence.append(torch.full((len(labels),), start + b))
                right.append(bool(hit.all()))
    finally:
        model.train(was_training)
    return TokenProbabilities(torch.cat(reference), torch.cat(confidence), torch.cat(correct), torch.cat(sentence),
                              torch.tensor(right))


def expected_calibration_error(confidence: torch.Tensor, correct: torch.Tensor, bins: int = 15) -> float:
    """Σ_b (n_b / N) · |accuracy_b − mean confidence_b| over `bins` equal-width bins of (0, 1] (right-closed)."""
    if len(confidence) == 0:
        raise ValueError("no tokens to measure")
    index = torch.clamp(torch.ceil(confidence.double() * bins).long() - 1, 0, bins - 1)
    total = 0.0
    for b in range(bins):
        members = index == b
        count = int(members.sum())
        if count:
            gap = abs(float(correct[members].double().mean()) - float(confidence[members].double().mean()))
            total += count / len(confidence) * gap
    return total


@torch.no_grad()
def sample_texts(loaded, text: str, draws: int = 5, seed: int = 0, temperature: float = 1.0) -> list[str]:
    """`draws` translations of `text` by plain sampling (no top-k / top-p), one batch, one generator seeded `seed`."""
    from transformer_core.inference.text import encode_text

    ids, _ = encode_text(loaded, text)
    src = torch.tensor([ids] * draws, dtype=torch.long, device=loaded.device)
    result = generate(loaded.model, src, strategy="sample", temperature=temperature, seed=seed,
                      max_new_tokens=output_limit(loaded, len(ids)))
    return [loaded.tokenizer.decode(result.tokens(row), skip_special_tokens=True) for row in range(draws)]
