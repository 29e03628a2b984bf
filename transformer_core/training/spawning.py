"""Starting a spawned child without running the page script again.

A 'spawn' child rebuilds its parent's `__main__` before it runs its target: when the parent's `__main__` is a
script file with no importable name, the child runs that file again (`runpy`, as `__mp_main__`). Streamlit's
script runner installs such a module on every page run (a fresh `__main__` whose `__file__` is the page), and
leaves it there: a lab job's child, or a training-pair worker, started from the app then ran `app.py` in bare
mode before its own work, and one started after an AppTest ran whatever script that test had written, blocked
or died in it, with its parent still writing the job to its pipe. The children's targets all live in
importable modules, so they never need the parent's script: while a child starts, `__main__` is a stand-in
with no file.
"""

from __future__ import annotations

import sys
import threading
import types
from multiprocessing.process import BaseProcess

_STARTING = threading.Lock()  # one start at a time swaps __main__


def _is_script_main(module: types.ModuleType | None) -> bool:
    """A `__main__` that spawn would run again from its file (no import name to find it by)."""
    return module is not None and getattr(module, "__spec__", None) is None and bool(getattr(module, "__file__", None))


def start_process(process: BaseProcess) -> None:
    """`process.start()`, with the parent's script hidden from a spawned child (see the module docstring)."""
    with _STARTING:
        main = sys.modules.get("__main__")
        if not _is_script_main(main):
            process.start()
            return
        stand_in = types.ModuleType("__main__")  # no __file__ and no __spec__: nothing for the child to rerun
        sys.modules["__main__"] = stand_in
        try:
            process.start()  # spawn reads __main__ here, in get_preparation_data
        finally:
            if sys.modules.get("__main__") is stand_in:  # a page run may have installed its own meanwhile
                sys.modules["__main__"] = main
