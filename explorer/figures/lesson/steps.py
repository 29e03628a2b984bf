"""The lesson's path: the ordered steps, URL step numbers, and which steps a model has.

Steps are numbered from 1 (the number is what the URL carries: `/lesson?step=7`). The decoder steps
exist for every model so a number always means the same step; an encoder-only model skips them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class LessonStep:
    """One stop of the lesson: its 1-based number, an id (i18n keys `lesson.<id>.*`), the full page
    that shows more, and whether it needs a decoder."""

    number: int
    id: str
    page: str
    decoder: bool = False


# The forward pass, in order, with the paper's "why" steps where their question comes up (the paper's
# section 3 goes stacks -> attention -> FFN -> embeddings and softmax -> positional encoding instead).
_PATH: tuple[tuple[str, str, bool], ...] = (
    ("tokens", "pages/tokens.py", False),
    ("ids", "pages/tokens.py", False),
    ("embedding", "pages/embeddings.py", False),
    ("position", "pages/embeddings.py", False),
    ("sinusoids", "pages/embeddings.py", False),
    ("why_attention", "pages/history.py", False),
    ("qkv", "pages/encoder.py", False),
    ("scores", "pages/encoder.py", False),
    ("softmax", "pages/encoder.py", False),
    ("scaling", "pages/encoder.py", False),
    ("values", "pages/encoder.py", False),
    ("multihead", "pages/encoder.py", False),
    ("addnorm", "pages/encoder.py", False),
    ("ffn", "pages/encoder.py", False),
    ("encoder_layer", "pages/encoder.py", False),
    ("causal_mask", "pages/decoder.py", True),
    ("decoder_layer", "pages/decoder.py", True),
    ("cross_attention", "pages/decoder.py", True),
    ("next_token", "pages/decoder.py", True),
    ("shared_weights", "pages/embeddings.py", True),
    ("decoding", "pages/decoder.py", True),
    ("training", "pages/train.py", True),
    ("full_picture", "pages/heads.py", False),
)


def lesson_steps() -> list[LessonStep]:
    """Every step in order (the same list for every model)."""
    return [LessonStep(i + 1, step_id, page, decoder) for i, (step_id, page, decoder) in enumerate(_PATH)]


def parse_step(raw: object, n_steps: int) -> int:
    """A step number from the URL ('7'), clamped to 1..n_steps; anything unreadable is step 1."""
    try:
        value = int(str(raw).strip())
    except (TypeError, ValueError):
        return 1
    return min(max(value, 1), max(n_steps, 1))


def available(step: LessonStep, has_decoder: bool) -> bool:
    """Whether the model has what the step shows (decoder steps need an encoder-decoder)."""
    return has_decoder or not step.decoder


def neighbour(number: int, direction: int, has_decoder: bool, steps: Sequence[LessonStep] | None = None) -> int:
    """The next (direction=+1) or previous (-1) step this model has; `number` itself at either end."""
    steps = list(steps or lesson_steps())
    candidate = number + direction
    while 1 <= candidate <= len(steps):
        if available(steps[candidate - 1], has_decoder):
            return candidate
        candidate += direction
    return number


def skipped_steps(has_decoder: bool, steps: Sequence[LessonStep] | None = None) -> list[LessonStep]:
    """The steps an encoder-only model skips (none for an encoder-decoder)."""
    return [s for s in (steps or lesson_steps()) if not available(s, has_decoder)]

