"""An endless maze level that scrolls as a player walks it, up or down (pygame).

The level is an ``es.InfiniteMaze`` seen through an ``es.Window``: every row
comes from (seed, row) alone, so the window keeps only the rows around the
player, makes again any row it needs, and lets the player walk down and
back up without limit.  The window keeps ``band - 1`` rows above the
player (its default): the banded maze guarantees that every cell reaches
the next row inside them, so the autoplay player never gets stranded.

The level gets harder as the player goes down: an ``es.Schedule`` from band
0 to band 50 takes the loops from 0.6 to 0 (no shortcuts: more dead ends,
one way on) and the rooms (open places to rest in, ``rooms=``) from 0.25 to
0.05, and lengthens the corridors (``horizontal`` 0.5 -> 0.7).  Coins lie
where ``maze.random`` says, only on cells the player can reach in the rows
kept (``win.reachable``).  ``--plain`` plays the same window on a plain
``EllerStream`` instead, to show the player getting stranded there.

    python examples/endless_level.py                 # a window: arrows move, A autoplay, S saves, Esc quits
    python examples/endless_level.py --resume level.npz
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

AHEAD = 16  # maze rows kept below the player
TILE = 8  # pixels per tile
COIN_SALT = 1  # maze.random's salt for the coins
COIN_SHARE = 0.03  # about this share of cells has a coin
COLOURS = {
    "wall": (30, 32, 44),
    "floor": (226, 221, 205),
    "plan": (240, 190, 120),
    "coin": (230, 180, 30),
    "player": (210, 40, 40),
}
# Harder on the way down: fewer loops (more dead ends), fewer rooms, longer corridors.
SCHEDULE = {0: {"loops": 0.6, "horizontal": 0.5}, 50: {"loops": 0.0, "rooms": 0.05, "horizontal": 0.7}}
MOVES = {"north": (-1, 0), "south": (1, 0), "west": (0, -1), "east": (0, 1)}


def make_maze(width: int, band: int, seed: int) -> es.InfiniteMaze:
    """The level's maze: rooms, and the schedule that makes it harder below."""
    return es.InfiniteMaze(width, band=band, seed=seed, rooms=0.25, schedule=es.Schedule(SCHEDULE))


class StreamWindow:
    """What the game uses of ``es.Window``, over a plain ``EllerStream``:
    rows only come forward, and a row dropped is gone (so a player whose only
    way down climbs above the rows kept is stranded)."""

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

    def can_move(self, cell: tuple[int, int], direction: str) -> bool:
        (y, x), (dy, dx) = (cell[0] - self.top, cell[1]), MOVES[direction]
        if not (0 <= y + dy < len(self.rows) and 0 <= x + dx < self.rows.shape[1]):
            return False
        if dy:
            return bool(self.rows[min(y, y + dy), x] & es.SOUTH)
        return bool(self.rows[y, min(x, x + dx)] & es.EAST)

    def distances(self, cell: tuple[int, int]) -> np.ndarray:
        return es.distances(self.rows, (cell[0] - self.top, cell[1]))

    def reachable(self, cell: tuple[int, int]) -> np.ndarray:
        return self.distances(cell) >= 0

    def path(self, a: tuple[int, int], b: tuple[int, int]) -> np.ndarray | None:
        try:
            path = es.solve(self.rows, (a[0] - self.top, a[1]), (b[0] - self.top, b[1]))
        except ValueError:  # the rows kept do not connect them
            return None
        path[:, 0] += self.top
        return path

    def tiles(self) -> np.ndarray:
        return es.tiles(self.rows, top=False)


