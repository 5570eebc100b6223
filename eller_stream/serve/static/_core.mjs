// _core.mjs: what eller_stream.mjs (the rows) and plane.mjs (the plane) share,
// from docs/spec.md sections 1 to 4: the flags, the mixer, keys, draws,
// thresholds, the checks of arguments, and Eller's sets and rows.
//
// 64-bit words are pairs of 32-bit halves (hi, lo) on the per-cell paths;
// BigInt only where a value is computed once per band, chunk or call (a
// row's draws go on from the row before's: drawsFrom, drawNext).
//
// Where WebAssembly runs, the draws and Eller's plain rows are made by
// kernels.wat (embedded by _wasm.mjs; native 64-bit words), else by the
// plain JavaScript here: the same numbers, the same decisions, the same
// bytes (useWasm(false) picks the plain one).

import { WASM } from "./_wasm.mjs";

export const EAST = 1;
export const SOUTH = 2;

export const M64 = (1n << 64n) - 1n;
export const GOLDEN = 0x9e3779b97f4a7c15n;
const GOLDEN_HI = 0x9e3779b9 | 0; // as int32, as drawNext keeps its halves
const GOLDEN_LO = 0x7f4a7c15;
export const TWO32 = 4294967296;

// ---------------------------------------------------------------- 64-bit words
// SplitMix64's finaliser on (hi, lo) uint32 halves, written to hi[i], lo[i]
// (Uint32Arrays). Every step is a 32-bit integer operation (Math.imul, shifts)
// on local variables: a product's 16-bit partial products are below 2**32, so
// their wrapped int32 values read back exactly through >>>. (Halves kept in
// module variables instead made V8 box a number at every store: 4x slower.)
function mixInto(zh, zl, hi, lo, i) {
  // z ^= z >> 30; z *= 0xbf58476d1ce4e5b9
  let l = zl ^ ((zl >>> 30) | (zh << 2));
  let h = zh ^ (zh >>> 30);
  let a0 = l & 0xffff;
  let a1 = l >>> 16;
  let p01 = Math.imul(a0, 0x1ce4);
  let p10 = Math.imul(a1, 0xe5b9);
  let mid = (Math.imul(a0, 0xe5b9) >>> 16) + (p01 & 0xffff) + (p10 & 0xffff);
  let top = Math.imul(a1, 0x1ce4) + (p01 >>> 16) + (p10 >>> 16) + (mid >>> 16);
  h = (top + Math.imul(h, 0x1ce4e5b9) + Math.imul(l, 0xbf58476d)) | 0;
  l = Math.imul(l, 0x1ce4e5b9);
  // z ^= z >> 27; z *= 0x94d049bb133111eb
  l = l ^ ((l >>> 27) | (h << 5));
  h = h ^ (h >>> 27);
  a0 = l & 0xffff;
  a1 = l >>> 16;
  p01 = Math.imul(a0, 0x1331);
  p10 = Math.imul(a1, 0x11eb);
  mid = (Math.imul(a0, 0x11eb) >>> 16) + (p01 & 0xffff) + (p10 & 0xffff);
  top = Math.imul(a1, 0x1331) + (p01 >>> 16) + (p10 >>> 16) + (mid >>> 16);
  h = (top + Math.imul(h, 0x133111eb) + Math.imul(l, 0x94d049bb)) | 0;
  l = Math.imul(l, 0x133111eb);
  // z ^= z >> 31
  lo[i] = l ^ ((l >>> 31) | (h << 1));
  hi[i] = h ^ (h >>> 31);
}

const MIX_HI = new Uint32Array(1);
const MIX_LO = new Uint32Array(1);

/** SplitMix64's finaliser on a BigInt in [0, 2**64). */
export function mix64(z) {
  if (wasm !== null) return BigInt.asUintN(64, wasm.mix(z));
  mixInto(Number(z >> 32n), Number(z & 0xffffffffn), MIX_HI, MIX_LO, 0);
  return (BigInt(MIX_HI[0]) << 32n) | BigInt(MIX_LO[0]);
}

/** The key of a seed (spec 2.2). */
export function seedKey(seed) {
  return mix64(mix64((seed + GOLDEN) & M64) ^ 0x656c6c6572n);
}

/** The salted key of part `index` (any BigInt, taken modulo 2**64; spec 2.3). */
export function salted(key, index, salt) {
  if (wasm !== null) return BigInt.asUintN(64, wasm.salted(key, index, salt));
  return mix64(key ^ mix64(((index & M64) * GOLDEN + salt) & M64));
}

