"""The house rules a reader relies on (issue 19): no module of the package
over 500 lines, no function over 80 lines outside the numba kernels, and a
README of a page."""

from __future__ import annotations

import ast
import pathlib

import pytest

PACKAGE = pathlib.Path(__file__).resolve().parent.parent / "eller_stream"
MODULES = sorted(PACKAGE.rglob("*.py"))


def _is_kernel(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Decorated with ``_njit`` (or ``_njit(...)``) or numba's ``intrinsic``."""
    for d in node.decorator_list:
        target = d.func if isinstance(d, ast.Call) else d
        name = target.id if isinstance(target, ast.Name) else getattr(target, "attr", "")
        if name in ("_njit", "intrinsic"):
            return True
    return False


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_modules_and_functions_stay_small(path):
    source = path.read_text()
    assert source.count("\n") <= 500, f"{path.name} has {source.count(chr(10))} lines"
    long = [
        f"{node.name} ({node.end_lineno - node.lineno + 1} lines)"
        for node in ast.walk(ast.parse(source))
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
        and not _is_kernel(node)
        and node.end_lineno - node.lineno + 1 > 80
    ]
    assert long == []


def test_the_rule_sees_a_long_function():
    body = "\n".join(f"    x{i} = {i}" for i in range(81))
    tree = ast.parse(f"def f():\n{body}\n")
    (node,) = tree.body
    assert isinstance(node, ast.FunctionDef) and not _is_kernel(node)
    assert node.end_lineno - node.lineno + 1 == 82


def test_the_readme_is_a_page():
    """README.md is for users: at most 300 lines (the guides are in docs/)."""
    readme = PACKAGE.parent / "README.md"
    assert readme.read_text().count("\n") <= 300
