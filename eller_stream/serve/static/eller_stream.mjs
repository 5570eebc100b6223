// eller_stream.mjs: the rows of eller_stream's mazes, from docs/spec.md alone.
//
// An ES module with no dependencies, for browsers and Node:
//
//   import { rows } from "./eller_stream.mjs";
//   const bytes = rows({ width: 80, band: 32, seed: "7" }, -5, 60); // Uint8Array, 65 * 80 flags
//   const same = rows(JSON.parse(mazeJson), -5, 60); // the text of the Python maze.to_json()
//
// Each byte is a cell: EAST = 1 (open to the right), SOUTH = 2 (open below).
// Without `band`, the plain Eller stream's rows, counted from 0. The plane's
// `region` (plane.mjs) is re-exported here; both use _core.mjs's primitives.

export { EAST, SOUTH, mix64, seedKey, threshold, useWasm } from "./_core.mjs";
export { region, cellsMade, PLANE_DEFAULTS, MAX_CHUNK, MAX_MADE, PLANE_LOW, PLANE_HIGH } from "./plane.mjs";
import { EAST, SOUTH, M64, bytes, closeRow, draw, draws, drawsFrom, drawNext, eastJoins, ellerRows, fail, floorDiv, intIn, join, leave, nextDraws, pick, rowState, salted, seedKey, singletons, sweep, threshold, unit } from "./_core.mjs";

export const MAX_WIDTH = 2 ** 31 - 2;
export const MAX_BAND = 65536;
export const DEFAULTS = Object.freeze({ horizontal: 0.5, vertical: 0.5, doors: 0.45, loops: 0.0, rooms: 0.0 });
const KNOBS = Object.keys(DEFAULTS);
const MAZE_JSON_VERSION = 1;

const SALT = { band: 0x62616e64n, seam: 0x7365616dn, loop: 0x6c6f6f70n, room: 0x726f6f6dn };
const FIRST_JOIN = 0.8;
const FIRST_OPEN = 0.6;
const ROW_LOW = -(1n << 63n);
const ROW_HIGH = 1n << 63n;

// ---------------------------------------------------------------- checks
function probability(name, value) {
  unit(name, value);
  if (name === "doors" && value === 0) fail(RangeError, "doors must be in (0, 1], got 0");
  if (name === "rooms" && value === 1) fail(RangeError, "rooms must be in [0, 1), got 1");
  return value;
}

function knobs(source, where) {
  const out = {};
  for (const name of Object.keys(source)) {
    if (!KNOBS.includes(name)) fail(RangeError, `unknown parameter ${JSON.stringify(name)}${where}`);
    try {
      out[name] = probability(name, source[name]);
    } catch (e) {
      throw new e.constructor(e.message + where); // the band of a schedule's keyframe too
    }
  }
  return out;
}

function schedule(source) {
  if (typeof source !== "object" || source === null) fail(TypeError, "schedule must be an object of keyframes");
  const frames = Object.keys(source).map((k) => [intIn("a schedule's band index", k, ROW_LOW, ROW_HIGH - 1n), knobs(source[k], ` at band ${k} of the schedule`)]);
  if (frames.length === 0) fail(RangeError, "schedule must have a keyframe");
  frames.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  // one keyframe a band ("0" and "-0" name the same); any band index is taken, also one no row reaches (spec 5.7)
  for (let i = 1; i < frames.length; i++) {
    if (frames[i][0] === frames[i - 1][0]) fail(RangeError, `the schedule has band ${frames[i][0]} twice`);
  }
  return frames;
}

// what schedule() leaves to check: before it, that the keyframes are objects
// (not arrays); after it, that no band is named twice ("0" and "-0")
function frameShapes(source) {
  if (typeof source !== "object" || source === null) return;
  if (Array.isArray(source)) fail(TypeError, "schedule must be an object of keyframes, got an array");
  for (const k of Object.keys(source)) {
    const frame = source[k];
    if (typeof frame !== "object" || frame === null || Array.isArray(frame)) {
      const got = Array.isArray(frame) ? "an array" : typeof frame === "string" ? JSON.stringify(frame) : String(frame);
      fail(TypeError, `the schedule's keyframe at band ${k} must be an object, got ${got}`);
    }
  }
}

function bandsOnce(frames) {
  for (let i = 1; i < frames.length; i++) {
    if (frames[i][0] === frames[i - 1][0]) fail(RangeError, `the schedule has band ${frames[i][0]} twice`);
  }
}

