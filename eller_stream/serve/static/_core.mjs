// _core.mjs: what eller_stream.mjs (the rows) and plane.mjs (the plane) share,
// from docs/spec.md sections 1 to 4: the flags, the mixer, keys, draws,
// thresholds, the checks of arguments and Eller's sets of a row.
//
// 64-bit words are pairs of 32-bit halves (hi, lo) on the per-cell paths;
// BigInt only where a value is computed once per band, chunk or call (a
// row's draws go on from the row before's: drawsFrom, drawNext).

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
  mixInto(Number(z >> 32n), Number(z & 0xffffffffn), MIX_HI, MIX_LO, 0);
  return (BigInt(MIX_HI[0]) << 32n) | BigInt(MIX_LO[0]);
}

/** The key of a seed (spec 2.2). */
export function seedKey(seed) {
  return mix64(mix64((seed + GOLDEN) & M64) ^ 0x656c6c6572n);
}

/** The salted key of part `index` (any BigInt, taken modulo 2**64; spec 2.3). */
export function salted(key, index, salt) {
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
/**
 * The sets of one row (spec 3): union-find over cell labels, relabelled
 * 0 .. width - 1 each row so that the arrays stay `width` long.
 */
export class Sets {
  constructor(width) {
    this.width = width;
    this.label = new Int32Array(width);
    this.parent = new Int32Array(width);
    this.next = new Int32Array(width);
    this.map = new Int32Array(width);
    this.reset();
  }

  reset() {
    for (let x = 0; x < this.width; x++) {
      this.label[x] = x;
      this.parent[x] = x;
    }
  }

  find(x) {
    const parent = this.parent;
    let a = this.label[x];
    while (parent[a] !== a) {
      parent[a] = parent[parent[a]];
      a = parent[a];
    }
    return a;
  }

  join(a, b) {
    this.parent[b] = a;
  }

  // every cell's root (once the row's joins are done: the steps after them read these)
  roots(root) {
    for (let x = 0; x < this.width; x++) root[x] = this.find(x);
  }

  // the next row's sets from this row's SOUTH flags (out[base .. base + width)) and roots
  descend(out, base, root) {
    const w = this.width;
    this.map.fill(-1);
    let fresh = 0;
    for (let x = 0; x < w; x++) {
      if (out[base + x] & SOUTH) {
        const r = root[x];
        if (this.map[r] < 0) this.map[r] = fresh++;
        this.next[x] = this.map[r];
      } else {
        this.next[x] = -1;
      }
    }
    for (let x = 0; x < w; x++) {
      this.label[x] = this.next[x] < 0 ? fresh++ : this.next[x];
      this.parent[x] = x;
    }
  }
}

/** The south step's "a cell further right" (spec 4 step 2): last[root] = the set's last x. */
export function lastCells(root, w, last) {
  for (let x = 0; x < w; x++) last[root[x]] = x;
}

/**
 * The east walls of row `base / w` (spec 4 step 1) for x = 0 .. w - 2: the
 * sets of cells x and x + 1 joined, EAST set, where they differ and lo[x] passes J.
 */
export function eastWalls(sets, w, lo, J, out, base) {
  let a = sets.find(0); // the root of cell x, carried along the row
  for (let x = 0; x < w - 1; x++) {
    const b = sets.find(x + 1);
    if (a !== b && lo[x] < J) {
      out[base + x] |= EAST;
      sets.join(a, b);
    } else {
      a = b;
    }
  }
}

/** Eller's closing row (spec 4): every two neighbouring sets joined. */
export function closeRow(sets, w, out, base) {
  for (let x = 0; x < w - 1; x++) {
    const a = sets.find(x);
    const b = sets.find(x + 1);
    if (a !== b) {
      out[base + x] |= EAST;
      sets.join(a, b);
    }
  }
}
