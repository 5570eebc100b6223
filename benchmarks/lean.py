"""The lean backend's figures (issue 23), measured in one run.

    python benchmarks/lean.py [--rows 1000000]

- peak RSS of ``eller-stream --style raw --width 80 --rows N > /dev/null`` on
  the lean backend and on numba's (each its own process: ru_maxrss);
- the lean backend's rows per second at widths 80 and 1000: the Eller stream,
  the banded maze (band 16 and 32; loops 0.5; rooms 0.3);
- time to the first row of ``eller-stream --band 16`` (its first two lines of
  text) on an empty numba cache, on a warm one, and lean.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

SPEED = r"""
import json, time
import eller_stream as es
assert es.backend() == "lean"
out = {}
for width in (80, 1000):
    n = 20000 if width == 80 else 2000
    t = time.perf_counter()
    es.EllerStream(width, 1).take(n)
    out[f"eller w{width}"] = n / (time.perf_counter() - t)
    for band, knobs in ((16, {}), (32, {}), (32, {"loops": 0.5}), (32, {"rooms": 0.3})):
        m = es.InfiniteMaze(width, band, 1, **knobs)
        t = time.perf_counter(); m.rows(0, n // 4)
        out[f"banded w{width} b{band} {knobs}"] = (n // 4) / (time.perf_counter() - t)
print(json.dumps({k: round(v) for k, v in out.items()}))
"""


def env(**extra: str) -> dict[str, str]:
    e = {k: v for k, v in os.environ.items() if k != "ELLER_STREAM_BACKEND"}
    e["PYTHONPATH"] = ROOT + os.pathsep + e.get("PYTHONPATH", "")
    return {**e, **extra}


def peak_rss_mb(backend: str, rows: int) -> tuple[float, float]:
    """Peak RSS (MB) and seconds of a process streaming ``rows`` raw rows at width 80."""
    code = (
        "import resource, subprocess, sys, time\n"
        "t = time.perf_counter()\n"
        f"subprocess.run([sys.executable, '-m', 'eller_stream', '--style', 'raw', '--width', '80', '--rows', "
        f"'{rows}'], stdout=subprocess.DEVNULL, check=True)\n"
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024, time.perf_counter() - t)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env=env(ELLER_STREAM_BACKEND=backend),
    ).stdout.split()
    return float(out[0]), float(out[1])


def first_row(extra: dict[str, str]) -> float:
    t = time.perf_counter()
    p = subprocess.Popen(
        [sys.executable, "-m", "eller_stream", "--band", "16"], stdout=subprocess.PIPE, env=env(**extra)
    )
    assert p.stdout is not None
    p.stdout.readline()
    p.stdout.readline()
    elapsed = time.perf_counter() - t
    p.kill()
    p.wait()
    return elapsed


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=1_000_000)
    args = ap.parse_args()
    out: dict[str, object] = {}
    out["lean peak MB, s"] = peak_rss_mb("lean", args.rows)
    out["numba peak MB, s"] = peak_rss_mb("numba", args.rows)
    out["lean rows/s"] = json.loads(
        subprocess.run(
            [sys.executable, "-c", SPEED],
            capture_output=True,
            text=True,
            check=True,
            env=env(ELLER_STREAM_BACKEND="lean"),
        ).stdout
    )
    firsts: dict[str, list[float]] = {"numba, empty cache": [], "numba, warm cache": [], "lean": []}
    for _ in range(3):
        cache = tempfile.mkdtemp()
        firsts["numba, empty cache"].append(first_row({"NUMBA_CACHE_DIR": cache}))
        time.sleep(8)  # the first process's compile, which it left running, is gone with it: warm the cache
        subprocess.run(
            [sys.executable, "-m", "eller_stream", "--band", "16", "--rows", "5000", "--style", "raw"],
            stdout=subprocess.DEVNULL,
            env=env(NUMBA_CACHE_DIR=cache),
            check=True,
        )
        firsts["numba, warm cache"].append(first_row({"NUMBA_CACHE_DIR": cache}))
        firsts["lean"].append(first_row({"ELLER_STREAM_BACKEND": "lean"}))
    out["first row s (3 runs)"] = {k: [round(v, 3) for v in vs] for k, vs in firsts.items()}
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    _ = resource  # the children's peak RSS is read in each measuring process
    main()