/**
 * A stream of draws from draw(k, i0) on, for drawNext: z = k + i0 * GOLDEN
 * as its int32 halves [hi, lo] (V8 keeps int32 in registers, where uint32
 * values past 2**31 would be doubles: a third slower).
 */
export function drawsFrom(k, i0) {
  const z = (k + ((i0 & M64) * GOLDEN)) & M64;
  return Int32Array.of(Number(z >> 32n) | 0, Number(z & 0xffffffffn) | 0);
}

/** The next `n` draws of the stream `at` into hi[], lo[] (Uint32Arrays); `at` moves past them. */
export function drawNext(at, n, hi, lo) {
  if (wasm !== null) {
    wasmNext(at, n, hi, lo);
    return;
  }
  let zh = at[0];
  let zl = at[1];
  for (let i = 0; i < n; i++) {
    mixInto(zh, zl, hi, lo, i);
    const l = (zl + GOLDEN_LO) | 0; // z += GOLDEN: the low half, then its carry into the high
    zh = (zh + GOLDEN_HI + ((l >>> 0) < (zl >>> 0) ? 1 : 0)) | 0;
    zl = l;
  }
  at[0] = zh;
  at[1] = zl;
}

// ---------------------------------------------------------------- WebAssembly
// kernels.wat's memory: z after a call's last draw (byte 0), then the sets
// and draws of the rows being made (rowState: WIDE cells at most), the
// draws made for arrays elsewhere (a chunk of WIDE at a time), and the
// bytes of the rows the kernel makes.
const WIDE = 4096;
const AT = { left: 64, right: 128 + 4 * WIDE, lo: 192 + 8 * WIDE, hi: 192 + 12 * WIDE }; // left, right: WIDE + 1 i32s
const TMP = { lo: 192 + 16 * WIDE, hi: 192 + 20 * WIDE };
const OUT = 192 + 24 * WIDE;
const OUT_BYTES = 65536;
let wasm = null; // {fill, rows, sweep, mix, salted, buffer, z, lo, hi, out, ...} while the kernels are in use
let wasmMade = null; // made once, on the first useWasm(true)

function makeWasm() {
  try {
    const code = Uint8Array.from(atob(WASM), (ch) => ch.charCodeAt(0));
    const { exports } = new WebAssembly.Instance(new WebAssembly.Module(code));
    const buffer = exports.memory.buffer; // never grown: the views stay valid
    return {
      fill: exports.fill,
      rows: exports.rows,
      sweep: exports.sweep,
      mix: exports.mix,
      salted: exports.salted,
      buffer,
      z: new Int32Array(buffer, 0, 2), // low half, high half
      lo: new Uint32Array(buffer, TMP.lo, WIDE),
      hi: new Uint32Array(buffer, TMP.hi, WIDE),
      out: new Uint8Array(buffer, OUT, OUT_BYTES),
      m: -1, // views of the first m draws of lo, hi, kept for the next call of that size
      loM: null,
      hiM: null,
    };
  } catch {
    return null; // no WebAssembly here (or not allowed): the plain JavaScript
  }
}

/**
 * useWasm(false): the draws and rows by plain JavaScript; useWasm(true): by
 * WebAssembly where it runs (the default). The bytes are the same either
 * way. Takes effect from the next call of rows or region; returns whether
 * the WebAssembly is in use.
 */
export function useWasm(on) {
  if (on && wasmMade === null) wasmMade = makeWasm();
  wasm = on ? wasmMade : null;
  return wasm !== null;
}
useWasm(true);

// z after the kernel's last call, as drawsFrom's halves, into at
function wasmAt(at) {
  at[0] = wasm.z[1];
  at[1] = wasm.z[0];
}

function wasmNext(at, n, hi, lo) {
  const { fill, buffer } = wasm;
  if (lo.buffer === buffer && hi.buffer === buffer) {
    fill(at[0], at[1], n, lo.byteOffset, hi.byteOffset); // a rowState's: made in place
    wasmAt(at);
    return;
  }
  for (let done = 0; done < n; done += WIDE) {
    const m = Math.min(n - done, WIDE);
    fill(at[0], at[1], m, TMP.lo, TMP.hi);
    wasmAt(at);
    if (m !== wasm.m) {
      wasm.m = m;
      wasm.loM = wasm.lo.subarray(0, m);
      wasm.hiM = wasm.hi.subarray(0, m);
    }
    lo.set(wasm.loM, done);
    hi.set(wasm.hiM, done);
  }
}

