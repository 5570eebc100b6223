"""A read-only install must import and work (issue 15).

The package is copied into a folder where nothing can be written, and run
with a HOME where nothing can be written either: numba then has no place
for its cache ("cannot cache function 'mix64': no locator available" at
import, before the fix).  Each package folder of the copy gets a regular
*file* named ``__pycache__`` and HOME/XDG_CACHE_HOME point below
``/dev/null``, so that no cache folder can be made there even by root
(CI runs as root, whom file modes do not stop).
"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

import eller_stream as es

SCRIPT = textwrap.dedent(
    """
    import sys
    import eller_stream as es
    print(es.__file__)
    print(es.count_passages(es.backtracker(5, 4, seed=2)))
    print(es.count_passages(es.growing_tree(6, 4, strategy="newest:50,oldest:50", seed=1)))
    print(es.is_perfect(es.eller(120, 40, seed=1)))
    from eller_stream.cli import main
    sys.stdout.flush()
    status = main(["--width", "4", "--rows", "2", "--seed", "1", "--style", "ascii", "--rate", "0"])
    print("status", status)
    """
)


def _read_only_copy(root: Path) -> Path:
    source = Path(es.__file__).parent
    site = root / "site"
    shutil.copytree(source, site / "eller_stream", ignore=shutil.ignore_patterns("__pycache__", "*.nb?"))
    for folder, _dirs, _files in os.walk(site):
        Path(folder, "__pycache__").write_bytes(b"")  # not a folder: no cache can go there
    for folder, _dirs, files in os.walk(site, topdown=False):
        for name in files:
            os.chmod(os.path.join(folder, name), 0o444)
        os.chmod(folder, 0o555)
    return site


def _writable_again(site: Path) -> None:
    for folder, _dirs, files in os.walk(site):
        os.chmod(folder, 0o755)
        for name in files:
            os.chmod(os.path.join(folder, name), stat.S_IRUSR | stat.S_IWUSR)


@pytest.mark.slow
def test_read_only_install_imports_and_runs(tmp_path):
    site = _read_only_copy(tmp_path)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("NUMBA_", "PYTHON"))}
    env.update(
        HOME="/dev/null/home",
        XDG_CACHE_HOME="/dev/null/cache",
        PYTHONPATH=str(site),
        PYTHONDONTWRITEBYTECODE="1",
    )
    try:
        done = subprocess.run(
            [sys.executable, "-c", SCRIPT], cwd=site, env=env, capture_output=True, text=True, timeout=600
        )
    finally:
        _writable_again(site)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith(str(site)), lines[0]  # the read-only copy, not the source tree
    assert lines[1:4] == ["19", "23", "True"]
    assert lines[4].startswith("+--+") and lines[-1] == "status 0"
    assert "Traceback" not in done.stderr
    notes = [line for line in done.stderr.splitlines() if "cache" in line]
    assert len(notes) == 1, done.stderr  # said once, not once per kernel
    assert "NUMBA_CACHE_DIR" in notes[0]


CACHE_SCRIPT = textwrap.dedent(
    """
    import os, sys, time
    import numpy as np
    from eller_stream import _eller_kernels, _numba
    if len(sys.argv) > 1:  # imported: wait for the files to change before numba loads
        open(sys.argv[1] + ".ready", "w").close()
        deadline = time.monotonic() + 120
        while not os.path.exists(sys.argv[1] + ".go") and time.monotonic() < deadline:
            time.sleep(0.01)
    _numba.load()
    assert _eller_kernels.is_noncrossing_partition(np.arange(3), np.arange(3))
    stats = _eller_kernels.is_noncrossing_partition.stats
    print(sum(stats.cache_hits.values()), sum(stats.cache_misses.values()))
    """
)


def test_a_change_to_any_module_compiles_the_kernels_again(tmp_path):
    """numba keys a kernel's cache on its own file, but a kernel holds the
    code of the kernels it calls from other files: after a change to one of
    those, the old code must not load. The stamp is of the files as the
    process imported them: one that imported the old files and compiles
    after the change must not stamp its old code as the new. An editor's
    dangling lock file among the modules is no module."""
    site = tmp_path / "site"
    source = Path(es.__file__).parent
    shutil.copytree(source, site / "eller_stream", ignore=shutil.ignore_patterns("__pycache__", "*.nb?"))
    (site / "eller_stream" / ".#_rng.py").symlink_to("someone@host.4242:1700000000")  # Emacs's lock
    env = {k: v for k, v in os.environ.items() if not k.startswith(("NUMBA_", "PYTHON"))}
    env.update(PYTHONPATH=str(site), PYTHONDONTWRITEBYTECODE="1")
    command = [sys.executable, "-c", CACHE_SCRIPT]

    def hits_and_misses(done: subprocess.CompletedProcess[str]) -> list[str]:
        assert done.returncode == 0, done.stderr
        return done.stdout.split()

    flag = str(tmp_path / "old")
    old = subprocess.Popen(
        [*command, flag], cwd=site, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    deadline = time.monotonic() + 120
    while not os.path.exists(flag + ".ready") and old.poll() is None and time.monotonic() < deadline:
        time.sleep(0.01)
    other = site / "eller_stream" / "_content.py"  # not the kernel's file, nor one it imports
    other.write_text(other.read_text() + "\n# changed\n")
    Path(flag + ".go").touch()
    out, err = old.communicate(timeout=300)
    assert hits_and_misses(subprocess.CompletedProcess(command, old.returncode, out, err)) == ["0", "1"]

    def run() -> list[str]:
        return hits_and_misses(
            subprocess.run(command, cwd=site, env=env, capture_output=True, text=True, timeout=300)
        )

    assert run() == ["0", "1"]  # the old code, compiled after the change, is not loaded (was: ["1", "0"])
    assert run() == ["1", "0"]  # the new code is cached


def _kernel_cache_copy(folder: Path):  # type: ignore[no-untyped-def]
    """A copy of eller_stream._kernel_cache that reads ``folder``'s modules (the
    package's own stamp is not touched), as the package's import found them."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "eller_stream._kernel_cache_copy", Path(es.__file__).parent / "_kernel_cache.py"
    )
    assert spec is not None and spec.loader is not None
    kc = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(kc)
    kc._FOLDER = str(folder)
    kc._MODULE_STATS = kc._stats()
    return kc


