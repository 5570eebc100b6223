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


def vector(
    params: dict[str, Any], start: int, stop: int, key: bool = False, about: str | None = None
) -> dict[str, Any]:
    """One vector: ``params`` (seed as a decimal string), rows start .. stop - 1
    (``about``: what rule it pins, for a porter whose rows differ)."""
    out: dict[str, Any] = {} if about is None else {"about": about}
    out.update({"params": params, "start": str(start), "stop": str(stop)})
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


# -- what a port gets wrong (docs/spec.md, "For porters") ------------------------------
# A probability p with p * 2**32 = v + 1/2 for an even v puts a threshold exactly
# half-way: round half to even gives v, rounding half up (JavaScript's Math.round)
# v + 1. Each value below is (v + 1/2) / 2**32 for v the 32 bits that one cell
# draws (found by trying cells and seeds), so that the cell passes its threshold
# under one rounding and not the other; tests/test_vectors.py checks that rounding
# half up changes each vector's rows, and that the value sits on the tie.
# (name, factor, seed, value[, other parameters]): the threshold is of value * factor.
TIES_ELLER = (
    ("horizontal", 1.0, 2, 0.20868187735322863, {}),  # lo(draw(key, 0)): row 0, cells 0 and 1
    ("vertical", 1.0, 2, 0.45271268917713314, {"horizontal": 1.0}),  # hi(draw(key, 0)), width 2
)
TIES_BANDED = (
    ("horizontal", 0.8, 1, 0.5542763661651406),  # band 0, row 0: FIRST_JOIN * horizontal
    ("horizontal", 1.0, 1, 0.7573788944864646),  # band 0, row 1, cell 0
    ("vertical", 0.6, 2, 0.8232058346038684),  # band 0, row 0, cell 3: FIRST_OPEN * vertical
    ("vertical", 1.0, 1, 0.5985205696197227),  # band 0, row 1, cell 2
    ("doors", 1.0, 1, 0.45482529012952),  # seam 1, column 0
    ("loops", 1.0, 1, 0.1447786974022165),  # band 0, cell 1
)
# rooms: T = (K * width * threshold) >> 32 is 21 with v = 984263338, 22 with v + 1,
# and seed 146's band 0 places a room of 21 cells first: half up places a second.
TIE_ROOMS = (12, 8, 146, 0.22916666662786156)
# The clipping step: band 0 lies between keyframes -2**60 and 1, where t rounds
# to 1.0 and a + (b - a) * t is one float below b, on the tie (v = 1953459746,
# even: threshold v), where b (the float above the tie) has threshold v + 1: the
# clip gives b, and column 0 of seam 1 is a door only with it.
CLIP = {str(-(2**60)): {"doors": 0.9701629673271965}, "1": {"doors": 0.45482529012952005}}
# A parameter a keyframe leaves out takes the maze's own value at that keyframe
# (loops 0.0 at band 4, so band 2 has 0.5), not the value between the keyframes
# that name it (0.75).
LEFT_OUT = {"0": {"loops": 1.0}, "4": {"horizontal": 0.2}, "8": {"loops": 0.0}}
# The braid's doors under a schedule: band 1's loops see seam 1's doors, drawn
# with band 0's doors (0.05), not band 1's own (1.0).
BRAID_DOORS = {"0": {"doors": 0.05}, "1": {"doors": 1.0}}


