"""The row format, the contract every part of the package shares.

A row is a ``numpy.uint8`` array ``(width,)``; a grid is ``(height,
width)``, indexed ``[y, x]``.  Each cell holds passage flags: ``EAST``
(open to the right) and ``SOUTH`` (open below); west and north are read
from the neighbours.  The last column has no EAST, a closing row no SOUTH.

The grid kernels number the four directions (a 2-bit value)::

    0 north, 1 south, 2 west, 3 east

so that the opposite of d is ``d ^ 1``, ``d < 2`` is vertical, ``d & 1``
says the wall between a cell and its neighbour that way is the cell's own
(south, east), and ``2 - (d >> 1)`` is that wall's flag (SOUTH for north
and south, EAST for west and east).  The passage masks of the analysis use
bit ``1 << d`` for direction d.
"""

from __future__ import annotations

EAST = 1
SOUTH = 2
