"""The eller-stream command on a hostile machine: closed, full or read-only
outputs, full file systems, signals at any moment, odd state files, and
pictures too large to draw.  Every error must be one line
``eller-stream: error: ...`` with a documented exit status, never a
traceback, and what was written before stays intact."""

from __future__ import annotations

import contextlib
import errno
import fcntl
import hashlib
import io
import os
import pty
import re
import signal
import stat
import struct
import subprocess
import sys
import termios
import time

import numpy as np
import png
import pytest
from cli_support import CMD, ENV, ROOT, one_error_line, process, raw, run

import eller_stream as es
from eller_stream import _atomic, cli
from eller_stream.cli import ExitStatus
from eller_stream.cli import state as cli_state

from naive import parse_ascii, parse_unicode, perfect_problems


@contextlib.contextmanager
def tiny_tmpfs(path, size: str = "16k"):
    """A full-able file system: a tmpfs of ``size`` (needs root; skips otherwise)."""
    os.makedirs(path, exist_ok=True)
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(path)], capture_output=True, check=False
    )
    if done.returncode != 0:
        pytest.skip("cannot mount a tmpfs here (not root?)")
    try:
        yield path
    finally:
        subprocess.run(["umount", str(path)], check=False)


# -- standard output ---------------------------------------------------------------


def test_closed_stdout():
    for args in (
        ["--rows", "5", "--width", "4"],
        ["compare", "--width", "8", "--height", "8", "--seeds", "1"],
    ):
        cmd = " ".join(f"'{a}'" for a in [*CMD, *args]) + " >&-"
        out = subprocess.run(["bash", "-c", cmd], capture_output=True, env=ENV, timeout=120, check=False)
        assert out.returncode == ExitStatus.OUTPUT, out.stderr
        assert "closed" in one_error_line(out.stderr)


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")
@pytest.mark.parametrize(
    "args",
    [
        ["--rows", "5", "--width", "4"],
        ["--rows", "5000", "--width", "300", "--style", "raw"],
        ["compare", "--width", "8", "--height", "8", "--seeds", "1"],
    ],
)
def test_stdout_on_dev_full(args):
    with open("/dev/full", "wb") as full:
        out = run(*args, stdout=full)
    assert out.returncode == ExitStatus.OUTPUT
    assert "No space left" in one_error_line(out.stderr)


def test_stdout_read_only(tmp_path):
    path = tmp_path / "ro"
    path.write_bytes(b"")
    with open(path, "rb") as read_only:
        out = run("--rows", "5", "--width", "4", stdout=read_only)
    assert out.returncode == ExitStatus.OUTPUT
    one_error_line(out.stderr)


def test_a_stdout_error_with_save_state_saves_the_state(tmp_path):
    """Rows reach stdout through a file on a small file system until it is
    full: the rows written stay, and the state continues after a row boundary
    at or before what reached the file."""
    with tiny_tmpfs(tmp_path / "small", size="100k"):  # room for two blocks of 40960 bytes
        target = tmp_path / "small" / "rows"
        state = tmp_path / "s.bin"
        with open(target, "wb") as f:
            out = run(
                "--width",
                "10",
                "--style",
                "raw",
                "--seed",
                "6",
                "--rate",
                "0",
                "--save-state",
                str(state),
                stdout=f,
            )
        written = target.read_bytes()
    assert out.returncode == ExitStatus.OUTPUT
    assert "No space left" in one_error_line(out.stderr)
    assert len(written) >= 10
    stream, _ = cli_state.decode_state(state.read_bytes())
    at = stream.rows_emitted
    assert 0 < at * 10 <= len(written)
    whole = es.EllerStream(10, 6).take(at + 3)
    np.testing.assert_array_equal(raw(written[: at * 10], 10), whole[:at])  # rows intact
    np.testing.assert_array_equal(stream.take(3), whole[at:])


# -- --save-state when the state cannot be written ---------------------------------


def in_process(args: list[str], monkeypatch) -> tuple[int, bytes, str]:
    """cli.main in this process, stdout into a buffer; (status, stdout, stderr)."""

    class Out(io.TextIOWrapper):
        def isatty(self) -> bool:
            return False

    buffer = io.BytesIO()
    fake_out = Out(buffer, encoding="utf-8")
    fake_err = io.StringIO()
    monkeypatch.setattr(sys, "stdout", fake_out)
    monkeypatch.setattr(sys, "stderr", fake_err)
    code = cli.main(args)
    fake_out.flush()
    return code, buffer.getvalue(), fake_err.getvalue()


