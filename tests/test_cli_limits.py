"""The command at its limits (issue 25): the last rows of the banded maze,
a full disk in the middle of a row, a state folder that goes away, widths
larger than memory, and signals in the first moments.  Every error is one
line ``eller-stream: error: ...`` with a documented exit status; what is
written is whole rows, and a saved state goes on exactly after them."""

from __future__ import annotations

import os
import resource
import shutil
import signal
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from cli_support import CMD, ENV, ROOT, one_error_line, raw, run

import eller_stream as es

from naive import parse_ascii, perfect_problems

END = 2**63 - 1  # the banded maze's last row
ROW_LIMIT_STATUS = 3


def banded(width: int, start: int, rows: int, seed: int = 1, band: int = 4) -> np.ndarray:
    """``rows`` rows from ``start`` and then the closing row."""
    stream = es.InfiniteMaze(width, band=band, seed=seed).stream(start)
    return np.vstack([stream.take(rows), stream.finish()[None]])


# -- the last rows of the banded maze --------------------------------------------------


@pytest.mark.parametrize(
    ("start", "rows", "written"),
    [
        (END, ["--rows", "3"], 1),
        (END - 1, ["--rows", "5"], 2),
        (END - 2, [], 3),  # endless
    ],
)
def test_the_rows_that_exist_and_the_closing_row_then_one_line(start, rows, written):
    out = run("--band", "4", "--start", str(start), *rows, "--width", "5", "--seed", "1", "--style", "raw")
    assert out.returncode == ROW_LIMIT_STATUS
    assert "2**63 - 1" in one_error_line(out.stderr)
    np.testing.assert_array_equal(raw(out.stdout, 5), banded(5, start, written))


def test_rows_that_fit_exactly_are_no_error():
    out = run(
        "--band", "4", "--start", str(END - 1), "--rows", "3", "--width", "5", "--seed", "1", "--style", "raw"
    )
    assert out.returncode == 0 and out.stderr == b""
    np.testing.assert_array_equal(raw(out.stdout, 5), banded(5, END - 1, 2))


def test_text_near_the_end_is_a_complete_maze():
    out = run("--band", "4", "--start", str(END - 6), "--width", "7", "--seed", "2", "--style", "ascii")
    assert out.returncode == ROW_LIMIT_STATUS
    one_error_line(out.stderr)
    grid = parse_ascii(out.stdout.decode())
    np.testing.assert_array_equal(grid, banded(7, END - 6, 7, seed=2))


def test_save_state_near_the_end_saves_a_state_that_resumes(tmp_path):
    state = str(tmp_path / "s.bin")
    a = run("--band", "4", "--start", str(END - 2), "--rows", "10", "--width", "5", "--seed", "1",
            "--style", "raw", "--save-state", state)  # fmt: skip
    assert a.returncode == ROW_LIMIT_STATUS
    one_error_line(a.stderr)
    assert os.path.exists(state)
    b = run("--resume", state, "--rows", "5", "--style", "raw")
    assert b.returncode == ROW_LIMIT_STATUS
    one_error_line(b.stderr)
    np.testing.assert_array_equal(raw(a.stdout + b.stdout, 5), banded(5, END - 2, 3))


def test_resume_two_rows_before_the_end(tmp_path):
    state = str(tmp_path / "s.bin")
    a = run("--band", "4", "--start", str(END - 4), "--rows", "3", "--width", "6", "--seed", "5",
            "--style", "raw", "--save-state", state)  # fmt: skip
    assert a.returncode == 0
    endless = run("--resume", state, "--style", "raw")
    assert endless.returncode == ROW_LIMIT_STATUS
    one_error_line(endless.stderr)
    np.testing.assert_array_equal(raw(a.stdout + endless.stdout, 6), banded(6, END - 4, 5, seed=5))
    exact = run("--resume", state, "--rows", "3", "--style", "raw")
    assert exact.returncode == 0 and exact.stdout == endless.stdout


@pytest.mark.parametrize("ext", [".png", ".svg"])
def test_render_near_the_end(tmp_path, ext):
    target = tmp_path / f"m{ext}"
    out = run("render", "-o", str(target), "--band", "4", "--start", str(END - 1), "--rows", "5")
    assert out.returncode == ROW_LIMIT_STATUS
    assert "2**63 - 1" in one_error_line(out.stderr)
    assert list(tmp_path.iterdir()) == []
    fits = run("render", "-o", str(target), "--band", "4", "--start", str(END - 1), "--rows", "3")
    assert fits.returncode == 0 and fits.stderr == b"" and target.stat().st_size > 0


