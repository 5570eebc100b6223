"""``python -m eller_stream``: the eller-stream command."""

from .cli import run

if __name__ == "__main__":
    run()
