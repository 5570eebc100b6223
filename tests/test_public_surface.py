"""The public surface: every name is the thing it says, implementation
modules are private, and results are typed."""

from __future__ import annotations

import dataclasses
import importlib
import pkgutil
import types

import numpy as np
import pytest

import eller_stream as es


def test_no_public_name_is_hidden_by_a_module():
    # importing every submodule must not replace a public function by a module of the same name
    for info in pkgutil.iter_modules(es.__path__):
        importlib.import_module(f"eller_stream.{info.name}")
    for name in es.__all__:
        assert not isinstance(getattr(es, name), types.ModuleType), name
    assert callable(es.growing_tree) and callable(es.backtracker) and callable(es.compare)
    public = [info.name for info in pkgutil.iter_modules(es.__path__) if not info.name.startswith("_")]
    assert not set(public) & set(es.__all__)


def test_dir_lists_the_api_not_the_module_s_own_helpers():
    """``dir(es)`` listed ``annotations`` (the ``__future__`` import) and
    ``TYPE_CHECKING`` among the names a newcomer browses."""
    names = dir(es)
    assert not {"annotations", "TYPE_CHECKING"} & set(names)
    assert set(es.__all__) <= set(names) and "__version__" in names


def test_metrics_is_a_typed_frozen_mapping():
    grid = es.backtracker(20, 15, seed=3)
    m = es.metrics(grid)
    assert isinstance(m, es.Metrics)
    assert m.passages == m["passages"] == es.count_passages(grid) == 20 * 15 - 1
    assert m.as_dict() == dict(m) and list(m) == [f.name for f in dataclasses.fields(es.Metrics)]
    assert isinstance(m.solution_length, int) and isinstance(m.dead_end_fraction, float)
    with pytest.raises(dataclasses.FrozenInstanceError):
        m.cells = 1  # type: ignore[misc]
    with pytest.raises(KeyError):
        m["no such metric"]


def test_validators_and_analysis_live_where_their_names_say():
    from eller_stream import _validate, analysis

    assert es.count_passages is analysis.count_passages
    with pytest.raises(TypeError, match="rows"):
        _validate.check_rows("rows", [[1]])


def test_the_version_has_one_source():
    """pyproject.toml reads the version from ``eller_stream.__version__``
    (setuptools' dynamic version): the installed metadata says the same,
    and nothing else in pyproject.toml states one."""
    import importlib.metadata
    import pathlib

    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    assert importlib.metadata.version("eller_stream") == es.__version__
    project = tomllib.loads((pathlib.Path(__file__).parents[1] / "pyproject.toml").read_text())
    assert "version" not in project["project"] and "version" in project["project"]["dynamic"]
    assert project["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "eller_stream.__version__"}


def test_the_game_kit_is_where_a_game_looks_for_it():
    """Issue 34: the window's game coordinates, fog and lasting items, saving in one
    call on the maze and the window (class methods to read back), ``es.DIRECTIONS``."""
    import inspect
    from types import MappingProxyType

    from eller_stream import window

    assert es.DIRECTIONS is window.DIRECTIONS and isinstance(es.DIRECTIONS, MappingProxyType)
    for name in ("tile_of", "cell_of", "step", "index", "explore", "lasting", "to_json"):
        assert inspect.isfunction(getattr(es.Window, name)), name
    assert isinstance(inspect.getattr_static(es.Window, "explored"), property)
    for cls in (es.Window, es.InfiniteMaze):
        assert isinstance(inspect.getattr_static(cls, "from_json"), classmethod)
        assert inspect.signature(cls.from_json).return_annotation == cls.__name__


def test_the_plane_and_its_knobs_are_public():
    from eller_stream import plane

    assert es.Plane is plane.Plane and es.PlaneParams is plane.PlaneParams
    p = es.Plane(chunk=4, seed=1)
    assert isinstance(p.params, es.PlaneParams) and p.params.names() == ("perfect", "horizontal", "vertical")
    with pytest.raises(dataclasses.FrozenInstanceError):
        p.params.perfect = False  # type: ignore[misc]
    assert p.region(0, 3, 0, 5).dtype == np.uint8 and isinstance(p.block(1, 0, 0)[2], int)
