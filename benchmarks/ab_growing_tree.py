"""Interleaved A/B timing of Growing Tree kernels: a tool, not a benchmark.

On this shared machine the same code moves by 20-40% from run to run, so two
versions of a kernel are only comparable when timed in one process, in
turns.  Each variant is a copy of the package directory, placed outside the
package: the tool copies each into a temporary folder under a name of its
own (``ab_0``, ``ab_1``, ...) on ``sys.path`` and calls its
``_growing_tree._run_kernel`` (the kernel the public function would use for
the strategy: see ``_growing_tree_kernels`` and ``_growing_tree_fast``):

    git worktree add /tmp/gt-head HEAD     # the reference
    cp -r eller_stream /tmp/gt-try         # edit the kernels in this one
    python benchmarks/ab_growing_tree.py /tmp/gt-head/eller_stream,/tmp/gt-try 4000 newest:90,random:10 25

Each variant first builds a few small mazes, which must equal the first
variant's bit for bit (prefix a path with ``x=`` to skip the check, for
experiments that change the mazes on purpose).  Then the kernels alone (not
the set-up) are timed in turns; the best and the median ns per cell are
printed, and for each variant the median of its ratio to the first variant
in the same round (with the quartiles): noise that slows a whole round
cancels there, so it shows smaller differences (a copy against itself:
1.00, quartiles about 0.95-1.05; 25-40 rounds show a 5% change).  The
copies compile their kernels once per run (the numba cache lives in the
temporary folder, removed at the end).
"""

from __future__ import annotations

import importlib
import shutil
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType

import numpy as np


def load(path: str, name: str, folder: Path) -> ModuleType:
    """The ``growing_tree`` module of a copy of the package at ``path``,
    imported as the package ``name`` from ``folder``."""
    shutil.copytree(path, folder / name, ignore=shutil.ignore_patterns("__pycache__"))
    try:
        return importlib.import_module(f"{name}._growing_tree")
    except ModuleNotFoundError:  # a copy from before the module was made private
        return importlib.import_module(f"{name}.growing_tree")


def run(gt: ModuleType, n: int, weights: dict[str, float], seed: int) -> tuple[float, np.ndarray]:
    """Seconds taken by the copy's kernel for ``weights`` on an n x n maze
    (chosen by its own ``_run_kernel``), and the framed grid."""
    work = gt._framed_work(n, n)
    active = np.empty(n * n + 1, np.int32)
    key = importlib.import_module(gt.__package__ + "._rng").seed_key(seed)
    start = time.perf_counter()
    gt._run_kernel(work, active, n, n, key, weights)
    return time.perf_counter() - start, work


def main(argv: list[str]) -> None:
    specs = argv[1].split(",")
    n = int(argv[2]) if len(argv) > 2 else 4000
    strategy = argv[3] if len(argv) > 3 else "newest:90,random:10"
    rounds = int(argv[4]) if len(argv) > 4 else 5
    names = list(specs)
    if len(set(names)) < len(names):
        raise SystemExit("name each variant once (copy a tree to time it against itself)")
    with tempfile.TemporaryDirectory(prefix="ab_growing_tree_") as tmp:
        sys.path.insert(0, tmp)
        modules = {spec: load(spec.removeprefix("x="), f"ab_{i}", Path(tmp)) for i, spec in enumerate(specs)}
        weights = modules[names[0]].parse_strategy(strategy)
        for size, seed in ((64, 0), (37, 2), (300, 5)):
            reference = run(modules[names[0]], size, weights, seed)[1]
            for name in names[1:]:
                same = (run(modules[name], size, weights, seed)[1] == reference).all()
                if not same and not name.startswith("x="):
                    where = f"{size} x {size}, seed {seed}"
                    raise SystemExit(f"{name} builds another maze than {names[0]} ({where})")
        times: dict[str, list[float]] = {name: [] for name in names}
        for _ in range(rounds):
            for name, module in modules.items():
                times[name].append(run(module, n, weights, 1)[0] / n / n * 1e9)
    for name, ns in times.items():
        ordered = sorted(ns)
        print(
            f"{name} {strategy} {n} x {n}: best {ordered[0]:.1f}, median {ordered[len(ns) // 2]:.1f} "
            f"ns per cell (rounds: {' '.join(f'{x:.1f}' for x in ns)})"
        )
    reference_ns = np.array(times[names[0]])
    for name in names[1:]:  # a round's variants ran one after the other: their ratio shares its noise
        ratios = np.sort(np.array(times[name]) / reference_ns)
        quartiles = ratios[len(ratios) // 4], ratios[(3 * len(ratios)) // 4]
        print(
            f"{name} / {names[0]}: median ratio {np.median(ratios):.3f} of the same round "
            f"(quartiles {quartiles[0]:.3f} - {quartiles[1]:.3f})"
        )


if __name__ == "__main__":
    main(sys.argv)
