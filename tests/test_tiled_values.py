"""Values in Tiled maps as the readers see them (issue 32): numpy scalars
written as Python values, text XML cannot hold and non-finite floats
refused, what XML allows coming back as written, the documented bounds of
what pytiled-parser and pytmx read exactly, any allowed properties round
tripping (Hypothesis)."""

from __future__ import annotations

import os
import pathlib
import tempfile
import xml.etree.ElementTree as ET

import cli_support
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import eller_stream as es

pytiled_parser = pytest.importorskip("pytiled_parser")
pytmx = pytest.importorskip("pytmx")

TILE = 8


def read_props(path: pathlib.Path) -> list[tuple[str, dict, dict]]:
    """(object name, object properties, map properties) of the first object,
    by every reader of the file: pytiled-parser, and pytmx for a finite .tmx."""
    found = []
    tiled_map = pytiled_parser.parse_map(path)
    (obj,) = tiled_map.layers[1].tiled_objects
    found.append((obj.name, dict(obj.properties), dict(tiled_map.properties)))
    if path.suffix == ".tmx" and not tiled_map.infinite:
        tmx = pytmx.TiledMap(str(path))
        (obj,) = list(tmx.objects)
        found.append((obj.name, dict(obj.properties), dict(tmx.properties)))
    return found


def one_object(path: pathlib.Path, props: dict, name: str = "k", **kwargs: object) -> None:
    obj = {"name": name, "row": 1, "column": 2, "properties": props}
    es.write_tiled(path, es.eller(4, 4, seed=1), objects=[obj], **kwargs)


NUMPY_VALUES = [
    (np.float64(0.5), 0.5),
    (np.float32(0.1), float(np.float32(0.1))),
    (np.float16(-2.5), -2.5),
    (np.int64(-3), -3),
    (np.int8(7), 7),
    (np.uint64(2**40), 2**40),
    (np.bool_(True), True),
    (np.bool_(False), False),
    (np.str_("gem"), "gem"),
]


@pytest.mark.parametrize("ext", ["tmj", "tmx"])
def test_numpy_scalars_are_written_as_python_values(tmp_path, ext):
    path = tmp_path / f"v.{ext}"
    maze = es.InfiniteMaze(4, band=4, seed=1)
    gold = maze.random(0, 4, salt=1)[1, 2]  # the README's recipe: a float64 of maze.random
    props = {f"p{i}": value for i, (value, _) in enumerate(NUMPY_VALUES)} | {"gold": gold}
    obj = {"name": np.str_("k"), "row": np.int64(1), "column": np.uint8(2), "properties": props}
    es.write_tiled(path, maze.rows(0, 4), objects=[obj], first_row=np.int64(0), description=np.str_("d"))
    expect = {f"p{i}": value for i, (_, value) in enumerate(NUMPY_VALUES)} | {"gold": float(gold)}
    for name, got, map_props in read_props(path):
        assert name == "k" and map_props["description"] == "d" and map_props["first_row"] == 0
        assert {k: got[k] for k in expect} == expect
        assert {k: type(got[k]) for k in expect} == {k: type(v) for k, v in expect.items()}
        assert (got["row"], got["column"]) == (1, 2)


BAD_TEXT = ["\x00", "\x01", "\x08", "\x0b", "\x0c", "\x1f", "\ud800", "\udfff", "\ufffe", "\uffff"]


@pytest.mark.parametrize("ext", ["tmj", "tmx"])
@pytest.mark.parametrize("bad", BAD_TEXT)
@pytest.mark.parametrize(
    ("where", "match"),
    [
        ("name", r"objects\[0\] name"),
        ("key", r"objects\[0\] property name"),
        ("value", r"objects\[0\] property 'p'"),
        ("description", r"description"),
    ],
)
def test_text_no_xml_parser_reads_is_refused(tmp_path, ext, bad, where, match):
    path = tmp_path / f"v.{ext}"
    path.write_bytes(b"old")
    text = f"a{bad}b"
    obj = {"name": text if where == "name" else "k", "row": 1, "column": 2}
    obj["properties"] = {text: 1} if where == "key" else {"p": text if where == "value" else "x"}
    kwargs = {"description": text} if where == "description" else {}
    with pytest.raises(ValueError, match=match + r".*" + f"U\\+{ord(bad):04X}"):
        es.write_tiled(path, es.eller(4, 4, seed=1), objects=[obj], **kwargs)
    assert os.listdir(tmp_path) == ["v." + ext] and path.read_bytes() == b"old"  # left as it was


