"""Runs the test suite while measuring line coverage of src/wildtools and the build backend with the standard library only.

    WILDTOOLS_URL=http://127.0.0.1:8080 python3 tests/coverage_run.py [--min 90]

A trace function (sys.settrace, and threading.settrace for the worker threads of the async client) records the
lines executed in the package's files; the executable lines are those the compiled code objects map to (co_lines).
Prints each file's coverage with its missed lines, then one `summary: {json}` line. Exits 1 when a test failed or
errored, a test was skipped, or coverage is below the threshold.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import threading
import types
import unittest
from pathlib import Path
from typing import Any, Optional

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "src" / "wildtools"
THRESHOLD = 95.0


def executable_lines(path: Path) -> set[int]:
    """The lines the compiled module's code objects (nested ones included) have instructions on."""
    lines: set[int] = set()
    pending = [compile(path.read_text("utf-8"), str(path), "exec")]
    while pending:
        code = pending.pop()
        lines.update(line for _, _, line in code.co_lines() if line is not None and line > 0)
        pending.extend(const for const in code.co_consts if isinstance(const, types.CodeType))
    return lines


class LineRecorder:
    def __init__(self, files: set[str]) -> None:
        self.files = files
        self.hits: dict[str, set[int]] = {file: set() for file in files}

    def __call__(self, frame: types.FrameType, event: str, arg: Any) -> Optional[Any]:
        file = frame.f_code.co_filename
        if file not in self.files:
            return None
        self.hits[file].add(frame.f_code.co_firstlineno if event == "call" else frame.f_lineno)
        return self._local

    def _local(self, frame: types.FrameType, event: str, arg: Any) -> Any:
        if event == "line":
            self.hits[frame.f_code.co_filename].add(frame.f_lineno)
        return self._local


def ranges(lines: list[int]) -> str:
    """`3, 7-9`: consecutive lines joined."""
    spans: list[list[int]] = []
    for line in lines:
        if spans and line == spans[-1][1] + 1:
            spans[-1][1] = line
        else:
            spans.append([line, line])
    return ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in spans)


def main(argv: Optional[list[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--min", type=float, default=THRESHOLD, help=f"least total line coverage in percent (default {THRESHOLD:g})")
    parser.add_argument("-v", "--verbose", action="store_true", help="name each test as it runs")
    options = parser.parse_args(argv)

    sources = sorted(PACKAGE.glob("*.py")) + sorted((ROOT / "build_backend").glob("*.py"))
    files = {os.path.realpath(path): path for path in sources}
    recorder = LineRecorder(set(files))
    sys.path.insert(0, str(ROOT))  # the tests package, which puts src/ first on the path
    threading.settrace(recorder)
    sys.settrace(recorder)
    try:
        suite = unittest.defaultTestLoader.discover(str(ROOT / "tests"), top_level_dir=str(ROOT))
        result = unittest.TextTestRunner(stream=sys.stderr, verbosity=2 if options.verbose else 1).run(suite)
    finally:
        sys.settrace(None)
        threading.settrace(None)  # type: ignore[arg-type]

    covered_total = executable_total = 0
    for real, path in files.items():
        executable = executable_lines(path)
        covered = executable & recorder.hits[real]
        missed = sorted(executable - covered)
        covered_total += len(covered)
        executable_total += len(executable)
        percent = 100 * len(covered) / len(executable) if executable else 100.0
        print(f"{path.relative_to(ROOT)!s:40} {percent:6.1f}%  ({len(covered)}/{len(executable)})" + (f"  missed: {ranges(missed)}" if missed else ""))
    total = 100 * covered_total / executable_total if executable_total else 0.0
    print(f"{'TOTAL':40} {total:6.1f}%  ({covered_total}/{executable_total})")
    summary = {
        "tests": result.testsRun,
        "failures": len(result.failures) + len(result.unexpectedSuccesses),
        "errors": len(result.errors),
        "skipped": len(result.skipped),
        "coverage": round(total, 1),
        "threshold": options.min,
    }
    passed = result.testsRun > 0 and not (summary["failures"] or summary["errors"] or summary["skipped"]) and total >= options.min
    print("summary: " + json.dumps({**summary, "passed": passed}))
    if total < options.min:
        print(f"coverage {total:.1f}% is below the threshold of {options.min:g}%", file=sys.stderr)
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main())
