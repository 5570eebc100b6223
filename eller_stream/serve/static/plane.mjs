// plane.mjs: the plane, a maze infinite in rows and columns, from docs/spec.md
// section 8 alone (the primitives of sections 2 to 4 are _core.mjs's).
//
//   import { region } from "./eller_stream.mjs";     // or "./plane.mjs"
//   const grid = region({ chunk: 16, seed: "7" }, -100n, 100n, 2n ** 62n - 300n, 2n ** 62n - 100n);
//   // Uint8Array of 200 * 200 flags, row-major: grid[(y - y0) * 200 + (x - x0)]
//
// The bytes are those of the Python package's Plane(chunk, seed, ...).region(y0, y1, x0, x1):
// EAST = 1 (open to the right), SOUTH = 2 (open below); the last column's EAST and
// the last row's SOUTH are the passages to the cells just outside the region.

import { EAST, SOUTH, M64, bytes, closeRow, draw, draws, drawsFrom, eastJoins, ellerRows, fail, floorDiv, intIn, leave, nextDraws, pick, rowState, salted, seedKey, singletons, sweep, threshold, unit } from "./_core.mjs";

/** Plane(chunk=16, seed=0, *, perfect=True, horizontal=0.5, vertical=0.5)'s defaults. */
export const PLANE_DEFAULTS = Object.freeze({ chunk: 16, seed: 0, perfect: true, horizontal: 0.5, vertical: 0.5 });
export const MAX_CHUNK = 1024;
/** A region that would make more cells than this (its chunks whole) is refused: ask in parts. */
export const MAX_MADE = 2n ** 31n;
/** Rows and columns are in [PLANE_LOW, PLANE_HIGH) (y1 and x1 up to PLANE_HIGH). */
export const PLANE_LOW = -(2n ** 62n);
export const PLANE_HIGH = 2n ** 62n;

const K = 9n; // a block of level L + 1 is K x K blocks of level L
const FIRST_JOIN = 0.8;
const FIRST_OPEN = 0.6;
const LAST_JOIN = 0.5;
const EXIT = 0.8;
const SALT = { plan: 0x706c616en, row: 0x726f77n, col: 0x636f6cn, seam: 0x7365616dn };
const HALF = 2n ** 31n;

// ---------------------------------------------------------------- checks
// "version": the Python plane.to_json()'s, so that its JSON is params as it is
const PLANE_JSON_VERSION = 1;

// A saved plane's JSON (it has a "version"), read as strictly as Plane.from_json reads it:
// its chunk and seed given, the seed a decimal string, the chunk a JSON integer.
function savedPlane(params) {
  const shown = (v) => (typeof v === "string" ? JSON.stringify(v) : String(v));
  if (params.version !== PLANE_JSON_VERSION) {
    fail(RangeError, `version ${shown(params.version)} is not supported (this reads version ${PLANE_JSON_VERSION} of the plane's JSON)`);
  }
  for (const key of ["chunk", "seed"]) {
    if (params[key] === undefined) fail(RangeError, `the key ${JSON.stringify(key)} is missing from the plane's JSON`);
  }
  const seed = params.seed;
  if (typeof seed !== "string" || !/^(0|[1-9][0-9]{0,19})$/.test(seed) || BigInt(seed) > M64) {
    fail(RangeError, `seed must be a decimal string of an int in [0, 2**64) in the plane's JSON, got ${shown(seed)}`);
  }
  if (!Number.isInteger(params.chunk)) fail(RangeError, `chunk must be a JSON integer in the plane's JSON, got ${shown(params.chunk)}`);
}

