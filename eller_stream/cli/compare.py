"""``eller-stream compare``: the generators side by side."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from .._backend import NeedsNumba, backend
from .._compare import ALGORITHMS, compare, to_json
from .._generators import BANDED_SPEC, generator
from . import _options as opt
from ._common import PROG, Parser, require_stdout, say

EXAMPLES = f"""\
examples:
  eller-stream compare                          200 x 200, 3 seeds, every algorithm
  eller-stream compare --width 1000 --height 1000 --seeds 1
  eller-stream compare --algorithm backtracker --algorithm growing-tree:random --json

algorithms: eller[:h=H,v=V], growing-tree:STRATEGY (newest, oldest, random,
middle or a mix such as newest:90,random:10), backtracker,
{BANDED_SPEC} (an InfiniteMaze closed at the bottom).

"detour" is how many rows above a row its cells need to reach the next row
(es.detour): a scrolling game must keep that many rows above the player.
"""

COLUMNS = [
    ("algorithm", "algorithm", "{}"),
    ("ns_per_cell", "ns/cell", "{:.1f}"),
    ("extra_bytes_per_cell", "extra B/cell", "{:.2f}"),
    ("dead_end_fraction", "dead ends", "{:.1%}"),
    ("junction_fraction", "junctions", "{:.1%}"),
    ("straight_fraction", "straight", "{:.1%}"),
    ("mean_straight_run", "mean run", "{:.2f}"),
    ("horizontal_vertical_ratio", "E/S ratio", "{:.2f}"),
    ("solution_ratio", "solution/(w+h)", "{:.2f}"),
    ("detour_max", "detour max", "{:.0f}"),
    ("detour_p99", "detour p99", "{:.0f}"),
]


def _algorithm(text: str) -> str:
    generator(text)  # refuses a name it does not know
    return text


def parser() -> Parser:
    p = Parser(
        f"{PROG} compare", "Compare the generators on one size: speed, memory and texture metrics.", EXAMPLES
    )
    p.add_argument("--width", type=opt.option_int("width", 1, 2**15), default=200, help="cells per row (200)")
    p.add_argument("--height", type=opt.option_int("height", 1, 2**15), default=200, help="rows (200)")
    p.add_argument(
        "--seeds", type=opt.option_int("seeds", 1, 1000), default=3, help="seeds per algorithm, 0, 1, ... (3)"
    )
    p.add_argument(
        "--algorithm",
        action="append",
        type=opt.checked(_algorithm, str, "an algorithm name"),
        help="an algorithm to include (repeatable; default: all)",
    )
    p.add_argument(
        "--json",
        action="store_true",
        help="print JSON for machines instead of a table (strict JSON: a value that is not finite is null)",
    )
    return p


def _table(args: argparse.Namespace, rows: list[dict[str, object]]) -> list[str]:
    table = [[fmt.format(row[key]) for key, _, fmt in COLUMNS] for row in rows]
    headers = [title for _, title, _ in COLUMNS]
    widths = [max(len(h), *(len(r[i]) for r in table)) for i, h in enumerate(headers)]

    def line(cells: list[str]) -> str:
        return "  ".join(c.ljust(widths[0]) if i == 0 else c.rjust(widths[i]) for i, c in enumerate(cells))

    size = f"{args.width} x {args.height} cells"
    head = f"{size}, best of {args.seeds} seed(s) for speed, mean of them for the rest"
    return [head, line(headers), *(line(r) for r in table)]


def _runs_here(name: str) -> bool:
    """Whether the algorithm runs on the backend in use (a 2 x 2 maze, or NeedsNumba)."""
    try:
        generator(name)(2, 2, 0)
    except NeedsNumba:
        return False
    return True


def _default_algorithms() -> list[str]:
    """Every algorithm; on the lean backend, those it has (the others raise
    NeedsNumba), with a note naming those left out."""
    if backend() == "numba":
        return list(ALGORITHMS)
    kept = [name for name in ALGORITHMS if _runs_here(name)]
    left = ", ".join(name for name in ALGORITHMS if name not in kept)
    if left:
        say(f"note: the lean backend has no {left} (they need numba): comparing the others")
    return kept


def main(argv: Sequence[str]) -> int:
    args = parser().parse_args(list(argv))
    require_stdout()
    rows = compare(args.width, args.height, args.seeds, args.algorithm or _default_algorithms())
    if args.json:
        print(to_json(rows))
        return 0
    for text in _table(args, rows):
        print(text)
    return 0
