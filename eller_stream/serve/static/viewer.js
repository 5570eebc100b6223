// The viewer: an endless maze on a canvas, drawn from the server's /v1/rows.
// Bands are fetched nearest-first and cached; the view lives in the URL query
// under the API's names (width, band, seed, the knobs) plus row, the top row.
// With mode=plane in the URL it shows the plane instead (plane_view.js).

import { DEFAULTS, EAST, SOUTH } from "/eller_stream.mjs";
import { floorDiv, typedInteger } from "/numbers.js";
import { startPlane } from "/plane_view.js";

const ROW_LOW = -(1n << 63n);
const ROW_HIGH = (1n << 63n) - 1n;
const KNOBS = [...Object.keys(DEFAULTS), "schedule"]; // the API's names, as the module knows them
const COLOURS = { floor: "#fdfdf8", wall: "#1d2430", missing: "#d6d3ca", path: "#e4572e", seam: "#5b6270" };
const MAX_CACHED = 256;
const MAX_FETCHES = 6;
const MARGIN = 64; // pixels left of the maze, for the bands' first rows' numbers
// what to type instead of a row that is not one (numbers.js: integers and powers added)
const ROW_HINT = "row: an integer, such as 1000000000000, -2**62 or 2**63 - 5";

const query = new URLSearchParams(location.search);
const MODE = query.get("mode") === "plane" ? "plane" : "banded";
const params = {
  width: Number(query.get("width") || 40),
  band: Number(query.get("band") || 16),
  seed: query.get("seed") || String(Math.floor(Math.random() * 2 ** 32)),
};
for (const name of KNOBS) if (query.get(name) !== null) params[name] = query.get(name);

const canvas = document.getElementById("maze");
const stage = document.getElementById("stage");
const ctx = canvas.getContext("2d");
const first = parseRow(query.get("row") || "0");
const view = { top: first.row ?? 0n, offset: 0, cell: 12, wall: 2, left: 0, rowsShown: 0 };
const bands = new Map(); // band index (string) -> Uint8Array of band * width flags, or "pending" / "failed"
let fetching = 0;
let path = []; // [[row BigInt, x], ...]
let errors = [];

// A row as typed (numbers.js), exact: {row} for a row of the maze, or {error}
// saying why not: a row past either end is refused, not moved.
function parseRow(text) {
  const typed = typedInteger(text);
  if (typed === null) return { error: ROW_HINT };
  if (typed.huge) return { error: `row ${typed.text}: far past the maze's ends, -2**63 and 2**63 - 1` };
  const v = typed.value;
  if (v > ROW_HIGH) return { error: `row ${v} is past the maze's last row, 2**63 - 1 = ${ROW_HIGH}` };
  if (v < ROW_LOW) return { error: `row ${v} is above the maze's first row, -2**63 = ${ROW_LOW}` };
  return { row: v };
}

const K = () => BigInt(params.band);

function apiQuery(extra) {
  const q = new URLSearchParams({ width: params.width, band: params.band, seed: params.seed });
  for (const name of KNOBS) if (params[name] !== undefined) q.set(name, params[name]);
  for (const [k, v] of Object.entries(extra)) q.set(k, v);
  return q;
}

// ------------------------------------------------------------------ bands
async function fetchBand(b) {
  const key = String(b);
  bands.set(key, "pending");
  fetching++;
  try {
    // the band's rows that exist: the bands of rows -2**63 and 2**63 - 1 are cut
    // when the band height does not divide 2**63 (the rows past them stay closed)
    const [start, stop] = bandRows(b);
    const answer = await fetch("/v1/rows?" + apiQuery({ start, stop: stop + 1n, format: "raw" }));
    if (!answer.ok) throw new Error((await answer.json()).error);
    const data = new Uint8Array(params.band * params.width);
    data.set(new Uint8Array(await answer.arrayBuffer()), Number(start - b * K()) * params.width);
    bands.set(key, data);
  } catch (e) {
    bands.set(key, "failed");
    errors.push(String(e));
    tell(String(e));
  } finally {
    fetching--;
  }
  evict();
  draw();
  want();
}

