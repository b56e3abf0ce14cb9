"""The schema the migrations make is the one the server's tables describe (`store.metadata`),
on SQLite and PostgreSQL; the newest migrations go down and up again; and closing the games
nobody moves in (`expire_untouched`) reads them and their actions through indexes, not one by
one."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.migration import MigrationContext
from sqlalchemy import event

from exact61.server import store as store_module
from exact61.server.store import Database, metadata, migrate
from tests.server.kit import database_url

pytestmark = pytest.mark.server


def differences(url: str) -> list[Any]:
    engine = sa.create_engine(url, poolclass=sa.pool.NullPool)
    try:
        with engine.connect() as db:
            found: list[Any] = compare_metadata(MigrationContext.configure(db), metadata)
            return found
    finally:
        engine.dispose()


def columns(url: str, table: str) -> set[str]:
    engine = sa.create_engine(url, poolclass=sa.pool.NullPool)
    try:
        return {str(c["name"]) for c in sa.inspect(engine).get_columns(table)}
    finally:
        engine.dispose()


def indexes(url: str, table: str) -> set[str]:
    engine = sa.create_engine(url, poolclass=sa.pool.NullPool)
    try:
        return {str(i["name"]) for i in sa.inspect(engine).get_indexes(table)}
    finally:
        engine.dispose()


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_the_migrations_make_the_tables_the_server_describes(kind: str, tmp_path: Path) -> None:
    url = database_url(kind, tmp_path)
    migrate(url)
    assert differences(url) == []
    assert {"games_lobby", "games_expiry"} <= indexes(url, "games")
    assert "actions_expiry" in indexes(url, "actions")


def test_the_newest_migrations_go_down_and_up_again(tmp_path: Path) -> None:
    url = database_url("sqlite", tmp_path)
    migrate(url)
    config = Config()
    config.set_main_option(
        "script_location", str(Path(store_module.__file__).parent / "migrations")
    )
    config.set_main_option("sqlalchemy.url", url)
    command.downgrade(config, "-1")
    assert "guided" not in columns(url, "games")
    assert differences(url) != []  # what the migration adds is missing
    command.downgrade(config, "-1")
    assert "games_expiry" not in indexes(url, "games")
    assert "actions_expiry" not in indexes(url, "actions")
    migrate(url)
    assert differences(url) == []


async def test_expiry_reads_the_games_and_their_actions_through_indexes(tmp_path: Path) -> None:
    store = Database.open(database_url("sqlite", tmp_path), tmp_path)
    asked: list[tuple[str, Any]] = []

    def seen(_conn: Any, _cursor: Any, statement: str, parameters: Any, *_: Any) -> None:
        if statement.lstrip().upper().startswith("SELECT") and "actions" in statement:
            asked.append((statement, parameters))

    event.listen(store.engine, "before_cursor_execute", seen)
    try:
        assert await store.expire_untouched(dt.datetime.now(dt.UTC)) == []
        assert len(asked) == 1
        statement, parameters = asked[0]
        with store.engine.connect() as db:
            raw = db.connection.driver_connection
            assert raw is not None
            plan = " | ".join(
                row[-1] for row in raw.execute(f"EXPLAIN QUERY PLAN {statement}", parameters)
            )
    finally:
        event.remove(store.engine, "before_cursor_execute", seen)
        await store.close()
    assert "USING INDEX games_expiry" in plan, plan
    assert "INDEX actions_expiry" in plan, plan
    assert "SCAN games" not in plan, plan
