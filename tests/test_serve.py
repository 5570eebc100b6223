"""``eller-stream serve``: a real server on 127.0.0.1, its bytes against the
package's, every bad request a 400 with a JSON body, its headers, many
clients at once, and its command line."""

from __future__ import annotations

import concurrent.futures
import io
import signal
import socket
import threading
import time
from typing import Any

import numpy as np
import png
import pytest
from cli_support import ENV
from hypothesis import given
from hypothesis import strategies as st
from serve_support import Server, needs_serve, raw_request
from strategies import door_probabilities, probabilities, room_shares, seeds

import eller_stream as es
from eller_stream.image import image_size

pytestmark = needs_serve


def grid(answer: Any, width: int) -> np.ndarray:
    assert answer.status == 200, answer.body[:200]
    return np.frombuffer(answer.body, np.uint8).reshape(-1, width)


# -- the bytes ------------------------------------------------------------------------------


@given(
    width=st.integers(1, 60),
    band=st.integers(2, 40),
    seed=seeds,
    start=st.integers(-(2**63), 2**63 - 200),
    count=st.integers(1, 150),
    horizontal=probabilities,
    vertical=probabilities,
    doors=door_probabilities,
    loops=probabilities,
    rooms=room_shares,
)
def test_raw_rows_are_the_mazes(
    server: Server, width: int, band: int, seed: int, start: int, count: int, **knobs: float
) -> None:
    answer = server.rows(width=width, band=band, seed=seed, start=start, stop=start + count, **knobs)
    want = es.InfiniteMaze(width, band, seed, **knobs).rows(start, start + count)
    assert np.array_equal(grid(answer, width), want)
    assert answer.headers["x-start"] == str(start) and answer.headers["x-stop"] == str(start + count)


def test_the_last_rows_and_the_first(server: Server) -> None:
    maze = es.InfiniteMaze(30, 16, 2**64 - 1)
    top = server.rows(width=30, band=16, seed=2**64 - 1, start=2**63 - 20, stop=2**63)
    bottom = server.rows(width=30, band=16, seed=2**64 - 1, start=-(2**63), stop=-(2**63) + 20)
    assert np.array_equal(grid(top, 30), maze.rows(2**63 - 20, 2**63))
    assert np.array_equal(grid(bottom, 30), maze.rows(-(2**63), -(2**63) + 20))


def test_a_schedule_in_the_query(server: Server) -> None:
    frames = {0: {"loops": 0.0}, 4: {"loops": 1.0, "rooms": 0.3}}
    schedule = es.Schedule(frames)
    answer = server.rows(width=24, band=8, seed=3, start=-16, stop=64, schedule=schedule.to_json())
    assert np.array_equal(grid(answer, 24), es.InfiniteMaze(24, 8, 3, schedule=schedule).rows(-16, 64))


def test_without_band_the_eller_stream(server: Server) -> None:
    stream = es.EllerStream(17, 5, horizontal=0.3, vertical=0.8)
    want = stream.take(90)
    answer = server.rows(width=17, seed=5, start=40, stop=90, horizontal=0.3, vertical=0.8)
    assert np.array_equal(grid(answer, 17), want[40:])


def test_json_and_png(server: Server) -> None:
    maze = es.InfiniteMaze(20, 8, 9, loops=0.5)
    want = maze.rows(-5, 30)
    value = server.rows(width=20, band=8, seed=9, loops=0.5, start=-5, stop=30, format="json")
    assert value.status == 200 and value.headers["content-type"].startswith("application/json")
    body = value.json()
    assert (body["width"], body["start"], body["stop"]) == (20, "-5", "30")
    assert np.array_equal(np.array(body["rows"], np.uint8), want)
    picture = server.rows(width=20, band=8, seed=9, loops=0.5, start=-5, stop=30, format="png")
    assert picture.status == 200 and picture.headers["content-type"] == "image/png"
    expected = io.BytesIO()
    es.write_png(expected, want, cell=8, wall=2)
    assert picture.body == expected.getvalue()
    w, h, _, _ = png.Reader(bytes=picture.body).read()
    assert (w, h) == image_size(20, 35, 8, 2)


