"""The viewer's plane mode in a real browser (browser_support.py): the
canvas's pixels read back and checked against ``Plane.region`` (and the
tiles it holds against the server's bytes); it pans both ways by keys and
by dragging, jumps to far cells typed as sums of powers, refuses a cell past
the plane's ends with a message, marks the chunks' borders when asked,
keeps the view in the URL, and the banded mode is one choice away."""

from __future__ import annotations

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

from naive import EAST, SOUTH

pytestmark = needs_browser
CHUNK, SEED = 8, 7
TOP = 2**62
WALL = (0x1D, 0x24, 0x30)
FLOOR = (0xFD, 0xFD, 0xF8)
BORDER = (0x7F, 0xA7, 0xD6)


def shows(browser: Any, mode: str) -> bool:
    """Whether the viewer is up, in ``mode``."""
    return bool(browser.execute_script("return window.ellerViewer?.state().mode === arguments[0]", mode))


def open_plane(browser: Any, server: Server, extra: str = "y=-5&x=-7") -> None:
    browser.get(f"http://{server.address}/?mode=plane&chunk={CHUNK}&seed={SEED}&{extra}")
    wait_for(lambda: shows(browser, "plane"), "the plane")


def settled(browser: Any) -> dict[str, Any]:
    """The state once every tile of the cells drawn is loaded and drawn."""

    def ready() -> bool:
        s = state(browser)
        t = s["tile"]

        def tiles(first: int, count: int) -> range:
            return range(max(first - 1, -TOP) // t, min(first + count, TOP - 1) // t + 1)

        needed = {
            f"{ty},{tx}" for ty in tiles(int(s["y"]), s["rows"]) for tx in tiles(int(s["x"]), s["cols"])
        }
        return s["fetching"] == 0 and needed <= set(s["loaded"])

    wait_for(ready, "the tiles in view")
    browser.execute_script("return new Promise((done) => requestAnimationFrame(() => done()))")
    return state(browser)


def near(colours: np.ndarray, colour: tuple[int, int, int]) -> np.ndarray:
    return np.all(np.abs(colours.astype(int) - colour) < 8, axis=-1)


def check_cells(browser: Any, borders: bool = False) -> int:
    """Every fully visible cell's east and south walls: dark on the canvas
    exactly where ``Plane.region`` has them closed (the plane's last row and
    column: closed, its edge), its floor not; with ``borders`` an open
    passage across a chunk's border in the border's colour, without it the
    floor's. Returns the cells checked."""
    s = settled(browser)
    img = pixels(browser)
    y, x, oy, ox, c = int(s["y"]), int(s["x"]), s["oy"], s["ox"], s["cell"]
    h = min((img.shape[0] + oy) // c - 1, TOP - y)  # rows whose cells are whole (and the plane has)
    w = min((img.shape[1] + ox) // c - 1, TOP - x)
    grid = es.Plane(CHUNK, SEED).region(y, y + h, x, x + w)
    dark = near(img, WALL)
    checked = 0
    for i in range(1, h):
        py = i * c - oy
        for j in range(1, w):
            px = j * c - ox
            cell = grid[i, j]
            east_closed = not cell & EAST or x + j == TOP - 1
            south_closed = not cell & SOUTH or y + i == TOP - 1
            assert dark[py + c // 2, px + c - 1] == east_closed, (y + i, x + j, "east")
            assert dark[py + c - 1, px + c // 2] == south_closed, (y + i, x + j, "south")
            assert near(img[py + c // 2, px + c // 2], FLOOR), (y + i, x + j, "floor")
            if not east_closed and (x + j + 1) % CHUNK == 0:  # an open passage across a chunk's border
                assert near(img[py + c // 2, px + c - 1], BORDER if borders else FLOOR), (y + i, x + j)
            checked += 1
    assert s["message"] == ""
    return checked


def check_tiles(browser: Any) -> None:
    """The tiles the viewer holds are the server's bytes: ``Plane.region`` of each."""
    s = state(browser)
    t, plane = s["tile"], es.Plane(CHUNK, SEED)
    for key in s["loaded"][:6]:
        ty, tx = map(int, key.split(","))
        held = tile(browser, ty, tx)
        want = plane.region(ty * t, ty * t + t, tx * t, tx * t + t)
        assert np.array_equal(np.array(held, np.uint8).reshape(t, t), want), key


def tile(browser: Any, ty: int, tx: int) -> list[int] | None:
    """The flags of tile (ty, tx) the viewer holds (None: not loaded)."""
    script = "return window.ellerViewer.tile(arguments[0], arguments[1])"
    held: list[int] | None = browser.execute_script(script, str(ty), str(tx))
    return held


def drag(browser: Any, dx: int, dy: int) -> None:
    """Press on the canvas's middle, move by (dx, dy) pixels and let go."""
    canvas = browser.find_element(By.ID, "maze")
    webdriver.ActionChains(browser).move_to_element(canvas).click_and_hold().move_by_offset(
        dx, dy
    ).release().perform()


def go_to(browser: Any, y: str, x: str) -> None:
    for name, text in (("y", y), ("x", x)):
        field = browser.find_element(By.ID, name)
        field.clear()
        field.send_keys(text)
    field.send_keys(Keys.ENTER)


def test_the_canvas_shows_the_plane(browser: Any, server: Server) -> None:
    open_plane(browser, server)
    s = state(browser)
    assert (s["y"], s["x"], s["chunk"], s["seed"]) == ("-5", "-7", CHUNK, str(SEED))
    assert check_cells(browser) > 1000
    check_tiles(browser)
    no_errors(browser)


def test_it_pans_both_ways_by_keys_and_by_dragging(browser: Any, server: Server) -> None:
    open_plane(browser, server)
    settled(browser)
    body = browser.find_element(By.TAG_NAME, "body")
    for key in (Keys.ARROW_RIGHT, Keys.ARROW_RIGHT, Keys.ARROW_RIGHT, Keys.ARROW_DOWN, Keys.ARROW_DOWN):
        body.send_keys(key)
    wait_for(lambda: (state(browser)["y"], state(browser)["x"]) == ("-3", "-4"), "the keys' moves")
    for key in (Keys.ARROW_LEFT, Keys.ARROW_UP, Keys.ARROW_UP, Keys.ARROW_UP):
        body.send_keys(key)
    wait_for(lambda: (state(browser)["y"], state(browser)["x"]) == ("-6", "-5"), "the keys' moves back")
    check_cells(browser)
    canvas = browser.find_element(By.ID, "maze")
    c = state(browser)["cell"]
    # dragged up and left by 50 and 29 pixels: the plane moves with the pointer, the view down and right
    webdriver.ActionChains(browser).move_to_element(canvas).click_and_hold().move_by_offset(
        -50, -29
    ).release().perform()
    s = settled(browser)
    assert int(s["x"]) * c + s["ox"] == -5 * c + 50 and int(s["y"]) * c + s["oy"] == -6 * c + 29
    assert s["ox"] and s["oy"]  # cells cut at the left and top edges
    check_cells(browser)
    webdriver.ActionChains(browser).move_to_element(canvas).click_and_hold().move_by_offset(
        50, 29
    ).release().perform()
    s = settled(browser)
    assert (s["y"], s["x"], s["oy"], s["ox"]) == ("-6", "-5", 0, 0)
    for _ in range(3):
        body.send_keys(Keys.PAGE_DOWN)
    assert int(settled(browser)["y"]) > 100
    check_cells(browser)
    no_errors(browser)


@pytest.mark.parametrize(
    ("y", "x", "want"),
    [
        ("10**12", "-10**15 + 3", (10**12, -(10**15) + 3)),
        ("2**62 - 20", "-2**62", (TOP - 20, -TOP)),
        ("-2**62", "2**62 - 30", (-TOP, TOP - 30)),
        ("4611686018427387903", "4611686018427387903", (TOP - 1, TOP - 1)),
    ],
)
def test_it_jumps_to_far_cells(browser: Any, server: Server, y: str, x: str, want: tuple[int, int]) -> None:
    open_plane(browser, server)
    settled(browser)
    go_to(browser, y, x)
    wait_for(lambda: (int(state(browser)["y"]), int(state(browser)["x"])) == want, f"the jump to {y}, {x}")
    assert check_cells(browser) >= (0 if TOP - 1 in want else 1000)
    check_tiles(browser)
    s, img = settled(browser), pixels(browser)
    c = s["cell"]
    if want[0] == -TOP:  # the plane's first row has a wall above it
        assert near(img[0, [j * c + c // 2 for j in range(20)]], WALL).all()
    if want[1] == -TOP:  # and its first column one to its left
        assert near(img[[i * c + c // 2 for i in range(20)], 0], WALL).all()
    if want == (TOP - 1, TOP - 1):  # one cell, its east and south walls the plane's edge; past it nothing
        assert near(img[c // 2, c - 1], WALL) and near(img[c - 1, c // 2], WALL)
        assert near(img[2 * c :, 2 * c :], (0xF3, 0xF1, 0xEA)).all()
    wait_for(lambda: f"y={want[0]}&x={want[1]}" in browser.current_url, "the cell in the URL")
    no_errors(browser)


def test_a_cell_past_the_planes_ends_is_refused_with_a_message(browser: Any, server: Server) -> None:
    open_plane(browser, server)
    settled(browser)
    for y, x, words in (
        ("2**62", "0", "y 4611686018427387904 is past the plane's last row"),
        ("0", "-2**62 - 1", "before the plane's first column"),
        ("0", "2**5000", "far past the plane's ends"),
        ("twelve", "0", "y: an integer"),
    ):
        go_to(browser, y, x)
        wait_for(lambda: state(browser)["message"] != "", "the message")
        assert words in state(browser)["message"], state(browser)["message"]
        assert (state(browser)["y"], state(browser)["x"]) == ("-5", "-7")  # not moved, not clamped
    go_to(browser, "40", "41")
    wait_for(lambda: (state(browser)["y"], state(browser)["x"]) == ("40", "41"), "the jump")
    assert state(browser)["message"] == ""
    open_plane(browser, server, "y=2**63&x=3")  # the same from the address
    wait_for(lambda: "past the plane's last row" in state(browser)["message"], "the message")
    assert (state(browser)["y"], state(browser)["x"]) == ("0", "3")
    no_errors(browser)


def test_the_chunks_borders_are_marked_when_asked(browser: Any, server: Server) -> None:
    open_plane(browser, server, "y=3&x=-9")
    check_cells(browser, borders=False)
    browser.find_element(By.ID, "borders").click()
    wait_for(lambda: state(browser)["borders"], "the borders on")
    check_cells(browser, borders=True)
    wait_for(lambda: "borders=1" in browser.current_url, "the borders in the URL")
    browser.get(browser.current_url)  # a link shows the same view
    wait_for(lambda: shows(browser, "plane") and state(browser)["borders"], "the link")
    assert (state(browser)["y"], state(browser)["x"]) == ("3", "-9")
    check_cells(browser, borders=True)
    browser.find_element(By.TAG_NAME, "body").send_keys("b")
    wait_for(lambda: not state(browser)["borders"], "the borders off")
    check_cells(browser, borders=False)
    no_errors(browser)


def test_another_plane_from_the_controls(browser: Any, server: Server) -> None:
    open_plane(browser, server)
    settled(browser)
    from selenium.webdriver.support.ui import Select

    Select(browser.find_element(By.ID, "perfect")).select_by_value("false")
    go_to(browser, "100", "-100")
    wait_for(lambda: "perfect=false" in browser.current_url, "the new plane's address")
    wait_for(lambda: shows(browser, "plane") and state(browser)["y"] == "100", "the new plane")
    s = settled(browser)
    t = s["tile"]
    held = tile(browser, 1, -2)
    want = es.Plane(CHUNK, SEED, perfect=False).region(t, 2 * t, -2 * t, -t)
    assert np.array_equal(np.array(held, np.uint8).reshape(t, t), want)
    no_errors(browser)


def test_the_mode_box_goes_to_the_banded_maze_and_back(browser: Any, server: Server) -> None:
    from selenium.webdriver.support.ui import Select

    open_plane(browser, server)
    settled(browser)
    assert (
        browser.find_element(By.ID, "chunk").is_displayed()
        and not browser.find_element(By.ID, "row").is_displayed()
    )
    Select(browser.find_element(By.ID, "mode")).select_by_value("banded")
    wait_for(lambda: shows(browser, "banded"), "the banded maze")
    s = state(browser)
    assert s["seed"] == str(SEED) and browser.find_element(By.ID, "row").is_displayed()
    assert not browser.find_element(By.ID, "chunk").is_displayed()
    wait_for(lambda: len(state(browser)["loaded"]) > 0, "a band")
    Select(browser.find_element(By.ID, "mode")).select_by_value("plane")
    wait_for(lambda: shows(browser, "plane"), "the plane")
    assert state(browser)["seed"] == str(SEED)
    settled(browser)
    no_errors(browser)
