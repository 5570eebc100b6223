"""The HTTP server's figures (issue 22), measured in one run.

    python benchmarks/serve.py [--requests 100000] [--clients 32]

- requests per second and p50/p99 latency of 64-row requests at width 80
  (band 32, random starts), from ``--clients`` keep-alive connections on
  loopback (an asyncio client in its own process: client and server share
  the machine's cores), against ``maze.rows`` of the same ranges in a loop;
- the first request's latency after start-up against the median;
- the server's RSS after 100 requests and after ``--requests``;
- the JavaScript module's ns per cell (node) against the package's, one
  thread each, width 80, band 32.

Needs the [serve] extra and node.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import random
import subprocess
import sys
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests"))
WIDTH, BAND, ROWS = 80, 32, 64


def path(rng: random.Random) -> str:
    start = rng.randrange(-(10**12), 10**12)
    return f"/v1/rows?width={WIDTH}&band={BAND}&seed=7&start={start}&stop={start + ROWS}"


async def _client(host: str, port: int, n: int, seed: int, latencies: list[float]) -> None:
    reader, writer = await asyncio.open_connection(host, port)
    rng = random.Random(seed)
    for _ in range(n):
        t = time.perf_counter()
        writer.write(f"GET {path(rng)} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
        head = await reader.readuntil(b"\r\n\r\n")
        length = int(head.split(b"content-length: ")[1].split(b"\r\n")[0])
        body = await reader.readexactly(length)
        assert head.startswith(b"HTTP/1.1 200") and len(body) == ROWS * WIDTH
        latencies.append(time.perf_counter() - t)
    writer.close()


def load(host: str, port: int, requests: int, clients: int, out: multiprocessing.Queue) -> None:  # type: ignore[type-arg]
    latencies: list[float] = []

    async def main() -> float:
        t = time.perf_counter()
        per = requests // clients
        await asyncio.gather(*(_client(host, port, per, k, latencies) for k in range(clients)))
        return time.perf_counter() - t

    elapsed = asyncio.run(main())
    out.put((elapsed, latencies))


def run_load(server: object, requests: int, clients: int) -> tuple[float, np.ndarray]:
    q: multiprocessing.Queue = multiprocessing.Queue()  # type: ignore[type-arg]
    p = multiprocessing.Process(target=load, args=(server.host, server.port, requests, clients, q))  # type: ignore[attr-defined]
    p.start()
    elapsed, latencies = q.get()
    p.join()
    return elapsed, np.array(latencies)


def rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


def engine_loop(n: int) -> float:
    import eller_stream as es
    from eller_stream import _engine as engine

    maze = es.InfiniteMaze(WIDTH, BAND, 7)
    rng = random.Random(1)
    starts = [rng.randrange(-(10**12), 10**12) for _ in range(n)]
    maze.rows(0, ROWS)
    engine.settle()
    t = time.perf_counter()
    for s in starts:
        maze.rows(s, s + ROWS)
    return n / (time.perf_counter() - t)


def js_against_python(rows: int = 40000) -> tuple[float, float]:
    import numba

    import eller_stream as es
    from eller_stream import _engine as engine

    script = f"""
    const m = await import("{ROOT}/clients/js/eller_stream.mjs");
    const p = {{ width: {WIDTH}, band: {BAND}, seed: "7" }};
    m.rows(p, 0, 2048);
    let best = Infinity;
    for (let k = 0; k < 5; k++) {{
      const t = performance.now(); m.rows(p, 0, {rows}); best = Math.min(best, performance.now() - t);
    }}
    console.log(best * 1e6 / ({rows} * {WIDTH}));
    """
    js = float(
        subprocess.run(
            ["node", "--input-type=module", "-e", script], capture_output=True, text=True, check=True
        ).stdout
    )
    numba.set_num_threads(1)
    maze = es.InfiniteMaze(WIDTH, BAND, 7)
    maze.rows(0, 2048)
    engine.settle()
    best = float("inf")
    for _ in range(5):
        t = time.perf_counter()
        maze.rows(0, rows)
        best = min(best, time.perf_counter() - t)
    return js, best * 1e9 / (rows * WIDTH)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--requests", type=int, default=100_000)
    ap.add_argument("--clients", type=int, default=32)
    args = ap.parse_args()
    from serve_support import Server

    t = time.perf_counter()
    server = Server()
    started = time.perf_counter() - t
    rng = random.Random(0)
    t = time.perf_counter()
    assert server.get(path(rng)).status == 200
    first = time.perf_counter() - t
    _, warm = run_load(server, 100 * args.clients // args.clients * 1, args.clients)
    rss_100 = rss_mb(server.proc.pid)
    elapsed, lat = run_load(server, args.requests, args.clients)
    rss_end = rss_mb(server.proc.pid)
    server.stop()
    loop = engine_loop(20_000)
    js, py = js_against_python()
    rate = len(lat) / elapsed
    print(
        json.dumps(
            {
                "start_to_listening_s": round(started, 2),
                "first_request_ms": round(first * 1e3, 2),
                "median_ms_at_100": round(float(np.median(warm)) * 1e3, 2),
                "requests": len(lat),
                "clients": args.clients,
                "requests_per_s": round(rate),
                "p50_ms": round(float(np.percentile(lat, 50)) * 1e3, 2),
                "p99_ms": round(float(np.percentile(lat, 99)) * 1e3, 2),
                "maze_rows_calls_per_s": round(loop),
                "server_vs_loop": round(rate / loop, 3),
                "rss_mb_after_100": round(rss_100, 1),
                "rss_mb_after_all": round(rss_end, 1),
                "js_ns_per_cell": round(js, 1),
                "python_ns_per_cell_one_thread": round(py, 2),
                "js_vs_python": round(js / py, 1),
            },
            indent=1,
        )
    )


if __name__ == "__main__":
    main()
