"""Worker processes that end with the process that started them: a command or a server killed
with `kill -9` says nothing to its workers (no Ctrl+C, no last message, and a worker started by
fork holds the parent's end of its own pipe, so no end of file comes), and they would wait for
work for ever, holding the terminal, a pipe's `--out -` or the server's port open."""

from __future__ import annotations

import os
import threading
import time

PARENT_CHECK_SECONDS = 0.5  # how soon a worker ends after its parent is gone


def exit_with_parent(parent: int) -> None:
    """In a worker: end this process once `parent` (the process that started it) is gone,
    whatever the start method (a forkserver's workers are not the parent's children, so the
    parent is asked for by its id, not by `os.getppid`)."""

    def watch() -> None:
        while True:
            try:
                os.kill(parent, 0)  # no signal: only whether the process is there
            except ProcessLookupError:
                os._exit(0)  # no cleanup to run: the work it did is the dead parent's
            except OSError:
                pass  # there, but another user's: it is still alive
            time.sleep(PARENT_CHECK_SECONDS)

    threading.Thread(target=watch, name="exact61-parent-watch", daemon=True).start()