function planeParams(params) {
  if (typeof params !== "object" || params === null || Array.isArray(params)) fail(TypeError, "params must be an object");
  for (const name of Object.keys(params)) {
    if (!Object.hasOwn(PLANE_DEFAULTS, name) && name !== "version") fail(RangeError, `unknown parameter ${JSON.stringify(name)}`);
  }
  if (params.version !== undefined) savedPlane(params);
  const get = (name) => (params[name] === undefined ? PLANE_DEFAULTS[name] : params[name]);
  const perfect = get("perfect");
  if (typeof perfect !== "boolean") fail(TypeError, `perfect must be true or false, got ${typeof perfect === "string" ? JSON.stringify(perfect) : String(perfect)}`);
  return {
    chunk: Number(intIn("chunk", get("chunk"), 1n, BigInt(MAX_CHUNK))),
    seed: intIn("seed", get("seed"), 0n, M64),
    perfect,
    horizontal: unit("horizontal", get("horizontal")),
    vertical: unit("vertical", get("vertical")),
  };
}

// [first, end) along one axis (y or x), as BigInts
function bounds(axis, first, end) {
  const a = intIn(`${axis}0`, first, PLANE_LOW, PLANE_HIGH - 1n);
  const b = intIn(`${axis}1`, end, PLANE_LOW + 1n, PLANE_HIGH);
  if (b <= a) fail(RangeError, `${axis}1 must be greater than ${axis}0, got ${axis}0=${a}, ${axis}1=${b}`);
  return [a, b];
}

// the cells a region makes: the chunks of its rows and columns and of the
// row and column just past it, each whole (what the Python plane.cells_made counts)
function made(c, y0, y1, x0, x1) {
  const C = BigInt(c);
  return (floorDiv(y1, C) - floorDiv(y0, C) + 1n) * (floorDiv(x1, C) - floorDiv(x0, C) + 1n) * C * C;
}

// ---------------------------------------------------------------- a chunk (spec 8.2)
// where block j sits in its block of the level above: -4 .. 4 (spec 8.1)
function place(j) {
  return Number(j - K * floorDiv(j + 4n, K));
}

// the scratch of one chunk's making, reused chunk after chunk
function scratch(c) {
  // the sets and draws of a row (_core.mjs), the chunk's flags in its own frame
  return { ...rowState(c), c, g: new Uint8Array(c * c), done: new Uint8Array(c) };
}

// the south walls of a row whose east walls are made, in s.g: the cells of
// the set that left east (done) go not down; on the chunk's last row each
// set leaves south once (its first cell that passes O, or its last), on
// the others a cell closes when it passes O unless it is alone in its list
function southWalls(s, O, lastRow, base) {
  const { c, g, left, right, hi, done } = s;
  for (let x = 0; x < c; x++) {
    const lx = left[x];
    let close;
    if (done[x]) close = true;
    else if (lastRow) close = lx < x || (hi[x] >= O && right[x] > x); // opened already, or not its last
    else close = lx !== x && hi[x] >= O;
    if (close) leave(left, right, x, lx);
    else g[base + x] |= SOUTH;
  }
}

// the chunk of key k in its frame, into s.g: its sets leave south with S,
// may leave east with E
function makeChunk(s, k, S, E, t) {
  const { c, g, left, right, lo, done } = s;
  g.fill(0);
  singletons(left, right, c);
  const at = drawsFrom(k, 0n); // cell (y, x) draws number y * c + x
  let y = 0;
  if (!E && c > 1) {
    // no way out east: rows 0 .. c - 2 are Eller's rows, made in two calls
    ellerRows(s, at, 1, t.J0, t.O0, g, 0);
    ellerRows(s, at, c - 2, t.J, t.O, g, c);
    y = c - 1;
  }
  for (; y < c; y++) {
    const base = y * c;
    const lastRow = y === c - 1;
    nextDraws(s, at);
    if (lastRow && !S) {
      closeRow(left, right, c, g, base);
      if (E) g[base + c - 1] |= EAST;
      return;
    }
    const J = lastRow ? t.JL : y === 0 ? t.J0 : t.J;
    const O = y === 0 && !lastRow ? t.O0 : t.O;
    const exit = E && lo[c - 1] < t.X; // the last cell's set leaves east (none of its cells goes down)
    if (!exit && !lastRow) {
      sweep(s, J, O, g, base);
      continue;
    }
    eastJoins(left, right, c, lo, J, g, base);
    done.fill(0);
    if (exit) {
      g[base + c - 1] |= EAST;
      let x = c - 1;
      do {
        done[x] = 1;
        x = right[x];
      } while (x !== c - 1);
    }
    southWalls(s, O, lastRow, base);
  }
}

