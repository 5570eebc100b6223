// One call of the JavaScript module a line on stdin, {"call": "rows" or
// "closingRow", "args": [...]}: one answer a line on stdout, {"length": N}
// (the bytes it gave) or {"error": "<message>", "kind": "RangeError"}.
// The arguments are JSON with BigInts, NaN, the infinities and undefined
// (_revive.mjs).
import { createInterface } from "node:readline";
import { closingRow, rows } from "../../clients/js/eller_stream.mjs";
import { revive } from "./_revive.mjs";

const CALLS = { rows, closingRow };

for await (const line of createInterface({ input: process.stdin })) {
  const { call, args } = JSON.parse(line);
  let answer;
  try {
    answer = { length: CALLS[call](...revive(args)).length };
  } catch (e) {
    answer = { error: String(e.message), kind: e.constructor.name };
  }
  process.stdout.write(JSON.stringify(answer) + "\n");
}
