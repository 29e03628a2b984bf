"""Ready-made interventions ("what if ...?"), by job:

    head_patches.py  head patches (zero / mean / uniform, one set per batch row), positions, causal
                     mask, reference means for mean ablation
    experiments.py   the serialisable experiment (`Intervention`, its URL form), `shuffle_words`,
                     `run_experiment`

This module re-exports both, so `from transformer_core.analysis.interventions import ...` keeps
working. `Head` IS `tracing.names.Head` (one head type in the whole project).
"""

from transformer_core.analysis.experiments import (
    PE_SIDES,
    ExperimentResult,
    Intervention,
    run_experiment,
    shuffle_words,
)
from transformer_core.analysis.head_patches import (
    METHODS,
    all_heads,
    check_heads,
    layer_counts,
    layer_heads,
    mean_ablate_heads,
    merge_patches,
    reference_means,
    remove_causal_mask,
    remove_positional_encoding,
    switch_off,
    switch_off_rows,
    uniform_heads,
    zero_heads,
)
from transformer_core.tracing.names import Head

__all__ = [
    "METHODS", "PE_SIDES", "ExperimentResult", "Head", "Intervention", "all_heads", "check_heads", "layer_counts",
    "layer_heads", "mean_ablate_heads", "merge_patches", "reference_means", "remove_causal_mask",
    "remove_positional_encoding", "run_experiment", "shuffle_words", "switch_off", "switch_off_rows",
    "uniform_heads", "zero_heads",
]
