"""The app layer's boundaries, read from the source (ast): pages are thin views (no torch, no softmax, no
weights), figure builders are pure (no torch, streamlit, core, files or tokenizers), trace names are never
spelled with f-strings outside transformer_core.tracing.names, and the frame guard (explorer/frame.py) reruns a
page that runs outside app.py's frame."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = sorted((ROOT / "pages").glob("*.py"))
APP_FILES = [ROOT / "app.py", *PAGES, *sorted((ROOT / "explorer").rglob("*.py"))]


def tree_of(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


def imported_modules(path: Path) -> set[str]:
    """Every module a file imports, at any depth of its body (a lazy import inside a function counts)."""
    found: set[str] = set()
    for node in ast.walk(tree_of(path)):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
    return found


def test_pages_and_the_frame_never_import_torch():
    assert PAGES, "no pages found"
    for path in [ROOT / "app.py", *PAGES]:
        torch_imports = {m for m in imported_modules(path) if m == "torch" or m.startswith("torch.")}
        assert not torch_imports, f"{path.relative_to(ROOT)} imports {torch_imports}: ask explorer.services"


def test_pages_compute_no_softmax_and_read_no_weights():
    """No softmax, no `.weight` / `.parameters()` / `.state_dict()` in a page: that work is in explorer.figures
    (numpy) or explorer.services (the one app module that holds models)."""
    for path in PAGES:
        for node in ast.walk(tree_of(path)):
            name = node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else None
            assert name is None or "softmax" not in name.lower(), f"{path.name}:{node.lineno} {name}"
            assert name not in ("weight", "parameters", "state_dict", "named_parameters"), \
                f"{path.name}:{node.lineno} reads the model's {name}"


def test_pages_are_handed_numpy_and_convert_no_tensor():
    """Services hand the pages numpy: no `.numpy()` (without a trace name), `.detach()`, `.cpu()` or `.item()` in a
    page."""
    for path in PAGES:
        for node in ast.walk(tree_of(path)):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and not node.args \
                    and node.func.attr in ("numpy", "detach", "cpu", "item"):
                raise AssertionError(f"{path.name}:{node.lineno} converts a tensor ({node.func.attr}()): "
                                     "let its service return numpy")


# explorer/figures/ holds only pure builders (numpy/pandas/plain values in, a figure, table or HTML out): no module
# there imports torch, streamlit, the app's services or any of transformer_core but its trace names
# (transformer_core/tracing/names.py: the trace-name contract, itself torch-free), and none reads a file or a model's
# weights or runs a tokenizer. Data preparation lives in the services (explorer/*_service.py, explorer/services.py).
FIGURES = ROOT / "explorer" / "figures"
# The one core module a builder may read: names and builders of trace names (imports re, dataclasses, enum only).
PURE_CORE = {"transformer_core.tracing.names"}
# Of the app layer, a builder may use the other builders and the text catalog (explorer/i18n: t, md_escape).
PURE_APP = ("explorer.figures", "explorer.i18n")
BANNED_ROOTS = {"torch", "streamlit", "transformers", "tokenizers", "safetensors", "pathlib", "os", "shutil",
                "glob", "io_open"}
FILE_CALLS = {"open", "read_text", "read_bytes", "write_text", "write_bytes", "load", "safe_open", "is_file",
              "exists", "iterdir", "glob", "rglob", "listdir"}
MODEL_CALLS = {"convert_ids_to_tokens", "convert_tokens_to_ids", "batch_decode", "get_vocab",
               "tokenize", "state_dict", "parameters", "named_parameters", "named_modules"}


def impurities(path: Path) -> list[str]:
    """What makes the module at `path` impure, in line order: 'import X' for a banned import, 'call X' for a file
    access, a tokenizer's or a model's method."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        modules = ([alias.name for alias in node.names] if isinstance(node, ast.Import)
                   else [node.module] if isinstance(node, ast.ImportFrom) and node.module and not node.level
                   else [])
        for module in modules:
            root = module.split(".")[0]
            if root in BANNED_ROOTS \
                    or (root == "transformer_core" and module not in PURE_CORE) \
                    or (root == "explorer" and not module.startswith(PURE_APP)):
                found.append(f"{node.lineno}: import {module}")
        if isinstance(node, ast.Call):
            name = (node.func.attr if isinstance(node.func, ast.Attribute)
                    else node.func.id if isinstance(node.func, ast.Name) else "")
            if name in FILE_CALLS | MODEL_CALLS:
                found.append(f"{node.lineno}: call {name}")
    return sorted(found, key=lambda problem: int(problem.split(":")[0]))


