"""Reading match record files: one JSON object, or JSON Lines (one record per line). The errors
are said in the current language (`analyze`, `replay` and `show` speak their user's, from
`--lang`)."""

from __future__ import annotations

import contextlib
import json
import re
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, BinaryIO

from exact61.core import RecordError, RecordFormatError
from exact61.core.records import FORMAT
from exact61.i18n import _, ngettext, number


def record_error(path: Path, err: RecordError, match: int) -> str:
    """Where match `match` of the file goes wrong, counted as the commands take it (the match
    and the action from 0, the round from 1 as the game says Round 1, as `show --round` takes
    it), in the current language; then why, as the rules engine says it (naming the rule)."""
    where = [_("match {n}").format(n=match)]
    if err.round is not None:
        where.append(_("round {n}").format(n=err.round + 1))
    if err.action is not None:
        where.append(_("action {n}").format(n=err.action))
    return f"{file_name(path)}: {', '.join(where)}: {reason(err)}"


def reason(err: RecordError) -> str:
    """Why a record is wrong: what is wrong with its form in the current language, why it does
    not replay in the rules engine's words (naming the rule)."""
    if not isinstance(err, RecordFormatError):
        return err.message
    field = err.field
    if err.problem == "json":
        at = re.search(r"line (\d+) column (\d+)", err.value)
        if at is None:
            return _("not valid JSON")
        if at[1] == "1":  # a record on one line (every one of a JSON Lines file): where in it
            return _("not valid JSON (at character {column})").format(column=number(int(at[2])))
        return _("not valid JSON (line {line}, column {column})").format(
            line=number(int(at[1])), column=number(int(at[2]))
        )
    said = {
        "object": _("field {field} should be a JSON object"),
        "missing": _("field {field} is missing"),
        "value": _("field {field} may not be {value}"),
        "number": _("field {field} should be a whole number"),
        "text": _("field {field} should be text"),
        "list": _("field {field} should be a list"),
    }
    if err.problem == "object" and not field:
        return _("a record is a JSON object")
    if err.problem not in said:
        return err.message
    return said[err.problem].format(field=field, value=err.value)


class RecordFileError(Exception):
    """A record file that cannot be opened or read, or holds no record (one-line message)."""


class UnreadableFileError(RecordFileError):
    """A record file that cannot be read at all: missing, a folder, or refused by the system.
    Said one way by every command that reads records (`replay`, which goes on to the next file,
    and `analyze` and `show`, which stop): `cannot read FILE: why`."""

    def __init__(self, path: Path, why: str) -> None:
        if path == STDIN:  # its own words: Polish and Russian decline "standard input" here
            super().__init__(_("cannot read standard input: {reason}").format(reason=why))
        else:
            super().__init__(_("cannot read {path}: {reason}").format(path=path, reason=why))


STDIN = Path("-")
"""The file name that means standard input, as Unix commands take it."""


def file_name(path: Path) -> str:
    """How a message names a record file: its path, or standard input for `-`."""
    return _("standard input") if path == STDIN else str(path)


def _is_object(line: bytes) -> bool:
    """Whether a line is a whole JSON object (so the file is JSON Lines)."""
    try:
        return isinstance(json.loads(line), dict)
    except (ValueError, UnicodeDecodeError, RecursionError):
        return False


def _texts(stream: BinaryIO, jsonl: bool) -> Iterator[bytes]:
    """The record texts of an open file, read once from start to end (a pipe cannot be read
    twice): one a line when the file is JSON Lines, else the whole file as one record."""
    lines = iter(stream)
    head = b""
    for line in lines:
        head += line
        if line.strip():
            break
    if not head.strip():
        return
    if jsonl or _is_object(head):  # a record a line, without the blank lines and the line's end
        yield head.strip()
        yield from (line.strip() for line in lines if line.strip())
    else:
        text = head + b"".join(lines)
        if text.strip():
            yield text


