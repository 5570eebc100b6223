"""``backtracker(out=path)`` on a disk that cannot hold the maze (issue 15):
a clear OSError, nothing left behind, never SIGBUS."""

from __future__ import annotations

import errno
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import eller_stream as es


def _no_space(fd, offset, length):
    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


@pytest.mark.skipif(not hasattr(os, "posix_fallocate"), reason="no posix_fallocate here")
def test_full_disk_raises_oserror_and_leaves_no_file(tmp_path, monkeypatch):
    target = tmp_path / "big.npy"
    monkeypatch.setattr(os, "posix_fallocate", _no_space)
    with pytest.raises(OSError) as info:
        es.backtracker(1000, 1000, seed=1, out=target)
    assert info.value.errno == errno.ENOSPC
    assert "big.npy" in str(info.value) and "reserve" in str(info.value)
    assert os.listdir(tmp_path) == []  # neither the file nor a temporary one


@pytest.mark.skipif(not hasattr(os, "posix_fallocate"), reason="no posix_fallocate here")
def test_full_disk_keeps_the_file_already_there(tmp_path, monkeypatch):
    target = tmp_path / "maze.npy"
    old = es.backtracker(7, 5, seed=3)
    np.save(target, old)
    before = target.read_bytes()
    monkeypatch.setattr(os, "posix_fallocate", _no_space)
    with pytest.raises(OSError):
        es.backtracker(100, 100, seed=1, out=target)
    assert target.read_bytes() == before
    assert sorted(os.listdir(tmp_path)) == ["maze.npy"]


@pytest.mark.parametrize("error", [errno.EOPNOTSUPP, errno.ENOSYS])
def test_a_filesystem_that_cannot_reserve_still_gets_its_maze(tmp_path, monkeypatch, error):
    """Where blocks cannot be reserved (not ENOSPC: the call itself is not
    supported), the file is made as before."""

    def unsupported(fd, offset, length):
        raise OSError(error, os.strerror(error))

    monkeypatch.setattr(os, "posix_fallocate", unsupported, raising=False)
    grid = es.backtracker(9, 6, seed=4, out=tmp_path / "m.npy")
    np.testing.assert_array_equal(np.load(tmp_path / "m.npy"), es.backtracker(9, 6, seed=4))
    assert es.is_perfect(np.asarray(grid))
    assert sorted(os.listdir(tmp_path)) == ["m.npy"]


def test_file_made_on_disk_is_the_same_maze_and_a_real_npy(tmp_path):
    grid = es.backtracker(31, 17, seed=9, out=str(tmp_path / "m.npy"))
    assert isinstance(grid, np.memmap)
    loaded = np.load(tmp_path / "m.npy")
    assert loaded.dtype == np.uint8 and loaded.shape == (17, 31)
    np.testing.assert_array_equal(loaded, es.backtracker(31, 17, seed=9))
    assert sorted(os.listdir(tmp_path)) == ["m.npy"]


@pytest.mark.skipif(sys.platform != "linux", reason="RLIMIT_FSIZE behaviour checked on Linux")
def test_file_size_limit_of_the_real_kernel(tmp_path):
    """A real refusal by the kernel (RLIMIT_FSIZE: the file may not grow past
    64 KiB, as on a full disk it cannot), in a subprocess: an OSError, and no
    file left behind (before: a sparse file stayed at the path)."""
    script = textwrap.dedent(
        f"""
        import os, resource, signal, errno
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (65536, 65536))
        import eller_stream as es
        try:
            es.backtracker(1000, 1000, seed=1, out={str(tmp_path / "big.npy")!r})
        except OSError as exc:
            print("OSError", exc.errno == errno.EFBIG)
        else:
            print("no error")
        """
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["OSError", "True"]
    assert os.listdir(tmp_path) == []