// without perfect: the doors of the chunk's east (side 0) and south (side 1) seams (spec 8.4)
function seams(s, k, t) {
  const { c, g, hi, lo } = s;
  for (const [side, T] of [[0, t.X], [1, t.O]]) {
    const q = salted(k, BigInt(side), SALT.seam);
    const open = (i) => (side === 0 ? (g[i * c + c - 1] |= EAST) : (g[(c - 1) * c + i] |= SOUTH));
    draws(q, 0n, c, hi, lo);
    let any = false;
    for (let i = 0; i < c; i++) {
      if (lo[i] < T) {
        open(i);
        any = true;
      }
    }
    if (!any) open(pick(Number(draw(q, c) & 0xffffffffn), c));
  }
}

// the frame s.g turned into place (spec 8.3) and laid on the region out (H x W),
// the frame's cell (0, 0) being the region's (top, left) before turning
function lay(s, dy, dx, top, left, out, H, W) {
  const { c, g } = s;
  if (dy <= 0 && dx <= 0 && top >= 0 && top + c <= H && left >= 0 && left + c <= W) {
    // not turned, and wholly in the region: each flag lands on its own cell
    for (let y = 0; y < c; y++) {
      const to = (top + y) * W + left;
      for (let x = 0; x < c; x++) out[to + x] |= g[y * c + x];
    }
    return;
  }
  for (let y = 0; y < c; y++) {
    const py = top + (dy > 0 ? c - 1 - y : y); // the row the frame's row y becomes
    const sy = dy > 0 ? py - 1 : py; // the row its SOUTH flags land on (turned: the row above)
    const eastIn = py >= 0 && py < H;
    const southIn = sy >= 0 && sy < H;
    if (!eastIn && !southIn) continue;
    for (let x = 0; x < c; x++) {
      const f = g[y * c + x];
      if (f === 0) continue;
      const px = left + (dx > 0 ? c - 1 - x : x);
      if (f & EAST && eastIn) {
        const ex = dx > 0 ? px - 1 : px; // turned: the passage west, the flag of the cell left of it
        if (ex >= 0 && ex < W) out[py * W + ex] |= EAST;
      }
      if (f & SOUTH && southIn && px >= 0 && px < W) out[sy * W + px] |= SOUTH;
    }
  }
}

// ---------------------------------------------------------------- the doors of blocks (spec 8.3)
// the doors of the blocks of every level >= 1 that land in the region, up to
// the level whose block of the origin holds all of [-2**62, 2**62]
function doors(c, key, y0, y1, x0, x1, out, W) {
  const C = BigInt(c);
  for (let L = 1n; ; L++) {
    const n = K ** L;
    const h = (n - 1n) / 2n;
    const size = C * n;
    const levelKey = salted(key, L, SALT.plan);
    const blockOf = (v) => floorDiv(floorDiv(v, C) + h, n);
    // a door lies in its block or the row or column before it: the blocks that meet [y0, y1] x [x0, x1]
    for (let jy = blockOf(y0); jy <= blockOf(y1); jy++) {
      const dy = place(jy);
      const t = C * (jy * n - h);
      const rowKey = salted(levelKey, jy, SALT.row);
      for (let jx = blockOf(x0); jx <= blockOf(x1); jx++) {
        const dx = place(jx);
        if (dy === 0 && dx === 0) continue; // the middle block has none
        const q = salted(rowKey, jx, SALT.col);
        const l = C * (jx * n - h);
        const vertical = dx === 0 || (dy !== 0 && (draw(q, 0) & 0xffffffffn) < HALF);
        const p = (draw(q, 1) * size) >> 64n;
        let y, x, flag;
        if (vertical) {
          [y, x, flag] = [dy < 0 ? t + size - 1n : t - 1n, l + p, SOUTH];
        } else {
          [y, x, flag] = [t + p, dx < 0 ? l + size - 1n : l - 1n, EAST];
        }
        if (y >= y0 && y < y1 && x >= x0 && x < x1) out[Number(y - y0) * W + Number(x - x0)] |= flag;
      }
    }
    if (C * h >= PLANE_HIGH) return;
  }
}

