"""The plane: a maze infinite in rows and columns, any rectangle of it at
once from ``(seed, coordinates)`` alone.

It is cut into square chunks of ``chunk`` cells; 9 x 9 chunks make a block
of level 1, 9 x 9 of those a block of level 2, and so on, each level's
block of the origin centred on the one below (:meth:`Plane.block`). With
``perfect=True`` (the default) every block of level 1 and up is a perfect
maze on its own cells and the whole plane is one tree; with
``perfect=False`` every chunk is a perfect maze on its own and every seam
between two chunks side by side has at least one door, so the 3 x 3 chunks
around a player always connect it to its neighbours. docs/plane.md is the
guide, docs/spec.md (section 8) the rule of every byte.

>>> import eller_stream as es
>>> plane = es.Plane(chunk=8, seed=1)
>>> grid = plane.region(-4, 12, 2**62 - 10, 2**62)
>>> grid.shape, grid.dtype
((16, 10), dtype('uint8'))
>>> bool((plane[0:6, 0:6] == plane.region(-4, 12, -4, 12)[4:10, 4:10]).all())
True
"""

from __future__ import annotations

import numpy as np

from . import _lean_plane as lean
from . import _parallel as par
from . import _plane_blocks as pb
from . import _plane_json
from . import _plane_kernels as pk
from ._backend import LEAN
from ._directions import step_of
from ._format import EAST, SOUTH
from ._plane_params import PlaneParams
from ._rng import seed_key
from ._stream_base import CALL_CELLS
from ._validate import check_int, check_seed, shown

__all__ = ["LIMIT", "MAX_CHUNK", "MAX_MADE", "Plane", "PlaneParams"]

LIMIT = pb.LIMIT  # rows and columns in [-2**62, 2**62)
MAX_CHUNK = 1024  # the widest chunk: a cell costs its whole chunk (a million cells)
MAX_MADE = 1 << 31  # the cells a region may make (its chunks, whole): a few seconds

if LEAN:
    _region_kernel = lean.plane_region
else:
    from ._engine import Warming

    _region_kernel = Warming(pk.plane_region, lean.plane_region)


