// The module the test scripts ask: clients/js/eller_stream.mjs, or the one at
// ELLER_STREAM_MODULE if set; with ELLER_STREAM_WASM=0, its plain JavaScript
// (useWasm(false)), else its WebAssembly where it runs. `wasm`: whether the
// WebAssembly is in use.
import { pathToFileURL } from "node:url";

const path = process.env.ELLER_STREAM_MODULE;
export const module = await import(path ? pathToFileURL(path).href : "../../clients/js/eller_stream.mjs");
export const wasm = module.useWasm(process.env.ELLER_STREAM_WASM !== "0");
