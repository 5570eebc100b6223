// build_wasm.mjs: _wasm.mjs (the WebAssembly of _core.mjs, base64) from
// kernels.wat, with wat2wasm of the npm package wabt:
//
//   npm install --prefix /tmp/wabt wabt@1.0.39
//   node clients/js/build_wasm.mjs /tmp/wabt            # writes clients/js/_wasm.mjs
//   node clients/js/build_wasm.mjs /tmp/wabt --print    # prints it instead
//
// wabt is needed to build, never at run time: the module stays one import
// with no dependency and no fetch. tests/test_js_wasm.py rebuilds it and
// checks that the committed bytes are these.
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";

const WABT_VERSION = "1.0.39";
const [prefix, flag] = process.argv.slice(2);
if (prefix === undefined || (flag !== undefined && flag !== "--print")) {
  console.error("usage: node build_wasm.mjs WABT_PREFIX [--print]");
  process.exit(2);
}
const require = createRequire(join(prefix, "node_modules", "wabt", "package.json"));
const { version } = require("./package.json");
if (version !== WABT_VERSION) {
  console.error(`build_wasm: wabt ${WABT_VERSION} is needed (the bytes are pinned to it), found ${version} under ${prefix}`);
  process.exit(2);
}
const wabt = await require("./index.js")();
const source = new URL("./kernels.wat", import.meta.url);
const parsed = wabt.parseWat("kernels.wat", readFileSync(source, "utf8"));
parsed.validate();
const { buffer } = parsed.toBinary({});
parsed.destroy();
const text = `// _wasm.mjs: made by build_wasm.mjs from kernels.wat (wabt ${WABT_VERSION}); do not edit.
// The WebAssembly of _core.mjs (its draws, keys and Eller's rows), ${buffer.length} bytes, base64.
export const WASM = "${Buffer.from(buffer).toString("base64")}";
`;
if (flag === "--print") process.stdout.write(text);
else writeFileSync(new URL("./_wasm.mjs", import.meta.url), text);
