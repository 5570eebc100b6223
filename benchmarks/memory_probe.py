"""What a far memory access costs on this machine: a probe, not a benchmark.

Prints, for growing footprints, the time of a load that depends on the one
before (a pointer chase: latency) and of loads whose addresses are known in
advance with and without a prefetch some places ahead; then the same small
set of cache lines (it fits in L2) laid out contiguously or one line per
4 KiB page (if the second is much slower, the translation, not the data,
is what costs: far accesses miss the TLB).

Run:  python benchmarks/memory_probe.py
"""

from __future__ import annotations

import time

import numpy as np
from numba import njit

from eller_stream._numba import prefetch


@njit(cache=True)
def _chase(following: np.ndarray, start: int, steps: int) -> int:
    i = start
    for _ in range(steps):
        i = following[i]
    return i


@njit(cache=True)
def _loads(data: np.ndarray, where: np.ndarray, ahead: int) -> int:
    """Each load's address depends on the one before (through ``x >> 62``,
    always 0), so only a prefetch ``ahead`` places early hides its latency."""
    x = np.int64(0)
    for i in range(where.shape[0] - 64):
        if ahead > 0:
            prefetch(data, where[i + ahead])
        x = data[where[i] + (x >> 62)]
    return x


def _best(fn, *args: object) -> float:
    fn(*args)
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        fn(*args)
        best = min(best, time.perf_counter() - start)
    return best


def _cycle(slots: np.ndarray, size: int) -> np.ndarray:
    """An array of ``size`` int64 whose entries at ``slots`` form one random cycle."""
    order = np.random.default_rng(0).permutation(slots)
    following = np.zeros(size, np.int64)
    following[order] = np.roll(order, -1)
    return following


def main() -> None:
    steps = 1_000_000
    print("footprint  chase (latency)  loads, prefetch 0 / 4 / 16 ahead   (ns a load)")
    for mib in (0.5, 2, 8, 32, 128):
        size = int(mib * 2**20) // 8
        chase = _best(_chase, _cycle(np.arange(size), size), 0, steps) / steps * 1e9
        data = np.zeros(size, np.int64)
        where = np.random.default_rng(1).integers(0, size - 8, steps)
        loads = [_best(_loads, data, where, ahead) / steps * 1e9 for ahead in (0, 4, 16)]
        print(f"{mib:7g} MiB  {chase:8.1f}          " + " / ".join(f"{x:.1f}" for x in loads))
    print("2048 lines (128 KiB): contiguous vs one line per 4 KiB page   (ns a load)")
    size = 2048 * 4096 // 8
    for spacing in (64, 4096):
        slots = np.arange(2048) * (spacing // 8)
        ns = _best(_chase, _cycle(slots, size), int(slots[0]), steps) / steps * 1e9
        print(f"  spacing {spacing:5} B: {ns:.1f}")


if __name__ == "__main__":
    main()