function checkParams(params) {
  if (typeof params !== "object" || params === null) fail(TypeError, "params must be an object");
  // "version": the Python maze.to_json()'s, so that its JSON is params as it is
  const allowed = ["width", "seed", "band", "schedule", "version", ...KNOBS];
  for (const name of Object.keys(params)) {
    if (!allowed.includes(name)) fail(RangeError, `unknown parameter ${JSON.stringify(name)}`);
  }
  if (params.version !== undefined && params.version !== MAZE_JSON_VERSION) {
    const v = params.version;
    fail(RangeError, `version ${typeof v === "string" ? JSON.stringify(v) : String(v)} is not supported (this reads version ${MAZE_JSON_VERSION} of the maze's JSON)`);
  }
  if (params.width === undefined) fail(TypeError, "width is required");
  if (params.seed === undefined) fail(TypeError, "seed is required (a BigInt or a decimal string)");
  if (params.schedule !== undefined) frameShapes(params.schedule);
  const p = {
    width: Number(intIn("width", params.width, 1n, BigInt(MAX_WIDTH))),
    seed: intIn("seed", params.seed, 0n, M64),
    band: params.band === undefined ? null : Number(intIn("band", params.band, 2n, BigInt(MAX_BAND))),
    own: { ...DEFAULTS, ...knobs(Object.fromEntries(KNOBS.filter((k) => params[k] !== undefined).map((k) => [k, params[k]])), "") },
    schedule: params.schedule === undefined ? null : schedule(params.schedule),
  };
  if (p.schedule !== null) bandsOnce(p.schedule);
  if (p.band === null) {
    for (const name of ["doors", "loops", "rooms", "schedule"]) {
      if (params[name] !== undefined) fail(RangeError, `${name} needs band (the Eller stream has none)`);
    }
  }
  return p;
}

// ---------------------------------------------------------------- the Eller stream
// The Eller stream has no seek: rows start .. stop are made from row 0. A range
// that would make more cells than this is refused, not left to run for years.
export const MAX_ELLER_CELLS = 2n ** 36n;

function eller(p, start, stop, closing) {
  const w = p.width;
  const made = stop * BigInt(w);
  if (made > MAX_ELLER_CELLS) {
    const what = closing ? `closingRow after ${stop} rows` : `rows ${start} to ${stop}`;
    fail(RangeError, `${what} of width ${w} make ${made} cells from row 0 (the Eller stream has no seek), more than ${MAX_ELLER_CELLS}`);
  }
  const key = seedKey(p.seed);
  const J = threshold(p.own.horizontal);
  const O = threshold(p.own.vertical);
  const out = closing ? null : bytes((stop - start) * BigInt(w), `stop - start = ${stop - start} rows of width ${w}`);
  const s = rowState(w);
  const at = drawsFrom(key, 0n); // cell y * width + x draws number y * width + x
  // rows as Numbers: stop * width <= MAX_ELLER_CELLS, so both are safe integers
  const [first, end] = [Number(start), Number(stop)];
  if (closing) {
    ellerRows(s, at, end, J, O, null, 0);
    const close = new Uint8Array(w);
    closeRow(s.left, s.right, w, close, 0);
    return close;
  }
  ellerRows(s, at, first, J, O, null, 0); // the rows before start: made, not kept
  ellerRows(s, at, end - first, J, O, out, 0);
  return out;
}

// ---------------------------------------------------------------- the banded maze
function seamDoors(w, key, seam, doors) {
  const q = salted(key, seam, SALT.seam);
  const D = threshold(doors);
  const hi = new Uint32Array(w);
  const lo = new Uint32Array(w);
  draws(q, 0n, w, hi, lo);
  const door = new Uint8Array(w);
  let any = false;
  for (let x = 0; x < w; x++) {
    if (lo[x] < D) {
      door[x] = 1;
      any = true;
    }
  }
  if (!any) door[pick(Number(draw(q, w) & 0xffffffffn), w)] = 1;
  return door;
}

// whether a room (top, left, h, rw) keeps a cell from each of the rooms placed (4 numbers a room)
function apart(placed, top, left, h, rw) {
  for (let i = 0; i < placed.length; i += 4) {
    const t = placed[i];
    const l = placed[i + 1];
    // a row or a column between them (| not ||: one branch, mostly not taken)
    if (((top + h < t) | (t + placed[i + 2] < top) | (left + rw < l) | (l + placed[i + 3] < left)) === 0) return false;
  }
  return true;
}

