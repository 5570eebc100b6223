// Checks clients/js/eller_stream.mjs against every conformance vector.
// Usage: node tests/js/check_vectors.mjs VECTORS.json...  Prints one JSON line:
// {"checked": N, "failures": [...], "wasm": whether its WebAssembly was in
// use}; exits 1 on a failure. ELLER_STREAM_MODULE, if set, is the path of
// another module to check (the tests check that a module which rounds half
// up fails the vectors made to catch it); ELLER_STREAM_WASM=0 checks its
// plain JavaScript (_module.mjs).
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { module, wasm } from "./_module.mjs";

const { closingRow, rows, seedKey } = module;

const sha = (bytes) => createHash("sha256").update(bytes).digest("hex");
const hex = (bytes) => Buffer.from(bytes).toString("hex");
const failures = [];
let checked = 0;
for (const file of process.argv.slice(2)) {
  const { vectors } = JSON.parse(readFileSync(file, "utf8"));
  vectors.forEach((v, i) => {
    const where = `${file}#${i} ${JSON.stringify(v.params)} ${v.start}..${v.stop}`;
    try {
      const start = BigInt(v.start);
      const stop = BigInt(v.stop);
      // rows() refuses an empty range: a vector of no rows has its closing row alone
      const got = stop === start ? new Uint8Array(0) : rows(v.params, start, stop);
      const width = v.params.width;
      for (const [r, want] of Object.entries(v.rows)) {
        const k = Number(BigInt(r) - start);
        const row = hex(got.subarray(k * width, (k + 1) * width));
        if (row !== want) failures.push(`${where}: row ${r} is ${row}, not ${want}`);
      }
      if (v.key !== undefined && seedKey(BigInt(v.params.seed)).toString(16).padStart(16, "0") !== v.key) {
        failures.push(`${where}: key differs`);
      }
      if (sha(got) !== v.sha256) failures.push(`${where}: sha256 differs`);
      if (v.closing_sha256 !== undefined && sha(closingRow(v.params, BigInt(v.stop))) !== v.closing_sha256) {
        failures.push(`${where}: closing row differs`);
      }
    } catch (e) {
      failures.push(`${where}: ${e}`);
    }
    checked++;
  });
}
console.log(JSON.stringify({ checked, failures, wasm }));
process.exit(failures.length ? 1 : 0);
