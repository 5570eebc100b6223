"""The viewer's browser tests' machinery: Debian's chromium and
chromium-driver under selenium (headless), against a real ``eller-stream
serve``; a test module marks itself ``needs_browser`` and takes the
``browser`` fixture from :func:`open_browser`."""

from __future__ import annotations

import base64
import os
import shutil
import time
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest
from serve_support import HAS_SERVE

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
try:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
except ImportError:  # pragma: no cover - the [test] extra has it
    webdriver = Service = By = Keys = None

__all__ = ["By", "Keys", "needs_browser", "no_errors", "open_browser", "pixels", "state", "wait_for"]
__all__ += ["webdriver"]

MISSING = [
    what
    for what, there in (
        ("chromium", CHROMIUM),
        ("chromedriver", DRIVER),
        ("selenium", webdriver),
        ("the [serve] extra", HAS_SERVE),
    )
    if not there
]
# CI installs them (apt-get install chromium chromium-driver): there the tests run
needs_browser = pytest.mark.skipif(
    bool(MISSING) and not os.environ.get("CI"), reason=f"not installed here: {', '.join(MISSING)}"
)


def open_browser() -> Iterator[Any]:
    """A headless chromium of 800 x 900 pixels that keeps the page's log (a fixture's body)."""
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=800,900"):
        options.add_argument(arg)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(DRIVER), options=options)
    driver.set_script_timeout(60)
    yield driver
    driver.quit()


def wait_for(check: Callable[[], bool], what: str, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


def state(browser: Any) -> dict[str, Any]:
    """What the viewer says of itself (its debug hook, ``window.ellerViewer``)."""
    value: dict[str, Any] = browser.execute_script("return window.ellerViewer.state()")
    return value


def pixels(browser: Any) -> np.ndarray:
    """The canvas, ``(height, width, 3)`` RGB. Its bytes come as base64 text,
    not a list of numbers (one per byte: 2 million, ten times the time)."""
    data = browser.execute_script(
        "const c = document.getElementById('maze');"
        "const data = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;"
        "let text = '';"
        "for (let i = 0; i < data.length; i += 0x8000) {"
        "  text += String.fromCharCode.apply(null, data.subarray(i, i + 0x8000));"
        "}"
        "return [c.width, c.height, btoa(text)];"
    )
    w, h, text = data
    return np.frombuffer(base64.b64decode(text), np.uint8).reshape(h, w, 4)[:, :, :3]


def no_errors(browser: Any) -> None:
    """Nothing severe in the page's log, no failed fetch in the viewer's."""
    severe = [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]
    assert severe == [] and state(browser)["errors"] == []
