"""``GET /v1/region`` of a real ``eller-stream serve``: a rectangle of the
plane, its bytes against ``Plane.region`` and the plain restatement
(naive_plane.py), its headers and caching, every bad parameter a 400 naming
it, the limits on what a request makes, odd query strings, far
coordinates, and ``/v1/info``'s account of it."""

from __future__ import annotations

import io
import json
import time
from typing import Any
from urllib.parse import urlencode

import naive_plane as npl
import numpy as np
import png
import pytest
from hypothesis import given
from hypothesis import strategies as st
from serve_support import Server, needs_serve
from strategies import plane_knobs, seeds

import eller_stream as es
from eller_stream._plane_params import PlaneParams
from eller_stream.image import image_size
from eller_stream.serve import _answer

pytestmark = needs_serve
TOP = 2**62


def grid(answer: Any, height: int, width: int) -> np.ndarray:
    assert answer.status == 200, answer.body[:300]
    assert (answer.headers["x-height"], answer.headers["x-width"]) == (str(height), str(width))
    return np.frombuffer(answer.body, np.uint8).reshape(height, width)


def spot(start: int, size: int) -> tuple[int, int]:
    """A range of ``size`` from ``start``, moved inside [-2**62, 2**62]."""
    start = min(start, TOP - size)
    return start, start + size


# near 0, or near either end of [-2**62, 2**62)
places = st.one_of(st.integers(-300, 300), st.integers(-TOP, -TOP + 300), st.integers(TOP - 300, TOP - 1))


# -- the bytes ------------------------------------------------------------------------------


@given(
    chunk=st.one_of(st.sampled_from([1, 2, 16]), st.integers(1, 40)),
    seed=seeds,
    knobs=plane_knobs(),
    y=places,
    x=places,
    h=st.integers(1, 60),
    w=st.integers(1, 60),
)
def test_raw_regions_are_the_planes(
    server: Server, chunk: int, seed: int, knobs: dict[str, Any], y: int, x: int, h: int, w: int
) -> None:
    (y0, y1), (x0, x1) = spot(y, h), spot(x, w)
    answer = server.region(chunk=chunk, seed=seed, y0=y0, y1=y1, x0=x0, x1=x1, **knobs)
    want = es.Plane(chunk, seed, **knobs).region(y0, y1, x0, x1)
    assert np.array_equal(grid(answer, h, w), want)
    bounds = [answer.headers[f"x-{name}"] for name in ("y0", "y1", "x0", "x1")]
    assert bounds == [str(b) for b in (y0, y1, x0, x1)]
    assert answer.headers["content-type"] == "application/octet-stream"


@pytest.mark.parametrize(
    ("chunk", "seed", "knobs", "y0", "x0"),
    [
        (4, 7, {}, -5, -9),
        (3, 2**64 - 1, {"perfect": False, "horizontal": 0.0, "vertical": 1.0}, 10**12, -(10**15)),
        (5, 11, {"horizontal": 1.0, "vertical": 0.0}, -TOP, TOP - 17),
        (1, 0, {"perfect": False}, TOP - 17, -TOP),
    ],
)
def test_regions_are_the_plain_restatement(
    server: Server, chunk: int, seed: int, knobs: dict[str, Any], y0: int, x0: int
) -> None:
    """The oracle, which imports nothing of the package, at the origin and the corners."""
    h, w = 17, 13
    answer = server.region(chunk=chunk, seed=seed, y0=y0, y1=y0 + h, x0=x0, x1=x0 + w, **knobs)
    want = npl.plane_region(chunk, seed, y0, y0 + h, x0, x0 + w, **knobs)
    assert np.array_equal(grid(answer, h, w), want)


def test_the_corners_of_the_plane(server: Server) -> None:
    plane = es.Plane(16, 2**64 - 1)
    for y0, x0 in ((-TOP, -TOP), (-TOP, TOP - 40), (TOP - 40, -TOP), (TOP - 40, TOP - 40)):
        answer = server.region(seed=2**64 - 1, y0=y0, y1=y0 + 40, x0=x0, x1=x0 + 40)
        assert np.array_equal(grid(answer, 40, 40), plane.region(y0, y0 + 40, x0, x0 + 40)), (y0, x0)
    # a cell of the widest chunk, in the plane's last row and column: its 4 chunks made whole
    one = server.region(chunk=1024, seed=5, y0=TOP - 1, y1=TOP, x0=TOP - 1, x1=TOP)
    assert one.body == es.Plane(1024, 5).region(TOP - 1, TOP, TOP - 1, TOP).tobytes()


