"""The four moves of a player, by name or by step: what ``es.DIRECTIONS``
holds and what the game kit's ``direction`` arguments accept (a
:class:`~eller_stream.Window`'s and a :class:`~eller_stream.Plane`'s).

>>> DIRECTIONS["north"], step_of((0, -1))
((-1, 0), (0, -1))
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from ._validate import check_int

__all__ = ["DIRECTIONS", "step_of"]

# The directions a move takes: a name, or the (dy, dx) step it names (read-only).
DIRECTIONS: Mapping[str, tuple[int, int]] = MappingProxyType(
    {"north": (-1, 0), "south": (1, 0), "west": (0, -1), "east": (0, 1)}
)
_STEPS = {step: name for name, step in DIRECTIONS.items()}


def step_of(direction: object) -> tuple[int, int]:
    """``direction`` as a ``(dy, dx)`` step; ValueError naming a bad one."""
    if isinstance(direction, str) and direction in DIRECTIONS:
        return DIRECTIONS[direction]
    if isinstance(direction, (tuple, list)) and len(direction) == 2:
        try:
            step = (check_int("dy", direction[0], -1, 1), check_int("dx", direction[1], -1, 1))
        except (TypeError, ValueError):
            step = (0, 0)
        if step in _STEPS:
            return step
    names = ", ".join(repr(name) for name in DIRECTIONS)
    raise ValueError(
        f"direction must be one of {names} or a step (dy, dx) among {', '.join(map(str, _STEPS))}, "
        f"got {direction!r}"
    )
