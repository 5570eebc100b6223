"""The byte formats of saved state, and the values they hold: the
checkpoints of both streams and the command line's state file, in one place.

Every format is a body followed by its BLAKE2b digest (16 bytes):

* ``EllerStream.checkpoint()``: ``ELLER_HEADER`` (magic ``ELLRSTRM``,
  version, flags, width, seed, horizontal, vertical, rows as two 64-bit
  halves), then the row's sets as ``width`` little-endian int32;
* ``BandedStream.checkpoint()``, version 2: ``BANDED_HEADER`` (magic
  ``ELLRBAND``, version, flags, width, band, seed, start row, rows handed
  out as two 64-bit halves (a stream from row ``-2**63`` may hand out
  ``2**64`` rows), the length of what follows), then the maze's parameters
  (:class:`~eller_stream._params.BandParams`) as compact JSON with sorted
  keys, a name missing there taking its default (a knob added later is
  written only when it is off its default); a maze with a
  :class:`~eller_stream.Schedule` adds it there under ``"schedule"``
  (:meth:`~eller_stream.Schedule.as_json_value`, as long as its
  ``to_json()``), all of it at most :data:`MAX_PARAMS_BYTES`, for every
  reader: the schedule's own limit and room for the knobs, so that every
  maze's checkpoint can be read back.  Version 1 (read, no
  longer written) held ``horizontal``, ``vertical`` and ``doors`` as three
  doubles between the seed and the start row (``BANDED_V1_HEADER``);
* the state file of ``eller-stream --save-state``: ``ELLRCLI1``, the length
  and bytes of a checkpoint of either kind, the length and bytes of the last
  row written (0 or ``width`` bytes).

Every header has the width at byte 12 and the version at byte 8, so a
reader knows a checkpoint's size from its first bytes
(:func:`checkpoint_size`).  :func:`unpack_eller` and :func:`unpack_banded`
accept only states that :func:`pack_eller` and :func:`pack_banded` can
write back.
"""

from __future__ import annotations

import hashlib
import json
import struct
from dataclasses import dataclass
from typing import BinaryIO

import numpy as np

from ._json import loads
from ._params import BandParams
from ._schedule import MAX_JSON_BYTES, Schedule
from ._validate import MAX_BAND, MAX_WIDTH, ROW_LIMIT, SEED_LIMIT

DIGEST = 16
ELLER_MAGIC = b"ELLRSTRM"
ELLER_VERSION = 1
ELLER_HEADER = struct.Struct("<8sHHIQddQQ")
ELLER_MAX_ROWS = 2**127 - 1  # rows a stream hands out at most: far below what the format holds
BANDED_MAGIC = b"ELLRBAND"
BANDED_VERSION = 2
BANDED_HEADER = struct.Struct("<8sHHIQQqQQI")
BANDED_V1_HEADER = struct.Struct("<8sHHIQQdddqQ")
# The parameters' JSON, at most: a schedule's (as long as its to_json()) and the knobs around
# it, each name and float repr (24 characters at most) well within the 1 KiB of room.
MAX_PARAMS_BYTES = MAX_JSON_BYTES + 1024
STATE_MAGIC = b"ELLRCLI1"
_V2_KNOBS = ("horizontal", "vertical", "doors")  # the parameters version 2 first held
_LENGTH = struct.Struct("<I")
_MASK64 = 2**64 - 1


@dataclass(frozen=True)
class EllerState:
    """What an :class:`~eller_stream.EllerStream` checkpoint holds."""

    width: int
    seed: int
    horizontal: float
    vertical: float
    rows: int  # rows handed out
    left: np.ndarray  # the row sets, ``width`` int32 (see _eller_kernels)


@dataclass(frozen=True)
class BandedState:
    """What a :class:`~eller_stream.BandedStream` checkpoint holds."""

    width: int
    band: int
    seed: int
    params: BandParams
    start: int  # the row the stream started at
    rows: int  # rows handed out
    schedule: Schedule | None = None  # the maze's schedule, if any


def _corrupt(what: str) -> ValueError:
    return ValueError(f"checkpoint data is corrupt ({what})")


def seal(body: bytes) -> bytes:
    """``body`` and its digest."""
    return body + hashlib.blake2b(body, digest_size=DIGEST).digest()


def unseal(data: bytes, magic: bytes, size: int, what: str, name: str) -> bytes:
    """The body of sealed ``data``: it starts with ``magic`` and holds at
    least ``size`` bytes and the digest, or ``ValueError`` says that it is
    not ``what``; a digest that does not match says that ``name`` is
    corrupt."""
    if len(data) < size + DIGEST or not data.startswith(magic):
        raise ValueError(f"data is not {what}")
    body, digest = data[:-DIGEST], data[-DIGEST:]
    if hashlib.blake2b(body, digest_size=DIGEST).digest() != digest:
        raise ValueError(f"{name} is corrupt (checksum mismatch)")
    return body


