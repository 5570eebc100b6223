"""An endless maze level that scrolls as a player walks it, up or down (pygame).

The level is an ``es.InfiniteMaze``: every row comes from (seed, row) alone,
so the program keeps only a window of rows around the player, regenerates
any row it needs again, and lets the player walk down and back up without
limit.  It keeps ``band - 1`` rows above the player: the banded maze
guarantees that every cell reaches the next row inside them, so the
autoplay player never gets stranded.  ``--plain`` plays the same window on
a plain ``EllerStream`` instead, to show the player getting stranded there.

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
import collections  # noqa: E402
import hashlib  # noqa: E402
import itertools  # noqa: E402
import json  # noqa: E402

import numpy as np  # noqa: E402

import eller_stream as es  # noqa: E402

AHEAD = 16  # maze rows kept below the player
TILE = 8  # pixels per tile
COLOURS = {
    "wall": (30, 32, 44),
    "floor": (226, 221, 205),
    "plan": (240, 190, 120),
    "player": (210, 40, 40),
}


class Level:
    """The rows of an endless maze around the player, and the player.

    ``maze`` (an InfiniteMaze) gives any row again; with ``stream`` (a plain
    EllerStream) instead, rows only come forward and a row dropped is gone.
    """

    def __init__(self, maze=None, stream=None, player=(0, 0), above: int = 15) -> None:
        self.maze = maze
        self.stream = stream
        self.above = above  # rows kept above the player
        self.player = player  # (absolute row, x)
        self.top = player[0] - above if maze is not None else player[0]  # absolute row of rows[0]
        self.rows: collections.deque = collections.deque()
        self.plan: list[tuple[int, int]] = []
        self.generated = 0
        self.most_rows = 0
        self.stuck = 0  # autoplay steps that found no way down
        self.fill()

    @property
    def width(self) -> int:
        return self.maze.width if self.maze is not None else self.stream.width

    # -- rows ---------------------------------------------------------------
    def fill(self) -> None:
        """Keep rows player - above .. player + AHEAD (a plain stream cannot
        bring back rows above what it kept)."""
        want_top, want_stop = self.player[0] - self.above, self.player[0] + AHEAD + 1
        while self.rows and self.top + len(self.rows) > want_stop and self.maze is not None:
            self.rows.pop()  # far below: dropped, made again when needed
        while self.rows and self.top < want_top:
            self.rows.popleft()
            self.top += 1
        if self.maze is not None:
            if not self.rows:
                self.top = want_top
            if want_top < self.top:  # walking up: the rows above come back
                self.rows.extendleft(reversed(self.maze.rows(want_top, self.top)))
                self.generated += self.top - want_top
                self.top = want_top
            stop = self.top + len(self.rows)
            if stop < want_stop:
                self.rows.extend(self.maze.rows(stop, want_stop))
                self.generated += want_stop - stop
        else:
            while self.top + len(self.rows) < want_stop:
                self.rows.append(next(self.stream))
                self.generated += 1
        self.most_rows = max(self.most_rows, len(self.rows))

    def grid(self) -> np.ndarray:
        return np.array(self.rows)

    # -- moving -------------------------------------------------------------
    def can_move(self, dy: int, dx: int) -> bool:
        y, x = self.player[0] - self.top, self.player[1]
        ny, nx = y + dy, x + dx
        if not (0 <= ny < len(self.rows) and 0 <= nx < self.width):
            return False
        if dy:
            return bool(self.rows[min(y, ny)][x] & es.SOUTH)
        return bool(self.rows[y][min(x, nx)] & es.EAST)

    def move(self, dy: int, dx: int) -> bool:
        if not self.can_move(dy, dx):
            return False
        self.player = (self.player[0] + dy, self.player[1] + dx)
        self.plan = [c for c in self.plan if c != self.player]
        self.fill()
        return True

    def autoplay(self) -> None:
        """One step along a path to the deepest cell the player can reach
        inside the rows kept (planned again when the plan runs out)."""
        if not self.plan:
            self.plan = self.path_down()
            if not self.plan:
                self.stuck += 1
                return
        y, x = self.plan.pop(0)
        self.move(y - self.player[0], x - self.player[1])

    def path_down(self) -> list[tuple[int, int]]:
        """Breadth-first search in the rows kept; [] when no reachable cell
        lies below the player's row."""
        grid = self.grid()
        h, w = grid.shape
        start = (self.player[0] - self.top, self.player[1])
        prev = {start: start}
        queue = collections.deque([start])
        best = start
        while queue:
            y, x = queue.popleft()
            if y > best[0]:
                best = (y, x)
            steps = []
            if x + 1 < w and grid[y, x] & es.EAST:
                steps.append((y, x + 1))
            if y + 1 < h and grid[y, x] & es.SOUTH:
                steps.append((y + 1, x))
            if x > 0 and grid[y, x - 1] & es.EAST:
                steps.append((y, x - 1))
            if y > 0 and grid[y - 1, x] & es.SOUTH:
                steps.append((y - 1, x))
            for cell in steps:
                if cell not in prev:
                    prev[cell] = (y, x)
                    queue.append(cell)
        if best[0] == start[0]:
            return []
        path = [best]
        while path[-1] != start:
            path.append(prev[path[-1]])
        return [(y + self.top, x) for y, x in reversed(path[:-1])]

    # -- saving -------------------------------------------------------------
    def save(self, path: str) -> None:
        """The maze's parameters and the player, atomically (any row can be
        made again, so no row is saved)."""
        if self.maze is None:
            raise ValueError("a plain-stream level is not saved")
        m = self.maze
        tmp = path + ".part.npz"
        np.savez(
            tmp,
            params=np.array([m.width, m.band, m.seed], np.uint64),
            probabilities=np.array([m.horizontal, m.vertical, m.doors]),
            player=np.array(self.player, np.int64),
        )
        os.replace(tmp, path)

    @classmethod
    def load(cls, path: str) -> Level:
        with np.load(path) as data:
            width, band, seed = (int(v) for v in data["params"])
            h, v, doors = (float(p) for p in data["probabilities"])
            maze = es.InfiniteMaze(width, band, seed, h, v, doors)
            return cls(maze, player=tuple(int(p) for p in data["player"]), above=band - 1)


