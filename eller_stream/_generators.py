"""The generators by name: one registry that ``compare``, ``render`` and the
command line read.

A name is a kind and, after a colon, its parameters: ``eller`` or
``eller:h=H,v=V``; ``growing-tree:STRATEGY`` (any strategy or mix that
:func:`eller_stream.growing_tree` takes); ``backtracker``;
``banded:band=K,h=H,v=V,doors=D`` and any other parameter of
:class:`eller_stream.BandParams` by its name (the rows ``0 .. height - 2``
of an :class:`eller_stream.InfiniteMaze` and a closing row).

>>> generator("eller:h=0.3,v=0.6")(4, 3, 1).shape
(3, 4)
>>> generator("banded:band=4")(5, 9, 2).shape
(9, 5)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ._backtracker import backtracker
from ._growing_tree import growing_tree
from ._params import BandParams
from ._stream_base import closed_rows
from .banded import InfiniteMaze
from .stream import eller

__all__ = ["ALGORITHMS", "KINDS", "RENDER_KINDS", "Kind", "generator"]

Generate = Callable[[int, int, int], np.ndarray]


@dataclass(frozen=True)
class Kind:
    """A kind of generator: its ``key=value`` parameters (with their types
    and defaults) or a free-form spec, and how it builds a grid."""

    name: str
    build: Callable[[dict[str, int | float], str], Generate]
    params: tuple[tuple[str, type, int | float], ...] = ()
    spec: bool = False  # takes free text after the colon (a strategy) instead of key=value
    rendered: bool = True  # one of render's --algorithm choices


def _eller(p: dict[str, int | float], spec: str) -> Generate:
    h, v = float(p["h"]), float(p["v"])
    eller(1, 1, 0, h, v)  # validate now
    return lambda w, rows, seed: eller(w, rows, seed, h, v)


# banded:KEY=VALUE keys: band, then BandParams's names (horizontal and vertical as h and v)
_SHORT = {"horizontal": "h", "vertical": "v"}
_BANDED_KEYS = (
    ("band", int, 32),
    *((_SHORT.get(name, name), float, BandParams.default(name)) for name in BandParams.names()),
)

BANDED_SPEC = "banded[:" + ",".join(f"{key}=.." for key, _, _ in _BANDED_KEYS) + "]"


def _banded(p: dict[str, int | float], spec: str) -> Generate:
    band = int(p["band"])
    params = BandParams(**{name: float(p[_SHORT.get(name, name)]) for name in BandParams.names()})
    InfiniteMaze.from_params(1, band, 0, params)  # validate now
    return lambda w, rows, seed: closed_rows(InfiniteMaze.from_params(w, band, seed, params).stream(0), rows)


def _growing_tree(p: dict[str, int | float], spec: str) -> Generate:
    strategy = spec or "newest"
    growing_tree(1, 1, strategy, 0)  # validate now
    return lambda w, rows, seed: growing_tree(w, rows, strategy, seed)


def _backtracker(p: dict[str, int | float], spec: str) -> Generate:
    return lambda w, rows, seed: backtracker(w, rows, seed)


KINDS: dict[str, Kind] = {
    kind.name: kind
    for kind in (
        Kind("eller", _eller, (("h", float, 0.5), ("v", float, 0.5))),
        Kind("growing-tree", _growing_tree, spec=True),
        Kind("backtracker", _backtracker),
        Kind(
            "banded",
            _banded,
            _BANDED_KEYS,
            rendered=False,
        ),
    )
}
RENDER_KINDS = tuple(name for name, kind in KINDS.items() if kind.rendered)

# the default selection of `compare`
ALGORITHMS = (
    "eller",
    "eller:h=0.8,v=0.2",
    "eller:h=0.2,v=0.8",
    "growing-tree:newest",
    "growing-tree:oldest",
    "growing-tree:random",
    "growing-tree:middle",
    "growing-tree:newest:90,random:10",
    "growing-tree:newest:50,oldest:50",
    "backtracker",
    "banded:band=32",
    "banded:band=8",
    "banded:loops=0.5",
    "banded:rooms=0.2",
)


def generator(name: str) -> Generate:
    """The ``(width, height, seed) -> grid`` function an algorithm name stands for.

    >>> generator("banded:band=4,band=5")
    Traceback (most recent call last):
    ...
    ValueError: algorithm 'banded:band=4,band=5': band is given twice
    """
    if not isinstance(name, str):
        raise TypeError(f"algorithm must be a string, got {name!r}")
    kind_name, _, spec = name.partition(":")
    kind = KINDS.get(kind_name)
    shown = name if len(name) <= 80 else f"{name[:60]}...({len(name)} characters)"  # for errors
    if kind is None or (spec and not kind.spec and not kind.params):
        raise ValueError(
            f"algorithm {shown!r} is not eller[:h=..,v=..], growing-tree:STRATEGY, backtracker "
            f"or {BANDED_SPEC}"
        )
    params = {} if kind.spec else _params(shown, kind, spec)
    return kind.build(params, spec)


def _params(name: str, kind: Kind, spec: str) -> dict[str, int | float]:
    """``key=value`` pairs of an algorithm's ``spec``, over the kind's
    defaults (``name``: the algorithm, as error messages show it)."""
    types = {key: convert for key, convert, _ in kind.params}
    params = {key: default for key, _, default in kind.params}
    given: set[str] = set()
    for part in filter(None, spec.split(",")):
        key, _, value = part.partition("=")
        if key not in types:
            keys = ", ".join(f"{k}=" for k in types)
            raise ValueError(f"algorithm {name!r}: {kind.name} takes {keys}, got {part[:40]!r}")
        if key in given:
            raise ValueError(f"algorithm {name!r}: {key} is given twice")
        given.add(key)
        params[key] = _number(name, key, value, types[key])
    return params


def _number(name: str, key: str, value: str, kind: type) -> int | float:
    text = value.strip()
    if kind is int:
        digits = text[1:] if text[:1] in "+-" else text
        if not digits.isdigit() or not digits.isascii():
            raise ValueError(f"algorithm {name!r}: {key} must be a whole number, got {value[:40]!r}")
        if len(digits) > 4300:  # Python's int-digit limit
            raise ValueError(f"algorithm {name!r}: {key} must have at most 4300 digits, got {len(digits)}")
        return int(text)
    try:
        return float(text)
    except ValueError:
        raise ValueError(f"algorithm {name!r}: {key} must be a number, got {value!r}") from None