def test_without_chunk_the_planes_default(server: Server) -> None:
    answer = server.region(seed=3, y0=-20, y1=20, x0=-20, x1=20)
    assert np.array_equal(grid(answer, 40, 40), es.Plane(seed=3).region(-20, 20, -20, 20))
    spelt = server.region(chunk=16, seed=3, y0=-20, y1=20, x0=-20, x1=20)
    assert answer.headers["etag"] == spelt.headers["etag"]


def test_json_and_png(server: Server) -> None:
    plane = es.Plane(8, 9, perfect=False)
    want = plane.region(-5, 30, 2**40, 2**40 + 20)
    query = {"chunk": 8, "seed": 9, "perfect": "false", "y0": -5, "y1": 30, "x0": 2**40, "x1": 2**40 + 20}
    value = server.region(**query, format="json")
    assert value.status == 200 and value.headers["content-type"].startswith("application/json")
    body = value.json()
    assert [body[k] for k in ("y0", "y1", "x0", "x1")] == ["-5", "30", str(2**40), str(2**40 + 20)]
    assert (body["height"], body["width"]) == (35, 20)
    assert np.array_equal(np.array(body["rows"], np.uint8), want)
    picture = server.region(**query, format="png")
    assert picture.status == 200 and picture.headers["content-type"] == "image/png"
    expected = io.BytesIO()
    es.write_png(expected, want, cell=8, wall=2)  # as /v1/rows draws its rows
    assert picture.body == expected.getvalue()
    w, h, _, _ = png.Reader(bytes=picture.body).read()
    assert (w, h) == image_size(20, 35, 8, 2)


# -- the headers ----------------------------------------------------------------------------

PATH = "/v1/region?chunk=8&seed=1&y0=0&y1=8&x0=-4&x1=4"


def test_headers_cache_and_cors(server: Server) -> None:
    answer = server.get(PATH)
    assert answer.headers["cache-control"] == "public, max-age=31536000, immutable"
    assert answer.headers["access-control-allow-origin"] == "*"
    exposed = {h.strip() for h in answer.headers["access-control-expose-headers"].split(",")}
    assert {"ETag", "X-Height", "X-Width", "X-Y0", "X-Y1", "X-X0", "X-X1"} <= exposed
    etag = answer.headers["etag"]
    assert etag.startswith('"') and etag.endswith('"')
    again = server.get(PATH, headers={"If-None-Match": etag})
    assert again.status == 304 and again.body == b"" and again.headers["etag"] == etag
    # the same region asked for in another order, or with its knobs spelt out at their defaults
    assert server.get("/v1/region?x1=4&x0=-4&y1=8&y0=0&seed=1&chunk=8").headers["etag"] == etag
    spelt = "&".join(f"{name}={PlaneParams.default(name)}" for name in PlaneParams.names())
    assert server.get(PATH + "&" + spelt).headers["etag"] == etag
    assert server.get(PATH + "&perfect=yes&horizontal=0.50").headers["etag"] == etag
    others = ["&perfect=false", "&vertical=0.25", "&format=json"]
    tags = {server.get(PATH + extra).headers["etag"] for extra in others}
    tags |= {server.get(PATH.replace(old, new)).headers["etag"] for old, new in (("seed=1", "seed=2"),
             ("chunk=8", "chunk=9"), ("y0=0", "y0=-1"), ("x1=4", "x1=5"))}  # fmt: skip
    assert etag not in tags and len(tags) == 7
    assert server.rows(width=8, band=8, seed=1, start=0, stop=8).headers["etag"] != etag


@pytest.mark.parametrize("given", ["*", "{etag}", "W/{etag}", '"other", {etag}'])
def test_if_none_match(server: Server, given: str) -> None:
    etag = server.get(PATH).headers["etag"]
    again = server.get(PATH, headers={"If-None-Match": given.format(etag=etag)})
    assert again.status == 304 and again.headers["etag"] == etag and again.headers["x-y0"] == "0"
    assert server.get(PATH, headers={"If-None-Match": '"other"'}).status == 200


def test_head(server: Server) -> None:
    head = server.get(PATH, method="HEAD")
    assert head.status == 200 and head.body == b"" and head.headers["x-width"] == "8"


# -- bad requests ---------------------------------------------------------------------------

