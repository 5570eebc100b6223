"""The per-depth passes of :mod:`._eller_planes`, eight depths at once.

A word of a row on planes is worked once per depth of the sets open across
it (``_conn`` and ``_fill``), and the depths are independent of one
another: each keeps its own carries from word to word.  :func:`conn_pass`
and :func:`fill_pass` take depths ``g .. g + 7`` together, a lane of a
vector of eight 64-bit words each (one AVX-512 register), over all the
words of a row, the carries of the eight lanes in registers from word to
word; each word gets the OR of its eight lanes (``g`` 9, the depths 9-15 of
a deeper row, ORs into what ``g`` 1 wrote).  A lane whose depth no cell of
the row has adds nothing, so a row of depth ``most`` takes
``range(1, most + 1, LANES)``; lanes past depth 15 (which the four depth
planes cannot spell) hold no cell.  The loop vectorizer does not make
these: a depth's constants fold differently lane by lane, so the lanes are
written here in llvmlite IR.

Run as plain Python (``NUMBA_DISABLE_JIT=1``, the lean backend) each is
its twin: the same rule, a depth and a word at a time.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._numba import _U64, Int64, _Codegen, _intrinsic, _njit, _splat

LANES = 8

_Z = _U64(0)
_1 = _U64(1)
_63 = _U64(63)


@_njit(inline="always")
def _ones(k: Int64, b: Int64) -> np.uint64:
    """All ones where bit ``b`` of ``k`` is set, else zero."""
    return _Z - ((_U64(k) >> _U64(b)) & _1)


@_njit(inline="always")
def _eq(d0: np.uint64, d1: np.uint64, d2: np.uint64, d3: np.uint64, d: Int64) -> np.uint64:
    """Where the four-plane number is ``d``."""
    return ~(d0 ^ _ones(d, 0)) & ~(d1 ^ _ones(d, 1)) & ~(d2 ^ _ones(d, 2)) & ~(d3 ^ _ones(d, 3))


def _smear_twin(v: np.uint64, s: np.uint64, carry: np.ndarray, top: np.ndarray, d: Int64) -> np.uint64:
    """Where a source (``s``, within ``v``) lies at or before each bit with
    ``v`` unbroken since, one bit later: an addition's carries, run on
    across words in ``carry[d]`` and ``top[d]`` (sums modulo 2**64)."""
    mask = (1 << 64) - 1
    t1 = (int(v) + int(s)) & mask
    t2 = (t1 + int(carry[d])) & mask
    carry[d] = _U64(int(t1 < int(v)) | int(t2 < t1))
    seen = ((t2 ^ int(v)) | int(s)) & int(v)
    top_in = int(top[d])
    top[d] = _U64(seen >> 63)
    return _U64(((seen << 1) & mask) | top_in)


def _at_depth_twin(
    d0: np.uint64, d1: np.uint64, d2: np.uint64, d3: np.uint64, p: np.uint64, n: np.uint64, d: Int64
) -> tuple[np.uint64, np.uint64]:
    """(the cells at depth ``d``, the cells of the depth-``d`` sets): the
    latter are the members there that do not close a set, and the closes
    one depth up (a set's last cell is at its depth less one after it)."""
    closes = p & ~n
    here = _eq(d0, d1, d2, d3, d)
    return here, ((p | n) & ~closes & here) | (closes & _eq(d0, d1, d2, d3, d - 1))


def _lanes_twin(
    fill: bool, carry: np.ndarray, top: np.ndarray, g: Int64, d0: np.uint64, d1: np.uint64, d2: np.uint64,
    d3: np.uint64, p: np.uint64, n: np.uint64, x: np.uint64,
) -> np.uint64:  # fmt: skip
    """Depths ``g .. g + 7`` of ``_eller_planes._fill`` (``fill``; ``x``: the
    sources) or ``_eller_planes._conn`` (``x``: the walls) for one word."""
    out = _Z
    for d in range(int(g), min(int(g) + LANES, 16)):  # the planes hold depths 0 .. 15
        here, m = _at_depth_twin(d0, d1, d2, d3, p, n, d)
        if fill:
            first = ~p & n & here
            s = m & x
            out |= m & _smear_twin(~first | s, s, carry, top, d) & ~first
        else:
            w = here & x
            out |= here & ~(_smear_twin(~(m & ~w), w, carry, top, d) & ~m)
    return out


class _Vectors:
    """llvmlite code on vectors of ``LANES`` 64-bit words (the lanes)."""

    def __init__(self, builder: Any) -> None:
        from llvmlite import ir

        self.ir = ir
        self.b = builder
        self.vec = ir.VectorType(ir.IntType(64), LANES)
        self.undef = ir.Constant(self.vec, ir.Undefined)

    def const(self, value: int) -> Any:
        return self.ir.Constant(self.vec, [value] * LANES)

    def shuffle(self, v: Any, picks: list[int]) -> Any:
        return self.b.shuffle_vector(
            v, self.undef, self.ir.Constant(self.ir.VectorType(self.ir.IntType(32), LANES), picks)
        )

    def splat(self, value: Any) -> Any:
        return _splat(self.b, value, LANES)

    def eq(self, planes: tuple[Any, ...], depth: Any) -> Any:
        """Where the four planes spell each lane's ``depth``."""
        b = self.b
        diff = self.const(0)
        for k, plane in enumerate(planes):
            ones = b.sub(self.const(0), b.and_(b.lshr(depth, self.const(k)), self.const(1)))
            diff = b.or_(diff, b.xor(plane, ones))
        return b.not_(diff)

    def smear(self, v: Any, s: Any, carry_at: Any, top_at: Any) -> Any:
        """The twins' ``_smear_twin`` in each lane, its carries in the two
        slots (allocas: LLVM keeps them in registers across the words)."""
        b = self.b
        t1 = b.add(v, s)
        t2 = b.add(t1, b.load(carry_at))
        below_v = b.zext(b.icmp_unsigned("<", t1, v), self.vec)
        b.store(b.or_(below_v, b.zext(b.icmp_unsigned("<", t2, t1), self.vec)), carry_at)
        seen = b.and_(b.or_(b.xor(t2, v), s), v)
        before = b.or_(b.shl(seen, self.const(1)), b.load(top_at))
        b.store(b.lshr(seen, self.const(63)), top_at)
        return before

    def or_lanes(self, v: Any) -> Any:
        """The OR of the lanes, as one 64-bit word (halving the vector)."""
        width = LANES
        while width > 1:
            width //= 2
            v = self.b.or_(v, self.shuffle(v, [width + j for j in range(width)] + [0] * (LANES - width)))
        return self.b.extract_element(v, self.ir.Constant(self.ir.IntType(32), 0))


def _pass_twin(fill: bool) -> Any:
    """The twin of :func:`conn_pass` (``fill`` false) or :func:`fill_pass`:
    :func:`_lanes_twin` word by word, the carries from word to word."""

    def twin(
        P: np.ndarray, N: np.ndarray, D: np.ndarray, X: np.ndarray, out: np.ndarray, nw: Int64, g: Int64
    ) -> None:
        carry = np.zeros(2 * LANES + 1, np.uint64)
        top = np.zeros(2 * LANES + 1, np.uint64)
        for i in range(int(nw)):
            word = _lanes_twin(fill, carry, top, g, D[0, i], D[1, i], D[2, i], D[3, i], P[i], N[i], X[i])
            out[i] = word | (out[i] if g > 1 else _Z)

    return twin


def _pass_typer(fill: bool) -> Any:
    """The typer of :func:`conn_pass` (``fill`` false) or :func:`fill_pass`."""

    def typer(
        typingctx: Any, P: Any, N: Any, D: Any, X: Any, out: Any, nw: Any, g: Any
    ) -> tuple[Any, _Codegen]:
        from numba import types

        arrays = (P, N, D, X, out)
        if not all(isinstance(a, types.Array) and a.dtype == types.uint64 for a in arrays):
            return None  # type: ignore[return-value]  # numba: no such signature
        signature = types.void(P, N, D, X, out, types.int64, types.int64)

        def codegen(context: Any, builder: Any, sig: Any, args: Any) -> Any:
            from numba.core import cgutils

            v = _Vectors(builder)
            b = builder
            i64 = v.ir.IntType(64)
            arrays = [
                (sig.args[k], context.make_array(sig.args[k])(context, builder, args[k])) for k in range(5)
            ]

            def at(k: int, *index: Any) -> Any:  # a pointer to an element of array k (any layout)
                aryty, ary = arrays[k]
                return cgutils.get_item_pointer(context, builder, aryty, ary, index, wraparound=False)

            depth = b.add(v.splat(args[6]), v.ir.Constant(v.vec, list(range(LANES))))
            # past depth 15 the four planes spell 0 again: those lanes hold no cell
            valid = b.sext(b.icmp_unsigned("<", depth, v.const(16)), v.vec)
            keep = b.sext(b.icmp_signed(">", args[6], v.ir.Constant(i64, 1)), i64)  # depths 9-15: OR in
            carry_at = cgutils.alloca_once_value(builder, v.const(0))
            top_at = cgutils.alloca_once_value(builder, v.const(0))
            with cgutils.for_range(builder, args[5]) as loop:
                i = loop.index
                d0, d1, d2, d3 = (v.splat(b.load(at(2, v.ir.Constant(i64, k), i))) for k in range(4))
                p, n, x = (v.splat(b.load(at(k, i))) for k in (0, 1, 3))
                here = b.and_(v.eq((d0, d1, d2, d3), depth), valid)
                below = b.and_(v.eq((d0, d1, d2, d3), b.sub(depth, v.const(1))), valid)
                closes = b.and_(p, b.not_(n))
                m = b.or_(b.and_(b.and_(b.or_(p, n), b.not_(closes)), here), b.and_(closes, below))
                if fill:
                    first = b.and_(b.and_(b.not_(p), n), here)
                    s = b.and_(m, x)
                    before = v.smear(b.or_(b.not_(first), s), s, carry_at, top_at)
                    result = b.and_(b.and_(m, before), b.not_(first))
                else:
                    s = b.and_(here, x)
                    before = v.smear(b.not_(b.and_(m, b.not_(s))), s, carry_at, top_at)
                    result = b.and_(here, b.not_(b.and_(before, b.not_(m))))
                slot = at(4, i)
                b.store(b.or_(v.or_lanes(result), b.and_(b.load(slot), keep)), slot)
            return context.get_dummy_value()

        return signature, codegen

    return typer


conn_pass = _intrinsic(_pass_typer(False), _pass_twin(False))
fill_pass = _intrinsic(_pass_typer(True), _pass_twin(True))
