"""Past one process (exact61.scale): results in job order on any backend, and on a real Ray
cluster the same records and table as one worker and the process pool, through a dying worker
and an interrupt.

One local Ray cluster on 127.0.0.1 serves the whole module (it takes seconds to start): tests
in this process use it directly, and the command line joins it with --address. Every test on a
cluster is marked slow. Without Ray the Ray tests skip, except under CI, which installs
exact61[scale]: there they fail.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Hashable, Iterator, Sequence
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from exact61 import replay
from exact61.scale import BackendError, play_batch, run_in_order
from exact61.simulation.runs import simulate_lines, simulated_line
from tests.helpers import as_in_a_terminal

# ---- the in-order runner, on backends made to misbehave (no Ray needed) -------------------


class ShuffledBackend:
    """Runs each batch at once, then reports done batches in a random order, each ticket
    twice (in one report and again in a later one), as an at-least-once backend could."""

    batch_seconds = 0.005  # five jobs a batch once the runner has seen 1 ms a job
    slots = 3

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.results: dict[int, tuple[list[Any], float]] = {}
        self.reported: list[int] = []
        self.batches: list[tuple[int, int]] = []  # first and last job of each, as submitted

    def submit(self, play: Callable[[Any], Any], jobs: Sequence[Any]) -> Hashable:
        ticket = len(self.results)
        self.results[ticket] = play_batch(play, jobs)
        self.batches.append((jobs[0], jobs[-1]))
        return ticket

    def wait(self, tickets: Sequence[Hashable]) -> Sequence[Hashable]:
        done = [t for t in tickets if self.rng.random() < 0.4] or [self.rng.choice(tickets)]
        again = self.reported[-2:]  # tickets already reported once
        self.reported += done  # type: ignore[arg-type]
        return [*done, *done, *again]

    def result(self, ticket: Hashable) -> tuple[list[Any], float]:
        results, _ = self.results[ticket]  # type: ignore[index]
        return results, 0.001 * len(results)

    def cancel(self, tickets: Sequence[Hashable]) -> None:
        pass


def _square(n: int) -> tuple[int, int]:
    return n, n * n


@pytest.mark.parametrize("seed", range(5))
def test_results_come_once_each_in_job_order_whatever_the_backend_reports(seed: int) -> None:
    backend = ShuffledBackend(seed)
    done: list[int] = []
    got, most_out = [], 0
    for result in run_in_order(_square, range(500), backend, done.append):
        got.append(result)
        # batches out: submitted and not yet wholly yielded (running, or waiting for an
        # earlier one); memory stays flat: never more than two per slot
        most_out = max(most_out, sum(1 for _, last in backend.batches if last >= result[0]))
    assert got == [_square(n) for n in range(500)]  # none lost, none doubled, in order
    assert sum(done) == 500  # progress told once per job, duplicates not counted
    sizes = [last - first + 1 for first, last in backend.batches]
    assert len(sizes) > 10 and max(sizes) > 1 and sum(sizes) == 500
    assert 2 <= most_out <= 2 * backend.slots


def test_a_batch_that_comes_back_short_is_an_error() -> None:
    class Short(ShuffledBackend):
        def result(self, ticket: Hashable) -> tuple[list[Any], float]:
            results, seconds = super().result(ticket)
            return results[:-1], seconds

    with pytest.raises(RuntimeError, match="came back with"):
        list(run_in_order(_square, range(10), Short(1)))


# ---- a real Ray cluster on loopback ---------------------------------------------------------


def _import_ray() -> Any:
    from exact61.scale.ray_backend import import_ray

    try:
        return import_ray(loopback=True)  # before anything else imports Ray: 127.0.0.1 only
    except BackendError:
        if os.environ.get("CI") == "true":
            pytest.fail("CI installs exact61[scale], but Ray is not importable", pytrace=False)
        pytest.skip("Ray is not installed: pip install -e '.[test]' (exact61[scale])")


@pytest.fixture(scope="module")
def cluster() -> Iterator[tuple[Any, str]]:
    """A local Ray cluster with 2 CPUs on 127.0.0.1, and the address to join it at."""
    ray = _import_ray()
    from exact61.scale.ray_backend import RayBackend

    backend = RayBackend(workers=2)
    address = ray.get_runtime_context().gcs_address
    assert address.startswith("127.0.0.1:")
    try:
        yield backend, address
    finally:
        backend.close()


def exact61(*args: str | Path, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "exact61", *map(str, args)],
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def _summary(stdout: str) -> list[str]:
    """The simulate summary without its timing and the file's name."""
    lines = [line for line in stdout.splitlines() if not line.startswith("Records:")]
    return [line.split(" in ")[0] if " actions in " in line else line for line in lines]


