// The viewer's plane mode: the plane (es.Plane) on a canvas, drawn from the
// server's /v1/region in square tiles of raw bytes, fetched nearest-first and
// cached. It pans both ways (drag, wheel, arrow and page keys), jumps to any
// cell (y and x typed, exact up to 2**62) and marks the chunks' borders. The
// view lives in the URL: mode=plane, the API's names (chunk, seed and the
// knobs /v1/info lists), y and x (the cell at the top left), and borders=1.

import { EAST, SOUTH } from "/eller_stream.mjs";
import { floorDiv, typedInteger } from "/numbers.js";

const LOW = -(1n << 62n); // the plane's first row and column
const HIGH = (1n << 62n) - 1n; // and its last
// a tile's side in cells: tiles start at multiples of 64, as -2**62 and 2**62 are, so none crosses an end
const TILE = 64;
const T = BigInt(TILE);
const COLOURS = { floor: "#fdfdf8", wall: "#1d2430", missing: "#d6d3ca", border: "#7fa7d6", outside: "#f3f1ea" };
const MAX_CACHED = 256; // tiles, 4 KiB each
const MAX_FETCHES = 6;
const CELL = 12; // pixels a cell
const WALL = 2; // pixels a wall, centred on the cells' edge
const AXES = { y: "row", x: "column" };

let canvas, stage, ctx, tell;
let params = {}; // the API's names: chunk, seed, the knobs the URL gives
let knobs = []; // the plane's knobs, as /v1/info lists them
let K = 16n; // the chunk's side, BigInt
let borders = false;
const view = { y: 0n, x: 0n, oy: 0, ox: 0, rows: 0, cols: 0 }; // the top-left cell, the pixels it is cut by
const tiles = new Map(); // "ty,tx" -> Uint8Array of TILE * TILE flags, or "pending" / "failed"
let fetching = 0;
const errors = [];

// y or x as typed (numbers.js), exact: {value} of the plane, or {error} saying why not
function parseCoordinate(name, text) {
  const typed = typedInteger(text);
  if (typed === null) return { error: `${name}: an integer, such as 1000000000000, -2**62 or 2**62 - 1` };
  if (typed.huge) return { error: `${name} ${typed.text}: far past the plane's ends, -2**62 and 2**62 - 1` };
  const v = typed.value;
  if (v > HIGH) return { error: `${name} ${v} is past the plane's last ${AXES[name]}, 2**62 - 1 = ${HIGH}` };
  if (v < LOW) return { error: `${name} ${v} is before the plane's first ${AXES[name]}, -2**62 = ${LOW}` };
  return { value: v };
}

function apiQuery(extra) {
  const q = new URLSearchParams({ chunk: params.chunk, seed: params.seed });
  for (const name of knobs) if (params[name] !== undefined) q.set(name, params[name]);
  for (const [k, v] of Object.entries(extra)) q.set(k, v);
  return q;
}

// ------------------------------------------------------------------ tiles
async function fetchTile(ty, tx) {
  const key = `${ty},${tx}`;
  tiles.set(key, "pending");
  fetching++;
  try {
    const [y0, x0] = [ty * T, tx * T];
    const answer = await fetch("/v1/region?" + apiQuery({ y0, y1: y0 + T, x0, x1: x0 + T, format: "raw" }));
    if (!answer.ok) throw new Error((await answer.json()).error);
    const data = new Uint8Array(await answer.arrayBuffer());
    if (data.length !== TILE * TILE) throw new Error(`tile ${key}: ${data.length} bytes, not ${TILE * TILE}`);
    tiles.set(key, data);
  } catch (e) {
    tiles.set(key, "failed");
    errors.push(String(e));
    tell(String(e));
  } finally {
    fetching--;
  }
  evict();
  draw();
  want();
}

