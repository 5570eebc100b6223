"""An endless maze level that scrolls as a player walks down it (pygame).

Rows of the maze are generated ahead of the player and dropped behind, so
memory stays bounded however far the player goes.  The level can be saved
and resumed (the stream's checkpoint plus the rows on screen).

    python examples/endless_level.py                 # a window: arrows move, A autoplay, S save, Esc quits
    python examples/endless_level.py --resume level.npz
    SDL_VIDEODRIVER=dummy python examples/endless_level.py --frames 300 --screenshot shot.png

With --frames the player walks by itself (autoplay) and the program stops
after that many frames, printing a JSON summary on stdout.
"""

from __future__ import annotations

import argparse
import collections
import hashlib
import itertools
import json
import os
import sys

import numpy as np

import eller_stream as es

ABOVE = 10  # maze rows kept above the player
AHEAD = 24  # maze rows generated below the player
TILE = 8  # pixels per tile
COLOURS = {
    "wall": (30, 32, 44),
    "floor": (226, 221, 205),
    "plan": (240, 190, 120),
    "player": (210, 40, 40),
}


class Level:
    """The part of an endless maze around the player, and the player."""

    def __init__(self, stream: es.EllerStream, rows=None, top: int = 0, player=(0, 0)) -> None:
        self.stream = stream
        self.rows = collections.deque(rows if rows is not None else [])
        self.top = top  # absolute index of rows[0]
        self.player = player  # (absolute row, x)
        self.plan: list[tuple[int, int]] = []
        self.digest = hashlib.sha256()  # of the rows generated in this session
        self.generated = 0
        self.most_rows = 0
        self.fill()

    @classmethod
    def new(cls, width: int, seed: int) -> Level:
        return cls(es.EllerStream(width, seed=seed), player=(0, width // 2))

    # -- rows ---------------------------------------------------------------
    def fill(self) -> None:
        """Generate rows ahead of the player and drop those far behind."""
        while self.top + len(self.rows) <= self.player[0] + AHEAD:
            row = next(self.stream)
            self.digest.update(row.tobytes())
            self.generated += 1
            self.rows.append(row)
        while self.player[0] - self.top > ABOVE:
            self.rows.popleft()
            self.top += 1
        self.most_rows = max(self.most_rows, len(self.rows))

    def grid(self) -> np.ndarray:
        return np.array(self.rows)

    # -- moving -------------------------------------------------------------
    def can_move(self, dy: int, dx: int) -> bool:
        grid = self.grid()
        y, x = self.player[0] - self.top, self.player[1]
        ny, nx = y + dy, x + dx
        if not (0 <= ny < len(grid) and 0 <= nx < grid.shape[1]):
            return False
        if dy:
            return bool(grid[min(y, ny), x] & es.SOUTH)
        return bool(grid[y, min(x, nx)] & es.EAST)

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
        if self.plan:
            y, x = self.plan.pop(0)
            self.move(y - self.player[0], x - self.player[1])

    def path_down(self) -> list[tuple[int, int]]:
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
        path = [best]
        while path[-1] != start:
            path.append(prev[path[-1]])
        return [(y + self.top, x) for y, x in reversed(path[:-1])]

    # -- saving -------------------------------------------------------------
    def save(self, path: str) -> None:
        """The stream's checkpoint, the rows kept and the player, atomically."""
        tmp = path + ".part.npz"
        np.savez(
            tmp,
            checkpoint=np.frombuffer(self.stream.checkpoint(), np.uint8),
            rows=self.grid(),
            top=np.array(self.top),
            player=np.array(self.player),
        )
        os.replace(tmp, path)

    @classmethod
    def load(cls, path: str) -> Level:
        with np.load(path) as data:
            stream = es.EllerStream.resume(data["checkpoint"].tobytes())
            rows = list(data["rows"])
            return cls(stream, rows, int(data["top"]), tuple(int(v) for v in data["player"]))


def draw(screen, level: Level) -> None:
    import pygame

    tiles = es.tiles(level.grid())[1:]  # the window's top edge is not a wall
    image = np.empty((*tiles.shape, 3), np.uint8)
    image[:] = COLOURS["floor"]
    image[tiles] = COLOURS["wall"]
    trail = [level.player, *level.plan]
    for (y0, x0), (y1, x1) in itertools.pairwise(trail):  # the planned cells and the passages between
        image[2 * (y1 - level.top), 2 * x1 + 1] = COLOURS["plan"]
        image[y0 + y1 - 2 * level.top, x0 + x1 + 1] = COLOURS["plan"]
    py, px = level.player
    image[2 * (py - level.top), 2 * px + 1] = COLOURS["player"]
    big = np.repeat(np.repeat(image, TILE, axis=0), TILE, axis=1)
    surface = pygame.surfarray.make_surface(big.transpose(1, 0, 2))
    screen.fill(COLOURS["wall"])
    screen.blit(surface, (0, 0))
    pygame.display.flip()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--width", type=int, default=24, help="maze cells per row (24)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--resume", help="a level saved with --save or the S key")
    parser.add_argument("--save", default="level.npz", help="where S (and the end) saves (level.npz)")
    parser.add_argument("--frames", type=int, help="stop after this many frames (autoplay, JSON summary)")
    parser.add_argument("--screenshot", help="save the last frame as a PNG")
    args = parser.parse_args(argv)

    import pygame

    level = Level.load(args.resume) if args.resume else Level.new(args.width, args.seed)
    start_row = level.player[0]
    first_generated = level.stream.rows_emitted - level.generated
    pygame.init()
    size = ((2 * level.stream.width + 1) * TILE, 2 * (ABOVE + AHEAD + 1) * TILE)
    screen = pygame.display.set_mode(size)
    pygame.display.set_caption("eller_stream: endless level")
    clock = pygame.time.Clock()
    autoplay = args.frames is not None
    frame = 0
    running = True
    while running:
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
                elif event.key == pygame.K_s:
                    level.save(args.save)
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
    level.save(args.save)
    pygame.quit()
    if args.frames is not None:
        summary = {
            "frames": frame,
            "start_row": start_row,
            "player_row": level.player[0],
            "first_generated": first_generated,
            "rows_generated": level.generated,
            "generated_sha256": level.digest.hexdigest(),
            "most_rows_kept": level.most_rows,
            "width": level.stream.width,
            "seed": level.stream.seed,
        }
        print(json.dumps(summary))
    return 0


if __name__ == "__main__":
    sys.exit(main())
