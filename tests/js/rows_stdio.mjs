// One request a line on stdin, {"params": {...}, "start": "..", "stop": ".."}
// (seed, start, stop as decimal strings): one answer a line on stdout,
// {"hex": "<the rows' bytes>"} or {"error": "<message>"}. ELLER_STREAM_WASM=0
// asks the module's plain JavaScript (_module.mjs).
import { createInterface } from "node:readline";
import { module } from "./_module.mjs";

const { rows } = module;

for await (const line of createInterface({ input: process.stdin })) {
  let answer;
  try {
    const { params, start, stop } = JSON.parse(line);
    answer = { hex: Buffer.from(rows(params, BigInt(start), BigInt(stop))).toString("hex") };
  } catch (e) {
    answer = { error: String(e) };
  }
  process.stdout.write(JSON.stringify(answer) + "\n");
}
