"""Every `python -m ...` command that README.md, docs/, the bundled models' cards and the UI's text catalogs give
runs: each module (and subcommand) answers `--help` with its usage, all in one fresh interpreter."""

from __future__ import annotations

import functools
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md")), *sorted((ROOT / "models").glob("*/README.md")),
             *sorted((ROOT / "explorer" / "i18n").glob("*.json"))]
# `python -m module` and, when the next word is a plain word (not an option, path or quote), its subcommand
COMMAND = re.compile(r"python -m ([A-Za-z_][\w.]*)(?: ([a-z][a-z_-]*)(?=[\s`]|$))?")


def documented_commands() -> list[tuple[str, ...]]:
    found: set[tuple[str, ...]] = set()
    for path in DOCUMENTS:
        for module, word in COMMAND.findall(path.read_text(encoding="utf-8")):
            found.add((module, word) if word else (module,))
    return sorted(found)


def test_the_documents_give_commands_and_the_pattern_reads_them():
    commands = documented_commands()
    assert ("transformer_core", "train") in commands and ("transformer_core", "evaluate") in commands
    assert ("transformer_core.grammar.recogniser", "build") in commands  # a module's subcommand is run too
    assert COMMAND.findall("run `python -m transformer_core.train --task ko-en` now") == [("transformer_core.train",
                                                                                              "")]


# One fresh interpreter asks every command for its help in turn (runpy, as `python -m` runs a module): each
# interpreter of its own paid torch's import again, 17 times, 53.6 s of a two-worker run (issue 49); a module that needs
# another's import to answer still fails in the first place it is asked.
HELP_RUNNER = r"""
import contextlib, io, json, runpy, sys
results = {}
for command in json.loads(sys.argv[1]):
    out, err = io.StringIO(), io.StringIO()
    sys.argv = [command[0], *command[1:], "--help"]
    code = 0
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            runpy.run_module(command[0], run_name="__main__", alter_sys=True)
        except SystemExit as exit_:
            code = exit_.code if isinstance(exit_.code, int) else (0 if exit_.code is None else 1)
        except Exception as error:  # noqa: BLE001  (reported as the command's failure)
            code, err = 1, io.StringIO(f"{type(error).__name__}: {error}")
    results[" ".join(command)] = [code, out.getvalue(), err.getvalue()]
sys.__stdout__.write(json.dumps(results))
"""


@functools.cache
def help_answers() -> dict[str, list]:
    proc = subprocess.run([sys.executable, "-c", HELP_RUNNER, json.dumps(documented_commands())], capture_output=True,
                          text=True, cwd=ROOT, timeout=600, env={"HF_HUB_OFFLINE": "1", "PATH": "/usr/bin:/bin"})
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout)


@pytest.mark.slow  # over 3 s (issue 49: `make test-fast` keeps the tests of a few seconds)
@pytest.mark.parametrize("command", documented_commands(), ids=" ".join)
def test_each_documented_command_answers_help(command):
    code, stdout, stderr = help_answers()[" ".join(command)]
    assert code == 0, f"python -m {' '.join(command)} --help: {stderr[-2000:]}"
    assert "usage" in stdout.lower(), stdout[:500]
