"""The lean backend's Eller rows: numpy for what a row can do at once, plain
Python for the joins, no numba.

:func:`eller_rows` is a drop-in for :func:`eller_stream._eller_kernels.eller_rows`
(same arguments, same rows, the same ``left``/``right`` lists after them), so
streams, checkpoints and the closing row are the same on either backend.

Inside a call the sets are **labels**: each cell holds the first cell of its
set. A row then takes four steps (docs/spec.md, section 4):

1. the draws of every cell of a block of rows at once (numpy uint64);
2. the east walls: only the cells whose draw may join (``lo < J``) are
   visited, in order, with a union-find over the labels (plain Python: each
   join depends on the ones before it);
3. the south walls, all at once: a cell opens when its draw says so, and the
   last cell of a set opens too when no other cell of the set did;
4. the next row's labels.

>>> import numpy as np
>>> from eller_stream import _eller_kernels as k, _lean_eller as lean
>>> from eller_stream._rng import seed_key, threshold
>>> lists = [np.arange(8 + k.LR_PAD, dtype=np.int32) for _ in range(4)]
>>> a, b = np.empty((5, 8), np.uint8), np.empty((5, 8), np.uint8)
>>> key, J, O = seed_key(1), threshold(0.5), threshold(0.5)
>>> _ = k.eller_rows(lists[0], lists[1], a, key, np.uint64(0), J, O)
>>> _ = lean.eller_rows(lists[2], lists[3], b, key, np.uint64(0), J, O)
>>> bool((a == b).all() and (lists[0][:8] == lists[2][:8]).all())
True
"""

from __future__ import annotations

import numpy as np

from ._format import EAST, SOUTH
from ._rng import draws

__all__ = ["eller_rows", "eller_step", "labels_of", "lists_of"]

_LOW = np.uint64(0xFFFFFFFF)
BLOCK_CELLS = 1 << 13  # the draws of this many cells are made at once


def labels_of(left: np.ndarray, width: int) -> np.ndarray:
    """Each cell's label (the first cell of its set) from Eller's sorted
    circular ``left`` lists (their first ``width`` entries)."""
    xs = np.arange(width, dtype=np.int64)
    first = np.where(left[:width] < xs, left[:width], xs).astype(np.int64)
    while True:  # pointer jumping: the first cell of each set in O(log width) steps
        up = first[first]
        if np.array_equal(up, first):
            return first
        first = up


def lists_of(labels: np.ndarray, left: np.ndarray, right: np.ndarray) -> None:
    """Write the sets of ``labels`` as Eller's sorted circular lists into the
    first ``len(labels)`` entries of ``left``/``right``."""
    width = labels.shape[0]
    order = np.argsort(labels, kind="stable")  # by set, then left to right
    grouped = labels[order]
    starts = np.ones(width, bool)
    starts[1:] = grouped[1:] != grouped[:-1]
    ends = np.ones(width, bool)
    ends[:-1] = starts[1:]
    pos = np.arange(width)
    group_start = np.maximum.accumulate(np.where(starts, pos, 0))
    following = order[np.where(ends, group_start, pos + 1)]
    right[order] = following
    left[following] = order


def join_east(labels: list[int], candidates: list[int], parent: list[int], east: np.ndarray) -> None:
    """Join ``x`` and ``x + 1`` for each ``x`` of ``candidates`` (in order)
    whose sets differ (``parent``: a union-find over the labels, updated);
    mark the joins in ``east``."""
    for x in candidates:
        a = labels[x]
        while parent[a] != a:
            a = parent[a]
        b = labels[x + 1]
        while parent[b] != b:
            b = parent[b]
        if a != b:
            parent[b] = a
            east[x] = EAST


def roots(parent: list[int], labels: np.ndarray) -> np.ndarray:
    """Each cell's set after the joins, as a label."""
    p = np.array(parent, np.int64)
    while True:
        up = p[p]
        if np.array_equal(up, p):
            out: np.ndarray = p[labels]
            return out
        p = up


def last_cells(root: np.ndarray) -> np.ndarray:
    """True at the last cell of each set in the row."""
    width = root.shape[0]
    _, from_end = np.unique(root[::-1], return_index=True)
    last = np.zeros(width, bool)
    last[width - 1 - from_end] = True
    return last


def next_labels(root: np.ndarray, south: np.ndarray) -> np.ndarray:
    """The next row's labels: below an opening, the first opening of its set;
    elsewhere a set of its own."""
    width = root.shape[0]
    labels = np.arange(width, dtype=np.int64)
    opened = np.flatnonzero(south)
    r = root[opened]
    sets, first = np.unique(r, return_index=True)
    first_of = np.empty(width, np.int64)
    first_of[sets] = opened[first]
    labels[opened] = first_of[r]
    return labels


def eller_step(labels: np.ndarray, bits: np.ndarray, join: int, opens: int, row: np.ndarray) -> np.ndarray:
    """One Eller row into ``row`` from the sets ``labels`` and the row's
    draws ``bits``; returns the next row's labels."""
    width = labels.shape[0]
    east = np.zeros(width, np.uint8)
    candidates = np.flatnonzero((bits[:-1] & _LOW) < np.uint64(join))
    if candidates.size:
        parent = list(range(width))
        join_east(labels.tolist(), candidates.tolist(), parent, east)
        root = roots(parent, labels)
    else:
        root = labels
    wants = (bits >> np.uint64(32)) < np.uint64(opens)
    last = last_cells(root)
    other_opened = np.zeros(width, bool)
    other_opened[root[wants & ~last]] = True
    south = wants | (last & ~other_opened[root])
    row[:] = east | (south.astype(np.uint8) * np.uint8(SOUTH))
    return next_labels(root, south)


def eller_rows(
    left: np.ndarray,
    right: np.ndarray,
    out: np.ndarray,
    key: np.uint64,
    counter: np.uint64,
    join_below: np.uint64,
    open_below: np.uint64,
) -> np.uint64:
    """:func:`eller_stream._eller_kernels.eller_rows`, the lean way: ``out``'s
    rows from the sets ``left``/``right`` (left after them); returns the
    counter after the last cell."""
    n, width = out.shape
    labels = labels_of(left, width)
    per_block = max(1, BLOCK_CELLS // width)
    join, opens = int(join_below), int(open_below)
    for y0 in range(0, n, per_block):
        m = min(per_block, n - y0)
        bits = draws(key, int(counter) + y0 * width, m * width).reshape(m, width)
        for i in range(m):
            labels = eller_step(labels, bits[i], join, opens, out[y0 + i])
    lists_of(labels, left, right)
    return np.uint64((int(counter) + n * width) % 2**64)
