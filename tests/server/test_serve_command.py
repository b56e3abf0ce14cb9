"""`exact61 serve --db`: a file's path is an SQLite database there; a `--db` that names no
database it can use is a one-line error with exit 2 before anything starts (a newcomer's
`--db games.db` was an "internal error", exit 70), one that will not open exit 1, and a second
server on one SQLite file is refused."""

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
        ("postgresql+psycopg://club@[::1/games", "not a database URL"),  # was int()'s words
        ("mysql://somewhere/db", "unsupported database 'mysql'"),
        ("sqlite:///:memory:", "in memory would lose every game"),
        ("sqlite://", "in memory would lose every game"),
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


def test_an_ipv6_address_is_said_in_brackets(tmp_path: Path) -> None:
    """`--host ::1` printed "serves on http://::1:PORT/", an address no browser opens (RFC 3986
    writes an IPv6 host in brackets); the operator copies it, so it must be one."""
    try:
        with socket.create_server(("::1", 0), family=socket.AF_INET6):
            pass
    except OSError:
        pytest.skip("no IPv6 loopback here")
    env = {**os.environ, "EXACT61_DATA_DIR": str(tmp_path)}
    command = [sys.executable, "-m", "exact61", "serve", "--host", "::1", "--port", "0"]
    command += ["--bot-workers", "0"]
    process = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        found = re.fullmatch(r"exact61 serves on (http://\S+/)  \(Ctrl\+C stops it\)\n", line)
        assert found, line
        url = httpx.URL(found.group(1))  # the address said is one a client can open
        assert url.host == "::1" and url.port, line
        deadline = time.monotonic() + 60
        while True:
            try:
                assert httpx.get(url.join("/api/games"), timeout=2).status_code == 200
                break
            except httpx.HTTPError:
                assert time.monotonic() < deadline, "nothing answered at the address said"
                time.sleep(0.1)
    finally:
        process.terminate()
        process.wait(30)


def serve_once(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "EXACT61_DATA_DIR": str(tmp_path / "data")}
    command = [sys.executable, "-m", "exact61", "serve", "--port", "0", *args]
    return subprocess.run(command, env=env, capture_output=True, text=True, timeout=60)


def test_a_database_that_will_not_open_is_one_line_and_exit_1(tmp_path: Path) -> None:
    """A folder, a file that is no database and a PostgreSQL nobody answers at were "internal
    error" (exit 70) over two or three lines; now the driver's one line, with the password
    hidden (docs/commands.md: exit 1, the work failed on what it was given)."""
    (tmp_path / "folder").mkdir()
    (tmp_path / "notes.txt").write_text("not a database, " * 100)
    with socket.create_server(("127.0.0.1", 0)) as closed:
        port = closed.getsockname()[1]  # nobody listens there once closed
    postgres = f"postgresql+psycopg://club:secret@127.0.0.1:{port}/games"
    for db, said in (
        (str(tmp_path / "folder"), f"cannot open the database {tmp_path / 'folder'}: "),
        (str(tmp_path / "notes.txt"), "file is not a database"),
        (postgres, f"cannot open the database postgresql+psycopg://club:***@127.0.0.1:{port}/"),
    ):
        result = serve_once(tmp_path, "--db", db)
        assert result.returncode == 1, result.stderr
        assert result.stderr.count("\n") == 1 and said in result.stderr, result.stderr
        assert "secret" not in result.stderr and "serves on" not in result.stdout
    assert (tmp_path / "notes.txt").read_text() == "not a database, " * 100


def test_a_data_directory_that_is_a_file_is_said_so_in_one_line(tmp_path: Path) -> None:
    """With no --db the games are kept in the data directory: EXACT61_DATA_DIR naming a file
    was "exact61: [Errno 17] File exists: '...'", which named neither the database nor what to
    change; now the database, why, and the variable, in one line (exit 1, as a folder where
    games cannot be saved)."""
    (tmp_path / "data").write_text("notes")
    result = serve_once(tmp_path)
    assert result.returncode == 1, result.stderr
    assert result.stderr == (
        f"exact61: cannot open the database {tmp_path / 'data' / 'server.sqlite3'}: "
        f"{tmp_path / 'data'} is not a folder (set EXACT61_DATA_DIR to another folder, or "
        "give --db)\n"
    )
    assert "serves on" not in result.stdout
    assert (tmp_path / "data").read_text() == "notes"


def test_a_second_server_on_one_sqlite_file_is_refused_and_the_first_kept(
    tmp_path: Path,
) -> None:
    """Two servers on one SQLite file started alike, and a game with a seat on each never
    moved: the second is refused (exit 2, as a taken port), and once the first is killed the
    file serves again."""
    path = tmp_path / "club.db"
    first = ServerProcess(str(path), tmp_path)
    server = first.start()
    try:
        result = serve_once(tmp_path, "--db", str(path))
        assert result.returncode == 2, result.stderr
        assert result.stderr == (
            f"exact61: another server serves from {path}: an SQLite file serves one server "
            "(several servers share PostgreSQL: docs/hosting.md)\n"
        )
        assert httpx.get(f"{server.url}/api/games").status_code == 200  # the first goes on
    finally:
        assert first.process is not None
        first.process.kill()  # as a crash: the system lets the lock go
        first.process.wait(30)
    again = ServerProcess(str(path), tmp_path)
    again.start()
    again.stop()


def test_the_banner_says_where_the_games_are_kept(tmp_path: Path) -> None:
    path = tmp_path / "club.db"
    process = ServerProcess(str(path), tmp_path)
    process.start()
    process.stop()
    assert f"games kept in {path}\n" in process.log.read_text()


def test_a_proxy_that_is_no_address_is_refused(tmp_path: Path) -> None:
    result = serve_once(tmp_path, "--forwarded-allow-ips", "127.0.0.1, 10.0.0.0/8,notanip")
    assert result.returncode == 2
    expected = "exact61: --forwarded-allow-ips: 'notanip' is not an address or a network\n"
    assert result.stderr == expected


@pytest.mark.parametrize("option", ["--bot-delay", "--forced-delay"])
@pytest.mark.parametrize("seconds", ["inf", "61"])
def test_a_delay_past_a_minute_is_refused(tmp_path: Path, option: str, seconds: str) -> None:
    """`--bot-delay inf` was taken, and no bot ever moved (nor, for `--forced-delay`, was a
    forced draw or pass played, R10): a delay is at most 60 seconds, said in one line."""
    env = {**os.environ, "EXACT61_DATA_DIR": str(tmp_path)}
    command = [sys.executable, "-m", "exact61", "serve", "--port", "0", option, seconds]
    result = subprocess.run(command, env=env, capture_output=True, text=True, timeout=60)
    assert result.returncode == 2, result.stderr
    assert result.stderr.count("\n") == 1 and option in result.stderr and "60" in result.stderr