def test_save_state_on_a_full_disk_writes_the_closing_row(tmp_path, monkeypatch):
    state = tmp_path / "s.bin"
    state.write_bytes(b"old state")

    def full(fd, data):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(_atomic, "_write_all", full)
    code, out, err = in_process(
        ["--rows", "6", "--width", "7", "--seed", "2", "--style", "raw", "--save-state", str(state)],
        monkeypatch,
    )
    assert code == ExitStatus.OUTPUT
    assert "No space left" in one_error_line(err.encode())
    grid = raw(out, 7)  # the rows and, since no state could be saved, the closing row
    assert grid.shape == (7, 7) and perfect_problems(grid) == []
    np.testing.assert_array_equal(grid[:6], es.EllerStream(7, 2).take(6))
    assert state.read_bytes() == b"old state"
    assert [p.name for p in tmp_path.iterdir()] == ["s.bin"]


def test_save_state_on_a_really_full_file_system(tmp_path):
    with tiny_tmpfs(tmp_path / "small", size="4k") as small:
        filler = small / "filler"
        fd = os.open(filler, os.O_WRONLY | os.O_CREAT)
        with contextlib.suppress(OSError):
            while os.write(fd, b"x" * 4096):
                pass
        os.close(fd)
        state = small / "s.bin"
        out = run(
            "--rows", "6", "--width", "3000", "--seed", "2", "--style", "raw", "--save-state", str(state)
        )
        left = sorted(p.name for p in small.iterdir())
    assert out.returncode == ExitStatus.OUTPUT
    one_error_line(out.stderr)
    grid = raw(out.stdout, 3000)
    assert grid.shape == (7, 3000)
    np.testing.assert_array_equal(grid, es.eller(3000, 7, seed=2))
    assert left == ["filler"]


# -- state files -------------------------------------------------------------------


def test_empty_save_state_is_refused():
    out = run("--rows", "3", "--save-state", "")
    assert out.returncode == 2 and out.stdout == b""
    assert "empty" in one_error_line(out.stderr)


def test_save_state_writes_through_a_symlink(tmp_path):
    target = tmp_path / "real.bin"
    link = tmp_path / "link.bin"
    run("--rows", "4", "--width", "6", "--seed", "3", "--style", "raw", "--save-state", str(target))
    link.symlink_to(target)
    b = run("--resume", str(link), "--rows", "4", "--style", "raw", "--save-state", str(link))
    assert b.returncode == 0 and link.is_symlink()
    c = run("--resume", str(target), "--rows", "4", "--style", "raw")
    whole = es.EllerStream(6, 3).take(12)
    np.testing.assert_array_equal(raw(b.stdout + c.stdout, 6)[:7], whole[4:11])  # c ends with a closing row