// the first and last rows of band b that the maze has
function bandRows(b) {
  const top = b * K();
  const bottom = top + K() - 1n;
  return [top < ROW_LOW ? ROW_LOW : top, bottom > ROW_HIGH ? ROW_HIGH : bottom];
}

// the bands around the view, nearest to its middle first
function want() {
  const first = floorDiv(view.top - 1n, K());
  const last = floorDiv(view.top + BigInt(view.rowsShown), K());
  const middle = floorDiv(view.top + BigInt(view.rowsShown >> 1), K());
  const needed = [];
  for (let b = first - 1n; b <= last + 1n; b++) {
    if (b * K() + K() > ROW_LOW && b * K() <= ROW_HIGH && !bands.has(String(b))) needed.push(b);
  }
  const distance = (b) => (b > middle ? b - middle : middle - b);
  needed.sort((a, c) => (distance(a) < distance(c) ? -1 : distance(a) > distance(c) ? 1 : 0));
  for (const b of needed) {
    if (fetching >= MAX_FETCHES) break;
    fetchBand(b);
  }
}

function evict() {
  if (bands.size <= MAX_CACHED) return;
  const middle = floorDiv(view.top, K());
  const far = [...bands.keys()].map(BigInt).sort((a, c) => {
    const da = a > middle ? a - middle : middle - a;
    const dc = c > middle ? c - middle : middle - c;
    return da > dc ? -1 : da < dc ? 1 : 0;
  });
  for (const b of far.slice(0, bands.size - MAX_CACHED)) if (bands.get(String(b)) !== "pending") bands.delete(String(b));
}

function rowOf(r) {
  const b = floorDiv(r, K());
  const data = bands.get(String(b));
  if (!(data instanceof Uint8Array)) return null;
  const y = Number(r - b * K());
  return data.subarray(y * params.width, (y + 1) * params.width);
}

// ------------------------------------------------------------------ drawing
function layout() {
  const ratio = 1;
  canvas.width = stage.clientWidth * ratio;
  canvas.height = stage.clientHeight * ratio;
  view.cell = Math.max(4, Math.min(32, Math.floor((canvas.width - MARGIN - 20) / params.width)));
  view.wall = view.cell >= 8 ? 2 : 1;
  view.left = MARGIN + Math.max(0, Math.floor((canvas.width - MARGIN - view.cell * params.width) / 2));
  view.rowsShown = Math.ceil(canvas.height / view.cell) + 1;
}

function draw() {
  const { cell: c, wall: t, left } = view;
  const w = params.width;
  ctx.fillStyle = "#f3f1ea";
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  for (let i = -1; i < view.rowsShown; i++) {
    const r = view.top + BigInt(i);
    if (r < ROW_LOW || r > ROW_HIGH) continue;
    const y = i * c - view.offset;
    const row = rowOf(r);
    if (r % K() === 0n) seam(r, y);
    ctx.fillStyle = row === null ? COLOURS.missing : COLOURS.floor;
    ctx.fillRect(left, y, c * w, c);
    if (row === null) continue;
    ctx.fillStyle = COLOURS.wall;
    ctx.fillRect(left - t + (t >> 1), y, t, c + (t >> 1));
    if (r === ROW_LOW) ctx.fillRect(left - (t >> 1), y - (t >> 1), c * w + t, t); // the maze's top edge
    for (let x = 0; x < w; x++) {
      const x0 = left + x * c;
      if (!(row[x] & EAST)) ctx.fillRect(x0 + c - (t >> 1), y - (t >> 1), t, c + t);
      // row 2**63 - 1 is the last: its SOUTH flags open onto no row, drawn as the maze's bottom edge
      if (!(row[x] & SOUTH) || r === ROW_HIGH) ctx.fillRect(x0 - (t >> 1), y + c - (t >> 1), c + t, t);
    }
  }
  drawPath();
  where();
}

