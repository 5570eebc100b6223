"""The speed floor for Eller's kernel: draw the same random bits (one 64-bit
draw per cell, the generator the engine uses) and write one byte per cell,
with no maze logic at all."""

from __future__ import annotations

from collections.abc import Callable

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


def levels_floor(width: int, band: int, loops: float, rooms: float) -> tuple[Callable[..., int], ...]:
    """Two kernels over ``out``'s whole bands (``(n * band, width)``), one
    thread: ``plain(out)``, the plain maze's bands (``band_span_in``, the
    kernel a plain band runs), and ``floor(out)``, the same bands and, for
    each, only what the levels' rules must draw and place whatever else
    they do: the braid's number a cell (the braid's own loop,
    ``draw_codes``, vectorised; drawing only the dead ends' costs more, see
    ``docs/performance.md``) and the rooms' placement (``place_rooms``: its
    draws and its attempts, each tested against the rooms before it). No
    braid scan, no room in the rows: ``floor / plain`` is less than any
    levels band can cost against a plain one."""
    import eller_stream as es
    from eller_stream import _band_kernels as bk
    from eller_stream import _braid_kernels as brk
    from eller_stream import _numba
    from eller_stream import _room_kernels as rk
    from eller_stream._eller_kernels import LR_PAD

    _numba.load()
    span_in, place, loop_key, draw_codes = bk.band_span_in, rk.place_rooms, brk.loop_key, brk.draw_codes
    th_loop, pad = bk.TH_LOOP, LR_PAD
    plain_maze = es.InfiniteMaze(width, band, 1)
    levels_maze = es.InfiniteMaze(width, band, 1, loops=loops, rooms=rooms)
    th, thl, key = plain_maze._th, levels_maze._th, np.uint64(plain_maze._key)
    nw = (width + 63) // 64
    cap = rk.room_capacity(band, width, thl)
    scratch = (  # arguments, not globals: numba takes a global array as a constant, read-only
        np.empty(width + pad, np.int32),  # the lists, doors and parent as the package makes them
        np.empty(width + pad, np.int32),
        np.empty(width, np.uint8),
        np.empty(width + 1, np.int32),
        np.zeros((bk.SPAN_WORDS, nw + 1), np.uint64),
        np.empty(nw + 1, np.int64),
        np.empty(band * width, np.uint8),
        np.empty((cap, 4), np.int64),
        np.empty(rk.taken_bytes(band, width), np.uint8),
        np.empty(2 * cap, np.uint64),
    )

    @numba.njit(nogil=True)
    def bands(out, levels, th, thl, left, right, doors, parent, work, base, codes, rects, taken, draws):
        placed = 0
        for j in range(out.shape[0] // band):
            b = np.uint64(j)
            for x in range(width):
                left[x] = x
                right[x] = x
            rows = out[j * band : (j + 1) * band]
            span_in(left, right, rows, key, b, 0, band, th, doors, parent, work, base, np.bool_(False))
            if levels:  # the braid's draws, by the braid's own loop; the rooms' placement
                draw_codes(codes, loop_key(key, b), np.uint64(thl[th_loop]), band * width)
                placed += place(band, width, key, b, thl, rects, taken, draws)
        return placed

    return (lambda out: bands(out, False, th, thl, *scratch)), (
        lambda out: bands(out, True, th, thl, *scratch)
    )
