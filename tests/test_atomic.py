"""eller_stream._atomic: every file the package writes is replaced whole or
not at all."""

from __future__ import annotations

import errno
import os
import stat
import subprocess
import sys

import pytest

from eller_stream import _atomic
from eller_stream._atomic import atomic_write, write_bytes


def _enospc(*args):
    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


def test_a_new_file_gets_its_content_and_the_umask_mode(tmp_path):
    path = tmp_path / "f.bin"
    old = os.umask(0o027)
    try:
        with atomic_write(path) as f:
            f.write(b"abc")
            f.write(b"def")
    finally:
        os.umask(old)
    assert path.read_bytes() == b"abcdef"
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o640
    assert os.listdir(tmp_path) == ["f.bin"]


def test_a_replaced_file_keeps_its_permissions(tmp_path):
    path = tmp_path / "f.bin"
    path.write_bytes(b"old")
    os.chmod(path, 0o604)
    write_bytes(path, b"new")
    assert path.read_bytes() == b"new"
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o604


def test_a_symlink_is_written_through(tmp_path):
    real = tmp_path / "real.bin"
    real.write_bytes(b"old")
    link = tmp_path / "link.bin"
    link.symlink_to(real)
    write_bytes(link, b"new")
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert real.read_bytes() == b"new"
    assert sorted(os.listdir(tmp_path)) == ["link.bin", "real.bin"]


@pytest.mark.parametrize("error", [ValueError, KeyboardInterrupt])
def test_an_exception_leaves_the_old_file_and_no_temporary(tmp_path, error):
    path = tmp_path / "f.bin"
    path.write_bytes(b"old")
    seen = []
    with pytest.raises(error):
        with atomic_write(path) as f:
            f.write(b"x" * 100_000)  # more than the buffer: some of it reached the temporary file
            seen = [p.name for p in tmp_path.iterdir() if p.name != "f.bin"]
            raise error("stop")
    assert len(seen) == 1 and seen[0].startswith(f".f.bin.eller-stream-{os.getpid()}-")
    assert seen[0].endswith(".tmp")
    assert path.read_bytes() == b"old"
    assert os.listdir(tmp_path) == ["f.bin"]


def test_a_failed_write_leaves_the_old_file_and_no_temporary(tmp_path, monkeypatch):
    path = tmp_path / "f.bin"
    path.write_bytes(b"old")
    monkeypatch.setattr(os, "write", _enospc)
    with pytest.raises(OSError) as info:
        with atomic_write(path) as f:
            f.write(b"x" * 10)
    assert info.value.errno == errno.ENOSPC
    assert path.read_bytes() == b"old"
    assert os.listdir(tmp_path) == ["f.bin"]


@pytest.mark.skipif(not hasattr(os, "posix_fallocate"), reason="no posix_fallocate here")
def test_a_full_disk_fails_at_the_reservation_and_leaves_nothing(tmp_path, monkeypatch):
    path = tmp_path / "f.bin"
    monkeypatch.setattr(os, "posix_fallocate", _enospc)
    body_ran = []
    with pytest.raises(OSError) as info:
        with atomic_write(path, reserve=1 << 20):
            body_ran.append(True)
    assert info.value.errno == errno.ENOSPC and "reserve" in str(info.value)
    assert body_ran == []  # nothing was written: the disk was known full up front
    assert os.listdir(tmp_path) == []
    path.write_bytes(b"old")
    with pytest.raises(OSError):
        write_bytes(path, b"new")
    assert path.read_bytes() == b"old" and os.listdir(tmp_path) == ["f.bin"]


def test_a_reservation_makes_the_file_at_least_that_long(tmp_path, monkeypatch):
    path = tmp_path / "f.bin"
    with atomic_write(path, reserve=100) as f:
        f.write(b"head")
    assert path.read_bytes() == b"head" + b"\0" * 96
    monkeypatch.setattr(os, "posix_fallocate", lambda *a: _unsupported(), raising=False)
    with atomic_write(path, reserve=50) as f:  # a file system that cannot reserve
        f.write(b"x")
    assert path.read_bytes() == b"x" + b"\0" * 49


def _unsupported():
    raise OSError(errno.EOPNOTSUPP, os.strerror(errno.EOPNOTSUPP))


def test_the_file_then_the_folder_are_synced(tmp_path, monkeypatch):
    path = tmp_path / "f.bin"
    synced = []
    real_fsync = os.fsync
    real_replace = os.replace

    def fsync(fd):
        synced.append("folder" if stat.S_ISDIR(os.fstat(fd).st_mode) else "file")
        return real_fsync(fd)

    def replace(src, dst):
        synced.append("rename")
        return real_replace(src, dst)

    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(os, "replace", replace)
    write_bytes(path, b"data")
    assert synced == ["file", "rename", "folder"]


def test_stale_temporaries_of_dead_runs_are_removed(tmp_path):
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    stale = tmp_path / f".f.bin{_atomic.TEMP_MARK}{dead.pid}-abc.tmp"
    alive = tmp_path / f".f.bin{_atomic.TEMP_MARK}{os.getppid()}-def.tmp"
    other = tmp_path / f".g.bin{_atomic.TEMP_MARK}{dead.pid}-ghi.tmp"
    for p in (stale, alive, other):
        p.write_bytes(b"partial")
    write_bytes(tmp_path / "f.bin", b"data")
    assert not stale.exists() and alive.exists() and other.exists()


def test_the_package_writes_files_only_through_atomic_write():
    """No other module of the package opens a file for writing by itself."""
    root = os.path.join(os.path.dirname(_atomic.__file__))
    for folder, _, names in os.walk(root):
        for name in names:
            if not name.endswith(".py") or name == "_atomic.py":
                continue
            source = open(os.path.join(folder, name)).read()
            for needle in ('"wb"', "'wb'", '"w"', "mkstemp", '.part"', "fallocate(", "os.replace("):
                assert needle not in source, (name, needle)


def test_a_fifo_is_written_into_not_replaced(tmp_path):
    """A rename over a FIFO (or through a symlink to one) replaced it with a
    plain file, and the reader got nothing: it is written into as a stream."""
    fifo = tmp_path / "pipe.svg"
    os.mkfifo(fifo)
    link = tmp_path / "link.svg"
    link.symlink_to(fifo)
    read = f"import sys; sys.stdout.buffer.write(open({str(fifo)!r}, 'rb').read())"
    reader = subprocess.Popen([sys.executable, "-c", read], stdout=subprocess.PIPE)
    write_bytes(link, b"<svg/>" * 1000)
    out, _ = reader.communicate(timeout=30)
    assert out == b"<svg/>" * 1000
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.svg", "pipe.svg"]  # no temporary left


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="making a device node needs root")
def test_a_full_device_fails_with_its_name_and_stays_a_device(tmp_path):
    """Through a symlink to a device like /dev/full (made here, in tmp_path),
    the device was replaced by a plain file holding the picture."""
    full = tmp_path / "full"
    os.mknod(full, 0o666 | stat.S_IFCHR, os.makedev(1, 7))
    link = tmp_path / "out.png"
    link.symlink_to(full)
    with pytest.raises(OSError) as caught:
        write_bytes(link, b"x" * 100_000)
    assert caught.value.errno == errno.ENOSPC and caught.value.filename == str(full)
    assert stat.S_ISCHR(os.lstat(full).st_mode)