// a band's first row: its number in the margin, and a tick
function seam(r, y) {
  ctx.fillStyle = COLOURS.seam;
  ctx.fillRect(view.left - 14, y, 8, 1);
  ctx.font = "11px system-ui, sans-serif";
  ctx.textAlign = "right";
  ctx.textBaseline = "top";
  const text = String(r);
  const at = y + view.cell > 0 ? Math.max(y - 5, 1) : y - 5; // the top row's label below the canvas's edge
  ctx.fillText(text.length > 9 ? text.slice(0, 3) + "…" + text.slice(-4) : text, view.left - 18, at);
}

function drawPath() {
  if (path.length < 2) return;
  const c = view.cell;
  ctx.strokeStyle = COLOURS.path;
  ctx.lineWidth = Math.max(2, c >> 2);
  ctx.beginPath();
  path.forEach(([r, x], i) => {
    const px = view.left + x * c + c / 2;
    const py = Number(r - view.top) * c - view.offset + c / 2;
    if (i === 0) ctx.moveTo(px, py);
    else ctx.lineTo(px, py);
  });
  ctx.stroke();
}

// the rows in view (only rows the maze has), and a message that stays until the next jump
function where() {
  const last = view.top + BigInt(view.rowsShown - 2);
  const text = `rows ${view.top} .. ${last > ROW_HIGH ? ROW_HIGH : last}, band ${floorDiv(view.top, K())}`;
  document.getElementById("where").textContent = text;
}

function tell(text) {
  document.getElementById("message").textContent = text;
}

// ------------------------------------------------------------------ moving
function scrollBy(pixels) {
  let offset = view.offset + Math.round(pixels);
  const rows = Math.floor(offset / view.cell);
  offset -= rows * view.cell;
  let top = view.top + BigInt(rows);
  const last = ROW_HIGH - BigInt(view.rowsShown) + 2n;
  if (top < ROW_LOW) [top, offset] = [ROW_LOW, 0];
  if (top > last && top > view.top) [top, offset] = [view.top > last ? view.top : last, 0];
  view.top = top;
  view.offset = offset;
  moved();
}

function jump(row) {
  tell("");
  view.top = row;
  view.offset = 0;
  path = [];
  moved();
}

let urlTimer = 0;
function moved() {
  draw();
  want();
  // the box says where the view is now (unless it is being typed into), the URL a moment later
  const box = document.getElementById("row");
  if (document.activeElement !== box) box.value = String(view.top);
  clearTimeout(urlTimer);
  urlTimer = setTimeout(() => history.replaceState(null, "", "?" + apiQuery({ row: view.top })), 150);
}

// the way from a cell to the next band: breadth-first search inside its band
function wayDown(r, x) {
  const b = floorDiv(r, K());
  const data = bands.get(String(b));
  if (!(data instanceof Uint8Array) || b * K() + K() > ROW_HIGH) return [];
  const w = params.width;
  const k = params.band;
  const y0 = Number(r - b * K());
  const prev = new Int32Array(k * w).fill(-1);
  const queue = [y0 * w + x];
  prev[y0 * w + x] = y0 * w + x;
  for (let head = 0; head < queue.length; head++) {
    const i = queue[head];
    const y = Math.floor(i / w);
    const cx = i % w;
    if (y === k - 1 && data[i] & SOUTH) {
      const out = [[b * K() + K(), cx]];
      for (let j = i; ; j = prev[j]) {
        out.push([b * K() + BigInt(Math.floor(j / w)), j % w]);
        if (prev[j] === j) break;
      }
      return out.reverse();
    }
    const next = [];
    if (data[i] & EAST) next.push(i + 1);
    if (data[i] & SOUTH) next.push(i + w);
    if (cx > 0 && data[i - 1] & EAST) next.push(i - 1);
    if (y > 0 && data[i - w] & SOUTH) next.push(i - w);
    for (const j of next) if (prev[j] < 0) { prev[j] = i; queue.push(j); }
  }
  return [];
}

