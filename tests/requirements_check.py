"""What a test module needs to import, skipped loudly on a developer's machine and never under CI=true.

`pytest.importorskip` skips silently, also in CI, where `make test` installs every test dependency: a broken
from tests.requirements_check import needed  # noqa: E402  (a skip, or a failure under CI=true)
install then passed as a green run with the browser and AppTest modules skipped. `needed()` imports the module;
without it the module is skipped with the reason, except under CI=true, where the run fails."""

from __future__ import annotations

import importlib
import os
from types import ModuleType

import pytest


def needed(module: str) -> ModuleType:
    """The imported module; a skip (a failure under CI=true) when it cannot be imported."""
    try:
        return importlib.import_module(module)
    except ImportError as error:
        message = f"{module} cannot be imported ({error}); `make install-dev` installs it"
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI=true and {message}", pytrace=False)
        pytest.skip(message, allow_module_level=True)
