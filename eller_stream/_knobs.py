"""Knobs declared once: the machinery of the parameter values
(:class:`~eller_stream.BandParams`, :class:`~eller_stream.PlaneParams`).

A value is a frozen dataclass whose fields are made by :func:`knob`: each
holds its default, the check that turns a given value into the stored one,
the help text of its command-line option and its kind (``float`` or
``bool``). :class:`Knobs` gives every such value its names, checks,
defaults, help, dict form and text parsing, so that what takes the
parameters (the command line, the server's query, checkpoints) follows a new
knob without being edited.

>>> from eller_stream._plane_params import PlaneParams
>>> PlaneParams.names()
('perfect', 'horizontal', 'vertical')
>>> PlaneParams.parse("perfect", "false"), PlaneParams.parse("horizontal", "0.25")
(False, 0.25)
"""

from __future__ import annotations

import dataclasses
from dataclasses import field
from typing import Any, ClassVar, TypeVar

import numpy as np

from ._validate import shown

__all__ = ["Knobs", "check_flag", "knob"]

T = TypeVar("T", bound="Knobs")

_TRUE = ("1", "true", "yes", "on")
_FALSE = ("0", "false", "no", "off")


def knob(default: Any, check: Any, help: str, whole: bool = False, kind: type = float) -> Any:
    """A field of a :class:`Knobs` value: its default, the check that turns a
    given value into the stored one (``check(name, value)``), the help text
    of its command-line option (``--NAME``), whether it makes a band whole
    (the banded maze's loops and rooms) and its kind (``float`` or ``bool``)."""
    return field(default=default, metadata={"check": check, "help": help, "whole": whole, "kind": kind})


def check_flag(name: str, value: object) -> bool:
    """``value`` as a bool: ``True``/``False`` (numpy's too), or a
    ``TypeError`` naming it (``1`` is not a flag: say ``True``)."""
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be True or False, got {type(value).__name__}: {shown(value)}")
    return bool(value)


class Knobs:
    """The shared behaviour of the parameter values (a frozen dataclass
    subclass whose fields are :func:`knob` fields)."""

    _what: ClassVar[str] = "knob"  # what the values are of, for error messages

    def __post_init__(self) -> None:
        for name in self.names():
            value = self.check(name, getattr(self, name))
            if isinstance(value, float):  # + 0.0 turns -0.0 into 0.0 (same thresholds): one text in files
                value += 0.0
            object.__setattr__(self, name, value)

    @classmethod
    def names(cls) -> tuple[str, ...]:
        """The parameters' names, in order."""
        return tuple(f.name for f in dataclasses.fields(cls))  # type: ignore[arg-type]

    @classmethod
    def _field(cls, name: str) -> dataclasses.Field[Any]:
        for f in dataclasses.fields(cls):  # type: ignore[arg-type]
            if f.name == name:
                return f
        raise ValueError(f"unknown {cls._what} parameter {name!r}")

    @classmethod
    def check(cls, name: str, value: object) -> Any:
        """Parameter ``name``'s check of ``value``: the value it stores, or a
        ``TypeError``/``ValueError`` naming it."""
        return cls._field(name).metadata["check"](name, value)

    @classmethod
    def default(cls, name: str) -> Any:
        """Parameter ``name``'s default."""
        return cls._field(name).default

    @classmethod
    def kind(cls, name: str) -> type:
        """Parameter ``name``'s kind: ``float`` or ``bool``."""
        kind: type = cls._field(name).metadata["kind"]
        return kind

    @classmethod
    def help(cls, name: str) -> str:
        """The help text of parameter ``name`` (for its command-line option)."""
        f = cls._field(name)
        return f"{f.metadata['help']} ({f.default})"

    @classmethod
    def parse(cls, name: str, text: str) -> Any:
        """Parameter ``name`` from its text (a command-line option, a query
        string), checked: a float, or for a flag one of ``true``/``false``
        (also ``1``/``0``, ``yes``/``no``, ``on``/``off``)."""
        if cls.kind(name) is bool:
            lowered = text.strip().lower()
            if lowered not in _TRUE + _FALSE:
                raise ValueError(f"{name} must be true or false, got {shown(text)}")
            return lowered in _TRUE
        try:
            number = float(text)
        except ValueError:
            raise ValueError(f"{name} must be a number, got {shown(text)}") from None
        return cls.check(name, number)

    def as_dict(self) -> dict[str, Any]:
        """The parameters by name."""
        return {name: getattr(self, name) for name in self.names()}

    @classmethod
    def from_dict(cls: type[T], values: dict[str, Any]) -> T:
        """The value of :meth:`as_dict`'s dict; a missing name takes its
        default (so that states saved before a knob existed still load), an
        unknown one is a ``ValueError``."""
        unknown = sorted(set(values) - set(cls.names()))
        if unknown:
            raise ValueError(f"unknown {cls._what} parameter {unknown[0]!r}")
        return cls(**values)

    def replace(self: T, **changes: Any) -> T:
        """This value with some parameters changed (and checked)."""
        return dataclasses.replace(self, **changes)  # type: ignore[type-var]
