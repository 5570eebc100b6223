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


@pytest.hookimpl(tryfirst=True)
def pytest_cmdline_main(config):
    """The benchmarks in this one process: the test run's ``-n 2`` (pyproject)
    would put a second worker beside them, and pytest-benchmark times nothing
    under xdist."""
    if hasattr(config.option, "numprocesses"):
        config.option.numprocesses = 0


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


def interleaved_best(fns: dict, rounds: int = 9) -> dict:  # type: ignore[type-arg]
    """Best time of each function, measured in alternation so that they all
    see the same load on a shared machine: ratios between them are fair."""
    import time

    best = {name: float("inf") for name in fns}
    for fn in fns.values():
        fn()  # warm up
    for _ in range(rounds):
        for name, fn in fns.items():
            t0 = time.perf_counter()
            fn()
            best[name] = min(best[name], time.perf_counter() - t0)
    return best


def cpu_times() -> list[int] | None:
    """The machine's CPU time counters (the "cpu" line of /proc/stat), or
    None where there is no such file."""
    try:
        with open("/proc/stat") as f:
            return [int(field) for field in f.readline().split()[1:]]
    except (OSError, ValueError):
        return None


def steal_share(before: list[int] | None, after: list[int] | None) -> float | None:
    """The share of the CPU time between two :func:`cpu_times` that the
    virtual machine's host gave to others (steal, the 8th field): when it is
    high, the machine is busy and every time measured is too long."""
    if before is None or after is None or len(before) < 8 or len(after) < 8:
        return None
    # the first 8 fields: guest time (after them) is counted in user time already
    spent = [b - a for a, b in zip(before[:8], after[:8], strict=True)]
    total = sum(spent)
    return spent[7] / total if total > 0 else None


def pytest_sessionstart(session):
    session.config._cpu_times = cpu_times()


def pytest_terminal_summary(terminalreporter):
    if not RESULTS and not NOTES:
        return
    tr = terminalreporter
    tr.section("eller_stream figures (best round)")
    for name, ns in sorted(RESULTS.items()):
        tr.write_line(f"{name:<40} {ns:10.3f} ns/cell")
    for line in NOTES:
        tr.write_line(line)
    stolen = steal_share(getattr(terminalreporter.config, "_cpu_times", None), cpu_times())
    if stolen is not None:
        tr.write_line(f"steal: {stolen:.1%} of the machine's CPU time during the run went to other guests")
