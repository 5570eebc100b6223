"""Reading JSON that comes from outside (a file, a query, a checkpoint, a
store's metadata): :func:`loads`, the package's one way to do it.

``json.loads`` alone lets hostile text out as something other than a clear
``ValueError``, or not at all: deep nesting raises ``RecursionError``, an
integer of over 4300 digits a ``ValueError`` that names no argument and
points at ``sys.set_int_max_str_digits``, a repeated key silently keeps its
last value, and ``NaN`` or ``Infinity`` are read as numbers.  :func:`loads`
refuses each with a ``ValueError`` that starts with what was being read.

>>> loads('{"a": [1, 2.5]}', "the example")
{'a': [1, 2.5]}
>>> loads('{"a": 1, "a": 2}', "the example")
Traceback (most recent call last):
...
ValueError: the example: the key 'a' twice
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

__all__ = [
    "MAX_DIGITS",
    "check_seed_text",
    "integer",
    "json_kind",
    "loads",
    "read_as",
    "saved_object",
    "shown_json",
]

MAX_DIGITS = 4300  # an integer's digits at most (Python's default limit, whatever the interpreter's)
_SEED_TEXT = re.compile(r"0|[1-9][0-9]{0,19}")


def _unique(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out = dict(pairs)
    if len(out) < len(pairs):  # some key twice: the first one named
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise ValueError(f"the key {key!r} twice")
            seen.add(key)
    return out


def _integer(text: str) -> int:
    digits = len(text) - text.startswith("-")
    if digits > MAX_DIGITS:
        raise ValueError(f"an integer of {digits} digits (at most {MAX_DIGITS})")
    return int(text)


def _no_constant(name: str) -> None:
    raise ValueError(f"{name} is not a number")


def loads(text: str | bytes, what: str) -> Any:
    """The value of JSON ``text`` (``bytes`` as ``json.loads`` reads them),
    or a ``ValueError`` ``"{what}: ..."``: for text that is not JSON, that
    nests arrays or objects too deeply for the parser (about 1000 levels),
    that names a key of an object twice, that holds an integer of over
    :data:`MAX_DIGITS` digits, or ``NaN``, ``Infinity`` or ``-Infinity``.

    >>> loads("[" * 5000, "the example")
    Traceback (most recent call last):
    ...
    ValueError: the example: arrays or objects nested too deeply
    """
    try:
        return json.loads(text, object_pairs_hook=_unique, parse_int=_integer, parse_constant=_no_constant)
    except RecursionError:
        raise ValueError(f"{what}: arrays or objects nested too deeply") from None
    except ValueError as exc:  # JSONDecodeError, UnicodeDecodeError, and the hooks'
        raise ValueError(f"{what}: {exc}") from None


T = TypeVar("T")


def read_as(text: object, kind: str, parse: Callable[[Any], T], limit: int | None = None) -> T:
    """``parse`` of JSON ``text`` (str or bytes; at most ``limit`` long), a
    ``kind``'s saved form ("an InfiniteMaze"): every error a ``ValueError``
    that starts with ``"not <kind>'s JSON: "``, a ``TypeError`` for text that
    is no str or bytes."""
    what = f"not {kind}'s JSON"
    if not isinstance(text, (str, bytes)):
        raise TypeError(f"{kind}'s JSON must be str or bytes, got {type(text).__name__}")
    if limit is not None and len(text) > limit:
        raise ValueError(f"{what}: {len(text)} characters, over the limit of {limit}")
    value = loads(text, what)
    try:
        return parse(value)
    except ValueError as exc:
        raise ValueError(f"{what}: {exc}") from None


# -- the values of what was read ----------------------------------------------------------------
def saved_object(
    value: object, kind: str, keys: Sequence[str], required: Sequence[str], version: int
) -> dict[str, Any]:
    """``value``, a saved ``kind``'s JSON object ("the maze"): of no key but
    ``keys``, with every key of ``required`` (``"version"`` among them), its
    ``"version"`` the int ``version``; else a ``ValueError`` naming what is
    wrong."""
    if not isinstance(value, dict):
        raise ValueError(f"{kind} must be a JSON object, got {json_kind(value)}")
    unknown = [key for key in value if key not in keys]
    if unknown:
        raise ValueError(f"unknown key {unknown[0]!r} (the keys: {', '.join(keys)})")
    for key in required:
        if key not in value:
            raise ValueError(f"the key {key!r} is missing")
    found = value["version"]
    if type(found) is not int or found != version:
        raise ValueError(f"version {json.dumps(found)} is not supported (this reads version {version})")
    return value


def check_seed_text(seed: object) -> int:
    """The seed of a saved maze or plane: a decimal string of an int in
    ``[0, 2**64)`` (no sign, no leading zero), else a ``ValueError``."""
    if not isinstance(seed, str) or not _SEED_TEXT.fullmatch(seed) or int(seed) >= 2**64:
        raise ValueError(f"seed must be a decimal string of an int in [0, 2**64), got {shown_json(seed)}")
    return int(seed)


def integer(name: str, value: object) -> int:
    """``value``, the JSON of an int (not a float such as 24.0, nor a
    bool), else a ``ValueError`` naming ``name``."""
    if type(value) is not int:
        raise ValueError(f"{name} must be a JSON integer, got {shown_json(value)}")
    return value


def json_kind(value: object) -> str:
    """What a JSON value is, in words ("an object", "a number", ...)."""
    names = {dict: "an object", list: "an array", str: "a string", bool: "a boolean", type(None): "null"}
    return names.get(type(value), "a number")


def shown_json(value: object) -> str:
    """A JSON value as it reads, cut to 40 characters (an object or array by its kind)."""
    text = json.dumps(value) if not isinstance(value, (dict, list)) else json_kind(value)
    return text if len(text) <= 40 else text[:37] + "..."