function cellAt(clientX, clientY) {
  const box = canvas.getBoundingClientRect();
  const px = clientX - box.left;
  const py = clientY - box.top + view.offset;
  const x = Math.floor((px - view.left) / view.cell);
  if (x < 0 || x >= params.width) return null;
  return [view.top + BigInt(Math.floor(py / view.cell)), x];
}

// ------------------------------------------------------------------ starting
// the banded mode's handlers, and the view drawn
function startBanded() {
  let drag = null;
  stage.addEventListener("pointerdown", (e) => {
    drag = { y: e.clientY, x: e.clientX, moved: 0 };
    stage.setPointerCapture(e.pointerId);
  });
  stage.addEventListener("pointermove", (e) => {
    if (drag === null) return;
    const dy = drag.y - e.clientY;
    drag.moved += Math.abs(dy);
    drag.y = e.clientY;
    if (dy) scrollBy(dy);
  });
  stage.addEventListener("pointerup", (e) => {
    const click = drag !== null && drag.moved < 4;
    drag = null;
    if (!click) return;
    const at = cellAt(e.clientX, e.clientY);
    if (at === null) return;
    path = wayDown(at[0], at[1]);
    draw();
  });
  stage.addEventListener("wheel", (e) => {
    e.preventDefault();
    scrollBy(e.deltaMode === 1 ? e.deltaY * view.cell : e.deltaMode === 2 ? e.deltaY * canvas.height : e.deltaY);
  }, { passive: false });
  window.addEventListener("keydown", (e) => {
    if (e.target instanceof HTMLInputElement) return;
    const steps = { ArrowDown: view.cell, ArrowUp: -view.cell, PageDown: canvas.height * 0.9, PageUp: -canvas.height * 0.9, " ": canvas.height * 0.9 };
    if (e.key in steps) {
      e.preventDefault();
      scrollBy(steps[e.key]);
    }
  });
  window.addEventListener("resize", () => { layout(); moved(); });

  document.getElementById("controls").addEventListener("submit", (e) => {
    e.preventDefault();
    const form = new FormData(e.target);
    const { row, error } = parseRow(String(form.get("row")));
    if (error !== undefined) {
      tell(error);
      return;
    }
    const same = ["seed", "width", "band", "loops", "rooms"].every((n) => String(form.get(n)) === String(params[n] ?? ""));
    if (!same) {
      const q = apiQuery({});
      for (const n of ["seed", "width", "band", "loops", "rooms"]) {
        if (form.get(n)) q.set(n, form.get(n)); else q.delete(n);
      }
      q.set("row", row);
      location.search = "?" + q;
      return;
    }
    jump(row);
  });

  for (const name of ["seed", "width", "band", "loops", "rooms"]) document.getElementById(name).value = params[name] ?? "";
  document.getElementById("row").value = String(view.top);

  // what the browser tests read: the view, the bands loaded, the way drawn
  window.ellerViewer = {
    state: () => ({ mode: MODE, top: String(view.top), offset: view.offset, cell: view.cell, wall: view.wall,
      left: view.left, rowsShown: view.rowsShown, width: params.width, band: params.band, seed: params.seed, fetching,
      loaded: [...bands.entries()].filter(([, v]) => v instanceof Uint8Array).map(([k]) => k),
      path: path.map(([r, x]) => [String(r), x]), errors,
      message: document.getElementById("message").textContent }),
    jump: (row) => jump(BigInt(row)),
    scrollBy,
  };

  layout();
  moved();
  if (first.error !== undefined) tell(first.error);
}

// the mode box: the other mode at the same seed; the controls and help of this one shown
const modeBox = document.getElementById("mode");
modeBox.value = MODE;
modeBox.addEventListener("change", () => {
  const q = new URLSearchParams({ seed: document.getElementById("seed").value || params.seed });
  if (modeBox.value === "plane") q.set("mode", "plane");
  location.search = "?" + q;
});
document.body.classList.toggle("plane-mode", MODE === "plane");
if (MODE === "plane") startPlane({ query, seed: params.seed, tell });
else startBanded();