def porting_vectors() -> list[dict[str, Any]]:
    def tie(name: str, factor: float) -> str:
        scaled = name if factor == 1.0 else f"{factor} x {name}"
        return f"tie: a draw exactly on the threshold of {scaled} (round half to even, not half up)"

    out = []
    for name, factor, seed, value, extra in TIES_ELLER:
        width = 6 if name == "horizontal" else 2
        out.append(vector(p(width, seed, **extra, **{name: value}), 0, 6, about=tie(name, factor)))
    for name, factor, seed, value in TIES_BANDED:
        out.append(vector(p(8, seed, band=4, **{name: value}), -4, 8, about=tie(name, factor)))
    width, band, seed, rooms = TIE_ROOMS
    about = "tie: the room target T with threshold(rooms) on a tie (round half to even)"
    out.append(vector(p(width, seed, band=band, rooms=rooms), -band, 2 * band, about=about))
    about = "clip: a schedule's interpolated value clipped to its keyframes' values"
    out.append(vector(p(8, 1, band=4, schedule=CLIP), -4, 8, about=about))
    about = "left out: a keyframe without a parameter has the maze's own value of it"
    out.append(vector(p(10, 5, band=4, schedule=LEFT_OUT), 0, 40, about=about))
    about = "braid doors: a band's loops see its top seam's doors, drawn with the doors of the band above"
    out.append(vector(p(10, 5, band=4, loops=1.0, schedule=BRAID_DOORS), -4, 12, about=about))
    about = "the band of row -2**63 starts at -2**63 - 6 (band x height below int64)"
    out.append(vector(p(12, 5, band=7), -TOP, -TOP + 20, about=about))
    return out


# -- the plane (docs/spec.md section 8) ------------------------------------------------
PLANE_TOP = 2**62


def _plane(params: dict[str, Any]) -> Any:
    import eller_stream as es

    knobs = {k: v for k, v in params.items() if k not in ("chunk", "seed")}
    return es.Plane(params["chunk"], int(params["seed"]), **knobs)


