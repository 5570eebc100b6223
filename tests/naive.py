"""Slow, obvious oracles the tests compare the fast code against.

Nothing here imports eller_stream: these functions read grids in the row
format (EAST = 1, SOUTH = 2) with plain Python loops.
"""

from __future__ import annotations

import itertools
from collections import deque

import numpy as np

EAST = 1
SOUTH = 2


def edges(grid: np.ndarray) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """Every open passage as a pair of (y, x) cells."""
    h, w = grid.shape
    out = []
    for y in range(h):
        for x in range(w):
            v = int(grid[y, x])
            if v & EAST:
                out.append(((y, x), (y, x + 1)))
            if v & SOUTH:
                out.append(((y, x), (y + 1, x)))
    return out


def perfect_problems(grid: np.ndarray) -> list[str]:
    """What keeps ``grid`` from being a perfect maze (empty list: perfect).

    Union-find over the whole grid: a spanning tree has exactly h*w - 1
    passages, none leaving the grid, and none closing a loop.
    """
    grid = np.asarray(grid)
    problems = []
    if grid.dtype != np.uint8 or grid.ndim != 2:
        return [f"not a 2-d uint8 grid: {grid.dtype} {grid.shape}"]
    h, w = grid.shape
    parent = list(range(h * w))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    if int(grid.max(initial=0)) > 3:
        problems.append("unknown flag bits")
    n = 0
    for (y0, x0), (y1, x1) in edges(grid):
        if y1 >= h or x1 >= w:
            problems.append(f"passage out of the grid at {(y0, x0)}")
            continue
        a, b = find(y0 * w + x0), find(y1 * w + x1)
        if a == b:
            problems.append(f"loop closed by {(y0, x0)}-{(y1, x1)}")
        parent[a] = b
        n += 1
    if n != h * w - 1:
        problems.append(f"{n} passages, a spanning tree has {h * w - 1}")
    return problems


def neighbours(grid: np.ndarray, y: int, x: int) -> list[tuple[int, int]]:
    h, w = grid.shape
    out = []
    if grid[y, x] & EAST and x + 1 < w:
        out.append((y, x + 1))
    if grid[y, x] & SOUTH and y + 1 < h:
        out.append((y + 1, x))
    if x > 0 and grid[y, x - 1] & EAST:
        out.append((y, x - 1))
    if y > 0 and grid[y - 1, x] & SOUTH:
        out.append((y - 1, x))
    return out


def component_labels(grid: np.ndarray) -> np.ndarray:
    """Each cell's connected component (the smallest row-major index in it),
    by breadth-first search over the open passages inside ``grid``."""
    h, w = grid.shape
    label = np.full((h, w), -1, np.int64)
    for y0 in range(h):
        for x0 in range(w):
            if label[y0, x0] >= 0:
                continue
            label[y0, x0] = y0 * w + x0
            queue = [(y0, x0)]
            while queue:
                y, x = queue.pop()
                for ny, nx in neighbours(grid, y, x):
                    if label[ny, nx] < 0:
                        label[ny, nx] = y0 * w + x0
                        queue.append((ny, nx))
    return label


def bfs_path(grid: np.ndarray, start: tuple[int, int], end: tuple[int, int]) -> list[tuple[int, int]]:
    """Shortest path from start to end by plain breadth-first search."""
    prev = {start: start}
    queue = deque([start])
    while queue:
        cell = queue.popleft()
        if cell == end:
            break
        for nb in neighbours(grid, *cell):
            if nb not in prev:
                prev[nb] = cell
                queue.append(nb)
    if end not in prev:
        return []
    path = [end]
    while path[-1] != start:
        path.append(prev[path[-1]])
    return path[::-1]


# ---------------------------------------------------------------------------
# The reference stream: Eller's algorithm written the plain way (set labels,
# relabelling by scanning the row), with its own SplitMix64.  The fast kernel
# must give the same rows, byte for byte.
# ---------------------------------------------------------------------------

MASK64 = 2**64 - 1
GOLDEN = 0x9E3779B97F4A7C15


def mix64(z: int) -> int:
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


def seed_key(seed: int) -> int:
    return mix64(mix64((seed + GOLDEN) & MASK64) ^ 0x656C6C6572)


