"""Corpus head statistics (transformer_core/analysis/heads.py), checked against hand-made attention maps,
numpy's SVD and the Jensen–Shannon formula written out here, and on the bundled models."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
import torch

import transformer_core
from transformer_core.analysis import head_groups
from transformer_core.analysis import heads as H
from transformer_core.tracing.names import AttentionKind, Head, attention_name

ENC0 = attention_name("encoder.self_attn", 0, "weights")


@pytest.fixture(scope="module")
def ko_en(one_torch_thread):
    return transformer_core.load("ko-en-toy")


@pytest.fixture(scope="module")
def reverse(one_torch_thread):
    return transformer_core.load("reverse")


@pytest.fixture(scope="module")
def small_corpus(ko_en):
    """12 held-out ko-en sentences of different lengths (so batches hold padding)."""
    corpus = H.heldout_corpus(ko_en, 12)
    assert len({len(item.source_ids) for item in corpus.items}) > 1
    return corpus


def key_mask_of(x: torch.Tensor) -> torch.Tensor:
    """Real keys of an encoder self-attention map: row 0 (a real query in every sentence) is > 0 there."""
    return x[:, :, :1, :] > 0  # [B,H,1,S]


def plant(builder):
    """A patch replacing encoder layer 0's weights by builder(n_keys_real) for every sentence and head; padded
    query rows attend uniformly over the real keys, as the model's own padded rows do (the key mask alone)."""
    def patch(x: torch.Tensor) -> torch.Tensor:
        out = torch.zeros_like(x)
        real = key_mask_of(x)[:, 0, 0]  # [B,S]
        for b in range(x.shape[0]):
            n = int(real[b].sum())
            out[b, :, :n, :n] = builder(n)
            out[b, :, n:, :n] = 1.0 / n
        return out
    return {ENC0: patch}


def enc0(stats: H.HeadStatistics, stat: str) -> np.ndarray:
    return np.array([stats.value(Head("enc", 0, h), stat) for h in range(4)])


def lengths(corpus: H.Corpus) -> np.ndarray:
    return np.array([len(item.source_ids) for item in corpus.items], dtype=np.float64)


def recount_head_statistics(loaded, corpus: H.Corpus) -> dict[Head, dict[str, float | None]]:
    """Every head's pooled statistics recounted from raw offsets, one unpadded trace per sentence: for each real
    query i, the weight on key i (diagonal), i - 1 (previous, 0 for i = 0), i + 1 (next, 0 past the last key),
    key 0 (first), the last key (last), -sum w log w (entropy), averaged over all query tokens of the corpus;
    aligned (cross-attention only): the weight row t puts on target word t's gold source tokens, averaged over
    words with a gold alignment."""
    sums: dict[Head, dict[str, float]] = {}
    queries: dict[AttentionKind, int] = {}
    aligned_words = 0
    for item in corpus.items:
        trace = loaded.model.trace(torch.tensor([item.source_ids]), torch.tensor([item.decoder_ids]))
        for kind, n_q, n_k in ((AttentionKind.ENCODER_SELF, len(item.source_ids), len(item.source_ids)),
                               (AttentionKind.DECODER_SELF, len(item.decoder_ids), len(item.decoder_ids)),
                               (AttentionKind.CROSS, len(item.decoder_ids), len(item.source_ids))):
            queries[kind] = queries.get(kind, 0) + n_q
            for layer in range(loaded.config.n_encoder_layers if kind is AttentionKind.ENCODER_SELF
                               else loaded.config.n_decoder_layers):
                weights = trace[attention_name(kind, layer, "weights")][0].double()  # [H, n_q, n_k]
                for h in range(weights.shape[0]):
                    w = weights[h].tolist()
                    total = sums.setdefault(Head(kind, layer, h), dict.fromkeys(H.STATS, 0.0))
                    for i, row in enumerate(w):
                        total["diagonal"] += row[i] if i < n_k else 0.0
                        total["previous"] += row[i - 1] if 0 <= i - 1 < n_k else 0.0
                        total["next"] += row[i + 1] if i + 1 < n_k else 0.0
                        total["first"] += row[0]
                        total["last"] += row[n_k - 1]
                        total["entropy"] -= sum(p * math.log(p) for p in row if p > 0)
                    if kind is AttentionKind.CROSS:
                        for t, sources in enumerate(item.gold):
                            total["aligned"] += sum(w[t][j] for j in sources)
        aligned_words += sum(1 for sources in item.gold if sources)
    out = {}
    for head, total in sums.items():
        out[head] = {stat: total[stat] / queries[head.kind] for stat in H.STATS if stat != "aligned"}
        out[head]["aligned"] = total["aligned"] / aligned_words if head.kind is AttentionKind.CROSS else None
    return out