// the tiles of the cells drawn (and one more around them), nearest to the view's middle first
function want() {
  const clip = (v) => (v < LOW ? LOW : v > HIGH ? HIGH : v);
  const [ty0, ty1] = [floorDiv(clip(view.y - 1n), T) - 1n, floorDiv(clip(view.y + BigInt(view.rows)), T) + 1n];
  const [tx0, tx1] = [floorDiv(clip(view.x - 1n), T) - 1n, floorDiv(clip(view.x + BigInt(view.cols)), T) + 1n];
  const [my, mx] = middle();
  const needed = [];
  for (let ty = ty0; ty <= ty1; ty++) {
    for (let tx = tx0; tx <= tx1; tx++) {
      const inside = ty * T >= LOW && ty * T <= HIGH && tx * T >= LOW && tx * T <= HIGH;
      if (inside && !tiles.has(`${ty},${tx}`)) needed.push([ty, tx, distance(ty, tx, my, mx)]);
    }
  }
  needed.sort((a, b) => (a[2] < b[2] ? -1 : a[2] > b[2] ? 1 : 0));
  for (const [ty, tx] of needed) {
    if (fetching >= MAX_FETCHES) break;
    fetchTile(ty, tx);
  }
}

const middle = () => [floorDiv(view.y + BigInt(view.rows >> 1), T), floorDiv(view.x + BigInt(view.cols >> 1), T)];
const far = (a, b) => (a > b ? a - b : b - a);
const distance = (ty, tx, my, mx) => (far(ty, my) > far(tx, mx) ? far(ty, my) : far(tx, mx));

function evict() {
  if (tiles.size <= MAX_CACHED) return;
  const [my, mx] = middle();
  const by = [...tiles.keys()].filter((k) => tiles.get(k) !== "pending").map((k) => {
    const [ty, tx] = k.split(",").map(BigInt);
    return [k, distance(ty, tx, my, mx)];
  });
  by.sort((a, b) => (a[1] > b[1] ? -1 : a[1] < b[1] ? 1 : 0));
  for (const [k] of by.slice(0, tiles.size - MAX_CACHED)) tiles.delete(k);
}

// ------------------------------------------------------------------ drawing
function layout() {
  canvas.width = stage.clientWidth;
  canvas.height = stage.clientHeight;
  view.rows = Math.ceil(canvas.height / CELL) + 1;
  view.cols = Math.ceil(canvas.width / CELL) + 1;
}

// the rows (or columns) drawn, from the one before the view's first (its walls
// are the first's west or north ones): [coordinate, tile, index in the tile, chunk's first?]
function lines(first, count) {
  const out = [];
  for (let i = -1; i <= count; i++) {
    const v = first + BigInt(i);
    if (v < LOW || v > HIGH) continue;
    const tile = floorDiv(v, T);
    out.push([i, v, String(tile), Number(v - tile * T), v - floorDiv(v, K) * K === 0n]);
  }
  return out;
}

function draw() {
  const [c, t, h] = [CELL, WALL, WALL >> 1];
  ctx.fillStyle = COLOURS.outside;
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  const cells = []; // [px, py, flags or null, y, x, the chunk's first row?, its first column?]
  const columns = lines(view.x, view.cols);
  for (const [i, y, ty, ly, top] of lines(view.y, view.rows)) {
    for (const [j, x, tx, lx, left] of columns) {
      const data = tiles.get(ty + "," + tx);
      const flags = data instanceof Uint8Array ? data[ly * TILE + lx] : null;
      cells.push([j * c - view.ox, i * c - view.oy, flags, y, x, top, left]);
    }
  }
  // the floors, then the chunks' borders on the cells' edges, then the walls over both
  for (const [px, py, flags] of cells) {
    ctx.fillStyle = flags === null ? COLOURS.missing : COLOURS.floor;
    ctx.fillRect(px, py, c, c);
  }
  if (borders) {
    ctx.fillStyle = COLOURS.border;
    for (const [px, py, , , , top, left] of cells) {
      if (left) ctx.fillRect(px - h, py, t, c);
      if (top) ctx.fillRect(px, py - h, c, t);
    }
  }
  ctx.fillStyle = COLOURS.wall;
  for (const [px, py, flags, y, x] of cells) {
    if (flags === null) continue;
    // the last row's and column's passages lead out of the plane: drawn as its edge, as its first ones are
    if (!(flags & EAST) || x === HIGH) ctx.fillRect(px + c - h, py - h, t, c + t);
    if (!(flags & SOUTH) || y === HIGH) ctx.fillRect(px - h, py + c - h, c + t, t);
    if (x === LOW) ctx.fillRect(px - h, py - h, t, c + t);
    if (y === LOW) ctx.fillRect(px - h, py - h, c + t, t);
  }
  where();
}