def iter_record_texts(path: Path) -> Iterator[tuple[int, bytes]]:
    """Yield (match index, record text) from a record file (`-`: standard input), streaming
    JSON Lines.

    Raises UnreadableFileError for a file that is missing, a folder or unreadable,
    RecordFileError for one that is empty.
    """
    name = file_name(path)
    try:
        stream: contextlib.AbstractContextManager[BinaryIO]
        if path == STDIN:
            stream = contextlib.nullcontext(sys.stdin.buffer)
        elif not path.exists():
            raise UnreadableFileError(path, _("no such file"))
        elif path.is_dir():
            raise UnreadableFileError(path, _("is a folder, not a record file"))
        else:
            stream = path.open("rb")
        index = 0
        with stream as f:
            for text in _texts(f, jsonl=path.suffix == ".jsonl"):
                yield index, text
                index += 1
        if index == 0:
            raise RecordFileError(
                _("{path}: holds no match record (the file is empty)").format(path=name)
            )
    except OSError as err:
        raise UnreadableFileError(path, err.strerror or str(err)) from None


def match_text(path: Path, match: int) -> bytes:
    """The record text of match `match` (from 0) in the file, for the commands that take
    `--match`. Raises the command line's one-line error: exit 1 for a file that cannot be read,
    2 for an index it does not have."""
    from exact61.cli.app import CliError

    count = 0
    try:
        for index, candidate in iter_record_texts(path):
            count = index + 1
            if index == match:
                return candidate
    except RecordFileError as err:
        raise CliError(str(err), code=1) from None
    raise CliError(
        ngettext(
            "{path}: no match {match}: the file holds {n} match",
            "{path}: no match {match}: the file holds {n} matches",
            count,
        ).format(path=file_name(path), match=match, n=number(count))
    )


RECORD_START = b'{"format":"' + FORMAT.encode() + b'"'
"""How every line a run writes begins (`dumps` puts the format first)."""


def resume_records(
    path: Path,
    matches: int,
    is_match: Callable[[int, dict[str, Any]], bool],
    keep: Callable[[int, dict[str, Any]], None],
    options: str,
) -> int:
    """For `--resume`: how many of the run's `matches` matches `path` holds, each given to
    `keep(i, record)` in order; the line a stopped or killed run was writing is cut off, so the
    run goes on after the last whole one. No file yet is 0. `is_match(i, record)` says whether
    a record is the run's match i; one that is not, a last line that is not the start of a
    record (a file no run wrote, which is left as it is), or more matches than the run has, is
    the command line's error (exit 2), naming the `options` the run is made with."""
    from exact61.cli.app import CliError, cannot_write

    def not_of_this_run() -> CliError:
        return CliError(
            _(
                "--resume: line {line} of {path} is not match {match} of this run: "
                "give the {options} it was made with, or another --out"
            ).format(line=number(done + 1), path=path, match=number(done), options=options)
        )

    done = whole = 0
    try:
        with path.open("rb") as file:
            for line in file:
                if not line.endswith(b"\n"):  # the line being written when the run was killed
                    if not (line.startswith(RECORD_START) or RECORD_START.startswith(line)):
                        raise not_of_this_run()
                    break
                if done == matches:
                    raise CliError(
                        ngettext(
                            "--resume: {path} holds more than the {total} match of this run: "
                            "give the --matches it was made with, or more",
                            "--resume: {path} holds more than the {total} matches of this run: "
                            "give the --matches it was made with, or more",
                            matches,
                        ).format(path=path, total=number(matches))
                    )
                try:
                    record = json.loads(line)
                except ValueError:
                    record = None
                if not isinstance(record, dict) or not is_match(done, record):
                    raise not_of_this_run()
                keep(done, record)
                done += 1
                whole += len(line)
        with path.open("r+b") as cut:
            cut.truncate(whole)
    except FileNotFoundError:
        return 0
    except OSError as err:
        raise cannot_write(path, err) from None
    return done
