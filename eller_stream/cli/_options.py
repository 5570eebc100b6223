"""Options, each declared once, with a ``type=`` converter built over
``_validate``: argparse then names the option the user typed in every error
(``eller-stream: error: argument --band: band must be in [...]``)."""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable
from typing import NamedTuple, TypeVar

from .. import _validate as v
from .._knobs import Knobs
from .._params import BandParams
from .._plane_params import PlaneParams
from .._schedule import MAX_TEXT_BYTES, Schedule
from ..banded import MAX_BAND, ROW_LIMIT
from ..plane import LIMIT, MAX_CHUNK
from ._common import UsageError

# The banded maze's parameters that only it takes: each is an option --NAME,
# declared from BandParams (horizontal and vertical are Eller's options too).
BANDED_ONLY = tuple(name for name in BandParams.names() if name not in ("horizontal", "vertical"))
# The plane's likewise, declared from PlaneParams: a knob of both is one option.
PLANE_ONLY = tuple(name for name in PlaneParams.names() if name not in BandParams.names())

T = TypeVar("T")


def checked(check: Callable[[T], T], parse: Callable[[str], T], what: str) -> Callable[[str], T]:
    """A ``type=`` converter: ``parse`` the text, then ``check`` the value;
    either failure is an ``ArgumentTypeError`` (argparse adds the option)."""

    def convert(text: str) -> T:
        try:
            value = parse(text)
        except ValueError as exc:
            detail = str(exc) if isinstance(exc, TooLong) else f"must be {what}, got {_quoted(text)}"
            raise argparse.ArgumentTypeError(detail) from None
        try:
            return check(value)
        except (TypeError, ValueError) as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None

    return convert


class TooLong(ValueError):
    """An integer written with more digits than Python converts."""


def _quoted(text: str) -> str:
    """``text`` for an error line: cut when long."""
    return repr(text) if len(text) <= 60 else f"{text[:40]!r}... ({len(text)} characters)"


def _integer(text: str) -> int:
    try:
        return int(text, 0)
    except ValueError:
        digits = text.strip().lstrip("+-")
        if digits.isdigit() and digits.isascii():  # an integer, past Python's digit limit
            raise TooLong(f"must be an integer of at most 4300 digits, got one of {len(digits)}") from None
        raise


def option_int(name: str, low: int, high: int | None = None) -> Callable[[str], int]:
    """An integer in ``[low, high]``."""
    return checked(lambda value: v.check_int(name, value, low, high), _integer, "an integer")


def option_probability(name: str) -> Callable[[str], float]:
    """A number in ``[0, 1]``."""
    return checked(lambda value: v.check_probability(name, value), float, "a number")


class ScheduleFile(NamedTuple):
    """A schedule and the file it was read from (a picture records the file)."""

    path: str
    schedule: Schedule


def schedule_of(args: argparse.Namespace) -> Schedule | None:
    """The schedule that --schedule gave, if any."""
    return None if args.schedule is None else args.schedule.schedule


def _schedule(path: str) -> ScheduleFile:
    """The schedule in file ``path`` (the JSON of ``Schedule.to_json()``),
    with the library's limits and checks (``Schedule.from_json``): what it
    takes, a checkpoint holds and ``--resume`` reads back."""
    try:
        with open(path, "rb") as f:
            text = f.read(MAX_TEXT_BYTES + 1)  # from_json refuses more: no need to read it all
    except OSError as exc:
        raise argparse.ArgumentTypeError(f"cannot read {path!r}: {exc.strerror or exc}") from None
    try:
        return ScheduleFile(path, Schedule.from_json(text))
    except (TypeError, ValueError) as exc:
        raise argparse.ArgumentTypeError(f"{path!r} is not a schedule: {exc}") from None


def _knob(name: str, knobs: type[Knobs] = BandParams) -> Callable[[str], float]:
    """A number that the check of knob ``name`` (of ``knobs``) takes."""
    return checked(lambda value: float(knobs.check(name, value)), float, "a number")


def _rate(value: float) -> float:
    if math.isnan(value) or math.isinf(value) or value < 0:
        raise ValueError(f"must be a finite number >= 0, got {value!r}")
    return value


width_type = checked(v.check_width, _integer, "an integer")
seed_type = checked(v.check_seed, _integer, "an integer")
rows_type = option_int("rows", 1)
rate_type = checked(_rate, float, "a number")
band_type = option_int("band", 2, MAX_BAND)
start_type = option_int("start", -ROW_LIMIT, ROW_LIMIT - 1)
chunk_type = option_int("chunk", 1, MAX_CHUNK)
left_type = option_int("left", -LIMIT, LIMIT - 1)


def add_width(p: argparse.ArgumentParser, help: str, default: int | None = None) -> None:
    p.add_argument("--width", type=width_type, default=default, help=help)


def add_seed(p: argparse.ArgumentParser) -> None:
    p.add_argument("--seed", type=seed_type, help="an integer in [0, 2**64) (default: random)")


def add_probabilities(p: argparse.ArgumentParser, horizontal: str, vertical: str) -> None:
    p.add_argument("--horizontal", type=option_probability("horizontal"), help=horizontal)
    p.add_argument("--vertical", type=option_probability("vertical"), help=vertical)


