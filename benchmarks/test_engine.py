"""Speed and memory of the streaming engine (issue: the core engine).

* ns per cell of ``take()`` at widths 16, 80, 1000, 100000, next to the floor
  kernel (same random bits, one byte written per cell, no maze logic);
* ns per cell of ``for row in stream`` at widths 80 and 1000;
* resident memory from row 10**4 to row 10**6 at width 1000;
* first-row latency of a new process with a warm numba cache, against
  ``python -c "import numpy, numba"``.
"""

from __future__ import annotations

import itertools
import os
import subprocess
import sys
import time

import numpy as np
import pytest
from conftest import interleaved_best, note
from floor import floor_rows

import eller_stream as es

CELLS = 4_000_000


@pytest.mark.parametrize("width", [16, 80, 1000, 100_000])
def test_take(per_cell, width):
    stream = es.EllerStream(width, seed=1)
    n = max(1, CELLS // width)
    per_cell(f"take[{width}]", lambda: stream.take(n), n * width)


@pytest.mark.parametrize("width", [16, 80, 1000, 100_000])
def test_floor(per_cell, width):
    n = max(1, CELLS // width)
    out = np.empty((n, width), np.uint8)
    counter = [0]

    def run():
        counter[0] = floor_rows(out, np.uint64(7), np.uint64(counter[0]), np.uint64(2**31))

    per_cell(f"floor[{width}]", run, n * width)


@pytest.mark.parametrize("width", [80, 1000])
def test_iterate(per_cell, width):
    stream = es.EllerStream(width, seed=1)
    n = max(1, CELLS // width)

    def run():
        for _row in itertools.islice(stream, n):
            pass

    per_cell(f"iterate[{width}]", run, n * width)


@pytest.mark.parametrize("width", [80, 1000])
def test_ratios_interleaved(benchmark, width):
    """take() against the floor kernel and against ``for row in stream``,
    timed in alternation (one run, same load)."""
    n = CELLS // width
    out = np.empty((n, width), np.uint8)
    stream = es.EllerStream(width, seed=2)
    loop = es.EllerStream(width, seed=2)

    def iterate():
        for _row in itertools.islice(loop, n):
            pass

    best = interleaved_best(
        {
            "take": lambda: stream.take(n),
            "floor": lambda: floor_rows(out, np.uint64(7), np.uint64(0), np.uint64(2**31)),
            "iterate": iterate,
        }
    )
    ns = {k: t / (n * width) * 1e9 for k, t in best.items()}
    ratios = {"take/floor": best["take"] / best["floor"], "iterate/take": best["iterate"] / best["take"]}
    benchmark.extra_info.update(ns_per_cell=ns, **ratios)
    note(
        f"width {width} (interleaved): take {ns['take']:.2f} ns/cell, floor {ns['floor']:.2f}, "
        f"iterate {ns['iterate']:.2f}; take/floor {ratios['take/floor']:.2f}x, "
        f"iterate/take {ratios['iterate/take']:.2f}x"
    )
    benchmark.pedantic(lambda: None, rounds=1)


MEMORY_SCRIPT = r"""
import sys
import numpy as np
import eller_stream as es

def rss():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * 4096

mode = sys.argv[1]
stream = es.EllerStream(1000, seed=3)
buf = np.empty((10**4, 1000), np.uint8)
samples = {}
for done in range(0, 10**6 + 1, 10**4):
    if done:
        if mode == "take":
            stream.take(10**4, out=buf)
        else:
            for _ in range(10**4):
                next(stream)
    if done >= 10**4:
        samples[done] = rss()
print(samples[10**4], max(samples.values()), samples[10**6])
"""


@pytest.mark.parametrize("mode", ["take", "next"])
def test_memory_is_flat(benchmark, mode):
    """RSS sampled every 10**4 rows: the peak after row 10**4 may exceed the
    value at row 10**4 by no more than 1 MiB."""
    out = subprocess.run(
        [sys.executable, "-c", MEMORY_SCRIPT, mode], capture_output=True, text=True, check=True
    ).stdout.split()
    at_1e4, peak, at_1e6 = map(int, out)
    growth = peak - at_1e4
    benchmark.extra_info.update(rss_at_1e4=at_1e4, peak_after=peak, rss_at_1e6=at_1e6, growth=growth)
    note(
        f"memory ({mode}), width 1000: RSS {at_1e4 / 2**20:.1f} MiB at row 1e4, peak {peak / 2**20:.1f} MiB "
        f"up to row 1e6, growth {growth / 1024:.0f} KiB"
    )
    benchmark.pedantic(lambda: None, rounds=1)
    assert growth <= 2**20


def best_of_interleaved(commands: list[list[str]], runs: int = 9) -> list[float]:
    """Best wall time of each command, run in alternation (same load for all)."""
    best = [float("inf")] * len(commands)
    for _ in range(runs):
        for i, cmd in enumerate(commands):
            t0 = time.perf_counter()
            subprocess.run(cmd, check=True, env={**os.environ})
            best[i] = min(best[i], time.perf_counter() - t0)
    return best


def test_first_row_latency(benchmark):
    first_row = [
        sys.executable,
        "-c",
        "import eller_stream as es; next(es.EllerStream(80, seed=1))",
    ]
    baseline = [sys.executable, "-c", "import numpy, numba"]
    subprocess.run(first_row, check=True)  # warm the numba cache
    ours, base = best_of_interleaved([first_row, baseline])
    benchmark.extra_info.update(first_row_s=ours, import_numpy_numba_s=base, ratio=ours / base)
    note(
        f"first row in a new process: {ours * 1e3:.0f} ms; import numpy, numba: {base * 1e3:.0f} ms; "
        f"ratio {ours / base:.2f}"
    )
    benchmark.pedantic(lambda: None, rounds=1)
