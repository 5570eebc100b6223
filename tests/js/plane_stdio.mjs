// Batches of calls of the plane, one batch a line on stdin: {"call": "region"
// or "cellsMade", "batch": [[params, y0, y1, x0, x1], ...]} (JSON with BigInts
// and the rest, _revive.mjs). One answer a line on stdout, {"answers": [...]},
// one for each call, in order: {"hex": "<the region's bytes>"} or {"cells":
// "<cellsMade>"}, or {"error": "<message>", "kind": "RangeError"}.
// ELLER_STREAM_MODULE, if set, is the path of another module to ask;
// ELLER_STREAM_WASM=0 asks its plain JavaScript (_module.mjs).
import { createInterface } from "node:readline";
import { module } from "./_module.mjs";
import { revive } from "./_revive.mjs";

const { cellsMade, region } = module;
const CALLS = {
  region: (args) => ({ hex: Buffer.from(region(...args)).toString("hex") }),
  cellsMade: (args) => ({ cells: String(cellsMade(...args)) }),
};

function answer(call, args) {
  try {
    return CALLS[call](args);
  } catch (e) {
    return { error: String(e.message), kind: e.constructor.name };
  }
}

for await (const line of createInterface({ input: process.stdin })) {
  const { call, batch } = JSON.parse(line);
  process.stdout.write(JSON.stringify({ answers: batch.map((args) => answer(call, revive(args))) }) + "\n");
}
