"""`exact61 export`: a club's finished matches, read from its server's database while the server
runs, on SQLite and on PostgreSQL; each record the one the server gives, and it replays."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import httpx
import pytest
import sqlalchemy as sa
from sqlalchemy.engine import make_url

from exact61 import replay
from tests.conftest import Cli
from tests.server.kit import database_url, play_game, server_in_thread

pytestmark = pytest.mark.server


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    return database_url(request.param, tmp_path)


async def test_the_finished_matches_are_exported_while_the_server_serves(
    cli: Cli, db: str, tmp_path: Path
) -> None:
    out = tmp_path / "club.jsonl"
    with server_in_thread(db, tmp_path) as server:
        first = server.create(["human", "bot:greedy"])
        await play_game(server, first)
        playing = server.create(["human", "human"])  # not over: not exported
        await play_game(server, playing, stop_after=3)
        lesson = server.create(["human", "bot:random"])  # over, but marked a guided lesson
        await play_game(server, lesson)
        second = server.create(["human", "bot:random", "human"])
        await play_game(server, second)
        engine = sa.create_engine(db.replace("postgresql://", "postgresql+psycopg://", 1))
        with engine.begin() as conn:
            conn.execute(
                sa.text("UPDATE games SET guided = true WHERE id = :id"), {"id": lesson["game"]}
            )
        engine.dispose()

        result = cli("export", "--db", db, "--out", out)

        assert result.code == 0, result.err
        served = [
            httpx.get(f"{server.url}/api/games/{game['game']}/record").json()
            for game in (first, second)
        ]
    lines = out.read_text(encoding="utf-8").splitlines()
    assert [json.loads(line) for line in lines] == served  # the first finished first
    for line in lines:
        assert replay(json.loads(line)).is_over
    assert result.out.startswith("2 finished matches from ")
    assert result.out.rstrip().endswith(f"written to {out}")
    shown = make_url(db).render_as_string(hide_password=True)  # a password is never shown
    assert f" from {Path(make_url(db).database or '') if 'sqlite' in db else shown} " in result.out
    again = cli("export", "--db", db, "--out", out)  # the file is kept without --force
    assert again.code == 2 and "--force" in again.err
    assert cli("export", "--db", db, "--out", out, "--force").code == 0
    assert cli("replay", out).code == 0


async def test_a_stored_game_that_does_not_replay_is_said_and_the_others_exported(
    cli: Cli, tmp_path: Path
) -> None:
    db = database_url("sqlite", tmp_path)
    with server_in_thread(db, tmp_path) as server:
        games = [server.create(["human", "bot:greedy"]) for _ in range(2)]
        for game in games:
            await play_game(server, game)
        good = httpx.get(f"{server.url}/api/games/{games[1]['game']}/record").json()
    with sqlite3.connect(tmp_path / "games.sqlite3") as conn:  # the first game's last action lost
        conn.execute(
            "DELETE FROM actions WHERE game_id = ? AND seq = (SELECT max(seq) FROM actions "
            "WHERE game_id = ?)",
            (games[0]["game"], games[0]["game"]),
        )
    out = tmp_path / "club.jsonl"
    told = cli("export", "--db", db, "--out", out)
    assert told.code == 1
    assert told.err == (
        f"exact61: not exported: game {games[0]['game']}: its stored actions end before the match\n"
    )
    assert [json.loads(line) for line in out.read_text().splitlines()] == [good]
    assert told.out.startswith("1 finished match from ")

    for game, action in ((games[1], "not json"), (games[1], "[1, 2]"), (games[0], '{"type": "x"}')):
        with sqlite3.connect(tmp_path / "games.sqlite3") as conn:  # an internal error (70)
            conn.execute(  # stopped every game after it, or the reason ran to four lines
                "UPDATE actions SET action = ? WHERE game_id = ? AND seq = 1",
                (action, game["game"]),
            )
        told = cli("export", "--db", db, "--out", out, "--force")
        assert told.code == 1 and told.err.count("\n") == 2, told.err
        assert told.err.startswith(f"exact61: not exported: game {games[0]['game']}"), told.err
        assert f"exact61: not exported: game {games[1]['game']}" in told.err


def test_a_database_that_is_not_a_servers_is_said_in_one_line(cli: Cli, tmp_path: Path) -> None:
    missing = tmp_path / "nowhere.sqlite3"
    told = cli("export", "--db", missing, "--out", tmp_path / "a.jsonl")
    assert (told.code, told.err) == (1, f"exact61: cannot export: no database {missing}\n")
    assert not missing.exists() and not (tmp_path / "a.jsonl").exists()  # nothing made
    told = cli("export", "--db", tmp_path, "--out", tmp_path / "a.jsonl")  # was "no database"
    assert (told.code, told.err) == (
        1,
        f"exact61: cannot export: {tmp_path} is a folder, not a database file\n",
    )

    other = tmp_path / "other.sqlite3"
    sqlite3.connect(other).close()
    told = cli("export", "--db", other, "--out", tmp_path / "b.jsonl")
    assert told.code == 1
    assert told.err == f"exact61: cannot export: {other} is not a games database of exact61 serve\n"

    folder = tmp_path / "no-such-folder" / "x.sqlite3"
    told = cli("export", "--db", folder)
    assert told.code == 2 and told.err.startswith("exact61: --db: no folder ")


def test_the_data_directory_is_only_read(
    cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With no --db, export reads the server's file in the data directory: one that is not
    there was made (an empty folder left behind by a command that only reads), and one that is
    a file was "exact61: [Errno 17] File exists: '...'"; both now say there is no database."""
    data = tmp_path / "nothing-yet"
    monkeypatch.setenv("EXACT61_DATA_DIR", str(data))
    told = cli("export", "--out", tmp_path / "a.jsonl")
    assert (told.code, told.err) == (
        1,
        f"exact61: cannot export: no database {data / 'server.sqlite3'}\n",
    )
    assert not data.exists()
    data.write_text("notes")
    told = cli("export", "--out", tmp_path / "a.jsonl")
    assert (told.code, told.err) == (
        1,
        f"exact61: cannot export: no database {data / 'server.sqlite3'}\n",
    )
    assert data.read_text() == "notes" and not (tmp_path / "a.jsonl").exists()


