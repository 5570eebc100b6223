"""The banded maze's parameters as one value.

:class:`BandParams` holds every knob of a band's rows (not the width, the
band height or the seed, which say which maze it is): it validates once,
and it is what :class:`~eller_stream.InfiniteMaze`, its streams, their
checkpoints and the command line carry.  A new knob is a field here (with
its default, its check and its help text), its threshold in
:meth:`BandParams.thresholds` and the kernel that reads it.

>>> from eller_stream._params import BandParams
>>> p = BandParams(horizontal=0.3)
>>> p
BandParams(horizontal=0.3, vertical=0.5, doors=0.45, loops=0.0, rooms=0.0)
>>> BandParams.from_dict(p.as_dict()) == p
True
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from . import _band_kernels as bk
from ._knobs import Knobs, knob
from ._validate import check_probability, shown

__all__ = ["DEFAULT_DOORS", "BandParams"]

DEFAULT_DOORS = 0.45  # closest seams to the interior rows (benchmarks/seams.py)

# A band's first row starts with every cell a set of its own, so with the
# user's probabilities it would join and open more than the rows below it
# (EAST 0.50 against 0.40 at the defaults): it takes these factors of them,
# measured with benchmarks/seams.py to make it look like the others.
FIRST_JOIN = 0.8
FIRST_OPEN = 0.6


def _door_share(name: str, value: object) -> float:
    try:
        result = check_probability(name, value)
    except ValueError:
        raise ValueError(f"{name} must be in (0, 1], got {shown(value)}") from None
    if result == 0.0:
        raise ValueError(f"{name} must be in (0, 1], got 0.0")
    return result


def _room_share(name: str, value: object) -> float:
    result = check_probability(name, value)
    if result >= 1.0:
        raise ValueError(f"{name} must be in [0, 1), got {result!r}")
    return result


def _knob(default: float, check: Any, help: str, whole: bool = False) -> Any:
    """A field of :class:`BandParams` (:func:`eller_stream._knobs.knob`): its
    default, the check that turns a given value into the stored one
    (``check(name, value)``), and the help text of its command-line option
    (``--NAME``)."""
    return knob(default, check, help, whole)


@dataclass(frozen=True)
class BandParams(Knobs):
    """The parameters of a banded maze's rows, validated.

    Parameters
    ----------
    horizontal:
        Probability of joining side-by-side cells of different sets, in
        ``[0, 1]``.
    vertical:
        Probability of an optional downward opening, in ``[0, 1]``.
    doors:
        Probability that a column is a door between two bands, in ``(0, 1]``
        (every seam has at least one door).
    loops:
        Probability that a dead end of a band opens one more wall to a
        neighbour in the same band (Jamis Buck's braid), in ``[0, 1]``; 0
        keeps the maze perfect, 1 leaves no dead end where a neighbour in the
        band exists.
    rooms:
        About the share of a band's cells that lie in rooms (open rectangles,
        each a place of the maze), in ``[0, 1)``.

    >>> BandParams(doors=0.0)
    Traceback (most recent call last):
    ...
    ValueError: doors must be in (0, 1], got 0.0
    """

    horizontal: float = _knob(0.5, check_probability, "probability of joining side-by-side sets, in [0, 1]")
    vertical: float = _knob(0.5, check_probability, "probability of an extra downward opening, in [0, 1]")
    doors: float = _knob(DEFAULT_DOORS, _door_share, "share of door columns at the seams, in (0, 1]")
    loops: float = _knob(
        0.0, check_probability, "probability that a dead end opens into a loop, in [0, 1]", whole=True
    )
    rooms: float = _knob(
        0.0, _room_share, "about the share of a band's cells in rooms, in [0, 1)", whole=True
    )

    _what: ClassVar[str] = "banded-maze"

    @classmethod
    def whole_names(cls) -> tuple[str, ...]:
        """The parameters that, above 0, need a band made whole before any of
        its rows is known (loops, rooms)."""
        return tuple(f.name for f in dataclasses.fields(cls) if f.metadata["whole"])

    def needs_whole(self) -> bool:
        """Whether a band with these parameters is made whole (see :meth:`whole_names`)."""
        return any(getattr(self, name) > 0.0 for name in self.whole_names())

    def as_dict(self) -> dict[str, float]:
        """The parameters by name (what checkpoints store)."""
        return {name: getattr(self, name) for name in self.names()}

    def thresholds(self) -> np.ndarray:
        """The kernels' thresholds array (``_band_kernels.TH_*``)."""
        values = {name: np.array([value], np.float64) for name, value in self.as_dict().items()}
        th: np.ndarray = self.thresholds_of(values, values["doors"])[0]
        return th

    @staticmethod
    def thresholds_of(values: dict[str, np.ndarray], doors_above: np.ndarray) -> np.ndarray:
        """The ``(n, N_THRESHOLDS)`` thresholds of ``n`` bands from each
        parameter's ``n`` float64 values (``doors_above``: the doors of the
        band above each), with numpy: one formula for one band and for a
        schedule's many (a probability ``p`` becomes ``round(p * 2**32)``,
        as :func:`~eller_stream._rng.threshold`)."""

        def scaled(p: np.ndarray) -> np.ndarray:
            out: np.ndarray = np.round(p * 2.0**32).astype(np.uint64)
            return out

        th = np.empty((len(doors_above), bk.N_THRESHOLDS), np.uint64)
        th[:, bk.TH_JOIN] = scaled(values["horizontal"])
        th[:, bk.TH_OPEN] = scaled(values["vertical"])
        th[:, bk.TH_DOOR] = scaled(values["doors"])
        th[:, bk.TH_JOIN_FIRST] = scaled(values["horizontal"] * FIRST_JOIN)
        th[:, bk.TH_OPEN_FIRST] = scaled(values["vertical"] * FIRST_OPEN)
        th[:, bk.TH_LOOP] = scaled(values["loops"])
        th[:, bk.TH_DOOR_ABOVE] = scaled(doors_above)
        th[:, bk.TH_ROOM] = scaled(values["rooms"])
        return th
