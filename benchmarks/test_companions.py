"""Speed and memory of the bounded companions (issue: companions).

ns per cell at 1000 x 1000 and 4000 x 4000 for every generator, for
``solve`` (between the suggested endpoints) and ``metrics``; peak resident
memory of the backtracker at 10000 x 10000, in bytes per cell.
"""

from __future__ import annotations

import subprocess
import sys

import pytest
from conftest import RESULTS, cpu_times, interleaved_best, note, steal_share

import eller_stream as es

GENERATORS = {
    "eller": lambda n, s: es.eller(n, n, s),
    "growing-tree:newest": lambda n, s: es.growing_tree(n, n, "newest", s),
    "growing-tree:oldest": lambda n, s: es.growing_tree(n, n, "oldest", s),
    "growing-tree:random": lambda n, s: es.growing_tree(n, n, "random", s),
    "growing-tree:middle": lambda n, s: es.growing_tree(n, n, "middle", s),
    "growing-tree:newest:90,random:10": lambda n, s: es.growing_tree(n, n, "newest:90,random:10", s),
    "growing-tree:newest:50,oldest:50": lambda n, s: es.growing_tree(n, n, "newest:50,oldest:50", s),
    "backtracker": lambda n, s: es.backtracker(n, n, s),
}


def _rounds(n: int) -> int:
    """Best of 15 rounds at 1000 x 1000 (a noisy neighbour can slow a whole
    second here), of 5 at 4000 x 4000 (a round takes about a second)."""
    return 15 if n <= 1000 else 5


@pytest.mark.parametrize("n", [1000, 4000])
@pytest.mark.parametrize("name", list(GENERATORS))
def test_generator(per_cell, name, n):
    make = GENERATORS[name]
    make(16, 0)
    per_cell(f"{name}[{n}x{n}]", lambda: make(n, 1), n * n, rounds=_rounds(n))


def test_generators_interleaved(benchmark):
    """Every generator at 4000 x 4000 timed in turns, round after round, so
    that each one's rounds are spread over the whole test (about half a
    minute), not bunched in a few seconds: a busy spell on this shared
    machine then spoils one round of each, not every round of one.  The
    best of 7 rounds of each goes in the summary ("in turns"), with the
    share of the machine's time that its host gave to others meanwhile
    (steal).  Only at 4000 x 4000: a maze at 1000 x 1000 fits in the
    caches, and in turns the other generators' data would have pushed it
    out, which measures something else (about 1.3x slower)."""
    n = 4000
    makers = {name: (lambda make=make: make(n, 1)) for name, make in GENERATORS.items()}
    before = cpu_times()
    best = interleaved_best(makers, rounds=7)
    stolen = steal_share(before, cpu_times())
    ns = {name: t / (n * n) * 1e9 for name, t in best.items()}
    for name, value in ns.items():
        RESULTS[f"{name}[{n}x{n}] in turns"] = value
    benchmark.extra_info.update(ns_per_cell=ns, steal=stolen)
    slowest = max(ns, key=ns.__getitem__)
    note(
        f"generators {n}x{n} in turns: slowest {slowest} {ns[slowest]:.1f} ns/cell"
        + ("" if stolen is None else f"; steal {stolen:.1%} of the CPU time meanwhile")
    )
    benchmark.pedantic(lambda: None, rounds=1)


def test_growing_tree_ratios_interleaved(benchmark):
    """The slowest Growing Tree strategies against ``newest`` at 4000 x 4000,
    timed in turns: a busy host slows a whole round, so these ratios move
    less from run to run than the times (best of 5 rounds each)."""
    n = 4000
    names = ["newest", "newest:90,random:10", "newest:50,oldest:50", "random"]
    makers = {name: (lambda name=name: es.growing_tree(n, n, name, 1)) for name in names}
    best = interleaved_best(makers, rounds=5)
    ns = {name: t / (n * n) * 1e9 for name, t in best.items()}
    ratios = {name: best[name] / best["newest"] for name in names[1:]}
    benchmark.extra_info.update(ns_per_cell=ns, ratios_to_newest=ratios)
    note(
        f"growing tree {n}x{n} (interleaved): newest {ns['newest']:.1f} ns/cell; "
        + ", ".join(f"{name} {ns[name]:.1f} ({ratio:.2f}x)" for name, ratio in ratios.items())
    )
    benchmark.pedantic(lambda: None, rounds=1)


@pytest.mark.parametrize("n", [1000, 4000])
@pytest.mark.parametrize("algorithm", ["backtracker", "growing-tree:random", "eller"])
def test_solve_and_metrics(per_cell, algorithm, n):
    grid = GENERATORS[algorithm](n, 2)
    small = GENERATORS[algorithm](16, 0)
    es.metrics(small)
    start, end = es.suggest_endpoints(grid)
    per_cell(f"solve {algorithm}[{n}x{n}]", lambda: es.solve(grid, start, end), n * n, rounds=_rounds(n))


@pytest.mark.parametrize("n", [1000, 4000])
@pytest.mark.parametrize("algorithm", ["backtracker", "growing-tree:random", "eller"])
def test_metrics(per_cell, algorithm, n):
    grid = GENERATORS[algorithm](n, 2)
    es.metrics(GENERATORS[algorithm](16, 0))
    per_cell(f"metrics {algorithm}[{n}x{n}]", lambda: es.metrics(grid), n * n, rounds=_rounds(n))


PEAK_SCRIPT = r"""
import sys
import eller_stream as es
es.backtracker(64, 64, 0)  # load (or compile) the kernel first: its memory is not the maze's

def status(field):
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(field):
                return int(line.split()[1]) * 1024

with open("/proc/self/clear_refs", "w") as f:
    f.write("5")  # reset the peak (VmHWM) to the current resident size
before = status("VmRSS:")
n = int(sys.argv[1])
grid = es.backtracker(n, n, 1)
print(before, status("VmHWM:"), grid.nbytes)
"""


def test_backtracker_peak_memory(benchmark):
    n = 10_000
    before, peak, _grid_bytes = map(
        int,
        subprocess.run(
            [sys.executable, "-c", PEAK_SCRIPT, str(n)], capture_output=True, text=True, check=True
        ).stdout.split(),
    )
    per_cell_bytes = (peak - before) / (n * n)
    benchmark.extra_info.update(before=before, peak=peak, bytes_per_cell=per_cell_bytes)
    note(f"backtracker {n}x{n}: peak RSS grows by {per_cell_bytes:.3f} bytes per cell (grid itself: 1 byte)")
    benchmark.pedantic(lambda: None, rounds=1)
    assert per_cell_bytes < 2