def test_save_state_refuses_what_is_not_a_regular_file(tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    nodes = [fifo]
    with contextlib.suppress(OSError):  # a device node, as root
        os.mknod(tmp_path / "null", stat.S_IFCHR | 0o666, os.makedev(1, 3))
        nodes.append(tmp_path / "null")
    for node in nodes:
        kind = stat.S_IFMT(os.lstat(node).st_mode)
        out = run("--rows", "3", "--width", "4", "--save-state", str(node))
        assert out.returncode == 2 and out.stdout == b""
        assert "not a regular file" in one_error_line(out.stderr)
        assert stat.S_IFMT(os.lstat(node).st_mode) == kind  # not replaced


def test_save_state_keeps_permissions_and_syncs_the_folder(tmp_path, monkeypatch):
    state = tmp_path / "s.bin"
    state.write_bytes(b"")
    os.chmod(state, 0o640)
    synced = []
    real_fsync = os.fsync

    def fsync(fd):
        synced.append(stat.S_ISDIR(os.fstat(fd).st_mode))
        return real_fsync(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    cli_state.save_state(str(state), b"new")
    assert state.read_bytes() == b"new"
    assert stat.S_IMODE(os.stat(state).st_mode) == 0o640
    assert synced == [False, True]  # the file, then (after the rename) its folder
    fresh = tmp_path / "fresh.bin"
    old = os.umask(0o027)
    try:
        cli_state.save_state(str(fresh), b"x")
    finally:
        os.umask(old)
    assert stat.S_IMODE(os.stat(fresh).st_mode) == 0o640  # 0666 less the umask, as a plain open


def test_stale_temporary_files_are_named_and_cleaned(tmp_path, monkeypatch):
    state = tmp_path / "s.bin"
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    stale = tmp_path / f".s.bin.eller-stream-{dead.pid}-abc123.tmp"  # a run killed by SIGKILL
    alive = tmp_path / f".s.bin.eller-stream-{os.getppid()}-def456.tmp"  # a run still going
    other = tmp_path / f".t.bin.eller-stream-{dead.pid}-ghi789.tmp"  # another file's
    for p in (stale, alive, other):
        p.write_bytes(b"partial")
    names = []
    real_replace = os.replace

    def replace(src, dst):
        names.append(os.path.basename(src))
        return real_replace(src, dst)

    monkeypatch.setattr(os, "replace", replace)
    cli_state.save_state(str(state), b"data")
    assert not stale.exists() and alive.exists() and other.exists()
    assert names[0].startswith(f".s.bin.eller-stream-{os.getpid()}-") and names[0].endswith(".tmp")


def test_resume_reads_a_bounded_amount(tmp_path):
    t0 = time.monotonic()
    out = run("--resume", "/dev/zero", "--rows", "3")
    assert out.returncode == 2 and time.monotonic() - t0 < 60
    one_error_line(out.stderr)
    good = tmp_path / "good.bin"
    run("--rows", "3", "--width", "5", "--seed", "1", "--save-state", str(good))
    data = good.read_bytes()
    cases = {
        "trailing bytes": data + b"\0" * 10,
        "huge length": data[:8] + struct.pack("<I", 2**32 - 1) + data[12:],
        "endless after magic": None,  # a FIFO fed without end
    }
    for name, content in cases.items():
        path = tmp_path / name.replace(" ", "_")
        if content is None:
            os.mkfifo(path)
            feeder = subprocess.Popen(["bash", "-c", f"cat {good} /dev/zero > '{path}'"])
        else:
            path.write_bytes(content)
        out = run("--resume", str(path), "--rows", "3")
        assert out.returncode == 2, name
        one_error_line(out.stderr)
        if content is None:
            feeder.kill()
            feeder.wait()


def test_a_forged_row_count_is_refused_by_the_command(tmp_path):
    header = struct.Struct("<8sHHIQddQQ")
    rows = 2**128 - 1
    body = header.pack(b"ELLRSTRM", 1, 0, 3, 1, 0.5, 0.5, rows & (2**64 - 1), rows >> 64)
    body += np.arange(3, dtype="<i4").tobytes()
    path = tmp_path / "forged.bin"
    path.write_bytes(body + hashlib.blake2b(body, digest_size=16).digest())
    out = run("--resume", str(path), "--rows", "3")
    assert out.returncode == 2 and out.stdout == b""
    assert "row count" in one_error_line(out.stderr)


# -- text resumed from checkpoint bytes ---------------------------------------------


@pytest.mark.parametrize("style", ["ascii", "unicode", "blocks"])
def test_text_resumed_from_checkpoint_bytes_draws_no_unknown_wall(tmp_path, style):
    s = es.EllerStream(9, 5)
    first = s.take(7)
    path = tmp_path / "c.bin"
    path.write_bytes(s.checkpoint())
    resumed = run("--resume", str(path), "--rows", "4", "--style", style)
    assert resumed.returncode == 0
    whole = run("--rows", "11", "--width", "9", "--seed", "5", "--style", style).stdout.decode()
    r = es.TextRenderer(9, style)
    before = (r.start() + r.rows(first)).decode()
    if style == "unicode":  # the line of walls between rows 7 and 8 needs row 7: it is left out
        lines = whole.splitlines(keepends=True)
        assert before + resumed.stdout.decode() == "".join(lines[: 2 * 7] + lines[2 * 7 + 1 :])
        grid = parse_unicode(whole)
    else:
        assert before + resumed.stdout.decode() == whole
        grid = parse_ascii(whole) if style == "ascii" else None
    if grid is not None:
        assert perfect_problems(grid) == []


# -- signals -----------------------------------------------------------------------


def signal_after(args: list[str], wait_bytes: int, signum: int) -> tuple[bytes, bytes, int]:
    proc = subprocess.Popen([*CMD, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=ENV)
    got = b""
    while len(got) < wait_bytes:
        chunk = os.read(proc.stdout.fileno(), 65536)
        assert chunk, proc.stderr.read().decode()
        got += chunk
    proc.send_signal(signum)
    rest, err = proc.communicate(timeout=60)
    return got + rest, err, proc.returncode


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP])
def test_sigterm_and_sighup_write_the_closing_row(signum):
    out, err, code = signal_after(
        ["--width", "20", "--rate", "200", "--style", "ascii", "--seed", "4"], 2000, signum
    )
    assert code == 128 + signum and err == b"", err.decode()
    grid = parse_ascii(out.decode())
    assert len(grid) >= 2 and perfect_problems(grid) == []
    np.testing.assert_array_equal(grid, es.eller(20, len(grid), seed=4))


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP])
def test_sigterm_and_sighup_save_the_state(tmp_path, signum):
    state = tmp_path / "s.bin"
    out, err, code = signal_after(
        ["--width", "10", "--rate", "300", "--style", "raw", "--seed", "8", "--save-state", str(state)],
        300,
        signum,
    )
    assert code == 128 + signum and err == b""
    more = run("--resume", str(state), "--rows", "5", "--style", "raw")
    grid = np.vstack([raw(out, 10), raw(more.stdout, 10)])
    np.testing.assert_array_equal(grid, es.eller(10, len(grid), seed=8))


