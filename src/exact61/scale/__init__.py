"""Past one process: the one scheduling layer `exact61 simulate` and `exact61 tournament` share.

Jobs (a match index, a tournament game) are played in batches on a backend, a process pool or a
Ray cluster, and come back in job order, so the output never depends on the backend, the number
of workers or how the jobs were batched. Nothing here knows about dominoes.
"""

from __future__ import annotations

from exact61.scale.backends import BACKENDS, BackendError, ProcessBackend, open_backend
from exact61.scale.ordered import Backend, play_batch, run_in_order

__all__ = [
    "BACKENDS",
    "Backend",
    "BackendError",
    "ProcessBackend",
    "open_backend",
    "play_batch",
    "run_in_order",
]
