"""The server's database schema and what its rows hold: the tables (SQLAlchemy Core, made and
upgraded by the Alembic migrations beside), the rows read back, and the errors a database
call may end in. `store.Database` reads and writes them; `writer.Writer` makes its writes.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.exc import DisconnectionError, InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout

metadata = sa.MetaData()
# What the database raises when it cannot be reached or does not answer in time (a server down
# or restarting, a network gone, the statement timeout): nothing was read or changed.
UNREACHABLE = (OperationalError, InterfaceError, DisconnectionError, PoolTimeout)


class Unavailable(Exception):
    """The database could not be reached or did not answer; nothing was read or changed. It
    passes: the server answers `unavailable` (503) meanwhile and goes on once it is back."""


class Conflict(Exception):
    """Another action already holds this sequence number: the game moved on elsewhere."""


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


@dataclass(frozen=True)
class Totals:
    """A game's status, scores and winner after an action that changed them."""

    status: str
    scores: Sequence[int]
    winner: int | None


def now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def first_line(err: Exception) -> str:
    """The driver's own words, without SQL or parameters: the line a log may show."""
    text = str(getattr(err, "orig", None) or err).strip()
    return text.splitlines()[0] if text else type(err).__name__