def _wait_until_full(fd: int, timeout: float = 60.0) -> bool:
    """Wait until the pipe read by ``fd`` is full: within a page of its size
    (the writer writes whole rows) and the same for 0.1 s, its writer blocked;
    False if it is not after ``timeout``."""
    size = fcntl.fcntl(fd, fcntl.F_GETPIPE_SZ)
    deadline, seen = time.monotonic() + timeout, [-1] * 10
    while time.monotonic() < deadline:
        seen = [*seen[1:], struct.unpack("i", fcntl.ioctl(fd, termios.FIONREAD, b"\0\0\0\0"))[0]]
        if seen[0] >= size - 4096 and len(set(seen)) == 1:
            return True
        time.sleep(0.01)
    return False


@pytest.mark.parametrize("save", [False, True])
def test_a_stop_signal_ends_the_stream_while_stdout_is_full(tmp_path, save):
    """SIGTERM did not end ``eller-stream`` while nobody read its stdout pipe:
    it waited to write the closing row (issue 32). It gives the write up after
    ``GRACE`` seconds, says so in one line, and exits 143."""
    from eller_stream.cli import stream

    grace = getattr(stream, "GRACE", 1.0)
    state = tmp_path / "s.bin"
    args = [*CMD, "--band", "16", "--width", "80", "--style", "raw", "--seed", "2"]
    args += ["--save-state", str(state)] if save else []
    r, w = os.pipe()
    try:
        proc = subprocess.Popen(args, stdout=w, stderr=subprocess.PIPE, env=ENV)
        os.close(w)
        assert _wait_until_full(r), "the stream never filled its pipe"  # the writer blocks
        sent = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        code = proc.wait(timeout=30)
        took = time.monotonic() - sent
        err = proc.stderr.read().decode()
    finally:
        os.close(r)
    assert code == 128 + signal.SIGTERM and took < grace + 3, (code, took)
    assert err.count("\n") == 1 and err.startswith("eller-stream: error: standard output took nothing"), err
    assert ("the state is saved" in err) == save and ("closing row is not written" in err) == (not save)
    if save:  # the saved state resumes
        assert run("--resume", str(state), "--rows", "2", "--style", "raw").returncode == 0


