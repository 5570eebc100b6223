"""Where a newest/random Growing Tree mix misses the cache: a model, not a benchmark.

Replays the algorithm of ``es.growing_tree(n, n, "newest:P,random:1-P")``
(a stack with tombstones; its own draws, so not the library's maze)
through a 512 KiB 8-way LRU cache of 64-byte lines (a core's L2 here),
and counts the misses by kind of access, per cell.  The grid is
modelled as the kernels keep it: one byte a cell in a framed row-major
copy, with the free-side bits (a pick reads the cell's own byte, entering
a cell writes its four neighbours); the list is int32.  Prefetches are
not modelled: every miss counted is one a prefetch must hide.

Run:  python benchmarks/cache_model.py 4000 0.9
"""

from __future__ import annotations

import sys

import numpy as np
from numba import njit

from eller_stream._rng import random_bits, seed_key

SETS = 1024  # 512 KiB / 64 B / 8 ways
WAYS = 8
LIST = 1 << 40  # the list's addresses, far from the grid's
KINDS = ["pick: list slot", "pick: cell byte (can carve)", "pick: cell byte (dead)", "carve: enter", "push"]


@njit(cache=True)
def _touch(tags: np.ndarray, stamp: np.ndarray, address: int, clock: int) -> int:
    """1 if the line of ``address`` was not cached (it is now), else 0."""
    line = address >> 6
    s = line & (SETS - 1)
    for w in range(WAYS):
        if tags[s, w] == line:
            stamp[s, w] = clock
            return 0
    victim = 0
    for w in range(1, WAYS):
        if stamp[s, w] < stamp[s, victim]:
            victim = w
    tags[s, victim] = line
    stamp[s, victim] = clock
    return 1


@njit(cache=True)
def replay(n: int, p_newest: float, key: np.uint64, miss: np.ndarray, count: np.ndarray) -> int:
    """Run the mix on an n x n grid; add misses and accesses per kind
    (rows of ``miss``/``count``: 0 newest picks, 1 random picks).  Returns
    the number of steps."""
    newest = np.uint64(p_newest * 2**32)
    draw = np.uint64(0)
    stride = n + 2
    visited = np.zeros((n + 2) * (n + 2), np.uint8)
    for x in range(stride):
        visited[x] = 1
        visited[(n + 1) * stride + x] = 1
    for y in range(n + 2):
        visited[y * stride] = 1
        visited[y * stride + n + 1] = 1
    tags = np.full((SETS, WAYS), -1, np.int64)
    stamp = np.zeros((SETS, WAYS), np.int64)
    active = np.empty(n * n + 1, np.int64)
    offsets = np.array([-stride, stride, -1, 1])
    free = np.empty(4, np.int64)
    start = (n // 2 + 1) * stride + n // 2 + 1
    visited[start] = 1
    active[0] = start
    tail = 1
    live = 1
    clock = 0
    while live > 0:
        clock += 1
        bits = random_bits(key, draw)
        draw += np.uint64(1)
        if bits & np.uint64(0xFFFFFFFF) < newest:
            j, kind = tail - 1, 0
        else:
            j, kind = np.int64(((bits >> np.uint64(32)) * np.uint64(tail)) >> np.uint64(32)), 1
        miss[kind, 0] += _touch(tags, stamp, LIST + j * 4, clock)
        count[kind, 0] += 1
        c = active[j]
        if c < 0:  # a tombstone
            if j == tail - 1:
                tail -= 1
            continue
        m = _touch(tags, stamp, c, clock)
        k = 0
        for d in range(4):
            if visited[c + offsets[d]] == 0:
                free[k] = d
                k += 1
        if k > 0:
            miss[kind, 1] += m
            count[kind, 1] += 1
            pick = np.int64(((random_bits(key, draw) >> np.uint64(32)) * np.uint64(k)) >> np.uint64(32))
            draw += np.uint64(1)
            n_cell = c + offsets[free[pick]]
            visited[n_cell] = 1
            for d in range(4):
                miss[kind, 3] += _touch(tags, stamp, n_cell + offsets[d], clock)
            count[kind, 3] += 1
            miss[kind, 4] += _touch(tags, stamp, LIST + tail * 4, clock)
            count[kind, 4] += 1
            active[tail] = n_cell
            tail += 1
            live += 1
        else:
            miss[kind, 2] += m
            count[kind, 2] += 1
            live -= 1
            if j == tail - 1:
                tail -= 1
            else:
                active[j] = -1
    return clock


def main(argv: list[str]) -> None:
    n = int(argv[1]) if len(argv) > 1 else 1000
    p_newest = float(argv[2]) if len(argv) > 2 else 0.9
    miss = np.zeros((2, len(KINDS)), np.int64)
    count = np.zeros((2, len(KINDS)), np.int64)
    steps = replay(n, p_newest, seed_key(1), miss, count)
    cells = n * n
    total = miss.sum() / cells
    print(f"{n} x {n}, newest {p_newest:g}: {steps / cells:.2f} steps a cell, {total:.3f} misses a cell")
    for row, who in enumerate(("newest", "random")):
        for i, kind in enumerate(KINDS):
            per_cell = count[row, i] / cells
            print(f"  {who:6} {kind:28} {per_cell:6.3f} a cell, misses {miss[row, i] / cells:6.3f}")


if __name__ == "__main__":
    main(sys.argv)
