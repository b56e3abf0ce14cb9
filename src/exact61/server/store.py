"""Where the server keeps its games: SQLAlchemy 2 (async) on SQLite or PostgreSQL, the schema
made and upgraded by Alembic at start.

A game is its row (players, seats, language, the secret seed) and its actions, one row each,
keyed by the game's sequence number: a game is rebuilt by replaying them through the core from
the seed. The key makes each action land once, whichever process sends it (`Conflict`).
Seat tokens are kept only as SHA-256 hashes.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy import event
from sqlalchemy.engine import make_url
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

metadata = sa.MetaData()

games = sa.Table(
    "games",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("players", sa.Integer, nullable=False),
    sa.Column("seats", sa.JSON, nullable=False),  # per seat: "human" or "bot:NAME"
    sa.Column("lang", sa.String(8), nullable=False),
    sa.Column("seed", sa.BigInteger, nullable=False),  # secret: it decides every deal
    sa.Column("name", sa.String(60), nullable=False),
    sa.Column("open", sa.Boolean, nullable=False),  # listed in the lobby
    sa.Column("status", sa.String(8), nullable=False),  # playing | over
    sa.Column("seq", sa.Integer, nullable=False),  # actions applied
    sa.Column("scores", sa.JSON, nullable=False),
    sa.Column("winner", sa.Integer, nullable=True),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
)
sa.Index("games_lobby", games.c.open, games.c.status, games.c.created_at)

seat_tokens = sa.Table(
    "seat_tokens",
    metadata,
    sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("token_hash", sa.String(64), nullable=False),
    sa.Column("taken", sa.Boolean, nullable=False),  # someone has connected with it
)

actions = sa.Table(
    "actions",
    metadata,
    sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
    sa.Column("seq", sa.Integer, primary_key=True),  # 1, 2, ...: at most one action each
    sa.Column("round", sa.Integer, nullable=False),
    sa.Column("seat", sa.Integer, nullable=False),
    sa.Column("action", sa.JSON, nullable=False),  # as match-record.md writes it
    sa.Column("drawn", sa.JSON, nullable=True),  # the tile a draw took: a check on replay
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
)


class Conflict(Exception):
    """Another action already holds this sequence number: the game moved on elsewhere."""


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def database_urls(url: str | None, data_dir: Path) -> tuple[str, str]:
    """(async URL, sync URL for migrations) for `--db`, or the embedded SQLite file."""
    if not url:
        data_dir.mkdir(parents=True, exist_ok=True)
        url = f"sqlite:///{data_dir / 'server.sqlite3'}"
    parsed = make_url(url)
    backend = parsed.get_backend_name()
    if backend == "sqlite":
        return (
            parsed.set(drivername="sqlite+aiosqlite").render_as_string(hide_password=False),
            parsed.set(drivername="sqlite").render_as_string(hide_password=False),
        )
    if backend == "postgresql":
        same = parsed.set(drivername="postgresql+psycopg").render_as_string(hide_password=False)
        return same, same
    raise ValueError(
        f"unsupported database {backend!r}: use sqlite:///FILE or postgresql+psycopg://..."
    )


def migrate(sync_url: str) -> None:
    """Create or upgrade the schema to the newest revision (Alembic)."""
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
    config.set_main_option("sqlalchemy.url", sync_url.replace("%", "%%"))
    command.upgrade(config, "head")


@dataclass(frozen=True)
class GameRow:
    id: str
    players: int
    seats: list[str]
    lang: str
    seed: int
    name: str
    open: bool
    status: str
    seq: int
    scores: list[int]
    winner: int | None


@dataclass(frozen=True)
class ActionRow:
    seq: int
    round: int
    seat: int
    action: dict[str, Any]
    drawn: list[int] | None


def _now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


class Store:
    """The server's database."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine

    @classmethod
    def open(cls, url: str | None, data_dir: Path) -> Store:
        """Migrate the database at `url` (or the embedded file) and connect to it."""
        async_url, sync_url = database_urls(url, data_dir)
        migrate(sync_url)
        engine = create_async_engine(async_url, pool_pre_ping=True)
        if engine.dialect.name == "sqlite":
            event.listen(engine.sync_engine, "connect", _sqlite_pragmas)
        return cls(engine)

    async def close(self) -> None:
        await self.engine.dispose()

    async def create(
        self,
        row: GameRow,
        hashes: dict[int, str],
    ) -> None:
        now = _now()
        async with self.engine.begin() as db:
            await db.execute(
                games.insert().values(
                    id=row.id,
                    players=row.players,
                    seats=row.seats,
                    lang=row.lang,
                    seed=row.seed,
                    name=row.name,
                    open=row.open,
                    status=row.status,
                    seq=row.seq,
                    scores=row.scores,
                    winner=row.winner,
                    created_at=now,
                    updated_at=now,
                )
            )
            if hashes:
                await db.execute(
                    seat_tokens.insert(),
                    [
                        {"game_id": row.id, "seat": s, "token_hash": h, "taken": False}
                        for s, h in hashes.items()
                    ],
                )

    async def append(
        self,
        game_id: str,
        row: ActionRow,
        *,
        status: str,
        scores: Sequence[int],
        winner: int | None,
    ) -> None:
        """Write one action (and the game's new totals) in one transaction; raise Conflict if
        its sequence number is taken."""
        try:
            async with self.engine.begin() as db:
                await db.execute(
                    actions.insert().values(
                        game_id=game_id,
                        seq=row.seq,
                        round=row.round,
                        seat=row.seat,
                        action=row.action,
                        drawn=row.drawn,
                        created_at=_now(),
                    )
                )
                await db.execute(
                    games.update()
                    .where(games.c.id == game_id)
                    .values(
                        seq=row.seq,
                        status=status,
                        scores=list(scores),
                        winner=winner,
                        updated_at=_now(),
                    )
                )
        except IntegrityError:
            raise Conflict(f"game {game_id}: action {row.seq} is already taken") from None

    async def game(self, game_id: str) -> GameRow | None:
        async with self.engine.connect() as db:
            found = (await db.execute(games.select().where(games.c.id == game_id))).first()
        return None if found is None else _game_row(found)

    async def actions_of(self, game_id: str, after: int = 0) -> list[ActionRow]:
        async with self.engine.connect() as db:
            rows = await db.execute(
                actions.select()
                .where(actions.c.game_id == game_id, actions.c.seq > after)
                .order_by(actions.c.seq)
            )
            return [ActionRow(r.seq, r.round, r.seat, dict(r.action), r.drawn) for r in rows]

    async def tokens(self, game_id: str) -> dict[int, tuple[str, bool]]:
        """Per human seat: the token's hash and whether anyone has used it."""
        async with self.engine.connect() as db:
            rows = await db.execute(seat_tokens.select().where(seat_tokens.c.game_id == game_id))
            return {r.seat: (r.token_hash, r.taken) for r in rows}

    async def mark_taken(self, game_id: str, seat: int) -> None:
        async with self.engine.begin() as db:
            await db.execute(
                seat_tokens.update()
                .where(
                    seat_tokens.c.game_id == game_id,
                    seat_tokens.c.seat == seat,
                    seat_tokens.c.taken.is_(False),
                )
                .values(taken=True)
            )

    async def take_free_seat(self, game_id: str, seat: int, new_hash: str) -> bool:
        """Give a seat nobody has used a new token (the lobby); False if it is not free."""
        async with self.engine.begin() as db:
            done = await db.execute(
                seat_tokens.update()
                .where(
                    seat_tokens.c.game_id == game_id,
                    seat_tokens.c.seat == seat,
                    seat_tokens.c.taken.is_(False),
                )
                .values(token_hash=new_hash, taken=True)
            )
            return bool(done.rowcount)

    async def open_games(self, limit: int = 50) -> list[tuple[GameRow, list[int]]]:
        """Lobby: games still playing, listed by their makers, with the seats free to take."""
        async with self.engine.connect() as db:
            rows = (
                await db.execute(
                    games.select()
                    .where(games.c.open.is_(True), games.c.status == "playing")
                    .order_by(games.c.created_at.desc())
                    .limit(limit)
                )
            ).all()
            if not rows:
                return []
            free = await db.execute(
                sa.select(seat_tokens.c.game_id, seat_tokens.c.seat).where(
                    seat_tokens.c.game_id.in_([r.id for r in rows]),
                    seat_tokens.c.taken.is_(False),
                )
            )
            seats: dict[str, list[int]] = {}
            for game_id, seat in free:
                seats.setdefault(game_id, []).append(seat)
        return [(_game_row(r), sorted(seats[r.id])) for r in rows if r.id in seats]

    async def playing(self) -> list[str]:
        """Every game still in play (to restart their bots after a restart)."""
        async with self.engine.connect() as db:
            rows = await db.execute(sa.select(games.c.id).where(games.c.status == "playing"))
            return [r.id for r in rows]


def _game_row(r: Any) -> GameRow:
    return GameRow(
        r.id,
        r.players,
        list(r.seats),
        r.lang,
        r.seed,
        r.name,
        bool(r.open),
        r.status,
        r.seq,
        list(r.scores),
        r.winner,
    )


def _sqlite_pragmas(connection: Any, _record: Any) -> None:
    # WAL: readers never wait for the writer; NORMAL: a commit survives the process being
    # killed (only a power cut can lose the newest commits).
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA busy_timeout=10000")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()