@pytest.mark.slow
def test_simulate_gives_the_same_records_on_ray_as_with_one_worker_and_the_pool(
    cluster: tuple[Any, str], tmp_path: Path
) -> None:
    _, address = cluster
    common = ("simulate", "--players", "3", "--matches", "80", "--seed", "4", "--bot", "greedy")
    runs = {
        "one": ("--workers", "1"),
        "pool": ("--workers", "2"),
        "ray": ("--backend", "ray", "--address", address),
        "ray1": ("--backend", "ray", "--address", address, "--workers", "1"),
    }
    files, outputs = {}, {}
    for name, options in runs.items():
        files[name] = tmp_path / f"{name}.jsonl"
        result = exact61(*common, *options, "--out", files[name])
        assert result.returncode == 0, result.stderr
        assert result.stderr == ""  # nothing of Ray's start-up or workers on the terminal
        outputs[name] = _summary(result.stdout)
    texts = {name: path.read_bytes() for name, path in files.items()}
    assert len(set(texts.values())) == 1, "records differ between backends"
    assert all(output == outputs["one"] for output in outputs.values())
    assert "80 matches" in outputs["one"][0]
    lines = texts["one"].decode().splitlines()
    assert [json.loads(line)["seed"] for line in lines[:2]] == [
        json.loads(simulated_line(3, 4, ["greedy"] * 3, i)[0])["seed"] for i in range(2)
    ]
    assert exact61("replay", files["ray"]).stdout.strip() == "80 matches verified"


@pytest.mark.slow
def test_simulate_starts_its_own_local_cluster_without_an_address(tmp_path: Path) -> None:
    _import_ray()
    one, own = tmp_path / "one.jsonl", tmp_path / "own.jsonl"
    common = ("simulate", "--players", "2", "--matches", "40", "--seed", "11")
    assert exact61(*common, "--out", one).returncode == 0
    result = exact61(*common, "--backend", "ray", "--workers", "2", "--out", own)
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""  # Ray's start-up and shutdown say nothing
    assert own.read_bytes() == one.read_bytes()


def _tournament(tmp_path: Path, name: str, *options: str) -> tuple[dict[str, Any], list[Any]]:
    report = tmp_path / name
    result = exact61(
        "tournament",
        "--bots",
        "random,greedy,heuristic",
        "--players",
        "3",
        "--matches",
        "12",
        "--seed",
        "5",
        "--report",
        report,
        *options,
    )
    assert result.returncode == 0, result.stderr
    assert "12 matches, 3 players, seed 5" in result.stdout
    summary = json.loads((report / "summary.json").read_text())
    for row in summary["bots"].values():
        row.pop("ms_per_move")  # time, not result
    records = [json.loads(line) for line in (report / "matches.jsonl").read_text().splitlines()]
    for record in records:
        record.pop("think_ms")
    return summary, records


@pytest.mark.slow
def test_tournament_gives_the_same_table_and_records_on_ray(
    cluster: tuple[Any, str], tmp_path: Path
) -> None:
    _, address = cluster
    one = _tournament(tmp_path, "one", "--workers", "1")
    pool = _tournament(tmp_path, "pool", "--workers", "2")
    on_ray = _tournament(tmp_path, "ray", "--backend", "ray", "--address", address)
    assert one == pool == on_ray
    summary, records = one
    assert summary["matches"] == 12 and sum(row["wins"] for row in summary["bots"].values()) == 12
    assert all(replay(json.dumps(record)).is_over for record in records)


