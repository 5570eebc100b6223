// One call of the JavaScript module a line on stdin, {"call": "rows" or
// "closingRow", "args": [...]}: one answer a line on stdout, {"length": N}
// (the bytes it gave) or {"error": "<message>", "kind": "RangeError"}.
// The arguments are JSON with three more kinds of value: {"$big": "<decimal>"}
// is a BigInt, {"$": "NaN"}, {"$": "Infinity"}, {"$": "-Infinity"} those
// Numbers, and {"$": "undefined"} undefined.
import { createInterface } from "node:readline";
import { closingRow, rows } from "../../clients/js/eller_stream.mjs";

const SPECIAL = { NaN: NaN, Infinity: Infinity, "-Infinity": -Infinity, undefined: undefined };
const CALLS = { rows, closingRow };

function revive(value) {
  if (Array.isArray(value)) return value.map(revive);
  if (typeof value !== "object" || value === null) return value;
  const keys = Object.keys(value);
  if (keys.length === 1 && keys[0] === "$big") return BigInt(value.$big);
  if (keys.length === 1 && keys[0] === "$") return SPECIAL[value.$];
  return Object.fromEntries(keys.map((k) => [k, revive(value[k])]));
}

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
