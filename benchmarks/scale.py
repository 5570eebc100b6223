"""Past one machine (issue 24): ``es.to_dask`` on a local cluster of worker
processes against one process over the same rows, the scheduler's cost per
chunk, and what a Zarr write spends on making, compressing and storing.

    python benchmarks/scale.py                  # 10**9 cells, width 1000, band 32
    python benchmarks/scale.py --cells 2e8 --workers 2 --rounds 3
    python benchmarks/scale.py --saturation inf    # no queuing of root tasks on the scheduler

The things compared are timed in turns, ``--rounds`` times, and the best
round of each is kept (the machines are shared: trust the ratios).  A
chunk's rows are reduced in their task to one number (a sum of a strided
view), so the figures are those of making the rows, not of sending them to
the client.  Needs the ``[dask]`` extra.
"""

from __future__ import annotations

import argparse
import os
import shutil
import tempfile
import time
import uuid

import dask
import numpy as np

import eller_stream as es
from eller_stream._dask_io import one_core as single_thread
from eller_stream.scale import make_chunk


def _digest(block: np.ndarray) -> np.ndarray:
    """A chunk reduced to one number, on the worker."""
    return np.array([[int(block[::97, ::31].sum())]], np.int64)


def _digests(rows):
    """A number a chunk (computed in the chunk's task: Dask fuses them), as delayed values."""
    chunks = ((1,) * len(rows.chunks[0]), (1,))
    name = f"digest-{uuid.uuid4().hex}"  # a new key each time: no result is found from an earlier round
    digests = rows.map_blocks(_digest, chunks=chunks, dtype=np.int64, name=name)
    return digests.to_delayed().ravel().tolist()


def one_core(maze: es.InfiniteMaze, sizes: tuple[int, ...]) -> float:
    """Seconds to make the rows of the chunks in this process, one after
    another, on one core, into one buffer made once: one core at its best
    (no fresh pages to fault in, whatever the chunks' size)."""
    out = np.empty((max(sizes), maze.width), np.uint8)
    t = time.perf_counter()
    row = 0
    with single_thread():
        for n in sizes:
            _digest(maze.rows(row, row + n, out=out[:n]))
            row += n
    return time.perf_counter() - t


def fresh_and_reused(maze: es.InfiniteMaze, sizes: tuple[int, ...]) -> tuple[float, float]:
    """Run on a worker (``client.run``): seconds for the chunks' rows each
    into a fresh chunk (``make_chunk``, as a task makes them: new memory
    the kernel must map and zero, under the nanny's malloc settings), and
    into one buffer made once."""
    make_chunk(maze, 0, sizes[0])
    fresh = reused = float("inf")
    for _ in range(2):
        t = time.perf_counter()
        row = 0
        for n in sizes:
            _digest(make_chunk(maze, row, row + n))
            row += n
        fresh = min(fresh, time.perf_counter() - t)
        reused = min(reused, one_core(maze, sizes))
    return fresh, reused


def all_cores(maze: es.InfiniteMaze, stop: int, block_rows: int) -> float:
    """Seconds for ``maze.rows`` in blocks, on numba's threads (every core)."""
    t = time.perf_counter()
    out = np.empty((block_rows, maze.width), np.uint8)
    for row in range(0, stop, block_rows):
        n = min(block_rows, stop - row)
        maze.rows(row, row + n, out=out[:n])
    return time.perf_counter() - t


def on_cluster(client, maze: es.InfiniteMaze, stop: int, bands_per_chunk: int | None) -> float:
    t = time.perf_counter()
    client.gather(client.compute(_digests(es.to_dask(maze, 0, stop, bands_per_chunk=bands_per_chunk))))
    return time.perf_counter() - t


def _spin(seconds: float) -> int:
    """Burn ``seconds`` of this thread's CPU time (not wall time: on a
    shared core it takes longer, as a chunk's rows would)."""
    stop = time.thread_time() + seconds
    n = 0
    while time.thread_time() < stop:
        n += 1
    return n


