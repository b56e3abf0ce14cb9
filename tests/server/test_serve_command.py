"""`exact61 serve --db`: a file's path is an SQLite database there, and a database it cannot
use is a one-line error with exit 2 before anything starts (a newcomer's `--db games.db` was an
"internal error", exit 70)."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from tests.server.kit import ServerProcess

pytestmark = pytest.mark.server


def test_a_files_path_is_an_sqlite_database_there(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    process = ServerProcess(str(path), tmp_path)
    server = process.start()
    try:
        body = {"players": 2, "seats": ["human", "bot:greedy"]}
        assert httpx.post(f"{server.url}/api/games", json=body).status_code == 201
    finally:
        process.stop()
    assert path.is_file() and path.read_bytes().startswith(b"SQLite format 3")


@pytest.mark.parametrize(
    ("db", "words"),
    [
        ("/nonexistent/folder/games.db", "no folder /nonexistent/folder for the database file"),
        ("sqlite:////nonexistent/folder/games.db", "no folder /nonexistent/folder"),
        ("foo::bar://", "not a database URL"),
        ("mysql://somewhere/db", "unsupported database 'mysql'"),
    ],
)
def test_a_database_it_cannot_use_is_one_line_and_exit_2(
    tmp_path: Path, db: str, words: str
) -> None:
    env = {**os.environ, "EXACT61_DATA_DIR": str(tmp_path)}
    command = [sys.executable, "-m", "exact61", "serve", "--port", "0", "--db", db]
    result = subprocess.run(command, env=env, capture_output=True, text=True, timeout=60)
    assert result.returncode == 2, result.stderr
    assert result.stderr.strip().count("\n") == 0 and words in result.stderr, result.stderr
    assert "Traceback" not in result.stderr


def test_a_port_another_program_listens_on_is_one_line_and_exit_2(tmp_path: Path) -> None:
    """A second `exact61 serve` on a taken port said it served there, logged uvicorn's error
    and exited 3; now it says which address it cannot listen on and starts nothing."""
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        env = {**os.environ, "EXACT61_DATA_DIR": str(tmp_path)}
        command = [sys.executable, "-m", "exact61", "serve", "--port", str(port)]
        result = subprocess.run(command, env=env, capture_output=True, text=True, timeout=60)
    assert result.returncode == 2, result.stderr
    assert result.stderr == f"exact61: cannot listen on 127.0.0.1:{port}: Address already in use\n"
    assert "serves on" not in result.stdout
    assert not any(tmp_path.iterdir())  # nothing was started: no database, no folder


def test_port_0_says_the_port_the_system_chose(tmp_path: Path) -> None:
    """`--port 0` printed "serves on http://localhost:0/", an address nobody can open."""
    env = {**os.environ, "EXACT61_DATA_DIR": str(tmp_path)}
    command = [sys.executable, "-m", "exact61", "serve", "--port", "0", "--bot-workers", "0"]
    process = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        found = re.fullmatch(
            r"exact61 serves on http://localhost:(\d+)/  \(Ctrl\+C stops it\)\n", line
        )
        assert found, line
        port = int(found.group(1))
        assert port != 0
        deadline = time.monotonic() + 60
        while True:  # the page is served on the port said
            try:
                assert httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=2).status_code == 200
                break
            except httpx.HTTPError:
                assert time.monotonic() < deadline, "nothing answered on the port said"
                time.sleep(0.1)
    finally:
        process.terminate()
        process.wait(30)