def test_sigterm_during_a_streamed_png_removes_the_part_file(tmp_path):
    target = tmp_path / "tall.png"
    target.write_bytes(b"old picture")
    proc = subprocess.Popen(
        [*CMD, "render", "-o", str(target), "--width", "300", "--rows", "10000000", "--seed", "1"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=ENV,
    )

    def parts():
        return list(tmp_path.glob(".tall.png.eller-stream-*.tmp"))

    deadline = time.monotonic() + 60
    while not (parts() and parts()[0].stat().st_size > 0) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert parts()
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 128 + signal.SIGTERM and b"Traceback" not in err, err.decode()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tall.png"]
    assert target.read_bytes() == b"old picture"


def before_the_command(err: bytes) -> bool:
    """Did this Ctrl-C land before the entry point could handle it: in the
    interpreter's start (site, .pth files), in runpy finding the package
    (``python -m``), in the script pip writes, or in the import of the
    package's tiny ``__init__``, ``__main__`` or ``_entry`` themselves?  Then
    the package's only frames are those modules' top levels (not ``run()``),
    and neither numpy nor numba had started loading."""
    text = err.decode(errors="replace")
    if "KeyboardInterrupt" not in text or "numpy" in text or "numba" in text:
        return False
    frames = re.findall(r'File "([^"]+)", line \d+, in (\S+)', text)
    early = ("eller_stream/__init__.py", "eller_stream/__main__.py", "eller_stream/_entry.py")
    return all("eller_stream/" not in f or (f.endswith(early) and where == "<module>") for f, where in frames)


def entry_points() -> list[list[str]]:
    points = [CMD]
    script = os.path.join(os.path.dirname(sys.executable), "eller-stream")
    if os.path.exists(script):
        points.append([script])
    return points


@pytest.mark.slow
@pytest.mark.parametrize("command", entry_points(), ids=lambda c: os.path.basename(c[-1]))
def test_ctrl_c_in_the_first_moments_never_shows_a_traceback(command):
    """Ctrl-C at 21 moments over the first 0.4 s of the command, imports included.

    A Ctrl-C in the first few milliseconds may land while the interpreter
    itself starts (its site module, .pth files): Python then reports a
    "Fatal Python error: init_import_site" that no code of the package can
    prevent.  The same goes for the millisecond or so before the entry point
    runs (see before_the_command).  Those runs are counted apart; every other
    run must end with no output on stderr."""
    startup = 0
    for i in range(21):
        proc = subprocess.Popen(
            [*command, "--rows", "100000", "--width", "20", "--seed", "1", "--rate", "1000"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=ENV,
        )
        time.sleep(0.02 * i)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
        if before_the_command(err):
            startup += 1
            continue
        assert err == b"", (i, err.decode())
        # before Python has started, the signal's default action ends it (-2): no traceback either
        assert proc.returncode in (130, -signal.SIGINT), (i, proc.returncode)
        if out:
            grid = parse_ascii(out.decode())  # whatever was written is a complete maze
            assert perfect_problems(grid) == []
    # on a loaded machine Python starts slower and more signals land before the command runs
    assert startup <= 12, f"{startup} of 21 runs were still starting Python"


def test_importing_the_package_loads_neither_numpy_nor_numba():
    code = "import sys, eller_stream; print(sorted(m for m in ('numpy', 'numba') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, env=ENV, check=True)
    assert out.stdout.decode().strip() == "[]"


def test_lazy_exports_are_the_names_and_the_functions():

    assert callable(es.growing_tree) and callable(es.backtracker) and callable(es.compare)
    assert es.__all__ == sorted(es._EXPORTS)
    for name in es.__all__:
        assert getattr(es, name) is getattr(
            __import__(f"eller_stream.{es._EXPORTS[name][1:]}", fromlist=[name]), name
        )
    source = open(es.__file__).read()
    typed = source[source.index("if TYPE_CHECKING:") : source.index("__all__ =")]
    for name in es._EXPORTS:  # the names type checkers see are the names exported
        assert f" {name}" in typed or f"{name}," in typed, name


# -- render ------------------------------------------------------------------------


@pytest.mark.parametrize("ext", [".png", ".svg"])
def test_render_to_a_folder_is_refused(tmp_path, ext):
    folder = tmp_path / f"pictures{ext}"
    folder.mkdir()
    out = run("render", "-o", str(folder))
    assert out.returncode == 2
    assert "folder" in one_error_line(out.stderr)


@pytest.mark.parametrize(
    "args",
    [
        ["--width", "2097152", "--rows", "1", "--cell", "1000"],
        ["--width", "1", "--rows", "2147483647", "--cell", "1000"],
        ["--width", "1000000", "--cell", "1000", "--wall", "1000"],
        ["--width", "3000000", "--rows", "3000", "--cell", "1", "--wall", "1", "--endpoints"],
    ],
)
@pytest.mark.parametrize("ext", [".png", ".svg"])
def test_pictures_too_large_are_refused_before_drawing(tmp_path, args, ext):
    import resource

    t0 = time.monotonic()
    # a process of its own: its memory is what is measured
    out = process("render", "-o", str(tmp_path / f"big{ext}"), *args)
    assert out.returncode == 2 and time.monotonic() - t0 < 60
    one_error_line(out.stderr)
    assert resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss < 1_000_000  # KiB: never near a GiB
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("args", [[], ["--endpoints"], ["--algorithm", "backtracker"]])
@pytest.mark.parametrize("ext", [".png", ".svg"])
def test_render_on_a_full_disk_keeps_the_old_picture(tmp_path, monkeypatch, args, ext):
    target = tmp_path / f"m{ext}"
    target.write_bytes(b"old picture")

    room = [3000]  # a disk with 3000 bytes left
    real_write_all = _atomic._write_all

    def write_all(fd, data):
        if len(data) > room[0]:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        room[0] -= len(data)
        return real_write_all(fd, data)

    monkeypatch.setattr(_atomic, "_write_all", write_all)
    code, _, err = in_process(
        ["render", "-o", str(target), "--width", "200", "--rows", "200", *args], monkeypatch
    )
    assert code == ExitStatus.OUTPUT
    assert "No space left" in one_error_line(err.encode())
    assert target.read_bytes() == b"old picture"
    assert [p.name for p in tmp_path.iterdir()] == [f"m{ext}"]


def test_render_on_a_really_full_file_system(tmp_path):
    with tiny_tmpfs(tmp_path / "small", size="16k") as small:
        for ext in (".png", ".svg"):
            out = run(
                "render", "-o", str(small / f"m{ext}"), "--width", "300", "--rows", "300", "--seed", "1"
            )
            assert out.returncode == ExitStatus.OUTPUT, out.stderr
            one_error_line(out.stderr)
            assert list(small.iterdir()) == []


@pytest.mark.parametrize(
    ("args", "word"),
    [
        (["--strategy", "random"], "--strategy"),
        (["--algorithm", "backtracker", "--strategy", "random"], "--strategy"),
        (["--algorithm", "backtracker", "--horizontal", "0.3"], "--horizontal"),
        (["--algorithm", "growing-tree", "--vertical", "0.3"], "--vertical"),
    ],
)
def test_render_refuses_options_of_another_algorithm(tmp_path, args, word):
    out = run("render", "-o", str(tmp_path / "m.png"), *args)
    assert out.returncode == 2
    assert word in one_error_line(out.stderr)
    assert list(tmp_path.iterdir()) == []


def png_text(path) -> dict[str, str]:
    chunks = png.Reader(filename=str(path)).chunks()
    return dict(data.decode("latin-1").split("\0", 1) for kind, data in chunks if kind == b"tEXt")


@pytest.mark.parametrize(
    "args",
    [
        [],
        ["--endpoints"],
        ["--algorithm", "growing-tree", "--strategy", "newest:50,random:50"],
        ["--algorithm", "backtracker", "--solution"],
    ],
)
def test_render_without_seed_can_be_reproduced(tmp_path, args):
    """The seed shows on a terminal, and the picture holds the parameters
    that draw it again."""
    first = tmp_path / "first.png"
    master, slave = pty.openpty()
    try:
        out = subprocess.run(
            [*CMD, "render", "-o", str(first), "--width", "15", "--rows", "9", *args],
            stdout=subprocess.PIPE,
            stderr=slave,
            env=ENV,
            timeout=120,
            check=False,
        )
        os.close(slave)
        shown = os.read(master, 4096).decode()
    finally:
        os.close(master)
    assert out.returncode == 0
    assert "eller-stream: seed " in shown
    seed = shown.split("eller-stream: seed ")[1].split()[0]
    text = png_text(first)
    description = text["Description"]
    assert description.startswith("eller-stream render ") and f"--seed {seed}" in description
    again = tmp_path / "again.png"
    params = description.split()[2:]
    out = run("render", "-o", str(again), *params)
    assert out.returncode == 0 and out.stderr == b""
    a, b = png.Reader(filename=str(first)).read(), png.Reader(filename=str(again)).read()
    assert a[:2] == b[:2] and [bytes(r) for r in a[2]] == [bytes(r) for r in b[2]]
    svg_path = tmp_path / "m.svg"
    out = run("render", "-o", str(svg_path), "--width", "6", "--rows", "4", *args)
    assert out.returncode == 0 and out.stderr == b""  # not a terminal: no seed line
    assert "<metadata>eller-stream render " in svg_path.read_text()


def test_svg_is_written_atomically(tmp_path, monkeypatch):
    target = tmp_path / "m.svg"
    target.write_text("old")
    calls = []

    def interrupted(fd, data):  # interrupted in the middle of writing
        calls.append(os.path.basename(os.readlink(f"/proc/self/fd/{fd}")))
        raise KeyboardInterrupt

    monkeypatch.setattr(_atomic, "_write_all", interrupted)
    with pytest.raises(KeyboardInterrupt):
        es.write_image(str(target), es.eller(30, 30, seed=1))
    assert target.read_text() == "old" and len(calls) == 1
    assert calls[0].startswith(".m.svg.eller-stream-") and calls[0].endswith(".tmp")
    assert [p.name for p in tmp_path.iterdir()] == ["m.svg"]


def test_exit_statuses_are_documented():
    for args in ([], ["render"]):
        out = run(*args, "--help")
        text = out.stdout.decode()
        assert out.returncode == 0 and "exit status:" in text
        for status in ("0 ", "1 ", "2 ", "74 ", "128+N", "130", "143", "129"):
            assert status in text, (args, status)
    readme = open(os.path.join(ROOT, "README.md")).read()
    for status in ("74", "128", "130", "143"):
        assert status in readme


# -- schedules and states from outside (issue 32) ------------------------------------


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("[" * 5000, "nested too deeply"),
        ('{"0": {"loops": 0.5}, "-0": {"loops": 1}}', "band 0 twice"),
        ('{"0": {}, "0": {"loops": 1}}', "key '0' twice"),
        ('{"0": {"loops": ' + "1" * 5000 + "}}", "an integer of 5000 digits"),
    ],
)
def test_a_schedule_file_that_breaks_json_is_one_line(tmp_path, text, words):
    path = tmp_path / "s.json"
    path.write_text(text)
    for command in ([], ["render", "-o", str(tmp_path / "x.png")]):
        out = run(*command, "--band", "4", "--width", "5", "--rows", "3", "--schedule", str(path))
        assert out.returncode == 2 and out.stdout == b""
        line = one_error_line(out.stderr)
        assert line.startswith("eller-stream: error: --schedule: ") and words in line, line