def eller_reference(width: int, height: int, seed: int, horizontal: float, vertical: float) -> np.ndarray:
    """``height`` streamed rows (no closing row) of the documented stream.

    Cell number ``i`` (row-major, from 0) draws ``bits = mix64(key + i*GOLDEN)``;
    its east wall opens when the low 32 bits are below ``horizontal * 2**32``
    and the two cells are in different sets; its south wall stays open when
    the high 32 bits are below ``vertical * 2**32`` or when no other cell of
    its set (counting the cells to its right and those to its left that kept
    their south wall open) can carry the set down.
    """
    key = seed_key(seed)
    join_below = round(horizontal * 2**32)
    open_below = round(vertical * 2**32)
    label = list(range(width))
    grid = np.zeros((height, width), np.uint8)
    i = 0
    for y in range(height):
        bits = []
        for _ in range(width):
            bits.append(mix64((key + i * GOLDEN) & MASK64))
            i += 1
        # east walls, left to right, relabelling the whole row on each join
        for x in range(width - 1):
            if label[x] != label[x + 1] and (bits[x] & 0xFFFFFFFF) < join_below:
                grid[y, x] |= EAST
                old = label[x + 1]
                label = [label[x] if v == old else v for v in label]
        # south walls: x may close if its set has a cell further right, or a
        # cell further left that stayed open
        opened_sets = set()
        for x in range(width):
            has_later = any(label[z] == label[x] for z in range(x + 1, width))
            can_close = has_later or label[x] in opened_sets
            if can_close and (bits[x] >> 32) >= open_below:
                continue
            grid[y, x] |= SOUTH
            opened_sets.add(label[x])
        # next row: open cells keep their set, closed cells get a new one
        fresh = max(label) + 1
        new = []
        for x in range(width):
            if grid[y, x] & SOUTH:
                new.append(label[x])
            else:
                new.append(fresh)
                fresh += 1
        label = new
    return grid


def closing_row_reference(labels_grid_rows: np.ndarray, width: int) -> np.ndarray:
    """The closing row after ``labels_grid_rows``: join every pair of neighbours
    not yet connected (connectivity taken from the rows above by union-find)."""
    h = labels_grid_rows.shape[0]
    parent = list(range((h + 1) * width))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for (y0, x0), (y1, x1) in edges(labels_grid_rows):
        parent[find(y0 * width + x0)] = find(y1 * width + x1)
    row = np.zeros(width, np.uint8)
    for x in range(width - 1):
        a, b = find(h * width + x), find(h * width + x + 1)
        if a != b:
            row[x] = EAST
            parent[a] = b
    return row


# ---------------------------------------------------------------------------
# Reading text renderings back into grids (each by its own rules).
# ---------------------------------------------------------------------------


