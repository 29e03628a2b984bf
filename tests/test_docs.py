"""README.md is the front door: at most 150 lines, its folder map is the real tree, its links resolve."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
MAX_LINES = 150


def folder_map(text: str) -> list[str]:
    """The first word of every line of the code block under '## Folder map'."""
    section = text.split("## Folder map", 1)[1]
    block = re.search(r"```\n(.*?)```", section, re.DOTALL)
    assert block, "no code block under '## Folder map'"
    return [line.split()[0] for line in block.group(1).splitlines() if line.strip()]


def test_readme_is_at_most_150_lines():
    n = len(README.read_text(encoding="utf-8").splitlines())
    assert n <= MAX_LINES, f"README.md has {n} lines; move details to docs/"


def test_every_path_in_the_readme_folder_map_exists():
    paths = folder_map(README.read_text(encoding="utf-8"))
    assert len(paths) >= 10, paths
    missing = [p for p in paths if not (ROOT / p).exists() or (p.endswith("/") and not (ROOT / p).is_dir())]
    assert not missing, f"the folder map names paths that do not exist: {missing}"


def test_the_folder_map_names_every_top_level_part_of_the_project():
    paths = set(folder_map(README.read_text(encoding="utf-8")))
    for part in ("app.py", "pages/", "explorer/", "transformer_core/", "models/", "tests/", "docs/", "benchmarks/"):
        assert any(p == part or p.startswith(part) for p in paths), part
    for package in sorted((ROOT / "transformer_core").iterdir()):
        if package.is_dir() and (package / "__init__.py").is_file():
            assert f"transformer_core/{package.name}/" in paths, package.name


def test_local_links_in_the_readme_and_docs_resolve():
    for path in [README, *sorted((ROOT / "docs").glob("*.md"))]:
        text = path.read_text(encoding="utf-8")
        for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text):
            if re.match(r"[a-z]+://", target):
                continue
            assert (path.parent / target).exists(), f"{path.relative_to(ROOT)} links to missing {target}"
