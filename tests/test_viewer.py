"""The viewer in a real browser: Debian's chromium and chromium-driver under
selenium, against a real ``eller-stream serve``. The canvas's pixels are read
back and checked against the rows the package gives; it scrolls down and back
up, jumps to row 10**12, draws the way down from a clicked cell, keeps the
view in the URL, and logs no error. The JavaScript module runs in the page
against the server's bytes."""

from __future__ import annotations

import itertools
import re
import time
from typing import Any

import numpy as np
import pytest
from browser_support import (
    By,
    Keys,
    needs_browser,
    no_errors,
    pixels,
    state,
    wait_for,
    webdriver,
)
from serve_support import Server

import eller_stream as es

from naive import EAST, SOUTH, neighbours

pytestmark = needs_browser
WIDTH, BAND, SEED = 24, 8, 7
WALL = (0x1D, 0x24, 0x30)
BACKGROUND = (0xF3, 0xF1, 0xEA)
TOP = 2**63


def settled(browser: Any) -> dict[str, Any]:
    """The state once every band the view shows is loaded and drawn."""

    def ready() -> bool:
        s = state(browser)
        top, k = int(s["top"]), s["band"]
        first, last = max(top - 1, -TOP) // k, min(top + s["rowsShown"], TOP - 1) // k
        needed = {str(b) for b in range(first, last + 1)}
        return s["fetching"] == 0 and needed <= set(s["loaded"])

    wait_for(ready, "the bands in view")
    time.sleep(0.1)  # one more frame
    return state(browser)


