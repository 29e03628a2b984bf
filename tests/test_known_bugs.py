"""The classic Transformer bugs, put in on purpose: the suite's own checks must reject each one.

Each case takes the CURRENT source of one function of the core, makes a one-line textual change that
is the bug (as tutorial code gets it wrong), compiles it in the module's namespace and monkeypatches
it in for the test. Then it runs a check from tests/parity_checks.py, the same function the normal
tests run against the real code, and expects AssertionError. If the code the bug is put into is
rewritten, the case fails and says so ("no longer contains ..."): update the bug, never drop it.

Traps: ../shared/DESIGN.md "Known traps" and issue 15 (V projected with W_K, Add & Norm in the wrong
order, heads split / merged without the transpose, scores / d_k, a causal mask shifted by one, mask
conventions inverted, PE not moved by .to(), softmax of a fully masked row, nn.Transformer's final
LayerNorm assumed, dropout in recorded attention, Marian's half-and-half PE, merged plotly labels).
"""

from __future__ import annotations
import __future__

import inspect
import sys
import textwrap
from collections.abc import Callable
from dataclasses import dataclass

import pytest

import explorer.figures.figures as figures
import explorer.figures.generation as generation_figures
import transformer_core.analysis.head_patches as head_patches
import transformer_core.analysis.scoring as scoring
import transformer_core.grammar.splits as splits
import transformer_core.inference.generation as generation
import transformer_core.io.interop as interop
import transformer_core.models.masks as masks
import transformer_core.models.rnn as rnn
import transformer_core.models.transformer as model
import transformer_core.training.loop as loop
import transformer_core.training.snapshots as snapshots
from tests import parity_checks as checks
from tests import test_beam_search_exhaustive as beam_tests
from tests import test_data as data_tests
from tests import test_generation as generation_tests
from tests import test_generation_figures as generation_figure_tests
from tests import test_heldout_scoring as heldout_tests
from tests import test_lab_jobs as lab_tests
from tests import test_patching as patching_tests
from tests import test_rnn as rnn_tests
from tests import test_sampling_frequencies as sampling_tests
from tests import test_training_loss as loss_tests

pytestmark = pytest.mark.filterwarnings("ignore:enable_nested_tensor is True:UserWarning")


@dataclass(frozen=True)
class Bug:
    """`owner.name` (a class's method or a module's function) with each `old` text replaced by `new`."""

    owner: object
    name: str
    edits: tuple[tuple[str, str], ...]

    def apply(self, monkeypatch: pytest.MonkeyPatch) -> None:
        original = inspect.unwrap(getattr(self.owner, self.name))
        source = textwrap.dedent(inspect.getsource(original))
        label = f"{getattr(self.owner, '__name__', self.owner)}.{self.name}"
        for old, new in self.edits:
            assert source.count(old) == 1, f"{label} no longer contains {old!r} exactly once: update this bug"
            source = source.replace(old, new)
        if inspect.isclass(self.owner):  # zero-argument super() needs the class cell a re-compiled def lacks
            source = source.replace("super().", f"super({self.owner.__name__}, self).")
        module = sys.modules[original.__module__]
        code = compile(source, f"<{label} with a bug>", "exec", flags=__future__.annotations.compiler_flag,
                       dont_inherit=True)
        namespace: dict[str, object] = {}
        exec(code, module.__dict__, namespace)  # globals: the live module, so other patches still apply
        buggy = namespace[self.name]
        if inspect.isclass(self.owner):
            monkeypatch.setattr(self.owner, self.name, buggy)
            return
        real = getattr(self.owner, self.name)
        for loaded in list(sys.modules.values()):  # every module that imported the function by name
            if getattr(loaded, "__name__", "").startswith(("transformer_core", "explorer", "pages", "tests")) \
                    and getattr(loaded, self.name, None) is real:
                monkeypatch.setattr(loaded, self.name, buggy)


def bug(owner: object, name: str, *edits: tuple[str, str]) -> Bug:
    return Bug(owner, name, tuple(edits))


def with_monkeypatch(test: Callable[..., None], *args: object) -> Callable[[], None]:
    """A check from a test that takes pytest's monkeypatch fixture (last argument), run with its own."""
    def check() -> None:
        with pytest.MonkeyPatch.context() as patcher:
            test(*args, patcher)
    return check


