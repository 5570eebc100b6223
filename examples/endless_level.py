"""An endless maze level that scrolls as a player walks it, up or down (pygame).

The level is an ``es.InfiniteMaze`` seen through an ``es.Window``: every row
comes from (seed, row) alone, so the window keeps only the rows around the
player, makes again any row it needs, and lets the player walk down and
back up without limit.  The screen shows the VIEW rows above and below the
player; the window keeps twice as many each way (and at least ``band - 1``
above: the banded maze guarantees that every cell reaches the next row
inside them, so the autoplay player never gets stranded).

The level gets harder as the player goes down: an ``es.Schedule`` from band
0 to band 50 takes the loops from 0.6 to 0 (no shortcuts: more dead ends,
one way on) and the rooms (open places to rest in, ``rooms=``) from 0.25 to
0.05, and lengthens the corridors (``horizontal`` 0.5 -> 0.7).  Coins lie
where ``maze.random`` says, on the cells ``win.lasting`` marks: a coin that
shows stays reachable until it leaves the screen.  The fog of war is the
window's (``win.explore``: what the player's light reaches through the
corridors).  ``--plain`` plays the same screen on a plain ``EllerStream``
instead, keeping ``band - 1`` rows above, to show the player getting
stranded there.

    python examples/endless_level.py                 # a window: arrows move, A autoplay, S saves, Esc quits
    python examples/endless_level.py --resume level.json
    SDL_VIDEODRIVER=dummy python examples/endless_level.py --frames 3000 --screenshot shot.png

With --frames the player walks by itself (autoplay) and the program stops
after that many frames, printing a JSON summary on stdout.  Nothing is
written unless asked (S or --save).
"""

from __future__ import annotations

import os
import signal
import sys

# Ctrl-C ends the program quietly at any moment: before the game runs (the
# imports take a while) at once, then at the end of the frame.
INTERRUPT = {"playing": False, "hit": False}


def _on_interrupt(signum, frame) -> None:
    if not INTERRUPT["playing"]:
        os._exit(130)
    INTERRUPT["hit"] = True


signal.signal(signal.SIGINT, _on_interrupt)

import argparse  # noqa: E402
import hashlib  # noqa: E402
import itertools  # noqa: E402
import json  # noqa: E402

import numpy as np  # noqa: E402

import eller_stream as es  # noqa: E402

VIEW = 16  # maze rows shown above and below the player
TILE = 8  # pixels per tile
LIGHT = 8  # how far the player's light goes through the corridors, in steps
COIN_SALT = 1  # maze.random's salt for the coins
COIN_SHARE = 0.03  # about this share of cells has a coin
COLOURS = {
    "wall": (30, 32, 44),
    "floor": (226, 221, 205),
    "fog": (70, 72, 84),
    "plan": (240, 190, 120),
    "coin": (230, 180, 30),
    "player": (210, 40, 40),
}
# Harder on the way down: fewer loops (more dead ends), fewer rooms, longer corridors.
SCHEDULE = {0: {"loops": 0.6, "horizontal": 0.5}, 50: {"loops": 0.0, "rooms": 0.05, "horizontal": 0.7}}


def make_maze(width: int, band: int, seed: int) -> es.InfiniteMaze:
    """The level's maze: rooms, and the schedule that makes it harder below."""
    return es.InfiniteMaze(width, band=band, seed=seed, rooms=0.25, schedule=es.Schedule(SCHEDULE))


def make_window(maze: es.InfiniteMaze, row: int) -> es.Window:
    """The rows kept: 2 * VIEW each way (what ``win.lasting(cell, VIEW)`` needs to hold
    every cell on screen), and ``band - 1`` above at least (what the guarantee needs)."""
    return es.Window(maze, row=row, above=max(2 * VIEW, maze.band - 1), below=2 * VIEW)


