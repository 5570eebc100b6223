"""The speed floor for Eller's kernel: draw the same random bits (one 64-bit
draw per cell, the generator the engine uses) and write one byte per cell,
with no maze logic at all."""

from __future__ import annotations

import numba
import numpy as np

from eller_stream._rng import random_bits


@numba.njit(cache=True, nogil=True, boundscheck=False)
def floor_rows(out: np.ndarray, key: np.uint64, counter: np.uint64, threshold: np.uint64) -> np.uint64:
    key = np.uint64(key)
    counter = np.uint64(counter)
    threshold = np.uint64(threshold)
    low = np.uint64(0xFFFFFFFF)
    n_rows, width = out.shape
    for y in range(n_rows):
        row = out[y]
        for x in range(width):
            bits = random_bits(key, counter)
            counter += np.uint64(1)
            row[x] = np.uint8((bits & low) < threshold) | (np.uint8((bits >> np.uint64(32)) < threshold) << 1)
    return counter


def floor_rows_parallel(out: np.ndarray, key: np.uint64, threshold: np.uint64, parts: int) -> None:
    """:func:`floor_rows` of ``out`` in runs of rows, a run a thread, on at
    most ``parts`` threads and numba's thread count (``numba.set_num_threads``),
    on the threads the package shares a range's bands on
    (``eller_stream._parallel.run_parts``): each thread draws and writes only
    its own rows, shares nothing and waits for nothing, so its speed-up over
    one thread is the most any kernel of that work can get on the machine."""
    from eller_stream import _parallel as par

    width = out.shape[1]
    runs = par.split(out.shape[0], min(parts, numba.get_num_threads()))
    par.run_parts(
        [
            lambda a=a, b=b: floor_rows(out[a:b], np.uint64(key), np.uint64(a * width), np.uint64(threshold))
            for a, b in runs
        ]
    )
