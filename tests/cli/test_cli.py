"""The `exact61` command line, run as a user would (a subprocess through the real entry point)."""

from __future__ import annotations

import json
import os
import pty
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from exact61 import Match, __version__, match_to_record
from exact61.cli.app import install_command
from tests.core.scenarios import DOMINO_B, play, start
from tests.helpers import Cli, as_in_a_terminal

# Each test starts the command line in a process of its own: the full suite runs them.
pytestmark = pytest.mark.slow


def exact61(*args: str | Path | int, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "exact61", *map(str, args)],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=120,
        env={**os.environ, "COLUMNS": "300"},  # usage errors unwrapped, to match their words
    )


def no_traceback(result: subprocess.CompletedProcess[str]) -> None:
    assert "Traceback" not in result.stdout + result.stderr


def test_simulate_then_replay_verifies_every_match(tmp_path: Path) -> None:
    out = tmp_path / "m.jsonl"
    sim = exact61(
        "simulate",
        "--players",
        "3",
        "--matches",
        "25",
        "--seed",
        "4",
        "--bot",
        "greedy",
        "--out",
        out,
    )
    assert sim.returncode == 0, sim.stderr
    assert "25 matches" in sim.stdout and "Rejected overshoots" in sim.stdout
    lines = out.read_text().splitlines()
    assert len(lines) == 25
    records = [json.loads(line) for line in lines]
    assert all(r["players"] == 3 and r["bots"] == ["greedy"] * 3 for r in records)
    wins_line = next(line for line in sim.stdout.splitlines() if line.startswith("Wins:"))
    assert sum(map(int, re.findall(r"\) (\d+) \(", wins_line))) == 25
    rep = exact61("replay", out)
    assert rep.returncode == 0 and rep.stdout.strip() == "25 matches verified"


@pytest.mark.slow
def test_same_seed_same_records(tmp_path: Path) -> None:
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    for path in (a, b):
        assert exact61("simulate", "--matches", "5", "--seed", "9", "--out", path).returncode == 0
    assert a.read_text() == b.read_text()
    c = tmp_path / "c.jsonl"
    exact61("simulate", "--matches", "5", "--seed", "10", "--out", c)
    assert c.read_text() != a.read_text()


def test_replay_reports_each_bad_record_on_one_line(tmp_path: Path) -> None:
    out = tmp_path / "m.jsonl"
    exact61("simulate", "--players", "2", "--matches", "3", "--seed", "1", "--out", out)
    lines = out.read_text().splitlines()
    bad = json.loads(lines[1])
    bad["rounds"][0]["actions"][0]["seat"] = 1 - bad["rounds"][0]["actions"][0]["seat"]
    lines[1] = json.dumps(bad)
    lines.append(lines[0][:50])  # a truncated record
    out.write_text("\n".join(lines) + "\n")
    rep = exact61("replay", out)
    assert rep.returncode == 1
    no_traceback(rep)
    reported = rep.stdout.strip().splitlines()
    # the round counted from 1, as the game and show --round count it (the record's from 0)
    assert reported[0].startswith(f"{out}: match 1, round 1, action 0: R2: seat ")
    assert reported[1].startswith(f"{out}: match 3: not valid JSON")
    assert reported[2] == "2 matches verified, 2 failed"
    there = exact61("show", out, "--match", "1", "--round", "1", "--action", "0")
    assert there.returncode == 1 and there.stderr.startswith(f"exact61: {reported[0]}")


def _domino_b(tmp_path: Path) -> tuple[Match, Path]:
    """The scenario DOMINO_B at 4 players, played, and its record in a file."""
    match = start(DOMINO_B, 4)
    play(match, DOMINO_B)
    path = tmp_path / "one.json"
    path.write_text(json.dumps(match_to_record(match), indent=1))
    return match, path


def test_show_prints_the_rule_documents_facts(tmp_path: Path) -> None:
    _, path = _domino_b(tmp_path)
    # Rounds count from 1, as the game says "Round 1" (the record's array from 0).
    shown = exact61("show", path, "--round", "1", "--action", "3", "--no-picture")
    assert shown.returncode == 0, shown.stderr
    # After [1|3], [3|5] high, [1|1] low, [0|1] on [1|1] lineB: [1|1] interior, arms open.
    assert shown.stdout.splitlines() == [
        "Match 0, round 1, action 3: Seat 2 places [0|1] at [1|1] line side B",
        "Scored ends: 0+5 = 5. Credit: 1 (5)",
        "Tiles: [1|3], [3|5], [1|1], [0|1]",
        "Spinners: [1|1]",
        "Joins: [1|3] high end – [3|5] low end; [1|3] low end – [1|1] line side A; "
        "[1|1] line side B – [0|1] high end",
        "Free attach points: [0|1] low end (0); [1|1] side arm A (1); [1|1] side arm B (1); "
        "[3|5] high end (5)",
        "Scored contributions: [0|1]: 0; [3|5]: 5",
        "Scores: Seats 0 and 2: 1 (5)   Seats 1 and 3: 0 (0)",
        "Hands: Seat 0: [2|6] [5|6] [1|4] [5|5]; Seat 1: [2|4] [3|4] [2|2] [3|3]; "
        "Seat 2: [1|5] [0|4] [6|6] [0|3]; Seat 3: [4|5] [0|6] [1|2] [1|6]",
        "Boneyard: 8 tiles",
    ]
    drawn = exact61("show", path, "--round", "1", "--action", "3").stdout.splitlines()
    heading, *facts = shown.stdout.splitlines()
    # The picture sits between the heading and the facts: [1|1] crosswise, arms open (R13).
    assert drawn[0] == heading and drawn[-len(facts) :] == facts
    picture = "\n".join(drawn[1 : -len(facts)])
    assert "[1|3][3|5]" in picture and "├─┤" in picture and picture.count("∘") == 4
    last = exact61("show", path)  # the default: the last action of the last round
    assert "Round ended by domino" in last.stdout
    # An index the file does not have is a bad option (exit 2); the file itself is fine.
    for option, words in (
        (("--match", "1"), "no match 1: the file holds 1 match"),
        (("--round", "4"), "no round 4 (it has 1 round)"),
        (("--round", "2"), "no round 2 (it has 1 round)"),
        (("--round", "0"), "--round"),
        (("--round", "1", "--action", "99"), "round 1 has no action 99"),
    ):
        missing = exact61("show", path, *option)
        assert missing.returncode == 2 and words in missing.stderr, missing.stderr
        no_traceback(missing)


