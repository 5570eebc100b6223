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

export { EAST, SOUTH, mix64, seedKey, threshold } from "./_core.mjs";
export { region, cellsMade, PLANE_DEFAULTS, MAX_CHUNK, MAX_MADE, PLANE_LOW, PLANE_HIGH } from "./plane.mjs";
import { EAST, SOUTH, M64, GOLDEN, Sets, bytes, closeRow, draw, draws, drawsFrom, drawNext, eastWalls, fail, floorDiv, intIn, lastCells, mix64, pick, salted, seedKey, threshold, unit } from "./_core.mjs";

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
    fail(RangeError, `version ${String(params.version)} is not supported (this reads version ${MAZE_JSON_VERSION} of the maze's JSON)`);
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
  const row = new Uint8Array(w);
  const hi = new Uint32Array(w);
  const lo = new Uint32Array(w);
  const last = new Int32Array(w);
  const root = new Int32Array(w);
  const opened = new Uint8Array(w);
  const sets = new Sets(w);
  const at = drawsFrom(key, 0n); // cell y * width + x draws number y * width + x
  // rows as Numbers: stop * width <= MAX_ELLER_CELLS, so both are safe integers
  const [first, end] = [Number(start), Number(stop)];
  for (let y = 0; y < end; y++) {
    row.fill(0);
    drawNext(at, w, hi, lo);
    eastWalls(sets, w, lo, J, row, 0);
    sets.roots(root);
    lastCells(root, w, last);
    opened.fill(0);
    for (let x = 0; x < w; x++) {
      const r = root[x];
      if ((last[r] > x || opened[r]) && hi[x] >= O) continue;
      row[x] |= SOUTH;
      opened[r] = 1;
    }
    if (!closing && y >= first) out.set(row, (y - first) * w);
    sets.descend(row, 0, root);
  }
  if (!closing) return out;
  const close = new Uint8Array(w);
  closeRow(sets, w, close, 0);
  return close;
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

function placeRooms(w, K, key, b, rooms) {
  const R = K - 2;
  const T = (BigInt(K) * BigInt(w) * BigInt(threshold(rooms))) >> 32n;
  if (rooms === 0 || K < 4 || w < 2 || T === 0n) return [];
  const m = salted(key, b, SALT.room);
  const hmax = Math.min(R, 6);
  const wmax = Math.min(w, 8);
  const placed = [];
  let total = 0n;
  const attempts = 16n + T / 5n;
  for (let i = 0n; i < attempts; i++) {
    const size = mix64((m + ((2n * i) & M64) * GOLDEN) & M64);
    const place = mix64((m + ((2n * i + 1n) & M64) * GOLDEN) & M64);
    const h = 2 + pick(Number(size & 0xffffffffn), hmax - 1);
    const rw = 2 + pick(Number(size >> 32n), wmax - 1);
    const top = pick(Number(place & 0xffffffffn), R - h + 1);
    const left = pick(Number(place >> 32n), w - rw + 1);
    const apart = placed.every(([t, l, hh, ww]) => top + h < t || t + hh < top || left + rw < l || l + ww < left);
    if (!apart) continue;
    placed.push([top, left, h, rw]);
    total += BigInt(h * rw);
    if (total >= T) break;
  }
  return placed;
}

// the room number of each cell of rows 0 .. K - 3 (-1: none), and whether it is a room's first row
function roomMap(w, K, placed) {
  const room = new Int32Array(K * w).fill(-1);
  const first = new Uint8Array(K * w);
  placed.forEach(([top, left, h, rw], i) => {
    for (let y = top; y < top + h; y++) {
      for (let x = left; x < left + rw; x++) {
        room[y * w + x] = i;
        if (y === top) first[y * w + x] = 1;
      }
    }
  });
  return { room, first };
}

