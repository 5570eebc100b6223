"""What a cell costs in the JavaScript module (clients/js, under node) against
the package (numba, one thread), in one run: the Eller stream's rows, the
banded maze's (plain, loops, rooms) and regions of the plane (perfect or
not), each the best of several rounds, in ns a cell, and JS / package.

    python benchmarks/js_speed.py [--rounds 5] [--rows 10000] [--width 80] [--size 512] [--plain]

``--plain`` times the module's plain JavaScript (``useWasm(false)``), not its
WebAssembly.

The machines are shared and noisy: compare the ratios of one run, and run it
on a quiet machine.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import eller_stream as es

MODULE = Path(__file__).resolve().parent.parent / "clients" / "js" / "eller_stream.mjs"

# node's half: each case {name, call, args} timed `rounds` times after one to warm up;
# prints {wasm: whether its WebAssembly was in use, out: {name: best seconds}}.
# Arguments in {"$big": ...} are BigInts.
NODE_SCRIPT = """
const { rows, region, useWasm } = await import(process.argv[1]);
const { cases, rounds, plain } = JSON.parse(process.argv[2]);
const wasm = useWasm(!plain);
const big = (v) => (v !== null && typeof v === "object" && "$big" in v ? BigInt(v.$big) : v);
const calls = { rows, region };
const out = {};
for (const { name, call, args } of cases) {
  const a = args.map(big);
  calls[call](...a);
  let best = Infinity;
  for (let i = 0; i < rounds; i++) {
    const t = process.hrtime.bigint();
    calls[call](...a);
    best = Math.min(best, Number(process.hrtime.bigint() - t) / 1e9);
  }
  out[name] = best;
}
console.log(JSON.stringify({ wasm, out }));
"""


def best(fn: Callable[[], object], rounds: int) -> float:
    """The fastest of ``rounds`` calls, in seconds (after one to warm up)."""
    fn()
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def cases(n_rows: int, width: int, size: int) -> list[tuple[str, int, dict[str, Any], Callable[[], object]]]:
    """(name, cells, the JS call, the package's call) of each case."""
    start = 10**12
    half = size // 2
    out: list[tuple[str, int, dict[str, Any], Callable[[], object]]] = []
    stream = {"width": width, "seed": "1"}

    def eller() -> object:
        return es.EllerStream(width, 1).take(n_rows)

    out.append(
        (f"Eller stream, width {width}", n_rows * width, {"call": "rows", "args": [stream, 0, n_rows]}, eller)
    )
    for extra in ({}, {"loops": 0.5}, {"rooms": 0.3}):
        params = {"width": width, "band": 32, "seed": "1", **extra}
        maze = es.InfiniteMaze(width, 32, 1, **extra)
        name = f"banded, width {width}, band 32" + "".join(f", {k} {v}" for k, v in extra.items())
        js = {"call": "rows", "args": [params, start, start + n_rows]}
        out.append((name, n_rows * width, js, lambda m=maze: m.rows(start, start + n_rows)))
    for chunk, perfect in ((16, True), (16, False), (64, True)):
        plane = es.Plane(chunk, 1, perfect=perfect)
        params = {"chunk": chunk, "seed": "1", "perfect": perfect}
        name = f"plane {size} x {size}, chunk {chunk}, perfect={perfect}"
        js = {"call": "region", "args": [params, -half, half, -half, half]}
        out.append((name, size * size, js, lambda p=plane: p.region(-half, half, -half, half)))
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--rows", type=int, default=10000)
    parser.add_argument("--width", type=int, default=80)
    parser.add_argument("--size", type=int, default=512)
    parser.add_argument(
        "--plain", action="store_true", help="the module's plain JavaScript, not its WebAssembly"
    )
    args = parser.parse_args(argv)
    node = shutil.which("node")
    if node is None:
        raise SystemExit("js_speed: node is not installed")
    import numba

    numba.set_num_threads(1)
    from eller_stream import _engine

    todo = cases(args.rows, args.width, args.size)
    for *_, python in todo:  # the kernels compiled (the lean twins answer until they are)
        python()
    _engine.settle()
    request = {
        "cases": [{"name": name, **js} for name, _, js, _ in todo],
        "rounds": args.rounds,
        "plain": args.plain,
    }
    done = subprocess.run(
        [node, "--input-type=module", "-e", NODE_SCRIPT, MODULE.as_uri(), json.dumps(request)],
        capture_output=True,
        text=True,
        check=True,
    )
    answer = json.loads(done.stdout)
    js_times = answer["out"]
    print(
        f"node {subprocess.run([node, '--version'], capture_output=True, text=True).stdout.strip()}, "
        f"{'WebAssembly' if answer['wasm'] else 'plain JavaScript'}, "
        f"best of {args.rounds}; the package on one numba thread"
    )
    print(f"{'case':48s} {'JS ns/cell':>10s} {'package':>10s} {'JS/package':>10s}")
    for name, cells, _, python in todo:
        mine = best(python, args.rounds) / cells * 1e9
        theirs = js_times[name] / cells * 1e9
        print(f"{name:48s} {theirs:10.1f} {mine:10.1f} {theirs / mine:10.1f}")


if __name__ == "__main__":
    main()