/** Draws `n` numbers draw(k, i0 .. i0 + n - 1) into hi[], lo[] (Uint32Arrays). */
export function draws(k, i0, n, hi, lo) {
  drawNext(drawsFrom(k, i0), n, hi, lo);
}

/** draw(k, i) (spec 2.3), a BigInt. */
export function draw(k, i) {
  return mix64((k + (BigInt(i) & M64) * GOLDEN) & M64);
}

/** (z32 * n) >> 32, exact for n < 2**32. */
export function pick(z32, n) {
  const zh = Math.floor(z32 / 65536);
  const zl = z32 % 65536;
  return Math.floor((zh * n + Math.floor((zl * n) / 65536)) / 65536);
}

/** round_half_even(p * 2**32) (spec 2.4). */
export function threshold(p) {
  const x = p * TWO32;
  const r = Math.floor(x);
  const d = x - r;
  if (d > 0.5) return r + 1;
  if (d < 0.5) return r;
  return r % 2 === 0 ? r : r + 1;
}

// ---------------------------------------------------------------- checks
export function fail(kind, message) {
  throw new kind(message);
}

/** An integer argument as a BigInt: a safe Number, a BigInt or a decimal string. */
export function toBigInt(name, value) {
  if (typeof value === "bigint") return value;
  if (typeof value === "number") {
    if (!Number.isSafeInteger(value)) fail(TypeError, `${name} must be an integer (a safe Number, a BigInt or a decimal string), got ${value}`);
    return BigInt(value);
  }
  if (typeof value === "string" && /^-?(0|[1-9][0-9]*)$/.test(value)) return BigInt(value);
  return fail(TypeError, `${name} must be an integer (a Number, a BigInt or a decimal string), got ${String(value)}`);
}

/** An integer argument in [low, high] (BigInts), as a BigInt. */
export function intIn(name, value, low, high) {
  const v = toBigInt(name, value);
  if (v < low || v > high) fail(RangeError, `${name} must be in [${low}, ${high}], got ${v}`);
  return v;
}

/** A probability argument: a Number in [0, 1]. */
export function unit(name, value) {
  if (typeof value !== "number") fail(TypeError, `${name} must be a number in [0, 1], got ${String(value)}`);
  if (!(value >= 0 && value <= 1)) fail(RangeError, `${name} must be in [0, 1], got ${value}`);
  return value;
}

/** n bytes (a BigInt), or a RangeError that says what could not be had. */
export function bytes(n, what) {
  try {
    if (n <= BigInt(Number.MAX_SAFE_INTEGER)) return new Uint8Array(Number(n));
  } catch (e) {
    if (!(e instanceof RangeError)) throw e;
  }
  return fail(RangeError, `${what} need ${n} bytes, more than can be had`);
}

/** ⌊a / k⌋ of BigInts (towards minus infinity). */
export function floorDiv(a, k) {
  const q = a / k;
  return a % k !== 0n && a < 0n ? q - 1n : q;
}

// ---------------------------------------------------------------- sets
// The sets of a row (spec 3) as circular doubly linked lists of their cells
// in left-to-right order, Eller's own L/R arrays (as the package's kernel,
// eller_stream/_eller_kernels.py): left[x], right[x] are the previous and
// next cell of x's set, wrapping around. Sets never cross, so
//   * x and x + 1 share a set exactly when left[x + 1] === x, and
//   * joining them is a constant-time splice that keeps every list sorted.
// A cell whose south wall closes leaves its set's list (the cell below it
// starts a set of its own); a cell alone in its list (left[x] === x) is its
// set's last way down: it cannot close. Within a row, once cell x's east
// wall is decided, every cell of x's set right of x is in x's list: so the
// sweep decides x's south wall there, with the same outcome as after all
// the row's joins.

/** Sets of one cell each: left[x] = right[x] = x for x < w. */
export function singletons(left, right, w) {
  for (let x = 0; x < w; x++) {
    left[x] = x;
    right[x] = x;
  }
}

/** Splice x + 1's set (its cell before x + 1: a) into x's set. */
export function join(left, right, x, a) {
  const b = right[x];
  right[a] = b;
  left[b] = a;
  right[x] = x + 1;
  left[x + 1] = x;
}

/** Take cell x (its previous cell in its list: lx) out of its set's list. */
export function leave(left, right, x, lx) {
  const rx = right[x];
  right[lx] = rx;
  left[rx] = lx;
  left[x] = x;
  right[x] = x;
}

/**
 * One Eller row (spec 4) into out[base .. base + w) (assigned: EAST, SOUTH),
 * from the sets left/right (then the next row's): cell x joins x + 1's set
 * when lo[x] < J and the sets differ, and closes its south wall when
 * hi[x] >= O unless it is alone in its list.
 */