def loss_check(path: str, which: str) -> Callable[[], None]:
    """test_training_loss's check of the full or sampled softmax path on the Transformer or the RNN."""
    model_of = dict(loss_tests.models())
    if path == "full":
        return lambda: loss_tests.test_full_softmax_loss_is_label_smoothed_cross_entropy_over_real_positions(
            which, model_of[which])
    return with_monkeypatch(loss_tests.test_sampled_softmax_loss_is_label_smoothed_over_the_candidates, which,
                            model_of[which])


MHA, SUBLAYER = model.MultiHeadAttention, model.SublayerConnection
NORM = "nn.LayerNorm(config.d_model, eps=config.layer_norm_eps)"

# bug id -> (the bug, the checks that must reject it)
CASES: dict[str, tuple[Bug, list[Callable[[], None]]]] = {
    "v_projected_with_w_k": (
        bug(MHA, "forward", ("self.w_v(x_kv)", "self.w_k(x_kv)")),
        [checks.check_stacks_equal_nn_transformer, checks.check_heads_equal_nn_multihead_attention]),
    "add_and_norm_x_plus_norm_of_sublayer": (  # x + dropout(norm(sublayer(x))): neither post- nor pre-LN
        bug(SUBLAYER, "forward", ("return hook_norm(self.norm(hook_add(x + self.dropout(sublayer(x)))))",
                                  "return hook_add(x + self.dropout(hook_norm(self.norm(sublayer(x)))))")),
        [checks.check_stacks_equal_nn_transformer]),
    "pre_ln_norm_after_the_sublayer": (
        bug(SUBLAYER, "forward", ("x + self.dropout(sublayer(hook_norm(self.norm(x))))",
                                  "x + self.dropout(hook_norm(self.norm(sublayer(x))))")),
        [lambda: checks.check_stacks_equal_nn_transformer(norm_first=True)]),
    "heads_split_with_view_but_no_transpose": (
        bug(MHA, "split_heads", ("x.view(b, t, self.n_heads, self.d_k).transpose(1, 2)",
                                 "x.view(b, self.n_heads, t, self.d_k)")),
        [checks.check_stacks_equal_nn_transformer, checks.check_heads_equal_nn_multihead_attention]),
    "heads_merged_without_transpose": (
        bug(MHA, "forward", ("context.transpose(1, 2).contiguous().view(", "context.contiguous().view(")),
        [checks.check_stacks_equal_nn_transformer, checks.check_heads_equal_nn_multihead_attention]),
    "scores_divided_by_d_k_not_its_root": (
        bug(MHA, "attention", ("/ math.sqrt(self.d_k)", "/ self.d_k")),
        [checks.check_stacks_equal_nn_transformer, checks.check_heads_equal_nn_multihead_attention,
         lambda: checks.check_weights_are_scaled_masked_softmax(checks.small_model().trace(
             checks.ids([5, 6, 7, 2]), checks.ids([1, 8, 9])))]),
    "causal_mask_sees_one_token_ahead": (
        bug(masks, "causal_mask", (".tril(diagonal=past)", ".tril(diagonal=past + 1)")),
        [checks.check_stacks_equal_nn_transformer, checks.check_heads_equal_nn_multihead_attention,
         checks.check_decoder_never_looks_ahead, checks.check_future_target_token_leaves_earlier_logits]),
    "causal_mask_hides_the_token_itself": (
        bug(masks, "causal_mask", (".tril(diagonal=past)", ".tril(diagonal=past - 1)")),
        [checks.check_stacks_equal_nn_transformer, checks.check_decoder_never_looks_ahead]),
    "mask_inverted_in_masked_fill": (  # True read as "blocked", nn.MultiheadAttention's convention
        bug(MHA, "attention", ("scores.masked_fill(~mask,", "scores.masked_fill(mask,")),
        [checks.check_stacks_equal_nn_transformer, checks.check_heads_equal_nn_multihead_attention]),
    "mask_inverted_for_scaled_dot_product_attention": (
        bug(model, "fused_attention", ("attn_mask=mask,", "attn_mask=~mask,")),
        [lambda: checks.check_stacks_equal_nn_transformer(fused=True),
         checks.check_packed_inference_equals_nn_transformer]),
    "padding_mask_inverted": (
        bug(masks, "padding_mask", ("ids != pad_id", "ids == pad_id")),
        [checks.check_stacks_equal_nn_transformer]),
    "key_padding_mask_for_pytorch_not_inverted": (
        bug(masks, "to_torch_key_padding_mask", ("return ~mask", "return mask")),
        [checks.check_masks_convert_to_pytorch_convention]),
    "attn_mask_for_pytorch_not_inverted": (
        bug(masks, "to_torch_attn_mask", ("return ~mask", "return mask")),
        [checks.check_masks_convert_to_pytorch_convention]),
    "pe_a_plain_attribute": (  # not a buffer: .to() leaves it behind
        bug(model.SinusoidalPositionalEncoding, "__init__",
            ('self.register_buffer("pe", sinusoidal_table(max_len, d_model, layout), persistent=False)',
             "self.pe = sinusoidal_table(max_len, d_model, layout)")),
        [checks.check_moves_with_to]),
    "pe_sines_and_cosines_in_halves": (  # Marian's layout, not the paper's interleaving
        bug(model, "sinusoidal_table", ("table[:, 0::2]", "table[:, : d_model // 2]"),
            ("table[:, 1::2]", "table[:, d_model // 2 :]")),
        [checks.check_positional_encoding_is_the_papers_formula]),
    "fully_masked_row_left_as_nan": (
        bug(MHA, "attention", ("weights = weights.masked_fill(~has_key, 0.0)", "weights = weights")),
        [checks.check_fully_masked_rows_are_zero_not_nan]),
    "encoder_final_layer_norm_assumed": (  # nn.Transformer adds one; the paper's post-LN stack has none
        bug(model.Encoder, "__init__", (f"{NORM} if config.final_norm else None", NORM)),
        [checks.check_stacks_equal_nn_transformer]),
    "decoder_final_layer_norm_assumed": (
        bug(model.Decoder, "__init__", (f"{NORM} if config.final_norm else None", NORM)),
        [checks.check_stacks_equal_nn_transformer]),
    "interop_assumes_a_final_layer_norm": (
        bug(interop, "config_from_nn_transformer", ("final_norm=module.encoder.norm is not None",
                                                    "final_norm=True")),
        [checks.check_stacks_equal_nn_transformer]),
    "trace_records_in_training_mode_with_dropout": (
        bug(model.Transformer, "trace", ("self.eval()", "pass")),
        [checks.check_trace_records_without_dropout]),
    "packed_qkv_in_the_wrong_order": (
        bug(MHA, "packed_qkv", ("torch.cat(params[:3])", "torch.cat((params[1], params[0], params[2]))")),
        [checks.check_packed_inference_equals_nn_transformer]),
    "packed_qkv_cache_misses_in_place_updates": (
        bug(MHA, "packed_qkv", ("(p.data_ptr(), p._version)", "p.data_ptr()")),
        [checks.check_packed_projection_follows_weight_updates]),
    "heatmap_axes_with_raw_token_labels": (  # plotly merges equal category labels
        bug(figures, "attention_heatmap", ("unique_labels(row_tokens), unique_labels(col_tokens)",
                                           "list(row_tokens), list(col_tokens)")),
        [checks.check_heatmap_axes_keep_repeated_tokens_apart]),
    # --- issue 22: decoding, interventions, the RNN, the lab (checks are the new tests themselves) ---
    "beam_length_penalty_counts_one_token_too_many": (
        bug(generation, "length_penalty_factor", ("return ((5.0 + length) / 6.0) ** alpha",
                                                  "return ((6.0 + length) / 6.0) ** alpha")),
        [lambda: beam_tests.test_beam_search_returns_the_documented_rules_choice_and_the_exhaustive_best_where_the_rule_is_exact("transformer", "gnmt")]),  # noqa: E501
    "beam_stops_at_the_first_finished_hypothesis": (
        bug(generation, "_beam_search", ("if len(finished[b]) >= width:", "if len(finished[b]) >= 1:")),
        [lambda: beam_tests.test_beam_search_returns_the_documented_rules_choice_and_the_exhaustive_best_where_the_rule_is_exact("transformer", "gnmt")]),  # noqa: E501
    "rnn_beam_reorder_keeps_the_old_states": (
        bug(rnn.RNNStepper, "reorder", ("self.state.index_select(0, index)",
                                          "self.state.index_select(0, index.sort().values)")),
        [lambda: beam_tests.test_beam_search_returns_the_documented_rules_choice_and_the_exhaustive_best_where_the_rule_is_exact("rnn", "gnmt")]),  # noqa: E501
    "patched_decoding_keeps_the_kv_cache": (  # a whole-prefix patch then sees only the newest position
        bug(generation, "generate", ("use_cache and not patched,", "use_cache,")),
        [generation_tests.test_patched_beam_search_follows_the_documented_rule_over_patched_passes_of_each_prefix,
         generation_tests.test_patched_sampling_draws_from_patched_passes_of_each_prefix]),
    "sampling_ignores_the_temperature": (
        bug(generation, "_sample_or_greedy", ("top_k_top_p_filter(logits.float() / temperature, top_k, top_p)",
                                              "top_k_top_p_filter(logits.float(), top_k, top_p)")),
        [lambda: sampling_tests.test_sampled_token_frequencies_follow_the_filtered_renormalised_softmax(0.7, 5, None, 1)]),  # noqa: E501
    "top_p_set_one_token_too_small": (
        bug(generation, "top_k_top_p_filter", ("drop_sorted = before >= top_p",
                                               "drop_sorted = sorted_probs.cumsum(dim=-1) >= top_p")),
        [lambda: sampling_tests.test_sampled_token_frequencies_follow_the_filtered_renormalised_softmax(1.5, None, 0.8, 2)]),  # noqa: E501
    "switch_off_silences_the_next_head": (
        bug(head_patches, "_set_heads", ("out[:, h] = value_of(x, h)",
                                          "out[:, (h + 1) % x.shape[1]] = value_of(x, h)")),
        [lambda: patching_tests.test_the_shipped_switch_off_equals_weight_surgery("decoder.1.cross_attn", "zero")]),
    "uniform_ablation_ignores_the_mask": (
        bug(head_patches, "uniform_heads", ("torch.where(torch.isneginf(x[:, h]), x[:, h], torch.zeros_like(x[:, h]))",
                                             "torch.zeros_like(x[:, h])")),
        [lambda: patching_tests.test_the_shipped_switch_off_equals_weight_surgery("decoder.0.self_attn", "uniform")]),
    "positional_encoding_sides_swapped": (
        bug(head_patches, "remove_positional_encoding", ('{"src": [SRC_POS], "tgt": [TGT_POS]',
                                                        '{"src": [TGT_POS], "tgt": [SRC_POS]')),
        [lambda: patching_tests.test_removing_positional_encoding_on_one_side_equals_a_model_whose_pe_buffer_is_zero_on_that_side("src")]),  # noqa: E501
    "rnn_gru_input_context_before_embedding": (
        bug(rnn.AttentionDecoder, "forward", ("torch.cat([embed, context], dim=-1)",
                                              "torch.cat([context, embed], dim=-1)")),
        [rnn_tests.test_the_decoder_loop_and_maxout_output_equal_the_paper_written_out_step_by_step]),
    "rnn_maxout_pools_the_two_halves": (
        bug(rnn.MaxoutOutput, "forward", ("pre.view(b, t, self.maxout_size, 2).amax(dim=-1)",
                                          "pre.view(b, t, 2, self.maxout_size).amax(dim=-2)")),
        [rnn_tests.test_the_decoder_loop_and_maxout_output_equal_the_paper_written_out_step_by_step]),
    "beam_tree_marks_nodes_by_their_last_token": (
        bug(generation_figures, "beam_tree", ("on_path = paths[step][i] == chosen[: step + 1]",
                                              "on_path = paths[step][i][-1:] == chosen[step: step + 1]")),
        [lambda: generation_figure_tests.test_the_beam_tree_of_a_real_search_marks_the_returned_output(
            generation_figure_tests.core.load("ko-en-toy"))]),
    # --- issue 32: the training loss, held-out scoring, the split (checks are the rewritten tests) ---
    "training_loss_without_label_smoothing": (  # plain cross-entropy: passed the whole suite before issue 32
        bug(loop, "loss_on", ("    if not sampled_softmax:", "    label_smoothing = 0.0\n    if not sampled_softmax:")),
        [loss_check("full", "transformer"), loss_check("full", "rnn"), loss_check("sampled", "transformer"),
         loss_check("sampled", "rnn")]),
    "training_loss_counts_the_padding": (
        bug(loop, "loss_on", ("labels.reshape(-1), ignore_index=PAD_ID,", "labels.reshape(-1),")),
        [loss_tests.test_padding_positions_change_nothing_and_real_positions_do]),
    "train_drops_the_settings_label_smoothing": (
        bug(loop, "train", ("loss_on(model, batch, settings.label_smoothing,", "loss_on(model, batch, 0.0,")),
        [with_monkeypatch(loss_tests.test_train_optimises_the_smoothed_loss_of_its_settings, "ko-en"),
         with_monkeypatch(loss_tests.test_train_optimises_the_smoothed_loss_of_its_settings, "reverse")]),
    "alignment_scored_one_row_late": (  # row t+1 (query = word t itself) read for word t
        bug(scoring, "_count", ("alignment_hits(average[:rows], example.gold, n_words)",
                                "alignment_hits(average[1:rows + 1], example.gold, n_words)"),
            ("alignment_hits(weights[head, :rows], example.gold, n_words)",
             "alignment_hits(weights[head, 1:rows + 1], example.gold, n_words)")),
        [lambda: heldout_tests.test_score_examples_agrees_with_a_recount_one_sentence_at_a_time("ko-en-toy"),
         lambda: heldout_tests.test_score_examples_agrees_with_a_recount_one_sentence_at_a_time("ko-en-rnn-attention")]),  # noqa: E501
    "alignment_counts_the_appended_eos_as_a_word": (
        bug(scoring, "_count", ("n_words = len(example.source_ids) - 1", "n_words = len(example.source_ids)")),
        [lambda: heldout_tests.test_score_examples_agrees_with_a_recount_one_sentence_at_a_time("ko-en-toy")]),
    "held_out_split_by_pythons_hash": (  # differs between interpreters (PYTHONHASHSEED)
        bug(splits, "is_held_out", ('int.from_bytes(digest, "big")', "hash(text)")),
        [data_tests.test_held_out_split_is_stable_and_about_five_percent]),
    "snapshot_store_keeps_128": (
        bug(snapshots.SnapshotStore, "__init__", ("max_count: int = 64", "max_count: int = 128")),
        [lab_tests.test_a_jobs_snapshot_store_holds_at_most_64_snapshots_and_16_mib]),
}