// the cells in view (only cells the plane has) and the chunk of the top-left one
function where() {
  const end = (first, count) => {
    const last = first + BigInt(count - 2);
    return last > HIGH ? HIGH : last;
  };
  const text = `y ${view.y} .. ${end(view.y, view.rows)}, x ${view.x} .. ${end(view.x, view.cols)}, `
    + `chunk (${floorDiv(view.y, K)}, ${floorDiv(view.x, K)})`;
  document.getElementById("where").textContent = text;
}

// ------------------------------------------------------------------ moving
// a coordinate and its cut moved by some pixels, kept where the plane has cells in view
function shift(first, offset, pixels, shown) {
  let o = offset + Math.round(pixels);
  const cells = Math.floor(o / CELL);
  o -= cells * CELL;
  let v = first + BigInt(cells);
  const last = HIGH - BigInt(shown) + 2n;
  if (v < LOW) [v, o] = [LOW, 0];
  if (v > last && v > first) [v, o] = [first > last ? first : last, 0];
  return [v, o];
}

function panBy(dx, dy) {
  [view.x, view.ox] = shift(view.x, view.ox, dx, view.cols);
  [view.y, view.oy] = shift(view.y, view.oy, dy, view.rows);
  moved();
}

function jump(y, x) {
  tell("");
  [view.y, view.x, view.oy, view.ox] = [y, x, 0, 0];
  moved();
}

let urlTimer = 0;
function moved() {
  draw();
  want();
  // the boxes say where the view is now (a box being typed into is left alone), the URL a moment later
  for (const [name, v] of [["y", view.y], ["x", view.x]]) {
    const box = document.getElementById(name);
    if (document.activeElement !== box) box.value = String(v);
  }
  clearTimeout(urlTimer);
  urlTimer = setTimeout(() => {
    const q = apiQuery({ y: view.y, x: view.x });
    q.set("mode", "plane");
    if (borders) q.set("borders", "1");
    history.replaceState(null, "", "?" + q);
  }, 150);
}

function setBorders(on) {
  borders = on;
  document.getElementById("borders").checked = on;
  moved();
}

function listen() {
  let drag = null;
  stage.addEventListener("pointerdown", (e) => {
    drag = { y: e.clientY, x: e.clientX };
    stage.setPointerCapture(e.pointerId);
  });
  stage.addEventListener("pointermove", (e) => {
    if (drag === null) return;
    const [dx, dy] = [drag.x - e.clientX, drag.y - e.clientY];
    [drag.x, drag.y] = [e.clientX, e.clientY];
    if (dx || dy) panBy(dx, dy);
  });
  stage.addEventListener("pointerup", () => { drag = null; });
  stage.addEventListener("wheel", (e) => {
    e.preventDefault();
    const scale = e.deltaMode === 1 ? CELL : e.deltaMode === 2 ? canvas.height : 1;
    panBy(e.deltaX * scale, e.deltaY * scale);
  }, { passive: false });
  window.addEventListener("keydown", (e) => {
    if (e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement) return;
    const page = canvas.height * 0.9;
    const steps = { ArrowDown: [0, CELL], ArrowUp: [0, -CELL], ArrowRight: [CELL, 0], ArrowLeft: [-CELL, 0],
      PageDown: [0, page], PageUp: [0, -page], " ": [0, page] };
    if (e.key in steps) {
      e.preventDefault();
      panBy(...steps[e.key]);
    } else if (e.key === "b" || e.key === "B") setBorders(!borders);
  });
  window.addEventListener("resize", () => { layout(); moved(); });
  document.getElementById("borders").addEventListener("change", (e) => setBorders(e.target.checked));
  document.getElementById("controls").addEventListener("submit", (e) => {
    e.preventDefault();
    const form = new FormData(e.target);
    const [y, x] = ["y", "x"].map((name) => parseCoordinate(name, String(form.get(name))));
    const bad = [y, x].find((v) => v.error !== undefined);
    if (bad !== undefined) return tell(bad.error);
    const names = ["seed", "chunk", "perfect"];
    if (names.every((n) => String(form.get(n)) === String(params[n]))) return jump(y.value, x.value);
    const q = apiQuery({}); // another plane: the page again, at the cell asked for
    for (const n of names) q.set(n, form.get(n));
    for (const [k, v] of Object.entries({ mode: "plane", y: y.value, x: x.value })) q.set(k, v);
    if (borders) q.set("borders", "1");
    location.search = "?" + q;
  });
}

