"""A kernel that many paths call is compiled once: for one type of each
argument. numba compiles a kernel again for each new type a call site
gives it, with the kernels it calls (their machine code goes into each
caller's), and a literal ``True`` or ``False`` is a type of its own
(``Literal[bool]``), unlike an int literal. Checked on the sources: a
kernel called from the cache does not compile in the test's process, so
its dispatcher cannot tell."""

from __future__ import annotations

import ast
import pathlib

import eller_stream as es

# Kernels compiled on purpose for literal flags: the Growing Tree's three
# entry points each compile out the parts they do not use.
SPECIALISED = {"_growing_tree"}


def inline_of(node: ast.FunctionDef) -> str | None:
    """How a function decorated ``@_njit`` or ``@_njit(...)`` is inlined
    (its ``inline=``, ``"never"`` by default); None if it is no kernel."""
    for d in node.decorator_list:
        if isinstance(d, ast.Name) and d.id == "_njit":
            return "never"
        if isinstance(d, ast.Call) and isinstance(d.func, ast.Name) and d.func.id == "_njit":
            inline = [ast.literal_eval(k.value) for k in d.keywords if k.arg == "inline"]
            return inline[0] if inline else "never"
    return None


def _is_kernel(node: ast.FunctionDef) -> bool:
    """A kernel compiled once a signature: all but ``inline="ir"``, which
    numba copies into each caller and types there."""
    return inline_of(node) not in (None, "ir")


def _literal_bool_calls() -> list[str]:
    trees = {p: ast.parse(p.read_text()) for p in sorted(pathlib.Path(es.__file__).parent.rglob("*.py"))}
    kernels = {
        n.name
        for t in trees.values()
        for n in ast.walk(t)
        if isinstance(n, ast.FunctionDef) and _is_kernel(n)
    }
    found = []
    for path, tree in trees.items():
        for call in (n for n in ast.walk(tree) if isinstance(n, ast.Call)):
            f = call.func
            name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else None
            if name in kernels and name not in SPECIALISED:
                args = list(call.args) + [k.value for k in call.keywords]
                if any(isinstance(a, ast.Constant) and isinstance(a.value, bool) for a in args):
                    found.append(f"{path.name}:{call.lineno} {name}")
    return found


def test_no_kernel_is_called_with_a_literal_bool() -> None:
    """``_span_in`` and ``band_span_in`` were compiled twice, for a bool and
    for the literal ``False`` of one call site each (``_span_on_planes``,
    ``_band_in``), each copy with ``planes_rows`` and all the planes' rows
    inside: about 0.5 MB of machine code more, compiled on an empty cache."""
    assert _literal_bool_calls() == []


def test_the_check_sees_a_literal_bool() -> None:
    """The check finds such a call where there is one (the Growing Tree's, left out on purpose)."""
    SPECIALISED.discard("_growing_tree")
    try:
        assert any(" _growing_tree" in f for f in _literal_bool_calls())
    finally:
        SPECIALISED.add("_growing_tree")