def spin_ceiling(client, chunks: int, seconds_each: float) -> float:
    """Seconds for ``chunks`` tasks on the cluster that only burn as much
    CPU as a chunk of rows takes on one core: the most the cluster can give
    that many tasks of that size on this machine, with no rows, no memory
    and no results to move (the ceiling of its ratio to one core)."""
    t = time.perf_counter()
    client.gather([client.submit(_spin, seconds_each, pure=False) for _ in range(chunks)])
    return time.perf_counter() - t


def per_chunk(client, chunks: int, scheduler: object) -> float:
    """Seconds a chunk of a tiny maze (4 cells wide, bands of 2) costs."""
    tiny = es.InfiniteMaze(4, band=2, seed=1)
    digests = _digests(es.to_dask(tiny, 0, 2 * chunks, bands_per_chunk=1))
    t = time.perf_counter()
    dask.compute(*digests, scheduler=client if scheduler == "cluster" else scheduler)
    return (time.perf_counter() - t) / chunks


def zarr_parts(maze: es.InfiniteMaze, rows: int) -> dict[str, float]:
    """One core: seconds a MB to make rows, to compress them as write_zarr's
    store does (zarr's default codecs), and the compression ratio; then a
    write of ``rows`` rows to a local folder on the cluster's scheduler."""
    import zarr

    chunk = make_chunk(maze, 0, es.band_chunks(maze, 0, rows)[0])
    mb = chunk.nbytes / 1e6
    t = time.perf_counter()
    for _ in range(5):
        make_chunk(maze, 0, len(chunk))
    make = (time.perf_counter() - t) / 5 / mb
    from numcodecs import Zstd  # zarr 3's default compressor for uint8: zstd level 0

    t = time.perf_counter()
    for _ in range(5):
        packed = Zstd(level=0).encode(chunk)
    compress = (time.perf_counter() - t) / 5 / mb
    folder = tempfile.mkdtemp()
    try:
        store = zarr.create_array(store=os.path.join(folder, "c.zarr"), shape=chunk.shape, dtype="uint8")
        t = time.perf_counter()
        for _ in range(5):
            store[:] = chunk
        write = (time.perf_counter() - t) / 5 / mb
        stored = sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(folder) for f in fs)
    finally:
        shutil.rmtree(folder)
    return {
        "make_s_per_mb": make,
        "zstd_s_per_mb": compress,
        "zarr_write_local_s_per_mb": write,
        "ratio": chunk.nbytes / stored,
        "zstd_ratio": chunk.nbytes / len(packed),
    }


def zarr_write(maze: es.InfiniteMaze, rows: int) -> float:
    folder = tempfile.mkdtemp()
    try:
        t = time.perf_counter()
        es.write_zarr(os.path.join(folder, "m.zarr"), maze, 0, rows)
        return time.perf_counter() - t
    finally:
        shutil.rmtree(folder)


