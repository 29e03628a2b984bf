"""Small pandas tables built from traced arrays (pure; no streamlit)."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pandas as pd


def embedding_norms(embed: np.ndarray, pos: np.ndarray, inputs: np.ndarray, tokens: Sequence[str], scale: float,
                    columns: dict[str, str]) -> pd.DataFrame:
    """Per token: ‖E[id]‖ (unscaled), ‖E[id]·scale‖, ‖PE‖ and ‖X‖; `columns` titles the six columns."""
    embed = np.asarray(embed, dtype=np.float64)
    scaled = np.linalg.norm(embed, axis=-1)
    return pd.DataFrame({
        columns["pos"]: range(len(tokens)),
        columns["token"]: list(tokens),
        columns["norm_raw"]: np.round(scaled / scale, 4),
        columns["norm_scaled"]: np.round(scaled, 4),
        columns["norm_pe"]: np.round(np.linalg.norm(np.asarray(pos, dtype=np.float64), axis=-1), 4),
        columns["norm_input"]: np.round(np.linalg.norm(np.asarray(inputs, dtype=np.float64), axis=-1), 4),
    })


def scaling_latex(d_model: int, scaled_row: np.ndarray, scale: float, n: int = 3) -> str:
    """E[id]·√d_model with the live numbers of one token's first `n` dimensions."""
    raw = np.asarray(scaled_row, dtype=np.float64)[:n] / scale
    pairs = r",\ ".join(f"{r:.3f}\\times{scale:.3f} = {r * scale:.3f}" for r in raw)
    return (rf"\begin{{gathered}}\sqrt{{d_{{model}}}} = \sqrt{{{d_model}}} = {math.sqrt(d_model):.3f} \\ "
            rf"E[\mathrm{{id}}]\cdot\sqrt{{d_{{model}}}}:\ {pairs},\ \dots\end{{gathered}}")