def test_what_save_state_writes_resume_reads_at_the_schedule_limit(tmp_path):
    from test_schedule import LIMIT, keyframes_of_size

    at = es.Schedule(keyframes_of_size(LIMIT))
    path, state = tmp_path / "s.json", tmp_path / "s.bin"
    path.write_text(at.to_json().replace(":", ": "))  # another spelling: over the limit, canonical at it
    common = ["--band", "4", "--seed", "2", "--start", "-3", "--style", "raw", "--width", "7"]
    first = run(*common, "--horizontal", "0.30000000000000004", "--schedule", str(path),
                "--rows", "5", "--save-state", str(state))  # fmt: skip
    assert first.returncode == 0, first.stderr
    rest = run("--resume", str(state), "--rows", "4", "--style", "raw")
    assert rest.returncode == 0, rest.stderr
    maze = es.InfiniteMaze(7, 4, 2, horizontal=0.30000000000000004, schedule=at)
    np.testing.assert_array_equal(raw(first.stdout + rest.stdout, 7)[:-1], maze.rows(-3, 5))
    # a file under the limit whose schedule is over it (values 0 and 1 become 0.0 and 1.0):
    # refused at once, not saved for a --resume that refuses it
    parts = [f'"{i}":{{"loops":{i % 2}}}' for i in range(50_500)]
    path.write_text("{" + ",".join(parts) + "}")
    assert path.stat().st_size < LIMIT
    out = run(*common, "--schedule", str(path), "--rows", "5", "--save-state", str(tmp_path / "t.bin"))
    assert out.returncode == 2 and f"at most {LIMIT} bytes" in one_error_line(out.stderr)
    assert not (tmp_path / "t.bin").exists()


