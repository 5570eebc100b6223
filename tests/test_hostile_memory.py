"""Memory safety of the kernels on grids of 2**31 cells and more (issue 15).

Cell indices are 64-bit: a row number worked out from a cell index must be
exact for any grid that fits in memory or on disk, and no walk may write
outside the buffer it was given.
"""

from __future__ import annotations

import random
import shutil

import numba
import numpy as np
import pytest

import eller_stream as es
from eller_stream import _cells as g
from eller_stream import _rng


@numba.njit
def _rows_of(widths, cells, grid_cells):
    out = np.empty(cells.shape[0], np.int64)
    for k in range(cells.shape[0]):
        out[k] = g._row_of(cells[k], g._divider(widths[k], grid_cells[k]))
    return out


def test_row_of_is_exact_for_64_bit_cell_indices():
    """``_row_of`` is i // width for every index a grid on disk can have,
    not only below 2**31 (the last cell of 32767 x 65546 mapped to x = -1)."""
    from eller_stream._numba import load

    load()  # the kernels' dispatchers in their modules (run alone, _rows_of saw stand-ins)
    rng = random.Random(15)
    widths = [1, 2, 3, 7, 32767, 65535, 65536, 65537, 2**30 + 1, 2**31 - 2, 2**31]
    widths += [rng.randrange(1, 2**31) for _ in range(300)]
    pairs = []
    for w in widths:
        cells = [0, w - 1, w, 2**31 - 1, 2**31, 32767 * 65546 - 1, 2**32 + 5, 2**62, 2**63 - 1]
        cells += [rng.randrange(2**31, 2**36) for _ in range(20)]
        cells += [rng.randrange(0, 2**63) for _ in range(20)]
        pairs += [(w, i) for i in cells]
    widths_a = np.array([w for w, _ in pairs], np.int64)
    cells_a = np.array([i for _, i in pairs], np.int64)
    # the smallest grid holding cell i (up to 2**31 cells: 64-bit products;
    # beyond, 128-bit ones), then the 128-bit way for every index
    smallest = np.minimum(cells_a, 2**63 - 2) + 1  # (no grid has 2**63 cells)
    for grid_cells in (smallest, np.full_like(cells_a, 2**63 - 1)):
        got = _rows_of(widths_a, cells_a, grid_cells)
        triples = zip(widths_a.tolist(), cells_a.tolist(), got.tolist(), strict=True)
        wrong = [(w, i, r) for w, i, r in triples if r != i // w]
        assert not wrong, wrong[:5]


@numba.njit
def _cells_below(draws, n):
    out = np.empty(draws.shape[0], np.int64)
    for k in range(draws.shape[0]):
        out[k] = _rng._below_cells(draws[k], n)
    return out


@pytest.mark.parametrize("n", [1, 7, 2**31 + 3, 2**32 - 1, 2**32, 2**32 + 1, 2**40 + 17, 2**62 - 1])
def test_first_cell_is_in_the_grid_and_spread_over_it(n):
    """The first cell of a walk is drawn from all ``n`` cells, even past
    2**32 cells (the 32-bit draw times n overflowed there)."""
    draws = np.array([0, 1, 2**32 - 1, 2**32, 2**63, 2**64 - 1, *range(10**6, 10**6 + 2000)], np.uint64)
    draws[6:] = draws[6:] * np.uint64(0x9E3779B97F4A7C15)  # spread over all 64 bits
    cells = _cells_below(draws, n)
    assert cells.min() >= 0 and cells.max() < n
    if n >= 2**32:  # the high half of the grid is reached, not only the first 2**32 cells
        assert (cells >= n // 2).sum() > 800


def _passages(grid: np.ndarray, rows: int = 4096) -> tuple[int, bool, bool]:
    """(EAST + SOUTH passages, an EAST out of the last column, a SOUTH out of
    the last row), a block of rows at a time."""
    total = 0
    for y in range(0, grid.shape[0], rows):
        block = np.asarray(grid[y : y + rows])
        total += int(np.count_nonzero(block & es.EAST)) + int(np.count_nonzero(block & es.SOUTH))
    east_out = bool((np.asarray(grid[:, -1]) & es.EAST).any())
    return total, east_out, bool((np.asarray(grid[-1]) & es.SOUTH).any())


@pytest.mark.slow
def test_backtracker_just_over_2_31_cells_stays_in_its_buffer(tmp_path):
    """backtracker(32767, 65546) (2,147,745,782 cells) on a disk-backed
    buffer followed by guard bytes: no byte past the end changes, and the
    maze has exactly cells - 1 passages, none out of the grid (before the
    fix the walk carved EAST out of the last column into the guard bytes,
    and made one passage too many)."""
    width, height = 32767, 65546
    cells = width * height
    assert cells > 2**31
    guard = 4096
    if shutil.disk_usage(tmp_path).free < cells + guard + 2**30:
        pytest.skip("not enough free disk space for a 2 GiB grid")
    path = tmp_path / "big.bin"
    try:
        with open(path, "wb") as f:
            f.truncate(cells + guard)
        mm = np.memmap(path, np.uint8, mode="r+", shape=(cells + guard,))
        mm[cells:] = 0xA5
        grid = mm[:cells].reshape(height, width)
        out = es.backtracker(width, height, seed=15, out=grid)
        assert out is grid
        mm.flush()
        assert (np.asarray(mm[cells:]) == 0xA5).all(), "bytes past the end of the buffer were written"
        passages, east_out, south_out = _passages(grid)
        assert not east_out and not south_out
        assert passages == cells - 1
        del out, grid, mm
    finally:
        path.unlink(missing_ok=True)


@pytest.mark.parametrize(
    "make",
    [
        lambda w: es.InfiniteMaze(w, band=4, seed=3),
        lambda w: es.InfiniteMaze(w, band=4, seed=3, rooms=0.5),
        lambda w: es.EllerStream(w, 3),
    ],
    ids=["banded", "rooms", "eller"],
)
def test_a_width_whose_scratch_cannot_be_had_is_refused_when_the_maze_is_made(make, monkeypatch):
    """``InfiniteMaze(2**31 - 2, band=4).rows(0, 1)`` passed the memory check
    (1 byte a cell counted, 28-42 held) and the kernel was killed for it at
    23.8 GB (issue 32): a width whose scratch is more than the memory is a
    ValueError naming it, before anything is allocated."""
    from eller_stream import _parallel as par

    with pytest.raises(ValueError, match="width 2147483646 needs about"):
        make(2**31 - 2)
    monkeypatch.setattr(par, "_memory_bytes", lambda: 64 * 1000)
    make(1000)  # exactly what there is: taken
    with pytest.raises(ValueError, match="width 1001 needs about 64064 bytes"):
        make(1001)
