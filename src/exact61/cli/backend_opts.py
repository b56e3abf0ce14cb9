"""The options `simulate` and `tournament` share to play past one process: --workers, --backend,
--address, and the backend they open (errors as one line)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager, redirect_stdout
from enum import StrEnum
from typing import Annotated

import typer

from exact61.cli.app import CliError, install_command
from exact61.i18n import N_, _, ngettext, number
from exact61.scale import Backend, BackendError, open_backend


class BackendName(StrEnum):
    process = "process"
    ray = "ray"


Workers = Annotated[
    int | None,
    typer.Option(
        min=1,
        help=N_(
            "Workers playing at once (results do not depend on it): processes for --backend "
            "process (default 1: this process); for ray, tasks at once (default: the cluster's "
            "CPUs; a local cluster gets this many)."
        ),
    ),
]
BackendOption = Annotated[
    BackendName,
    typer.Option(
        "--backend",
        help=N_(
            "process: worker processes on this machine; ray: a Ray cluster (pip install "
            "'exact61[scale]'). Same results either way."
        ),
    ),
]
Address = Annotated[
    str | None,
    typer.Option(
        metavar="HOST:PORT",
        help=N_(
            "--backend ray: the cluster to join (HOST:PORT of its head, or auto; default: "
            "RAY_ADDRESS, else a local cluster on 127.0.0.1 for this run)."
        ),
    ),
]


@contextmanager
def backend_for(
    name: BackendName, workers: int | None, address: str | None, matches: int
) -> Iterator[Backend | None]:
    """`open_backend`, with its errors and a dead worker process as one-line CLI errors, in
    the current language; no more workers than the `matches` to play (`--workers 100000` for
    two matches had started a hundred thousand processes).

    While it is open, what is printed on standard output goes to standard error: records may be
    written there (`--out -`, to the stream taken before), and a backend may print what it has
    to report (Ray's driver says there that a worker died and its task is retried)."""
    try:
        with (
            redirect_stdout(sys.stderr),
            open_backend(
                name.value, None if workers is None else max(1, min(workers, matches)), address
            ) as backend,
        ):
            yield backend
    except BackendError as err:
        raise CliError(backend_error(err), code=err.code) from None
    except BrokenProcessPool:
        raise CliError(_("a worker process died (out of memory, or killed)"), code=1) from None


def backend_error(err: BackendError) -> str:
    """A backend's error in the current language, from its parts (the backends speak
    English); what Ray or the system said stays as they said it."""
    if err.problem == "address":
        return _("--address is for --backend ray")
    if err.problem == "install":
        return _("--backend ray needs Ray: {install}").format(install=install_command("scale"))
    if err.problem == "unreachable" and err.address:
        return _("cannot reach the Ray cluster at {address}: {reason}").format(
            address=err.address, reason=err.reason
        )
    if err.problem == "unreachable":
        return _("cannot reach a local Ray cluster: {reason}").format(reason=err.reason)
    if err.problem == "retries":
        return ngettext(
            "a batch failed on Ray after {n} retry: {reason}",
            "a batch failed on Ray after {n} retries: {reason}",
            err.retries,
        ).format(n=number(err.retries), reason=err.reason)
    return str(err)