def banded_state(params: bytes) -> bytes:
    """A --save-state file whose banded checkpoint holds ``params`` as its JSON (checksums forged)."""
    header = struct.Struct("<8sHHIQQqQQI").pack(b"ELLRBAND", 2, 0, 5, 4, 1, 0, 0, 0, len(params))
    checkpoint = header + params
    checkpoint += hashlib.blake2b(checkpoint, digest_size=16).digest()
    body = b"ELLRCLI1" + struct.pack("<I", len(checkpoint)) + checkpoint + struct.pack("<I", 0)
    return body + hashlib.blake2b(body, digest_size=16).digest()


@pytest.mark.parametrize(
    ("params", "words"),
    [
        (b"[" * 5000, "nested too deeply"),
        (b'{"doors":0.45,"schedule":{"0":{"loops":1.0},"-0":{}}}', "band 0 twice"),
        (b'{"doors":0.45,"schedule":{"0":{"loops":1.0},"0":{}}}', "key '0' twice"),
    ],
)
def test_resume_of_hostile_parameters_is_one_line(tmp_path, params, words):
    path = tmp_path / "s.bin"
    path.write_bytes(banded_state(params))
    good = tmp_path / "good.bin"
    good.write_bytes(banded_state(b'{"doors":0.45,"schedule":{"0":{"loops":1.0}}}'))
    assert run("--resume", str(good), "--rows", "3").returncode == 0
    out = run("--resume", str(path), "--rows", "3")
    assert out.returncode == 2 and out.stdout == b""
    line = one_error_line(out.stderr)
    assert "corrupt" in line and words in line, line