# -- a full disk in the middle of a row ---------------------------------------------


def _file_limit(size: int):
    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))

    return limit


def _rows_of(style: str, data: bytes, width: int) -> int:
    """How many whole maze rows ``data`` (a stream's output, top border
    included) holds; fails on a partial row."""
    if style == "raw":
        assert len(data) % width == 0, len(data)
        return len(data) // width
    lines = data.split(b"\n")
    assert lines[-1] == b"", "a partial line"
    lines = lines[:-1]
    assert len(lines) % 2 == 1 if style == "ascii" else len(lines) % 2 == 0, len(lines)
    return len(lines) // 2


@pytest.mark.skipif(sys.platform != "linux", reason="RLIMIT_FSIZE behaviour checked on Linux")
@pytest.mark.parametrize("band", [None, "4"])
@pytest.mark.parametrize("style", ["raw", "ascii", "unicode"])
def test_a_full_disk_leaves_whole_rows_and_a_state_right_after_them(tmp_path, band, style):
    target = tmp_path / "out"
    state = tmp_path / "s.bin"
    maze = ["--band", band, "--start", "-8"] if band else []
    args = [*maze, "--width", "30", "--seed", "3", "--style", style, "--rate", "0"]
    with open(target, "wb") as f:
        out = run(*args, "--save-state", str(state), stdout=f, preexec_fn=_file_limit(100 * 1024))
    assert out.returncode == 74
    one_error_line(out.stderr)
    written = target.read_bytes()
    n = _rows_of(style, written, 30)
    assert n > 200  # rows of more than one block
    more = run("--resume", str(state), "--rows", "20", "--style", style)
    assert more.returncode == 0, more.stderr
    whole = run(*args, "--rows", str(n + 20))
    assert written + more.stdout == whole.stdout


@pytest.mark.skipif(sys.platform != "linux", reason="RLIMIT_FSIZE behaviour checked on Linux")
def test_a_full_disk_without_save_state_leaves_whole_rows(tmp_path):
    target = tmp_path / "out"
    with open(target, "wb") as f:
        out = run(
            "--width", "30", "--seed", "3", "--style", "raw", stdout=f, preexec_fn=_file_limit(100 * 1024)
        )
    assert out.returncode == 74
    one_error_line(out.stderr)
    grid = raw(target.read_bytes(), 30)
    np.testing.assert_array_equal(grid, es.EllerStream(30, 3).take(len(grid)))


# -- a state folder that goes away ----------------------------------------------------


def test_a_state_folder_removed_mid_stream_gives_74_and_the_closing_row(tmp_path):
    gone = tmp_path / "gone"
    gone.mkdir()
    proc = subprocess.Popen(
        [*CMD, "--width", "10", "--rate", "300", "--style", "ascii", "--seed", "8",
         "--save-state", str(gone / "s.bin")],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=ENV,
    )  # fmt: skip
    got = b""
    while len(got) < 400:
        chunk = os.read(proc.stdout.fileno(), 65536)
        assert chunk, proc.stderr.read().decode()
        got += chunk
    shutil.rmtree(gone)
    proc.send_signal(signal.SIGINT)
    rest, err = proc.communicate(timeout=60)
    assert proc.returncode == 74
    assert "--save-state" in one_error_line(err)
    grid = parse_ascii((got + rest).decode())  # the rows and the closing row: a complete maze
    assert perfect_problems(grid) == []
    np.testing.assert_array_equal(grid, es.eller(10, len(grid), seed=8))


# -- widths larger than memory --------------------------------------------------------


def _memory_limit() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (6_000_000 * 1024, 6_000_000 * 1024))


@pytest.mark.slow  # four processes that fill memory up to a 6 GB limit
@pytest.mark.parametrize("extra", [[], ["--band", "4"], ["--style", "ascii"], ["--style", "unicode"]])
def test_a_width_too_large_for_memory_is_one_line(extra):
    args = ["--width", "1000000000", "--rows", "2", "--style", "raw", *extra]
    out = run(*args, preexec_fn=_memory_limit, timeout=300)
    assert out.returncode == 2 and out.stdout == b""
    assert "memory" in one_error_line(out.stderr)


# -- help, README ----------------------------------------------------------------------


