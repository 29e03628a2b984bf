"""docs/explore.ipynb runs top to bottom (nbclient, a real Jupyter kernel) and is committed without outputs."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.requirements_check import needed

nbformat = needed("nbformat")
nbclient = needed("nbclient")
needed("ipykernel")

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOK = ROOT / "docs" / "explore.ipynb"
PLOTLY_MIME = "application/vnd.plotly.v1+json"
pytestmark = pytest.mark.slow


def run_notebook(monkeypatch, **env: str):
    """Execute a copy of the notebook in a fresh kernel (the worktree first on its path); returns it."""
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    monkeypatch.setenv("OMP_NUM_THREADS", "1")
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    client = nbclient.NotebookClient(notebook, timeout=300, kernel_name="python3",
                                     resources={"metadata": {"path": str(ROOT / "docs")}})
    client.execute()
    return notebook


def outputs_of(notebook) -> list[dict]:
    return [output for cell in notebook.cells if cell.cell_type == "code" for output in cell.outputs]


def test_committed_notebook_has_no_outputs():
    raw = json.loads(NOTEBOOK.read_text(encoding="utf-8"))
    for cell in raw["cells"]:
        if cell["cell_type"] == "code":
            assert cell["outputs"] == [] and cell["execution_count"] is None, cell["source"][:80]


def test_notebook_runs_and_draws_the_pages_figures(monkeypatch):
    notebook = run_notebook(monkeypatch)
    outputs = outputs_of(notebook)
    assert not [o for o in outputs if o.get("output_type") == "error"]
    figures = [o for o in outputs if PLOTLY_MIME in o.get("data", {})]
    assert len(figures) == 4  # input heatmaps, PE curves, encoder heads grid, cross-attention
    heatmaps = [t for f in figures for t in f["data"][PLOTLY_MIME]["data"] if t.get("type") == "heatmap"]
    assert len(heatmaps) >= 3 + 1
    text = "".join(o.get("text", "") for o in outputs if o.get("output_type") == "stream")
    assert "context of the switched-off heads is zero: True" in text
    assert "beam search:" in text


def test_notebook_runs_on_a_users_marian_checkpoint(monkeypatch, tmp_path):
    needed("sentencepiece")
    from tests.hf_checkpoints import save_marian

    save_marian(tmp_path / "opus-tiny", layers=(1, 1), width=32, heads=4)
    notebook = run_notebook(monkeypatch, EXPLORE_MODEL=str(tmp_path / "opus-tiny"), EXPLORE_TEXT="나는 학교에 간다.")
    outputs = outputs_of(notebook)
    assert not [o for o in outputs if o.get("output_type") == "error"]
    assert len([o for o in outputs if PLOTLY_MIME in o.get("data", {})]) == 4
