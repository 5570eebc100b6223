"""compare.py: the comparison rows and the compare command."""

from __future__ import annotations

import json

import eller_stream as es


def test_compare_rows_and_cli_json(run_cli):
    rows = es.compare(40, 30, seeds=2)
    names = [r["algorithm"] for r in rows]
    assert "backtracker" in names and "growing-tree:newest:90,random:10" in names
    by = {r["algorithm"]: r for r in rows}
    assert by["growing-tree:newest"]["dead_end_fraction"] < by["growing-tree:random"]["dead_end_fraction"]
    assert by["backtracker"]["extra_bytes_per_cell"] < 0.5
    assert by["growing-tree:random"]["extra_bytes_per_cell"] >= 4
    out = run_cli(
        "compare", "--width", "20", "--height", "20", "--seeds", "1",
        "--algorithm", "backtracker", "--algorithm", "eller:h=0.7,v=0.3", "--json",
    )  # fmt: skip
    data = json.loads(out.stdout)
    assert [d["algorithm"] for d in data] == ["backtracker", "eller:h=0.7,v=0.3"]
    table = run_cli("compare", "--width", "20", "--height", "20", "--seeds", "1").stdout
    assert "growing-tree:oldest" in table and "ns/cell" in table
    bad = run_cli("compare", "--algorithm", "growing-tree:sideways", check=False)
    assert bad.returncode == 2 and bad.stdout == "" and len(bad.stderr.splitlines()) == 1


def test_compare_times_compiled_kernels_in_a_fresh_process(run_cli):
    """The figure must not include numba's set-up or plain-Python rows: in a
    new process the warm-up has to be big enough that Eller's stream does
    not run it as plain Python (it does for a process's first 1024 cells).
    Not a speed test: compiled Eller takes ~10-50 ns a cell, plain Python
    ~25 us, a timed run that includes numba's set-up over 100 us."""
    out = run_cli(
        "compare", "--width", "60", "--height", "60", "--seeds", "1", "--algorithm", "eller", "--json"
    )
    assert json.loads(out.stdout)[0]["ns_per_cell"] < 5000


def test_banded_names_take_integers_as_integers(monkeypatch):
    """Before, band=9007199254740993 was parsed as a float (and ran band
    ...992), band=1e1 was accepted, and a key given twice kept the last."""
    import pytest

    from eller_stream import _generators

    bands = []
    real = _generators.InfiniteMaze

    class Recording(real):  # type: ignore[misc,valid-type]
        @classmethod
        def from_params(cls, width, band, *args):
            bands.append(band)
            return real.from_params(width, band, *args)

    monkeypatch.setattr(_generators, "InfiniteMaze", Recording)
    grid = _generators.generator("banded:band=65535")(6, 4, 1)
    assert grid.shape == (4, 6) and bands and all(b == 65535 and type(b) is int for b in bands)
    # a float would have printed ...992
    with pytest.raises(ValueError, match=r"band must be in \[2, 65536\], got 9007199254740993$"):
        _generators.generator("banded:band=9007199254740993")
    for name in ("banded:band=1e1", "banded:band=4.0", "banded:band=4,band=5", "eller:h=0.1,h=0.2"):
        with pytest.raises(ValueError, match=r"whole number|twice"):
            _generators.generator(name)
