"""`--resume` reads a file the person names, which may hold anything: a stopped run's records,
a half-written line, another program's output, bytes that are no text. Whatever it holds,
`resume_records` either keeps a whole prefix of the run's records (and cuts the rest) or refuses
with the command line's one-line error, leaving the file as it was; nothing else escapes it."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import example, given, settings
from hypothesis import strategies as st

from exact61.cli.app import CliError
from exact61.cli.records_io import RECORD_START, resume_records
from exact61.core.records import dumps
from tests.helpers import played_record

RUN = [played_record(2, seed, ["greedy", "random"]) for seed in range(4)]
LINES = [(dumps(record) + "\n").encode() for record in RUN]


def resumed(content: bytes) -> tuple[int | CliError, bytes, list[int]]:
    """What `resume_records` makes of a file holding `content`, for the run of `RUN`: the
    matches it keeps (or its error), the file after it, and the matches handed to `keep`."""
    kept: list[int] = []

    def is_match(i: int, record: dict[str, Any]) -> bool:
        return record == json.loads(LINES[i])

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "m.jsonl"
        path.write_bytes(content)
        try:
            done: int | CliError = resume_records(
                path, len(RUN), is_match, lambda i, _: kept.append(i), "--seed"
            )
        except CliError as err:
            done = err
        return done, path.read_bytes(), kept


@settings(max_examples=150, deadline=None)
@given(
    whole=st.integers(0, len(LINES)),
    cut=st.integers(0, 400),
    tail=st.binary(max_size=60),
)
@example(whole=2, cut=0, tail=b"\xff\xfe\n")  # bytes that are no UTF-8, on a line of their own
@example(whole=4, cut=0, tail=b"{")  # a fifth line begun where the run has four matches
@example(whole=4, cut=0, tail=LINES[0])  # a fifth whole record: more than the run's
@example(whole=1, cut=0, tail=b'{"format":"exact61-match/1"')  # a record's start, cut
def test_a_resumed_file_keeps_a_whole_prefix_or_is_left_as_it_was(
    whole: int, cut: int, tail: bytes
) -> None:
    """The file: `whole` of the run's lines, then a piece of the next (its first `cut` bytes),
    then any bytes."""
    content = b"".join(LINES[:whole])
    if whole < len(LINES):
        content += LINES[whole][:cut]
    content += tail
    done, after, kept = resumed(content)
    if isinstance(done, CliError):
        assert done.code == 2 and "\n" not in str(done)
        assert after == content  # refused: the file as it was
    else:
        assert 0 <= done <= len(LINES)
        assert after == b"".join(LINES[:done])  # a whole prefix of the run's records
        assert kept == list(range(done))
        assert content.startswith(after)
        cut_off = content[len(after) :]  # only the line a run was writing, a record's start
        assert b"\n" not in cut_off
        assert cut_off.startswith(RECORD_START) or RECORD_START.startswith(cut_off)
        if not tail and cut < len(LINES[min(whole, len(LINES) - 1)]):
            assert done == whole  # a run stopped mid-line goes on after its last whole match
