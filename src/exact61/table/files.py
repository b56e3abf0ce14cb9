"""Games kept as files: one `exact61-match/1` record per game, rewritten as the game goes.

The terminal game keeps its games here (`exact61 play`, `--resume`); the file is replaced only
once the new record is completely written, so a game cut at any moment resumes. It is written
after every deal, every round's end, every action of a person's seat and every bot's move after
which a person is to act; the bots' moves in between are written with the next of these, so a
game of bots alone does not write (and sync to disk) every action.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

from platformdirs import user_data_dir

from exact61.core import FORMAT
from exact61.table import Table, Update, Waiting


def data_dir() -> Path:
    """The user's data directory, where exact61 keeps what it saves (EXACT61_DATA_DIR overrides
    it, `~` read as the home folder where no shell expanded it): games in `games/`, a learner's
    progress in `learn/`."""
    return Path(os.environ.get("EXACT61_DATA_DIR") or user_data_dir("exact61")).expanduser()


def games_dir() -> Path:
    """Where games are saved: `games/` in the data directory."""
    return data_dir() / "games"


def check_writable(folder: Path) -> None:
    """Make `folder` and check a file can be written there; raise OSError saying why not.

    Called before a game starts, so a player never loses a game to a folder it cannot save in.
    """
    folder.mkdir(parents=True, exist_ok=True)
    with tempfile.NamedTemporaryFile(dir=folder, prefix=".check-", delete=True):
        pass


class FileStore:
    """Keeps one table in one file, as its record.

    With `new=True` the path is only the name wanted: the first save takes it, or, when another
    game already has it (two games started in the same second with the same seed), the first of
    `<stem>-2`, `<stem>-3`... that is free; `path` then says which.
    """

    def __init__(self, path: Path, *, new: bool = False) -> None:
        self.path = path
        self._new = new

    def saved(self, table: Table, update: Update | None) -> None:
        bots_go_on = table.waiting_for() in (Waiting.BOT, Waiting.FORCED)
        if update and not update.round_ended and not table.is_human(update.seat) and bots_go_on:
            return  # a bot's move: written with the next step (see the module)
        self.write(table)

    def write(self, table: Table) -> None:
        """Write the record, replacing the file only once the new one is complete."""
        folder = self.path.parent
        folder.mkdir(parents=True, exist_ok=True)
        # A temporary name of its own: games saved at once in one folder never share one.
        fd, name = tempfile.mkstemp(dir=folder, prefix=f".{self.path.stem}-", suffix=".part")
        partial = Path(name)
        try:
            with os.fdopen(fd, "w") as f:
                f.write(table.record_text() + "\n")
                f.flush()
                os.fsync(f.fileno())  # on disk before it replaces the last good save
            if self._new:
                self.path = claim_new_file(self.path)
                self._new = False
            partial.replace(self.path)
        except BaseException:
            partial.unlink(missing_ok=True)
            raise


def claim_new_file(wanted: Path) -> Path:
    """`wanted`, or the first free `<stem>-N<suffix>` beside it, created empty for this caller
    alone (exclusive creation: no other game or run can take the same name at the same moment).
    Raises OSError when the folder cannot be written."""
    path, n = wanted, 1
    while True:
        try:
            with path.open("x"):
                return path
        except FileExistsError:
            n += 1
            path = wanted.with_name(f"{wanted.stem}-{n}{wanted.suffix}")


class UnreadableSaveError(ValueError):
    """A saved game's file that cannot be read or is not a record (`path`, and why: `reason`,
    the system's words, or `NOT_A_RECORD`, which a front end says in the player's language)."""

    def __init__(self, path: Path, reason: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.path = path
        self.reason = reason


NOT_A_RECORD = "not a saved game (not a JSON record)"


def last_unfinished(folder: Path | None = None, *, skip_unreadable: bool = True) -> Path | None:
    """The most recently saved game that has no winner yet.

    A file that cannot be read or holds no JSON object is passed over; with
    `skip_unreadable=False`, the newest such file, if no unfinished game is newer, raises
    UnreadableSaveError instead: it may be the very game a player means to resume."""
    folder = folder or games_dir()
    if not folder.is_dir():
        return None
    found = {path: _saved_at(path) for path in folder.glob("*.json")}
    saved = {path: at for path, at in found.items() if at is not None}
    for path in sorted(saved, key=saved.__getitem__, reverse=True):
        try:
            record = json.loads(path.read_text())
            if record.get("format") == FORMAT and record.get("winner") is None:
                return path
        except OSError as err:
            if not skip_unreadable:
                raise UnreadableSaveError(path, err.strerror or str(err)) from None
        except (ValueError, AttributeError):  # not JSON, or JSON but not an object
            if not skip_unreadable:
                raise UnreadableSaveError(path, NOT_A_RECORD) from None
    return None


def _saved_at(path: Path) -> float | None:
    """When `path` was saved; for a link to a file that is gone, when the link was made (it is
    read as the others are, and said as a file that cannot be read); None for a file gone since
    the folder was listed."""
    try:
        return path.stat().st_mtime
    except OSError:
        try:
            return path.lstat().st_mtime
        except OSError:
            return None