def test_the_check_catches_each_kind_of_impurity(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text("import torch\nimport streamlit as st\nfrom transformer_core.tasks import model_task\n"
                      "from transformer_core.tracing.names import LOGITS\nfrom explorer.services import x\n"
                      "from explorer.i18n import t\nfrom pathlib import Path\n"
                      "data = json.loads(Path('a').read_text())\nwith open('b') as f: pass\nnp.load('c.npy')\n"
                      "pieces = tokenizer.convert_ids_to_tokens(ids)\nw = model.state_dict()\n",
                      encoding="utf-8")
    assert impurities(sample) == ["1: import torch", "2: import streamlit", "3: import transformer_core.tasks",
                                  "5: import explorer.services", "7: import pathlib", "8: call read_text",
                                  "9: call open", "10: call load", "11: call convert_ids_to_tokens",
                                  "12: call state_dict"]


def test_no_figure_module_imports_torch_streamlit_or_the_core_or_reads_a_file():
    modules = sorted(FIGURES.rglob("*.py"))
    assert len(modules) > 20
    offenders = [f"{path.relative_to(ROOT)}:{problem}" for path in modules for problem in impurities(path)]
    assert offenders == [], "move data preparation to a service (explorer/*_service.py):\n" + "\n".join(offenders)


# A trace name: '<stack>.<layer>.…', '<side>.<stream>', or '<prefix>.<hook>' (see transformer_core.tracing.names).
TRACE_NAME = re.compile(
    r"^(encoder|decoder|src|tgt|rnn)\.\{\}"
    r"|^\{\}\.(in|out|embed|pos|input|ids|mask|token_type|self_attn|cross_attn|ffn|attn|add\d|norm\d|q|k|v|scores"
    r"|masked_scores|weights|context|hidden)\b"
    r"|^\{\}\.\{\}\."
    r"|\.(self_attn|cross_attn)(\.|$)|\bffn\.(hidden|out)\b")


def f_string_templates(path: Path) -> list[tuple[int, str]]:
    """(line, template) of every f-string in a file, each placeholder written as {}."""
    found = []
    for node in ast.walk(tree_of(path)):
        if isinstance(node, ast.JoinedStr):
            template = "".join(part.value if isinstance(part, ast.Constant) else "{}" for part in node.values)
            found.append((node.lineno, template))
    return found


def test_the_trace_name_pattern_catches_the_f_strings_it_exists_for(tmp_path):
    """The detector itself: the spellings this project used before names.py are caught, file names are not."""
    sample = tmp_path / "sample.py"
    sample.write_text('a = f"encoder.{layer}.self_attn.weights"\nb = f"{prefix}.q"\nc = f"{side}.embed"\n'
                      'd = f"{stack}.{layer}.{attn}"\ne = f"decoder.{n - 1}.cross_attn.weights"\n'
                      'f = f"encoder_L{layer}_H{head}_weights"\ng = f"kind.{kind}"\nh = f"msg.{notice}"\n',
                      encoding="utf-8")
    caught = [line for line, template in f_string_templates(sample) if TRACE_NAME.search(template)]
    assert caught == [1, 2, 3, 4, 5]


def test_no_trace_name_is_built_with_an_f_string_in_the_app():
    offenders = []
    for path in APP_FILES:
        relative = path.relative_to(ROOT).as_posix()
        offenders += [f"{relative}:{line}: f\"{template}\"" for line, template in f_string_templates(path)
                      if TRACE_NAME.search(template)]
    assert not offenders, "build trace names with transformer_core.tracing.names:\n" + "\n".join(offenders)


# ------------------------------------------------------------------------------------------------ the frame

class Rerun(Exception):
    pass


@pytest.fixture
def frame(monkeypatch):
    """explorer.frame with st.rerun recorded instead of done, and the legacy pages/ flag restored afterwards."""
    import streamlit as st
    from streamlit.runtime.pages_manager import PagesManager

    from explorer import frame as frame_module

    def rerun(*args, **kwargs):
        raise Rerun

    monkeypatch.setattr(st, "rerun", rerun)
    monkeypatch.setattr(PagesManager, "uses_pages_directory", PagesManager.uses_pages_directory)
    frame_module.FRAME.active = False
    yield frame_module, PagesManager
    frame_module.FRAME.active = False


def test_ensure_frame_reruns_a_page_run_in_legacy_pages_mode_and_leaves_that_mode(frame):
    module, manager = frame
    manager.uses_pages_directory = True
    module.FRAME.active = True  # even inside the frame: the legacy flag alone means the frame did not run
    with pytest.raises(Rerun):
        module.ensure_frame()
    assert manager.uses_pages_directory is False  # the next run goes through st.navigation, i.e. app.py


def test_ensure_frame_reruns_a_page_that_runs_outside_the_frame_in_its_own_thread(frame):
    module, manager = frame
    manager.uses_pages_directory = False  # another session already switched the process
    with pytest.raises(Rerun):
        module.ensure_frame()


def test_ensure_frame_lets_a_page_inside_the_frame_run(frame):
    module, manager = frame
    manager.uses_pages_directory = False
    module.FRAME.active = True
    assert module.ensure_frame() is None


def test_a_page_opened_directly_runs_inside_the_frame():
    """AppTest starts every run in the legacy pages/ mode: the encoder page opened on its own shows the
    sidebar (app.py ran) and its own title (then the page ran)."""
    from streamlit.testing.v1 import AppTest

    from explorer.i18n import t

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.query_params.update({"lang": "English", "text": "abc", "model": "reverse"})
    at.switch_page("pages/tokens.py").run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.sidebar.text_input(key="text").value == "abc"
    assert [title.value for title in at.title] == [t("tokens.title", "en")]