def idle_share(seconds: float = 3.0) -> float:
    """The share of the machine's CPU time left idle over ``seconds`` (Linux;
    the machines are shared: a busy neighbour shows here)."""

    def sample() -> list[int]:
        with open("/proc/stat") as f:
            return [int(x) for x in f.readline().split()[1:9]]

    try:
        a = sample()
        time.sleep(seconds)
        b = sample()
    except OSError:
        return float("nan")
    d = [y - x for x, y in zip(a, b, strict=True)]
    return d[3] / max(1, sum(d))


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--cells", type=float, default=1e9)
    p.add_argument("--width", type=int, default=1000)
    p.add_argument("--band", type=int, default=32)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--saturation", default=None, help="distributed.scheduler.worker-saturation (1.1)")
    a = p.parse_args()
    if a.saturation is not None:
        dask.config.set({"distributed.scheduler.worker-saturation": float(a.saturation)})
    from distributed import Client, LocalCluster

    maze = es.InfiniteMaze(a.width, band=a.band, seed=1)
    stop = int(a.cells) // a.width
    sizes = es.band_chunks(maze, 0, stop)
    bands = sizes[0] // a.band
    small = max(1, -(-(8 << 20) // (a.band * a.width)))  # 8 MiB: the default before session 27
    print(f"{stop} rows x {a.width} = {stop * a.width:.3g} cells, band {a.band}, {len(sizes)} chunks")
    print(f"idle before: {100 * idle_share():.0f}% of the machine's CPU time")
    print(f"worker-saturation {dask.config.get('distributed.scheduler.worker-saturation')}")
    cluster = LocalCluster(
        n_workers=a.workers, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None
    )
    with Client(cluster) as client:
        on_cluster(client, maze, 100 * a.band, None)  # the workers load the kernels, and this process:
        one_core(maze, sizes[:2])
        all_cores(maze, 4 * sizes[0], sizes[0])
        best: dict[str, float] = {}
        layouts = (sizes, es.band_chunks(maze, 0, stop, small), es.band_chunks(maze, 0, stop, 4 * bands))
        ceiling = {len(chunks): 0.0 for chunks in layouts}
        for _ in range(a.rounds):
            for name, run in (
                ("one core, this process", lambda: one_core(maze, sizes)),
                (f"cluster, {a.workers} processes x 1 thread", lambda: on_cluster(client, maze, stop, None)),
                ("the same, 8 MiB chunks", lambda: on_cluster(client, maze, stop, small)),
                ("the same, 4x larger chunks", lambda: on_cluster(client, maze, stop, 4 * bands)),
                ("maze.rows on numba's threads, this process", lambda: all_cores(maze, stop, sizes[0])),
            ):
                best[name] = min(best.get(name, float("inf")), run())
            # The ceilings: as many tasks as each layout's chunks, each spinning a chunk's CPU time.
            for n in ceiling:
                each = best["one core, this process"] / n
                ceiling[n] = max(ceiling[n], each * n / spin_ceiling(client, n, each))
        base = best["one core, this process"]
        for name, seconds in best.items():
            ns = seconds / (stop * a.width) * 1e9
            print(f"{name:45s} {seconds:7.2f} s  {ns:5.2f} ns/cell  {base / seconds:5.2f}x one core")
        fresh, reused = next(iter(client.run(fresh_and_reused, maze, sizes).values()))
        print(f"a worker: fresh chunks {fresh:.2f} s, one buffer {reused:.2f} s ({fresh / reused:.2f}x)")
        for n, most in ceiling.items():
            print(f"the ceiling, {n:3d} tasks that only spin (one core's time in all): {most:.2f}x one core")
        part = min(stop, 10**8 // a.width)  # one band a chunk (the words) against the default
        for label, bpc in (("one band a chunk", 1), ("the default chunks", None)):
            seconds = min(on_cluster(client, maze, part, bpc) for _ in range(a.rounds))
            chunks = len(es.band_chunks(maze, 0, part, bpc))
            print(f"cluster, {label:18s} {part * a.width:.3g} cells, {chunks:6d} chunks: {seconds:6.2f} s")
        for scheduler in ("cluster", "threads", "sync"):
            cost = min(per_chunk(client, 2000, scheduler) for _ in range(a.rounds))
            print(f"per chunk of a tiny maze, {scheduler:8s}: {cost * 1e6:7.1f} us")
        parts = zarr_parts(maze, stop)
        print("one core: " + ", ".join(f"{k} {v:.4g}" for k, v in parts.items()))
        rows = min(stop, 10**8 // a.width)
        with_client = min(zarr_write(maze, rows) for _ in range(a.rounds))
        print(f"write_zarr of {rows * a.width:.3g} cells to a local folder, cluster: {with_client:.2f} s")
    cluster.close()
    print(f"idle after: {100 * idle_share():.0f}% of the machine's CPU time")


if __name__ == "__main__":
    main()
