"""``python -m eller_stream``: the eller-stream command."""

from ._entry import run

if __name__ == "__main__":
    run()
