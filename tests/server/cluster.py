"""A throwaway PostgreSQL cluster of one's own (Debian's `pg_createcluster`, as `pg_virtualenv`
makes one), which can be stopped and started under a running server: the outage test and
benchmarks/bench_server_abuse.py use it. No pytest here: the benchmark imports it too."""

from __future__ import annotations

import contextlib
import os
import secrets
import socket
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path


@contextlib.contextmanager
def own_cluster(prefix: str) -> Iterator[tuple[str, Callable[[bool], None]]]:
    """A new cluster named `prefix` and a random suffix, on a free port, trusting local
    connections; yields its URL and a function that stops (`False`) or starts (`True`) it;
    dropped afterwards."""
    installed = sorted(Path("/usr/lib/postgresql").iterdir(), key=lambda p: int(p.name))
    major = os.environ.get("PGVERSION") or installed[-1].name
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    name = f"{prefix}{secrets.token_hex(3)}"
    create = ["pg_createcluster", major, name, "-p", str(port), "--start"]
    subprocess.run(
        [*create, "--", "--auth-host=trust", "--auth-local=trust"],
        check=True,
        capture_output=True,
    )

    def switch(on: bool) -> None:
        verb = ["start"] if on else ["stop", "-m", "fast"]
        subprocess.run(["pg_ctlcluster", major, name, *verb], check=True, capture_output=True)

    try:
        yield f"postgresql+psycopg://postgres@127.0.0.1:{port}/postgres", switch
    finally:
        subprocess.run(["pg_dropcluster", major, name, "--stop"], check=False, capture_output=True)