def pack_eller(state: EllerState) -> bytes:
    """The bytes of an :class:`EllerState`."""
    header = ELLER_HEADER.pack(
        ELLER_MAGIC,
        ELLER_VERSION,
        0,
        state.width,
        state.seed,
        state.horizontal,
        state.vertical,
        state.rows & _MASK64,
        state.rows >> 64,
    )
    return seal(header + state.left[: state.width].astype("<i4").tobytes())


def unpack_eller(data: bytes) -> EllerState:
    """The :class:`EllerState` of checkpoint bytes (checked: every field in
    range, the sets' labels in ``[0, width)``; whether they are an Eller
    state is the stream's to check)."""
    if data.startswith(BANDED_MAGIC):
        raise ValueError("data is a banded-stream checkpoint: BandedStream.resume() continues it")
    body = unseal(data, ELLER_MAGIC, ELLER_HEADER.size, "an eller_stream checkpoint", "checkpoint data")
    _magic, version, flags, width, seed, h, v, lo, hi = ELLER_HEADER.unpack_from(body)
    if version != ELLER_VERSION or flags != 0:
        raise ValueError(f"checkpoint version {version} (flags {flags}) is not supported")
    if not 1 <= width <= MAX_WIDTH or len(body) != ELLER_HEADER.size + 4 * width:
        raise _corrupt("width does not match its length")
    if seed >= SEED_LIMIT or not (0.0 <= h <= 1.0 and 0.0 <= v <= 1.0):
        raise _corrupt("parameters out of range")
    rows = lo | (hi << 64)
    if rows > ELLER_MAX_ROWS:
        raise _corrupt(f"row count {rows} is beyond {ELLER_MAX_ROWS}")
    left = np.frombuffer(body, "<i4", width, ELLER_HEADER.size).astype(np.int32)
    if left.min() < 0 or left.max() >= width:
        raise _corrupt("row sets out of range")
    return EllerState(width, seed, h, v, rows, left)


def _params_json(params: BandParams, schedule: Schedule | None = None) -> bytes:
    # the first knobs always; a later one only off its default (which a reader takes for a
    # missing name), so that a maze without it saves the bytes it saved before it existed
    defaults = BandParams()
    values: dict[str, object] = {
        name: value
        for name, value in params.as_dict().items()
        if name in _V2_KNOBS or value != getattr(defaults, name)
    }
    if schedule is not None:
        values["schedule"] = schedule.as_json_value()
    return json.dumps(values, sort_keys=True, separators=(",", ":"), allow_nan=False).encode()


def pack_banded(state: BandedState) -> bytes:
    """The bytes of a :class:`BandedState` (version 2)."""
    params = _params_json(state.params, state.schedule)
    if len(params) > MAX_PARAMS_BYTES:  # cannot happen: a schedule's JSON is limited, and the knobs few
        raise ValueError(f"the maze's parameters take {len(params)} bytes, over {MAX_PARAMS_BYTES}")
    header = BANDED_HEADER.pack(
        BANDED_MAGIC,
        BANDED_VERSION,
        0,
        state.width,
        state.band,
        state.seed,
        state.start,
        state.rows & _MASK64,
        state.rows >> 64,
        len(params),
    )
    return seal(header + params)


def _banded_params(values: object) -> tuple[BandParams, Schedule | None]:
    try:
        if isinstance(values, bytes):
            values = loads(values.decode("utf-8"), "not JSON")
        if not isinstance(values, dict):
            raise ValueError("not an object")
        values = dict(values)
        schedule = values.pop("schedule", None)
        if schedule is not None:
            schedule = Schedule.from_json_value(schedule)
        return BandParams.from_dict(values), schedule
    except (ValueError, TypeError) as exc:
        raise _corrupt(f"parameters: {exc}") from None


def unpack_banded(data: bytes) -> BandedState:
    """The :class:`BandedState` of checkpoint bytes (version 1 or 2)."""
    if data.startswith(ELLER_MAGIC):
        raise ValueError("data is an EllerStream checkpoint: EllerStream.resume() continues it")
    body = unseal(data, BANDED_MAGIC, 16, "a banded-stream checkpoint", "checkpoint data")
    (version,) = struct.unpack_from("<H", body, 8)
    if version == 1 and len(body) == BANDED_V1_HEADER.size:
        _magic, _v, flags, width, band, seed, h, v, doors, start, rows = BANDED_V1_HEADER.unpack(body)
        params, schedule = _banded_params({"horizontal": h, "vertical": v, "doors": doors})
    elif version == BANDED_VERSION and len(body) >= BANDED_HEADER.size:
        _magic, _v, flags, width, band, seed, start, lo, hi, size = BANDED_HEADER.unpack_from(body)
        rows = lo | (hi << 64)
        if size > MAX_PARAMS_BYTES:  # the command line's reader refuses them before reading them
            raise _corrupt("parameters too long")
        if len(body) != BANDED_HEADER.size + size:
            raise _corrupt("parameters do not match their length")
        params, schedule = _banded_params(body[BANDED_HEADER.size :])
    else:
        raise ValueError(f"checkpoint version {version} is not supported (or its length is wrong)")
    if flags != 0:
        raise ValueError(f"checkpoint flags {flags} are not supported")
    if not 1 <= width <= MAX_WIDTH or band < 2 or seed >= SEED_LIMIT:
        raise _corrupt("parameters out of range")
    if band > MAX_BAND:  # a band that older versions allowed
        raise ValueError(f"the checkpoint's band of {band} rows is taller than the limit of {MAX_BAND}")
    if start + rows > ROW_LIMIT:  # rows up to 2**63 - 1 exist: a stream may have handed out the last
        raise _corrupt(f"start row {start} and {rows} rows pass row {ROW_LIMIT - 1}")
    return BandedState(width, band, seed, params, start, rows, schedule)


