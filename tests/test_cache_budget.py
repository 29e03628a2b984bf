"""The shared trace cache's bounds (explorer/services.py) are finite, are the ones the app's cache uses, and
a full cache plus every bundled model plus the runtime fits one 1.5 GB server (issue 6). No browser:
this runs wherever the suite runs; tests/test_sessions.py measures the real server under 16 sessions."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

import transformer_core as core

BUDGET = 1.5e9  # bytes: the limit for the whole server process
WANTED_MODELS = ("ko-en-toy", "minilm-l6", "paper-base", "reverse")


def parse_bytes(value: object) -> float:
    """An int/float byte count, or a size string like "512MB", "1GiB", "256 MiB" (Streamlit's style)."""
    if isinstance(value, int | float):
        return float(value)
    match = re.fullmatch(r"\s*([\d.]+)\s*([kmgt]?)(i?)b?\s*", str(value), re.IGNORECASE)
    if not match:
        raise ValueError(f"cannot read a byte size from {value!r}")
    number, prefix, binary = match.groups()
    base = 1024 if binary else 1000
    return float(number) * base ** "_kmgt".index(prefix.lower() or "_")


def test_parse_bytes_reads_numbers_and_size_strings():
    assert parse_bytes(512 * 2**20) == 512 * 2**20
    assert parse_bytes("512MiB") == 512 * 2**20 and parse_bytes("1.5 GB") == 1.5e9 and parse_bytes("200k") == 2e5
    with pytest.raises(ValueError):
        parse_bytes("lots")


def model_bytes(name: str) -> int:
    """Bytes of a model's parameters and buffers (what get_model keeps resident)."""
    model = core.load(name).model
    return sum(t.numel() * t.element_size() for t in [*model.parameters(), *model.buffers()])


def runtime_baseline_bytes() -> int:
    """Resident memory of a bare interpreter that imported what the app imports (no model, no trace)."""
    code = ("import streamlit, torch, transformers, plotly.graph_objects, pandas, numpy\n"
            "import transformer_core, explorer.figures.figures\n"
            "print([l for l in open('/proc/self/status') if l.startswith('VmRSS')][0].split()[1])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=180,
                         env={**os.environ, "HF_HUB_OFFLINE": "1"}, cwd=core.io.loading.REPO_ROOT, check=True)
    return int(out.stdout.strip().splitlines()[-1]) * 1024


@pytest.mark.slow
def test_trace_cache_is_bounded_within_the_budget():
    from explorer import services as shared  # an AttributeError here is a failure, never a skip
    from explorer.cache import BoundedCache

    entries, cache_bytes = int(shared.TRACE_CACHE_ENTRIES), parse_bytes(shared.TRACE_CACHE_BYTES)
    assert 1 <= entries <= 256, entries
    assert 0 < cache_bytes < float("inf"), shared.TRACE_CACHE_BYTES
    cache = shared.trace_cache()  # the shared cache the app builds (st.cache_resource) uses these bounds
    assert isinstance(cache, BoundedCache), type(cache)
    assert (cache.max_entries, cache.max_bytes) == (entries, int(cache_bytes))
    models = {info.name: model_bytes(info.name) for info in core.list_models()
              if info.available and info.name in WANTED_MODELS}
    assert models, "no bundled model is available to measure"
    baseline = runtime_baseline_bytes()
    from explorer import lesson_service  # the lesson's shared step views (figures): bounded in bytes too

    step_views = lesson_service.STEP_VIEWS
    assert (step_views.max_entries, step_views.max_bytes) == (lesson_service.STEP_VIEW_CACHE_ENTRIES,
                                                              lesson_service.STEP_VIEW_CACHE_BYTES)
    cache_bytes += step_views.max_bytes
    qr_pngs = lesson_service.QR_PNGS  # the join links' QR codes, bounded in bytes since they left lru_cache
    assert (qr_pngs.max_entries, qr_pngs.max_bytes) == (lesson_service.QR_CACHE_ENTRIES, lesson_service.QR_CACHE_BYTES)
    cache_bytes += qr_pngs.max_bytes
    total = baseline + sum(models.values()) + cache_bytes
    print(f"\n[cache budget] entries {entries}, bytes {cache_bytes / 1e6:.0f} MB; models "
          + ", ".join(f"{n} {b / 1e6:.0f} MB" for n, b in models.items())
          + f"; runtime baseline {baseline / 1e6:.0f} MB; worst case {total / 1e6:.0f} MB of {BUDGET / 1e6:.0f} MB")
    assert total < BUDGET, (f"a full trace cache ({cache_bytes / 1e6:.0f} MB) + models "
                            f"({sum(models.values()) / 1e6:.0f} MB) + runtime ({baseline / 1e6:.0f} MB) "
                            f"= {total / 1e6:.0f} MB does not fit {BUDGET / 1e6:.0f} MB")