// the rooms of band b (spec 5.2), 4 numbers a room: top, left, height, width
function placeRooms(w, K, key, b, rooms) {
  const R = K - 2;
  const T = (BigInt(K) * BigInt(w) * BigInt(threshold(rooms))) >> 32n;
  if (rooms === 0 || K < 4 || w < 2 || T === 0n) return [];
  const m = salted(key, b, SALT.room);
  const hmax = Math.min(R, 6);
  const wmax = Math.min(w, 8);
  const placed = [];
  let total = 0n;
  const attempts = Number(16n + T / 5n); // below 2**53: T <= MAX_BAND * MAX_WIDTH
  // attempt i draws numbers 2i (its size) and 2i + 1 (its place) of m, made 256 attempts at a time
  const at = drawsFrom(m, 0n);
  const hi = new Uint32Array(512);
  const lo = new Uint32Array(512);
  for (let i = 0; i < attempts; i++) {
    const j = 2 * (i % 256);
    if (j === 0) drawNext(at, 512, hi, lo);
    const h = 2 + pick(lo[j], hmax - 1);
    const rw = 2 + pick(hi[j], wmax - 1);
    const top = pick(lo[j + 1], R - h + 1);
    const left = pick(hi[j + 1], w - rw + 1);
    if (!apart(placed, top, left, h, rw)) continue;
    placed.push(top, left, h, rw);
    total += BigInt(h * rw);
    if (total >= T) break;
  }
  return placed;
}

// What a band's rooms ask of each cell of rows 0 .. K - 3, a bit each (as the
// package's _room_kernels): IN_EAST, IN_SOUTH (the wall lies inside a room:
// open), ABOVE_TOP (above a room's top row: its south wall opens only when
// it must, so that a set enters a room at most once), TOP_EAST (in a room's
// top row, its east wall inside the room: its set joins the next cell's
// before the sweep); meets[y] = 1 for a row with any of them.
const IN_EAST = EAST;
const IN_SOUTH = SOUTH;
const ABOVE_TOP = 4;
const TOP_EAST = 8;

function roomCells(w, K, placed) {
  const cells = new Uint8Array(K * w);
  const meets = new Uint8Array(K);
  for (let i = 0; i < placed.length; i += 4) {
    const [top, left, h, rw] = placed.slice(i, i + 4);
    for (let y = top; y < top + h; y++) {
      meets[y] = 1;
      for (let x = left; x < left + rw; x++) {
        const east = x < left + rw - 1 ? IN_EAST | (y === top ? TOP_EAST : 0) : 0;
        cells[y * w + x] |= east | (y < top + h - 1 ? IN_SOUTH : 0);
      }
    }
    if (top > 0) {
      meets[top - 1] = 1;
      for (let x = left; x < left + rw; x++) cells[(top - 1) * w + x] |= ABOVE_TOP;
    }
  }
  return { cells, meets };
}

// a row that meets a room (its draws made): its room tops joined first
// (each cell from a different set), then Eller's sweep, where a wall inside
// a room is open (the room is one set: its east walls join nothing) and a
// cell above a room's top closes whenever it may. Each cell's draws are
// decided first, as the package's _room_kernels do, into what the sweep
// reads with both thresholds 1: lo 0 when x may join, hi 1 when it may close.
function roomRow(s, w, J, O, cells, out, base) {
  const { left, lo, hi } = s;
  for (let x = 0; x < w; x++) {
    const c = cells[base + x];
    if (c & TOP_EAST) join(left, s.right, x, left[x + 1]); // (only the lists: the draws may be decided meanwhile)
    lo[x] = (lo[x] >= J) | 0; // no branch on a draw (they were a third of the row's time, mispredicted)
    hi[x] = (((hi[x] >= O) & ~(c >> 1)) | (c >> 2)) & 1; // IN_SOUTH is bit 1, ABOVE_TOP bit 2
  }
  sweep(s, 1, 1, out, base);
  for (let x = 0; x < w; x++) out[base + x] |= cells[base + x] & IN_EAST;
}

// the penultimate row: no set opens downward in two door columns (a cell in
// a door column closes when its set already opened in one). Every east wall
// first (a later join can bring a set that opened in a door further left),
// then the south walls: left[x] is then the nearest cell left of x that
// opened in x's set (or the set's last cell), and flags[] tells whether
// the set had opened in a door column by that cell.
function penultimateRow(s, w, J, O, door, out, base) {
  const { left, right, lo, hi, flags } = s;
  eastJoins(left, right, w, lo, J, out, base);
  for (let x = 0; x < w; x++) {
    const lx = left[x];
    const flag = lx < x ? flags[lx] : 0;
    if (lx !== x && (hi[x] >= O || (door[x] & flag))) leave(left, right, x, lx);
    else out[base + x] |= SOUTH;
    flags[x] = flag | door[x];
  }
}

