"""docs/architecture.md is true to the tree: every project file or folder it names in `code` exists, and its
'where to put a new …' section says where a task, a model family, an attribution method and a page go."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "architecture.md"
TOP = ("app.py", "pages/", "explorer/", "transformer_core/", "tests/", "docs/", "models/", "benchmarks/")
# Paths written relative to a package ("inference/text.py" in a row about transformer_core/...).
PACKAGES = ("transformer_core", "explorer")


def named_paths(text: str) -> list[str]:
    """Every `code` span that is a path of this project (a top-level part, or a package-relative file)."""
    paths = []
    for span in re.findall(r"`([^`\s]+)`", text):
        span = span.rstrip(".,:;")
        if span.startswith(TOP) or ("/" in span and span.endswith((".py", ".json", ".md"))):
            paths.append(span)
    return paths


def exists(path: str) -> bool:
    """The path under the project root, or under a package (`models/transformer.py` of transformer_core);
    a glob (`pages/*.py`) must match something."""
    for base in (ROOT, *(ROOT / package for package in PACKAGES)):
        if "*" in path and any(base.glob(path)):
            return True
        if (base / path).exists() and (not path.endswith("/") or (base / path).is_dir()):
            return True
    return False


def test_the_check_finds_paths_and_misses(tmp_path):
    text = "see `transformer_core/io/families.py`, `inference/text.py`, `pages/_gone.py` and `st.query_params`"
    assert named_paths(text) == ["transformer_core/io/families.py", "inference/text.py", "pages/_gone.py"]
    assert [exists(p) for p in named_paths(text)] == [True, True, False]


def test_every_path_the_architecture_page_names_exists():
    paths = named_paths(DOC.read_text(encoding="utf-8"))
    assert len(paths) > 20
    missing = sorted({p for p in paths if not exists(p) and not p.startswith("streamlit/")})
    assert missing == [], f"docs/architecture.md names paths that do not exist: {missing}"


def test_the_where_to_add_section_covers_a_task_a_family_a_method_and_a_page():
    text = DOC.read_text(encoding="utf-8")
    section = text.split("## Where to put a new …", 1)[1].split("\n## ", 1)[0]
    entries = {m.group(1): m.group(2) for m in re.finditer(r"^- \*\*([a-z ]+)\*\*(.*?)(?=^- \*\*|\Z)", section,
                                                           re.MULTILINE | re.DOTALL)}
    where = {"task": "transformer_core/tasks/__init__.py", "model family": "transformer_core/io/families.py",
             "attribution method": "transformer_core/analysis/attribution.py", "page": "app.py"}
    for kind, places in where.items():
        assert kind in entries and places in entries[kind], kind
