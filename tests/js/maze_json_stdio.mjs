// One request a line on stdin, {"json": "<the text of maze.to_json()>",
// "start": "..", "stop": ".."}: the module's rows of JSON.parse(json), one
// answer a line on stdout, {"hex": "<the rows' bytes>"} or {"error": "<message>"}.
import { createInterface } from "node:readline";
import { rows } from "../../clients/js/eller_stream.mjs";

for await (const line of createInterface({ input: process.stdin })) {
  let answer;
  try {
    const { json, start, stop } = JSON.parse(line);
    answer = { hex: Buffer.from(rows(JSON.parse(json), BigInt(start), BigInt(stop))).toString("hex") };
  } catch (e) {
    answer = { error: String(e) };
  }
  process.stdout.write(JSON.stringify(answer) + "\n");
}
