"""A schedule: the banded maze's parameters changing from band to band.

A :class:`Schedule` maps band indices (ints of any sign) to some of the
parameters of :class:`~eller_stream._params.BandParams` (keyframes); band
``b`` takes, for each parameter, the value of the keyframes linearly
interpolated at ``b``, held before the first keyframe and after the last.
A parameter a keyframe leaves out takes the maze's own value there.  Width
and band height are the maze's and do not vary.

The values are pure functions of ``b``: every band's thresholds come from
the same float64 arithmetic (IEEE, correctly rounded), whether computed for
one band (:meth:`Schedule.params_at`) or for a range of them at once
(:meth:`Schedule.thresholds`, numpy), so two machines agree.

A schedule is data: it compares equal, prints, and round-trips through
JSON (:meth:`Schedule.to_json`, :meth:`Schedule.from_json`).  Its JSON has
one canonical text (``to_json()``, what checkpoints hold: ``-0.0`` is
written ``0.0``), of at most :data:`MAX_JSON_BYTES` (1 MiB): one limit,
measured on that text, wherever a schedule comes from, so any schedule
that is taken can be saved and resumed.

A keyframe may name any band index in ``[-2**63, 2**63)``, also one that
no row of a maze reaches (past ``(2**63 - 1) // band`` or below
``-2**63 // band``): it still shapes the values of the bands between it
and the keyframe before or after it, and a schedule stays one value for
mazes of any band height.

>>> from eller_stream._schedule import Schedule
>>> from eller_stream._params import BandParams
>>> s = Schedule({0: {"loops": 0.0}, 20: {"loops": 1.0}})
>>> s
Schedule({0: {'loops': 0.0}, 20: {'loops': 1.0}})
>>> s.params_at(BandParams(), 5).loops
0.25
>>> Schedule.from_json(s.to_json()) == s
True
"""

from __future__ import annotations

import contextlib
import dataclasses
import gc
import itertools
import json
import operator
import re
from collections.abc import Iterator, Mapping
from typing import Any

import numpy as np

from ._json import loads
from ._params import BandParams
from ._validate import shown

__all__ = ["MAX_JSON_BYTES", "MAX_TEXT_BYTES", "Schedule"]

MAX_JSON_BYTES = 1 << 20  # a schedule's canonical JSON (to_json(), as checkpoints hold it), at most
MAX_TEXT_BYTES = 4 * MAX_JSON_BYTES  # the text from_json reads, at most: room for spaces and spellings

_BAND_LOW, _BAND_HIGH = -(2**63), 2**63 - 1  # band indices: the rows' range, cut by the band height
_CHECKS = {f.name: f.metadata["check"] for f in dataclasses.fields(BandParams)}
_INT_TEXT = re.compile(r"-?(0|[1-9][0-9]*)")
_INT = r"-?(?:0|[1-9][0-9]{0,18})"  # at most 20 characters: longer keys are refused key by key
_INT_LIST = re.compile(f"{_INT}(?:,{_INT})*")
_ONE_BAND_KEPT = 256  # the bands whose thresholds a schedule keeps
_LEAST_BYTES = 7  # a keyframe's JSON at the least: "0":{},
_MANY = 10_000  # keyframes: read with the garbage collector paused (_collector_paused)
_first = operator.itemgetter(0)  # keyframes sorted by band alone: two of one band are refused, not compared


def _band_index(key: object) -> int:
    if type(key) is int:  # most keys (a schedule may hold 100,000): no more to check
        index = key
    elif isinstance(key, (bool, np.bool_)) or not isinstance(key, (int, np.integer)):
        raise TypeError(f"a schedule's band index must be an int, got {type(key).__name__}: {key!r}")
    else:
        index = int(key)
    if not _BAND_LOW <= index <= _BAND_HIGH:
        raise ValueError(f"a schedule's band index must be in [-2**63, 2**63), got {shown(index)}")
    return index


def _frame(index: int, values: object) -> dict[str, float]:
    if type(values) is not dict and not isinstance(values, Mapping):
        kind = type(values).__name__
        raise TypeError(f"the schedule's keyframe at band {index} must be a dict, got {kind}")
    if not values:
        return {}
    frame = {}
    for name, value in values.items():
        if name not in _CHECKS:
            where = f"at band {index} of the schedule ({', '.join(_CHECKS)})"
            raise ValueError(f"unknown banded-maze parameter {name!r} {where}")
        try:
            frame[name] = float(_CHECKS[name](name, value)) + 0.0  # -0.0 + 0.0 is 0.0: one JSON text
        except (TypeError, ValueError) as exc:
            raise type(exc)(f"the schedule at band {index}: {exc}") from None
    if len(frame) == 1:
        return frame
    return {name: frame[name] for name in _CHECKS if name in frame}  # in field order


