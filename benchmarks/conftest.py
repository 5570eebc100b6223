"""Shared helpers for the benchmarks: ns per cell and a summary table.

Run:  python -m pytest benchmarks --benchmark-enable
The table at the end quotes the fastest round of each benchmark in ns per
cell and the ratios the issues ask for (the machines are shared and noisy:
compare ratios measured in one run, not wall times across runs).
"""

from __future__ import annotations

import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))

RESULTS: dict[str, float] = {}
NOTES: list[str] = []


@pytest.fixture
def per_cell(benchmark):
    """Time ``fn`` (already warmed up) and record its best ns per cell."""

    def run(name: str, fn, cells: int, rounds: int = 15) -> float:
        fn()  # warm the JIT and the caches
        benchmark.pedantic(fn, rounds=rounds, iterations=1, warmup_rounds=1)
        ns = benchmark.stats.stats.min / cells * 1e9
        benchmark.extra_info["ns_per_cell"] = ns
        RESULTS[name] = ns
        return ns

    return run


def note(line: str) -> None:
    NOTES.append(line)


def pytest_terminal_summary(terminalreporter):
    if not RESULTS and not NOTES:
        return
    tr = terminalreporter
    tr.section("eller_stream figures (best round)")
    for name, ns in sorted(RESULTS.items()):
        tr.write_line(f"{name:<40} {ns:10.3f} ns/cell")
    ratios = [
        ("take / floor, width 1000", "take[1000]", "floor[1000]"),
        ("iterate / take, width 1000", "iterate[1000]", "take[1000]"),
        ("iterate / take, width 80", "iterate[80]", "take[80]"),
    ]
    for label, a, b in ratios:
        if a in RESULTS and b in RESULTS:
            tr.write_line(f"{label:<40} {RESULTS[a] / RESULTS[b]:10.2f} x")
    for line in NOTES:
        tr.write_line(line)