class StreamWindow:
    """What the game uses of ``es.Window``, over a plain ``EllerStream`` (no coins, no
    fog): rows only come forward, and a row dropped is gone (so a player whose only way
    down climbs above the rows kept is stranded)."""

    def __init__(self, stream: es.EllerStream, row: int, above: int, below: int) -> None:
        self.stream, self.above, self.below = stream, above, below
        self.top = row
        self.rows = np.empty((0, stream.width), np.uint8)
        self.rows_made = 0
        self.move_to(row)

    @property
    def bottom(self) -> int:
        return self.top + len(self.rows)

    def move_to(self, row: int) -> None:
        self.row = row
        drop = max(0, row - self.above - self.top)
        self.rows, self.top = self.rows[drop:], self.top + drop
        more = row + self.below + 1 - self.bottom
        if more > 0:
            self.rows = np.vstack([self.rows, self.stream.take(more)])
            self.rows_made += more

    def step(self, cell: tuple[int, int], direction: str) -> tuple[int, int] | None:
        (y, x), (dy, dx) = (cell[0] - self.top, cell[1]), es.DIRECTIONS[direction]
        if not (0 <= y + dy < len(self.rows) and 0 <= x + dx < self.rows.shape[1]):
            return None
        wall = self.rows[min(y, y + dy), x] & es.SOUTH if dy else self.rows[y, min(x, x + dx)] & es.EAST
        return (cell[0] + dy, cell[1] + dx) if wall else None

    def distances(self, cell: tuple[int, int]) -> np.ndarray:
        return es.distances(self.rows, (cell[0] - self.top, cell[1]))

    def path(self, a: tuple[int, int], b: tuple[int, int]) -> np.ndarray:
        path = es.solve(self.rows, (a[0] - self.top, a[1]), (b[0] - self.top, b[1]))
        path[:, 0] += self.top
        return path

    def tiles(self) -> np.ndarray:
        return es.tiles(self.rows, top=False)

    def tile_of(self, cell: tuple[int, int]) -> tuple[int, int]:
        return 2 * (cell[0] - self.top), 2 * cell[1] + 1


class Player:
    """The player (an absolute cell), its planned path and what it has met;
    the rows are the window's."""

    def __init__(self, win, column: int, coins: int = 0) -> None:
        self.win = win
        self.cell = (win.row, column)
        self.plan: list[tuple[int, int]] = []
        self.stuck = 0  # autoplay steps that found no way down
        self.coins = coins
        self.taken: set[tuple[int, int]] = set()
        self.on_screen: set[tuple[int, int]] = set()  # the coins on screen, as coins() finds them
        self.most_rows = win.bottom - win.top
        self.look()

    def move(self, direction: str) -> bool:
        """One step, if the wall is open; the window follows the player."""
        there = self.win.step(self.cell, direction)
        if there is None:
            return False
        self.cell = there
        self.plan = [c for c in self.plan if c != self.cell]
        self.win.move_to(self.cell[0])
        self.most_rows = max(self.most_rows, self.win.bottom - self.win.top)
        self.look()
        if self.cell in self.on_screen:
            self.taken.add(self.cell)
            self.on_screen.remove(self.cell)
            self.coins += 1
        return True

    def look(self) -> None:
        """Lift the fog around the player and find the coins on screen (neither on a
        plain stream)."""
        if isinstance(self.win, es.Window):
            self.win.explore(self.cell, LIGHT)
            self.on_screen = coins(self)

    def autoplay(self) -> None:
        """One step along a shortest path to the deepest cell the player can
        reach inside the rows kept (planned again when the plan runs out)."""
        if not self.plan:
            distance = self.win.distances(self.cell)
            deepest = int(np.nonzero((distance >= 0).any(axis=1))[0].max())
            if deepest + self.win.top <= self.cell[0]:
                self.stuck += 1
                return
            column = int(np.argmax(distance[deepest] >= 0))
            path = self.win.path(self.cell, (deepest + self.win.top, column))
            self.plan = [(int(y), int(x)) for y, x in path[1:]]
        y, x = self.plan[0]
        step = (y - self.cell[0], x - self.cell[1])
        self.move(next(name for name, move in es.DIRECTIONS.items() if move == step))