@pytest.mark.slow
def test_bad_input_gives_usage_or_one_line_errors(tmp_path: Path) -> None:
    for args, code, words in (
        (("simulate", "--players", "5"), 2, "exact61 simulate: Invalid value for '--players'"),
        (("simulate", "--bogus"), 2, "No such option"),
        (("simulate", "--bot", "nobody"), 2, "unknown bot"),
        (("replay", tmp_path / "absent.jsonl"), 1, "no such file"),
        (("show", tmp_path / "absent.jsonl"), 1, "no such file"),
        (("show", tmp_path), 1, "is a folder"),
        (("replay", tmp_path), 1, "is a folder"),
        (("simulate", "--bot", "ismcts:0"), 2, "1 to 100,000 iterations"),
        (("simulate", "--bot", "ismcts:abc"), 2, "'abc' is not a whole number"),
        (("simulate", "--bot", "ismcts:\u00b2"), 2, "'\u00b2' is not a whole number"),  # isdigit
        (("simulate", "--bot", "ismcts:99999999999"), 2, "1 to 100,000 iterations"),
        (("simulate", "--bot", "greedy:5"), 2, "only ismcts, expert and pimc take a budget"),
        (("simulate", "--workers", "0"), 2, "Invalid value for '--workers'"),
        (("simulate", "--backend", "spark"), 2, "Invalid value for '--backend'"),
        (("simulate", "--address", "127.0.0.1:1", "--out", tmp_path / "a"), 2, "--address is for"),
        (("tournament", "--address", "auto", "--out", tmp_path / "t"), 2, "--address is for"),
        (("frobnicate",), 2, "No such command: frobnicate"),
        (("simulate", "--out", tmp_path, "--force"), 2, "is a folder: give --out a file name"),
        (("tournament", "--out", tmp_path, "--force"), 2, "is a folder: give --out a file name"),
        (("play", "--seats", "human", "--plain"), 2, "--seats names 1 seat for 2 players"),
        (("play", "--seats", "foo,greedy", "--plain"), 2, "choose from human, random, greedy"),
    ):
        result = exact61(*args)
        assert result.returncode == code, (args, result.returncode, result.stderr)
        assert words in result.stdout + result.stderr, (args, result.stdout, result.stderr)
        if code == 2:  # a bad option: one line, however the command line's parser found it
            assert len(result.stderr.strip().splitlines()) == 1, result.stderr
        no_traceback(result)
    assert not (tmp_path / "a").exists() and not (tmp_path / "t").exists()
    existing = tmp_path / "m.jsonl"
    existing.write_text("keep me\n")
    refused = exact61("simulate", "--out", existing)
    assert refused.returncode == 2 and "--force" in refused.stderr
    assert existing.read_text() == "keep me\n"


def test_every_command_has_help() -> None:
    for command in ("simulate", "replay", "show"):
        result = exact61(command, "--help")
        assert result.returncode == 0 and "Usage" in result.stdout and len(result.stdout) > 200


@pytest.mark.slow
def test_files_holding_nothing_or_nested_too_deep_fail_on_one_line(tmp_path: Path) -> None:
    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n  \n")
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    deep_lines = tmp_path / "deep.jsonl"
    deep_lines.write_text('{"a":' * 50_000 + "1" + "}" * 50_000 + "\n")
    for path, words in (
        (empty, "holds no match record"),
        (deep, "not valid JSON"),
        (deep_lines, "not valid JSON"),
    ):
        result = exact61("replay", path)
        assert result.returncode == 1 and words in result.stdout, result.stdout + result.stderr
        assert result.stdout.strip().endswith("0 matches verified, 1 failed")
        no_traceback(result)
        shown = exact61("show", path)
        assert shown.returncode == 1 and shown.stderr.count("\n") == 1, shown.stderr
        no_traceback(shown)