def expected_groups(recounted: dict[Head, dict]) -> dict[str, set[Head]]:
    """A head belongs to its largest behaviour share when that share is at least one half, else to 'mixed'."""
    groups: dict[str, set[Head]] = {}
    for head, values in recounted.items():
        shares = {b: values[b] for b in H.BEHAVIOURS if values[b] is not None}
        best = max(shares, key=lambda b: shares[b])
        groups.setdefault(best if shares[best] >= 0.5 else H.MIXED, set()).add(head)
    return groups


def test_pure_diagonal_head_scores_one_on_diagonal_and_zero_on_previous(ko_en, small_corpus):
    stats = H.corpus_statistics(ko_en, small_corpus, batch_size=5, patches=plant(torch.eye))
    assert np.allclose(enc0(stats, "diagonal"), 1.0)
    assert np.allclose(enc0(stats, "previous"), 0.0)
    assert np.allclose(enc0(stats, "next"), 0.0)
    assert np.allclose(enc0(stats, "entropy"), 0.0, atol=1e-6)
    n = lengths(small_corpus)
    # Only the last query of each sentence sits on the last real key (</s>), only query 0 on key 0.
    assert np.allclose(enc0(stats, "last"), len(n) / n.sum())
    assert np.allclose(enc0(stats, "first"), len(n) / n.sum())
    assert stats.query_tokens[AttentionKind.ENCODER_SELF] == n.sum()


def previous_map(n: int) -> torch.Tensor:
    """Query i looks at key i - 1; query 0 (which has no previous key) at itself."""
    m = torch.zeros(n, n)
    m[0, 0] = 1.0
    for i in range(1, n):
        m[i, i - 1] = 1.0
    return m


def test_previous_token_head_is_found_and_pooled_over_query_tokens(ko_en, small_corpus):
    stats = H.corpus_statistics(ko_en, small_corpus, batch_size=5, patches=plant(previous_map))
    n = lengths(small_corpus)
    # Every query but the first of a sentence scores 1: pooled over query tokens, not averaged per sentence.
    assert np.allclose(enc0(stats, "previous"), (n - 1).sum() / n.sum())
    assert np.allclose(enc0(stats, "diagonal"), len(n) / n.sum())
    head = Head("enc", 0, 2)
    assert head_groups.head_group(stats, stats.index(head)) == "previous"
    assert head in head_groups.head_groups(stats)["previous"]


def test_uniform_head_entropy_is_log_n_and_padding_is_excluded(ko_en, small_corpus):
    stats = H.corpus_statistics(ko_en, small_corpus, batch_size=5, patches=plant(lambda n: torch.full((n, n), 1 / n)))
    n = lengths(small_corpus)
    expected = (n * np.log(n)).sum() / n.sum()  # each real query: ln(its sentence's real key count)
    assert np.allclose(enc0(stats, "entropy"), expected, atol=1e-5)
    assert np.allclose(enc0(stats, "first"), len(n) / n.sum())
    # Per sentence: every query weighs the same, so the sentence's entropy is ln n.
    per = stats.per_sentence[:, stats.index(Head("enc", 0, 1)), H.STATS.index("entropy")]
    assert np.allclose(per, np.log(n), atol=1e-5)