def coins(player: Player) -> set[tuple[int, int]]:
    """The coins on screen: cells whose seeded number (``maze.random``) is below
    COIN_SHARE, that ``win.lasting`` marks for the player (so each stays reachable
    while it is on screen) and that have not been taken (none on a plain stream)."""
    win = player.win
    if not isinstance(win, es.Window):
        return set()
    numbers = win.maze.random(win.top, win.bottom, salt=COIN_SALT)
    ys, xs = np.nonzero((numbers < COIN_SHARE) & win.lasting(player.cell, VIEW))
    return {(win.top + int(y), int(x)) for y, x in zip(ys, xs, strict=True)} - player.taken


def shown(player: Player) -> set[tuple[int, int]]:
    """The coins drawn: those on screen out of the fog."""
    return {cell for cell in player.on_screen if lit_cell(player.win, cell)}


def save(player: Player, path: str) -> None:
    """The window (its maze, rows and fog: ``win.to_json()``), the player's column
    and coins, atomically."""
    state = {"window": json.loads(player.win.to_json()), "column": player.cell[1], "coins": player.coins}
    with open(path + ".part", "w") as f:
        json.dump(state, f)
    os.replace(path + ".part", path)


def load(path: str) -> Player:
    with open(path) as f:
        state = json.load(f)
    return Player(es.Window.from_json(json.dumps(state["window"])), state["column"], state["coins"])


def lit_cell(win, cell: tuple[int, int]) -> bool:
    """Whether the fog leaves ``cell`` (all of a plain stream's cells)."""
    return not isinstance(win, es.Window) or bool(win.explored[win.index(cell)])


def lit(win) -> np.ndarray:
    """The tiles the fog leaves: those of an explored cell and its walls."""
    if not isinstance(win, es.Window):
        return np.ones(win.tiles().shape, bool)
    cells = np.repeat(win.explored, 2, axis=0)  # a cell's tile row and the wall row below it
    out = np.zeros((cells.shape[0], 2 * cells.shape[1] + 1), bool)
    out[:, 1::2] = cells
    out[:, 0:-1:2] |= cells  # the wall west of a cell
    out[:, 2::2] |= cells  # and east of it
    return out


def draw(screen, player: Player) -> None:
    import pygame

    win, (row, _) = player.win, player.cell
    image = np.empty((2 * (2 * VIEW + 1), 2 * win.rows.shape[1] + 1, 3), np.uint8)
    image[:] = COLOURS["fog"]
    first, last = max(row - VIEW, win.top), min(row + VIEW, win.bottom - 1)  # the rows on screen
    t0, t1 = win.tile_of((first, 0))[0], win.tile_of((last, 0))[0] + 2
    shift = 2 * (first - (row - VIEW)) - t0  # screen tile row = window tile row + shift
    tiles = win.tiles()[t0:t1]  # the window's top edge is open: the maze goes on above
    block = image[t0 + shift : t1 + shift]
    block[:] = np.where(tiles[..., None], COLOURS["wall"], COLOURS["floor"])
    block[~lit(win)[t0:t1]] = COLOURS["fog"]

    def paint(cell: tuple[int, int], colour: str, dy: int = 0, dx: int = 0) -> None:
        ty, tx = win.tile_of(cell)
        image[ty + dy + shift, tx + dx] = COLOURS[colour]

    for cell in shown(player):
        paint(cell, "coin")
    trail = [player.cell, *player.plan]
    for (y0, x0), (y1, x1) in itertools.pairwise(trail):  # the planned cells and the passages between
        if abs(y1 - row) > VIEW or not win.top <= y1 < win.bottom or not lit_cell(win, (y1, x1)):
            break  # the plan goes on off the screen, or into the fog
        paint((y1, x1), "plan")
        paint((y1, x1), "plan", y0 - y1, x0 - x1)
    paint(player.cell, "player")
    big = np.repeat(np.repeat(image, TILE, axis=0), TILE, axis=1)
    surface = pygame.surfarray.make_surface(big.transpose(1, 0, 2))
    screen.fill(COLOURS["wall"])
    screen.blit(surface, (0, 0))
    pygame.display.flip()