PAIRS = [(name, index) for name, (_, rejecting) in CASES.items() for index in range(len(rejecting))]


# The bugs whose checks run over 3 s (beam searches, held-out scoring, a subprocess) wait for `make test`
# (issue 49: the edit loop keeps the tests of a few seconds).
SLOW_BUGS = {
    "alignment_counts_the_appended_eos_as_a_word",
    "alignment_scored_one_row_late",
    "beam_length_penalty_counts_one_token_too_many",
    "beam_stops_at_the_first_finished_hypothesis",
    "held_out_split_by_pythons_hash",
    "rnn_beam_reorder_keeps_the_old_states",
}


@pytest.mark.parametrize("name,index", [
    pytest.param(name, index, id=f"{name}-check{index}", marks=[pytest.mark.slow] if name in SLOW_BUGS else [])
    for name, index in PAIRS])
def test_the_check_rejects_the_bug(name: str, index: int, monkeypatch: pytest.MonkeyPatch):
    the_bug, rejecting = CASES[name]
    check = rejecting[index]
    check()  # passes on the real code (it is the normal suite's check) ...
    the_bug.apply(monkeypatch)
    with pytest.raises(AssertionError):
        check()  # ... and fails with the bug in


def test_every_bug_is_undone_after_its_test():
    """monkeypatch restores the real code: the checks pass again (run after the parametrized cases)."""
    checks.check_stacks_equal_nn_transformer()
    checks.check_moves_with_to()
    assert masks.causal_mask(3).tolist() == [[True, False, False], [True, True, False], [True, True, True]]
