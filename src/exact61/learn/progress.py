"""A learner's progress, kept in the data directory: one small JSON file a part of `learn`
(`learn/tour.json` for the guided tour; the puzzles keep theirs beside it), each written whole,
replacing the last only once complete, so progress cut at any moment is the last one kept.

A file holds one JSON object with its `format` (`exact61-progress/1`) and the part's own fields;
what they mean is the part's business (`tour.TourState`). A file that cannot be read, is not
JSON or is not progress is never overwritten unasked: `ProgressError` says which and why.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

from exact61.i18n import _
from exact61.table.files import data_dir

FORMAT = "exact61-progress/1"


def learn_dir() -> Path:
    """Where a learner's progress is kept: `learn/` in the data directory (EXACT61_DATA_DIR)."""
    return data_dir() / "learn"


class ProgressError(ValueError):
    """A progress file that cannot be read or is not progress (`path`, and why: `reason`, in
    the language in use, or the system's words)."""

    def __init__(self, path: Path, reason: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.path = path
        self.reason = reason


class ProgressFile:
    """One part's progress: `NAME.json` in `folder` (by default `learn_dir()`)."""

    def __init__(self, name: str, folder: Path | None = None) -> None:
        self.path = (folder or learn_dir()) / f"{name}.json"

    def load(self) -> dict[str, Any]:
        """The progress kept, without its `format`; empty when there is none yet. Raises
        ProgressError for a file that cannot be read or holds no progress."""
        try:
            text = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return {}
        except OSError as err:
            raise ProgressError(self.path, reason_of(self.path, err)) from None
        except UnicodeDecodeError:
            raise ProgressError(self.path, _("not text")) from None
        try:
            data = json.loads(text)
        except ValueError:
            raise ProgressError(self.path, _("not JSON")) from None
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise ProgressError(
                self.path, _("not progress (no format {format})").format(format=repr(FORMAT))
            )
        return {key: value for key, value in data.items() if key != "format"}

    def save(self, data: dict[str, Any]) -> None:
        """Keep `data` (JSON-ready), replacing the file only once the new one is written."""
        folder = self.path.parent
        folder.mkdir(parents=True, exist_ok=True)
        fd, name = tempfile.mkstemp(dir=folder, prefix=f".{self.path.stem}-", suffix=".part")
        partial = Path(name)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump({"format": FORMAT, **data}, f, ensure_ascii=False, indent=1)
                f.write("\n")
                f.flush()
                os.fsync(f.fileno())
            partial.replace(self.path)
        except BaseException:
            partial.unlink(missing_ok=True)
            raise

    def clear(self) -> None:
        """Forget this part's progress (the other parts' files stay). Raises ProgressError
        where it cannot be removed (a folder in its place is left alone)."""
        try:
            self.path.unlink(missing_ok=True)
        except OSError as err:
            raise ProgressError(self.path, reason_of(self.path, err)) from None


def reason_of(path: Path, err: OSError) -> str:
    """Why `path` could not be read or removed, in the language in use where it is a folder
    (the system says `Is a directory` in English), else in the system's words."""
    if path.is_dir():
        return _("is a folder")
    return err.strerror or str(err)
