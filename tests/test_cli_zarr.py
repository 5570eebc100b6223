"""``eller-stream render -o PATH.zarr`` (issue 24): the banded maze's rows in
a Zarr store through Dask; one-line errors, exit 2 without the extra."""

from __future__ import annotations

import json
import os
import resource
import signal
import subprocess

import numpy as np
import pytest
from cli_support import CMD, ENV, one_error_line
from cli_support import run as cli

import eller_stream as es

zarr = pytest.importorskip("zarr", reason="the [dask] extra is not installed")
pytest.importorskip("dask.array", reason="the [dask] extra is not installed")


def test_a_zarr_output_holds_the_rows_and_names_the_maze(tmp_path):
    path = tmp_path / "maze.zarr"
    schedule = tmp_path / "s.json"
    schedule.write_text(es.Schedule({0: {"loops": 0.0}, 6: {"loops": 1.0}}).to_json())
    args = ["render", "-o", str(path), "--band", "8", "--start", "-21", "--rows", "150", "--width", "33"]
    out = cli(*args, "--seed", "4", "--loops", "0.25", "--schedule", str(schedule))
    assert out.returncode == 0 and out.stderr == b"", out.stderr
    maze, start, stop = es.read_zarr_maze(path)
    expected = es.InfiniteMaze(
        33, band=8, seed=4, loops=0.25, schedule=es.Schedule.from_json(schedule.read_text())
    )
    assert maze == expected and (start, stop) == (-21, 129)
    np.testing.assert_array_equal(zarr.open_array(str(path), mode="r")[:], expected.rows(-21, 129))
    # the same command replaces a store it wrote
    again = cli("render", "-o", str(path), "--band", "4", "--rows", "9", "--width", "5", "--seed", "1")
    assert again.returncode == 0, again.stderr
    assert es.read_zarr_maze(path) == (es.InfiniteMaze(5, band=4, seed=1), 0, 9)
    assert sorted(os.listdir(tmp_path)) == ["maze.zarr", "s.json"]


@pytest.mark.parametrize(
    "extra, words",
    [
        ([], "needs --band"),
        (["--band", "4", "--solution"], "--solution draws on a picture"),
        (["--band", "4", "--cell", "3"], "--cell sizes a picture's pixels (.png or .svg); a .zarr output"),
        (["--chunk", "8", "--wall", "3"], "--wall sizes a picture's pixels"),
        (["--band", "4", "--algorithm", "backtracker"], "takes no --algorithm but eller"),
        (["--band", "4", "--strategy", "newest"], "--strategy applies"),
        (["--band", "1"], "--band: band must be in [2, 65536]"),
        (["--band", "4", "--start", str(2**63 - 5), "--rows", "10"], "no rows past 2**63 - 1"),
        # more chunks than a Dask graph holds: was a traceback naming a Python argument (chunks=)
        (["--chunk", "1", "--rows", str(2**40), "--width", "1"], "the store would have over 16777216 chunks"),
        (["--band", "2", "--rows", str(2**62), "--width", "1"], "the store would have over 16777216 chunks"),
    ],
)
def test_bad_zarr_options_exit_with_one_line(tmp_path, extra, words):
    out = cli("render", "-o", str(tmp_path / "m.zarr"), *extra)
    assert out.returncode == (3 if "2**63" in words else 2)
    assert words in one_error_line(out.stderr)
    assert os.listdir(tmp_path) == []


def test_a_folder_that_is_not_a_maze_store_is_left_alone(tmp_path):
    keep = tmp_path / "data.zarr"
    keep.mkdir()
    (keep / "zarr.json").write_text(json.dumps({"attributes": {}}))
    out = cli("render", "-o", str(keep), "--band", "4")
    assert out.returncode == 2 and "is not a store of maze rows" in one_error_line(out.stderr)
    assert os.listdir(keep) == ["zarr.json"]


def test_without_the_extra_exit_2_with_the_pip_hint(tmp_path):
    blocker = tmp_path / "blocker"
    blocker.mkdir()
    (blocker / "sitecustomize.py").write_text(
        "import sys\nfor name in ('dask', 'zarr'):\n    sys.modules[name] = None\n"
    )
    env = {**ENV, "PYTHONPATH": str(blocker) + os.pathsep + ENV["PYTHONPATH"]}
    args = [*CMD, "render", "-o", str(tmp_path / "m.zarr"), "--band", "4"]
    out = subprocess.run(args, capture_output=True, env=env, timeout=120, check=False)
    assert out.returncode == 2
    assert "pip install 'dask[array]' distributed zarr" in one_error_line(out.stderr)
    assert sorted(os.listdir(tmp_path)) == ["blocker"]


def _small_files() -> None:
    """In the child: files of at most 4 KiB, a write past that EFBIG (not SIGXFSZ)."""
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))


@pytest.mark.parametrize("maze", [["--chunk", "16"], ["--band", "16"]])
def test_a_store_the_disk_cannot_hold_is_named_not_standard_output(tmp_path, maze):
    """A full disk (here a file size limit) while writing the store was
    reported as "cannot write to standard output" (an attacker's)."""
    out = cli(
        "render", "-o", str(tmp_path / "a.zarr"), *maze, "--rows", "1000", "--width", "1000", "--seed", "1",
        preexec_fn=_small_files,
    )  # fmt: skip
    assert out.returncode == 74
    store = str(tmp_path / "a.zarr")
    assert one_error_line(out.stderr).startswith(f"eller-stream: error: cannot write the store {store!r}: ")
    assert os.listdir(tmp_path) == []
