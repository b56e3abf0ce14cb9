"""Where the server keeps its games: SQLAlchemy 2 (async) on SQLite or PostgreSQL, the schema
made and upgraded by Alembic at start.

A game is its row (players, seats, language, the secret seed) and its actions, one row each,
keyed by the game's sequence number: a game is rebuilt by replaying them through the core from
the seed. The key makes each action land once, whichever process sends it (`Conflict`).
Seat tokens are kept only as SHA-256 hashes.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import hashlib
import logging
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from queue import Empty, SimpleQueue
from typing import Any, TypeVar

import sqlalchemy as sa
from sqlalchemy import event
from sqlalchemy.engine import make_url
from sqlalchemy.exc import (
    ArgumentError,
    DisconnectionError,
    IntegrityError,
    InterfaceError,
    OperationalError,
)
from sqlalchemy.exc import TimeoutError as PoolTimeout

from exact61.server.bus import CHANNEL, names_notice, notice

_T = TypeVar("_T")
log = logging.getLogger(__name__)
CHECKPOINT_SECONDS = 1.0  # SQLite: how often the write-ahead log is copied into the database
metadata = sa.MetaData()
# What the database raises when it cannot be reached or does not answer in time (a server down
# or restarting, a network gone, the statement timeout): nothing was read or changed.
UNREACHABLE = (OperationalError, InterfaceError, DisconnectionError, PoolTimeout)


class Unavailable(Exception):
    """The database could not be reached or did not answer; nothing was read or changed. It
    passes: the server answers `unavailable` (503) meanwhile and goes on once it is back."""


games = sa.Table(
    "games",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("players", sa.Integer, nullable=False),
    sa.Column("seats", sa.JSON, nullable=False),  # per seat: "human" or "bot:NAME"
    sa.Column("names", sa.JSON, nullable=True),  # per seat: a person's display name, or null
    sa.Column("rematch", sa.String(32), nullable=True),  # the game this one continues in
    sa.Column("clock", sa.Integer, nullable=True),  # seconds a person has a move (null: no clock)
    sa.Column("stand_in", sa.String(40), nullable=True),  # the bot that plays for one out of time
    sa.Column("away", sa.JSON, nullable=True),  # the seats the stand-in plays for now
    sa.Column("guided", sa.Boolean, nullable=True),  # the Learn page's guided match (null: not)
    sa.Column("lang", sa.String(8), nullable=False),
    sa.Column("seed", sa.BigInteger, nullable=False),  # secret: it decides every deal
    sa.Column("name", sa.String(60), nullable=False),
    sa.Column("open", sa.Boolean, nullable=False),  # listed in the lobby
    sa.Column("status", sa.String(8), nullable=False),  # playing | over | expired
    sa.Column("seq", sa.Integer, nullable=False),  # actions applied, as of the last score change
    sa.Column("scores", sa.JSON, nullable=False),
    sa.Column("winner", sa.Integer, nullable=True),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
)
sa.Index("games_lobby", games.c.open, games.c.status, games.c.created_at)
sa.Index("games_expiry", games.c.status, games.c.created_at)  # expire_untouched's games

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
sa.Index("actions_expiry", actions.c.game_id, actions.c.created_at)  # a move since the cutoff


class Conflict(Exception):
    """Another action already holds this sequence number: the game moved on elsewhere."""


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def database_url(url: str | None, data_dir: Path) -> str:
    """The URL for `--db` (sqlite:///FILE, a file's path, or postgresql+psycopg://...), or the
    embedded file. ValueError says what is wrong with one that cannot be used."""
    if not url:
        data_dir.mkdir(parents=True, exist_ok=True)
        url = f"sqlite:///{data_dir / 'server.sqlite3'}"
    elif "://" not in url:  # a file's path: an SQLite database there
        url = f"sqlite:///{Path(url).expanduser().resolve()}"
    try:
        parsed = make_url(url)
    except ArgumentError:
        raise ValueError(
            f"not a database URL: {url!r}; use a file's path, sqlite:///FILE or "
            "postgresql+psycopg://..."
        ) from None
    backend = parsed.get_backend_name()
    if backend == "sqlite":
        folder = Path(parsed.database or "").expanduser().parent
        if parsed.database and not folder.is_dir():
            raise ValueError(f"no folder {folder} for the database file")
        return parsed.set(drivername="sqlite").render_as_string(hide_password=False)
    if backend == "postgresql":
        return parsed.set(drivername="postgresql+psycopg").render_as_string(hide_password=False)
    raise ValueError(
        f"unsupported database {backend!r}: use sqlite:///FILE or postgresql+psycopg://..."
    )


def migrate(sync_url: str) -> None:
    """Create or upgrade the schema to the newest revision (Alembic). On PostgreSQL, under an
    advisory lock: servers started together migrate one after the other."""
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
    config.set_main_option("sqlalchemy.url", sync_url.replace("%", "%%"))
    engine = sa.create_engine(sync_url, poolclass=sa.pool.NullPool)
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
    names: tuple[str | None, ...] = ()  # per seat (empty: none given)
    rematch: str | None = None  # the game it continues in, once made
    clock: int | None = None  # seconds a person has for a move (None: no turn clock)
    stand_in: str | None = None  # the bot that plays for a person whose time ran out
    away: tuple[int, ...] = ()  # the seats the stand-in plays for now
    guided: bool = False  # the Learn page's guided match (`exact61.learn.guided`)


@dataclass(frozen=True)
class ActionRow:
    seq: int
    round: int
    seat: int
    action: dict[str, Any]
    drawn: list[int] | None


def _now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


@dataclass(frozen=True)
class Totals:
    """A game's status, scores and winner after an action that changed them."""

    status: str
    scores: Sequence[int]
    winner: int | None


@dataclass(frozen=True)
class _Write:
    """One action for the writer thread, and how to tell its coroutine it is stored."""

    game: str
    row: ActionRow
    totals: Totals | None
    done: asyncio.Future[None]


@dataclass(frozen=True)
class _Job:
    """Any other write (a new game, a seat taken): run alone, in order with the actions."""

    work: Callable[[sa.Connection], Any]
    done: asyncio.Future[Any]


_Outcome = tuple[asyncio.Future[Any], Any, BaseException | None]


def _settle_all(outcomes: list[_Outcome]) -> None:
    for future, result, error in outcomes:
        if future.done():  # its caller was cancelled
            continue
        if error is None:
            future.set_result(result)
        else:
            future.set_exception(error)


# Built once: statements made afresh for every action cost more than the writing itself.
_INSERT_ACTION = actions.insert()
_UPDATE_TOTALS = (
    games.update()
    .where(games.c.id == sa.bindparam("game"))
    .values(
        seq=sa.bindparam("seq"),
        status=sa.bindparam("status"),
        scores=sa.bindparam("scores"),
        winner=sa.bindparam("winner"),
        updated_at=sa.bindparam("updated_at"),
    )
)


class Database:
    """The server's database, for the event loop: every method is a coroutine.

    SQLAlchemy's synchronous engine does the work; reads run in a small pool of threads. Every
    write is made in order, the actions in batches: one transaction for every action waiting,
    from any games, and a caller returns only once its own action is committed.

    Where the writes are made depends on the database. PostgreSQL's answer comes over the
    network, so its writes are made in a writer thread, one hop there per batch (far less than
    an async driver's hop per statement). SQLite's commit is a local write of a few pages,
    shorter than a hop: its writes are made on the event loop itself, every write asked for in
    one turn of the loop stored together at the start of the next. A writer thread would have
    to take the interpreter's lock from the busy loop for each step of each batch, and the
    waits for it were most of a move's time at load (docs/figures/load.md). What a commit would
    otherwise do now and then, copy the write-ahead log into the database and sync it to disk,
    a thread of its own does every `CHECKPOINT_SECONDS`, where it stops nobody.
    """

    def __init__(self, engine: sa.Engine) -> None:
        self.engine = engine
        self._queue: SimpleQueue[_Write | _Job | None] = SimpleQueue()
        self._writer: threading.Thread | None = None
        self._on_loop = engine.dialect.name == "sqlite"
        self._waiting: list[_Write | _Job] = []  # on the loop: asked for in this turn
        self._checkpointer: threading.Thread | None = None
        self._closing = threading.Event()
        self._reads = ThreadPoolExecutor(4, thread_name_prefix="exact61-db-read")

    @classmethod
    def open(cls, url: str | None, data_dir: Path) -> Database:
        """Migrate the database at `url` (or the embedded file) and connect to it."""
        sync_url = database_url(url, data_dir)
        migrate(sync_url)
        options: dict[str, Any] = {}
        if make_url(sync_url).get_backend_name() == "postgresql":  # never wait forever on it
            options["connect_args"] = {
                "connect_timeout": 10,
                "options": "-c statement_timeout=15000",
            }
        # hide_parameters: a failed statement's error never carries a seed or a drawn tile
        engine = sa.create_engine(
            sync_url, pool_pre_ping=True, pool_size=8, hide_parameters=True, **options
        )
        if engine.dialect.name == "sqlite":
            event.listen(engine, "connect", _sqlite_pragmas)
        return cls(engine)

    def _submit(self, item: _Write | _Job) -> None:
        if self._on_loop:
            if self._checkpointer is None:
                self._checkpointer = threading.Thread(
                    target=self._checkpoint_often, name="exact61-db-checkpoint", daemon=True
                )
                self._checkpointer.start()
            if not self._waiting:
                asyncio.get_running_loop().call_soon(self._store_waiting)
            self._waiting.append(item)
            return
        if self._writer is None:
            writer = threading.Thread(target=self._drain, name="exact61-db-write", daemon=True)
            self._writer = writer
            writer.start()
        self._queue.put(item)

    async def _write(self, work: Callable[[sa.Connection], _T]) -> _T:
        done: asyncio.Future[_T] = asyncio.get_running_loop().create_future()
        self._submit(_Job(work, done))
        return await done

    def _checkpoint_often(self) -> None:
        """(SQLite) Copy what the write-ahead log holds into the database, every
        `CHECKPOINT_SECONDS` until closed, without waiting for readers or writers (PASSIVE)."""
        while not self._closing.wait(CHECKPOINT_SECONDS):
            try:
                with self.engine.connect() as db:
                    db.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")
            except sa.exc.SQLAlchemyError as err:  # the next one tries again
                log.warning("database checkpoint: %s", _first_line(err))

    def _store_waiting(self) -> None:
        """On the loop (SQLite): store every write asked for since the last turn."""
        items, self._waiting = self._waiting, []
        _settle_all(self._store(items))

    def _store(self, items: Sequence[_Write | _Job | None]) -> list[_Outcome]:
        """Make the writes in order, the actions between two other writes in one transaction."""
        outcomes: list[_Outcome] = []
        actions_: list[_Write] = []
        for item in items:
            if isinstance(item, _Write):
                actions_.append(item)
                continue
            if actions_:
                outcomes += self._commit_actions(actions_)
                actions_ = []
            if isinstance(item, _Job):
                outcomes.append(self._run_job(item))
        if actions_:
            outcomes += self._commit_actions(actions_)
        return outcomes

    def _drain(self) -> None:
        """The writer thread (PostgreSQL): take everything waiting, store it (`_store`), and
        tell the event loop once per batch. It starts the next batch as soon as one is stored,
        without waiting for the event loop to come round (a hop through the loop per batch made
        every action wait for a whole turn of a busy loop, twice)."""
        queue = self._queue
        while True:
            items = [queue.get()]
            while True:
                try:
                    items.append(queue.get_nowait())
                except Empty:
                    break
            stop = None in items
            outcomes = self._store(items)
            by_loop: dict[asyncio.AbstractEventLoop, list[_Outcome]] = {}
            for outcome in outcomes:
                by_loop.setdefault(outcome[0].get_loop(), []).append(outcome)
            for loop, some in by_loop.items():
                with contextlib.suppress(RuntimeError):  # a closed loop: nobody waits any more
                    loop.call_soon_threadsafe(_settle_all, some)
            if stop:
                return

    def _run_job(self, job: _Job) -> _Outcome:
        try:
            with self.engine.begin() as db:
                return job.done, job.work(db), None
        except UNREACHABLE as err:
            return job.done, None, Unavailable(_first_line(err))
        except Exception as err:
            return job.done, None, err

    def _commit_actions(self, batch: list[_Write]) -> list[_Outcome]:
        try:
            with self.engine.begin() as db:
                _commit(db, batch)
        except IntegrityError:  # some action's seq is taken: find which, one by one
            outcomes: list[_Outcome] = []
            for write in batch:
                try:
                    with self.engine.begin() as db:
                        _commit(db, [write])
                except IntegrityError:
                    taken = f"game {write.game}: action {write.row.seq} is already taken"
                    outcomes.append((write.done, None, Conflict(taken)))
                except Exception as err:
                    outcomes.append((write.done, None, err))
                else:
                    outcomes.append((write.done, None, None))
            return outcomes
        except Exception as err:
            return [(write.done, None, err) for write in batch]
        return [(write.done, None, None) for write in batch]

    async def _read(self, work: Callable[[sa.Connection], _T]) -> _T:
        def run() -> _T:
            try:
                with self.engine.connect() as db:
                    return work(db)
            except UNREACHABLE as err:
                raise Unavailable(_first_line(err)) from None

        return await asyncio.get_running_loop().run_in_executor(self._reads, run)

    async def close(self) -> None:
        """Finish every write already asked for, then let the threads and connections go."""
        if self._waiting:
            self._store_waiting()
        self._closing.set()
        if self._checkpointer is not None:
            await asyncio.get_running_loop().run_in_executor(None, self._checkpointer.join)
            self._checkpointer = None
        if self._writer is not None:
            self._queue.put(None)
            await asyncio.get_running_loop().run_in_executor(None, self._writer.join)
            self._writer = None
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
                    .values(status="expired", updated_at=_now())
                )
            return ids

        return await self._write(work)

    async def create(
        self, row: GameRow, hashes: dict[int, str], *, taken: set[int] | None = None
    ) -> None:
        """A new game with its seats' token hashes; `taken`: seats no lobby may give away."""

        def work(db: sa.Connection) -> None:
            _insert_game(db, row, hashes, taken or set())

        await self._write(work)

    async def create_rematch(self, game_id: str, row: GameRow, hashes: dict[int, str]) -> str:
        """The game `game_id` continues in: `row`, made now with the same seats' token hashes
        (every seat taken), unless one was made already (by any server), whose id is returned
        instead."""

        def work(db: sa.Connection) -> str:
            chosen = sa.select(games.c.rematch).where(games.c.id == game_id)
            made = db.execute(chosen.with_for_update()).scalar_one()  # other servers wait
            if made is not None:
                return str(made)
            _insert_game(db, row, hashes, set(hashes))
            db.execute(games.update().where(games.c.id == game_id).values(rematch=row.id))
            return row.id

        return await self._write(work)

    async def append(self, game_id: str, row: ActionRow, *, totals: Totals | None = None) -> None:
        """Write one action, and the game's new totals when they changed; return once it is
        committed (with every other action waiting then, in one transaction). Raise Conflict if
        its sequence number is taken."""
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._submit(_Write(game_id, row, totals, done))
        await done

    async def game(self, game_id: str) -> GameRow | None:
        def work(db: sa.Connection) -> GameRow | None:
            found = db.execute(games.select().where(games.c.id == game_id)).first()
            return None if found is None else _game_row(found)

        return await self._read(work)

    async def actions_of(self, game_id: str, after: int = 0) -> list[ActionRow]:
        def work(db: sa.Connection) -> list[ActionRow]:
            rows = db.execute(
                actions.select()
                .where(actions.c.game_id == game_id, actions.c.seq > after)
                .order_by(actions.c.seq)
            )
            return [ActionRow(r.seq, r.round, r.seat, dict(r.action), r.drawn) for r in rows]

        return await self._read(work)

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

        await self._write(work)

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

        return await self._write(work)

    async def set_name(self, game_id: str, seat: int, name: str) -> None:
        """The seat's person's display name, given or changed (`_name_seat`)."""

        def work(db: sa.Connection) -> None:
            _name_seat(db, game_id, seat, name)

        await self._write(work)

    async def set_away(self, game_id: str, away: tuple[int, ...]) -> None:
        """The seats whose person's time ran out, for whom the stand-in plays now."""

        def work(db: sa.Connection) -> None:
            db.execute(games.update().where(games.c.id == game_id).values(away=list(away)))

        await self._write(work)

    async def open_games(self, limit: int = 50) -> list[tuple[GameRow, list[int]]]:
        """Lobby: games still playing, listed by their makers, with the seats free to take."""

        def work(db: sa.Connection) -> list[tuple[GameRow, list[int]]]:
            rows = db.execute(
                games.select()
                .where(games.c.open.is_(True), games.c.status == "playing")
                .order_by(games.c.created_at.desc())
                .limit(limit)
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


def _insert_game(db: sa.Connection, row: GameRow, hashes: dict[int, str], taken: set[int]) -> None:
    """A new game's row and its seats' token hashes (`taken`: seats no lobby may give away)."""
    now = _now()
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
            created_at=now,
            updated_at=now,
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
        db.execute(
            sa.text("SELECT pg_notify(:channel, :payload)"),
            {"channel": CHANNEL, "payload": names_notice(game_id)},
        )


def _commit(db: sa.Connection, batch: list[_Write]) -> None:
    now = _now()
    db.execute(
        _INSERT_ACTION,
        [
            {
                "game_id": w.game,
                "seq": w.row.seq,
                "round": w.row.round,
                "seat": w.row.seat,
                "action": w.row.action,
                "drawn": w.row.drawn,
                "created_at": now,
            }
            for w in batch
        ],
    )
    changed = [
        {
            "game": w.game,
            "seq": w.row.seq,
            "status": w.totals.status,
            "scores": list(w.totals.scores),
            "winner": w.totals.winner,
            "updated_at": now,
        }
        for w in batch
        if w.totals is not None
    ]
    if changed:
        db.execute(_UPDATE_TOTALS, changed)
    if db.dialect.name == "postgresql":  # the bus: sent on commit, to every server listening
        last: dict[str, int] = {}
        for w in batch:
            last[w.game] = max(last.get(w.game, 0), w.row.seq)
        db.execute(
            sa.text("SELECT pg_notify(:channel, :payload)"),
            [{"channel": CHANNEL, "payload": notice(g, seq)} for g, seq in last.items()],
        )


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
    # copying and syncing would stop it; `Database._checkpoint_often` makes them in a thread.
    cursor.execute("PRAGMA wal_autocheckpoint=0")
    cursor.close()


def _first_line(err: Exception) -> str:
    """The driver's own words, without SQL or parameters: the line a log may show."""
    text = str(getattr(err, "orig", None) or err).strip()
    return text.splitlines()[0] if text else type(err).__name__