def parse_ascii(text: str) -> np.ndarray:
    """Grid from ``+--+`` / ``|  |`` text: a top border, then two lines a row."""
    lines = text.splitlines()
    assert lines[0] == "+--" * ((len(lines[0]) - 1) // 3) + "+", lines[0]
    w = (len(lines[0]) - 1) // 3
    body = lines[1:]
    assert len(body) % 2 == 0
    grid = np.zeros((len(body) // 2, w), np.uint8)
    for y in range(len(grid)):
        cells, floor = body[2 * y], body[2 * y + 1]
        assert len(cells) == len(floor) == 3 * w + 1
        assert cells[0] == "|" and cells[-1] == "|" and floor[0] == "+" and floor[-1] == "+"
        for x in range(w):
            assert cells[3 * x + 1 : 3 * x + 3] == "  "
            assert floor[3 * x] == "+"
            assert floor[3 * x + 1 : 3 * x + 3] in ("  ", "--")
            assert cells[3 * x + 3] in " |"
            if x < w - 1 and cells[3 * x + 3] == " ":
                grid[y, x] |= EAST
            if floor[3 * x + 1] == " ":
                grid[y, x] |= SOUTH
    return grid


# arms (up, down, left, right) of each box-drawing character
BOX_ARMS = {
    " ": (0, 0, 0, 0), "╶": (0, 0, 0, 1), "╴": (0, 0, 1, 0), "─": (0, 0, 1, 1),
    "╷": (0, 1, 0, 0), "┌": (0, 1, 0, 1), "┐": (0, 1, 1, 0), "┬": (0, 1, 1, 1),
    "╵": (1, 0, 0, 0), "└": (1, 0, 0, 1), "┘": (1, 0, 1, 0), "┴": (1, 0, 1, 1),
    "│": (1, 1, 0, 0), "├": (1, 1, 0, 1), "┤": (1, 1, 1, 0), "┼": (1, 1, 1, 1),
}  # fmt: skip


def parse_unicode(text: str) -> np.ndarray:
    """Grid from box-drawing text; also checks that every junction's arms
    meet the wall segments around it (no gaps, no stray arms)."""
    lines = text.splitlines()
    assert len(lines) % 2 == 1
    w = (len(lines[0]) - 1) // 3
    h = len(lines) // 2
    for line in lines:
        assert len(line) == 3 * w + 1, line
    grid = np.zeros((h, w), np.uint8)
    for y in range(h):
        cells, below = lines[2 * y + 1], lines[2 * y + 2]
        for x in range(w):
            if x < w - 1 and cells[3 * x + 3] == " ":
                grid[y, x] |= EAST
            if below[3 * x + 1] == " ":
                grid[y, x] |= SOUTH
    # every junction agrees with its neighbours
    for i in range(0, len(lines), 2):
        for j in range(0, 3 * w + 1, 3):
            up, down, left, right = BOX_ARMS[lines[i][j]]
            assert up == (i > 0 and lines[i - 1][j] == "│"), (i, j)
            assert down == (i + 1 < len(lines) and lines[i + 1][j] == "│"), (i, j)
            assert left == (j > 0 and lines[i][j - 1] == "─"), (i, j)
            assert right == (j + 1 < len(lines[i]) and lines[i][j + 1] == "─"), (i, j)
    return grid


def parse_blocks(text: str) -> np.ndarray:
    """Grid from a tile map drawn with '█' walls and ' ' floors."""
    lines = text.splitlines()
    t = np.array([[c == "█" for c in line] for line in lines])
    h, w = (t.shape[0] - 1) // 2, (t.shape[1] - 1) // 2
    assert t.shape == (2 * h + 1, 2 * w + 1)
    assert t[0].all() and t[:, 0].all() and t[:, -1].all()
    assert not t[1::2, 1::2].any()  # cells are floor
    assert t[::2, ::2].all()  # corners are walls
    grid = np.zeros((h, w), np.uint8)
    grid |= (~t[1::2, 2::2][:, :w]).astype(np.uint8) * EAST
    grid[:, -1] &= ~np.uint8(EAST)
    grid |= (~t[2::2, 1::2]).astype(np.uint8) * SOUTH
    return grid


# ---------------------------------------------------------------------------
# Growing Tree, the textbook way (a Python list, list.pop(index)), with
# NumPy's legacy Mersenne Twister (np.random.RandomState) for its random
# numbers: statistically, not bitwise, comparable with the package.
# tests/textbook_jit.py compiles the same steps with numba (whose
# np.random draws the same numbers for the same seed) for the statistical
# tests, which need thousands of mazes; the two must agree byte for byte.
# ---------------------------------------------------------------------------

# The strategies in the package's order (its STRATEGIES), and each one's pick:
# the index of the cell it takes in a list of n, whose first `left` cells are
# its left part (in a plain list, the first (n + 1) // 2: the middle cell is
# the last of them), given a rank `drawn` uniform below n.
NAMES = ("newest", "oldest", "random", "middle")
PICK = {
    "newest": lambda n, left, drawn: n - 1,
    "oldest": lambda n, left, drawn: 0,
    "random": lambda n, left, drawn: drawn,
    "middle": lambda n, left, drawn: left - 1,
}


def textbook_cumulative(weights: dict[str, float]) -> list[float]:
    """Cumulative weights in NAMES order; the last is infinite, so that
    a uniform number in [0, 1) always lands on some strategy."""
    total = sum(weights.values())
    out, acc = [], 0.0
    for name in NAMES:
        acc += weights.get(name, 0.0) / total
        out.append(acc)
    last = max(k for k, name in enumerate(NAMES) if weights.get(name, 0.0) > 0)
    for k in range(last, len(out)):
        out[k] = float("inf")
    return out


def growing_tree_reference(width: int, height: int, weights: dict[str, float], seed: int) -> np.ndarray:
    """Growing Tree as the textbook has it: each step draws a strategy by
    its weight, picks the newest, the oldest, a uniformly random or the
    middle cell of the list of active cells, and carves to one of its
    unvisited neighbours chosen uniformly (adding it to the list), or
    removes the cell from the list when it has none."""
    rng = np.random.RandomState(seed)
    cumulative = textbook_cumulative(weights)
    grid = np.zeros((height, width), np.uint8)
    visited = np.zeros((height, width), bool)
    start = (int(rng.random_sample() * height), int(rng.random_sample() * width))
    visited[start] = True
    active = [start]
    while active:
        u = rng.random_sample()
        name = NAMES[next(k for k, c in enumerate(cumulative) if u < c)]
        drawn = int(rng.random_sample() * len(active)) if name == "random" else 0
        i = PICK[name](len(active), (len(active) + 1) // 2, drawn)
        y, x = active[i]
        options = [
            (ny, nx)
            for ny, nx in ((y - 1, x), (y + 1, x), (y, x - 1), (y, x + 1))
            if 0 <= ny < height and 0 <= nx < width and not visited[ny, nx]
        ]
        if not options:
            active.pop(i)
            continue
        ny, nx = options[int(rng.random_sample() * len(options))]
        if ny == y:
            grid[y, min(x, nx)] |= EAST
        else:
            grid[min(y, ny), x] |= SOUTH
        visited[ny, nx] = True
        active.append((ny, nx))
    return grid


def dead_end_fraction(grid: np.ndarray) -> float:
    h, w = grid.shape
    return sum(len(neighbours(grid, y, x)) == 1 for y in range(h) for x in range(w)) / (h * w)


# ---------------------------------------------------------------------------
# The documented Growing Tree streams, written the plain way (a Python list of
# active cells, list.pop for removals; mixes with "random" keep the list in two
# parts, with tombstones): the fast kernels must give the same mazes, byte for
# byte, for every strategy and every mix.
# ---------------------------------------------------------------------------

PRIM_LAG = 24  # random alone: a random pick is drawn this many steps before it is made
# (the first PRIM_LAG at the pick)
BATCH = 32  # mixes with random picks: the steps run in batches of this many; a random pick is
# drawn when the batch two before its own starts


def _draw(key: int, i: int) -> int:
    return mix64((key + i * GOLDEN) & MASK64)


def _below(bits32: int, n: int) -> int:
    """floor(bits32 / 2**32 * n) for a 32-bit number."""
    return (bits32 * n) >> 32


def growing_tree_exact(width: int, height: int, weights: dict[str, float], seed: int) -> np.ndarray:
    key = seed_key(seed)
    grid = np.zeros((height, width), np.uint8)
    visited = np.zeros((height, width), bool)
    s = _below(_draw(key, 0) >> 32, width * height)  # draw 0 places the first cell
    start = (s // width, s % width)
    visited[start] = True

    def unvisited(cell):  # north, south, west, east
        y, x = cell
        out = []
        for ny, nx in ((y - 1, x), (y + 1, x), (y, x - 1), (y, x + 1)):
            if 0 <= ny < height and 0 <= nx < width and not visited[ny, nx]:
                out.append((ny, nx))
        return out

    def carve(a, b):
        (y0, x0), (y1, _) = sorted([a, b])
        grid[y0, x0] |= EAST if y0 == y1 else SOUTH
        visited[b] = True

    if weights == {"oldest": 1.0}:
        # a cell at a time: it carves to all its unvisited neighbours, in the
        # order of the permutation of (north, south, west, east) its draw picks
        orders = list(itertools.permutations(range(4)))
        queue = deque([start])
        i = 1
        while queue:
            cell = queue.popleft()
            order = orders[_below(_draw(key, i) >> 32, 24)]
            i += 1
            y, x = cell
            around = [(y - 1, x), (y + 1, x), (y, x - 1), (y, x + 1)]
            free = unvisited(cell)
            for d in order:
                if around[d] in free:
                    carve(cell, around[d])
                    queue.append(around[d])
        return grid

    if weights == {"random": 1.0}:
        # a dense list: a removed cell's slot takes the last cell.  The pick of
        # step s is drawn at step s - PRIM_LAG, uniform over the list's length
        # then plus PRIM_LAG (the most it can grow meanwhile); at the pick, a
        # rank past the list's end is rejected, and the pick is drawn again
        # from the low 32 bits of the step's own draw, uniform over the list
        # as it is.  So the pick is uniform over the list at the pick.  (The
        # first PRIM_LAG picks: from the high 32 bits of their draw, at the pick.)
        active = [start]
        ranks = {}
        step = 0
        while active:
            later = _draw(key, step + PRIM_LAG + 1) >> 32
            ranks[step + PRIM_LAG] = later * (len(active) + PRIM_LAG)
            bits = _draw(key, step + 1)
            product = ranks.pop(step, (bits >> 32) * len(active))
            if product >> 32 >= len(active):
                product = (bits & 0xFFFFFFFF) * len(active)
            j = product >> 32
            choice = product & 0xFFFFFFFF
            step += 1
            cell = active[j]
            free = unvisited(cell)
            if free:
                n = free[_below(choice, len(free))]
                carve(cell, n)
                active.append(n)
            else:
                active[j] = active[-1]
                active.pop()
        return grid

    thresholds = np.minimum(np.round(np.cumsum([weights.get(n, 0.0) for n in NAMES]) * 2**32), 2**32)
    thresholds[-1] = 2**32

    def strategy_of(bits: int) -> str:
        return NAMES[int(np.searchsorted(thresholds, bits & 0xFFFFFFFF, side="right"))]

    if "random" in weights:
        return _mix_with_random(key, start, weights, strategy_of, unvisited, carve, grid)
    active = [start]
    step = 1
    while active:
        bits = _draw(key, step)
        step += 1
        strategy = strategy_of(bits)
        i = PICK[strategy](len(active), (len(active) + 1) // 2, 0)  # never random here
        cell = active[i]
        free = unvisited(cell)
        if free:
            n = free[_below(bits >> 32, len(free))]
            carve(cell, n)
            active.append(n)
        else:
            active.pop(i)
    return grid


def _mix_with_random(key, start, weights, strategy_of, unvisited, carve, grid) -> np.ndarray:
    """A mix with random picks.  The list is ``left + right`` (the newest
    cell is the last of ``right``, or of ``left`` while ``right`` is empty;
    the oldest the first of ``left``, or of ``right``; the middle the last of
    ``left``, the two parts holding as many live cells, or ``left`` one more,
    when the mix has "middle"; new cells join ``right``), tombstones (None)
    included.

    The steps run in batches of BATCH.  When a batch starts, each random
    pick of the batch two on gets a rank uniform over the list's length then
    plus the number of steps until the pick (the most the list can grow
    meanwhile); in the first two batches the rank is drawn at the pick,
    over the list as it is.  At the pick, a rank past the list's end, or one
    that lands on a tombstone, is drawn again, from ``redraw = mix64(redraw)``
    (starting from the step's draw), uniform over the list as it is, until
    it lands on a cell.  A newest, oldest or middle pick that finds a
    tombstone removes it and picks again in the same step.  So each step
    picks as the textbook does among the cells still active.

    A cell found with no unvisited neighbour, or a tombstone, leaves the
    list if it ends a part; a cell inside a part becomes a tombstone; when
    tombstones outnumber an eighth of the live cells by more than 64 (so
    that few random picks land on one), they are swept out
    (everything then in ``left``)."""
    left: list = [start]
    right: list = []
    live, dead = 1, 0
    ranks = {}
    step = 0
    middle = "middle" in weights

    def balance():  # keep (live cells of left) - (live cells of right) in {0, 1}
        while True:
            in_left = sum(c is not None for c in left)
            in_right = sum(c is not None for c in right)
            if in_left > in_right + 1:
                right.insert(0, left.pop())
            elif in_right > in_left:
                left.append(right.pop(0))
            else:
                return

    while live > 0:
        if step % BATCH == 0:
            size = len(left) + len(right)
            for ahead in range(2 * BATCH, 3 * BATCH):
                later = _draw(key, step + ahead + 1)
                if strategy_of(later) == "random":
                    ranks[step + ahead] = (later >> 32) * (size + ahead)
        bits = _draw(key, step + 1)
        strategy = strategy_of(bits)
        product = ranks.pop(step, (bits >> 32) * (len(left) + len(right)))  # the first two batches
        step += 1
        choice = bits >> 32
        redraw = bits
        while True:  # until the pick lands on a cell
            size = len(left) + len(right)
            if strategy == "random":
                if product >> 32 >= size:
                    redraw = mix64(redraw)
                    product = (redraw >> 32) * size
                    continue
                choice = product & 0xFFFFFFFF
            k = PICK[strategy](size, len(left), product >> 32)
            part, i = (left, k) if k < len(left) else (right, k - len(left))
            if part[i] is not None:
                break
            if i in (0, len(part) - 1):  # a tombstone that ends its part goes
                part.pop(i)
                dead -= 1
                if middle:
                    balance()
            elif strategy != "random":
                raise AssertionError(f"a {strategy} pick inside a part would find the same tombstone again")
            if strategy == "random":
                redraw = mix64(redraw)
                product = (redraw >> 32) * (len(left) + len(right))
        cell = part[i]
        if free := unvisited(cell):
            n = free[_below(choice, len(free))]
            carve(cell, n)
            right.append(n)
            live += 1
        else:
            live -= 1
            if i in (0, len(part) - 1):
                part.pop(i)
            else:
                part[i] = None
                dead += 1
                if dead > live // 8 + 64:
                    left = [c for c in left + right if c is not None]
                    right = []
                    dead = 0
        if middle:
            balance()
    return grid


# ---------------------------------------------------------------------------
# The reference banded maze: bands of Eller rows written the plain way (set
# labels), meeting at the doors of each seam.  Its own keys and door rule;
# the fast kernels must give the same rows, byte for byte.
# ---------------------------------------------------------------------------

BAND_SALT = 0x62616E64
SEAM_SALT = 0x7365616D
FIRST_JOIN = 0.8  # a band's row 0 joins with probability FIRST_JOIN * horizontal
FIRST_OPEN = 0.6  # ... and opens with FIRST_OPEN * vertical


def _salted_key(key: int, index: int, salt: int) -> int:
    return mix64(key ^ mix64(((index % 2**64) * GOLDEN + salt) & MASK64))


def seam_doors_reference(width: int, key: int, seam: int, doors: float) -> list[bool]:
    """Door columns of seam ``seam``: each with probability ``doors``; with
    none, the draw of number ``width`` picks one."""
    skey = _salted_key(key, seam, SEAM_SALT)
    below = round(doors * 2**32)
    out = [(mix64((skey + x * GOLDEN) & MASK64) & 0xFFFFFFFF) < below for x in range(width)]
    if not any(out):
        out[((mix64((skey + width * GOLDEN) & MASK64) & 0xFFFFFFFF) * width) >> 32] = True
    return out


def last_row_reference(label: list[int], door: list[bool]) -> np.ndarray:
    """A band's last row from the sets of its cells (``label``: a set per
    cell) and the door columns: join side-by-side cells of different sets
    unless both sets hold a door column, and open downward at exactly the
    doors."""
    width = len(label)
    label = list(label)
    row = np.zeros(width, np.uint8)
    holds: dict[int, bool] = {}
    for x in range(width):
        holds[label[x]] = holds.get(label[x], False) or bool(door[x])
    for x in range(width - 1):
        a, b = label[x], label[x + 1]
        if a != b and not (holds[a] and holds[b]):
            row[x] |= EAST
            label = [a if v == b else v for v in label]
            holds[a] = holds[a] or holds[b]
    for x in range(width):
        if door[x]:
            row[x] |= SOUTH
    return row


def band_reference(
    width: int,
    band_height: int,
    seed: int,
    band: int,
    horizontal: float,
    vertical: float,
    doors: float,
    loops: float = 0.0,
    doors_above: float | None = None,
    rooms: float = 0.0,
) -> np.ndarray:
    """The ``(band_height, width)`` rows of band ``band``.

    Rows ``0 .. K-3``: Eller from sets of one cell (see eller_reference),
    row 0 with the probabilities scaled by FIRST_JOIN and FIRST_OPEN.
    Row ``K-2``: Eller, but a cell in a door column of seam ``band + 1``
    closes when its set already opened in one.  Row ``K-1``: join
    side-by-side cells of different sets unless both sets hold a door
    column, and open downward at exactly the doors."""
    key = seed_key(seed)
    bkey = _salted_key(key, band, BAND_SALT)
    door = seam_doors_reference(width, key, band + 1, doors)
    room_of = {}  # (y, x) -> (room number, its top row)
    for i, (top, left, h, w) in enumerate(rooms_reference(width, band_height, seed, band, rooms)):
        for yy in range(top, top + h):
            for xx in range(left, left + w):
                room_of[yy, xx] = (i, top)

    def same_room(a: tuple[int, int], b: tuple[int, int]) -> bool:
        return a in room_of and b in room_of and room_of[a][0] == room_of[b][0]

    def room_top(y: int, x: int) -> bool:
        return (y, x) in room_of and room_of[y, x][1] == y

    label = list(range(width))
    grid = np.zeros((band_height, width), np.uint8)
    for y in range(band_height):
        bits = [mix64((bkey + (y * width + x) * GOLDEN) & MASK64) for x in range(width)]
        join_below = round(horizontal * (FIRST_JOIN if y == 0 else 1.0) * 2**32)
        open_below = round(vertical * (FIRST_OPEN if y == 0 else 1.0) * 2**32)
        if y == band_height - 1:
            grid[y] = last_row_reference(label, door)
            if loops > 0:
                grid = braid_reference(grid, seed, band, loops, doors if doors_above is None else doors_above)
            break
        # a room's top row: its walls open first, joining different sets
        for x in range(width - 1):
            if room_top(y, x) and same_room((y, x), (y, x + 1)):
                assert label[x] != label[x + 1], "a room's top row entered twice by one set"
                grid[y, x] |= EAST
                old = label[x + 1]
                label = [label[x] if v == old else v for v in label]
        for x in range(width - 1):
            if same_room((y, x), (y, x + 1)):
                grid[y, x] |= EAST  # inside a room (its lower rows: one set already)
                continue
            if label[x] != label[x + 1] and (bits[x] & 0xFFFFFFFF) < join_below:
                grid[y, x] |= EAST
                old = label[x + 1]
                label = [label[x] if v == old else v for v in label]
        penultimate = y == band_height - 2
        opened_sets: set[int] = set()
        door_sets: set[int] = set()
        for x in range(width):
            has_later = any(label[z] == label[x] for z in range(x + 1, width))
            can_close = has_later or label[x] in opened_sets
            if penultimate and door[x] and label[x] in door_sets:
                continue  # the set already goes down through a door
            if room_top(y + 1, x) and can_close:
                continue  # above a room's top row: a set enters it only as its last way down
            if not same_room((y, x), (y + 1, x)) and can_close and (bits[x] >> 32) >= open_below:
                continue
            grid[y, x] |= SOUTH
            opened_sets.add(label[x])
            if penultimate and door[x]:
                door_sets.add(label[x])
        fresh = max(label) + 1
        new = []
        for x in range(width):
            if grid[y, x] & SOUTH:
                new.append(label[x])
            else:
                new.append(fresh)
                fresh += 1
        label = new
    return grid


def banded_reference(
    width: int,
    band_height: int,
    seed: int,
    start: int,
    stop: int,
    horizontal: float = 0.5,
    vertical: float = 0.5,
    doors: float = 0.45,
    loops: float = 0.0,
    schedule: dict[int, dict[str, float]] | None = None,
    rooms: float = 0.0,
) -> np.ndarray:
    """Rows ``start .. stop - 1`` of the banded maze, band by band (with
    ``schedule``: keyframes as :func:`schedule_params` reads them)."""
    own = {"horizontal": horizontal, "vertical": vertical, "doors": doors, "loops": loops, "rooms": rooms}

    def params(b: int) -> dict[str, float]:
        return own if schedule is None else schedule_params(schedule, own, b)

    bands = [
        band_reference(width, band_height, seed, b, **params(b), doors_above=params(b - 1)["doors"])
        for b in range(start // band_height, (stop - 1) // band_height + 1)
    ]
    first = (start // band_height) * band_height
    return np.concatenate(bands)[start - first : stop - first]


def reaches_next_row(grid: np.ndarray, r: int, above: int) -> bool:
    """Does every cell of row ``r`` reach row ``r + 1`` by a path that stays
    in rows ``r - above .. r`` until it steps down?  (Breadth-first search
    from the row's cells that open downward.)"""
    w = grid.shape[1]
    top = r - above
    seen = {(r, x) for x in range(w) if grid[r, x] & SOUTH}
    queue = deque(seen)
    while queue:
        y, x = queue.popleft()
        for ny, nx in neighbours(grid, y, x):
            if top <= ny <= r and (ny, nx) not in seen:
                seen.add((ny, nx))
                queue.append((ny, nx))
    return all((r, x) in seen for x in range(w))


def detour_reference(grid: np.ndarray) -> list[int]:
    """For each row but the last, the fewest rows above it that every one of
    its cells needs to reach the next row (-1: not even with all of them)."""
    out = []
    for r in range(grid.shape[0] - 1):
        k = 0
        while k <= r and not reaches_next_row(grid, r, k):
            k += 1
        out.append(k if k <= r else -1)
    return out


# ---------------------------------------------------------------------------
# Loops (the braid) and schedules, the plain way.
# ---------------------------------------------------------------------------

LOOP_SALT = 0x6C6F6F70  # "loop"
STEPS = ((-1, 0), (1, 0), (0, -1), (0, 1))  # north, south, west, east


def braid_reference(grid: np.ndarray, seed: int, band: int, loops: float, doors_above: float) -> np.ndarray:
    """Band ``band``'s rows ``grid`` (the whole band) with its loops opened.

    Row-major, each cell that is a dead end then (exactly one open side,
    north of the first row: the doors of seam ``band``) draws ``bits =
    mix64(lkey + (y*width + x)*GOLDEN)``; when the low 32 bits are below
    ``loops * 2**32`` it opens its wall to a neighbour inside the band, a
    dead end if one is, else any: number ``(high 32 bits * n) >> 32`` of
    the ``n`` candidates in the order north, south, west, east."""
    g = grid.copy()
    k, width = g.shape
    key = seed_key(seed)
    lkey = _salted_key(key, band, LOOP_SALT)
    door = seam_doors_reference(width, key, band, doors_above)
    below = round(loops * 2**32)

    def is_open(y: int, x: int, d: int) -> bool:
        if d == 0:
            return bool(g[y - 1, x] & SOUTH) if y > 0 else door[x]
        if d == 1:
            return bool(g[y, x] & SOUTH)
        if d == 2:
            return x > 0 and bool(g[y, x - 1] & EAST)
        return bool(g[y, x] & EAST)

    def sides(y: int, x: int) -> int:
        return sum(is_open(y, x, d) for d in range(4))

    for y in range(k):
        for x in range(width):
            if sides(y, x) != 1:
                continue
            bits = mix64((lkey + (y * width + x) * GOLDEN) & MASK64)
            if (bits & 0xFFFFFFFF) >= below:
                continue
            inside = [d for d, (dy, dx) in enumerate(STEPS) if 0 <= y + dy < k and 0 <= x + dx < width]
            candidates = [d for d in inside if not is_open(y, x, d)]
            dead = [d for d in candidates if sides(y + STEPS[d][0], x + STEPS[d][1]) == 1]
            pool = dead or candidates
            if not pool:
                continue
            d = pool[((bits >> 32) * len(pool)) >> 32]
            if d == 0:
                g[y - 1, x] |= SOUTH
            elif d == 1:
                g[y, x] |= SOUTH
            elif d == 2:
                g[y, x - 1] |= EAST
            else:
                g[y, x] |= EAST
    return g


def schedule_params(
    keyframes: dict[int, dict[str, float]], own: dict[str, float], band: int
) -> dict[str, float]:
    """Band ``band``'s parameters: each keyframe's value (``own``'s where it
    has none), linear between keyframes (``a + (b - a) * t``, clipped to
    [min(a, b), max(a, b)], in floats), held before the first and after the
    last."""
    keys = sorted(keyframes)
    out = {}
    for name in own:
        values = [float(keyframes[k].get(name, own[name])) for k in keys]
        if band <= keys[0]:
            out[name] = values[0]
        elif band >= keys[-1]:
            out[name] = values[-1]
        else:
            i = max(i for i, key in enumerate(keys) if key <= band)
            t = float(band - keys[i]) / float(keys[i + 1] - keys[i])
            a, b = values[i], values[i + 1]
            out[name] = min(max(a + (b - a) * t, min(a, b)), max(a, b))
    return out


def loop_count(grid: np.ndarray) -> int:
    """Independent loops of a grid: passages - cells + components (BFS)."""
    h, w = grid.shape
    components = len(np.unique(component_labels(grid)))
    return len([e for e in edges(grid) if e[1][0] < h and e[1][1] < w]) - h * w + components


ROOM_SALT = 0x726F6F6D  # "room"


def rooms_reference(
    width: int, band_height: int, seed: int, band: int, rooms: float
) -> list[tuple[int, ...]]:
    """Band ``band``'s rooms as (top row in the band, left column, height,
    width), in the order placed: attempt ``i`` (at most ``16 + T // 5`` for
    a target of ``T = band cells * round(rooms * 2**32) >> 32`` cells) draws
    number ``2i`` for the size (height 2 .. min(6, K - 2) from the low 32
    bits, width 2 .. min(8, width) from the high 32, by multiply-shift) and
    ``2i + 1`` for the place in rows 0 .. K-3 (low: top, high: left); a room
    that meets or touches an earlier one (corners too) is left out; placing
    stops once the rooms hold ``T`` cells."""
    rows = band_height - 2
    target = (band_height * width * round(rooms * 2**32)) >> 32
    if rows < 2 or width < 2 or target == 0:
        return []
    rkey = _salted_key(seed_key(seed), band, ROOM_SALT)
    hmax, wmax = min(rows, 6), min(width, 8)
    placed: list[tuple[int, ...]] = []
    total = 0
    for i in range(16 + target // 5):
        size = mix64((rkey + 2 * i * GOLDEN) & MASK64)
        place = mix64((rkey + (2 * i + 1) * GOLDEN) & MASK64)
        h = 2 + (((size & 0xFFFFFFFF) * (hmax - 1)) >> 32)
        w = 2 + (((size >> 32) * (wmax - 1)) >> 32)
        top = ((place & 0xFFFFFFFF) * (rows - h + 1)) >> 32
        left = ((place >> 32) * (width - w + 1)) >> 32
        apart = [top + h < t or t + hh < top or left + w < lc or lc + ww < left for t, lc, hh, ww in placed]
        if not all(apart):
            continue
        placed.append((top, left, h, w))
        total += h * w
        if total >= target:
            break
    return placed


def contracted_problems(grid: np.ndarray, rects: list[tuple[int, ...]]) -> list[str]:
    """What keeps ``grid`` from being a tree once each room (``(top, left,
    height, width)`` in the grid's rows, cut to them) is one node: every
    wall inside a room must be open, and the passages between places must
    form a spanning tree of the places (union-find)."""
    h, w = grid.shape
    node = {(y, x): y * w + x for y in range(h) for x in range(w)}
    problems = []
    for top, left, rh, rw in rects:
        cells = [(y, x) for y in range(max(top, 0), min(top + rh, h)) for x in range(left, left + rw)]
        for y, x in cells:
            node[y, x] = node[cells[0]]
            if x + 1 < left + rw and not grid[y, x] & EAST:
                problems.append(f"closed wall east of {(y, x)} in a room")
            if y + 1 < min(top + rh, h) and not grid[y, x] & SOUTH:
                problems.append(f"closed wall south of {(y, x)} in a room")
    parent = {n: n for n in set(node.values())}

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    n = 0
    for a, b in edges(grid):
        if b[0] >= h or b[1] >= w:
            problems.append(f"passage out of the grid at {a}")
            continue
        if node[a] == node[b]:
            continue  # inside a room
        ra, rb = find(node[a]), find(node[b])
        if ra == rb:
            problems.append(f"loop closed by {a}-{b}")
        parent[ra] = rb
        n += 1
    if n != len(parent) - 1:
        problems.append(f"{n} passages between {len(parent)} places, a spanning tree has {len(parent) - 1}")
    return problems


def bfs_distances_reference(grid: np.ndarray, start: tuple[int, int]) -> np.ndarray:
    """Steps from ``start`` to every cell by plain breadth-first search over
    :func:`neighbours`' rule (passages out of the grid are not followed);
    -1 where it does not reach. It reads the grid as Python lists: the
    same search, a quarter of the time of numpy's cell-by-cell indexing
    (the game's tests run it after every step)."""
    h, w = grid.shape
    cells = grid.tolist()
    dist = [[-1] * w for _ in range(h)]
    dist[start[0]][start[1]] = 0
    queue = deque([(int(start[0]), int(start[1]))])
    while queue:
        y, x = queue.popleft()
        v, near = cells[y][x], []
        if v & EAST and x + 1 < w:
            near.append((y, x + 1))
        if v & SOUTH and y + 1 < h:
            near.append((y + 1, x))
        if x > 0 and cells[y][x - 1] & EAST:
            near.append((y, x - 1))
        if y > 0 and cells[y - 1][x] & SOUTH:
            near.append((y - 1, x))
        for ny, nx in near:
            if dist[ny][nx] < 0:
                dist[ny][nx] = dist[y][x] + 1
                queue.append((ny, nx))
    return np.array(dist, np.int64).reshape(h, w)


CONTENT_SALT = 0x636F6E74656E74


def cell_random_reference(seed: int, row: int, column: int, salt: int) -> float:
    """The number ``maze.random`` gives cell ``(row, column)``, in Python ints:
    53 bits of a SplitMix64 chain over (key, salt, row, column)."""
    k = mix64(seed_key(seed) ^ mix64((salt * GOLDEN + CONTENT_SALT) & MASK64))
    row_key = mix64(mix64(((row % 2**64) * GOLDEN + CONTENT_SALT) & MASK64) ^ k)
    return (mix64((row_key + column * GOLDEN) & MASK64) >> 11) / 2**53


def lasting_reference(grid: np.ndarray, top: int, player: tuple[int, int], within: int) -> np.ndarray:
    """The cells of ``grid`` (rows ``top`` .. of a maze whose rows are
    ``[-2**63, 2**63)``) where an item stays reachable from ``player`` (an
    index into ``grid``), by the rule of ``Window.lasting``, cell by cell:
    within ``within`` rows of the player, every existing row within
    ``within`` of the cell kept, and reached from the player by breadth-first
    search over those rows alone."""
    h, w = grid.shape
    out = np.zeros((h, w), bool)
    for y in range(h):
        if abs(y - player[0]) > within:
            continue
        first, last = max(top + y - within, -(2**63)), min(top + y + within, 2**63 - 1)
        if first < top or last > top + h - 1:
            continue
        block = grid[first - top : last - top + 1]
        dist = bfs_distances_reference(block, (player[0] - (first - top), player[1]))
        out[y] = dist[y - (first - top)] >= 0
    return out