// ------------------------------------------------------------------ starting
// the plane mode, from the page's query; the knobs and their defaults from /v1/info
export async function startPlane({ query, seed, tell: say }) {
  [canvas, stage, tell] = [document.getElementById("maze"), document.getElementById("stage"), say];
  ctx = canvas.getContext("2d");
  let region;
  try {
    region = (await (await fetch("/v1/info")).json()).endpoints["/v1/region"];
  } catch (e) {
    errors.push(String(e));
    return tell(`the server's /v1/info: ${e}`);
  }
  const { chunk, ...defaults } = region.defaults;
  knobs = Object.keys(defaults);
  params = { chunk, seed, perfect: defaults.perfect };
  for (const name of knobs) if (query.get(name) !== null) params[name] = query.get(name);
  // a flag as the box shows it (the server reads 1/0, yes/no, on/off too)
  const flag = { 1: "true", yes: "true", on: "true", 0: "false", no: "false", off: "false" };
  params.perfect = flag[String(params.perfect).toLowerCase()] ?? String(params.perfect).toLowerCase();
  const messages = [];
  const given = query.get("chunk");
  const [low, high] = region.chunk;
  if (given !== null && /^[0-9]{1,5}$/.test(given) && Number(given) >= low && Number(given) <= high) {
    params.chunk = Number(given);
  } else if (given !== null) messages.push(`chunk: an integer in [${low}, ${high}], got ${given.slice(0, 20)}`);
  K = BigInt(params.chunk);
  const [y, x] = ["y", "x"].map((name) => parseCoordinate(name, query.get(name) || "0"));
  for (const v of [y, x]) if (v.error !== undefined) messages.push(v.error);
  [view.y, view.x] = [y.value ?? 0n, x.value ?? 0n];
  borders = query.get("borders") === "1";
  for (const name of ["seed", "chunk", "perfect"]) document.getElementById(name).value = String(params[name]);
  document.getElementById("borders").checked = borders;
  listen();
  // what the browser tests read: the view, the tiles loaded (and their bytes)
  window.ellerViewer = {
    state: () => ({ mode: "plane", y: String(view.y), x: String(view.x), oy: view.oy, ox: view.ox, cell: CELL,
      wall: WALL, rows: view.rows, cols: view.cols, tile: TILE, chunk: params.chunk, seed: params.seed, borders,
      fetching, loaded: [...tiles.entries()].filter(([, v]) => v instanceof Uint8Array).map(([k]) => k), errors,
      message: document.getElementById("message").textContent }),
    tile: (ty, tx) => {
      const data = tiles.get(`${ty},${tx}`);
      return data instanceof Uint8Array ? Array.from(data) : null;
    },
    jump: (y, x) => jump(BigInt(y), BigInt(x)),
    panBy,
  };
  layout();
  moved();
  if (messages.length) tell(messages.join("; "));
}