class Plane:
    """A maze infinite in rows and columns; any rectangle of it comes from
    ``(seed, coordinates)`` alone, in the row format (``EAST`` to
    ``(y, x + 1)``, ``SOUTH`` to ``(y + 1, x)``).

    Parameters
    ----------
    chunk:
        The side of a chunk in cells, in ``[1, MAX_CHUNK]`` (16). A region
        makes every chunk it touches whole.
    seed:
        An int in ``[0, 2**64)`` (0); ``None`` draws one from OS entropy.
    perfect:
        ``True``: one tree (every block of level >= 1 perfect on its own
        cells); ``False``: every chunk perfect on its own, every seam
        between two chunks side by side with a door or more.
    horizontal, vertical:
        Eller's probabilities, in ``[0, 1]``, as for :class:`EllerStream`.

    The knobs (``perfect``, ``horizontal``, ``vertical``) are one value,
    :attr:`params` (a ``PlaneParams``).

    >>> import eller_stream as es
    >>> plane = es.Plane(chunk=4, seed=7, perfect=False)
    >>> plane.params.perfect, plane.chunk, plane.block(1, 0, 0)
    (False, 4, (-16, -16, 36))
    """

    def __init__(
        self,
        chunk: int = 16,
        seed: int | None = 0,
        *,
        perfect: bool = True,
        horizontal: float = 0.5,
        vertical: float = 0.5,
    ) -> None:
        self._set(chunk, seed, PlaneParams(perfect=perfect, horizontal=horizontal, vertical=vertical))

    def _set(self, chunk: int, seed: int | None, params: PlaneParams) -> None:
        self._chunk = check_int("chunk", chunk, 1, MAX_CHUNK)
        self._seed = check_seed(seed)
        if not isinstance(params, PlaneParams):
            raise TypeError(f"params must be a PlaneParams, got {type(params).__name__}")
        self._params = params
        self._key = seed_key(self._seed)
        self._th = params.thresholds()
        self._levels = pb.levels(self._chunk)

    @classmethod
    def from_params(cls, chunk: int, seed: int | None, params: PlaneParams) -> Plane:
        """The plane of this chunk size, seed and knobs."""
        plane = cls.__new__(cls)
        plane._set(chunk, seed, params)
        return plane

    def to_json(self) -> str:
        """The plane as one line of JSON: a version, the chunk, the seed (a
        decimal string) and every parameter (:mod:`eller_stream._plane_json`);
        :meth:`from_json` reads it back equal, and the JavaScript module's
        ``region`` takes it as its params.

        >>> import eller_stream as es
        >>> es.Plane(8, seed=3, perfect=False).to_json()
        '{"version":1,"chunk":8,"seed":"3","perfect":false,"horizontal":0.5,"vertical":0.5}'
        >>> es.Plane.from_json(es.Plane(8, seed=3).to_json()) == es.Plane(8, seed=3)
        True
        """
        return _plane_json.plane_json(self)

    @classmethod
    def from_json(cls, text: str | bytes) -> Plane:
        """The plane of :meth:`to_json`'s text (a parameter left out takes its
        default); text that is not one is a ``ValueError`` naming what is wrong.

        >>> import eller_stream as es
        >>> es.Plane.from_json('{"version": 1, "chunk": 0, "seed": "7"}')
        Traceback (most recent call last):
        ...
        ValueError: not a Plane's JSON: chunk must be in [1, 1024], got 0
        """
        chunk, seed, params = _plane_json.read_plane(text)
        try:
            return cls.from_params(chunk, seed, params)
        except ValueError as exc:
            raise ValueError(f"not a Plane's JSON: {exc}") from None

    @property
    def chunk(self) -> int:
        """The side of a chunk, in cells."""
        return self._chunk

    @property
    def seed(self) -> int:
        """The seed in use (drawn from OS entropy when none was given)."""
        return self._seed

    @property
    def params(self) -> PlaneParams:
        """The knobs, one frozen value."""
        return self._params

    @property
    def levels(self) -> int:
        """The level whose block of the origin holds every cell of
        ``[-2**62, 2**62]``: :meth:`block` takes levels ``0 .. levels``."""
        return self._levels

    def __repr__(self) -> str:
        knobs = ", ".join(f"{name}={value!r}" for name, value in self._params.as_dict().items())
        return f"Plane(chunk={self._chunk}, seed={self._seed}, {knobs})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Plane):
            return NotImplemented
        return (self._chunk, self._seed, self._params) == (other._chunk, other._seed, other._params)

    def __hash__(self) -> int:
        return hash((self._chunk, self._seed, self._params))

    # -- regions -----------------------------------------------------------
    def cells_made(self, y0: int, y1: int, x0: int, x1: int) -> int:
        """About the cells :meth:`region` makes for these bounds: every chunk
        that holds a cell of it or of the row and column just past it, whole."""
        y0, y1 = _bounds("y", y0, y1)
        x0, x1 = _bounds("x", x0, x1)
        return self._made(y0, y1, x0, x1)

    def _made(self, y0: int, y1: int, x0: int, x1: int) -> int:
        c = self._chunk
        return (y1 // c - y0 // c + 1) * (x1 // c - x0 // c + 1) * c * c

    def region(self, y0: int, y1: int, x0: int, x1: int) -> np.ndarray:
        """Cells ``[y0, y1) x [x0, x1)``: a C-contiguous ``(y1 - y0, x1 - x0)``
        uint8 array, ``[y, x]`` the cell ``(y0 + y, x0 + x)``.

        Rows and columns are any ints in ``[-2**62, 2**62)`` (``y1``, ``x1``
        up to ``2**62``), ``y0 < y1`` and ``x0 < x1``. The last column's
        ``EAST`` and the last row's ``SOUTH`` are the passages to the cells
        just outside, so a region is the same bytes as the part of any larger
        region that covers it. A region makes every chunk it touches
        (:meth:`cells_made`); one that would make more than :data:`MAX_MADE`
        cells, or not fit in memory, is refused with a ``ValueError`` before
        any of it is made. A large one uses every core.

        >>> import eller_stream as es
        >>> plane = es.Plane(chunk=5, seed=2)
        >>> big = plane.region(-10, 10, -10, 10)
        >>> bool((plane.region(-3, 4, 0, 9) == big[7:14, 10:19]).all())
        True
        """
        y0, y1 = _bounds("y", y0, y1)
        x0, x1 = _bounds("x", x0, x1)
        made = self._made(y0, y1, x0, x1)
        if made > MAX_MADE:
            raise ValueError(
                f"y0, y1, x0, x1: region [{y0}, {y1}) x [{x0}, {x1}) makes {made} cells (the chunks "
                f"it touches, whole), more than {MAX_MADE}: ask for it in parts"
            )
        h, w = y1 - y0, x1 - x0
        out = par.alloc((h, w), np.uint8, f"a region of {h} x {w} cells")
        self._fill(out, y0, x0)
        return out

    def _fill(self, out: np.ndarray, y0: int, x0: int) -> None:
        """The region from ``(y0, x0)`` into ``out``, in strips of whole chunk
        rows of about ``CALL_CELLS`` cells a thread (so that Ctrl-C is heard
        between them), on every core when the region is large."""
        h, w = out.shape
        c = self._chunk
        threads = par.threads_for(h, c, w, _region_kernel)  # (imports numba for a large region)
        per_call = max(1, threads * CALL_CELLS // (c * w)) * c
        start = 0
        while start < h:
            stop = min(h, start + per_call - (y0 + start) % c)  # strips end on chunk rows
            top = y0 + start  # the strip's chunk rows, a run of them a thread: the same bytes
            cuts = [0, *range(-top % c or c, stop - start, c), stop - start]
            par.run_parts([self._part(out[start + cuts[i] : start + cuts[j]], top + cuts[i], x0)
                           for i, j in par.split(len(cuts) - 1, threads)])  # fmt: skip
            start = stop

    def _part(self, out: np.ndarray, y0: int, x0: int) -> par.Part:
        """The region from ``(y0, x0)`` into ``out`` by the serial kernel, on any thread."""
        return lambda: _region_kernel(out, self._key, self._chunk, self._params.perfect, y0, x0, self._th)

    def __getitem__(self, index: tuple[slice, slice]) -> np.ndarray:
        """``plane[y0:y1, x0:x1]`` is ``plane.region(y0, y1, x0, x1)``; ``plane[y, x]``
        the byte of cell ``(y, x)``."""
        if not isinstance(index, tuple) or len(index) != 2:
            if isinstance(index, tuple):
                got = f"{len(index)} {'index' if len(index) == 1 else 'indices'}"
            else:
                got = f"one index, {shown(index)}"
            raise TypeError(f"a plane takes two indices, plane[rows, columns], got {got}")
        rows, cols = index
        if isinstance(rows, slice) and isinstance(cols, slice):
            y0, y1 = _bounds("y", *_slice("rows", rows))
            x0, x1 = _bounds("x", *_slice("columns", cols))
            return self.region(y0, y1, x0, x1)
        if isinstance(rows, slice) or isinstance(cols, slice):
            raise TypeError("a plane takes two slices or two ints, [y0:y1, x0:x1] or [y, x]")
        y = _coordinate("y", rows)
        x = _coordinate("x", cols)
        cell: np.ndarray = self.region(y, y + 1, x, x + 1)[0, 0]
        return cell

    # -- moves -------------------------------------------------------------
    def can_move(self, cell: tuple[int, int], direction: str | tuple[int, int]) -> bool:
        """Whether a player on ``cell`` can step in ``direction``: the wall
        between them is open (north and west are read from the neighbour's
        ``SOUTH`` and ``EAST``, in the next chunk if the step crosses a seam).
        ``direction`` is ``"north"``, ``"south"``, ``"east"``, ``"west"`` or
        the step ``(dy, dx)`` (``es.DIRECTIONS``), as for a :class:`Window`.
        Makes the chunk of one cell (see :meth:`region`).

        >>> import eller_stream as es
        >>> plane = es.Plane(chunk=4, seed=1)
        >>> plane.can_move((7, 3), "east") == bool(plane[7, 3] & es.EAST)
        True
        >>> plane.can_move((7, 4), "west") == plane.can_move((7, 3), (0, 1))
        True
        """
        y, x = _cell("cell", cell)
        dy, dx = step_of(direction)
        ny, nx = y + dy, x + dx
        if not (-LIMIT <= ny < LIMIT and -LIMIT <= nx < LIMIT):
            return False
        wy, wx = min(y, ny), min(x, nx)  # the cell whose SOUTH or EAST is the wall
        return bool(self.region(wy, wy + 1, wx, wx + 1)[0, 0] & (SOUTH if dy else EAST))

    def step(self, cell: tuple[int, int], direction: str | tuple[int, int]) -> tuple[int, int] | None:
        """The cell one step from ``cell`` in ``direction``, or ``None`` where
        :meth:`can_move` is False.

        >>> import eller_stream as es
        >>> plane = es.Plane(chunk=4, seed=1)
        >>> moves = {d: plane.step((0, 0), d) for d in es.DIRECTIONS}
        >>> all((to is None) != plane.can_move((0, 0), d) for d, to in moves.items())
        True
        """
        if not self.can_move(cell, direction):
            return None
        (y, x), (dy, dx) = _cell("cell", cell), step_of(direction)
        return y + dy, x + dx

    # -- blocks ------------------------------------------------------------
    def block(self, level: int, y: int, x: int) -> tuple[int, int, int]:
        """The block of ``level`` that holds cell ``(y, x)``: its first row,
        first column and size, ``(y0, x0, size)`` (Python ints; a block of a
        high level reaches past ``[-2**62, 2**62)``).

        Level 0 is the cell's chunk (``size == chunk``); a block of level
        ``L`` is 9 x 9 blocks of level ``L - 1`` (``size == chunk * 9**L``).
        The blocks of a level tile the plane, each lies in one block of the
        level above, and each level's block of the origin is centred on the
        one below. ``level`` is in ``[0, levels]``.

        >>> import eller_stream as es
        >>> es.Plane(chunk=16).block(2, 0, 0)
        (-640, -640, 1296)
        """
        level = check_int("level", level, 0, self._levels)
        return pb.block(self._chunk, level, _coordinate("y", y), _coordinate("x", x))

    def path(self, a: tuple[int, int], b: tuple[int, int]) -> np.ndarray:
        """The path from cell ``a`` to cell ``b``: a ``(k, 2)`` int64 array of
        ``(y, x)`` cells, both ends included.

        With ``perfect=True`` it is the one path there is, which lies in the
        smallest block of level >= 1 holding both; it is found level by
        level, through the doors between the blocks it crosses, making only
        the level-1 blocks it passes through. With ``perfect=False``, a
        shortest path inside that block. Either way a path that needs more
        than :data:`~eller_stream._plane_path.PATH_CELLS` cells made is
        refused with a ``ValueError`` (neighbours across the seam of a block
        of a high level can be that far apart: docs/plane.md).

        >>> import eller_stream as es
        >>> p = es.Plane(chunk=4, seed=3).path((0, 0), (5, -7))
        >>> p[0].tolist(), p[-1].tolist()
        ([0, 0], [5, -7])
        """
        from ._plane_path import plane_path

        cells = (_cell("a", a), _cell("b", b))
        return plane_path(self, self._key, *cells)


def _coordinate(name: str, value: object) -> int:
    return check_int(name, value, -LIMIT, LIMIT - 1)


def _cell(name: str, cell: object) -> tuple[int, int]:
    if isinstance(cell, np.ndarray):
        cell = cell.tolist()
    if not isinstance(cell, (tuple, list)) or len(cell) != 2:
        raise TypeError(f"{name} must be a (y, x) pair, got {shown(cell)}")
    return _coordinate(f"{name}[0] (y)", cell[0]), _coordinate(f"{name}[1] (x)", cell[1])


def _bounds(axis: str, start: object, stop: object) -> tuple[int, int]:
    """``start``, ``stop`` (named ``y0``/``y1`` or ``x0``/``x1``) checked."""
    first = check_int(f"{axis}0", start, -LIMIT, LIMIT - 1)
    end = check_int(f"{axis}1", stop, -LIMIT + 1, LIMIT)
    if end <= first:
        raise ValueError(f"{axis}1 must be greater than {axis}0, got {axis}0={first}, {axis}1={end}")
    return first, end


def _slice(name: str, s: slice) -> tuple[object, object]:
    if s.step not in (None, 1):
        raise ValueError(f"a slice of {name} takes no step, got step {s.step!r}")
    if s.start is None or s.stop is None:
        raise ValueError(f"the plane is infinite: a slice of {name} needs both start and stop")
    return s.start, s.stop