async def test_a_database_of_another_version_is_named_so(cli: Cli, tmp_path: Path) -> None:
    db = database_url("sqlite", tmp_path)
    with server_in_thread(db, tmp_path):  # made and migrated by a server
        pass
    file = tmp_path / "games.sqlite3"
    with sqlite3.connect(file) as conn:
        conn.execute("UPDATE alembic_version SET version_num = '9999_future'")
    told = cli("export", "--db", file, "--out", tmp_path / "c.jsonl")
    assert told.code == 1
    assert told.err.startswith(f"exact61: cannot export: {file} has the schema of another version")
    assert "9999_future" in told.err and told.err.count("\n") == 1


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("de", "1 beendete Partie aus {db} auf die Standardausgabe geschrieben\n"),
        (
            "pl",
            "1 zakończony mecz z {db} zapisany na standardowe wyjście\n",
        ),  # not "do standardowe"
        ("ru", "1 завершённый матч из {db} записан в стандартный вывод\n"),
    ],
)
async def test_the_export_is_said_in_the_language_asked_for(
    cli: Cli, tmp_path: Path, lang: str, said: str
) -> None:
    db = database_url("sqlite", tmp_path)
    with server_in_thread(db, tmp_path) as server:
        await play_game(server, server.create(["human", "bot:greedy"]))
    result = cli("export", "--db", db, "--out", "-", "--lang", lang)
    assert result.code == 0, result.err
    assert replay(json.loads(result.out)).is_over  # the record alone on standard output
    assert result.err.endswith(said.format(db=tmp_path / "games.sqlite3")), result.err
    missing = tmp_path / "nowhere.sqlite3"
    told = cli("export", "--db", missing, "--lang", lang)
    assert told.code == 1 and str(missing) in told.err
    assert "cannot" not in told.err and "no database" not in told.err, told.err
    folder = cli("export", "--db", tmp_path, "--lang", lang)  # it said "no database FOLDER"
    assert folder.code == 1 and folder.err.count("\n") == 1, folder.err
    assert "is a folder" not in folder.err and str(tmp_path) in folder.err, folder.err
