"""Throughput of the eller-stream streaming loop to /dev/null (issue: CLI).

The loop of the command (``cli._stream``) runs in this process, writing to
/dev/null, so process start-up is left out; the engine alone (``take()`` in
the same chunks) is measured beside it, and the table gives bytes and rows
per second and the share of the time spent in the engine.
"""

from __future__ import annotations

import pytest
from conftest import interleaved_best, note

import eller_stream as es
from eller_stream import cli

ROWS_FOR = {80: 50_000, 1000: 4_000}


def run_cli(style: str, width: int, rows: int) -> int:
    plan = {
        "stream": es.EllerStream(width, seed=1),
        "previous": None,
        "style": style,
        "rows": rows,
        "rate": 0.0,
        "tty": False,
    }
    with open("/dev/null", "wb") as out:
        code = cli._stream(plan, None, out, cli._Interrupt())
        return out.tell() if out.seekable() else code


def engine_only(width: int, rows: int) -> None:
    stream = es.EllerStream(width, seed=1)
    chunk = max(1, min(4096, (1 << 16) // width))
    done = 0
    while done < rows:
        n = min(chunk, rows - done)
        stream.take(n)
        done += n


def output_bytes(style: str, width: int, rows: int) -> int:
    r = es.TextRenderer(width, style)
    grid = es.eller(width, rows, seed=1)
    return len(r.start() + r.rows(grid[:-1]) + r.close(grid[-1]))


@pytest.mark.parametrize("style", ["raw", "ascii", "unicode", "blocks"])
@pytest.mark.parametrize("width", [80, 1000])
def test_cli_to_dev_null(benchmark, style, width):
    rows = ROWS_FOR[width]
    best = interleaved_best(
        {"cli": lambda: run_cli(style, width, rows), "engine": lambda: engine_only(width, rows)}, rounds=5
    )
    cells = rows * width
    seconds = best["cli"]
    size = output_bytes(style, width, min(rows, 2000)) * rows / min(rows, 2000)
    info = {
        "ns_per_cell": seconds / cells * 1e9,
        "bytes_per_s": size / seconds,
        "rows_per_s": rows / seconds,
        "x_engine": seconds / best["engine"],
    }
    benchmark.extra_info.update(info)
    note(
        f"cli --style {style:<7} width {width:>4}: {info['bytes_per_s'] / 1e6:6.1f} MB/s, "
        f"{info['rows_per_s']:>9,.0f} rows/s, {info['ns_per_cell']:6.2f} ns/cell, "
        f"{info['x_engine']:.2f}x the engine alone (engine {best['engine'] / seconds:.0%} of the time)"
    )
    benchmark.pedantic(lambda: None, rounds=1)
