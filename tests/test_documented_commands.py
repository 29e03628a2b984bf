"""Every `python -m ...` command that README.md, docs/, the bundled models' cards and the UI's text catalogs give
runs: each module (and subcommand) answers `--help` with its usage, in a fresh interpreter."""

from __future__ import annotations

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
    assert ("transformer_core.data.recogniser", "build") in commands  # a module's subcommand is run too
    assert COMMAND.findall("run `python -m transformer_core.train --task ko-en` now") == [("transformer_core.train",
                                                                                              "")]


@pytest.mark.slow  # over 3 s (issue 49: `make test-fast` keeps the tests of a few seconds)
@pytest.mark.parametrize("command", documented_commands(), ids=" ".join)
def test_each_documented_command_answers_help(command):
    proc = subprocess.run([sys.executable, "-m", *command, "--help"], capture_output=True, text=True, cwd=ROOT,
                          timeout=300, env={"HF_HUB_OFFLINE": "1", "PATH": "/usr/bin:/bin"})
    assert proc.returncode == 0, f"python -m {' '.join(command)} --help: {proc.stderr[-2000:]}"
    assert "usage" in proc.stdout.lower(), proc.stdout[:500]
