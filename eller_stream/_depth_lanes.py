"""The per-depth smears of :mod:`._eller_planes`, eight depths at once.

A word of a row on planes is worked once per depth of the sets open across
it (``_conn`` and ``_fill``), and the depths are independent of one
another: each keeps its own carries from word to word.  These intrinsics
take depths ``g .. g + 7`` of one word together, a lane of a vector of
eight 64-bit words each (one AVX-512 register), and return the OR of the
eight results; their carries stay in ``carry[g:g + 8]`` and
``top[g:g + 8]``.  A lane whose depth no cell of the row has adds nothing
and leaves its carries at zero, so a row of depth ``most`` takes
``range(1, most + 1, LANES)``; lanes past depth 15 (which the four depth
planes cannot spell) hold no cell.

Run as plain Python (``NUMBA_DISABLE_JIT=1``, the lean backend) each is
its twin: the same rule, a depth at a time.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._numba import _U64, Int64, _Codegen, _intrinsic

LANES = 8

_Z = _U64(0)
_1 = _U64(1)
_63 = _U64(63)
_ALL = _U64(0xFFFFFFFFFFFFFFFF)


def _eq_twin(d0: np.uint64, d1: np.uint64, d2: np.uint64, d3: np.uint64, d: Int64) -> np.uint64:
    """Where the four-plane number is ``d`` (``_eller_planes._eq``)."""
    word = _ALL
    for b, plane in enumerate((d0, d1, d2, d3)):
        word &= plane if (int(d) >> b) & 1 else ~plane
    return _U64(word)


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


def _conn_lanes_twin(
    carry: np.ndarray, top: np.ndarray, g: Int64, d0: np.uint64, d1: np.uint64, d2: np.uint64, d3: np.uint64,
    p: np.uint64, n: np.uint64, wall: np.uint64,
) -> np.uint64:  # fmt: skip
    """Depths ``g .. g + 7`` of ``_eller_planes._conn`` for one word."""
    closes = p & ~n
    member = p | n
    out = _Z
    for d in range(int(g), min(int(g) + LANES, 16)):  # the planes hold depths 0 .. 15
        here = _eq_twin(d0, d1, d2, d3, d)
        below = _eq_twin(d0, d1, d2, d3, d - 1)
        m = (member & ~closes & here) | (closes & below)
        w = here & wall
        before = _smear_twin(~(m & ~w), w, carry, top, d)
        out |= here & ~(before & ~m)
    return out


def _fill_lanes_twin(
    carry: np.ndarray, top: np.ndarray, g: Int64, d0: np.uint64, d1: np.uint64, d2: np.uint64, d3: np.uint64,
    p: np.uint64, n: np.uint64, src: np.uint64,
) -> np.uint64:  # fmt: skip
    """Depths ``g .. g + 7`` of ``_eller_planes._fill`` for one word."""
    opens = ~p & n
    closes = p & ~n
    member = p | n
    out = _Z
    for d in range(int(g), min(int(g) + LANES, 16)):  # the planes hold depths 0 .. 15
        here = _eq_twin(d0, d1, d2, d3, d)
        below = _eq_twin(d0, d1, d2, d3, d - 1)
        m = (member & ~closes & here) | (closes & below)
        first = opens & here
        s = m & src
        before = _smear_twin(~first | s, s, carry, top, d)
        out |= m & before & ~first
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
        return self.shuffle(
            self.b.insert_element(self.undef, value, self.ir.Constant(self.ir.IntType(32), 0)), [0] * LANES
        )

    def eq(self, planes: tuple[Any, ...], depth: Any) -> Any:
        """Where the four planes spell each lane's ``depth``."""
        b = self.b
        diff = self.const(0)
        for k, plane in enumerate(planes):
            ones = b.sub(self.const(0), b.and_(b.lshr(depth, self.const(k)), self.const(1)))
            diff = b.or_(diff, b.xor(plane, ones))
        return b.not_(diff)

    def smear(self, v: Any, s: Any, carry_at: Any, top_at: Any) -> Any:
        """The twins' ``_smear_twin`` in each lane, its carries at the two pointers."""
        b = self.b
        t1 = b.add(v, s)
        t2 = b.add(t1, b.load(carry_at, align=8))
        below_v = b.zext(b.icmp_unsigned("<", t1, v), self.vec)
        b.store(b.or_(below_v, b.zext(b.icmp_unsigned("<", t2, t1), self.vec)), carry_at, align=8)
        seen = b.and_(b.or_(b.xor(t2, v), s), v)
        before = b.or_(b.shl(seen, self.const(1)), b.load(top_at, align=8))
        b.store(b.lshr(seen, self.const(63)), top_at, align=8)
        return before

    def or_lanes(self, v: Any) -> Any:
        """The OR of the lanes, as one 64-bit word (halving the vector)."""
        width = LANES
        while width > 1:
            width //= 2
            v = self.b.or_(v, self.shuffle(v, [width + j for j in range(width)] + [0] * (LANES - width)))
        return self.b.extract_element(v, self.ir.Constant(self.ir.IntType(32), 0))


def _lanes_typer(fill: bool) -> Any:
    """The typer of :func:`conn_lanes` (``fill`` false) or :func:`fill_lanes`:
    ``(carry, top, g, d0, d1, d2, d3, p, n, x)``, ``x`` the walls or the
    sources."""

    def typer(  # numba reads the arguments off the signature: one parameter each
        typingctx: Any,
        carry: Any,
        top: Any,
        g: Any,
        d0: Any,
        d1: Any,
        d2: Any,
        d3: Any,
        p: Any,
        n: Any,
        x: Any,
    ) -> tuple[Any, _Codegen]:
        from numba import types

        u64 = types.uint64
        signature = u64(carry, top, types.int64, *([u64] * 7))

        def codegen(context: Any, builder: Any, sig: Any, args: Any) -> Any:
            v = _Vectors(builder)
            b = builder

            def lanes_of(k: int) -> Any:  # a pointer to carry[g] or top[g] as a vector
                data = context.make_array(sig.args[k])(context, builder, args[k]).data
                return b.bitcast(b.gep(data, [args[2]]), v.vec.as_pointer())

            d0, d1, d2, d3, p, n, x = (v.splat(a) for a in args[3:10])
            depth = b.add(v.splat(args[2]), v.ir.Constant(v.vec, list(range(LANES))))
            # past depth 15 the four planes spell 0 again: those lanes hold no cell
            valid = b.sext(b.icmp_unsigned("<", depth, v.const(16)), v.vec)
            here = b.and_(v.eq((d0, d1, d2, d3), depth), valid)
            below = b.and_(v.eq((d0, d1, d2, d3), b.sub(depth, v.const(1))), valid)
            closes = b.and_(p, b.not_(n))
            m = b.or_(b.and_(b.and_(b.or_(p, n), b.not_(closes)), here), b.and_(closes, below))
            if fill:
                first = b.and_(b.and_(b.not_(p), n), here)
                s = b.and_(m, x)
                before = v.smear(b.or_(b.not_(first), s), s, lanes_of(0), lanes_of(1))
                return v.or_lanes(b.and_(b.and_(m, before), b.not_(first)))
            s = b.and_(here, x)
            before = v.smear(b.not_(b.and_(m, b.not_(s))), s, lanes_of(0), lanes_of(1))
            return v.or_lanes(b.and_(here, b.not_(b.and_(before, b.not_(m)))))

        return signature, codegen

    return typer


conn_lanes = _intrinsic(_lanes_typer(False), _conn_lanes_twin)
fill_lanes = _intrinsic(_lanes_typer(True), _fill_lanes_twin)