def test_render_help_does_not_describe_save_state():
    out = run("render", "--help")
    assert out.returncode == 0 and b"exit status:" in out.stdout
    assert b"--save-state" not in out.stdout


def test_the_compare_table_has_the_default_number_of_seeds():
    # the table the README links to (docs/companions.md)
    table = open(os.path.join(ROOT, "docs", "companions.md")).read()
    assert "docs/companions.md" in open(os.path.join(ROOT, "README.md")).read()
    out = run("compare", "--help")
    assert b"seeds per algorithm, 0, 1, ... (3)" in out.stdout
    assert "200 x 200, 3 seeds" in table and "2 seeds" not in table


# -- signals at start-up --------------------------------------------------------------

SIGNAL_AT = textwrap.dedent(
    """
    import signal, sys
    real = signal.signal
    armed = [True]

    def signal_and_interrupt(signum, handler):
        previous = real(signum, handler)
        if armed[0] and signum == signal.SIGINT and handler is signal.default_int_handler:
            armed[0] = False
            raise KeyboardInterrupt  # a Ctrl-C landing just after the entry point switched handlers
        return previous

    signal.signal = signal_and_interrupt
    sys.argv = ["eller-stream", "--rows", "4", "--width", "5"]
    from eller_stream._entry import run
    run()
    """
)


def test_ctrl_c_as_the_entry_point_switches_handlers_is_quiet():
    out = subprocess.run([sys.executable, "-c", SIGNAL_AT], capture_output=True, env=ENV, timeout=120)
    assert out.stderr == b"", out.stderr.decode()
    assert out.returncode == 130


def test_the_command_modules_load_while_signals_only_set_a_flag():
    """numpy and the command's modules load before the command runs, while a
    signal only sets a flag, and numba always in a thread of its own: an exception
    raised inside their import could be caught (and lost, or printed) by the
    code being imported, and a signal is only ever raised in the main thread."""
    code = textwrap.dedent(
        """
        import signal, sys, threading
        sys.argv = ["eller-stream", "--rows", "2", "--width", "3"]
        where = []

        class Watch:
            def find_spec(self, name, path=None, target=None):
                frame, looked_up = sys._getframe(1), False
                while frame is not None:  # importlib.util.find_spec only asks whether it is there
                    looked_up |= frame.f_code.co_filename.endswith(("importlib/util.py", "importlib.util>"))
                    frame = frame.f_back
                if name == "numba" and not looked_up:
                    where.append(threading.current_thread().name)
                return None

        sys.meta_path.insert(0, Watch())
        import eller_stream.cli as cli
        real_main = cli.main
        def main(*a, **k):
            print(sorted(m for m in ("numpy", "eller_stream.cli.stream") if m not in sys.modules))
            return real_main(*a, **k)
        cli.main = main
        from eller_stream._entry import run
        try:
            run()
        finally:
            from eller_stream import _numba
            _numba.load()
            print(where, file=sys.stderr)
        """
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, env=ENV, timeout=120)
    assert out.returncode == 0, out.stderr.decode()
    assert out.stdout.decode().splitlines()[0] == "[]"
    threads = eval(out.stderr.decode().strip().splitlines()[-1])  # where numba's import ran
    assert threads and "MainThread" not in threads


@pytest.mark.parametrize(("given", "seen"), [(None, "1"), ("3", "3")])
def test_numpy_loads_with_one_blas_thread_unless_the_user_says(given, seen):
    """numpy's BLAS started a thread a core in every command, spinning a while
    (0.05-0.07 s of CPU) for a command that makes no BLAS call: the command
    now asks for one before numpy loads, and a number its user set stands."""
    code = textwrap.dedent(
        """
        import os, sys
        import eller_stream.cli as cli
        real_load = cli.load
        def load(argv):
            print(os.environ.get("OPENBLAS_NUM_THREADS"), "numpy" in sys.modules)
            return real_load(argv)
        cli.load = load
        sys.argv = ["eller-stream", "--rows", "2", "--width", "3"]
        from eller_stream._entry import run
        run()
        """
    )
    env = {k: v for k, v in ENV.items() if k != "OPENBLAS_NUM_THREADS"}
    if given is not None:
        env["OPENBLAS_NUM_THREADS"] = given
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, env=env, timeout=120)
    assert out.returncode == 0, out.stderr.decode()
    assert out.stdout.decode().splitlines()[0] == f"{seen} False"
