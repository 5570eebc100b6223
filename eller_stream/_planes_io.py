"""A word of 64 cells into and out of :mod:`._eller_planes`: the row's
draws as two bit masks, and two masks of flags as the row's bytes.

Cell ``b`` of a word draws ``mix64(point + b * DRAW_STEP)`` (``_rng``):
its east wall opens (joins) when the low 32 bits are below ``join_below``,
its south wall closes when the high 32 bits are at least ``open_below``.
:func:`draw_masks` makes the 64 draws as one vector (eight AVX-512
registers) and turns each comparison straight into its bit of a mask; a
loop over the cells spent as much again moving each comparison into its
bit.  :func:`store_flags` writes 64 cells' EAST and SOUTH flags with one
vector store (:func:`store_word`: a word of a row, its last one partial).

Run as plain Python (``NUMBA_DISABLE_JIT=1``, the lean backend) each is its
twin, a cell at a time.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._numba import _U64, Int64, _at, _Codegen, _intrinsic, _is_bytes, _njit, _splat
from ._rng import _GOLDEN, _LOW32, _MIX1, _MIX2, _S32, _mix64_int

CELLS = 64


def _draw_masks_twin(
    point: np.uint64, count: Int64, join_below: np.uint64, open_below: np.uint64
) -> tuple[np.uint64, np.uint64]:
    """(joins, closes) of the ``count`` (1 to 64) cells from ``point``."""
    joins = 0
    closes = 0
    for b in range(int(count)):
        bits = _mix64_int((int(point) + b * int(_GOLDEN)) % 2**64)
        joins |= int((bits & int(_LOW32)) < int(join_below)) << b
        closes |= int((bits >> int(_S32)) >= int(open_below)) << b
    return _U64(joins), _U64(closes)


def _draw_masks_typer(
    typingctx: Any, point: Any, count: Any, join_below: Any, open_below: Any
) -> tuple[Any, _Codegen]:
    """(joins, closes) of the ``count`` (1 to 64) cells whose first draw
    point is ``point``: bit ``b`` of each mask for cell ``b``, zero from
    ``count`` on."""
    from llvmlite import ir
    from numba import types

    u64 = types.uint64
    pair: Any = types.UniTuple(u64, 2)  # type: ignore[no-untyped-call]
    signature = pair(u64, types.int64, u64, u64)

    def codegen(context: Any, builder: Any, sig: Any, args: Any) -> Any:
        i64 = ir.IntType(64)
        vec = ir.VectorType(i64, CELLS)

        def const(value: int) -> Any:
            return ir.Constant(vec, [value] * CELLS)

        steps = ir.Constant(vec, [b * int(_GOLDEN) % 2**64 for b in range(CELLS)])
        z = builder.add(_splat(builder, args[0], CELLS), steps)
        for shift, factor in ((30, int(_MIX1)), (27, int(_MIX2))):  # mix64, lane by lane
            z = builder.mul(builder.xor(z, builder.lshr(z, const(shift))), const(factor))
        z = builder.xor(z, builder.lshr(z, const(31)))
        joins = builder.icmp_unsigned(
            "<", builder.and_(z, const(int(_LOW32))), _splat(builder, args[2], CELLS)
        )
        closes = builder.icmp_unsigned(
            ">=", builder.lshr(z, const(int(_S32))), _splat(builder, args[3], CELLS)
        )
        # the low ``count`` bits: all ones shifted right by 64 - count (count >= 1)
        valid = builder.lshr(ir.Constant(i64, 2**64 - 1), builder.sub(ir.Constant(i64, 64), args[1]))
        pair = [builder.and_(builder.bitcast(mask, i64), valid) for mask in (joins, closes)]
        return context.make_tuple(builder, sig.return_type, pair)

    return signature, codegen


draw_masks = _intrinsic(_draw_masks_typer, _draw_masks_twin)


def _store_flags_twin(row: np.ndarray, start: Int64, east: np.uint64, south: np.uint64) -> None:
    """``row[start + b] = EAST * bit b of east | SOUTH * bit b of south``, b in 0 .. 63."""
    for b in range(CELLS):
        row[int(start) + b] = ((int(east) >> b) & 1) | (((int(south) >> b) & 1) << 1)


def _store_flags_typer(typingctx: Any, row: Any, start: Any, east: Any, south: Any) -> tuple[Any, _Codegen]:
    """The 64 bytes of ``row`` (C-contiguous uint8) from ``start``: a cell's
    EAST flag from its bit of ``east``, its SOUTH flag from ``south``; one
    vector store (``vpmovm2b`` from each mask)."""
    from llvmlite import ir
    from numba import types

    if not _is_bytes(row):
        return None  # type: ignore[return-value]  # numba: no such signature

    def codegen(context: Any, builder: Any, sig: Any, args: Any) -> Any:
        vec = ir.VectorType(ir.IntType(8), CELLS)
        zero = ir.Constant(vec, [0] * CELLS)
        flags = []
        for mask, flag in ((args[2], 1), (args[3], 2)):
            where = builder.bitcast(mask, ir.VectorType(ir.IntType(1), CELLS))
            flags.append(builder.select(where, ir.Constant(vec, [flag] * CELLS), zero))
        builder.store(builder.or_(flags[0], flags[1]), _at(context, builder, sig, args, vec), align=1)
        return context.get_dummy_value()

    return types.void(row, types.int64, types.uint64, types.uint64), codegen


store_flags = _intrinsic(_store_flags_typer, _store_flags_twin)


@_njit(inline="ir")
def store_word(row: np.ndarray, i: Int64, east: np.uint64, south: np.uint64) -> None:
    """Word ``i`` of ``row``'s flags (:func:`store_flags`): a whole word in
    one vector store, the row's last, partial word a cell at a time."""
    width = row.shape[0]
    if i * CELLS + CELLS <= width:
        store_flags(row, i * CELLS, east, south)
        return
    for b in range(width - i * CELLS):
        e = (east >> _U64(b)) & _U64(1)
        s = (south >> _U64(b)) & _U64(1)
        row[i * CELLS + b] = np.uint8(e | (s << _U64(1)))
