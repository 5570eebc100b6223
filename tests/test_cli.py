"""The eller-stream command: by its entry point in this process where it
writes to a pipe and exits (``cli_support.run``), in processes of its own
for ``python -m``, a closed pipe, Ctrl-C and the default width of a piped
stdout."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import cli_support
import numpy as np
import pytest

import eller_stream as es

from naive import parse_ascii, parse_blocks, parse_unicode, perfect_problems

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ENV = {**os.environ, "PYTHONPATH": ROOT + os.pathsep + os.environ.get("PYTHONPATH", "")}
PARSERS = {"ascii": parse_ascii, "unicode": parse_unicode, "blocks": parse_blocks}


def cli(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[bytes]:
    return cli_support.run(*args, timeout=timeout)


def raw_grid(data: bytes, width: int) -> np.ndarray:
    return np.frombuffer(data, np.uint8).reshape(-1, width)


def test_rows_gives_a_complete_perfect_maze_in_every_style():
    raw = cli("--rows", "25", "--width", "31", "--seed", "9", "--style", "raw")
    assert raw.returncode == 0 and raw.stderr == b""
    grid = raw_grid(raw.stdout, 31)
    assert grid.shape == (25, 31) and perfect_problems(grid) == []
    np.testing.assert_array_equal(grid, es.eller(31, 25, seed=9))
    for style, parse in PARSERS.items():
        text = cli("--rows", "25", "--width", "31", "--seed", "9", "--style", style)
        assert text.returncode == 0 and text.stderr == b""
        np.testing.assert_array_equal(parse(text.stdout.decode()), grid, err_msg=style)


def test_probabilities_reach_the_stream():
    out = cli(
        "--rows",
        "10",
        "--width",
        "12",
        "--seed",
        "3",
        "--horizontal",
        "0.2",
        "--vertical",
        "0.9",
        "--style",
        "raw",
    )
    np.testing.assert_array_equal(
        raw_grid(out.stdout, 12), es.eller(12, 10, seed=3, horizontal=0.2, vertical=0.9)
    )


def test_default_width_when_piped_fits_80_columns():
    out = cli_support.process("--rows", "3", "--seed", "1")
    lines = out.stdout.decode().splitlines()
    assert out.returncode == 0 and len(lines[0]) == 79 and len(lines) == 7
    raw = cli_support.process("--rows", "2", "--seed", "1", "--style", "raw")
    assert len(raw.stdout) == 2 * 80


def test_python_m_and_help_show_examples():
    out = cli_support.process("--help")
    assert out.returncode == 0 and b"examples:" in out.stdout and b"--save-state" in out.stdout
    for command in (b"render", b"compare", b"serve"):  # every other command is named
        assert b"eller-stream " + command + b" --help" in out.stdout
    assert b"--chunk" not in out.stdout  # render's option, not this command's


def test_closed_pipe_exits_quietly():
    proc = subprocess.Popen(
        [sys.executable, "-m", "eller_stream", "--width", "40"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=ENV,
    )
    first = proc.stdout.read(5000)
    proc.stdout.close()
    _, err = proc.communicate(timeout=60)
    assert first.startswith(b"+--")
    assert err == b"", err.decode()
    assert proc.returncode == 1


def test_head_in_a_shell_pipeline():
    cmd = f"'{sys.executable}' -m eller_stream --style unicode | head -n 5"
    out = subprocess.run(["bash", "-c", cmd], capture_output=True, env=ENV, timeout=60, check=False)
    assert out.returncode == 0 and out.stderr == b""
    assert len(out.stdout.decode().splitlines()) == 5


def interrupt_after(args: list[str], wait_bytes: int) -> tuple[bytes, bytes, int]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "eller_stream", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=ENV,
    )
    got = b""
    while len(got) < wait_bytes:
        chunk = os.read(proc.stdout.fileno(), 65536)
        assert chunk, proc.stderr.read().decode()
        got += chunk
    proc.send_signal(signal.SIGINT)
    rest, err = proc.communicate(timeout=60)
    return got + rest, err, proc.returncode


@pytest.mark.parametrize("style", ["ascii", "unicode", "blocks"])
def test_ctrl_c_writes_the_closing_row(style):
    out, err, code = interrupt_after(
        ["--width", "20", "--rate", "200", "--style", style, "--seed", "4"], 2000
    )
    assert code == 130 and err == b"", err.decode()
    grid = PARSERS[style](out.decode())
    assert len(grid) >= 2 and perfect_problems(grid) == []
    np.testing.assert_array_equal(grid, es.eller(20, len(grid), seed=4))


def test_ctrl_c_while_piping_fast():
    out, err, code = interrupt_after(["--width", "50", "--style", "raw", "--seed", "2"], 200_000)
    assert code == 130 and err == b""
    grid = raw_grid(out, 50)
    assert perfect_problems(grid) == []
    np.testing.assert_array_equal(grid, es.eller(50, len(grid), seed=2))


def test_save_and_resume_equal_one_stream(tmp_path):
    state = str(tmp_path / "s.bin")
    a = cli("--rows", "50", "--width", "23", "--seed", "77", "--style", "raw", "--save-state", state)
    b = cli("--resume", state, "--rows", "50", "--style", "raw")
    whole = cli("--rows", "100", "--width", "23", "--seed", "77", "--style", "raw")
    assert a.returncode == b.returncode == whole.returncode == 0
    assert len(a.stdout) == 50 * 23
    assert a.stdout + b.stdout == whole.stdout
    assert perfect_problems(raw_grid(whole.stdout, 23)) == []


@pytest.mark.parametrize("style", ["ascii", "unicode", "blocks"])
def test_save_and_resume_text_is_seamless(tmp_path, style):
    state = str(tmp_path / "s.bin")
    a = cli("--rows", "7", "--width", "9", "--seed", "5", "--style", style, "--save-state", state)
    b = cli("--resume", state, "--rows", "4", "--style", style)
    whole = cli("--rows", "11", "--width", "9", "--seed", "5", "--style", style)
    assert a.stdout + b.stdout == whole.stdout


def test_ctrl_c_with_save_state_saves_instead_of_closing(tmp_path):
    state = str(tmp_path / "s.bin")
    out, err, code = interrupt_after(
        ["--width", "10", "--rate", "300", "--style", "raw", "--seed", "8", "--save-state", state], 300
    )
    assert code == 130 and err == b""
    first = raw_grid(out, 10)
    more = cli("--resume", state, "--rows", "5", "--style", "raw")
    grid = np.vstack([first, raw_grid(more.stdout, 10)])
    np.testing.assert_array_equal(grid, es.eller(10, len(grid), seed=8))


def test_closed_pipe_with_save_state(tmp_path):
    state = str(tmp_path / "s.bin")
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "eller_stream",
            "--width",
            "16",
            "--style",
            "raw",
            "--seed",
            "3",
            "--save-state",
            state,
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=ENV,
    )
    proc.stdout.read(1000)
    proc.stdout.close()
    _, err = proc.communicate(timeout=60)
    assert err == b"" and proc.returncode == 1
    stream, _ = __import__("eller_stream.cli.state", fromlist=["decode_state"]).decode_state(
        open(state, "rb").read()
    )
    assert stream.width == 16 and stream.seed == 3 and stream.rows_emitted >= 1000 // 16


def test_resume_accepts_a_library_checkpoint(tmp_path):
    s = es.EllerStream(12, seed=4)
    s.take(10)
    path = tmp_path / "c.bin"
    path.write_bytes(s.checkpoint())
    out = cli("--resume", str(path), "--rows", "6", "--style", "raw")
    assert out.returncode == 0
    expected = np.vstack([s.take(5), s.finish()[None]])
    np.testing.assert_array_equal(raw_grid(out.stdout, 12), expected)


@pytest.mark.parametrize(
    "args",
    [
        ["--width", "0"],
        ["--width", "abc"],
        ["--rows", "0"],
        ["--rows", "-5"],
        ["--seed", "-1"],
        ["--seed", str(2**64)],
        ["--horizontal", "1.5"],
        ["--vertical", "nan"],
        ["--rate", "-1"],
        ["--rate", "inf"],
        ["--style", "fancy"],
        ["--resume", "/nonexistent/state"],
        ["--save-state", "/nonexistent/dir/state"],
        ["--unknown"],
    ],
)
def test_bad_arguments_exit_2_with_one_line(args):
    out = cli(*args, "--rows", "3") if "--rows" not in args else cli(*args)
    assert out.returncode == 2
    assert out.stdout == b""
    lines = out.stderr.decode().splitlines()
    assert len(lines) == 1 and lines[0].startswith("eller-stream: error:"), lines
    assert "Traceback" not in out.stderr.decode()


def test_corrupt_or_mismatched_state_files(tmp_path):
    state = tmp_path / "s.bin"
    cli("--rows", "5", "--width", "8", "--seed", "1", "--style", "raw", "--save-state", str(state))
    good = state.read_bytes()
    cases = {
        "truncated": good[:-3],
        "flipped": good[:20] + bytes([good[20] ^ 1]) + good[21:],
        "foreign": b"PNG\x00" * 10,
        "empty": b"",
    }
    for name, data in cases.items():
        bad = tmp_path / name
        bad.write_bytes(data)
        out = cli("--resume", str(bad), "--rows", "3")
        assert out.returncode == 2 and out.stdout == b"", name
        assert len(out.stderr.decode().splitlines()) == 1, name
    for option, value in [("--width", "9"), ("--seed", "2"), ("--vertical", "0.1")]:
        out = cli("--resume", str(state), option, value, "--rows", "3")
        assert out.returncode == 2 and out.stdout == b"" and b"disagrees" in out.stderr
    assert cli("--resume", str(state), "--width", "8", "--rows", "2").returncode == 0


def test_state_file_is_replaced_atomically(tmp_path):
    state = tmp_path / "s.bin"
    cli("--rows", "5", "--width", "8", "--seed", "1", "--save-state", str(state))
    before = state.read_bytes()
    cli("--resume", str(state), "--rows", "5", "--save-state", str(state))
    after = state.read_bytes()
    assert before != after and len(before) == len(after)
    assert [p.name for p in tmp_path.iterdir()] == ["s.bin"]  # no temporary left behind


def test_rate_limits_a_terminal_speed():
    t0 = time.monotonic()
    out = cli("--rows", "6", "--width", "5", "--rate", "20")
    assert out.returncode == 0 and time.monotonic() - t0 >= 5 / 20
