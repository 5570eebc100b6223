"""The test run's bytecode, written once by the controller before the workers
start (``conftest.pytest_configure``).

Where ``PYTHONDONTWRITEBYTECODE`` is set (as on CI's machines) no process
writes bytecode, so each of the run's processes compiled again what it
imported: every one of the ~150 (the workers, the warm-up, each command line
and server a test starts) the package's source, 0.13 s of CPU each that
imports most of it, and each worker every test module with its asserts
rewritten by pytest, 2-3 s a worker. Python and pytest read bytecode that is
there whatever the variable says; where it cannot be written, or pytest no
longer has the functions used here, nothing changes but the time."""

from __future__ import annotations

import compileall
import importlib.util
import os
import re
from pathlib import Path

import pytest

HERE = Path(__file__).parent


def compile_package() -> None:
    """Python's bytecode of the package the tests import and of the tests' helpers."""
    spec = importlib.util.find_spec("eller_stream")
    folders = [HERE]
    if spec is not None and spec.origin is not None:
        folders.append(Path(spec.origin).parent)
    for folder in folders:
        try:  # not the test modules: pytest rewrites their asserts as it imports them
            compileall.compile_dir(folder, quiet=2, rx=re.compile(r"[/\\]test_[^/\\]*\.py$"))
        except OSError:
            pass


def rewrite_tests(config: pytest.Config) -> None:
    """pytest's bytecode of the test modules and conftest, asserts rewritten,
    where its import hook looks for it (a pyc keyed on the source's hash);
    not for a run of some files or tests alone."""
    if config.getoption("assertmode", "rewrite") != "rewrite":
        return
    if not all(os.path.isdir(arg) for arg in config.args):
        return
    try:
        from _pytest.assertion import rewrite

        tail, cache_dir, read = rewrite.PYC_TAIL, rewrite.get_cache_dir, rewrite._read_pyc
        make, write = rewrite._rewrite_test, rewrite._write_pyc_fp
    except (ImportError, AttributeError):
        return
    sources = [HERE / "conftest.py", *sorted(HERE.glob("test_*.py"))]
    try:
        cache_dir(sources[0]).mkdir(exist_ok=True)
    except OSError:  # a folder no one may write to: each worker rewrites them as before
        return
    for source in sources:
        pyc = cache_dir(source) / (source.name[:-3] + tail)
        if read(source, pyc) is not None:
            continue
        part = pyc.with_name(f"{pyc.name}.{os.getpid()}")
        try:
            source_hash, code = make(source, config)
            with open(part, "wb") as f:
                write(f, source_hash, code)
            os.replace(part, pyc)  # whole or not at all: a worker may read it at once
        except (OSError, SyntaxError, ValueError):  # pytest reports a test module it cannot import
            continue