def test_a_module_changed_since_the_import_gives_the_process_a_stamp_of_its_own(tmp_path):
    """The stamp is of the modules as the package's import found them: one
    changed since (before numba loads, or before a later kernel is defined)
    may be in the process's code as it was, or as it is; the process's
    kernels then get a stamp no other process shares."""
    for name in ("_a.py", "_b.py", "not-a-module.py"):
        (tmp_path / name).write_text("x = 1\n")
    os.mkfifo(tmp_path / "_fifo.py")  # not a regular file: never read (reading it would wait for ever)
    (tmp_path / ".#_a.py").symlink_to("someone@host.4242:1700000000")  # an editor's lock: no module

    def kernel() -> None:
        pass

    def later() -> None:  # a kernel of a module imported later
        pass

    later.__module__ = "eller_stream._later_kernels"
    kc = _kernel_cache_copy(tmp_path)
    assert sorted(kc._MODULE_STATS) == ["_a.py", "_b.py"]
    shared = kc.package_stamp()
    assert shared == _kernel_cache_copy(tmp_path).package_stamp()  # the same files: the same stamp
    (tmp_path / "not-a-module.py").write_text("x = 2\n")
    kc.defined(kernel)
    assert kc.package_stamp() == shared  # what changed is no module
    (tmp_path / "_b.py").write_text("x = 22\n")
    kc.defined(kernel)  # a module is checked at its first kernel only: its others come from the same read
    assert kc.package_stamp() == shared
    kc.defined(later)  # a kernel of another module, defined after the change
    own = kc.package_stamp()
    assert own != shared and own == kc.package_stamp()
    assert _kernel_cache_copy(tmp_path).package_stamp() not in (shared, own)  # the new files'

    late = _kernel_cache_copy(tmp_path)
    (tmp_path / "_a.py").write_text("x = 3\n")  # changed after the import, before numba loads
    assert late.package_stamp() != _kernel_cache_copy(tmp_path).package_stamp()