def add_banded(p: argparse.ArgumentParser, plane: bool = False) -> None:
    """--band, --start, the banded maze's knobs and --schedule (``plane``:
    the command takes the plane's --chunk too, which --start serves)."""
    p.add_argument(
        "--band",
        type=band_type,
        metavar="K",
        help=f"the banded maze (InfiniteMaze) with K rows per band, 2 <= K <= {MAX_BAND}",
    )
    p.add_argument(
        "--start",
        type=start_type,
        metavar="ROW",
        help=f"with --band{' or --chunk' if plane else ''}: the first row, any integer (0)",
    )
    for name in BANDED_ONLY:
        p.add_argument(
            f"--{name}", type=_knob(name), metavar="P", help=f"with --band: {BandParams.help(name)}"
        )
    p.add_argument(
        "--schedule",
        type=_schedule,
        metavar="FILE",
        help="with --band: parameters by band, the JSON of es.Schedule.to_json()",
    )


def check_banded(args: argparse.Namespace) -> None:
    """--start and the banded maze's own parameters need --band (--start
    the plane's --chunk too, where the command takes it)."""
    plane = getattr(args, "chunk", None) is not None
    if args.band is None:
        for name in ("start", *BANDED_ONLY, "schedule"):
            if getattr(args, name) is not None and not (plane and name == "start"):
                needs = "--band or --chunk" if name == "start" and hasattr(args, "chunk") else "--band"
                raise UsageError(f"--{name} needs {needs}")


def add_plane(p: argparse.ArgumentParser) -> None:
    """--chunk (the plane), --left and the plane's own knobs: a flag
    ``--NAME/--no-NAME``, a number ``--NAME P``, as PlaneParams declares them."""
    p.add_argument(
        "--chunk",
        type=chunk_type,
        metavar="N",
        help=f"the plane (es.Plane) with chunks of N x N cells, 1 <= N <= {MAX_CHUNK}: "
        "--start, --rows, --left and --width choose the region",
    )
    p.add_argument("--left", type=left_type, metavar="COLUMN", help="with --chunk: the first column (0)")
    for name in PLANE_ONLY:
        what = f"with --chunk: {PlaneParams.help(name)}"
        if PlaneParams.kind(name) is bool:
            p.add_argument(f"--{name}", action=argparse.BooleanOptionalAction, default=None, help=what)
        else:
            p.add_argument(f"--{name}", type=_knob(name, PlaneParams), metavar="P", help=what)


def check_plane(args: argparse.Namespace) -> None:
    """--left and the plane's own knobs need --chunk; --chunk takes no --band."""
    if args.chunk is None:
        for name in ("left", *PLANE_ONLY):
            if getattr(args, name) is not None:
                raise UsageError(f"--{_flag(name, getattr(args, name))} needs --chunk")
    elif args.band is not None:
        raise UsageError("--chunk draws the plane, --band the banded maze: give one of them")


def check_no_pixels(args: argparse.Namespace, what: str) -> None:
    """Refuse --cell and --wall where no picture is drawn (``what``: what is written instead)."""
    for flag, value in (("--cell", args.cell), ("--wall", args.wall)):
        if value is not None:
            raise UsageError(f"{flag} sizes a picture's pixels (.png or .svg); {what}")


def plane_region(args: argparse.Namespace) -> tuple[int, int, int, int]:
    """The region ``y0, y1, x0, x1`` that --start, --rows, --left and
    --width give, checked to lie in the plane's ``[-2**62, 2**62)``."""
    start = 0 if args.start is None else args.start
    left = 0 if args.left is None else args.left
    for option, first, count, size in (
        ("--start", start, args.rows, "--rows"),
        ("--left", left, args.width, "--width"),
    ):
        if first < -LIMIT or first + count > LIMIT:
            raise UsageError(
                f"{option} {first} and {size} {count}: the plane's rows and columns are in "
                f"[-2**62, 2**62), [{-LIMIT}, {LIMIT})"
            )
    return start, start + args.rows, left, left + args.width


def _flag(name: str, value: object) -> str:
    """The option as typed: ``no-NAME`` for a flag given as false."""
    return f"no-{name}" if value is False else name


def plane_params(args: argparse.Namespace) -> PlaneParams:
    """The PlaneParams of the options given (the others take their defaults)."""
    given = {name: getattr(args, name) for name in PlaneParams.names() if getattr(args, name) is not None}
    return PlaneParams(**given)


def plane_options(params: PlaneParams) -> list[str]:
    """The options that give the plane-only knobs of ``params``."""
    out = []
    for name in PLANE_ONLY:
        value = getattr(params, name)
        out.append(f"--{_flag(name, value)}" if PlaneParams.kind(name) is bool else f"--{name} {value!r}")
    return out


def band_params(args: argparse.Namespace) -> BandParams:
    """The BandParams of the options given (the others take their defaults)."""
    given = {name: getattr(args, name) for name in BandParams.names() if getattr(args, name) is not None}
    return BandParams(**given)


def band_options(params: BandParams) -> list[str]:
    """The options that give the banded-only parameters of ``params``."""
    return [f"--{name} {getattr(params, name)!r}" for name in BANDED_ONLY]
