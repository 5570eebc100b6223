"""examples/endless_level.py runs headless, scrolls with bounded memory, and
saves and resumes exactly."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys

import numpy as np
import png
import pytest

import eller_stream as es

pytest.importorskip("pygame")
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLE = os.path.join(ROOT, "examples", "endless_level.py")
ENV = {
    **os.environ,
    "SDL_VIDEODRIVER": "dummy",
    "SDL_AUDIODRIVER": "dummy",
    "PYTHONPATH": ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""),
}


def run(*args: str) -> dict:
    out = subprocess.run(
        [sys.executable, EXAMPLE, *args], capture_output=True, text=True, env=ENV, timeout=300
    )
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_endless_level_headless_save_and_resume(tmp_path):
    shot = tmp_path / "shot.png"
    state = str(tmp_path / "level.npz")
    first = run("--frames", "300", "--screenshot", str(shot), "--save", state, "--seed", "3", "--width", "20")
    assert first["frames"] == 300 and first["player_row"] >= 40  # the player walked far down
    assert first["most_rows_kept"] <= 10 + 24 + 1  # rows dropped behind: memory is bounded
    width, height, _, _ = png.Reader(filename=str(shot)).read()
    assert (width, height) == ((2 * 20 + 1) * 8, 2 * 35 * 8)

    second = run("--frames", "100", "--resume", state, "--save", state)
    assert second["start_row"] == first["player_row"] and second["player_row"] > first["player_row"]
    assert second["first_generated"] == first["rows_generated"]
    # the resumed session generated exactly the rows one stream would have
    rows = es.EllerStream(20, seed=3).take(first["rows_generated"] + second["rows_generated"])
    assert hashlib.sha256(rows[: first["rows_generated"]].tobytes()).hexdigest() == first["generated_sha256"]
    assert hashlib.sha256(rows[first["rows_generated"] :].tobytes()).hexdigest() == second["generated_sha256"]
    assert np.load(state)["rows"].shape[1] == 20
