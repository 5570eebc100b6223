"""The plane's parameters as one value.

:class:`PlaneParams` holds the knobs of a plane (not its chunk size or its
seed, which say which plane it is), declared once with
:func:`eller_stream._knobs.knob` as :class:`~eller_stream.BandParams` is:
what takes them (the command line, the server, the spec's tables) reads
their names, defaults, checks and help from here. A new knob is a field
here, its threshold in :meth:`PlaneParams.thresholds` and the kernels that
read it.

>>> from eller_stream._plane_params import PlaneParams
>>> p = PlaneParams(perfect=False, vertical=0.25)
>>> p
PlaneParams(perfect=False, horizontal=0.5, vertical=0.25)
>>> PlaneParams.from_dict(p.as_dict()) == p
True
>>> PlaneParams(perfect=1)
Traceback (most recent call last):
...
TypeError: perfect must be True or False, got int: 1
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from . import _plane_kernels as pk
from ._knobs import Knobs, check_flag, knob
from ._params import FIRST_JOIN, FIRST_OPEN
from ._validate import check_probability

__all__ = ["EXIT", "LAST_JOIN", "PlaneParams"]

# The last row of a chunk whose sets leave south joins with LAST_JOIN x horizontal:
# fewer joins leave more sets, each leaving once, so that the seam below has about
# as many passages as a row inside (benchmarks/plane_texture.py); a row's last
# set leaves east with EXIT x horizontal, about as often as a cell inside has EAST.
LAST_JOIN = 0.5
EXIT = 0.8


@dataclass(frozen=True)
class PlaneParams(Knobs):
    """The knobs of a plane, validated.

    Parameters
    ----------
    perfect:
        ``True``: the whole plane is one tree (every block of level 1 and up
        a perfect maze on its own cells); ``False``: every chunk a perfect
        maze on its own, every seam between two chunks side by side at least
        one door (loops only at the seams).
    horizontal:
        Probability of joining side-by-side cells of different sets, in
        ``[0, 1]`` (and, scaled, of a row's exit east and of a door on an
        east seam).
    vertical:
        Probability of an optional downward opening, in ``[0, 1]`` (and of
        a door on a south seam).

    >>> PlaneParams(horizontal=2.0)
    Traceback (most recent call last):
    ...
    ValueError: horizontal must be in [0, 1], got 2.0
    """

    perfect: bool = knob(True, check_flag, "one tree (true) or perfect chunks with doors (false)", kind=bool)
    horizontal: float = knob(0.5, check_probability, "probability of joining side-by-side sets, in [0, 1]")
    vertical: float = knob(0.5, check_probability, "probability of an extra downward opening, in [0, 1]")

    _what: ClassVar[str] = "plane"

    def thresholds(self) -> np.ndarray:
        """The kernels' thresholds array (``_plane_kernels.TH_*``): a
        probability ``p`` becomes ``round(p * 2**32)``, as
        :func:`~eller_stream._rng.threshold`, the scaled ones after their
        binary64 product."""
        h, v = self.horizontal, self.vertical
        th = np.empty(pk.N_THRESHOLDS, np.uint64)
        for i, p in (
            (pk.TH_JOIN, h),
            (pk.TH_OPEN, v),
            (pk.TH_JOIN_FIRST, h * FIRST_JOIN),
            (pk.TH_OPEN_FIRST, v * FIRST_OPEN),
            (pk.TH_JOIN_LAST, h * LAST_JOIN),
            (pk.TH_EXIT, h * EXIT),
        ):
            th[i] = round(p * 2**32)
        return th