# -- the headers ----------------------------------------------------------------------------


def test_headers_cache_and_cors(server: Server) -> None:
    answer = server.rows(width=8, band=4, seed=1, start=0, stop=8)
    assert answer.headers["cache-control"] == "public, max-age=31536000, immutable"
    assert answer.headers["access-control-allow-origin"] == "*"
    etag = answer.headers["etag"]
    assert etag.startswith('"') and etag.endswith('"')
    again = server.get("/v1/rows?width=8&band=4&seed=1&start=0&stop=8", headers={"If-None-Match": etag})
    assert again.status == 304 and again.body == b"" and again.headers["etag"] == etag
    # the same rows asked for with the parameters in another order, or spelt out at their defaults
    same = server.get("/v1/rows?stop=8&start=0&seed=1&band=4&width=8")
    assert same.headers["etag"] == etag
    other = server.rows(width=8, band=4, seed=2, start=0, stop=8)
    assert other.headers["etag"] != etag
    assert server.rows(width=8, band=4, seed=1, start=0, stop=8, format="json").headers["etag"] != etag


@pytest.mark.parametrize(
    "given", ["*", "{etag}", "W/{etag}", '"other", {etag}', ' "a" ,W/{etag} ', "{etag}, *"]
)
def test_if_none_match(server: Server, given: str) -> None:
    # "*" matches any existing resource, and a list matches by its items (weakly): 200 before for "*"
    path = "/v1/rows?width=8&band=4&seed=1&start=0&stop=8"
    etag = server.get(path).headers["etag"]
    again = server.get(path, headers={"If-None-Match": given.format(etag=etag)})
    assert again.status == 304 and again.headers["etag"] == etag
    for other in ('"other"', etag[:-2] + '"', "", ","):
        assert server.get(path, headers={"If-None-Match": other}).status == 200


def test_head_and_info(server: Server) -> None:
    head = server.get("/v1/rows?width=8&band=4&seed=1&start=0&stop=8", method="HEAD")
    assert head.status == 200 and head.body == b""
    info = server.get("/v1/info")
    assert info.status == 200
    body = info.json()
    assert body["defaults"] == es.BandParams().as_dict() and body["limits"]["max_width"] >= 80
    assert body["version"] == es.__version__


# -- bad requests ---------------------------------------------------------------------------

GOOD = {"width": "8", "band": "4", "seed": "1", "start": "0", "stop": "8"}
BAD = [
    ({"width": "x"}, "width", "width must be an integer"),
    ({"width": "8.0"}, "width", "width must be an integer"),
    ({"width": "0"}, "width", "width must be in [1,"),
    ({"width": "100000"}, "width", "width must be in [1, 4096]"),
    ({"width": ""}, "width", "width must be an integer"),
    ({"width": None}, "width", "width is required"),
    ({"seed": "-1"}, "seed", "seed must be in [0,"),
    ({"seed": str(2**64)}, "seed", "seed must be in [0,"),
    ({"seed": "1e3"}, "seed", "seed must be an integer"),
    ({"seed": None}, "seed", "seed is required"),
    ({"band": "1"}, "band", "band must be in [2, 65536]"),
    ({"band": "+4"}, "band", "band must be an integer"),
    ({"start": "8"}, "stop", "stop must be greater than start"),
    ({"start": "9", "stop": "8"}, "stop", "stop must be greater than start"),
    ({"start": "5", "stop": "0"}, "stop", "stop must be greater than start"),
    ({"start": str(-(2**63) - 1)}, "start", "start must be in"),
    ({"stop": str(2**63 + 1)}, "stop", "stop must be in"),
    ({"start": "0x10"}, "start", "start must be an integer"),
    ({"stop": "99999999"}, "stop", "must be at most 1048576 cells"),
    ({"stop": "9000", "format": "png"}, "stop", "must be at most 65536 cells"),
    ({"format": "gif"}, "format", "format must be one of raw, json, png"),
    ({"colour": "red"}, "colour", "unknown parameter 'colour'"),
    ({"horizontal": "2"}, "horizontal", "horizontal must be in [0, 1]"),
    ({"horizontal": "nan"}, "horizontal", "horizontal must be a decimal number"),
    ({"vertical": "inf"}, "vertical", "vertical must be a decimal number"),
    ({"vertical": "-0.5"}, "vertical", "vertical must be a decimal number"),
    ({"doors": "0"}, "doors", "doors must be in (0, 1]"),
    ({"rooms": "1"}, "rooms", "rooms must be in [0, 1)"),
    ({"loops": "0.5.5"}, "loops", "loops must be a decimal number"),
    ({"schedule": "{"}, "schedule", "schedule: not a schedule's JSON"),
    ({"schedule": '{"x": {}}'}, "schedule", "schedule"),
    ({"schedule": '{"0": {"loops": 7}}'}, "schedule", "loops must be in [0, 1]"),
    ({"band": None, "loops": "0.5"}, "loops", "loops needs band"),
    ({"band": None, "start": "-1"}, "start", "start must be in [0,"),
    ({"band": None, "start": "2099990", "stop": "2100000"}, "stop", "replays its rows from 0"),
    # more digits than Python turns into an int (4,300): a 500 before
    *(({name: "1" * 5000}, name, f"{name} must be in") for name in ("width", "band", "seed", "start")),
    ({"stop": "-" + "9" * 5000}, "stop", "stop must be in"),
    ({"schedule": "[" * 5000}, "schedule", "schedule"),  # RecursionError: a 500 before
]


