"""The `ray` backend: batches as Ray tasks, retried on another worker when theirs dies.

Ray is the optional extra `exact61[scale]`; this module imports it only when used.
"""

from __future__ import annotations

import contextlib
import logging
import os
import socket
import sys
from collections.abc import Callable, Hashable, Sequence
from typing import Any

from exact61.scale.backends import BackendError
from exact61.scale.ordered import play_batch

INSTALL = "--backend ray needs Ray: pip install 'exact61[scale]'"
LOCAL_OBJECT_STORE = 256 * 2**20  # results are a few MB a batch; Ray's default takes 30% of RAM


def _host_port(address: str) -> tuple[str, int | None]:
    host, colon, port = address.removeprefix("ray://").rpartition(":")
    if not colon or not port.isdecimal():
        return address, None
    return host.strip("[]"), int(port)


def check_reachable(address: str, seconds: float = 5.0) -> None:
    """Fail fast for a HOST:PORT that takes no connection: Ray itself would retry for ever,
    printing a warning every few seconds."""
    host, port = _host_port(address)
    if port is None:
        return  # `auto` and the like: Ray looks the cluster up and says if there is none
    try:
        socket.create_connection((host, port), timeout=seconds).close()
    except OSError as err:
        reason = str(err.strerror or err)
        raise BackendError(
            f"cannot reach the Ray cluster at {address}: {reason}",
            problem="unreachable",
            address=address,
            reason=reason,
        ) from None


def import_ray(loopback: bool) -> Any:
    """Import Ray; `loopback`: to start a cluster for this machine only. On Linux Ray gives its
    processes the machine's network address and listens on every interface; this setting (read
    when Ray is imported, and inherited by the processes started from here) makes it use
    127.0.0.1, so the cluster takes no connection from elsewhere."""
    if loopback and "ray" not in sys.modules:
        os.environ.setdefault("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")
        os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")  # no report sent from a local run
    try:
        import ray
    except ImportError:
        raise BackendError(INSTALL, code=2, problem="install") from None
    return ray


class RayBackend:
    """Batches as Ray tasks. A task whose worker process dies is run again (`max_retries`): a
    batch is a pure function of its jobs, so the rerun gives the same results, and its result
    is taken once.

    Ray's driver prints what its cluster reports (a worker that died, a task it retries) on
    this process's standard output, whatever `sys.stdout` is at the time: a caller whose
    standard output carries data sends it elsewhere while this runs (`exact61 simulate --out -`
    does, through `exact61.cli.backend_opts.backend_for`)."""

    batch_seconds = 0.25  # a task costs about a millisecond of scheduling and transfer
    max_retries = 3

    def __init__(self, workers: int | None = None, address: str | None = None) -> None:
        address = address or os.environ.get("RAY_ADDRESS") or None
        ray = import_ray(loopback=address is None)
        self._ray = ray
        self._started = False
        if not ray.is_initialized():
            options: dict[str, Any] = {
                "include_dashboard": False,
                "log_to_driver": False,  # workers' output and Ray's start-up lines stay out
                "logging_level": logging.ERROR,
            }
            if address is None:
                options |= {"num_cpus": workers, "object_store_memory": LOCAL_OBJECT_STORE}
            else:
                check_reachable(address)
            try:
                # "local": a new cluster, never one some other `ray start` left on this machine
                ray.init(address=address or "local", **options)
            except Exception as err:  # Ray raises ConnectionError, ValueError, RuntimeError...
                where = f"the Ray cluster at {address}" if address else "a local Ray cluster"
                first = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
                raise BackendError(
                    f"cannot reach {where}: {first}",
                    problem="unreachable",
                    address=address or "",
                    reason=first,
                ) from None
            self._started = True
        cpus = int(ray.cluster_resources().get("CPU", 0))
        self.slots: int = workers or max(cpus, 1)
        self._task = ray.remote(max_retries=self.max_retries, retry_exceptions=False)(play_batch)
        self._play: tuple[Callable[[Any], Any], Any] | None = None

    def submit(self, play: Callable[[Any], Any], jobs: Sequence[Any]) -> Hashable:
        if self._play is None or self._play[0] is not play:
            self._play = (play, self._ray.put(play))  # sent once, not with every batch
        ref: Hashable = self._task.remote(self._play[1], list(jobs))
        return ref

    def wait(self, tickets: Sequence[Hashable]) -> Sequence[Hashable]:
        done, _ = self._ray.wait(list(tickets), num_returns=1)
        return list(done)

    def result(self, ticket: Hashable) -> tuple[list[Any], float]:
        exceptions = self._ray.exceptions
        try:
            results, seconds = self._ray.get(ticket)
        except exceptions.RayTaskError as err:  # the batch itself raised: the same error here
            raise err.as_instanceof_cause() from None
        except exceptions.RayError as err:
            first = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
            raise BackendError(
                f"a batch failed on Ray after {self.max_retries} retries: {first}",
                problem="retries",
                reason=first,
                retries=self.max_retries,
            ) from None
        return list(results), float(seconds)

    def cancel(self, tickets: Sequence[Hashable]) -> None:
        for ticket in tickets:
            with contextlib.suppress(Exception):  # already finished or gone: nothing to stop
                self._ray.cancel(ticket, force=True)  # ends the worker: a match can take minutes

    def close(self) -> None:
        if self._started:
            self._ray.shutdown()