class Schedule:
    """The parameters of some bands (keyframes), linear between them and
    held before the first and after the last.

    ``keyframes`` maps band indices (ints in ``[-2**63, 2**63)``) to dicts
    of :class:`~eller_stream.BandParams` names and values; a name a keyframe
    leaves out takes the maze's own value.  A band index no row of a maze
    reaches is taken: it shapes the bands between it and the next keyframe.
    The canonical JSON (:meth:`to_json`) must be at most
    :data:`MAX_JSON_BYTES` long (``ValueError``).

    >>> import eller_stream as es
    >>> ramp = es.Schedule({0: {"loops": 0.0}, 10: {"loops": 1.0}})
    >>> maze = es.InfiniteMaze(40, band=8, seed=1, schedule=ramp)
    >>> [maze.band_params(b).loops for b in (-3, 0, 5, 10, 99)]
    [0.0, 0.0, 0.5, 1.0, 1.0]
    >>> far = es.Schedule({0: {"loops": 0.0}, 2**60: {"loops": 1.0}})  # bands of 16 end at 2**59 - 1
    >>> es.InfiniteMaze(40, band=16, seed=1, schedule=far).band_params(2**59 - 1).loops
    0.5
    """

    __slots__ = ("_columns", "_frames", "_hash", "_json", "_key_array", "_keys", "_one_band")

    def __init__(self, keyframes: Mapping[int, Mapping[str, float]]) -> None:
        if isinstance(keyframes, Schedule):
            keyframes = keyframes.keyframes
        if not isinstance(keyframes, Mapping):
            raise TypeError(f"a schedule takes a dict of keyframes, got {type(keyframes).__name__}")
        if not keyframes:
            raise ValueError("a schedule needs at least one keyframe")
        if _LEAST_BYTES * len(keyframes) + 1 > MAX_JSON_BYTES:
            raise ValueError(
                f"a schedule's JSON (to_json()) must be at most {MAX_JSON_BYTES} bytes: "
                f"{len(keyframes)} keyframes take at least {_LEAST_BYTES * len(keyframes) + 1}"
            )
        with _collector_paused(len(keyframes) >= _MANY):
            self._build(keyframes)

    def _build(self, keyframes: Mapping[Any, Any]) -> None:
        items = _sorted_items(keyframes)
        self._keys = tuple(index for index, _ in items)
        self._frames = tuple(_frame(index, values) for index, values in items)
        canonical = {str(key): frame for key, frame in zip(self._keys, self._frames, strict=True)}
        self._json = json.dumps(canonical, separators=(",", ":"), allow_nan=False)
        if len(self._json) > MAX_JSON_BYTES:  # ASCII: characters are bytes
            raise ValueError(
                f"a schedule's JSON (to_json()) must be at most {MAX_JSON_BYTES} bytes, "
                f"this one's is {len(self._json)}"
            )
        self._hash = hash(self._json)
        # what values() reads, built once (a schedule does not change): the keys, and each
        # parameter's values with where a keyframe gives it (elsewhere the maze's own value)
        self._key_array = np.array(self._keys, np.int64)
        given = set().union(*self._frames)  # the names some keyframe gives
        n = len(self._frames)
        self._columns = {
            name: (
                np.array([frame.get(name, 0.0) for frame in self._frames], np.float64),
                np.array([name in frame for frame in self._frames], np.bool_),
            )
            if name in given
            else (np.zeros(n, np.float64), np.zeros(n, np.bool_))
            for name in _CHECKS
        }
        # thresholds(params, band, 1) by (params, band): a window or a stream asks for the same
        # few bands again and again, and each answer is some 150 us of numpy
        self._one_band: dict[tuple[BandParams, int], np.ndarray] = {}

    @property
    def keyframes(self) -> dict[int, dict[str, float]]:
        """The keyframes, by band index (a copy)."""
        return {key: dict(frame) for key, frame in zip(self._keys, self._frames, strict=True)}

    def __repr__(self) -> str:
        return f"Schedule({self.keyframes!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Schedule):
            return NotImplemented
        return self._keys == other._keys and self._frames == other._frames

    def __hash__(self) -> int:
        return self._hash

    def __reduce__(self) -> tuple[Any, tuple[dict[int, dict[str, float]]]]:
        return (Schedule, (self.keyframes,))

    # -- JSON ------------------------------------------------------------------
    def as_json_value(self) -> dict[str, dict[str, float]]:
        """The JSON value: an object of band indices (as decimal strings) to
        objects of parameters."""
        return {str(key): dict(frame) for key, frame in zip(self._keys, self._frames, strict=True)}

    def to_json(self) -> str:
        """The schedule as compact JSON, its canonical text (:meth:`from_json`
        reads it back; two equal schedules give the same text), at most
        :data:`MAX_JSON_BYTES` long."""
        return self._json

    @classmethod
    def from_json_value(cls, value: object) -> Schedule:
        """The schedule of :meth:`as_json_value`'s value (``ValueError`` if it is not one)."""
        if not isinstance(value, dict):
            raise ValueError(f"a schedule's JSON must be an object, got {type(value).__name__}")
        ints = _plain_indices(list(value))
        if ints is not None and all(type(frame) is dict for frame in value.values()):
            frames: dict[int, Mapping[str, float]] = dict(zip(ints, value.values(), strict=True))
        else:  # key by key: the first that is not a band index, or a band twice, named
            frames = _frames_of(value)
        try:
            return cls(frames)
        except TypeError as exc:
            raise ValueError(str(exc)) from None

    @classmethod
    def from_json(cls, text: str | bytes) -> Schedule:
        """The schedule of :meth:`to_json`'s text, or of any JSON of the same
        value, up to :data:`MAX_TEXT_BYTES` long (``ValueError`` if it is
        not one; a band or a name given twice is refused, and so is a
        schedule whose canonical text would pass :data:`MAX_JSON_BYTES`).

        >>> Schedule.from_json('{"-4": {"doors": 0.2}}')
        Schedule({-4: {'doors': 0.2}})
        >>> Schedule.from_json('{"0": {"loops": 0}, "-0": {"loops": 1}}')
        Traceback (most recent call last):
        ...
        ValueError: the schedule has band 0 twice
        """
        if not isinstance(text, (str, bytes)):
            raise TypeError(f"a schedule's JSON must be str or bytes, got {type(text).__name__}")
        if len(text) > MAX_TEXT_BYTES:
            raise ValueError(f"not a schedule's JSON: {len(text)} bytes, over the limit of {MAX_TEXT_BYTES}")
        with _collector_paused(len(text) >= _LEAST_BYTES * _MANY):
            return cls.from_json_value(loads(text, "not a schedule's JSON"))

    # -- values ----------------------------------------------------------------
    def makes_whole(self, params: BandParams) -> bool:
        """Whether some band has a parameter of ``BandParams.whole_names()``
        (loops, rooms) above 0, and so is made whole (``params``: the maze's
        own values)."""
        own = params.as_dict()
        names = BandParams.whole_names()
        return any(frame.get(name, own[name]) > 0.0 for frame in self._frames for name in names)

    def values(self, params: BandParams, bands: np.ndarray) -> dict[str, np.ndarray]:
        """Each parameter's float64 values at the int64 ``bands`` (in
        O(len(bands) x log(keyframes)): only the keyframes around them are read)."""
        keys = self._key_array
        i = np.searchsorted(keys, bands, side="right") - 1  # the keyframe at or before each band; -1: none
        last = len(keys) - 1
        inner = (i >= 0) & (i < last)
        j = i[inner]
        k0 = keys[j].view(np.uint64)
        # the distances as uint64 (they may pass 2**63), then float64
        span = (keys[j + 1].view(np.uint64) - k0).astype(np.float64)
        t = (bands[inner].view(np.uint64) - k0).astype(np.float64) / span
        out = {}
        for name, column in self._columns.items():
            own = float(getattr(params, name))
            held = _at(column, np.clip(i, 0, last), own)
            a, b = _at(column, j, own), _at(column, j + 1, own)
            held[inner] = np.clip(a + (b - a) * t, np.minimum(a, b), np.maximum(a, b))
            out[name] = held
        return out

    def params_at(self, params: BandParams, band: int) -> BandParams:
        """Band ``band``'s parameters (``params``: the maze's own values)."""
        values = self.values(params, np.array([_band_index(band)], np.int64))
        return BandParams(**{name: float(v[0]) for name, v in values.items()})

    def thresholds(self, params: BandParams, band0: int, n: int) -> np.ndarray:
        """The kernels' ``(n, N_THRESHOLDS)`` thresholds of bands ``band0 ..
        band0 + n - 1`` (row ``j``'s ``TH_DOOR_ABOVE``: the doors of band
        ``band0 + j - 1``), with numpy, as :meth:`BandParams.thresholds` of
        each band would give them (for a band asked for lately, alone, a
        copy of the answer kept: a caller may write to what it gets)."""
        kept = self._one_band.get((params, band0)) if n == 1 else None
        if kept is not None:
            return kept.copy()
        bands = np.arange(band0 - 1, band0 + n, dtype=np.int64)  # the band above the first too
        v = self.values(params, bands)
        th = BandParams.thresholds_of({name: p[1:] for name, p in v.items()}, v["doors"][:-1])
        if n == 1:
            if len(self._one_band) >= _ONE_BAND_KEPT:
                self._one_band.clear()
            self._one_band[params, band0] = th.copy()
        return th


