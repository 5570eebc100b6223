"""The banded maze's last row (``eller_stream._last_row_kernels``): from the
lists, from the bit planes and on the lean backend (``_lean_bands``), each
against the rule restated with set labels and joins (tests/naive.py), on
any sets that do not cross: nested deeper than the planes hold, every cell
a door or none."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from eller_stream._eller_kernels import LR_PAD
from eller_stream._eller_planes import DEEPEST
from eller_stream._last_row_kernels import last_row, last_row_of_planes
from eller_stream._lean_bands import last_row as lean_last_row
from eller_stream._numba import kernel_errstate

from naive import last_row_reference

pytestmark = pytest.mark.usefixtures("numba_answers")


def noncrossing_sets(width: int, seed: int, opens: float) -> list[int]:
    """A set label per cell, the sets never crossing: each cell starts a
    set (of one cell, or staying open), goes on with the innermost open set,
    or ends it, at random (``opens``: how often a set starts open)."""
    rng = np.random.default_rng(seed)
    label = [0] * width
    stack: list[int] = []
    fresh = 0
    for x in range(width):
        left = width - 1 - x  # cells after this one: every open set must still end
        kinds = ["one"] if len(stack) <= left else []
        if len(stack) + 1 <= left:
            kinds.append("open")
        if stack and len(stack) <= left:
            kinds.append("on")
        if stack and len(stack) - 1 <= left:
            kinds.append("end")
        weight = {"one": 1.0, "open": opens, "on": 0.5, "end": 0.5 + (1 - opens)}
        weights = np.array([weight[k] for k in kinds])
        kind = kinds[rng.choice(len(kinds), p=weights / weights.sum())]
        if kind in ("one", "open"):
            label[x] = fresh
            if kind == "open":
                stack.append(fresh)
            fresh += 1
        else:
            label[x] = stack[-1]
            if kind == "end":
                stack.pop()
    assert not stack
    return label


def as_lists(label: list[int]) -> tuple[np.ndarray, np.ndarray]:
    """The kernels' circular lists of each set, left to right."""
    width = len(label)
    left = np.arange(width + LR_PAD, dtype=np.int32)
    right = left.copy()
    cells: dict[int, list[int]] = {}
    for x, s in enumerate(label):
        cells.setdefault(s, []).append(x)
    for members in cells.values():
        for i, x in enumerate(members):
            left[x] = members[i - 1]
            right[x] = members[(i + 1) % len(members)]
    return left, right


def as_planes(label: list[int]) -> tuple[np.ndarray, int]:
    """``P`` (a cell has an earlier cell in its set), a bit a cell, and how
    deep the sets nest."""
    width = len(label)
    P = np.zeros((width + 63) // 64 + 1, np.uint64)
    first = {s: label.index(s) for s in set(label)}
    last = {s: width - 1 - label[::-1].index(s) for s in set(label)}
    for x, s in enumerate(label):
        P[x >> 6] |= np.uint64(int(first[s] < x) << (x & 63))
    deepest = max(sum(first[s] <= x < last[s] for s in first) for x in range(width))
    return P, deepest


def as_words(bits: np.ndarray) -> np.ndarray:
    words = np.zeros(len(bits) // 64 + 2, np.uint64)
    for x in np.flatnonzero(bits):
        words[x >> 6] |= np.uint64(1 << (int(x) & 63))
    return words


def held_at_or_after(label: list[int], doors: np.ndarray) -> np.ndarray:
    """Each cell is in a door column or a later cell of its set is (what the
    penultimate row's ``planes_rows`` gives the planes' last row)."""
    held = np.zeros(len(label), bool)
    later: set[int] = set()  # the sets with a door at or after the cell
    for x in range(len(label) - 1, -1, -1):
        if doors[x]:
            later.add(label[x])
        held[x] = label[x] in later
    return held


@settings(max_examples=150, deadline=None)
@given(
    width=st.one_of(st.sampled_from([1, 2, 3, 63, 64, 65, 128, 129]), st.integers(1, 200)),
    seed=st.integers(0, 2**32),
    opens=st.sampled_from([0.0, 0.1, 0.5, 0.9, 1.0]),
    door=st.sampled_from([0.0, 0.05, 0.3, 1.0]),
)
def test_both_last_rows_follow_the_rule(width, seed, opens, door):
    label = noncrossing_sets(width, seed, opens)
    doors = (np.random.default_rng(seed + 1).random(width) < door).astype(np.uint8)
    expected = last_row_reference(label, [bool(d) for d in doors])
    P, _ = as_planes(label)
    made = []
    with kernel_errstate():
        for planes in (False, True):
            left, right = as_lists(label)
            row = np.full(width, 0xFF, np.uint8)
            if planes:
                held = as_words(held_at_or_after(label, doors))
                last_row_of_planes(P, held, left, right, row, as_words(doors), np.full(len(P), 7, np.uint64))
            else:
                last_row(left, right, row, doors, np.zeros(width + 1, np.int32))
            made.append(row)
            # the next band's first row starts from sets of one cell
            np.testing.assert_array_equal(left[:width], np.arange(width))
            np.testing.assert_array_equal(right[:width], np.arange(width))
    lean = np.full(width, 0xFF, np.uint8)
    lean_last_row(np.array(label, np.int64), doors, lean)
    np.testing.assert_array_equal(made[0], expected)
    np.testing.assert_array_equal(made[1], expected)
    np.testing.assert_array_equal(lean, expected)


def test_sets_nested_past_the_planes_still_follow_the_rule():
    # a band's rows go to the lists past DEEPEST; the last row by planes has no such limit
    width = 2 * (DEEPEST + 3) + 10
    label = list(range(width))
    for i in range(DEEPEST + 3):  # {0, w-1}, {1, w-2}, ...: nested DEEPEST + 3 deep
        label[width - 1 - i] = label[i]
    P, deepest = as_planes(label)
    assert deepest > DEEPEST
    for seed in range(6):
        doors = (np.random.default_rng(seed).random(width) < 0.2).astype(np.uint8)
        left = np.arange(width + LR_PAD, dtype=np.int32)  # the planes alone tell the sets
        right = left.copy()
        row = np.zeros(width, np.uint8)
        held = as_words(held_at_or_after(label, doors))
        with kernel_errstate():
            last_row_of_planes(P, held, left, right, row, as_words(doors), np.full(len(P), 7, np.uint64))
        np.testing.assert_array_equal(row, last_row_reference(label, [bool(d) for d in doors]))