// the last row: join side-by-side cells of different sets unless both sets
// hold a door, open at the doors; the sets become one cell each again. No
// union-find is needed (eller_stream/_last_row_kernels.py says why): a set's
// first cell joins the cell before it unless its set and an earlier set hold
// a door, and no other cell joins. parent[x]: the first cell of x's set;
// held[first]: the set holds a door.
function lastRow(s, w, door, out, base) {
  const { left, right, parent, flags: held } = s;
  for (let x = 0; x < w; x++) {
    const lx = left[x];
    const r = lx < x ? parent[lx] : x;
    parent[x] = r;
    held[r] = (r === x ? 0 : held[r]) | door[x];
  }
  let earlier = 0; // a set that holds a door has started
  for (let x = 0; x < w; x++) {
    if (parent[x] !== x) continue;
    if (x > 0 && !(earlier & held[x])) out[base + x - 1] |= EAST;
    earlier |= held[x];
  }
  for (let x = 0; x < w; x++) if (door[x]) out[base + x] |= SOUTH;
  singletons(left, right, w);
}

function band(p, key, b, own, doorsAbove, out, s) {
  const w = p.width;
  const K = p.band;
  const c = salted(key, b, SALT.band);
  const door = seamDoors(w, key, b + 1n, own.doors);
  const placed = placeRooms(w, K, key, b, own.rooms);
  const rooms = placed.length > 0 ? roomCells(w, K, placed) : null;
  const J = threshold(own.horizontal);
  const O = threshold(own.vertical);
  const J0 = threshold(own.horizontal * FIRST_JOIN);
  const O0 = threshold(own.vertical * FIRST_OPEN);
  const at = drawsFrom(c, 0n); // cell (y, x) draws number y * width + x
  const meets = (y) => rooms !== null && rooms.meets[y] === 1;
  let y = 0;
  while (y < K - 2) {
    const [Jy, Oy] = y === 0 ? [J0, O0] : [J, O];
    if (meets(y)) {
      nextDraws(s, at);
      roomRow(s, w, Jy, Oy, rooms.cells, out, y * w);
      y++;
      continue;
    }
    let to = y + 1; // row 0 alone (its thresholds), then the plain rows up to the next room's
    while (y > 0 && to < K - 2 && !meets(to)) to++;
    ellerRows(s, at, to - y, Jy, Oy, out, y * w);
    y = to;
  }
  nextDraws(s, at);
  penultimateRow(s, w, y === 0 ? J0 : J, y === 0 ? O0 : O, door, out, (K - 2) * w);
  lastRow(s, w, door, out, (K - 1) * w);
  if (own.loops > 0) braid(p, key, b, own.loops, doorsAbove, out);
}

// spec 5.5: dead ends open into loops, row-major over the band
const DEAD_END = Uint8Array.from({ length: 16 }, (_, m) => (m === 1 || m === 2 || m === 4 || m === 8 ? 1 : 0));

// the open sides of cell (y, x) of the band g (w wide; north: the doors above
// it), a bit each: 1 north, 2 south, 4 west, 8 east (directions d = 0 .. 3)
function sides(g, north, w, y, x) {
  const i = y * w + x;
  const up = y > 0 ? (g[i - w] & SOUTH) >> 1 : north[x];
  return up | (g[i] & SOUTH) | (x > 0 ? (g[i - 1] & EAST) << 2 : 0) | ((g[i] & EAST) << 3);
}