function band(p, key, b, own, doorsAbove, out) {
  const w = p.width;
  const K = p.band;
  const c = salted(key, b, SALT.band);
  const door = seamDoors(w, key, b + 1n, own.doors);
  const placed = placeRooms(w, K, key, b, own.rooms);
  const { room, first } = roomMap(w, K, placed);
  const hasRooms = placed.length > 0;
  const sets = new Sets(w);
  const hi = new Uint32Array(w);
  const lo = new Uint32Array(w);
  const last = new Int32Array(w);
  const root = new Int32Array(w);
  const opened = new Uint8Array(w);
  const doorSet = new Uint8Array(w);
  const at = drawsFrom(c, 0n); // cell (y, x) draws number y * width + x
  for (let y = 0; y < K - 1; y++) {
    const base = y * w;
    drawNext(at, w, hi, lo);
    const J = threshold(own.horizontal * (y === 0 ? FIRST_JOIN : 1));
    const O = threshold(own.vertical * (y === 0 ? FIRST_OPEN : 1));
    if (hasRooms) {
      for (let x = 0; x < w - 1; x++) {
        const i = base + x;
        if (first[i] && room[i] === room[i + 1] && first[i + 1]) {
          out[i] |= EAST;
          sets.join(sets.find(x), sets.find(x + 1));
        }
      }
    }
    let a = -1; // the root of cell x, carried along the row (-1: not known)
    for (let x = 0; x < w - 1; x++) {
      const i = base + x;
      if (room[i] >= 0 && room[i] === room[i + 1]) {
        out[i] |= EAST;
        a = -1;
        continue;
      }
      if (a < 0) a = sets.find(x);
      const r = sets.find(x + 1);
      if (a !== r && lo[x] < J) {
        out[i] |= EAST;
        sets.join(a, r);
      } else {
        a = r;
      }
    }
    sets.roots(root);
    lastCells(root, w, last);
    opened.fill(0);
    doorSet.fill(0);
    const penultimate = y === K - 2;
    for (let x = 0; x < w; x++) {
      const i = base + x;
      const r = root[x];
      const mayClose = last[r] > x || opened[r];
      if (penultimate && door[x] && doorSet[r]) continue;
      if (first[i + w] === 1 && mayClose) continue; // above a room's top: only as the set's last way down
      const inside = room[i] >= 0 && room[i] === room[i + w];
      if (!inside && mayClose && hi[x] >= O) continue;
      out[i] |= SOUTH;
      opened[r] = 1;
      if (penultimate && door[x]) doorSet[r] = 1;
    }
    sets.descend(out, base, root);
  }
  // the last row: join unless both sets hold a door, open at the doors
  const base = (K - 1) * w;
  const holds = new Uint8Array(w);
  for (let x = 0; x < w; x++) if (door[x]) holds[sets.find(x)] = 1;
  for (let x = 0; x < w - 1; x++) {
    const a = sets.find(x);
    const r = sets.find(x + 1);
    if (a !== r && !(holds[a] && holds[r])) {
      out[base + x] |= EAST;
      sets.join(a, r);
      holds[a] = holds[a] | holds[r];
    }
  }
  for (let x = 0; x < w; x++) if (door[x]) out[base + x] |= SOUTH;
  if (own.loops > 0) braid(p, key, b, own.loops, doorsAbove, out);
}

// spec 5.5: dead ends open into loops, row-major over the band
function braid(p, key, b, loops, doorsAbove, g) {
  const w = p.width;
  const K = p.band;
  const north = seamDoors(w, key, b, doorsAbove);
  const gk = salted(key, b, SALT.loop);
  const L = threshold(loops);
  const hi = new Uint32Array(w);
  const lo = new Uint32Array(w);
  const isOpen = (y, x, d) => {
    if (d === 0) return y > 0 ? (g[(y - 1) * w + x] & SOUTH) !== 0 : north[x] === 1;
    if (d === 1) return (g[y * w + x] & SOUTH) !== 0;
    if (d === 2) return x > 0 && (g[y * w + x - 1] & EAST) !== 0;
    return (g[y * w + x] & EAST) !== 0;
  };
  const sides = (y, x) => isOpen(y, x, 0) + isOpen(y, x, 1) + isOpen(y, x, 2) + isOpen(y, x, 3);
  const steps = [[-1, 0], [1, 0], [0, -1], [0, 1]];
  const at = drawsFrom(gk, 0n);
  for (let y = 0; y < K; y++) {
    drawNext(at, w, hi, lo);
    for (let x = 0; x < w; x++) {
      if (sides(y, x) !== 1 || lo[x] >= L) continue;
      const candidates = [];
      for (let d = 0; d < 4; d++) {
        const ny = y + steps[d][0];
        const nx = x + steps[d][1];
        if (ny >= 0 && ny < K && nx >= 0 && nx < w && !isOpen(y, x, d)) candidates.push(d);
      }
      if (candidates.length === 0) continue;
      const dead = candidates.filter((d) => sides(y + steps[d][0], x + steps[d][1]) === 1);
      const pool = dead.length > 0 ? dead : candidates;
      const d = pool[pick(hi[x], pool.length)];
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
  for (let b = floorDiv(start, K); b <= floorDiv(stop - 1n, K); b++) {
    scratch.fill(0);
    band(p, key, b, paramsAt(p, b), paramsAt(p, b - 1n).doors, scratch);
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