export function ellerRow(left, right, w, lo, hi, J, O, out, base) {
  const last = w - 1;
  for (let x = 0; x < last; x++) {
    let f = SOUTH;
    const a = left[x + 1];
    if (a !== x && lo[x] < J) {
      join(left, right, x, a);
      f = EAST | SOUTH;
    }
    const lx = left[x];
    if (lx !== x && hi[x] >= O) {
      leave(left, right, x, lx);
      f = f & EAST;
    }
    out[base + x] = f;
  }
  const lx = left[last];
  if (lx !== last && hi[last] >= O) {
    leave(left, right, last, lx);
    out[base + last] = 0;
  } else {
    out[base + last] = SOUTH;
  }
}

/** The east walls of a row alone (spec 4 step 1): EAST ORed in where x joins x + 1's set. */
export function eastJoins(left, right, w, lo, J, out, base) {
  for (let x = 0; x < w - 1; x++) {
    const a = left[x + 1];
    if (a !== x && lo[x] < J) {
      join(left, right, x, a);
      out[base + x] |= EAST;
    }
  }
}

/** Eller's closing row (spec 4): every two neighbouring sets joined (EAST ORed in). */
export function closeRow(left, right, w, out, base) {
  for (let x = 0; x < w - 1; x++) {
    const a = left[x + 1];
    if (a !== x) {
      join(left, right, x, a);
      out[base + x] |= EAST;
    }
  }
}

// ---------------------------------------------------------------- rows, in WebAssembly or not
/**
 * The sets and draws of rows of width w, {w, left, right, lo, hi, inWasm}:
 * views of the kernels' memory when they are in use and w <= WIDE (their
 * rows are then made there; one call of rows or region at a time, as
 * JavaScript runs them), else arrays of their own. The sets start as one
 * cell each.
 */
export function rowState(w) {
  const inWasm = wasm !== null && w <= WIDE;
  const buffer = inWasm ? wasm.buffer : null;
  const s = {
    w,
    inWasm,
    left: inWasm ? new Int32Array(buffer, AT.left, w) : new Int32Array(w),
    right: inWasm ? new Int32Array(buffer, AT.right, w) : new Int32Array(w),
    lo: inWasm ? new Uint32Array(buffer, AT.lo, w) : new Uint32Array(w),
    hi: inWasm ? new Uint32Array(buffer, AT.hi, w) : new Uint32Array(w),
    made: inWasm ? new Uint8Array(buffer, OUT, w) : null, // the row sweep made
  };
  singletons(s.left, s.right, w);
  return s;
}

/** The next row's draws of the stream `at` into s.lo, s.hi. */
export function nextDraws(s, at) {
  if (s.inWasm && wasm !== null) {
    wasm.fill(at[0], at[1], s.w, AT.lo, AT.hi);
    wasmAt(at);
  } else {
    drawNext(at, s.w, s.hi, s.lo);
  }
}

/** An Eller row (ellerRow) from the sets of s and its draws s.lo, s.hi, into out[base ..]. */
export function sweep(s, J, O, out, base) {
  if (s.inWasm && wasm !== null) {
    wasm.sweep(s.w, J, O, AT.left, AT.right, AT.lo, AT.hi, OUT);
    out.set(s.made, base);
  } else {
    ellerRow(s.left, s.right, s.w, s.lo, s.hi, J, O, out, base);
  }
}

/**
 * `n` Eller rows (ellerRow) from the sets of s, with the next n * w draws
 * of the stream `at`, into out[base ..] (null: made, not kept).
 */
export function ellerRows(s, at, n, J, O, out, base) {
  const w = s.w;
  if (s.inWasm && wasm !== null) {
    const most = Math.floor(OUT_BYTES / w);
    for (let done = 0; done < n; done += most) {
      const m = Math.min(n - done, most);
      wasm.rows(at[0], at[1], w, m, J, O, AT.left, AT.right, AT.lo, AT.hi, OUT);
      wasmAt(at);
      if (out !== null) out.set(wasm.out.subarray(0, m * w), base + done * w);
    }
    return;
  }
  const row = out === null ? new Uint8Array(w) : null;
  for (let y = 0; y < n; y++) {
    nextDraws(s, at);
    if (out === null) ellerRow(s.left, s.right, w, s.lo, s.hi, J, O, row, 0);
    else ellerRow(s.left, s.right, w, s.lo, s.hi, J, O, out, base + y * w);
  }
}
