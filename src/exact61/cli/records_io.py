"""Reading match record files: one JSON object, or JSON Lines (one record per line)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path


class RecordFileError(Exception):
    """A record file that cannot be opened or read (one-line message)."""


def _is_jsonl(path: Path) -> bool:
    if path.suffix == ".jsonl":
        return True
    with path.open("rb") as f:
        for line in f:
            if line.strip():
                try:
                    return isinstance(json.loads(line), dict)
                except (ValueError, UnicodeDecodeError):
                    return False
    return True


def iter_record_texts(path: Path) -> Iterator[tuple[int, bytes]]:
    """Yield (match index, record text) from a record file, streaming JSON Lines."""
    try:
        if not path.is_file():
            raise RecordFileError(f"{path}: no such file")
        if _is_jsonl(path):
            with path.open("rb") as f:
                index = 0
                for line in f:
                    if line.strip():
                        yield index, line
                        index += 1
        else:
            yield 0, path.read_bytes()
    except OSError as err:
        raise RecordFileError(f"{path}: {err.strerror or err}") from None
