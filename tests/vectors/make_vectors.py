"""Write the conformance vectors of docs/spec.md (tests/vectors/*.json).

Run ``python tests/vectors/make_vectors.py`` only when what a seed produces
changes on purpose (a CHANGELOG entry): the vectors pin it, and
tests/test_vectors.py checks the package and the JavaScript module against
them.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import numpy as np

HERE = Path(__file__).resolve().parent
TOP = 2**63
U64 = 2**64 - 1


def _eller(params: dict[str, Any], stop: int) -> tuple[np.ndarray, np.ndarray]:
    import eller_stream as es

    kw = {k: v for k, v in params.items() if k != "width"}
    kw["seed"] = int(kw["seed"])
    s = es.EllerStream(params["width"], **kw)
    rows = np.array([next(s) for _ in range(stop)], np.uint8).reshape(stop, params["width"])
    return rows, s.finish()


def _banded(params: dict[str, Any], start: int, stop: int) -> np.ndarray:
    import eller_stream as es

    kw = {k: v for k, v in params.items() if k not in ("width", "band", "schedule")}
    kw["seed"] = int(kw["seed"])
    if "schedule" in params:
        kw["schedule"] = es.Schedule({int(b): f for b, f in params["schedule"].items()})
    maze = es.InfiniteMaze(params["width"], params["band"], **kw)
    return maze.rows(start, stop)


def vector(params: dict[str, Any], start: int, stop: int, key: bool = False) -> dict[str, Any]:
    """One vector: ``params`` (seed as a decimal string), rows start .. stop - 1."""
    out: dict[str, Any] = {"params": params, "start": str(start), "stop": str(stop)}
    if "band" in params:
        rows = _banded(params, start, stop)
    else:
        assert start == 0
        rows, closing = _eller(params, stop)
    out["sha256"] = hashlib.sha256(rows.tobytes()).hexdigest()
    shown = sorted({0, 1, len(rows) // 2, len(rows) - 1} & set(range(len(rows))))
    out["rows"] = {str(start + i): rows[i].tobytes().hex() for i in shown}
    if "band" not in params:
        out["closing_sha256"] = hashlib.sha256(closing.tobytes()).hexdigest()
    if key:
        from eller_stream._rng import seed_key

        out["key"] = f"{int(seed_key(int(params['seed']))):016x}"
    return out


def p(width: int, seed: int, **knobs: Any) -> dict[str, Any]:
    return {"width": width, "seed": str(seed), **knobs}


def eller_vectors() -> list[dict[str, Any]]:
    out = [vector(p(w, s), 0, 40, key=True) for w in (1, 2, 3, 8, 80) for s in (0, 7, U64)]
    for h in (0.0, 1.0, 0.3):
        for v in (0.0, 1.0, 0.7):
            out.append(vector(p(9, 12345, horizontal=h, vertical=v), 0, 30))
    out.append(vector(p(200, 2**53 + 1, horizontal=0.25, vertical=0.75), 0, 12))
    out.append(vector(p(5, 99), 0, 0))  # no row: the closing row alone
    return out


def banded_vectors() -> list[dict[str, Any]]:
    out = []
    for w in (1, 2, 3, 17):
        for band in (2, 3, 4, 16):
            out.append(vector(p(w, 7, band=band), -2 * band - 1, 3 * band + 2))
    out.append(vector(p(80, 0, band=32), -40, 70, key=True))
    out.append(vector(p(80, U64, band=32), 10**12, 10**12 + 64))
    out.append(vector(p(12, 5, band=8), -TOP, -TOP + 20))
    out.append(vector(p(12, 5, band=8), TOP - 20, TOP))
    out.append(vector(p(12, 5, band=7), TOP - 20, TOP))
    for name, values in (("horizontal", (0.0, 1.0)), ("vertical", (0.0, 1.0)), ("doors", (1e-9, 1.0))):
        for value in values:
            out.append(vector(p(13, 3, band=6, **{name: value}), -7, 25))
    out.append(vector(p(13, 3, band=6, horizontal=0.0, vertical=0.0, doors=1.0), -7, 25))
    out.append(vector(p(13, 3, band=6, horizontal=1.0, vertical=1.0, doors=1e-9), -7, 25))
    out.append(vector(p(31, 2**40 + 3, band=5, horizontal=0.1, vertical=0.9, doors=0.2), -12, 40))
    return out


def level_vectors() -> list[dict[str, Any]]:
    out = []
    for loops in (0.0, 0.5, 1.0):
        for w, band in ((1, 2), (2, 3), (9, 4), (24, 12)):
            out.append(vector(p(w, 11, band=band, loops=loops), -band - 1, 2 * band + 1))
    for rooms in (0.1, 0.3, 0.9):
        for w, band in ((2, 4), (3, 5), (24, 12), (40, 16)):
            out.append(vector(p(w, 13, band=band, rooms=rooms), -band, 2 * band))
    out.append(vector(p(40, 17, band=16, loops=0.5, rooms=0.3), -20, 40))
    out.append(vector(p(40, 17, band=16, loops=1.0, rooms=0.9, horizontal=1.0, vertical=0.0), -20, 40))
    out.append(vector(p(40, 17, band=16, loops=1.0, rooms=0.5, horizontal=0.0, vertical=1.0), -20, 40))
    out.append(vector(p(30, 2**63, band=10, loops=0.3, rooms=0.2), TOP - 30, TOP))
    schedule = {"-3": {"loops": 0.0, "doors": 0.2}, "4": {"loops": 1.0, "rooms": 0.4, "horizontal": 0.2}}
    out.append(vector(p(20, 21, band=6, schedule=schedule), -40, 50))
    ramp = {"0": {"vertical": 0.1}, "3": {"vertical": 0.9, "doors": 1.0}, "1000000000000": {"vertical": 0.5}}
    out.append(vector(p(20, 21, band=6, schedule=ramp), -12, 40))
    out.append(vector(p(20, 21, band=6, schedule={"0": {"rooms": 0.5}}), -12, 12))
    far = {str(-TOP): {"loops": 1.0}, str(TOP - 1): {"loops": 0.0}}
    out.append(vector(p(20, 21, band=6, schedule=far), -6, 12))
    return out


FILES = {
    "eller.json": ("The Eller stream (docs/spec.md section 4), with its closing rows.", eller_vectors),
    "banded.json": ("The banded maze (section 5) without loops or rooms.", banded_vectors),
    "levels.json": (
        "The banded maze with loops, rooms and schedules (sections 5.2, 5.5, 5.7).",
        level_vectors,
    ),
}


def main() -> None:
    for name, (description, make) in FILES.items():
        text = json.dumps({"description": description, "vectors": make()}, indent=1)
        (HERE / name).write_text(text + "\n")
        print(f"wrote {HERE / name}")


if __name__ == "__main__":
    main()