def play(args: argparse.Namespace) -> int:
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame

    if args.resume:
        player = load(args.resume)
    elif args.plain:
        stream = es.EllerStream(args.width, seed=args.seed)
        player = Player(StreamWindow(stream, 0, above=args.band - 1, below=VIEW), args.width // 2)
    else:
        maze = make_maze(args.width, args.band, args.seed)
        player = Player(make_window(maze, args.start), args.width // 2)
    win = player.win
    start_row = player.cell[0]
    pygame.display.init()  # the display alone: no sound device needed
    width = win.rows.shape[1]
    size = ((2 * width + 1) * TILE, 2 * (2 * VIEW + 1) * TILE)
    screen = pygame.display.set_mode(size)
    pygame.display.set_caption("eller_stream: endless level")
    clock = pygame.time.Clock()
    autoplay = args.frames is not None
    frame = 0
    running = True
    INTERRUPT["playing"] = True
    while running and not INTERRUPT["hit"]:
        for event in pygame.event.get():
            if event.type == pygame.QUIT:
                running = False
            elif event.type == pygame.KEYDOWN:
                keys = {pygame.K_UP: "north", pygame.K_DOWN: "south"}
                keys.update({pygame.K_LEFT: "west", pygame.K_RIGHT: "east"})
                if event.key in keys:
                    player.plan = []
                    player.move(keys[event.key])
                elif event.key == pygame.K_a:
                    autoplay = not autoplay
                elif event.key == pygame.K_s and isinstance(win, es.Window):
                    save(player, args.save or "level.json")
                elif event.key == pygame.K_ESCAPE:
                    running = False
        if autoplay and frame % 2 == 0:
            player.autoplay()
        draw(screen, player)
        frame += 1
        if args.frames is not None and frame >= args.frames:
            running = False
        clock.tick(0 if args.frames is not None else 30)
    if args.screenshot:
        pygame.image.save(screen, args.screenshot)
    if args.save and isinstance(win, es.Window):
        save(player, args.save)
    pygame.quit()
    if args.frames is not None:
        summary = {
            "frames": frame,
            "start_row": start_row,
            "player_row": player.cell[0],
            "stuck": player.stuck,
            "coins": player.coins,
            "rows_generated": win.rows_made,
            "most_rows_kept": player.most_rows,
            "window_top": win.top,
            "window_sha256": hashlib.sha256(np.ascontiguousarray(win.rows).tobytes()).hexdigest(),
            "width": width,
            "seed": args.seed if args.plain else win.maze.seed,
            "band": None if args.plain else win.maze.band,
        }
        print(json.dumps(summary))
    return 130 if INTERRUPT["hit"] else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--width", type=int, default=24, help="maze cells per row (24)")
    parser.add_argument(
        "--band", type=int, default=16, help="rows per band; band - 1 rows at least are kept above (16)"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--start", type=int, default=0, help="the row to start on, any integer (0)")
    parser.add_argument("--plain", action="store_true", help="a plain EllerStream instead (it can strand)")
    parser.add_argument("--resume", help="a level saved with --save or the S key")
    parser.add_argument("--save", help="save the level here at the end (S saves to it, or to level.json)")
    parser.add_argument("--frames", type=int, help="stop after this many frames (autoplay, JSON summary)")
    parser.add_argument("--screenshot", help="save the last frame as a PNG")
    return play(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