def test_row_statistics_on_a_hand_made_map_with_padding():
    w = torch.tensor([[0.5, 0.25, 0.25, 0.0],
                      [0.1, 0.2, 0.7, 0.0],
                      [0.0, 0.6, 0.4, 0.0],
                      [0.3, 0.3, 0.4, 0.0]])[None, None]  # 3 real keys, key 3 padding
    key_mask = torch.tensor([[True, True, True, False]])
    values = H.row_statistics(w, key_mask, key_mask)
    assert values["diagonal"][0, 0, :3].tolist() == pytest.approx([0.5, 0.2, 0.4])
    assert values["previous"][0, 0, :3].tolist() == pytest.approx([0.0, 0.1, 0.6])
    assert values["next"][0, 0, :3].tolist() == pytest.approx([0.25, 0.7, 0.0])  # key 3 is padding
    assert values["last"][0, 0, :3].tolist() == pytest.approx([0.25, 0.7, 0.4])  # key 2 is the last real one
    row = [0.1, 0.2, 0.7]
    assert float(values["entropy"][0, 0, 1]) == pytest.approx(-sum(p * math.log(p) for p in row))


def test_aligned_is_the_weight_on_gold_source_tokens():
    w = torch.tensor([[0.7, 0.2, 0.1],
                      [0.1, 0.3, 0.6],
                      [0.5, 0.5, 0.0]])[None, None]  # rows predict target words 0, 1 and 2
    item = H.CorpusItem("x", (5, 6, 2), (1, 7, 8), ((0,), (), (0, 1)))  # word 1 has no gold alignment
    on_gold, scored = H.aligned_rows(w, [item])
    assert float(scored[0]) == 2
    assert float(on_gold[0, 0]) == pytest.approx(0.7 + (0.5 + 0.5))


def test_pca_matches_numpy_svd():
    g = torch.Generator().manual_seed(0)
    x = torch.randn(50, 6, generator=g) @ torch.diag(torch.tensor([5.0, 3.0, 1.0, 0.5, 0.2, 0.1]))
    coords, axes = head_groups.pca_2d(x)
    xn = x.double().numpy()
    centred = xn - xn.mean(0)
    _, _, vt = np.linalg.svd(centred, full_matrices=False)
    for i in range(2):  # SVD signs are arbitrary: compare up to sign
        expected = centred @ vt[i]
        sign = np.sign(np.dot(expected, coords[:, i].numpy()))
        assert np.allclose(coords[:, i].numpy(), sign * expected, atol=1e-8)
        assert np.allclose(np.abs(axes[i].numpy()), np.abs(vt[i]), atol=1e-8)


def test_js_distance_matches_the_formula():
    rng = np.random.default_rng(1)
    p = rng.random((5, 7))
    p[2, 3] = 0.0  # a zero bin
    p /= p.sum(1, keepdims=True)
    d = head_groups.js_distance_matrix(p)

    def js(a, b):
        m = [(x + y) / 2 for x, y in zip(a, b, strict=True)]
        kl = lambda u, v: sum(x * math.log2(x / y) for x, y in zip(u, v, strict=True) if x > 0)  # noqa: E731
        return math.sqrt(0.5 * kl(a, m) + 0.5 * kl(b, m))

    for i in range(5):
        for j in range(5):
            assert d[i, j] == pytest.approx(js(p[i], p[j]), abs=1e-9)
    assert head_groups.js_distance_matrix(np.array([[1.0, 0.0], [0.0, 1.0]]))[0, 1] == pytest.approx(1.0)


def test_cluster_order_puts_alike_heads_side_by_side():
    # Points on a line: {0, 3, 5} near 0, {1, 2, 4} near 10.
    x = np.array([0.0, 10.0, 10.5, 0.4, 11.0, 0.9])
    order = head_groups.cluster_order(np.abs(x[:, None] - x[None, :]))
    assert sorted(order) == list(range(6))
    assert {frozenset(order[:3]), frozenset(order[3:])} == {frozenset({0, 3, 5}), frozenset({1, 2, 4})}


