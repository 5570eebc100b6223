"""The walks' kernels as the analysis calls them (:mod:`eller_stream.analysis`).

On numba's backend each is a :class:`~eller_stream._engine.Warming` kernel
whose lean twin is the kernel's own plain Python (:mod:`eller_stream._plain`):
a grid of up to about :data:`~eller_stream._engine.PLAIN_CELLS` cells (a
maze of 90 x 90) is solved at once while numba gets the kernel ready (a
picture's ``--solution`` waited 8.5 s for numba's compile on an empty cache,
and on every run where the cache cannot be written), a larger one waits for
the kernel (plain Python would take longer than a warm cache's load). Both
are the same code, so a walk may switch between them from one call to the
next (a mark one leaves, the other reads). On the lean backend each is the
kernel itself, plain Python already.

>>> from eller_stream import _walks
>>> callable(_walks.tree_walk)
True
"""

from __future__ import annotations

from . import _bfs_kernels, _walk_kernels
from ._engine import plain_first

__all__ = ["bfs", "bfs_farthest", "passage_masks", "path_from_parents", "path_length", "tree_distances"]
__all__ += ["tree_walk", "walk"]

bfs = plain_first(_bfs_kernels.bfs)
bfs_farthest = plain_first(_walk_kernels.bfs_farthest)
passage_masks = plain_first(_walk_kernels.passage_masks)
path_from_parents = plain_first(_walk_kernels.path_from_parents)
path_length = plain_first(_walk_kernels.path_length)
tree_distances = plain_first(_walk_kernels.tree_distances)
tree_walk = plain_first(_walk_kernels.tree_walk)
walk = plain_first(_walk_kernels.walk)