GOOD = {"chunk": "8", "seed": "1", "y0": "0", "y1": "8", "x0": "0", "x1": "8"}
LOW, HIGH = f"[{-TOP}, {TOP - 1}]", f"[{-TOP + 1}, {TOP}]"
BAD = [
    ({"chunk": "x"}, "chunk", "chunk must be an integer"),
    ({"chunk": ""}, "chunk", "chunk must be an integer"),
    ({"chunk": "0"}, "chunk", "chunk must be in [1, 1024], got 0"),
    ({"chunk": "1025"}, "chunk", "chunk must be in [1, 1024], got 1025"),
    ({"chunk": "16.0"}, "chunk", "chunk must be an integer"),
    ({"seed": None}, "seed", "seed is required"),
    ({"seed": "-1"}, "seed", "seed must be in [0,"),
    ({"seed": str(2**64)}, "seed", "seed must be in [0,"),
    ({"seed": "1e3"}, "seed", "seed must be an integer"),
    *(({name: None}, name, f"{name} is required") for name in ("y0", "y1", "x0", "x1")),
    ({"y0": str(-TOP - 1)}, "y0", f"y0 must be in {LOW}, got {-TOP - 1}"),
    ({"x0": str(TOP), "x1": str(TOP)}, "x0", f"x0 must be in {LOW}, got {TOP}"),
    ({"y1": str(TOP + 1)}, "y1", f"y1 must be in {HIGH}, got {TOP + 1}"),
    ({"x1": str(-TOP)}, "x1", f"x1 must be in {HIGH}"),
    ({"y1": "0"}, "y1", "y1 must be greater than y0, got y0=0, y1=0"),
    ({"x0": "9"}, "x1", "x1 must be greater than x0, got x0=9, x1=8"),
    ({"y0": "+3"}, "y0", "y0 must be an integer"),
    ({"x0": "0x10"}, "x0", "x0 must be an integer"),
    ({"x0": " 1"}, "x0", "x0 must be an integer"),
    ({"y0": "\u22121"}, "y0", "y0 must be an integer"),  # a minus sign, not a hyphen
    ({"format": "gif"}, "format", "format must be one of raw, json, png"),
    ({"perfect": "maybe"}, "perfect", "perfect must be true or false, got 'maybe'"),
    ({"perfect": ""}, "perfect", "perfect must be true or false"),
    ({"perfect": "2"}, "perfect", "perfect must be true or false"),
    ({"horizontal": "2"}, "horizontal", "horizontal must be in [0, 1]"),
    ({"horizontal": "nan"}, "horizontal", "horizontal must be a decimal number"),
    ({"vertical": "inf"}, "vertical", "vertical must be a decimal number"),
    ({"vertical": "-0.5"}, "vertical", "vertical must be a decimal number"),
    ({"horizontal": "0.5.5"}, "horizontal", "horizontal must be a decimal number"),
    ({"loops": "0.5"}, "loops", "unknown parameter 'loops'"),  # the banded maze's, not the plane's
    ({"width": "8"}, "width", "unknown parameter 'width'"),
    # the answer's cells, a picture's, the cells made: the limits of /v1/rows
    ({"y1": "2000", "x1": "1000"}, "y1", "must be at most 1048576 cells, got 2000000"),
    ({"y1": "300", "x1": "300", "format": "png"}, "y1", "must be at most 65536 cells, got 90000"),
    ({"y1": "1", "x1": str(2**21)}, "x1", "must be at most 1048576 cells, got 2097152"),  # the longer side
    ({"chunk": "1024", "y0": "1023", "y1": "1024", "x1": "8192"}, "chunk", "makes 18874368 cells"),
    # more digits than Python turns into an int (4,300)
    *(({name: "1" * 5000}, name, f"{name} must be in") for name in ("chunk", "seed", "y0", "x1")),
    ({"x0": "-" + "9" * 5000}, "x0", "x0 must be in"),
    ({"perfect": "t" * 5000}, "perfect", "perfect must be true or false"),
]


def query_of(change: dict[str, str | None]) -> str:
    merged = {**GOOD, **change}
    return urlencode({k: v for k, v in merged.items() if v is not None})


@pytest.mark.parametrize(("change", "parameter", "message"), BAD)
def test_a_bad_request_is_a_400_naming_the_parameter(
    server: Server, change: dict[str, str | None], parameter: str, message: str
) -> None:
    answer = server.get("/v1/region?" + query_of(change))
    assert answer.status == 400, answer.body
    assert answer.headers["content-type"].startswith("application/json")
    assert answer.headers["access-control-allow-origin"] == "*"
    assert answer.headers["cache-control"] == "no-store"
    body = answer.json()
    assert body["parameter"] == parameter and message in body["error"], body
    assert body["status"] == 400 and len(body["error"]) < 400


def test_too_much_made_says_the_count_and_the_limit(server: Server) -> None:
    began = time.perf_counter()
    answer = server.region(chunk=1024, seed=3, y0=1023, y1=1024, x0=0, x1=8192)
    assert time.perf_counter() - began < 1.0  # refused before any of it is made
    body = answer.json()
    assert (answer.status, body["parameter"]) == (400, "chunk")
    assert (body["cells"], body["limit"]) == (18 * 2**20, 2**24)
    assert es.Plane(1024).cells_made(1023, 1024, 0, 8192) == body["cells"]  # the plane's own count