@pytest.mark.slow
def test_a_worker_that_dies_has_its_matches_played_again_once(
    cluster: tuple[Any, str], tmp_path: Path
) -> None:
    backend, _ = cluster
    marker = tmp_path / "died"
    real = partial(simulated_line, 2, 8, ("random", "random"))

    def dies_once(index: int) -> Any:
        if index == 30 and not marker.exists():
            marker.touch()
            os._exit(1)  # the worker process dies in the middle of its batch
        return real(index)

    reference = list(simulate_lines(2, 120, 8, ["random"] * 2))  # in this process
    retried = list(run_in_order(dies_once, range(120), backend))
    assert marker.exists()  # a worker did die
    assert retried == reference  # its batch was played again: nothing lost, nothing twice


def _descendants(pid: int) -> list[int]:
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ppid = int((entry / "stat").read_text().rpartition(")")[2].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(ppid, []).append(int(entry.name))
    found, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def _playing_workers() -> list[int]:
    """This test's cluster's worker processes running a batch (Ray names them by their task)."""
    busy = []
    for pid in _descendants(os.getpid()):
        try:
            title = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            continue
        if title.startswith(b"ray::play_batch"):
            busy.append(pid)
    return busy


@pytest.mark.slow
def test_killing_a_ray_worker_mid_run_changes_no_record(
    cluster: tuple[Any, str], tmp_path: Path
) -> None:
    _, address = cluster
    one = tmp_path / "one.jsonl"
    common = ("--players", "2", "--matches", "1500", "--seed", "12")
    assert exact61("simulate", *common, "--out", one).returncode == 0
    command = [sys.executable, "-m", "exact61", "simulate", *common, "--out", "-"]
    run = subprocess.Popen(
        [*command, "--backend", "ray", "--address", address],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    killed = 0
    deadline = time.monotonic() + 120
    while run.poll() is None and killed < 2 and time.monotonic() < deadline:
        for pid in _playing_workers()[:1]:
            os.kill(pid, signal.SIGKILL)  # kill -9 a worker in the middle of a batch
            killed += 1
            time.sleep(0.5)
        time.sleep(0.01)
    stdout, stderr = run.communicate(timeout=300)
    assert killed >= 1, "the run ended before a worker could be killed"
    assert run.returncode == 0, stderr
    # every match once, in order, and nothing but records on standard output: what Ray says
    # of the dead worker goes to standard error
    assert stdout == one.read_text()
    assert "1,500 matches" in stderr


@pytest.mark.slow
def test_an_interrupt_keeps_every_match_finished_in_order(cluster: tuple[Any, str]) -> None:
    backend, _ = cluster
    finished = 0

    def progress(n: int) -> None:
        nonlocal finished
        finished += n
        if finished >= 60:
            raise KeyboardInterrupt  # as Ctrl+C would, from the progress bar

    kept: list[tuple[str, Any]] = []
    with pytest.raises(KeyboardInterrupt):
        for line in simulate_lines(2, 5000, 9, ["random"] * 2, backend, progress):
            kept.append(line)
    assert 0 < len(kept) < 5000
    assert kept == list(simulate_lines(2, len(kept), 9, ["random"] * 2))
    # the batches still out were cancelled, and the cluster plays on
    again = list(simulate_lines(2, 6, 9, ["random"] * 2, backend))
    assert again == list(simulate_lines(2, 6, 9, ["random"] * 2))


@pytest.mark.slow
def test_ctrl_c_on_the_command_line_keeps_every_finished_match(
    cluster: tuple[Any, str], tmp_path: Path
) -> None:
    _, address = cluster
    out = tmp_path / "m.jsonl"
    command = [sys.executable, "-m", "exact61", "simulate", "--matches", "100000", "--seed", "3"]
    run = subprocess.Popen(
        [*command, "--backend", "ray", "--address", address, "--out", str(out)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        preexec_fn=as_in_a_terminal,
    )
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and (not out.exists() or out.stat().st_size < 50_000):
        time.sleep(0.05)
    os.killpg(run.pid, signal.SIGINT)  # Ctrl+C: the whole process group, as a terminal does
    stdout, stderr = run.communicate(timeout=120)
    assert run.returncode == 130, stderr
    assert "Traceback" not in stderr
    kept = out.read_text().splitlines()
    assert f"Interrupted after {len(kept):,} of 100,000 matches." in stdout
    assert 0 < len(kept) < 100_000
    reference = tmp_path / "ref.jsonl"
    made = exact61("simulate", "--matches", str(len(kept)), "--seed", "3", "--out", reference)
    assert made.returncode == 0, made.stderr
    assert reference.read_text().splitlines() == kept