def plane_vector(
    params: dict[str, Any], y0: int, y1: int, x0: int, x1: int, about: str | None = None
) -> dict[str, Any]:
    """One vector of the plane: cells [y0, y1) x [x0, x1) (``about``: the rule it pins)."""
    grid = _plane(params).region(y0, y1, x0, x1)
    out: dict[str, Any] = {} if about is None else {"about": about}
    out.update({"params": params, "y0": str(y0), "y1": str(y1), "x0": str(x0), "x1": str(x1)})
    out["sha256"] = hashlib.sha256(grid.tobytes()).hexdigest()
    shown = sorted({0, 1, len(grid) // 2, len(grid) - 1} & set(range(len(grid))))
    out["rows"] = {str(y0 + i): grid[i].tobytes().hex() for i in shown}
    return out


def pp(chunk: int, seed: int, **knobs: Any) -> dict[str, Any]:
    return {"chunk": chunk, "seed": str(seed), **knobs}


def around(y: int, x: int, half: int = 6) -> tuple[int, int, int, int]:
    """A region of 2 * half cells a side about cell (y, x), inside the plane."""
    y0 = max(-PLANE_TOP, min(y - half, PLANE_TOP - 2 * half))
    x0 = max(-PLANE_TOP, min(x - half, PLANE_TOP - 2 * half))
    return y0, y0 + 2 * half, x0, x0 + 2 * half


def high_doors() -> list[dict[str, Any]]:
    """Regions about the doors of blocks of high levels: their place along a
    side is a 128-bit product, and their blocks reach past 2**63."""
    from eller_stream import _plane_blocks as pb
    from eller_stream._rng import seed_key

    out = []
    for chunk, seed, level in ((1, 7, 19), (1, 7, 12), (16, 2**64 - 1, 17), (64, 3, 15), (5, 11, 4)):
        key = int(seed_key(seed))
        for jy, jx in ((-1, 0), (0, 1), (1, -1), (-1, -1)):
            d = pb.door(key, chunk, level, jy, jx)
            if d is None or not all(-PLANE_TOP <= v < PLANE_TOP for v in d[:2]):
                continue
            about = f"door: the one door of a block of level {level} (its place: draw x size >> 64)"
            out.append(plane_vector(pp(chunk, seed), *around(d[0], d[1]), about=about))
            break
    return out


def plane_vectors() -> list[dict[str, Any]]:
    out = []
    for chunk in (1, 2, 3, 4, 5, 8, 9, 16, 17, 33, 64):
        for perfect in (True, False):
            out.append(
                plane_vector(
                    pp(chunk, 7, perfect=perfect), -2 * chunk - 3, 3 * chunk + 1, -chunk - 2, 2 * chunk + 5
                )
            )
    for seed in (0, 2**64 - 1):
        for perfect in (True, False):
            out.append(plane_vector(pp(16, seed, perfect=perfect), -40, 40, -40, 40))
    top = PLANE_TOP
    for perfect in (True, False):  # the four corners of [-2**62, 2**62), the last cells leading to 2**62
        for y0, x0 in ((-top, -top), (-top, top - 37), (top - 29, -top), (top - 29, top - 37)):
            out.append(plane_vector(pp(16, 5, perfect=perfect), y0, y0 + 29, x0, x0 + 37))
        out.append(plane_vector(pp(7, 5, perfect=perfect), top - 20, top, top - 30, top))
    for name in ("horizontal", "vertical"):
        for value in (0.0, 1.0):
            for perfect in (True, False):
                out.append(plane_vector(pp(6, 3, perfect=perfect, **{name: value}), -20, 20, -15, 25))
    for h, v in ((0.0, 0.0), (1.0, 1.0), (0.0, 1.0), (1.0, 0.0), (0.2, 0.9)):
        out.append(plane_vector(pp(5, 13, horizontal=h, vertical=v), -30, 30, -30, 30))
    # across the seams of blocks of levels 1 to 3 (chunk 2: blocks 18, 162, 1458 cells wide)
    for edge in (9, 81, 729):
        out.append(plane_vector(pp(2, 21), edge - 12, edge + 12, -edge - 12, -edge + 12))
    out.append(
        plane_vector(
            pp(16, 9, perfect=False, horizontal=0.3, vertical=0.6),
            10**15,
            10**15 + 50,
            -(10**17),
            -(10**17) + 70,
        )
    )
    return out + high_doors()


# Plane ties, as TIES_BANDED: (name, factor, perfect, seed, value), the value
# (v + 1/2) / 2**32 / factor for v (even) the 32 bits a cell of chunk 4 draws
# (found by trying the cells around the origin and seeds), so that the region
# (-6, 6) x (-6, 6) differs under half up. 0.8 x horizontal is both a chunk's
# row 0 joins and a row's exit east (EXIT = FIRST_JOIN); without perfect also
# an east seam's doors, as vertical is a south seam's.
PLANE_TIES = (
    ("horizontal", 1.0, True, 1, 0.7327578292461112),
    ("horizontal", 0.8, True, 1, 0.8408212645736056),
    ("horizontal", 0.8, False, 1, 0.26226687550661154),
    ("horizontal", 0.5, True, 1, 0.12949752830900252),  # LAST_JOIN x horizontal
    ("vertical", 1.0, True, 1, 0.9964884120272473),
    ("vertical", 1.0, False, 1, 0.8992656228365377),
    ("vertical", 0.6, True, 1, 0.4651364336799209),
)


def plane_ties() -> list[dict[str, Any]]:
    out = []
    for name, factor, perfect, seed, value in PLANE_TIES:
        scaled = name if factor == 1.0 else f"{factor} x {name}"
        about = f"tie: a draw exactly on the threshold of {scaled} (round half to even, not half up)"
        out.append(plane_vector(pp(4, seed, perfect=perfect, **{name: value}), -6, 6, -6, 6, about=about))
    return out


FILES = {
    "eller.json": ("The Eller stream (docs/spec.md section 4), with its closing rows.", eller_vectors),
    "banded.json": ("The banded maze (section 5) without loops or rooms.", banded_vectors),
    "levels.json": (
        "The banded maze with loops, rooms and schedules (sections 5.2, 5.5, 5.7).",
        level_vectors,
    ),
    "porting.json": (
        "What a port gets wrong (docs/spec.md, For porters): draws exactly on a threshold"
        " (round half to even), the clipping step, parameters a keyframe leaves out, the doors"
        " a braid uses under a schedule, the band of row -2**63.",
        porting_vectors,
    ),
    "plane.json": (
        "The plane (docs/spec.md section 8): regions of both modes, chunk sizes 1 to 64, far"
        " coordinates, the doors of blocks of high levels, draws exactly on each threshold.",
        lambda: plane_vectors() + plane_ties(),
    ),
}


def main() -> None:
    for name, (description, make) in FILES.items():
        text = json.dumps({"description": description, "vectors": make()}, indent=1)
        (HERE / name).write_text(text + "\n")
        print(f"wrote {HERE / name}")


if __name__ == "__main__":
    main()
