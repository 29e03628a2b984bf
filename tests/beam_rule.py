"""Beam search's documented rule written out plainly, for tests (no batching, no tensors).

- keep `width` hypotheses, ranked by summed log-probability;
- a candidate ending with EOS is finished when it ranks among the `width` best candidates of its step;
  the `width` best candidates that do not end with EOS stay alive (the others are pruned);
- a finished hypothesis scores `score(log P, |Y|)`, |Y| = generated tokens, EOS included;
- decoding stops when `width` hypotheses have finished, or at the length limit, where the alive ones
  compete with the finished ones under the same score; the best score wins.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence


def documented_beam(next_log_probs: Callable[[tuple[int, ...]], Mapping[int, float]], tokens: Sequence[int],
                    eos: int, limit: int, width: int,
                    score: Callable[[float, int], float]) -> tuple[tuple[int, ...], float, bool]:
    """(best hypothesis, its score, exact?). `next_log_probs(prefix)` gives log P(token | prefix) for
    `tokens` (finite ones only matter). `exact` is False when a candidate was pruned before the last step
    or the stop at `width` finished dropped alive hypotheses: the two places where the rule may miss the
    exhaustive best (at the last step every candidate has the same length, so pruning there loses nothing)."""
    alive: list[tuple[tuple[int, ...], float]] = [((), 0.0)]
    finished: list[tuple[tuple[int, ...], float]] = []  # (ids, score)
    exact = True
    for step in range(1, limit + 1):
        candidates = []
        for seq, lp in alive:
            table = next_log_probs(seq)
            candidates += [((*seq, tok), lp + table[tok]) for tok in tokens if table[tok] > float("-inf")]
        candidates.sort(key=lambda c: -c[1])
        kept: list[tuple[tuple[int, ...], float]] = []
        for rank, (seq, lp) in enumerate(candidates):
            if seq[-1] == eos and rank < width:
                finished.append((seq, score(lp, step)))
            elif seq[-1] != eos and len(kept) < width:
                kept.append((seq, lp))
            elif step < limit:
                exact = False
        alive = kept
        if len(finished) >= width:
            exact = exact and not alive
            alive = []
            break
    finished += [(seq, score(lp, len(seq))) for seq, lp in alive]  # the limit: alive ones compete
    best = max(finished, key=lambda h: h[1])
    return best[0], best[1], exact
