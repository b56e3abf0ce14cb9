"""Where the server keeps its games: SQLAlchemy 2 on SQLite or PostgreSQL, the schema
(`schema`) made and upgraded by Alembic at start, the writes made by `writer.Writer`.

A game is its row (players, seats, language, the secret seed) and its actions, one row each,
keyed by the game's sequence number: a game is rebuilt by replaying them through the core from
the seed. The key makes each action land once, whichever process sends it (`Conflict`).
Seat tokens are kept only as SHA-256 hashes.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import errno
import hashlib
import logging
from collections.abc import Callable, Collection
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

import sqlalchemy as sa
from sqlalchemy import event
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError

from exact61.server.bus import names_notice, notify, rematch_notice
from exact61.server.schema import (
    UNREACHABLE,
    ActionRow,
    Conflict,
    GameRow,
    Totals,
    Unavailable,
    actions,
    first_line,
    games,
    metadata,
    now,
    seat_tokens,
)
from exact61.server.writer import Writer

# The server's modules take the rows and errors from here, with the database.
__all__ = [
    "ActionRow",
    "Conflict",
    "Database",
    "GameRow",
    "Totals",
    "Unavailable",
    "database_url",
    "metadata",
    "migrate",
    "token_hash",
]

_T = TypeVar("_T")
log = logging.getLogger(__name__)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


EMBEDDED = "server.sqlite3"  # the database in the data directory, with no --db


def make_data_folder(folder: Path) -> None:
    """Make the data directory the embedded database is kept in; OSError says why it cannot be
    (a file of that name: that it is no folder, where mkdir would say "File exists")."""
    if folder.exists() and not folder.is_dir():
        raise NotADirectoryError(errno.ENOTDIR, f"{folder} is not a folder")
    folder.mkdir(parents=True, exist_ok=True)


def database_url(url: str | None, data_dir: Path) -> str:
    """The URL for `--db` (sqlite:///FILE, a file's path, or postgresql+psycopg://...), or the
    embedded file, `server.sqlite3` in `data_dir` (which is not made here: `exact61 serve`
    makes it, `exact61 export` only reads). ValueError says what is wrong with one that cannot
    be used."""
    embedded = not url
    if not url:
        url = f"sqlite:///{data_dir / EMBEDDED}"
    elif "://" not in url:  # a file's path: an SQLite database there
        url = f"sqlite:///{Path(url).expanduser().resolve()}"
    try:
        parsed = make_url(url)
        backend = parsed.get_backend_name()
    except (ArgumentError, ValueError):  # ValueError: a port that is no number ("[::1/db")
        raise ValueError(
            f"not a database URL: {url!r}; use a file's path, sqlite:///FILE or "
            "postgresql+psycopg://..."
        ) from None
    if backend == "sqlite":
        if parsed.database in (None, "", ":memory:") or parsed.query.get("mode") == "memory":
            raise ValueError("an SQLite database in memory would lose every game: give a file")
        folder = Path(parsed.database).expanduser().parent
        if not embedded and not folder.is_dir():
            raise ValueError(f"no folder {folder} for the database file")
        return parsed.set(drivername="sqlite").render_as_string(hide_password=False)
    if backend == "postgresql":
        return parsed.set(drivername="postgresql+psycopg").render_as_string(hide_password=False)
    raise ValueError(
        f"unsupported database {backend!r}: use sqlite:///FILE or postgresql+psycopg://..."
    )


def sqlite_file(url: str) -> Path | None:
    """The file of an SQLite database URL (`database_url`'s, which has one); None for another
    database."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite" or not parsed.database:
        return None
    return Path(parsed.database)


def shown_name(url: str) -> str:
    """How messages name a database: an SQLite database by its file, another by its URL without
    its password."""
    file = sqlite_file(url)
    return str(file) if file is not None else make_url(url).render_as_string(hide_password=True)


def connect_options(sync_url: str, *, statement_timeout: bool = True) -> dict[str, Any]:
    """How connections to the database are made: PostgreSQL is never waited on forever, 10 s to
    connect, at start as in play, and 15 s a statement in play (the migrations may wait longer
    for another server's, under their lock); SQLite needs nothing."""
    if make_url(sync_url).get_backend_name() != "postgresql":
        return {}
    connect: dict[str, Any] = {"connect_timeout": 10}
    if statement_timeout:
        connect["options"] = "-c statement_timeout=15000"
    return {"connect_args": connect}


def migrate(sync_url: str) -> None:
    """Create or upgrade the schema to the newest revision (Alembic). On PostgreSQL, under an
    advisory lock: servers started together migrate one after the other."""
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
    config.set_main_option("sqlalchemy.url", sync_url.replace("%", "%%"))
    options = connect_options(sync_url, statement_timeout=False)
    engine = sa.create_engine(sync_url, poolclass=sa.pool.NullPool, **options)
    try:
        with engine.connect() as connection:
            postgres = connection.dialect.name == "postgresql"
            if postgres:
                connection.execute(
                    sa.text("SELECT pg_advisory_lock(:key)"), {"key": MIGRATION_LOCK}
                )
                connection.commit()
            try:
                config.attributes["connection"] = connection
                command.upgrade(config, "head")
            finally:
                if postgres:
                    connection.execute(
                        sa.text("SELECT pg_advisory_unlock(:key)"), {"key": MIGRATION_LOCK}
                    )
                    connection.commit()
    finally:
        engine.dispose()


MIGRATION_LOCK = 61_061  # the advisory lock servers take to migrate


class Database:
    """The server's database, for the event loop: every method is a coroutine.

    SQLAlchemy's synchronous engine does the work; reads run in a small pool of threads, and
    every write is made in order by the `Writer` (the actions in batches, committed together).
    """

    def __init__(self, engine: sa.Engine) -> None:
        self.engine = engine
        self.writer = Writer(engine)
        self._reads = ThreadPoolExecutor(4, thread_name_prefix="exact61-db-read")

    @classmethod
    def open(cls, url: str | None, data_dir: Path) -> Database:
        """Migrate the database at `url` (or the embedded file) and connect to it."""
        sync_url = database_url(url, data_dir)
        migrate(sync_url)
        # hide_parameters: a failed statement's error never carries a seed or a drawn tile
        options = connect_options(sync_url)
        engine = sa.create_engine(
            sync_url, pool_pre_ping=True, pool_size=8, hide_parameters=True, **options
        )
        if engine.dialect.name == "sqlite":
            event.listen(engine, "connect", _sqlite_pragmas)
        return cls(engine)

    async def _read(self, work: Callable[[sa.Connection], _T]) -> _T:
        def run() -> _T:
            try:
                with self.engine.connect() as db:
                    return work(db)
            except UNREACHABLE as err:
                raise Unavailable(first_line(err)) from None

        return await asyncio.get_running_loop().run_in_executor(self._reads, run)

    async def close(self) -> None:
        """Finish every write already asked for, then let the threads and connections go."""
        await self.writer.close()
        self._reads.shutdown()
        self.engine.dispose()

    async def expire_untouched(self, cutoff: dt.datetime, most: int = 1000) -> list[str]:
        """Mark games still playing that nobody has made or moved in since `cutoff` as
        expired, `most` at a time; return their ids."""

        def work(db: sa.Connection) -> list[str]:
            moved = sa.exists().where(
                actions.c.game_id == games.c.id, actions.c.created_at >= cutoff
            )
            untouched = (
                sa.select(games.c.id)
                .where(games.c.status == "playing", games.c.created_at < cutoff, ~moved)
                .limit(most)
            )
            ids = [r.id for r in db.execute(untouched)]
            if ids:
                db.execute(
                    games.update()
                    .where(games.c.id.in_(ids), games.c.status == "playing")
                    .values(status="expired", updated_at=now())
                )
            return ids

        return await self.writer.job(work)

    async def create(
        self, row: GameRow, hashes: dict[int, str], *, taken: set[int] | None = None
    ) -> None:
        """A new game with its seats' token hashes; `taken`: seats no lobby may give away."""

        def work(db: sa.Connection) -> None:
            _insert_game(db, row, hashes, taken or set())

        await self.writer.job(work)

    async def create_rematch(self, game_id: str, row: GameRow, hashes: dict[int, str]) -> str:
        """The game `game_id` continues in: `row`, made now with the same seats' token hashes
        (every seat taken), unless one was made already (by any server), whose id is returned
        instead. On PostgreSQL every server listening is told on commit (a rematch notice on the
        bus), so that its clients of `game_id` hear of the next game too."""

        def work(db: sa.Connection) -> str:
            chosen = sa.select(games.c.rematch).where(games.c.id == game_id)
            made = db.execute(chosen.with_for_update()).scalar_one()  # other servers wait
            if made is not None:
                return str(made)
            _insert_game(db, row, hashes, set(hashes))
            db.execute(games.update().where(games.c.id == game_id).values(rematch=row.id))
            if db.dialect.name == "postgresql":
                notify(db, [rematch_notice(game_id)])
            return row.id

        return await self.writer.job(work)

    async def append(self, game_id: str, row: ActionRow, *, totals: Totals | None = None) -> None:
        """Write one action, and the game's new totals when they changed; return once it is
        committed (with every other action waiting then, in one transaction). Raise Conflict if
        its sequence number is taken."""
        await self.writer.action(game_id, row, totals)

    async def game(self, game_id: str) -> GameRow | None:
        return await self._read(lambda db: read_game(db, game_id))

    async def actions_of(self, game_id: str, after: int = 0) -> list[ActionRow]:
        return await self._read(lambda db: read_actions(db, game_id, after))

    async def tokens(self, game_id: str) -> dict[int, tuple[str, bool]]:
        """Per human seat: the token's hash and whether anyone has used it."""

        def work(db: sa.Connection) -> dict[int, tuple[str, bool]]:
            rows = db.execute(seat_tokens.select().where(seat_tokens.c.game_id == game_id))
            return {r.seat: (r.token_hash, bool(r.taken)) for r in rows}

        return await self._read(work)

    async def mark_taken(self, game_id: str, seat: int, presented: str) -> None:
        """The seat's token has been used (only the token the seat holds now counts)."""

        def work(db: sa.Connection) -> None:
            db.execute(
                seat_tokens.update()
                .where(
                    seat_tokens.c.game_id == game_id,
                    seat_tokens.c.seat == seat,
                    seat_tokens.c.token_hash == presented,
                    seat_tokens.c.taken.is_(False),
                )
                .values(taken=True)
            )

        await self.writer.job(work)

    async def take_free_seat(
        self, game_id: str, seat: int, new_hash: str, name: str | None = None
    ) -> bool:
        """Give a seat nobody has used a new token (the lobby), and its person's `name` if
        given; False if it is not free."""

        def work(db: sa.Connection) -> bool:
            done = db.execute(
                seat_tokens.update()
                .where(
                    seat_tokens.c.game_id == game_id,
                    seat_tokens.c.seat == seat,
                    seat_tokens.c.taken.is_(False),
                )
                .values(token_hash=new_hash, taken=True)
            )
            if not done.rowcount:
                return False
            if name is not None:
                _name_seat(db, game_id, seat, name)
            return True

        return await self.writer.job(work)

    async def set_name(self, game_id: str, seat: int, name: str) -> None:
        """The seat's person's display name, given or changed (`_name_seat`)."""

        def work(db: sa.Connection) -> None:
            _name_seat(db, game_id, seat, name)

        await self.writer.job(work)

    async def set_away(self, game_id: str, away: tuple[int, ...]) -> None:
        """The seats whose person's time ran out, for whom the stand-in plays now."""

        def work(db: sa.Connection) -> None:
            db.execute(games.update().where(games.c.id == game_id).values(away=list(away)))

        await self.writer.job(work)

    async def open_games(self, limit: int = 50) -> list[tuple[GameRow, list[int]]]:
        """Lobby: the `limit` newest games it lists (`_in_lobby`), with their free seats (a
        listed game whose seats are all taken keeps no place on the list)."""

        def work(db: sa.Connection) -> list[tuple[GameRow, list[int]]]:
            rows = db.execute(
                games.select().where(*_in_lobby()).order_by(games.c.created_at.desc()).limit(limit)
            ).all()
            if not rows:
                return []
            free = db.execute(
                sa.select(seat_tokens.c.game_id, seat_tokens.c.seat).where(
                    seat_tokens.c.game_id.in_([r.id for r in rows]),
                    seat_tokens.c.taken.is_(False),
                )
            )
            seats: dict[str, list[int]] = {}
            for game_id, seat in free:
                seats.setdefault(game_id, []).append(seat)
            return [(_game_row(r), sorted(seats[r.id])) for r in rows if r.id in seats]

        return await self._read(work)

    async def waiting(self, game_ids: Collection[str]) -> set[str]:
        """Of these games, those the lobby lists (`_in_lobby`)."""
        if not game_ids:
            return set()

        def work(db: sa.Connection) -> set[str]:
            found = db.execute(
                sa.select(games.c.id).where(games.c.id.in_(list(game_ids)), *_in_lobby())
            )
            return {game_id for (game_id,) in found}

        return await self._read(work)


def _in_lobby() -> tuple[sa.ColumnElement[bool], ...]:
    """What makes a game one the lobby lists: its maker listed it (open), it is still playing,
    and a seat of it is free to take."""
    free_seat = (
        sa.select(seat_tokens.c.seat)
        .where(seat_tokens.c.game_id == games.c.id, seat_tokens.c.taken.is_(False))
        .exists()
    )
    return games.c.open.is_(True), games.c.status == "playing", free_seat


def read_game(db: sa.Connection, game_id: str) -> GameRow | None:
    found = db.execute(games.select().where(games.c.id == game_id)).first()
    return None if found is None else _game_row(found)


def read_actions(db: sa.Connection, game_id: str, after: int = 0) -> list[ActionRow]:
    """The game's stored actions after seq `after`, in order."""
    rows = db.execute(
        actions.select()
        .where(actions.c.game_id == game_id, actions.c.seq > after)
        .order_by(actions.c.seq)
    )
    return [ActionRow(r.seq, r.round, r.seat, dict(r.action), r.drawn) for r in rows]


def _insert_game(db: sa.Connection, row: GameRow, hashes: dict[int, str], taken: set[int]) -> None:
    """A new game's row and its seats' token hashes (`taken`: seats no lobby may give away)."""
    at = now()
    db.execute(
        games.insert().values(
            id=row.id,
            players=row.players,
            seats=row.seats,
            names=list(row.names) or None,
            clock=row.clock,
            stand_in=row.stand_in,
            away=list(row.away) or None,
            guided=row.guided or None,
            lang=row.lang,
            seed=row.seed,
            name=row.name,
            open=row.open,
            status=row.status,
            seq=row.seq,
            scores=row.scores,
            winner=row.winner,
            created_at=at,
            updated_at=at,
        )
    )
    if hashes:
        db.execute(
            seat_tokens.insert(),
            [
                {"game_id": row.id, "seat": s, "token_hash": h, "taken": s in taken}
                for s, h in hashes.items()
            ],
        )


def _name_seat(db: sa.Connection, game_id: str, seat: int, name: str) -> None:
    """Write one seat's name into the game's `names` (the row locked: other servers wait); on
    PostgreSQL every server listening is told on commit (a names notice on the bus)."""
    chosen = sa.select(games.c.players, games.c.names).where(games.c.id == game_id)
    row = db.execute(chosen.with_for_update()).one()
    names = list(row.names or [None] * row.players)
    names[seat] = name
    db.execute(games.update().where(games.c.id == game_id).values(names=names))
    if db.dialect.name == "postgresql":
        notify(db, [names_notice(game_id)])


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
        tuple(r.names or ()),
        r.rematch,
        r.clock,
        r.stand_in,
        tuple(r.away or ()),
        bool(r.guided),
    )


def _sqlite_pragmas(connection: Any, _record: Any) -> None:
    # WAL: readers never wait for the writer; NORMAL: a commit survives the process being
    # killed (only a power cut can lose the newest commits).
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA busy_timeout=10000")
    cursor.execute("PRAGMA foreign_keys=ON")
    # No checkpoint in a commit: the writes are made on the event loop, and a checkpoint's
    # copying and syncing would stop it; `Writer._checkpoint_often` makes them in a thread.
    cursor.execute("PRAGMA wal_autocheckpoint=0")
    cursor.close()