def draw(screen, level: Level) -> None:
    import pygame

    tiles = es.tiles(level.grid())[1:]  # the window's top edge is not a wall
    image = np.empty((*tiles.shape, 3), np.uint8)
    image[:] = COLOURS["floor"]
    image[tiles] = COLOURS["wall"]
    trail = [level.player, *level.plan]
    for (y0, x0), (y1, x1) in itertools.pairwise(trail):  # the planned cells and the passages between
        if not level.top <= y1 < level.top + len(level.rows):
            break  # the plan goes on below the rows kept
        image[2 * (y1 - level.top), 2 * x1 + 1] = COLOURS["plan"]
        image[y0 + y1 - 2 * level.top, x0 + x1 + 1] = COLOURS["plan"]
    py, px = level.player
    image[2 * (py - level.top), 2 * px + 1] = COLOURS["player"]
    big = np.repeat(np.repeat(image, TILE, axis=0), TILE, axis=1)
    surface = pygame.surfarray.make_surface(big.transpose(1, 0, 2))
    screen.fill(COLOURS["wall"])
    screen.blit(surface, (0, 0))
    pygame.display.flip()


def play(args: argparse.Namespace) -> int:
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame

    if args.resume:
        level = Level.load(args.resume)
    elif args.plain:
        level = Level(
            stream=es.EllerStream(args.width, seed=args.seed),
            player=(0, args.width // 2),
            above=args.band - 1,
        )
    else:
        maze = es.InfiniteMaze(args.width, band=args.band, seed=args.seed)
        level = Level(maze, player=(args.start, args.width // 2), above=args.band - 1)
    start_row = level.player[0]
    pygame.display.init()  # the display alone: no sound device needed
    size = ((2 * level.width + 1) * TILE, 2 * (level.above + AHEAD + 1) * TILE)
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
                moves = {
                    pygame.K_UP: (-1, 0),
                    pygame.K_DOWN: (1, 0),
                    pygame.K_LEFT: (0, -1),
                    pygame.K_RIGHT: (0, 1),
                }
                if event.key in moves:
                    level.plan = []
                    level.move(*moves[event.key])
                elif event.key == pygame.K_a:
                    autoplay = not autoplay
                elif event.key == pygame.K_s and level.maze is not None:
                    level.save(args.save or "level.npz")
                elif event.key == pygame.K_ESCAPE:
                    running = False
        if autoplay and frame % 2 == 0:
            level.autoplay()
        draw(screen, level)
        frame += 1
        if args.frames is not None and frame >= args.frames:
            running = False
        clock.tick(0 if args.frames is not None else 30)
    if args.screenshot:
        pygame.image.save(screen, args.screenshot)
    if args.save and level.maze is not None:
        level.save(args.save)
    pygame.quit()
    if args.frames is not None:
        summary = {
            "frames": frame,
            "start_row": start_row,
            "player_row": level.player[0],
            "stuck": level.stuck,
            "rows_generated": level.generated,
            "most_rows_kept": level.most_rows,
            "window_top": level.top,
            "window_sha256": hashlib.sha256(level.grid().tobytes()).hexdigest(),
            "width": level.width,
            "seed": args.seed if level.maze is None else level.maze.seed,
            "band": None if level.maze is None else level.maze.band,
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