def test_records_read_through_a_pipe_lose_no_match(tmp_path: Path) -> None:
    """A pipe can be read only once: every record piped in is replayed or shown, from
    /dev/stdin or from `-`, JSON Lines or one indented record."""
    made = exact61("simulate", "--matches", "5", "--seed", "3", "--bot", "greedy", "--out", "-")
    lines = made.stdout.splitlines()
    assert len(lines) == 5 and all(line.startswith("{") for line in lines)
    indented = json.dumps(json.loads(lines[4]), indent=2)
    for name in ("/dev/stdin", "-"):
        for text, count in ((made.stdout, 5), ("\n" + lines[0] + "\n\n" + lines[1], 2)):
            done = subprocess.run(
                [sys.executable, "-m", "exact61", "replay", name],
                input=text,
                capture_output=True,
                text=True,
                timeout=120,
            )
            assert (done.returncode, done.stdout.strip()) == (0, f"{count} matches verified")
        shown = subprocess.run(
            [sys.executable, "-m", "exact61", "show", name, "--no-picture"],
            input=indented,
            capture_output=True,
            text=True,
            timeout=120,
        )
        (tmp_path / "last.json").write_text(indented)
        from_file = exact61("show", tmp_path / "last.json", "--no-picture")
        assert shown.returncode == 0 and shown.stdout == from_file.stdout, shown.stderr
        assert shown.stdout.startswith("Match 0, round ")
    nothing = subprocess.run(
        [sys.executable, "-m", "exact61", "replay", "-"],
        input="",
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert nothing.returncode == 1
    assert "standard input: holds no match record" in nothing.stdout


def test_one_match_is_counted_in_the_singular(tmp_path: Path) -> None:
    out = tmp_path / "one.jsonl"
    made = exact61("simulate", "--matches", "1", "--out", out)
    assert made.returncode == 0 and made.stdout.startswith("1 match, "), made.stdout
    assert exact61("replay", out).stdout.strip() == "1 match verified"


@pytest.mark.slow
def test_simulate_writes_the_same_records_whatever_the_workers(tmp_path: Path) -> None:
    common = ("simulate", "--players", "4", "--matches", "60", "--seed", "21", "--bot", "greedy")
    one = exact61(*common, "--out", tmp_path / "one.jsonl")
    assert one.returncode == 0, one.stderr
    expected = (tmp_path / "one.jsonl").read_text()
    assert len(expected.splitlines()) == 60
    for workers in ("2", "3"):
        # to standard output, the summary on standard error
        many = exact61(*common, "--workers", workers, "--out", "-")
        assert many.returncode == 0, many.stderr
        assert many.stdout == expected
        summary = [line.split(" in ")[0] for line in many.stderr.splitlines()[:4]]
        assert summary == [line.split(" in ")[0] for line in one.stdout.splitlines()[:4]]


def test_ctrl_c_keeps_every_match_finished_in_order(tmp_path: Path) -> None:
    import contextlib
    import time

    out = tmp_path / "m.jsonl"
    command = [sys.executable, "-m", "exact61", "simulate", "--matches", "100000", "--seed", "5"]
    run = subprocess.Popen(
        [*command, "--workers", "2", "--out", str(out)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its own group: the workers go with it, whatever happens
        preexec_fn=as_in_a_terminal,
    )
    try:
        # Ctrl+C once matches come back from both workers: the pool is up, every worker ignores
        # SIGINT (it was sent after a byte count before, on a loaded machine perhaps mid-start).
        # No clock decides: a run that ends or stalls first fails, saying so.
        deadline = time.monotonic() + 300
        while finished_lines(out) < 20:
            if run.poll() is not None:
                pytest.fail(f"simulate ended before Ctrl+C: {run.returncode} {run.stderr.read()}")
            if time.monotonic() > deadline:
                pytest.fail("simulate wrote fewer than 20 matches in 300 s")
            time.sleep(0.05)
        os.killpg(run.pid, signal.SIGINT)  # Ctrl+C reaches the whole group, workers included
        stdout, stderr = run.communicate(timeout=120)
    finally:  # never a simulate left running, nor a worker of it, whatever failed above
        with contextlib.suppress(ProcessLookupError):
            os.killpg(run.pid, signal.SIGKILL)
        run.wait()
    assert run.returncode == 130, stderr
    assert stderr == ""  # no worker's traceback
    kept = out.read_text().splitlines()
    assert 0 < len(kept) < 100_000
    assert f"Interrupted after {len(kept):,} of 100,000 matches." in stdout
    reference = tmp_path / "ref.jsonl"
    made = exact61("simulate", "--matches", len(kept), "--seed", "5", "--out", reference)
    assert made.returncode == 0 and reference.read_text().splitlines() == kept


def test_a_stopped_run_resumed_ends_as_one_run_would(tmp_path: Path) -> None:
    """simulate --resume keeps the matches a stopped run wrote, cuts the one a kill left half
    written, and plays the rest: the same file, byte for byte, and the same summary, as a run
    never stopped (on any workers)."""
    common = ("simulate", "--players", "3", "--matches", "24", "--seed", "8", "--bot", "greedy")
    whole = exact61(*common, "--out", tmp_path / "whole.jsonl")
    assert whole.returncode == 0, whole.stderr
    expected = (tmp_path / "whole.jsonl").read_bytes()
    out = tmp_path / "stopped.jsonl"
    lines = expected.splitlines(keepends=True)
    out.write_bytes(b"".join(lines[:9]) + lines[9][:100])  # killed while writing match 9
    resumed = exact61(*common, "--workers", "2", "--out", out, "--resume")
    assert resumed.returncode == 0, resumed.stderr
    assert out.read_bytes() == expected
    assert resumed.stdout.startswith("Resuming after 9 of 24 matches.\n")
    # the whole file's figures, and the time of the part this run played, said as such
    said = resumed.stdout.splitlines()
    first = whole.stdout.splitlines()
    assert said[1] == first[0].split(" in ")[0]
    assert said[2].startswith("This run played 15 of them, in ") and said[2].endswith(" s.")
    assert said[3:6] == first[1:4]
    again = exact61(*common, "--out", out, "--resume")  # nothing left to play
    assert again.returncode == 0 and out.read_bytes() == expected
    assert again.stdout.startswith("Resuming after 24 of 24 matches.\n24 matches, ")
    assert "\nThis run played 0 of them, in " in again.stdout
    fresh = exact61(*common, "--out", tmp_path / "new.jsonl", "--resume")  # nothing to resume
    assert fresh.returncode == 0 and (tmp_path / "new.jsonl").read_bytes() == expected


def test_a_run_is_resumed_only_with_its_own_options(tmp_path: Path) -> None:
    out = tmp_path / "m.jsonl"
    assert exact61("simulate", "--matches", "3", "--seed", "1", "--out", out).returncode == 0
    kept = out.read_bytes()
    for other in (("--seed", "2"), ("--players", "4"), ("--bot", "greedy")):
        told = exact61(
            "simulate", "--matches", "5", "--seed", "1", *other, "--out", out, "--resume"
        )
        assert told.returncode == 2 and told.stderr == (
            f"exact61: --resume: line 1 of {out} is not match 0 of this run: give the --players, "
            "--seed, --bot it was made with, or another --out\n"
        )
        assert out.read_bytes() == kept
    both = exact61("simulate", "--out", out, "--resume", "--force")
    assert both.returncode == 2 and "choose one" in both.stderr
    piped = exact61("simulate", "--out", "-", "--resume")
    assert piped.returncode == 2 and "not with standard output" in piped.stderr
    assert out.read_bytes() == kept


def test_a_run_is_not_resumed_past_its_matches(tmp_path: Path) -> None:
    """A file of more matches than --matches is refused (it said "Resuming after 3 of 2" and
    counted all 3), and left as it is."""
    out = tmp_path / "m.jsonl"
    assert exact61("simulate", "--matches", "3", "--seed", "1", "--out", out).returncode == 0
    kept = out.read_bytes()
    told = exact61("simulate", "--matches", "2", "--seed", "1", "--out", out, "--resume")
    assert told.returncode == 2 and told.stderr == (
        f"exact61: --resume: {out} holds more than the 2 matches of this run: give the "
        "--matches it was made with, or more\n"
    )
    assert out.read_bytes() == kept


def test_resume_leaves_a_file_no_run_wrote_as_it_is(tmp_path: Path) -> None:
    """A last line without its end is cut off only when it is the start of a record: --out
    naming a file of something else (one line, no newline) was emptied and overwritten."""
    for text in (b"my notes, no newline", b'{"format":"other/1"}', b"\n{"):
        out = tmp_path / "notes.txt"
        out.write_bytes(text)
        told = exact61("simulate", "--matches", "2", "--out", out, "--resume")
        assert told.returncode == 2, told.stdout
        assert "is not match 0 of this run" in told.stderr or "line 2" in told.stderr
        assert out.read_bytes() == text
    out.write_bytes(b'{"form')  # killed in the first line's first bytes: cut off, played again
    assert exact61("simulate", "--matches", "2", "--out", out, "--resume").returncode == 0
    assert out.read_bytes().count(b"\n") == 2


def finished_lines(path: Path) -> int:
    """The complete lines (matches) in `path` so far: 0 while it does not exist."""
    try:
        return path.read_bytes().count(b"\n")
    except FileNotFoundError:
        return 0


@pytest.mark.parametrize("threads", [0, 2])
def test_ctrl_c_inside_a_whole_step_waits_for_its_end(threads: int) -> None:
    # simulate and tournament write a match and count it in one step: a Ctrl+C between the
    # two once left the summary one match short of the file. Other threads (a progress bar's,
    # a worker pool's) may be the ones the signal reaches.
    import threading

    from exact61.cli.app import whole_steps

    stop = threading.Event()
    others = [threading.Thread(target=stop.wait) for _ in range(threads)]
    for other in others:
        other.start()
    done: list[str] = []
    before = signal.signal(signal.SIGINT, signal.default_int_handler)  # as a command starts
    try:
        with whole_steps() as whole_step:
            with pytest.raises(KeyboardInterrupt), whole_step:
                os.kill(os.getpid(), signal.SIGINT)
                for _ in range(1000):  # time for the handler to run, were it not held back
                    done.append("written")
                done.append("counted")
            with pytest.raises(KeyboardInterrupt):  # outside a step: at once, as ever
                os.kill(os.getpid(), signal.SIGINT)
                for _ in range(1000):
                    done.append("between")
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # as it was
    finally:
        stop.set()
        signal.signal(signal.SIGINT, before)
    assert done[1000] == "counted" and len(done) < 2001


@pytest.mark.slow
def test_backend_ray_without_ray_says_how_to_install_it(tmp_path: Path) -> None:
    # A `ray` that cannot be imported, ahead of any installed one.
    (tmp_path / "ray").mkdir()
    (tmp_path / "ray" / "__init__.py").write_text("raise ImportError('no Ray here')\n")
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    for command in (("simulate",), ("tournament", "--bots", "random,greedy")):
        options = ("--backend", "ray", "--out", str(tmp_path / "m.jsonl"))
        result = subprocess.run(
            [sys.executable, "-m", "exact61", *command, *options],
            capture_output=True,
            text=True,
            env=env,
            timeout=60,
        )
        assert result.returncode == 2
        assert result.stderr == f"exact61: --backend ray needs Ray: {install_command('scale')}\n"
        assert not (tmp_path / "m.jsonl").exists()


def _pids() -> list[int]:
    return [int(entry.name) for entry in Path("/proc").iterdir() if entry.name.isdigit()]


def _parent(pid: int) -> int | None:
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[1])
    except (OSError, IndexError, ValueError):  # a process that has just ended
        return None


def test_a_dead_worker_process_stops_the_run_on_one_line(tmp_path: Path) -> None:
    import time

    out = tmp_path / "m.jsonl"
    command = [sys.executable, "-m", "exact61", "simulate", "--matches", "100000", "--seed", "6"]
    run = subprocess.Popen(
        [*command, "--workers", "2", "--out", str(out)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and (not out.exists() or out.stat().st_size < 100_000):
        time.sleep(0.02)
    workers = [pid for pid in _pids() if _parent(pid) == run.pid]
    assert workers
    os.kill(workers[0], signal.SIGKILL)  # the process pool does not retry (Ray does)
    _, stderr = run.communicate(timeout=60)
    assert run.returncode == 1
    assert stderr == "exact61: a worker process died (out of memory, or killed)\n"
    kept = out.read_text().splitlines()
    reference = tmp_path / "ref.jsonl"
    made = exact61("simulate", "--matches", len(kept), "--seed", "6", "--out", reference)
    assert made.returncode == 0 and reference.read_text().splitlines() == kept  # whole, in order


def test_the_command_line_starts_without_numpy() -> None:
    """Start-up counts in every command (`simulate` with random bots never needs numpy): the
    equity table loads numpy when a bot or an analysis first needs it, not at import."""
    code = (
        "import sys, exact61.cli.main\n"
        "assert 'numpy' not in sys.modules, 'numpy imported at start-up'\n"
        "from exact61.search.equity import default_table\n"
        "table = default_table()\n"
        "assert 'numpy' in sys.modules and 0 < table.win_probabilities(2, (0, 0), 0)[0] < 1\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_while_a_backend_runs_its_output_goes_to_standard_error(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """`simulate --out -` writes records on standard output and nothing else: what a backend
    prints meanwhile (Ray's driver reports a worker that died there) goes to standard error."""
    from exact61.cli.backend_opts import BackendName, backend_for

    records = sys.stdout
    with backend_for(BackendName.process, 2, None, matches=2):
        print("(raylet) A worker died or was killed while executing a task")
        records.write("a record\n")
    print("after")
    out, err = capsys.readouterr()
    assert out == "a record\nafter\n"
    assert err == "(raylet) A worker died or was killed while executing a task\n"


def _without(module: str, *args: str | Path) -> subprocess.CompletedProcess[str]:
    """exact61 ARGS in a Python where `module` cannot be imported (None in sys.modules)."""
    code = (
        "import sys\n"
        f"sys.modules[{module!r}] = None\n"
        "from exact61.cli.main import run\n"
        f"sys.argv = ['exact61', *{[str(a) for a in args]!r}]\n"
        "run()\n"
    )
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("module", ["scipy", "matplotlib", "openskill"])
def test_tournament_without_its_extra_says_how_to_install_it(tmp_path: Path, module: str) -> None:
    out = tmp_path / "m.jsonl"
    result = _without(module, "tournament", "--bots", "random,greedy", "--out", out)
    assert result.returncode == 2  # the command cannot run as installed: nothing was done
    assert result.stderr == (
        "exact61: tournament needs the tournament extra (scipy, matplotlib, openskill): "
        f"{install_command('tournament')}\n"
    )
    assert result.stdout == "" and not out.exists()  # said before any match is played


@pytest.mark.slow
def test_equity_plot_without_matplotlib_says_how_to_install_it(tmp_path: Path) -> None:
    result = _without("matplotlib", "equity", "30", "40", "--plot", tmp_path / "maps")
    assert result.returncode == 2
    assert result.stderr == (
        "exact61: equity --plot needs the tournament extra (scipy, matplotlib, openskill): "
        f"{install_command('tournament')}\n"
    )
    assert result.stdout == "" and not (tmp_path / "maps").exists()
    # without --plot, equity needs only the base install
    plain = _without("matplotlib", "equity", "30", "40")
    assert plain.returncode == 0 and "Match equity, 2 players" in plain.stdout
    assert _without("scipy", "simulate", "--matches", "1", "--out", "-").returncode == 0


def test_the_extras_named_on_the_command_line_are_those_of_pyproject() -> None:
    import tomllib

    from exact61.cli.app import EXTRAS

    extras = tomllib.loads((Path(__file__).parents[2] / "pyproject.toml").read_text())["project"][
        "optional-dependencies"
    ]
    for extra, modules in EXTRAS.items():
        names = [re.split(r"[<>=\[; ]", requirement)[0] for requirement in extras[extra]]
        assert names == list(modules), extra
        assert extra in extras["test"][0].removeprefix("exact61[").rstrip("]").split(",")


@pytest.mark.slow
def test_equity_plot_to_a_png_name_writes_that_file(tmp_path: Path) -> None:
    # issue 24: --plot eq.png made a folder eq.png holding three files
    result = exact61("equity", "30", "40", "--plot", "eq.png", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    written = tmp_path / "eq.png"
    assert written.is_file() and written.read_bytes().startswith(b"\x89PNG")
    assert result.stdout.splitlines()[-1] == "Heat map: eq.png"


def test_equity_plot_keeps_pictures_that_exist_unless_forced(tmp_path: Path) -> None:
    """As simulate and tournament keep their files: --plot eq.png again is refused (2)."""
    (tmp_path / "eq.png").write_bytes(b"mine")
    (tmp_path / "maps").mkdir()
    (tmp_path / "maps" / "equity-3p.png").write_bytes(b"mine")
    for target, taken in (("eq.png", "eq.png"), ("maps", str(Path("maps") / "equity-3p.png"))):
        result = exact61("equity", "30", "40", "--plot", target, cwd=tmp_path)
        assert result.returncode == 2, result.stderr
        assert result.stderr == (
            f"exact61: --plot: {taken} exists; use --force to overwrite it or choose another "
            "--plot\n"
        )
        assert result.stdout == "" and (tmp_path / taken).read_bytes() == b"mine"
    forced = exact61("equity", "30", "40", "--plot", "eq.png", "--force", cwd=tmp_path)
    assert forced.returncode == 0, forced.stderr
    assert (tmp_path / "eq.png").read_bytes().startswith(b"\x89PNG")


def test_equity_plot_in_a_missing_folder_fails_on_one_line(tmp_path: Path) -> None:
    # issue 24: --plot /nonexist/eq.png made the folder /nonexist
    for target in (tmp_path / "absent" / "eq.png", tmp_path / "absent" / "maps"):
        result = exact61("equity", "30", "40", "--plot", target)
        assert result.returncode == 1, result.stderr
        assert result.stderr == (
            f"exact61: --plot {target}: the folder {tmp_path / 'absent'} does not exist\n"
        )
        assert result.stdout == ""
    assert list(tmp_path.iterdir()) == []


def test_tournament_report_on_a_file_says_it_wants_a_folder(tmp_path: Path) -> None:
    # issue 24: it said "cannot write: File exists"
    afile = tmp_path / "afile"
    afile.write_text("keep me\n")
    result = exact61("tournament", "--bots", "random,greedy", "--matches", "2", "--report", afile)
    assert result.returncode == 2, result.stderr
    assert result.stderr == (
        f"exact61: --report {afile}: is a file, not a folder: give --report a folder for the "
        "summary, the plots and the records\n"
    )
    assert afile.read_text() == "keep me\n"


def test_rules_through_a_pipe_are_plain_text() -> None:
    # issue 24: `exact61 rules | less` showed the Markdown (**R13**, ##)
    result = exact61("rules", "--lang", "en")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[:2] == ["Exact 61 Five Up: the rules", "=" * len("Exact 61 Five Up: the rules")]
    assert "Reading the scores" in lines and "------------------" in lines
    assert any(line.startswith("R13 Attach points.") for line in lines)
    assert not any(mark in result.stdout for mark in ("**", "`", "#"))
    picked = exact61("rules", "R13", "--lang", "de")
    assert picked.stdout.startswith("R13 ") and "**" not in picked.stdout


def test_the_whole_rule_book_in_a_terminal_is_paged(tmp_path: Path) -> None:
    """At a terminal the whole rule book (some hundred lines) ran past the top of the screen,
    an 80x24 terminal showing its end: it goes through the pager ($PAGER, else less), and a
    rule asked for by number, which fits, is printed."""
    paged = tmp_path / "paged.txt"
    pager = {"PAGER": f"cat > {paged}", "LINES": "24"}
    said = in_a_terminal("rules", "--lang", "en", columns=80, env=pager)
    book = re.sub(r"\x1b\[[0-9;]*m", "", paged.read_text())  # styled, for less -R
    assert "Exact 61 Five Up: the rules" in book and "\nR31 " in book
    assert "R31" not in said  # the screen got none of it but through the pager
    one = in_a_terminal("rules", "R13", "--lang", "en", columns=80, env=pager | {"PAGER": "false"})
    assert re.sub(r"\x1b\[[0-9;]*m", "", one).startswith("R13 Attach points.")


@pytest.mark.parametrize("command", ["simulate", "tournament"])
def test_an_unknown_backend_names_the_choices_on_one_clean_line(command: str) -> None:
    # review: pydantic's "Value error, " came through, before the choices
    result = exact61(command, "--backend", "foo")
    assert result.returncode == 2
    assert result.stderr == (
        f"exact61 {command}: Invalid value for '--backend': 'foo' is not one of 'process', "
        f"'ray' (exact61 {command} -h for help)\n"
    )


def test_replay_says_a_file_it_cannot_read_apart_from_failed_records(tmp_path: Path) -> None:
    # issue 24: a missing file was counted as a failed match
    out = tmp_path / "m.jsonl"
    exact61("simulate", "--matches", "2", "--seed", "1", "--out", out)
    absent = tmp_path / "absent.jsonl"
    result = exact61("replay", out, absent, tmp_path)
    assert result.returncode == 1
    assert result.stdout == "2 matches verified; 2 files not read\n"
    assert result.stderr == (
        f"exact61: cannot read {absent}: no such file\n"
        f"exact61: cannot read {tmp_path}: is a folder, not a record file\n"
    )
    alone = exact61("replay", absent)
    assert alone.returncode == 1 and alone.stdout == "0 matches verified; 1 file not read\n"


def test_replay_speaks_the_language_of_lang(tmp_path: Path) -> None:
    out = tmp_path / "m.jsonl"
    exact61("simulate", "--matches", "2", "--seed", "1", "--out", out)
    lines = out.read_text().splitlines()
    bad = json.loads(lines[1])
    bad["rounds"][0]["actions"][0]["seat"] = 1 - bad["rounds"][0]["actions"][0]["seat"]
    out.write_text(lines[0] + "\n" + json.dumps(bad) + "\n")
    absent = tmp_path / "absent.jsonl"
    ru = exact61("replay", out, absent, "--lang", "ru")
    assert ru.returncode == 1
    no_traceback(ru)
    reported = ru.stdout.splitlines()
    # where the record goes wrong, in Russian; why, as the rules engine says it (R-numbered)
    assert reported[0].startswith(f"{out}: матч 1, раунд 1, действие 0: ")
    assert reported[1] == "проверен 1 матч, 1 с ошибкой; 1 файл не прочитан"  # noqa: RUF001
    assert ru.stderr == f"exact61: не удаётся прочитать {absent}: файл не найден\n"
    pl = exact61("replay", out, out, "--lang", "pl")
    assert pl.stdout.splitlines()[-1] == "sprawdzono 2 mecze, 2 z błędem"
    de = exact61("replay", "--lang", "de", absent)
    assert de.stdout == "0 Partien geprüft; 1 Datei nicht gelesen\n"


def test_show_speaks_the_language_of_lang(tmp_path: Path) -> None:
    match, path = _domino_b(tmp_path)
    english = exact61("show", path, "--round", "1", "--action", "3", "--no-picture")
    ru = exact61("show", path, "--round", "1", "--action", "3", "--no-picture", "--lang", "ru")
    assert ru.returncode == 0, ru.stderr
    said = ru.stdout.splitlines()
    # the same facts, line for line, in the words the terminal game uses for them (R12-R15)
    assert len(said) == len(english.stdout.splitlines())
    assert said[0] == (
        "Матч 0, раунд 1, действие 3: Место 2 приставляет [0|1] к [1|1] (сторона линии B)"
    )
    assert said[1] == "Зачётные концы: 0+5 = 5. Начисление за выкладывание: 1 (5)"
    assert said[3] == "Разветвляющие дубли: [1|1]"
    assert said[-1] == "Базар: 8 костей"
    assert not re.search("[A-Za-z]{3,}", "\n".join(said))  # no English word left
    last = exact61("show", path, "--lang", "pl", "--no-picture").stdout.splitlines()
    assert last[-1].startswith(
        "Runda zakończona ostatnim klockiem (R18); odkryte ręce: Miejsce 0: "
    )
    # the hand played out says so (it read "- = 0 oczek")
    assert "brak klocków" in last[-1] and "- = " not in last[-1], last[-1]
    # an index the file does not have: a usage error (exit 2) in the language, counted right
    missing = exact61("show", path, "--round", "1", "--action", "99", "--lang", "pl")
    assert missing.returncode == 2
    actions = len(match.rounds[0].steps)
    assert actions % 10 not in (2, 3, 4)  # Polish's third form ("many"), as below
    assert f"{path}: mecz 0, runda 1 nie ma akcji 99 (ma {actions} akcji)" in missing.stderr
    no_traceback(missing)
    de = exact61("show", path, "--round", "2", "--lang", "de")
    assert de.returncode == 2 and "keine Runde 2 (sie hat 1 Runde)" in de.stderr


def in_a_terminal(*args: str | Path, columns: int, env: dict[str, str] | None = None) -> str:
    """What `exact61 args` prints to a terminal `columns` wide (a pseudo-terminal, its input
    too), its lines ended by newlines as a pipe's are; `env` added to the environment."""
    main, sub = pty.openpty()
    done = subprocess.run(
        [sys.executable, "-m", "exact61", *map(str, args)],
        stdin=sub,
        stdout=sub,
        stderr=subprocess.PIPE,
        timeout=120,
        env={**os.environ, "COLUMNS": str(columns), **(env or {})},
        check=False,
    )
    os.close(sub)
    assert done.returncode == 0, done.stderr
    said = b""
    while True:
        try:
            chunk = os.read(main, 4096)
        except OSError:  # the terminal's other end is closed: all is read
            break
        if not chunk:
            break
        said += chunk
    os.close(main)
    return said.decode().replace("\r\n", "\n")


@pytest.mark.parametrize(
    ("command", "columns"),
    [
        (("show", "--round", "1", "--action", "3", "--no-picture", "--lang", "de"), 44),
        (("equity", "10", "20", "--players", "4", "--lang", "ru"), 60),
    ],
)
def test_a_report_fits_the_terminal_at_spaces(
    tmp_path: Path, command: tuple[str, ...], columns: int
) -> None:
    # long lines wrapped by the terminal itself broke words in two ("Ende mit grö|ßerer")
    args = list(command)
    if args[0] == "show":
        args.insert(1, str(_domino_b(tmp_path)[1]))
    piped = exact61(*args).stdout
    assert any(len(line) > columns for line in piped.splitlines())  # there is a line to fit
    shown = in_a_terminal(*args, columns=columns)
    assert max(len(line) for line in shown.splitlines()) <= columns
    assert shown.split() == piped.split()  # the same words, none cut, none lost
    lines = piped.splitlines()  # a line continued is indented past its start
    assert any(line.startswith("  ") and line not in lines for line in shown.splitlines())


def test_a_picture_wider_than_the_terminal_is_not_cut_into_pieces(tmp_path: Path) -> None:
    record = _domino_b(tmp_path)[1]
    piped = exact61("show", record, "--lang", "pl").stdout
    facts = exact61("show", record, "--lang", "pl", "--no-picture").stdout
    lines, fact_lines = piped.splitlines(), facts.splitlines()
    picture = lines[1 : len(lines) - len(fact_lines) + 1]  # between the header and the facts
    assert lines[0] == fact_lines[0] and lines[len(picture) + 1 :] == fact_lines[1:]
    wide = max(len(line) for line in picture)
    shown = in_a_terminal("show", record, "--lang", "pl", columns=wide - 1)
    assert max(len(line) for line in shown.splitlines()) < wide
    flat = " ".join(shown.split())
    assert f"ma {wide} kolumn" in flat and "less -S" in flat
    assert "\n".join(picture) in in_a_terminal("show", record, "--lang", "pl", columns=wide)


def test_equity_speaks_the_language_of_lang() -> None:
    from exact61.search.equity import default_table

    lot = default_table().win_probabilities(2, [200, 250], None)  # 40-50 in display points
    de = exact61("equity", "40", "50", "--lang", "de")
    assert de.returncode == 0, de.stderr
    said = de.stdout.splitlines()
    assert said[0] == "Partie-Equity, 2 Spieler, Stand 40-50 (angezeigte Punkte):"
    # each seat's chance as German writes a percentage (R8: the opener drawn by lot)
    shares = [f"{100 * p:.1f}".replace(".", ",") + "\u00a0%" for p in lot]
    assert said[3] == f"  Eröffner durch Los: Platz 0 {shares[0]}, Platz 1 {shares[1]}"
    assert said[-1].startswith("Aus einer Markow-Kette über 12.000 Runden")
    ru = exact61("equity", "40", "50", "55", "--players", "3", "--lang", "ru")
    assert ru.stdout.startswith("Шансы в матче, 3 игрока, счёт 40-50-55 (отображаемые очки):")
    assert "начинает место 2: место 0 " in ru.stdout
    # a bad score is refused in the language, citing its rule (exit 2)
    for scores, words in (
        (["70", "40"], "exact61: счёт 70: отображаемые очки доходят до 61 (R3)\n"),
        (["61", "61"], "exact61: две стороны на 61: матч выигрывает та, что первой набрала "
         "ровно 61 (R30)\n"),
    ):  # fmt: skip
        refused = exact61("equity", *scores, "--lang", "ru")
        assert refused.returncode == 2 and refused.stderr == words, refused.stderr
    pl = exact61("equity", "40", "--lang", "pl")
    assert pl.stderr == "exact61: 2 graczy tworzy 2 strony: podaj 2 wyniki, nie 1\n"
    # a match already won is said so, not as chances of 100% with a note on errors
    won = exact61("equity", "30", "61", "--players", "4", "--lang", "de")
    assert won.returncode == 0 and won.stdout.splitlines()[1:] == [
        "  Seite 1 (Plätze 1+3) hat die Partie gewonnen: genau 61 erreicht (R30)."
    ], won.stdout


def test_play_resume_of_a_corrupt_save_says_it_cannot_read_it(tmp_path: Path) -> None:
    # issue 24: it said "no unfinished game to resume", as if there were no save
    games = tmp_path / "data" / "games"
    games.mkdir(parents=True)
    save = games / "20261201-120000-7.json"
    save.write_text('{"format": "exact61-match/1", "players": 2, "rou')  # cut mid-write

    def resume(*lang: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "exact61", "play", "--resume", "--plain", *lang],
            capture_output=True,
            text=True,
            input="",
            timeout=60,
            env={**os.environ, "EXACT61_DATA_DIR": str(tmp_path / "data")},
        )

    result = resume()
    assert result.returncode == 1
    assert result.stderr == (
        f"exact61: cannot read the saved game {save}: not a saved game (not a JSON record); it "
        "is left as it is (move it out of that folder to resume an older game)\n"
    )
    assert save.read_text() == '{"format": "exact61-match/1", "players": 2, "rou'
    assert [p.name for p in games.iterdir()] == [save.name]
    in_polish = resume("--lang", "pl")  # why, in the person's language too (it was English)
    assert in_polish.returncode == 1
    assert "to nie jest zapisana gra (nie jest zapisem JSON)" in in_polish.stderr


def test_help_shows_no_type_for_flags_and_names_file_lists() -> None:
    # review: `--plain <bool>` and `files...` in the help
    play = exact61("play", "--help").stdout
    plain = next(line for line in play.splitlines() if "--plain" in line)
    assert "<bool>" not in plain and "Line by line" in plain
    for command in ("play", "tournament", "serve"):  # the help flag itself shows no type
        shown = exact61(command, "-h").stdout
        assert "<bool>" not in next(line for line in shown.splitlines() if "--help" in line)
    assert "<bool>" not in exact61("--help").stdout
    replay = exact61("replay", "--help").stdout
    assert "Usage: exact61 replay [OPTIONS] {FILE}..." in replay
    assert "FILE" in replay.split("Arguments")[1]
    assert "RULE" in exact61("rules", "--help").stdout.split("Arguments")[1]


def test_analyze_help_wraps_its_paragraphs_to_the_screen() -> None:
    # review: the help broke lines where the docstring's source lines end, mid-sentence
    result = subprocess.run(
        [sys.executable, "-m", "exact61", "analyze", "--help"],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "COLUMNS": "80"},
    )
    lines = [line.strip() for line in result.stdout.splitlines()]
    start = next(i for i, line in enumerate(lines) if line.startswith("For each decision"))
    paragraph = lines[start : lines.index("", start)]
    assert len(paragraph) > 1 and all(len(line) > 60 for line in paragraph[:-1]), paragraph


def test_simulate_into_a_reader_that_stops_early_ends_with_141_and_says_nothing(
    tmp_path: Path,
) -> None:
    """`exact61 simulate --out - | head -c 100`: the records' reader goes away after one read;
    the command stops there, quietly, with the status a shell gives a broken pipe (141), not
    writing all its matches into the void nor ending as a failure (click's 1)."""
    command = [sys.executable, "-m", "exact61", "simulate", "--matches", "100000", "--out", "-"]
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE) as child:
        assert child.stdout is not None and child.stderr is not None
        assert json.loads(child.stdout.readline())["players"] == 2  # a record came
        child.stdout.close()
        code = child.wait(timeout=120)
        err = child.stderr.read().decode()
    assert code == 141, err
    assert err == ""


@pytest.mark.parametrize(
    ("engine", "lang", "named"),
    [("python", "de", "Python-Engine"), ("native", "ru", "нативный движок, Rust")],
)
def test_the_version_names_the_engine_in_the_players_language(
    engine: str, lang: str, named: str
) -> None:
    from exact61.core import engines

    if engine == "native" and engines.NATIVE is None:
        pytest.skip("the native engine is not built here")
    env = {**os.environ, "EXACT61_ENGINE": engine, "LANGUAGE": lang}
    done = subprocess.run(
        [sys.executable, "-m", "exact61", "--version"], capture_output=True, text=True, env=env
    )
    assert done.returncode == 0 and done.stdout == f"exact61 {__version__} ({named})\n", done


def test_play_resume_beside_a_saved_game_that_is_gone_says_which_in_the_language(
    cli: Cli, tmp_path: Path
) -> None:
    """A link in the games folder to a game that is gone (moved, or on a disk not mounted) was
    said as the system's English, `[Errno 2] No such file or directory: '…'`, in any language:
    it is a saved game that cannot be read, said as the others are, and left as it is."""
    games = tmp_path / "data" / "games"
    games.mkdir(parents=True)
    gone = games / "20261201-120000-7.json"
    gone.symlink_to(tmp_path / "elsewhere" / "20261201-120000-7.json")
    result = cli("play", "--resume", "--plain", "--lang", "de")
    assert result.code == 1
    assert result.err.startswith(
        f"exact61: das gespeicherte Spiel {gone} kann nicht gelesen werden: "
    ), result.err
    assert result.err.count("\n") == 1 and "Errno" not in result.err
    assert gone.is_symlink()
