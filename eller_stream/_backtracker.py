"""The recursive backtracker, iteratively, in one byte per cell.

A depth-first walk that carves to a random unvisited neighbour and backs up
when there is none.  It never recurses: the stack is the chain of "way back"
directions that it writes into spare bits of the maze's own bytes, so the
whole build needs the ``(height, width)`` output and nothing more.  Give it
``out=`` (a ``numpy.memmap``, or a path for a new ``.npy`` file) to build a
maze larger than memory on disk.

>>> import eller_stream as es
>>> grid = es.backtracker(5, 4, seed=2)
>>> grid.shape, es.count_passages(grid)
((4, 5), 19)
"""

from __future__ import annotations

import contextlib
import io
import os

import numpy as np

from ._atomic import atomic_write
from ._backend import require_numba
from ._backtracker_kernels import backtracker as backtracker_kernel
from ._engine import plain_first
from ._numba import call
from ._rng import seed_key
from ._validate import MAX_WIDTH, check_grid_buffer, check_int, check_seed

__all__ = ["backtracker"]


def _new_npy(path: str, shape: tuple[int, int]) -> np.memmap:
    """A new zeroed uint8 ``.npy`` file at ``path``, mapped.

    A full disk under a sparse file is only noticed when a page of the
    mapping is first written, and then the process dies of SIGBUS.  So the
    file is written atomically (``_atomic``) with its blocks reserved by
    ``posix_fallocate``, and only then mapped; on any error nothing is left
    at ``path`` (a file already there is kept) and the error is raised."""
    head = io.BytesIO()
    descr = np.lib.format.dtype_to_descr(np.dtype(np.uint8))
    np.lib.format.write_array_header_1_0(head, {"descr": descr, "fortran_order": False, "shape": shape})
    offset = len(head.getvalue())
    with atomic_write(path, reserve=offset + shape[0] * shape[1]) as f:
        f.write(head.getvalue())
    try:
        return np.memmap(path, np.uint8, mode="r+", offset=offset, shape=shape)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(path)
        raise


def backtracker(
    width: int,
    height: int,
    seed: int | None = None,
    out: np.ndarray | str | os.PathLike[str] | None = None,
) -> np.ndarray:
    """A perfect ``(height, width)`` maze by the recursive backtracker.

    ``out`` may be a ``(height, width)`` uint8 array to fill (for example a
    ``numpy.memmap``), or a path: a new ``.npy`` file is created there and
    returned as a memmap (disk-backed: memory use stays small however big
    the maze).  No other memory is used per cell.  The file's blocks are
    reserved before it is mapped: when the disk cannot hold it, ``OSError``
    is raised, nothing is left at the path and a file already there is kept.

    Parameters
    ----------
    width, height:
        The maze's size in cells, each in ``[1, 2**31 - 2]``.
    seed:
        An int in ``[0, 2**64)``; ``None`` draws one from OS entropy.
    out:
        ``None`` (a new array), a C-contiguous, writeable ``(height, width)``
        uint8 array to fill and return, or the path of a new ``.npy`` file
        (a ``str`` or ``os.PathLike``), returned as a ``numpy.memmap``.

    >>> import numpy as np, eller_stream as es
    >>> buf = np.empty((3, 3), np.uint8)
    >>> es.backtracker(3, 3, seed=1, out=buf) is buf
    True
    """
    require_numba("es.backtracker")
    width = check_int("width", width, 1, MAX_WIDTH)
    height = check_int("height", height, 1, MAX_WIDTH)
    seed = check_seed(seed)
    if isinstance(out, (str, os.PathLike)):
        out = _new_npy(os.fspath(out), (height, width))  # reserved on disk, zeroed
    else:
        out = np.empty((height, width), np.uint8) if out is None else out
        check_grid_buffer("out", out, (height, width))[...] = 0
    # a small maze in the kernel's plain Python while numba gets it ready
    call(plain_first(backtracker_kernel), out.view(np.ndarray).reshape(-1), width, height, seed_key(seed))
    if isinstance(out, np.memmap):
        out.flush()
    return out