@pytest.mark.parametrize(
    "path",
    [
        "/v1/region?chunk=8&chunk=8&seed=1&y0=0&y1=8&x0=0&x1=8",
        "/v1/region?" + "&".join(f"a{i}=1" for i in range(40)),
        "/v1/region?" + "&".join(["seed=1"] * 33),
        "/v1/region?%ff=1&seed=1",
        "/v1/region?seed=%00&y0=0&y1=8&x0=0&x1=8",
        "/v1/region?seed&y0&y1&x0&x1",
        "/v1/region?seed=1&y0=0&y1=8&x0=0&x1=8&=",
        "/v1/region?seed=1&y0=0&y1=8&x0=0&x1=8&perfect=true&perfect=false",
        "/v1/region?seed=1&y0=" + "9" * 40_000 + "&y1=8&x0=0&x1=8",
        "/v1/region?seed=1&y0=0&y1=8&x0=0&x1=8&horizontal=" + "1" * 40_000,
        "/v1/region",
    ],
)
def test_odd_queries(server: Server, path: str) -> None:
    answer = server.get(path)
    assert answer.status == 400 and answer.headers["content-type"].startswith("application/json")
    assert answer.json()["error"] and len(answer.json()["error"]) < 400


def test_a_url_past_what_the_parser_reads_is_json(server: Server) -> None:
    long = server.raw(b"GET /v1/region?seed=1&y0=" + b"1" * 70_000 + b" HTTP/1.1\r\nHost: x\r\n\r\n")
    assert long.status == 414 and long.json()["status"] == 414


@given(
    st.dictionaries(
        st.sampled_from([*GOOD, "format", *PlaneParams.names(), "q"]),
        st.one_of(st.text(max_size=30), st.integers(-(2**70), 2**70).map(str)),
        max_size=8,
    )
)
def test_any_query_is_a_200_or_a_400(server: Server, query: dict[str, str]) -> None:
    answer = server.get("/v1/region?" + urlencode({**GOOD, **query}))
    assert answer.status in (200, 400), answer.body
    if answer.status == 400:
        assert answer.json()["parameter"] in (*GOOD, *query), answer.body


# -- what a request makes -------------------------------------------------------------------

# 7167 cells that make 14 whole chunks of 2**20 cells: just below the most one request may make
HEAVY = {"chunk": 1024, "seed": 3, "y0": 1023, "y1": 1024, "x0": 0, "x1": 7167}


def test_info_answers_while_heavy_regions_are_in_flight(server: Server) -> None:
    assert es.Plane(1024).cells_made(1023, 1024, 0, 7167) == 14 * 2**20 <= 2**24
    assert server.region(**HEAVY).body == es.Plane(1024, 3).region(1023, 1024, 0, 7167).tobytes()
    alone, waits = server.info_waits_while(lambda: server.region(**HEAVY))
    assert sorted(waits)[len(waits) // 2] < max(alone / 4, 0.05), (alone, waits)


@pytest.mark.parametrize(
    "shape", [(1, 1), (3, 5), (2**16 + 5, 1), (1, 2**16 + 3), (3, 2**14), (5, 2**14 + 1)]
)
def test_a_json_answer_is_encoded_in_pieces_with_the_same_bytes(shape: tuple[int, int]) -> None:
    """json.dumps of a whole 2**20-cell grid held the GIL about half a
    second (every other request's turn too): the rows are encoded a piece at
    a time, whole rows or pieces of a longer row, into the same bytes (a
    column of 2**16 + 5 rows: four whole pieces and a short one)."""
    grid = np.random.default_rng(sum(shape)).integers(0, 4, shape, dtype=np.uint8)
    for head in ({}, {"y0": "-5", "width": shape[1]}):
        got, media = _answer.encode(grid, "json", head)
        assert got == json.dumps({**head, "rows": grid.tolist()}, separators=(",", ":")).encode()
        assert media == "application/json"


# -- /v1/info --------------------------------------------------------------------------------


def test_info_lists_the_region(server: Server) -> None:
    body = server.get("/v1/info").json()
    region = body["endpoints"]["/v1/region"]
    assert region["defaults"] == {"chunk": 16, **PlaneParams().as_dict()}
    names = {"chunk", "seed", "y0", "y1", "x0", "x1", "format", *PlaneParams.names()}
    assert set(region["parameters"]) == names
    assert region["chunk"] == [1, es.plane.MAX_CHUNK]
    assert region["coordinates"] == [str(-TOP), str(TOP)]
    rows = body["endpoints"]["/v1/rows"]
    assert rows["defaults"] == body["defaults"] == es.BandParams().as_dict() and "band" in rows["parameters"]
    assert body["limits"]["max_made_cells"] == 2**24 and body["formats"] == ["raw", "json", "png"]