def check_walls(browser: Any) -> int:
    """Every fully visible cell's east and south walls: dark on the canvas
    exactly where the package's rows have the wall closed (the rows past the
    maze's end: not drawn). Returns the cells checked."""
    s = settled(browser)
    img = pixels(browser)
    top, c, left, offset = int(s["top"]), s["cell"], s["left"], s["offset"]
    shown = (img.shape[0] + offset) // c - 2
    if top + shown + 1 > TOP:  # the maze ends: below its last row, the page's background
        shown = TOP - top - 1
        below = img[(shown + 1) * c - offset + 2 :, left + 2 : left + WIDTH * c - 2]
        assert below.size and (below == BACKGROUND).all()
    rows = es.InfiniteMaze(WIDTH, s["band"], SEED).rows(top, top + shown + 1)
    dark = np.all(np.abs(img.astype(int) - WALL) < 8, axis=2)
    checked = 0
    for i in range(1, shown):
        y = i * c - offset
        for x in range(WIDTH):
            x0 = left + x * c
            if x < WIDTH - 1:
                assert dark[y + c // 2, x0 + c - 1] == (not rows[i, x] & EAST), (top + i, x, "east")
            assert dark[y + c - 1, x0 + c // 2] == (not rows[i, x] & SOUTH), (top + i, x, "south")
            assert not dark[y + c // 2, x0 + c // 2], (top + i, x, "floor")
            checked += 1
    return checked


def open_viewer(browser: Any, server: Server, row: str = "0", band: int = BAND) -> None:
    browser.get(f"http://{server.address}/?width={WIDTH}&band={band}&seed={SEED}&row={row}")
    wait_for(lambda: browser.execute_script("return !!window.ellerViewer"), "the viewer's script")


def test_the_canvas_shows_the_rows(browser: Any, server: Server) -> None:
    open_viewer(browser, server, "-5")
    assert state(browser)["top"] == "-5"
    assert check_walls(browser) > 10 * WIDTH
    no_errors(browser)


def test_it_scrolls_down_and_back_up(browser: Any, server: Server) -> None:
    open_viewer(browser, server, "100")
    body = browser.find_element(By.TAG_NAME, "body")
    for _ in range(3):
        body.send_keys(Keys.PAGE_DOWN)
    down = settled(browser)
    assert int(down["top"]) > 100 + 2 * BAND
    browser.execute_script("window.ellerViewer.jump(window.ellerViewer.state().top)")
    browser.execute_script("window.ellerViewer.scrollBy(-7 * window.ellerViewer.state().cell - 5)")
    assert settled(browser)["offset"] == down["cell"] - 5  # a row cut at the top
    check_walls(browser)
    for _ in range(6):
        body.send_keys(Keys.PAGE_UP)
    up = settled(browser)
    assert int(up["top"]) < 100
    check_walls(browser)
    wait_for(lambda: f"row={up['top']}" in browser.current_url, "the row in the URL")
    assert f"width={WIDTH}" in browser.current_url and f"seed={SEED}" in browser.current_url
    no_errors(browser)


def test_it_jumps_to_row_ten_to_the_twelve(browser: Any, server: Server) -> None:
    open_viewer(browser, server)
    field = browser.find_element(By.ID, "row")
    field.clear()
    field.send_keys("10**12", Keys.ENTER)
    wait_for(lambda: state(browser)["top"] == str(10**12), "the jump")
    check_walls(browser)
    field = browser.find_element(By.ID, "row")
    field.clear()
    field.send_keys("-2**62", Keys.ENTER)
    wait_for(lambda: state(browser)["top"] == str(-(2**62)), "the jump")
    check_walls(browser)
    no_errors(browser)


def test_a_click_draws_the_way_to_the_next_band(browser: Any, server: Server) -> None:
    open_viewer(browser, server, "3")
    s = settled(browser)
    canvas = browser.find_element(By.ID, "maze")
    c = s["cell"]
    # the cell at row 5 (band 0), column 10; the offset is from the canvas's centre
    dx = s["left"] + 10 * c + c // 2 - canvas.size["width"] // 2
    dy = 2 * c + c // 2 - canvas.size["height"] // 2
    webdriver.ActionChains(browser).move_to_element_with_offset(canvas, dx, dy).click().perform()
    wait_for(lambda: len(state(browser)["path"]) > 0, "the way drawn")
    path = [(int(r), x) for r, x in state(browser)["path"]]
    assert path[0] == (5, 10) and path[-1][0] == BAND and all(0 <= r < BAND for r, _ in path[:-1])
    grid = es.InfiniteMaze(WIDTH, BAND, SEED).rows(0, BAND + 1)
    for a, b in itertools.pairwise(path):
        assert b in neighbours(grid, *a), (a, b)
    no_errors(browser)


def test_the_javascript_module_in_the_page_gives_the_servers_bytes(browser: Any, server: Server) -> None:
    open_viewer(browser, server)
    same = browser.execute_async_script(
        """
        const done = arguments[arguments.length - 1];
        const { rows } = await import("/eller_stream.mjs");
        const cases = [
          [{ width: 80, band: 32, seed: "7" }, -5n, 60n],
          [{ width: 31, band: 5, seed: "18446744073709551615", loops: 0.5, rooms: 0.3 },
           10n ** 12n, 10n ** 12n + 40n],
          [{ width: 9, seed: "3" }, 0n, 50n],
        ];
        const out = [];
        for (const [params, start, stop] of cases) {
          const q = new URLSearchParams({ ...params, start, stop });
          const api = new Uint8Array(await (await fetch("/v1/rows?" + q)).arrayBuffer());
          const mine = rows(params, start, stop);
          out.push(api.length === mine.length && api.length > 0 && api.every((v, i) => v === mine[i]));
        }
        done(out);
        """
    )
    assert same == [True, True, True]
    no_errors(browser)


def go_to(browser: Any, text: str) -> None:
    field = browser.find_element(By.ID, "row")
    field.clear()
    field.send_keys(text, Keys.ENTER)


def shown_text(browser: Any, element: str) -> str:
    text: str = browser.find_element(By.ID, element).text
    return text


def test_the_row_and_seed_boxes_show_twenty_digits(browser: Any, server: Server) -> None:
    open_viewer(browser, server)
    for box, text in (("row", str(-(2**63))), ("seed", str(2**64 - 1))):
        field = browser.find_element(By.ID, box)
        field.clear()
        field.send_keys(text)
        inner, whole = browser.execute_script(
            "const f = document.getElementById(arguments[0]); return [f.clientWidth, f.scrollWidth];", box
        )
        assert whole <= inner, (box, inner, whole)  # nothing cut off


@pytest.mark.parametrize("band", [BAND, 7])  # 7 does not divide 2**63: the end bands are cut
def test_it_goes_to_any_row_the_api_has(browser: Any, server: Server, band: int) -> None:
    open_viewer(browser, server, band=band)
    for text, row in (("2**63 - 5", TOP - 5), ("9223372036854775807", TOP - 1), ("-2**63", -TOP)):
        go_to(browser, text)
        wait_for(lambda row=row: state(browser)["top"] == str(row), f"the jump to {text}")
        assert check_walls(browser) >= WIDTH * (0 if row == TOP - 1 else 3)
        rows = [int(n) for n in re.findall(r"-?[0-9]+", shown_text(browser, "where"))[:2]]
        assert rows[0] == row and rows[0] <= rows[1] <= TOP - 1  # the status names rows that exist
        assert shown_text(browser, "message") == ""
    s, img = state(browser), pixels(browser)
    top_edge = img[0, [s["left"] + x * s["cell"] + s["cell"] // 2 for x in range(WIDTH)]]
    assert np.all(np.abs(top_edge.astype(int) - WALL) < 8)  # row -2**63 has a wall above it
    no_errors(browser)


def test_a_row_past_either_end_is_refused_with_a_message(browser: Any, server: Server) -> None:
    open_viewer(browser, server, "40")
    settled(browser)
    for text, words in (("10**30", "past the maze's last row"), ("-2**63 - 1", "above the maze's first row")):
        go_to(browser, text)
        wait_for(lambda: shown_text(browser, "message") != "", "the message")
        assert words in shown_text(browser, "message")
        assert state(browser)["top"] == "40"  # not moved, not clamped
    go_to(browser, "twelve")
    wait_for(lambda: "an integer" in shown_text(browser, "message"), "the message")
    go_to(browser, "48")
    wait_for(lambda: state(browser)["top"] == "48", "the jump")
    assert shown_text(browser, "message") == ""
    open_viewer(browser, server, "10**30")  # the same from the address
    wait_for(lambda: "past the maze's last row" in shown_text(browser, "message"), "the message")
    assert state(browser)["top"] == "0"
    no_errors(browser)


def test_the_top_bands_label_is_inside_the_canvas(browser: Any, server: Server) -> None:
    open_viewer(browser, server, "16")  # band 2's first row at the top
    s = settled(browser)
    margin = pixels(browser)[: s["cell"], : s["left"] - 16]
    ink = np.any(np.abs(margin.astype(int) - BACKGROUND) > 40, axis=2)
    assert ink.sum() > 10  # the label "16" is drawn
    assert not ink[0].any()  # and not cut by the canvas's top edge


def test_no_way_down_from_the_last_band(browser: Any, server: Server) -> None:
    open_viewer(browser, server, str(TOP - BAND))
    s = settled(browser)
    canvas = browser.find_element(By.ID, "maze")
    c = s["cell"]
    dx = s["left"] + 3 * c + c // 2 - canvas.size["width"] // 2
    dy = 2 * c + c // 2 - canvas.size["height"] // 2
    webdriver.ActionChains(browser).move_to_element_with_offset(canvas, dx, dy).click().perform()
    time.sleep(0.3)
    assert state(browser)["path"] == []  # no band below it, no row 2**63
    no_errors(browser)