@pytest.mark.parametrize("ext", ["tmj", "tmx"])
@pytest.mark.parametrize(
    "value", [float("nan"), float("inf"), -float("inf"), np.float32("nan"), np.longdouble("1e4000")]
)
def test_a_float_that_is_not_finite_is_refused(tmp_path, ext, value):
    with pytest.raises(ValueError, match=r"objects\[0\] property 'gold' must be a finite float"):
        one_object(tmp_path / f"v.{ext}", {"gold": value})
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize("ext", ["tmj", "tmx"])
@pytest.mark.parametrize(
    "value", [-(2**63) - 1, 2**64, 10**5000, np.complex128(1j)], ids=["below", "2**64", "10**5000", "complex"]
)
def test_an_int_past_64_bits_or_another_type_is_refused(tmp_path, ext, value):
    error = TypeError if isinstance(value, np.complexfloating) else ValueError
    with pytest.raises(error, match=r"objects\[0\] property 'n' must be"):
        one_object(tmp_path / f"v.{ext}", {"n": value})
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize("ext", ["tmj", "tmx"])
def test_what_xml_allows_round_trips(tmp_path, ext):
    """Tab, LF, CR (alone and as CRLF), DEL, C1 controls and the last
    code points XML allows come back as written, in every field."""
    text = "a\tb\nc\rd\r\ne \x7f\x85\x9f\ud7ff\ue000\ufffd\U00010000\U0010ffff &<>\"' ]]>"
    path = tmp_path / f"v.{ext}"
    one_object(path, {text: text, "": ""}, name=text, description=text)
    for name, got, map_props in read_props(path):
        assert name == text and got[text] == text and got[""] == "" and map_props["description"] == text


@pytest.mark.parametrize("ext", ["tmj", "tmx", "svg"])
@pytest.mark.parametrize(
    ("name", "shown"),
    [(b"s\x01.json", "s\\x01.json"), (b"s\xff.json", "s\\udcff.json"), (b"s\t.json", "s\t.json")],
)
def test_the_cli_records_a_schedule_path_any_xml_holds(tmp_path, ext, name, shown):
    """A schedule file's name goes into the description: a control
    character or a byte that is not UTF-8 (a lone surrogate in Python) is
    written as its escape, the map or picture still parses."""
    (tmp_path / os.fsdecode(name)).write_text('{"0": {"loops": 0.1}}')
    args = [b"render", b"-o", f"m.{ext}".encode(), b"--band", b"4", b"--rows", b"8", b"--schedule", name]
    done = cli_support.run(*args, cwd=tmp_path)  # the bytes decoded as a command line's
    assert done.returncode == 0 and done.stderr == b""
    if ext == "svg":
        root = ET.parse(tmp_path / "m.svg").getroot()
        description = root.find("{http://www.w3.org/2000/svg}metadata").text
    else:
        description = pytiled_parser.parse_map(tmp_path / f"m.{ext}").properties["description"]
    pixels = " --cell 8 --wall 2" if ext == "svg" else ""  # a map's has none: they are refused for it
    assert description.endswith(f"--schedule {shown}{pixels}")


# --- what is exact where: the documented bounds (module docstring, docs/games.md) ------------


@pytest.mark.parametrize("ext", ["tmj", "tmx"])
def test_int_properties_are_exact_to_the_documented_bounds(tmp_path, ext):
    """Every reader reads 64-bit int properties exactly, but for
    pytiled-parser's .tmx reader, which goes through a float: exact for
    magnitudes up to 2**53 (the largest such value is), and past it the
    nearest double."""
    path = tmp_path / f"v.{ext}"
    values = {"a": 2**53, "b": -(2**53), "c": 2**53 + 1, "d": -(2**63), "e": 2**64 - 1, "f": 2**63 - 1}
    one_object(path, values)
    for i, (_, got, _) in enumerate(read_props(path)):
        by_float = ext == "tmx" and i == 0  # pytiled-parser's .tmx reader
        for key, value in values.items():
            assert got[key] == (int(float(value)) if by_float else value) and type(got[key]) is int
    if ext == "tmx":
        assert pytiled_parser.parse_map(path).layers[1].tiled_objects[0].properties["c"] == 2**53  # not exact


