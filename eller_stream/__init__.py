"""eller_stream: infinite perfect mazes, one row at a time.

A maze row is a ``numpy.uint8`` array of shape ``(width,)``; a grid is
``(height, width)``, indexed ``[y, x]``.  Each cell holds passage flags:
``EAST = 1`` (open to the right) and ``SOUTH = 2`` (open downward).

>>> import eller_stream as es
>>> s = es.EllerStream(width=8, seed=1)
>>> rows = s.take(3)
>>> last = s.finish()
>>> rows.shape, last.shape
((3, 8), (8,))

The names below are loaded on first use, so that importing the package (or
``eller_stream.cli``'s entry point) does not load numpy and numba until they
are needed: the command installs its signal handling first.
"""

from __future__ import annotations

TYPE_CHECKING = False  # as typing.TYPE_CHECKING, without importing typing (see eller_stream._entry)

# Public name -> the module that defines it.  To export a new name, add it
# here and to the TYPE_CHECKING import below (tests/test_cli_hostile.py checks
# that the two agree).
_EXPORTS = {
    "DIRECTIONS": ".window",
    "EAST": "._format",
    "SOUTH": "._format",
    "STRATEGIES": "._growing_tree",
    "STYLES": ".render",
    "BandParams": "._params",
    "BandedStream": ".banded",
    "Dataset": "._dataset",
    "EllerStream": ".stream",
    "Metrics": ".analysis",
    "Plane": ".plane",
    "PlaneParams": "._plane_params",
    "InfiniteMaze": ".banded",
    "Schedule": "._schedule",
    "TextRenderer": ".render",
    "Window": ".window",
    "NeedsNumba": "._backend",
    "backend": "._backend",
    "backtracker": "._backtracker",
    "band_chunks": ".scale",
    "closed_rows": "._stream_base",
    "compare": "._compare",
    "count_passages": ".analysis",
    "dataset": "._dataset",
    "detour": ".analysis",
    "distances": ".analysis",
    "eller": ".stream",
    "growing_tree": "._growing_tree",
    "is_perfect": ".analysis",
    "metrics": ".analysis",
    "parse_strategy": "._growing_tree",
    "plane_chunks": "._plane_scale",
    "png_rows": ".image",
    "read_raw": ".render",
    "read_zarr_maze": ".scale",
    "read_zarr_plane": "._plane_scale",
    "write_image": ".image",
    "text": ".render",
    "solve": ".analysis",
    "suggest_endpoints": ".analysis",
    "svg": ".image",
    "text_rows": ".render",
    "tile_rows": ".render",
    "tiles": ".render",
    "to_dask": ".scale",
    "validate": ".analysis",
    "write_png": ".image",
    "write_tiled": ".tiled",
    "write_zarr": ".scale",
}

if TYPE_CHECKING:
    from ._backend import NeedsNumba, backend  # noqa: F401
    from ._backtracker import backtracker  # noqa: F401
    from ._compare import compare  # noqa: F401
    from ._dataset import Dataset, dataset  # noqa: F401
    from ._format import EAST, SOUTH  # noqa: F401
    from ._growing_tree import STRATEGIES, growing_tree, parse_strategy  # noqa: F401
    from ._params import BandParams  # noqa: F401
    from ._plane_params import PlaneParams  # noqa: F401
    from ._plane_scale import plane_chunks, read_zarr_plane  # noqa: F401
    from ._schedule import Schedule  # noqa: F401
    from ._stream_base import closed_rows  # noqa: F401
    from .analysis import (  # noqa: F401
        Metrics,
        count_passages,
        detour,
        distances,
        is_perfect,
        metrics,
        solve,
        suggest_endpoints,
        validate,
    )
    from .banded import BandedStream, InfiniteMaze  # noqa: F401
    from .image import png_rows, svg, write_image, write_png  # noqa: F401
    from .plane import Plane  # noqa: F401
    from .render import STYLES, TextRenderer, read_raw, text, text_rows, tile_rows, tiles  # noqa: F401
    from .scale import band_chunks, read_zarr_maze, to_dask, write_zarr  # noqa: F401
    from .stream import EllerStream, eller  # noqa: F401
    from .tiled import write_tiled  # noqa: F401
    from .window import DIRECTIONS, Window  # noqa: F401

__all__ = sorted(_EXPORTS)
__version__ = "0.1.0"

# The package's modules as they are now, before any other is imported (name ->
# mtime, size, inode): numba's cache of the kernels is keyed on them as imported
# (eller_stream._kernel_cache). Module-level statements only, no function: see above.
import os as _os  # noqa: E402

_MODULE_STATS: dict[str, tuple[int, int, int]] = {}
_found = _st = None
try:
    for _found in _os.scandir(_os.path.dirname(_os.path.abspath(__file__))):
        if _found.name.endswith(".py") and _found.name[:-3].isidentifier() and _found.is_file():
            _st = _found.stat()
            _MODULE_STATS[_found.name] = (_st.st_mtime_ns, _st.st_size, _st.st_ino)
except OSError:  # unreadable: the stamp says so (_kernel_cache)
    _MODULE_STATS.clear()
del _found, _st


def __getattr__(name: str) -> object:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib  # here, not at the top: see eller_stream._entry

    value = getattr(importlib.import_module(module, __name__), name)
    globals()[name] = value  # later lookups skip this function
    return value


def __dir__() -> list[str]:
    return sorted((set(globals()) | set(_EXPORTS)) - {"annotations", "TYPE_CHECKING"})  # not the API
