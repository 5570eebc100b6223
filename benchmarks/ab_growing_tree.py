"""Interleaved A/B timing of Growing Tree kernel variants: a tool, not a benchmark.

On this shared machine the same code moves by 20-40% from run to run, so two
versions of a kernel are only comparable when timed in one process, in
turns.  To try a change to the kernel of a strategy in ``eller_stream/_grid_kernels.py``
(the one ``es.growing_tree`` uses for it: ``growing_tree_random``,
``growing_tree_oldest``, ``growing_tree_newest_random`` for mixes of newest and
random, ``growing_tree`` for the others):

    cp eller_stream/_grid_kernels.py eller_stream/_gk_head.py   # the reference
    cp eller_stream/_grid_kernels.py eller_stream/_gk_try.py    # edit this one
    python benchmarks/ab_growing_tree.py _gk_head,_gk_try 4000 newest:90,random:10 25

Each variant first builds a few small mazes, which must equal the first
variant's bit for bit (a variant that changes the mazes fails here: name it
``_gk_x...`` to skip the check, for experiments that change them on purpose).
Then the kernels alone (not the set-up) are timed in turns; the best and
the median ns per cell are printed, and for each variant the median of its
ratio to the first variant in the same round (with the quartiles): noise
that slows a whole round cancels there, so it shows smaller differences (a
copy against itself: 1.00, quartiles about 0.95-1.05; 25-40 rounds show a
5% change).  ``eller_stream/_gk_*.py`` is in ``.gitignore``; delete the
copies (and their ``__pycache__`` entries) when done.
"""

from __future__ import annotations

import importlib
import sys
import time

import numpy as np

from eller_stream._rng import seed_key

gt = importlib.import_module("eller_stream.growing_tree")  # the module, not the function


def run(module, n: int, weights: dict[str, float], seed: int) -> tuple[float, np.ndarray]:
    """Seconds taken by the module's kernel for ``weights`` on an n x n maze
    (the one the public function would use, chosen by the same
    ``_run_kernel``), and the framed grid."""
    work = gt._framed_work(n, n)
    active = np.empty(n * n + 1, np.int32)
    key = seed_key(seed)
    start = time.perf_counter()
    gt._run_kernel(module, work, active, n, n, key, weights)
    return time.perf_counter() - start, work


def main(argv: list[str]) -> None:
    names = argv[1].split(",")
    n = int(argv[2]) if len(argv) > 2 else 4000
    strategy = argv[3] if len(argv) > 3 else "newest:90,random:10"
    rounds = int(argv[4]) if len(argv) > 4 else 5
    weights = gt.parse_strategy(strategy)
    modules = {name: importlib.import_module(f"eller_stream.{name}") for name in names}
    for size, seed in ((64, 0), (37, 2), (300, 5)):
        reference = run(modules[names[0]], size, weights, seed)[1]
        for name in names[1:]:
            same = (run(modules[name], size, weights, seed)[1] == reference).all()
            if not same and not name.startswith("_gk_x"):
                raise SystemExit(f"{name} builds another maze than {names[0]} ({size} x {size}, seed {seed})")
    times: dict[str, list[float]] = {name: [] for name in names}
    for _ in range(rounds):
        for name, module in modules.items():
            times[name].append(run(module, n, weights, 1)[0] / n / n * 1e9)
    for name, ns in times.items():
        ordered = sorted(ns)
        print(
            f"{name:12} {strategy} {n} x {n}: best {ordered[0]:.1f}, median {ordered[len(ns) // 2]:.1f} "
            f"ns per cell (rounds: {' '.join(f'{x:.1f}' for x in ns)})"
        )
    reference = np.array(times[names[0]])
    for name in names[1:]:  # a round's variants ran one after the other: their ratio shares its noise
        ratios = np.sort(np.array(times[name]) / reference)
        quartiles = ratios[len(ratios) // 4], ratios[(3 * len(ratios)) // 4]
        print(
            f"{name:12} / {names[0]}: median ratio {np.median(ratios):.3f} of the same round "
            f"(quartiles {quartiles[0]:.3f} - {quartiles[1]:.3f})"
        )


if __name__ == "__main__":
    main(sys.argv)