def checkpoint_size(head: bytes) -> int:
    """The size, digest included, that a checkpoint of either kind declares
    in its first bytes: 16 for the Eller stream and a banded version 1,
    ``BANDED_HEADER.size`` for a banded version 2 (:func:`header_size`)."""
    width = int(struct.unpack_from("<I", head, 12)[0])
    if not 1 <= width <= MAX_WIDTH:
        raise _corrupt("width out of range")
    if head.startswith(BANDED_MAGIC):
        (version,) = struct.unpack_from("<H", head, 8)
        if version == 1:
            return BANDED_V1_HEADER.size + DIGEST
        size = int(struct.unpack_from("<I", head, BANDED_HEADER.size - 4)[0])
        if size > MAX_PARAMS_BYTES:
            raise _corrupt("parameters too long")
        return BANDED_HEADER.size + size + DIGEST
    return ELLER_HEADER.size + 4 * width + DIGEST


def header_size(head: bytes) -> int:
    """How many first bytes :func:`checkpoint_size` needs (from the first 16)."""
    if head.startswith(BANDED_MAGIC) and struct.unpack_from("<H", head, 8)[0] != 1:
        return BANDED_HEADER.size
    return 16


def pack_state(checkpoint: bytes, last_row: bytes) -> bytes:
    """The state file: a checkpoint and the last row written (may be empty)."""
    body = STATE_MAGIC + _LENGTH.pack(len(checkpoint)) + checkpoint + _LENGTH.pack(len(last_row)) + last_row
    return seal(body)


def unpack_state(data: bytes) -> tuple[bytes, bytes]:
    """The checkpoint and the last row of a state file."""
    body = unseal(data, STATE_MAGIC, len(STATE_MAGIC) + 8, "an eller-stream state file", "state file")
    pos = len(STATE_MAGIC)
    (n,) = _LENGTH.unpack_from(body, pos)
    checkpoint = body[pos + 4 : pos + 4 + n]
    pos += 4 + n
    if len(checkpoint) != n or pos + 4 > len(body):
        raise ValueError("state file is corrupt (truncated)")
    (m,) = _LENGTH.unpack_from(body, pos)
    row = body[pos + 4 :]
    if len(row) != m:
        raise ValueError("state file is corrupt (bad length)")
    return checkpoint, row


def read_state(f: BinaryIO) -> bytes:
    """The bytes of a state file (or a bare checkpoint) from ``f``, read by
    the lengths the format declares: never more than the largest state a
    stream can save, and not a byte past its end (``/dev/zero`` is refused
    after its first bytes)."""

    def exactly(n: int) -> bytes:
        data = b""
        while len(data) < n:
            chunk = f.read(min(n - len(data), 1 << 20))
            if not chunk:
                raise ValueError("state file is corrupt (truncated)")
            data += chunk
        return data

    head = f.read(8)
    if head in (ELLER_MAGIC, BANDED_MAGIC):  # a bare checkpoint() of either stream
        header = head + exactly(16 - 8)
        header += exactly(header_size(header) - 16)
        data = header + exactly(checkpoint_size(header) - len(header))
    elif head == STATE_MAGIC:
        (n,) = _LENGTH.unpack(exactly(4))
        if not 16 <= n <= ELLER_HEADER.size + 4 * MAX_WIDTH + DIGEST:
            raise ValueError("state file is corrupt (bad length)")
        checkpoint = exactly(n)
        (width,) = struct.unpack_from("<I", checkpoint, 12)
        if n < header_size(checkpoint) or n != checkpoint_size(checkpoint):
            raise ValueError("state file is corrupt (bad length)")
        (m,) = _LENGTH.unpack(exactly(4))
        if m not in (0, width):
            raise ValueError("state file is corrupt (bad length)")
        data = head + _LENGTH.pack(n) + checkpoint + _LENGTH.pack(m) + exactly(m + DIGEST)
    else:
        raise ValueError("not an eller-stream state file")
    if f.read(1):
        raise ValueError("state file is corrupt (bytes after its end)")
    return data
