"""The server's first answers on an empty numba cache (issue 35), in one run.

    python benchmarks/serve_cold.py

Starts ``eller-stream serve --port 0`` with ``NUMBA_CACHE_DIR`` an empty
folder and times, from the process's start, its first line and the first
answers: a small banded request, a small one with loops and rooms (both
answered by the lean twins while numba compiles), then 2048 rows of width 80
(answered by the lean twins too: the server lets them make what it takes). Needs the [serve] extra.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PATHS = [
    "/v1/rows?width=80&band=32&seed=7&start=-5&stop=60",
    "/v1/rows?width=40&band=16&seed=7&start=0&stop=64&loops=0.3&rooms=0.2",
    "/v1/rows?width=80&band=32&seed=7&start=0&stop=2048",
]


def main() -> None:
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache, "PYTHONPATH": ROOT}
        began = time.monotonic()
        command = [sys.executable, "-m", "eller_stream", "serve", "--port", "0"]
        proc = subprocess.Popen(command, stderr=subprocess.PIPE, text=True, env=env)
        try:
            assert proc.stderr is not None
            line = proc.stderr.readline()
            found = re.search(r":(\d+)/", line)
            assert found, line
            print(f"listening, announced: {time.monotonic() - began:.2f} s after start")
            for path in PATHS:
                t = time.monotonic()
                with urllib.request.urlopen(f"http://127.0.0.1:{found.group(1)}{path}", timeout=300) as r:
                    size = len(r.read())
                done = time.monotonic()
                print(f"{path}: {size} bytes in {done - t:.2f} s, {done - began:.2f} s after start")
        finally:
            proc.terminate()
            proc.wait()


if __name__ == "__main__":
    main()