class Player:
    """The player (an absolute cell), its planned path and what it has met;
    the rows are the window's."""

    def __init__(self, win, column: int) -> None:
        self.win = win
        self.cell = (win.row, column)
        self.plan: list[tuple[int, int]] = []
        self.stuck = 0  # autoplay steps that found no way down
        self.coins = 0
        self.taken: set[tuple[int, int]] = set()
        self.most_rows = win.bottom - win.top

    def move(self, direction: str) -> bool:
        """One step, if the wall is open; the window follows the player."""
        if not self.win.can_move(self.cell, direction):
            return False
        dy, dx = MOVES[direction]
        self.cell = (self.cell[0] + dy, self.cell[1] + dx)
        self.plan = [c for c in self.plan if c != self.cell]
        self.win.move_to(self.cell[0])
        self.most_rows = max(self.most_rows, self.win.bottom - self.win.top)
        if self.cell in coins(self.win, self.cell):
            self.taken.add(self.cell)
            self.coins += 1
        return True

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
        self.move(next(name for name, move in MOVES.items() if move == step))


def coins(win, player: tuple[int, int]) -> set[tuple[int, int]]:
    """The coins in the rows kept that the player can reach: cells whose
    seeded number (``maze.random``) is below COIN_SHARE and that
    ``win.reachable`` marks (none on a plain stream)."""
    if not isinstance(win, es.Window):
        return set()
    numbers = win.maze.random(win.top, win.bottom, salt=COIN_SALT)
    ys, xs = np.nonzero((numbers < COIN_SHARE) & win.reachable(player))
    return {(win.top + int(y), int(x)) for y, x in zip(ys, xs, strict=True)}


def save(player: Player, path: str) -> None:
    """The maze's dimensions and seed and the player, atomically (any row can
    be made again, so no row is saved)."""
    m = player.win.maze
    tmp = path + ".part.npz"
    params = np.array([m.width, m.band, m.seed], np.uint64)
    np.savez(tmp, params=params, player=np.array(player.cell, np.int64))
    os.replace(tmp, path)


def load(path: str) -> Player:
    with np.load(path) as data:
        width, band, seed = (int(v) for v in data["params"])
        row, column = (int(p) for p in data["player"])
    return Player(es.Window(make_maze(width, band, seed), row=row, below=AHEAD), column)


def draw(screen, player: Player) -> None:
    import pygame

    win = player.win
    tiles = win.tiles()  # the window's top edge is open: the maze goes on above
    image = np.empty((*tiles.shape, 3), np.uint8)
    image[:] = COLOURS["floor"]
    image[tiles] = COLOURS["wall"]
    for y, x in coins(win, player.cell) - player.taken:
        image[2 * (y - win.top), 2 * x + 1] = COLOURS["coin"]
    trail = [player.cell, *player.plan]
    for (y0, x0), (y1, x1) in itertools.pairwise(trail):  # the planned cells and the passages between
        if not win.top <= y1 < win.bottom:
            break  # the plan goes on below the rows kept
        image[2 * (y1 - win.top), 2 * x1 + 1] = COLOURS["plan"]
        image[y0 + y1 - 2 * win.top, x0 + x1 + 1] = COLOURS["plan"]
    py, px = player.cell
    image[2 * (py - win.top), 2 * px + 1] = COLOURS["player"]
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
        player = Player(StreamWindow(stream, 0, above=args.band - 1, below=AHEAD), args.width // 2)
    else:
        maze = make_maze(args.width, args.band, args.seed)
        player = Player(es.Window(maze, row=args.start, below=AHEAD), args.width // 2)
    win = player.win
    start_row = player.cell[0]
    pygame.display.init()  # the display alone: no sound device needed
    width = win.rows.shape[1]
    size = ((2 * width + 1) * TILE, 2 * (win.above + AHEAD + 1) * TILE)
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
                    save(player, args.save or "level.npz")
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
        "--band", type=int, default=16, help="rows per band; band - 1 rows are kept above (16)"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--start", type=int, default=0, help="the row to start on, any integer (0)")
    parser.add_argument("--plain", action="store_true", help="a plain EllerStream instead (it can strand)")
    parser.add_argument("--resume", help="a level saved with --save or the S key")
    parser.add_argument("--save", help="save the level here at the end (S saves to it, or to level.npz)")
    parser.add_argument("--frames", type=int, help="stop after this many frames (autoplay, JSON summary)")
    parser.add_argument("--screenshot", help="save the last frame as a PNG")
    return play(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
