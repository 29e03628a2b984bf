"""How long each test module took in the last measured whole-suite run, so that `make test` starts the longest first.

pytest-xdist hands whole modules to its workers in collection order (`--dist loadfile --no-loadscope-reorder`;
its default order is by the number of tests, which left a 224 s module of 6 tests for the end). Running the
longest modules first is the classic longest-processing-time schedule: the run ends close to the total over the
workers instead of one long module after everything else. Refresh the table after a run that changed it:

    python -m pytest --junitxml=build/junit.xml && python -m tests.module_seconds build/junit.xml
"""

from __future__ import annotations

import argparse
import json
import sys
import xml.etree.ElementTree as ElementTree
from collections import Counter
from pathlib import Path

TABLE = Path(__file__).with_name("module_seconds.json")
UNMEASURED_S = 10.0  # a module newer than the table: somewhere in the middle


def seconds_by_module(junit_xml: str | Path) -> dict[str, float]:
    """Sum of the test case times per test module (its file name) in a junit XML report."""
    totals: Counter[str] = Counter()
    for case in ElementTree.parse(junit_xml).getroot().iter("testcase"):
        classname = case.get("classname", "")
        if classname.startswith("tests."):
            totals[classname.split(".")[1] + ".py"] += float(case.get("time", 0.0))
    return {name: round(seconds, 1) for name, seconds in sorted(totals.items())}


def load_table() -> dict[str, float]:
    return json.loads(TABLE.read_text(encoding="utf-8")) if TABLE.exists() else {}


def longest_first_key(module_name: str, table: dict[str, float]) -> float:
    """Sort key: the longest module first (Python's sort is stable, so ties keep their order)."""
    return -table.get(module_name, UNMEASURED_S)


def longest_first(module_names: list[str], table: dict[str, float]) -> list[str]:
    """The module names from the longest to the shortest (ties keep their order)."""
    return sorted(module_names, key=lambda name: longest_first_key(name, table))


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.module_seconds", description=__doc__.splitlines()[0])
    parser.add_argument("junit_xml", help="a whole-suite run's report (pytest --junitxml=...)")
    args = parser.parse_args(argv)
    table = seconds_by_module(args.junit_xml)
    TABLE.write_text(json.dumps(table, indent=0, sort_keys=True) + "\n", encoding="utf-8")
    print(f"{TABLE}: {len(table)} modules, {sum(table.values()) / 60:.1f} min in all")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
