"""examples/endless_level.py: on the banded maze the autoplay player walks
thousands of frames and is never stranded, with a bounded window of rows;
on a plain stream keeping ``band - 1`` rows above it is (which is why the
banded maze exists).  Every coin the example shows is reachable (the
oracle's search) and stays shown until it is taken or leaves the screen.
The player walks back up as far as it went down, the level saves and
resumes, and nothing is written unless asked."""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import random
import signal
import subprocess
import sys
import time

import numpy as np
import png
import pytest

import eller_stream as es

from naive import bfs_distances_reference

pytest.importorskip("pygame")
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLE = os.path.join(ROOT, "examples", "endless_level.py")
ENV = {
    **os.environ,
    "SDL_VIDEODRIVER": "dummy",
    "PYTHONPATH": ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""),
}
ENV.pop("SDL_AUDIODRIVER", None)  # the example must not need a sound device


def run(*args: str, cwd: str | None = None) -> dict:
    out = subprocess.run(
        [sys.executable, EXAMPLE, *args], capture_output=True, text=True, env=ENV, timeout=300, cwd=cwd
    )
    assert out.returncode == 0, out.stderr
    assert out.stderr == ""  # no ALSA complaints, no banner
    return json.loads(out.stdout.strip().splitlines()[-1])


def load_example():
    spec = importlib.util.spec_from_file_location("endless_level", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow
def test_the_banded_level_never_strands_the_player(tmp_path):
    shot = tmp_path / "shot.png"
    result = run(
        "--frames",
        "4000",
        "--width",
        "40",
        "--band",
        "11",
        "--seed",
        "3",
        "--screenshot",
        str(shot),
        cwd=str(tmp_path),
    )
    assert result["stuck"] == 0
    assert result["player_row"] >= 600  # it kept walking down
    assert result["most_rows_kept"] <= 32 + 32 + 1  # 2 * VIEW each way: memory is bounded
    maze = load_example().make_maze(40, 11, 3)  # rooms, and a schedule that changes at row 550
    window = maze.rows(result["window_top"], result["window_top"] + 65)
    assert hashlib.sha256(window.tobytes()).hexdigest() == result["window_sha256"]
    width, height, _, _ = png.Reader(filename=str(shot)).read()
    assert (width, height) == ((2 * 40 + 1) * 8, 2 * 33 * 8)  # the VIEW rows each way of the player
    assert os.listdir(tmp_path) == ["shot.png"]  # nothing else written


@pytest.mark.slow
def test_the_plain_stream_keeping_band_minus_one_rows_strands_it():
    result = run("--frames", "4000", "--width", "40", "--band", "11", "--seed", "3", "--plain")
    assert result["stuck"] > 0  # the only way down climbed above the rows kept
    assert result["most_rows_kept"] <= 27


@pytest.mark.parametrize("start", [-(10**12), -40])  # far from the schedule's keyframes, and across them
def test_the_player_walks_down_and_back_up_without_limit(start):
    module = load_example()
    maze = module.make_maze(30, 8, 5)
    player = module.Player(module.make_window(maze, start), 15)
    assert (player.win.above, player.win.below) == (32, 32)  # 2 * VIEW: more than band - 1
    trail = [player.cell]
    for _ in range(3000):
        player.autoplay()
        if player.cell != trail[-1]:
            trail.append(player.cell)
    assert player.stuck == 0 and trail[-1][0] - trail[0][0] >= 300
    if start == -40:
        assert trail[-1][0] >= 8 * 60  # past band 50, into the hardest bands (no loops)
    steps = {(-1, 0): "north", (1, 0): "south", (0, -1): "west", (0, 1): "east"}
    # the maze's rows over every window the walk back can have (VIEW rows each way of
    # the trail, and more), in one call: each window is checked against its slice
    top, bottom = min(y for y, _ in trail) - 64, max(y for y, _ in trail) + 64
    rows = maze.rows(top, bottom)
    for y, x in reversed(trail[:-1]):  # every step back up is open: the rows above come back
        assert player.move(steps[(y - player.cell[0], x - player.cell[1])])
        win = player.win
        assert top <= win.top and win.bottom <= bottom, (win.top, win.bottom)
        np.testing.assert_array_equal(win.rows, rows[win.top - top : win.bottom - top])
    assert player.cell == trail[0]
    assert player.most_rows <= 32 + 32 + 1


@pytest.mark.parametrize(
    ("seed", "band", "start"),
    [
        (1, 16, 0),
        (3, 40, 10**15),  # tall bands: some coins within VIEW rows are not reachable inside the window
        pytest.param(7, 16, -40, marks=pytest.mark.slow),
        pytest.param(5, 64, 0, marks=pytest.mark.slow),
    ],
)
def test_every_coin_the_example_shows_is_reachable(seed, band, start):
    """3,000 frames of autoplay (a step every other frame, as the game plays), then
    1,500 steps of a player wandering at random: after every step each coin on screen
    (drawn, or still in the fog) is reachable from the player inside the window (the
    oracle's breadth-first search), and stays on screen until the player takes it or
    it leaves the screen (VIEW rows from the player); the fog only hides some."""
    module = load_example()
    player = module.Player(module.make_window(module.make_maze(24, band, seed), start), 12)
    rng = random.Random(seed)
    before, seen = set(player.on_screen), set()
    searched: list = [None, None]  # the window searched last (its top and bytes), the cells reached

    def check(when: str) -> None:
        nonlocal before
        win, (row, column) = player.win, player.cell
        now = player.on_screen
        assert now == module.coins(player) and module.shown(player) <= now
        window = (win.top, win.rows.tobytes())
        if searched[0] != window or not searched[1][row - win.top, column]:
            # the same window and the player among the cells reached: a search from it reaches the same
            searched[:] = window, bfs_distances_reference(win.rows, (row - win.top, column)) >= 0
        reach = searched[1]
        assert all(abs(y - row) <= module.VIEW and reach[y - win.top, x] for y, x in now), when
        kept = {c for c in before if abs(c[0] - row) <= module.VIEW and c not in player.taken}
        assert kept <= now, (when, kept - now)  # no coin goes while it is on screen
        before = set(now)
        seen.update(module.shown(player))

    for frame in range(0, 3000, 2):
        player.autoplay()
        check(f"frame {frame}")
    assert player.stuck == 0 and player.cell[0] - start >= 300
    player.plan = []
    for step in range(1500):
        player.move(rng.choice(list(es.DIRECTIONS)))
        check(f"step {step}")
    assert len(seen) >= 30 and player.coins >= 10  # coins show, and the player takes some


def test_save_and_resume(tmp_path):
    state = str(tmp_path / "level.json")
    first = run("--frames", "300", "--save", state, "--seed", "3", "--width", "20", "--start", "-5000")
    assert first["start_row"] == -5000 and first["player_row"] > -5000
    second = run("--frames", "100", "--resume", state)
    assert second["start_row"] == first["player_row"] and second["player_row"] > first["player_row"]
    assert (second["width"], second["seed"], second["band"]) == (20, 3, 16)
    saved = json.loads(open(state).read())
    win = es.Window.from_json(json.dumps(saved["window"]))  # the window as it was: its fog too
    assert win.row == first["player_row"] and win.explored.any()
    assert os.listdir(tmp_path) == ["level.json"]


@pytest.mark.slow
@pytest.mark.parametrize("delay", [0.3, 3.0])  # during the imports, and while playing
def test_ctrl_c_ends_quietly(tmp_path, delay):
    proc = subprocess.Popen(
        [sys.executable, EXAMPLE, "--frames", "100000000"],
        env=ENV,
        cwd=str(tmp_path),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        time.sleep(delay)
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    finally:
        proc.kill()  # never leave a game running (it would play 10**8 frames)
        proc.wait()
    assert proc.returncode == 130
    assert "Traceback" not in err
    assert os.listdir(tmp_path) == []