def test_reverse_model_cross_attention_is_found_aligned(reverse):
    stats = H.corpus_statistics(reverse, H.heldout_corpus(reverse, 40))
    groups = head_groups.head_groups(stats)
    cross = [h for h in stats.heads if h.kind is AttentionKind.CROSS]
    for head in cross:
        assert stats.value(head, "aligned") > 0.9, head
    assert set(groups["aligned"]) == set(cross)
    assert all(stats.value(h, "aligned") is None for h in stats.heads if h.kind is not AttentionKind.CROSS)


@pytest.mark.slow  # over 3 s (issue 49: `make test-fast` keeps the tests of a few seconds)
def test_ko_en_toy_statistics_and_groups_match_a_recount_from_raw_offsets_and_gold_alignments(ko_en):
    """Every head's pooled statistics on 60 held-out sentences (padded batches of 16) against the recount from one
    unpadded trace per sentence, and the named groups against the groups that recount gives."""
    corpus = H.heldout_corpus(ko_en, 60)
    stats = H.corpus_statistics(ko_en, corpus, batch_size=16)
    recounted = recount_head_statistics(ko_en, corpus)
    assert set(recounted) == set(stats.heads)
    for head, values in recounted.items():
        for stat, expected in values.items():
            if expected is None:
                assert stats.value(head, stat) is None, (head, stat)
            else:
                assert stats.value(head, stat) == pytest.approx(expected, abs=1e-5), (head, stat)
    groups = {name: set(heads) for name, heads in head_groups.head_groups(stats).items()}
    assert groups == expected_groups(recounted)
    assert groups.get("aligned")  # the sample names some alignment heads: the comparison is not of empty sets
    assert np.allclose(stats.profiles.sum(1), 1.0)


def test_query_key_map_projects_queries_and_keys_on_the_same_axes(ko_en, small_corpus):
    head = Head("cross", 1, 0)
    qk = head_groups.query_key_map(ko_en, small_corpus, head, max_sentences=6)
    items = small_corpus.items[:6]
    # Independent: the same vectors from one trace per sentence, projected with numpy's SVD.
    qs, ks = [], []
    for item in items:
        trace = ko_en.model.trace(torch.tensor([item.source_ids]), torch.tensor([item.decoder_ids]))
        qs.append(trace[head.name("q")][0, 0].numpy())
        ks.append(trace[head.name("k")][0, 0].numpy())
    q, k = np.concatenate(qs), np.concatenate(ks)
    assert qk.role.count("query") == len(q) and qk.role.count("key") == len(k)
    scale = math.sqrt(np.linalg.norm(k, axis=1).mean() / np.linalg.norm(q, axis=1).mean())
    both = np.concatenate([q * scale, k / scale]).astype(np.float64)
    centred = both - both.mean(0)
    _, singular, vt = np.linalg.svd(centred, full_matrices=False)
    for i, coords in enumerate((qk.x, qk.y)):
        expected = centred @ vt[i]
        assert np.allclose(np.abs(coords), np.abs(expected), atol=1e-4)
    assert qk.sentence[0] == 0 and qk.token[0] == "<s>"
    # share of the variance on each axis: s_i^2 / sum of all s^2
    assert qk.explained == pytest.approx(tuple(singular[:2] ** 2 / (singular ** 2).sum()), abs=1e-5)


def test_cache_is_per_model_and_corpus(ko_en, small_corpus):
    calls = []
    first = H.head_statistics(ko_en, small_corpus, progress=lambda d, t: calls.append((d, t)))
    again = H.head_statistics(ko_en, small_corpus)
    assert again is first and calls[-1] == (12, 12)
    other = H.heldout_corpus(ko_en, 12, seed=1)
    assert other.key != small_corpus.key and H.cached_statistics(ko_en, other) is None