// ---------------------------------------------------------------- the API
/**
 * The cells region(params, y0, y1, x0, x1) makes (the chunks it touches, whole),
 * a BigInt: what it is refused by past MAX_MADE.
 */
export function cellsMade(params, y0, y1, x0, x1) {
  const p = planeParams(params);
  const [ya, yb] = bounds("y", y0, y1);
  const [xa, xb] = bounds("x", x0, x1);
  return made(p.chunk, ya, yb, xa, xb);
}

/**
 * Cells [y0, y1) x [x0, x1) of the plane as a Uint8Array of (y1 - y0) * (x1 - x0)
 * flags, row-major. `params`: {chunk, seed, perfect, horizontal, vertical}, each
 * optional (PLANE_DEFAULTS); chunk and seed, like the coordinates, safe integer
 * Numbers, BigInts or decimal strings. The Python plane.to_json()'s text, parsed,
 * is such params (its "version" must be 1).
 */
export function region(params, y0, y1, x0, x1) {
  const p = planeParams(params);
  const [ya, yb] = bounds("y", y0, y1);
  const [xa, xb] = bounds("x", x0, x1);
  const cells = made(p.chunk, ya, yb, xa, xb);
  if (cells > MAX_MADE) {
    fail(RangeError, `y0, y1, x0, x1: region [${ya}, ${yb}) x [${xa}, ${xb}) makes ${cells} cells (the chunks it touches, whole), more than ${MAX_MADE}: ask for it in parts`);
  }
  const H = Number(yb - ya);
  const W = Number(xb - xa);
  const out = bytes(BigInt(H) * BigInt(W), `a region of ${H} x ${W} cells`);
  const h = p.horizontal;
  const v = p.vertical;
  const t = {
    J: threshold(h), J0: threshold(h * FIRST_JOIN), JL: threshold(h * LAST_JOIN), X: threshold(h * EXIT),
    O: threshold(v), O0: threshold(v * FIRST_OPEN),
  };
  const c = p.chunk;
  const C = BigInt(c);
  const key = seedKey(p.seed);
  const chunks = salted(key, 0n, SALT.plan); // the key of level 0
  const s = scratch(c);
  for (let cy = floorDiv(ya, C); cy <= floorDiv(yb, C); cy++) {
    const dy = p.perfect ? place(cy) : 0;
    const top = Number(cy * C - ya);
    const rowsIn = top < H && top + c > 0;
    const below = top === H && dy > 0; // just past the region, its exits lead up into it
    if (!rowsIn && !below) continue;
    const rowKey = salted(chunks, cy, SALT.row);
    for (let cx = floorDiv(xa, C); cx <= floorDiv(xb, C); cx++) {
      const dx = p.perfect ? place(cx) : 0;
      const left = Number(cx * C - xa);
      const colsIn = left < W && left + c > 0;
      const right = left === W && dx > 0;
      if (!(rowsIn && (colsIn || right)) && !(below && colsIn)) continue;
      const k = salted(rowKey, cx, SALT.col);
      makeChunk(s, k, dy !== 0, dx !== 0, t);
      if (!p.perfect) seams(s, k, t);
      lay(s, dy, dx, top, left, out, H, W);
    }
  }
  if (p.perfect) doors(c, key, ya, yb, xa, xb, out, W);
  return out;
}