def test_a_zarr_output_over_a_store_with_odd_json(tmp_path):
    pytest.importorskip("zarr", reason="the [dask] extra is not installed")
    pytest.importorskip("dask.array", reason="the [dask] extra is not installed")
    from test_schedule import LIMIT, keyframes_of_size

    store, schedule = tmp_path / "m.zarr", tmp_path / "s.json"
    schedule.write_text(es.Schedule(keyframes_of_size(LIMIT)).to_json())
    args = ["render", "-o", str(store), "--band", "4", "--width", "5", "--rows", "8", "--seed", "1"]
    for _ in range(2):  # the second replaces the store it wrote, whose zarr.json is over 1 MiB
        out = run(*args, "--schedule", str(schedule))
        assert out.returncode == 0, out.stderr
    assert (store / "zarr.json").stat().st_size > LIMIT
    (store / "zarr.json").write_text("[" * 5000)
    out = run(*args)
    assert out.returncode == 2 and "is not a store of maze rows" in one_error_line(out.stderr)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--band", "4", "--start", "1" * 5000], "at most 4300 digits, got one of 5000"),
        (["--width", "-" + "9" * 4301], "--width: must be an integer of at most 4300 digits"),
        (["--band", "4", "--start", "12x" + "1" * 5000], "--start: must be an integer, got '12x1"),
        (["compare", "--algorithm", "banded:band=" + "1" * 5000], "band must have at most 4300 digits"),
    ],
    ids=["start", "width", "not-a-number", "compare-band"],
)
def test_an_option_past_the_int_digit_limit_is_one_short_line(args, message):
    """A 5000-digit ``--start`` said "must be an integer" and printed all of it;
    ``compare --algorithm banded:band=<5000 digits>`` gave Python's own
    digit-limit message (issue 32)."""
    out = run(*args)
    line = one_error_line(out.stderr)
    assert out.returncode == 2 and message in line and len(line) < 300, line


@pytest.mark.parametrize("band", [[], ["--band", "4"]], ids=["eller", "banded"])
def test_a_width_past_the_memory_is_one_line_not_a_killed_process(band):
    """``--width 2147483646`` got the process killed for memory (issue 32):
    refused up front, one line, status 2."""
    out = process("--width", "2147483646", "--rows", "2", "--style", "raw", *band)  # it could be killed
    assert out.returncode == 2 and "more than this machine's memory" in one_error_line(out.stderr)