function braid(p, key, b, loops, doorsAbove, g) {
  const w = p.width;
  const K = p.band;
  const north = seamDoors(w, key, b, doorsAbove);
  const gk = salted(key, b, SALT.loop);
  const L = threshold(loops);
  const hi = new Uint32Array(w);
  const lo = new Uint32Array(w);
  const candidates = new Int32Array(4); // the closed walls to a cell of the band, d ascending
  const dead = new Int32Array(4); // those to a dead end
  const at = drawsFrom(gk, 0n);
  for (let y = 0; y < K; y++) {
    drawNext(at, w, hi, lo);
    for (let x = 0; x < w; x++) {
      const m = sides(g, north, w, y, x);
      // a dead end that draws a loop: one branch, mostly not taken (two, on the draw and the sides, cost more)
      if ((DEAD_END[m] & (lo[x] < L)) === 0) continue;
      let n = 0;
      let nd = 0;
      if (y > 0 && !(m & 1)) {
        candidates[n++] = 0;
        if (DEAD_END[sides(g, north, w, y - 1, x)]) dead[nd++] = 0;
      }
      if (y + 1 < K && !(m & 2)) {
        candidates[n++] = 1;
        if (DEAD_END[sides(g, north, w, y + 1, x)]) dead[nd++] = 1;
      }
      if (x > 0 && !(m & 4)) {
        candidates[n++] = 2;
        if (DEAD_END[sides(g, north, w, y, x - 1)]) dead[nd++] = 2;
      }
      if (x + 1 < w && !(m & 8)) {
        candidates[n++] = 3;
        if (DEAD_END[sides(g, north, w, y, x + 1)]) dead[nd++] = 3;
      }
      if (n === 0) continue;
      const d = nd > 0 ? dead[pick(hi[x], nd)] : candidates[pick(hi[x], n)];
      if (d === 0) g[(y - 1) * w + x] |= SOUTH;
      else if (d === 1) g[y * w + x] |= SOUTH;
      else if (d === 2) g[y * w + x - 1] |= EAST;
      else g[y * w + x] |= EAST;
    }
  }
}

// spec 5.7: band b's parameters under a schedule
function paramsAt(p, b) {
  if (p.schedule === null) return p.own;
  const frames = p.schedule;
  const out = {};
  for (const name of KNOBS) {
    const v = frames.map(([, f]) => (f[name] === undefined ? p.own[name] : f[name]));
    const n = frames.length - 1;
    if (b <= frames[0][0]) out[name] = v[0];
    else if (b >= frames[n][0]) out[name] = v[n];
    else {
      let i = 0;
      while (frames[i + 1][0] <= b) i++;
      const t = Number(b - frames[i][0]) / Number(frames[i + 1][0] - frames[i][0]);
      const a = v[i];
      const c = v[i + 1];
      out[name] = Math.min(Math.max(a + (c - a) * t, Math.min(a, c)), Math.max(a, c));
    }
  }
  return out;
}

function banded(p, start, stop) {
  const w = p.width;
  const K = BigInt(p.band);
  const key = seedKey(p.seed);
  const out = bytes((stop - start) * BigInt(w), `stop - start = ${stop - start} rows of width ${w}`);
  const scratch = bytes(BigInt(p.band) * BigInt(w), `a band of ${p.band} rows of width ${w}`);
  const s = rowState(w); // its sets, reused band after band (a band's last row leaves one-cell sets)
  s.flags = new Uint8Array(w);
  s.parent = new Int32Array(w);
  for (let b = floorDiv(start, K); b <= floorDiv(stop - 1n, K); b++) {
    scratch.fill(0);
    band(p, key, b, paramsAt(p, b), paramsAt(p, b - 1n).doors, scratch, s);
    const first = b * K;
    const from = start > first ? start : first;
    const to = stop < first + K ? stop : first + K;
    out.set(scratch.subarray(Number(from - first) * w, Number(to - first) * w), Number(from - start) * w);
  }
  return out;
}

// ---------------------------------------------------------------- the API
/**
 * Rows start .. stop - 1 (start < stop) as a Uint8Array of (stop - start) * width flags.
 * `params`: width, seed (BigInt or decimal string), and for the banded maze
 * band, horizontal, vertical, doors, loops, rooms, schedule; without band, the
 * Eller stream (rows from 0). The parsed JSON of the Python `maze.to_json()`
 * is such params (its "version" must be 1). `start`, `stop`: Numbers or BigInts.
 */
export function rows(params, start, stop) {
  const p = checkParams(params);
  const low = p.band === null ? 0n : ROW_LOW;
  const s = intIn("start", start, low, ROW_HIGH - 1n);
  const e = intIn("stop", stop, low, ROW_HIGH);
  if (e <= s) fail(RangeError, `stop must be greater than start, got start=${s}, stop=${e}`);
  return p.band === null ? eller(p, s, e, false) : banded(p, s, e);
}

/** The Eller stream's closing row after `n` rows (what finish() returns). */
export function closingRow(params, n) {
  const p = checkParams(params);
  if (p.band !== null) fail(RangeError, "closingRow is the Eller stream's (no band)");
  return eller(p, 0n, intIn("n", n, 0n, ROW_HIGH), true);
}