def _at(column: tuple[np.ndarray, np.ndarray], index: np.ndarray, own: float) -> np.ndarray:
    """A parameter's values at keyframes ``index``: the keyframe's, or the
    maze's own value ``own`` where the keyframe leaves the parameter out."""
    given, has = column
    picked: np.ndarray = np.where(has[index], given[index], own)
    return picked


def _sorted_items(keyframes: Mapping[Any, Any]) -> list[tuple[int, Any]]:
    """The keyframes as ``(band index, values)``, by band. Checked key by key, but for a
    dict whose keys are all ints in range (100,000 of them at the limit), which cannot
    hold a band twice."""
    if type(keyframes) is dict and all(type(key) is int for key in keyframes):
        if _BAND_LOW <= min(keyframes) and max(keyframes) <= _BAND_HIGH:
            return sorted(keyframes.items(), key=_first)
    items = sorted(((_band_index(key), values) for key, values in keyframes.items()), key=_first)
    for (a, _), (b, _) in itertools.pairwise(items):
        if a == b:
            raise ValueError(f"the schedule has band {a} twice")
    return items


def _plain_indices(keys: list[Any]) -> list[int] | None:
    """The JSON keys' band indices, read all at once: ``None`` unless every key is the
    decimal text of an int of at most 20 characters and no band comes twice ("0", "-0")."""
    if not all(type(key) is str for key in keys):
        return None
    if not _INT_LIST.fullmatch(",".join(keys)):
        return None
    try:
        ints = list(map(int, keys))
    except ValueError:  # a key with a comma in it ("1,2"), which the pattern read as two
        return None
    return ints if len(set(ints)) == len(ints) else None