def test_text_corpus_generates_then_records_like_trace_text(ko_en):
    text = "고양이가 생선을 먹는다"
    corpus = H.text_corpus(ko_en, [text, "", "학생이 책을 읽는다"])
    assert len(corpus) == 2 and corpus.items[0].gold is None
    single = transformer_core.trace_text(ko_en, text)
    assert list(corpus.items[0].decoder_ids) == single.trace["tgt.ids"][0].tolist()
    stats = H.corpus_statistics(ko_en, corpus)
    assert all(stats.value(h, "aligned") is None for h in stats.heads)
    rows = stats.rows()
    assert all(row["aligned"] is None for row in rows)  # no gold alignment: unknown, not NaN
    assert all(row[stat] is not None for row in rows for stat in H.STATS if stat != "aligned")
    json.dumps(rows, allow_nan=False)  # raises ValueError on a NaN anywhere


def test_bad_corpus_input_gets_a_reason(ko_en, reverse):
    assert H.corpus_problem(ko_en, ["", "  "]) == "empty"
    assert H.corpus_problem(ko_en, ["고양이"] * 1001) == "too_long"
    assert H.corpus_problem(ko_en, ["The cat eats fish.", "Hello world"]) == "wrong_language"
    assert H.corpus_problem(ko_en, ["고양이가 생선을 먹는다 🐟"]) is None
    assert H.corpus_problem(reverse, ["漢字漢字漢字"]) == "unknown_tokens"
    assert H.corpus_problem(reverse, ["Hello, world!"]) is None
    with pytest.raises(ValueError, match="empty"):
        H.text_corpus(ko_en, [" "])
    with pytest.raises(ValueError, match="no multi-head attention"):
        H.require_transformer(transformer_core.load("ko-en-rnn-attention"))


def test_cli_prints_the_json_the_issue_names(reverse, capsys):
    from transformer_core.__main__ import main

    assert main(["heads", "--model", "reverse", "--n", "6", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["sentences"] == 6 and isinstance(out["seconds"], float)
    assert len(out["heads"]) == 3 * 2 * 4
    keys = {"kind", "layer", "head", "diagonal", "previous", "next", "first", "last", "aligned", "entropy"}
    assert all(set(row) == keys for row in out["heads"])
    # Against the recount from raw offsets and gold alignments (not the library the CLI calls).
    recounted = recount_head_statistics(reverse, H.heldout_corpus(reverse, 6))
    assert [(row["kind"], row["layer"], row["head"]) for row in out["heads"]] == \
        [(h.kind.value, h.layer, h.head) for h in H.all_heads(reverse)]
    for row in out["heads"]:
        head = Head(AttentionKind(row["kind"]), row["layer"], row["head"])
        for stat, expected in recounted[head].items():
            if expected is None:
                assert row[stat] is None, (head, stat)
            else:
                assert row[stat] == pytest.approx(expected, abs=2e-6), (head, stat)


def test_cli_reads_a_corpus_file_and_refuses_bad_ones(tmp_path, capsys):
    from transformer_core.__main__ import main

    good = tmp_path / "good.txt"
    good.write_text("고양이가 생선을 먹는다\n\n학생이 책을 읽는다\n", encoding="utf-8")
    assert main(["heads", "--model", "ko-en-toy", "--corpus", str(good), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["sentences"] == 2 and all(row["aligned"] is None for row in out["heads"])
    assert main(["heads", "--model", "ko-en-toy", "--corpus", str(good)]) == 0
    assert "enc L0 H0" in capsys.readouterr().out
    english = tmp_path / "english.txt"
    english.write_text("The cat eats fish.\n", encoding="utf-8")
    assert main(["heads", "--model", "ko-en-toy", "--corpus", str(english)]) == 2
    assert "no Korean" in capsys.readouterr().err
    assert main(["heads", "--model", "ko-en-toy", "--corpus", str(tmp_path / "missing.txt")]) == 2


def test_recording_only_some_names_keeps_those_tensors_equal_to_the_full_trace(ko_en, small_corpus):
    item = small_corpus.items[0]
    src, tgt = torch.tensor([item.source_ids]), torch.tensor([item.decoder_ids])
    names = ["src.mask", attention_name("decoder.cross_attn", 1, "weights")]
    kept = H.record_pass(ko_en.model, src, tgt, names)
    assert sorted(kept) == sorted(names)
    full = ko_en.model.trace(src, tgt)
    for name in names:
        assert torch.equal(kept[name], full[name])