@pytest.mark.parametrize("ext", ["tmj", "tmx"])
def test_infinite_map_object_positions_are_exact_to_the_documented_bounds(tmp_path, ext):
    """An object of an infinite map lies at pixel y = 16*row + 8: exact in
    a .tmj everywhere; pytiled-parser reads a .tmx's positions through a
    float, exact for rows in [-2**52, 2**52), and row 2**52 reads a tile
    row off; its row property stays exact (up to 2**53)."""
    maze = es.InfiniteMaze(3, band=4, seed=1)
    for row, exact in [
        (2**52 - 1, True),
        (-(2**52), True),
        (2**52, False),
        (2**63 - 3, False),
        (-(2**63), False),
    ]:
        path = tmp_path / f"v{row}.{ext}"
        first = min(row, 2**63 - 3)
        objects = [{"name": "k", "row": row, "column": 1}]
        es.write_tiled(
            path, maze.rows(first, first + 2), top=False, infinite=True, first_row=first, objects=objects
        )
        (obj,) = pytiled_parser.parse_map(path).layers[1].tiled_objects
        y = obj.coordinates.y
        if ext == "tmj" or exact:
            assert y == 16 * row + 8 and (int(y) // TILE - 1) // 2 == row
        else:
            assert y != 16 * row + 8
        if row == 2**52:
            assert (int(y) // TILE - 1) // 2 == row - (ext == "tmx")  # one tile row off in a .tmx
        if ext == "tmj" or abs(row) <= 2**53:
            assert obj.properties["row"] == row


# --- any allowed properties come back as written ----------------------------------------------

TEXT = st.text(
    st.characters(
        exclude_categories=["Cs"],  # lone surrogates
        exclude_characters=[chr(c) for c in range(32) if chr(c) not in "\t\n\r"] + ["\ufffe", "\uffff"],
    ),
    max_size=12,
)
INT64 = st.integers(-(2**63), 2**64 - 1)
FLOAT = st.floats(allow_nan=False, allow_infinity=False)
VALUE = st.one_of(
    st.booleans(),
    INT64,
    FLOAT,
    TEXT,
    st.booleans().map(np.bool_),
    st.integers(-(2**63), 2**63 - 1).map(np.int64),
    st.integers(0, 2**64 - 1).map(np.uint64),
    FLOAT.map(np.float64),
    st.floats(width=32, allow_nan=False, allow_infinity=False).map(np.float32),
    TEXT.map(np.str_),
)


def plain(value: object, by_float: bool) -> tuple[type, str]:
    """What a reader gives back for ``value``, by type and repr (-0.0 too):
    the Python value; an int through a float for pytiled-parser's .tmx."""
    expect: object
    if isinstance(value, (bool, np.bool_)):
        expect = bool(value)
    elif isinstance(value, (int, np.integer)):
        expect = int(float(value)) if by_float else int(value)
    elif isinstance(value, (float, np.floating)):
        expect = float(value)
    else:
        expect = str(value)
    return type(expect), repr(expect)


@given(props=st.dictionaries(TEXT.map(lambda s: "p:" + s), VALUE, max_size=6), name=TEXT, description=TEXT)
def test_any_allowed_properties_come_back_as_written(props, name, description):
    """Both formats, every reader: names, values and the description come
    back equal, of the same type.  Names are prefixed: pytmx refuses a
    property named as one of its object's attributes (documented)."""
    with tempfile.TemporaryDirectory() as folder:
        for ext in ("tmj", "tmx"):
            path = pathlib.Path(folder) / f"m.{ext}"
            one_object(path, props, name=name, description=description)
            for i, (got_name, got, map_props) in enumerate(read_props(path)):
                by_float = ext == "tmx" and i == 0
                assert got_name == name and map_props["description"] == description
                assert set(got) == {"row", "column", *props}
                for key, value in props.items():
                    assert (type(got[key]), repr(got[key])) == plain(value, by_float)