def query_of(change: dict[str, str | None]) -> str:
    from urllib.parse import urlencode

    merged = {**GOOD, **change}
    return urlencode({k: v for k, v in merged.items() if v is not None})


@pytest.mark.parametrize(("change", "parameter", "message"), BAD)
def test_a_bad_request_is_a_400_naming_the_parameter(
    server: Server, change: dict[str, str | None], parameter: str, message: str
) -> None:
    answer = server.get("/v1/rows?" + query_of(change))
    assert answer.status == 400, answer.body
    assert answer.headers["content-type"].startswith("application/json")
    assert (
        answer.headers["access-control-allow-origin"] == "*" and answer.headers["cache-control"] == "no-store"
    )
    body = answer.json()
    assert body["parameter"] == parameter and message in body["error"], body
    assert body["status"] == 400


@pytest.mark.parametrize(
    "path",
    [
        "/v1/rows?width=8&width=9&band=4&seed=1&start=0&stop=8",
        "/v1/rows?" + "&".join(f"a{i}=1" for i in range(40)),
        "/v1/rows?%ff=1",
        "/v1/rows?width=%00",
        "/v1/info?x=1",
    ],
)
def test_other_bad_queries(server: Server, path: str) -> None:
    answer = server.get(path)
    assert answer.status == 400 and "error" in answer.json()


def test_what_the_http_parser_refuses_is_the_apis_json(server: Server) -> None:
    # uvicorn answered these in plain text ("Invalid HTTP request received.")
    long = server.raw(b"GET /v1/rows?width=8&x=" + b"a" * 70_000 + b" HTTP/1.1\r\nHost: x\r\n\r\n")
    assert long.status == 414 and long.headers["content-type"] == "application/json", long
    assert long.json() == {"error": "the URL is longer than 65535 bytes", "parameter": None, "status": 414}
    assert long.headers["access-control-allow-origin"] == "*"
    broken = server.raw(b"GET / HTTP/1.1\r\nHost: x\r\nContent-Length: x\r\n\r\n")
    assert broken.status == 400 and broken.json()["error"].startswith("not a valid HTTP request")
    assert server.get("/v1/info").status == 200  # and it serves on


