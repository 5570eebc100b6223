"""The byte formats of saved state: the checkpoints of both streams and the
command line's state file, in one place.

Every format is a body followed by its BLAKE2b digest (16 bytes):

* ``EllerStream.checkpoint()``: ``ELLER_HEADER`` (magic ``ELLRSTRM``,
  version, flags, width, seed, horizontal, vertical, rows as two 64-bit
  halves), then the row's sets as ``width`` little-endian int32;
* ``BandedStream.checkpoint()``: ``BANDED_HEADER`` alone (magic
  ``ELLRBAND``, version, flags, width, band, seed, horizontal, vertical,
  doors, start row, rows handed out);
* the state file of ``eller-stream --save-state``: ``ELLRCLI1``, the length
  and bytes of a checkpoint of either kind, the length and bytes of the last
  row written (0 or ``width`` bytes).

Both headers have the width at byte 12, so a reader knows a checkpoint's
size from its first 16 bytes.
"""

from __future__ import annotations

import hashlib
import struct
from typing import BinaryIO

from ._validate import MAX_WIDTH

DIGEST = 16
ELLER_MAGIC = b"ELLRSTRM"
ELLER_VERSION = 1
ELLER_HEADER = struct.Struct("<8sHHIQddQQ")
BANDED_MAGIC = b"ELLRBAND"
BANDED_VERSION = 1
BANDED_HEADER = struct.Struct("<8sHHIQQdddqQ")
STATE_MAGIC = b"ELLRCLI1"
_LENGTH = struct.Struct("<I")


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


def checkpoint_size(head: bytes) -> int:
    """The size, digest included, that a checkpoint of either kind declares
    in its first 16 bytes."""
    (width,) = struct.unpack_from("<I", head, 12)
    if not 1 <= width <= MAX_WIDTH:
        raise ValueError("checkpoint data is corrupt (width out of range)")
    if head.startswith(BANDED_MAGIC):
        return BANDED_HEADER.size + DIGEST
    return ELLER_HEADER.size + 4 * width + DIGEST


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
        data = header + exactly(checkpoint_size(header) - 16)
    elif head == STATE_MAGIC:
        (n,) = _LENGTH.unpack(exactly(4))
        if not 16 <= n <= ELLER_HEADER.size + 4 * MAX_WIDTH + DIGEST:
            raise ValueError("state file is corrupt (bad length)")
        checkpoint = exactly(n)
        (width,) = struct.unpack_from("<I", checkpoint, 12)
        if n != checkpoint_size(checkpoint):
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