def _frames_of(value: dict[Any, Any]) -> dict[int, Mapping[str, float]]:
    """``from_json_value``'s keyframes key by key, each key checked in turn."""
    frames: dict[int, Mapping[str, float]] = {}
    for key, frame in value.items():
        if not isinstance(key, str) or not _INT_TEXT.fullmatch(key):
            raise ValueError(f"a schedule's JSON keys must be band indices, got {str(key)[:40]!r}")
        if len(key) > 20:  # past any band index; int() would fail on 4,300 digits
            raise ValueError(f"a schedule's band index must be in [-2**63, 2**63), got {len(key)} digits")
        if not isinstance(frame, dict):
            raise ValueError(f"the schedule's keyframe at band {key} must be an object")
        if int(key) in frames:  # "0" and "-0"
            raise ValueError(f"the schedule has band {int(key)} twice")
        frames[int(key)] = frame
    return frames


@contextlib.contextmanager
def _collector_paused(pause: bool) -> Iterator[None]:
    """Python's cyclic garbage collector paused (when ``pause``) while a schedule of many
    keyframes is read: the hundreds of thousands of dicts and tuples it makes set off its
    passes over every object of the process, most of the time it took (a 1 MiB schedule
    from JSON: 0.22 s, from 0.54, in a process with numba loaded). A schedule holds no
    cycles; the collector runs again after, unless something else had it off before."""
    if not pause or not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