@pytest.mark.parametrize("http", ["httptools", "h11"])
def test_both_protocols_answer_a_bad_request_with_json(http: str) -> None:
    import uvicorn

    from eller_stream.serve._protocol import protocol
    from eller_stream.serve.app import app

    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen()
    port = sock.getsockname()[1]
    config = uvicorn.Config(app, http=protocol(http), log_level="critical", lifespan="off")
    uv = uvicorn.Server(config)
    thread = threading.Thread(target=uv.run, kwargs={"sockets": [sock]})
    thread.start()
    try:
        while not uv.started:
            time.sleep(0.01)
        ok = raw_request("127.0.0.1", port, b"GET /v1/info HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        assert ok.status == 200 and ok.json()["version"] == es.__version__
        bad = raw_request("127.0.0.1", port, b"GET /v1/info HTTP/1.1\r\nHost: x\r\nContent-Length: x\r\n\r\n")
        assert bad.status == 400 and bad.headers["content-type"] == "application/json"
        assert bad.json()["status"] == 400 and "not a valid HTTP request" in bad.json()["error"]
        assert bad.headers["access-control-allow-origin"] == "*" and bad.headers["connection"] == "close"
    finally:
        uv.should_exit = True
        thread.join()
        sock.close()


def test_unknown_paths_and_methods(server: Server) -> None:
    missing = server.get("/v2/rows")
    assert missing.status == 404 and missing.json()["error"].startswith("no such path")
    post = server.get("/v1/rows", method="POST")
    assert post.status == 405 and "error" in post.json()


@given(
    st.dictionaries(
        st.sampled_from([*GOOD, "format", "loops", "rooms", "doors", "schedule", "q"]),
        st.text(max_size=30),
        max_size=8,
    )
)
def test_any_query_is_a_200_or_a_400(server: Server, query: dict[str, str]) -> None:
    from urllib.parse import urlencode

    answer = server.get("/v1/rows?" + urlencode({**GOOD, **query}))
    assert answer.status in (200, 400), answer.body
    if answer.status == 400:
        assert answer.json()["parameter"] in (*GOOD, *query, "format")


# -- what a request makes -------------------------------------------------------------------

# 4,096 cells of answer that make the 4096 x 4096 band (loops, rooms): the most one request may make
HEAVY = {"width": 4096, "band": 4096, "seed": 3, "start": 4095, "stop": 4096, "loops": 1, "rooms": 0.9}


def test_a_request_is_judged_by_the_cells_it_makes(server: Server) -> None:
    # one row that makes (or replays) the 65536 x 4096 band: 2 to 19 s on the event loop before
    for knobs in ({"loops": 1, "rooms": 0.9}, {}):
        began = time.perf_counter()
        answer = server.rows(width=4096, band=65536, seed=3, start=65535, stop=65536, **knobs)
        assert time.perf_counter() - began < 1.0
        assert answer.status == 400, answer.body[:200]
        body = answer.json()
        assert body["parameter"] == "band" and (body["cells"], body["limit"]) == (2**28, 2**24), body
        assert "makes 268435456 cells" in body["error"] and "at most 16777216" in body["error"]
    assert server.get("/v1/info").json()["limits"]["max_made_cells"] == 2**24
    # its first row replays nothing, and a band the limit allows is made
    first = server.rows(width=4096, band=65536, seed=3, start=0, stop=1)
    assert first.body == es.InfiniteMaze(4096, 65536, 3).rows(0, 1).tobytes()


def test_info_answers_while_heavy_requests_are_in_flight(server: Server) -> None:
    # a request that makes many cells runs in a worker thread: the event loop answers the others
    want = es.InfiniteMaze(4096, 4096, 3, loops=1, rooms=0.9).rows(4095, 4096)
    assert server.rows(**HEAVY).body == want.tobytes()
    alone, waits = server.info_waits_while(lambda: server.rows(**HEAVY))
    assert sorted(waits)[len(waits) // 2] < alone / 4, (alone, waits)


def test_info_answers_while_pictures_of_few_cells_are_drawn(server: Server) -> None:
    """A PNG of 65536 rows of one cell (the most cells a picture may have)
    makes few cells but 655,362 rows of 12 pixels: answered on the event
    loop, every other request waited for it (3.3 s when its pixel rows were
    drawn one at a time; 0.3 s in blocks)."""
    picture = {"width": 1, "band": 2, "seed": 1, "start": 0, "stop": 65536, "format": "png"}
    alone, waits = server.info_waits_while(lambda: server.rows(**picture))
    assert sorted(waits)[len(waits) // 2] < max(alone / 4, 0.05), (alone, waits)


# -- many clients ---------------------------------------------------------------------------


def test_sixteen_threads_at_once(server: Server) -> None:
    failures: list[str] = []

    def client(k: int) -> None:
        rng = np.random.default_rng(k)
        for _ in range(12):
            width, band = int(rng.integers(1, 90)), int(rng.integers(2, 40))
            start = int(rng.integers(-(10**12), 10**12))
            count = int(rng.integers(1, 200))
            loops = float(rng.choice([0.0, 0.5]))
            answer = server.rows(width=width, band=band, seed=k, start=start, stop=start + count, loops=loops)
            want = es.InfiniteMaze(width, band, k, loops=loops).rows(start, start + count)
            if answer.status != 200 or answer.body != want.tobytes():
                failures.append(f"client {k}: {width} {band} {start} {count}: {answer.status}")

    threads = [threading.Thread(target=client, args=(k,)) for k in range(16)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert failures == []


# -- the command line -----------------------------------------------------------------------


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_stops_it_cleanly(signum: int) -> None:
    s = Server()
    assert s.rows(width=4, band=2, seed=1, start=0, stop=2).status == 200
    code, err = s.stop(signum)
    assert code == 128 + signum and "Traceback" not in err, err


def _stop_while_a_client_reads_nothing(after: float, grace: int) -> tuple[int, str, float]:
    """A server (``--grace``), a client that asks for 4 MB and reads none of
    it, SIGTERM ``after`` seconds later: (exit status, stderr, seconds the
    stop took)."""
    s = Server("--grace", str(grace))
    s.wait_warm()  # numba makes it in about a second (the lean twins took 10 s, whatever `after`)
    with socket.create_connection((s.host, s.port)) as stalled:
        stalled.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        query = "seed=1&chunk=1&y0=0&y1=1048576&x0=0&x1=1&format=json"
        stalled.sendall(f"GET /v1/region?{query} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
        time.sleep(after)
        began = time.perf_counter()
        code, err = s.stop(signal.SIGTERM)
        return code, err, time.perf_counter() - began


@pytest.mark.long
def test_sigterm_stops_it_while_a_client_reads_nothing() -> None:
    """A client that asked for 4 MB and read none of it kept the server
    waiting for ever after SIGTERM (and after a second one), refusing new
    connections (an attacker's): the shutdown now gives up on it, and says
    so in one line (not uvicorn's traceback of the answer it cancelled).
    The answer still being made (0.3 s), and made and stuck in the socket
    (2.0 s): two servers side by side, each waiting out its ``--grace``."""
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        stops = list(pool.map(_stop_while_a_client_reads_nothing, [0.3, 2.0], [1, 2]))
    for (code, err, took), grace in zip(stops, [1, 2], strict=True):
        assert grace <= took < grace + 10
        assert code == 128 + signal.SIGTERM, err
        assert err == f"eller-stream: stopping: answers still being sent after {grace} s were cut short\n"


def test_the_grace_of_a_stop_is_5_s_unless_told(run_cli: Any) -> None:
    from eller_stream.cli import serve

    assert serve.parser().parse_args([]).grace == serve.SHUTDOWN_GRACE == 5
    assert serve.parser().parse_args(["--grace", "0"]).grace == 0
    done = run_cli("serve", "--grace", "3601", check=False)
    assert (
        done.returncode == 2
        and done.stderr == "eller-stream: error: --grace: grace must be in [0, 3600], got 3601\n"
    )


def test_a_request_the_parser_refuses_leaves_stderr_alone() -> None:
    """Each got its JSON 400, and uvicorn also wrote "WARNING: Invalid HTTP
    request received." on the server's stderr, where the command promises
    one line (an attacker's)."""
    s = Server()
    for _ in range(3):
        assert s.raw(b"GET / HTTP/1.1\r\nHost: x\r\nContent-Length: x\r\n\r\n").status == 400
    code, err = s.stop(signal.SIGTERM)
    assert code == 128 + signal.SIGTERM and err == "", err


def test_a_port_in_use_is_one_line(run_cli: Any) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = run_cli("serve", "--port", str(port), check=False)
    assert done.returncode == 2
    assert done.stderr.startswith(f"eller-stream: error: cannot listen on 127.0.0.1:{port}: ")
    assert len(done.stderr.splitlines()) == 1


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--port", "70000"], "--port: port must be in [0, 65535]"),
        (["--host", "no.such.host.invalid"], "cannot listen"),
    ],
)
def test_bad_options_are_one_line(run_cli: Any, args: list[str], message: str) -> None:
    done = run_cli("serve", *args, check=False)
    assert done.returncode == 2 and message in done.stderr and len(done.stderr.splitlines()) == 1


def test_without_the_extra_it_says_what_to_install(monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    import importlib.util

    from eller_stream import cli

    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "uvicorn" else real(name, *a)
    )
    assert cli.main(["serve"]) == 2
    assert (
        capsys.readouterr().err
        == "eller-stream: error: serve needs uvicorn: pip install starlette uvicorn httptools"
        " (the [serve] extra: pip install '.[serve]' in a clone)\n"
    )


def test_accepted_connections_have_tcp_nodelay() -> None:
    # A listening socket of protocol 0 made asyncio leave TCP_NODELAY off, and each
    # response (headers, then body) waited 40 ms for the client's delayed ACK.
    import asyncio

    from eller_stream.cli.serve import _listen

    sock = _listen("127.0.0.1", 0)
    port = sock.getsockname()[1]
    seen: list[int] = []

    async def main() -> None:
        def connected(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            seen.append(writer.get_extra_info("socket").getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))
            writer.close()

        server = await asyncio.start_server(connected, sock=sock)
        _, writer = await asyncio.open_connection("127.0.0.1", port)
        for _ in range(100):
            if seen:
                break
            await asyncio.sleep(0.01)
        writer.close()
        server.close()

    asyncio.run(main())
    assert seen == [1]


def test_the_warm_up_leaves_the_kernels_ready() -> None:
    # the first requests are served by the compiled kernels, not by their lean twins
    from eller_stream import _engine as engine
    from eller_stream import plane
    from eller_stream.serve.app import WARM, info, warm

    WARM.clear()  # as in a new server
    assert info()["warm"] is False
    warm()
    assert info()["warm"] is True  # /v1/info says so
    kernels = (engine.eller_rows, engine.band_stream_rows, engine.bands_rows, engine.bands_stream_rows)
    assert not any(engine.cold(k) for k in (*kernels, plane._region_kernel))  # the plane's too (/v1/region)


@pytest.mark.slow
def test_on_an_empty_numba_cache_the_server_answers_while_numba_compiles(tmp_path) -> None:
    """The server waited for every kernel's compile before it listened: 33.5 s
    to a first answer on an empty numba cache (issue 35). It listens at once,
    and the lean twins answer small requests, byte for byte, while numba still
    fills its cache; so do larger ones (waiting for the kernel took 35 s)."""
    cache = tmp_path / "numba-cache"
    server = Server(env={**ENV, "NUMBA_CACHE_DIR": str(cache)})
    try:
        small = "/v1/rows?width=80&band=32&seed=7&start=-5&stop=60"
        first = server.get(small)
        assert server.get("/v1/info").json()["warm"] is False  # numba is compiling
        cached_then = len(list(cache.rglob("*.nbi")))
        assert first.status == 200
        assert first.body == es.InfiniteMaze(80, band=32, seed=7).rows(-5, 60).tobytes()
        start = time.monotonic()
        big = server.get("/v1/rows?width=80&band=32&seed=7&start=0&stop=2048&loops=0.5")
        took = time.monotonic() - start
        assert big.body == es.InfiniteMaze(80, band=32, seed=7, loops=0.5).rows(0, 2048).tobytes()
        region = server.get("/v1/region?chunk=16&seed=7&y0=0&y1=1024&x0=-512&x1=512")
        assert region.body == es.Plane(16, 7).region(0, 1024, -512, 512).tobytes()
        deadline = time.monotonic() + 300
        while len(list(cache.rglob("*.nbi"))) <= cached_then and time.monotonic() < deadline:
            time.sleep(0.5)  # numba goes on filling its cache after the answers
        assert cached_then < len(list(cache.rglob("*.nbi")))  # the first answer did not wait for them
        assert took < 20, f"a 163,840-cell request took {took:.1f} s: it waited for numba's compile"
    finally:
        server.stop()
