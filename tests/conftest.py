import os
import subprocess
import sys
from collections.abc import Callable

import pytest
from hypothesis import settings

sys.path.insert(0, os.path.dirname(__file__))

settings.register_profile("ci", max_examples=60, deadline=None)
settings.register_profile("dev", max_examples=30, deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.fixture
def run_cli() -> Callable[..., subprocess.CompletedProcess[str]]:
    """Run ``python -m eller_stream ARGS...`` in a new process, with this
    checkout first on PYTHONPATH; text output captured.  ``check=True``
    (the default) fails the test on a non-zero exit status."""
    env = {**os.environ, "PYTHONPATH": ROOT + os.pathsep + os.environ.get("PYTHONPATH", "")}

    def run(*args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        command = [sys.executable, "-m", "eller_stream", *args]
        return subprocess.run(command, capture_output=True, text=True, check=check, env=env)

    return run
