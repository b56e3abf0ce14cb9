"""A server's finished matches as match records, read from its database (`exact61 export`):
what a club keeps, replays, analyses and rates. Read only: the database is neither created nor
migrated, so it may be read while its server runs (SQLite's readers never wait for its writer).

Each record is the one `GET /api/games/{game}/record` gives: the game rebuilt from its seed and
stored actions (`recovery.rebuild`), and checked by replaying it."""

from __future__ import annotations

from pathlib import Path

import sqlalchemy as sa
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory

from exact61.core import RecordError
from exact61.core.records import replay
from exact61.i18n import _
from exact61.server.recovery import rebuild
from exact61.server.schema import first_line, games
from exact61.server.store import (
    connect_options,
    database_url,
    read_actions,
    read_game,
    shown_name,
    sqlite_file,
)

MIGRATIONS = Path(__file__).parent / "migrations"


class CannotReadDatabase(Exception):
    """The database is not there, is not a server's, has another version's schema, or cannot
    be reached: one line in the current language, naming it (a PostgreSQL URL without its
    password; the driver's own words in English)."""


class Archive:
    """The finished matches of a server's database (`--db` as `exact61 serve` takes it)."""

    def __init__(self, db: str | None, data_dir: Path) -> None:
        url = database_url(db, data_dir)  # ValueError: a URL no server could use either
        file = sqlite_file(url)
        self.shown = shown_name(url)
        if file is not None and file.is_dir():
            raise CannotReadDatabase(
                _("{db} is a folder, not a database file").format(db=self.shown)
            )
        if file is not None and not file.is_file():  # SQLite would make an empty database
            raise CannotReadDatabase(_("no database {db}").format(db=self.shown))
        self.engine = sa.create_engine(url, pool_size=1, **connect_options(url))  # one, kept
        try:
            with self.engine.connect() as db_:
                current = MigrationContext.configure(db_).get_current_revision()
        except sa.exc.SQLAlchemyError as err:
            self.close()
            raise self.cannot(err) from None
        head = ScriptDirectory(str(MIGRATIONS)).get_current_head()
        if current is None:
            self.close()
            raise CannotReadDatabase(
                _("{db} is not a games database of exact61 serve").format(db=self.shown)
            )
        if current != head:
            self.close()
            raise CannotReadDatabase(
                _(
                    "{db} has the schema of another version of exact61 (revision {current}; "
                    "this one reads {head}): serve it once with this version to upgrade it"
                ).format(db=self.shown, current=current, head=head)
            )

    def cannot(self, err: Exception) -> CannotReadDatabase:
        return CannotReadDatabase(
            _("cannot read the database {db}: {why}").format(db=self.shown, why=first_line(err))
        )

    def finished(self) -> list[str]:
        """The games whose match is over (R30), the first finished first; the Learn page's
        guided matches (a lesson of a few rounds) are not among them."""
        query = (
            sa.select(games.c.id)
            .where(games.c.status == "over", sa.or_(games.c.guided.is_(None), ~games.c.guided))
            .order_by(games.c.updated_at, games.c.id)
        )
        try:
            with self.engine.connect() as db:
                return [row.id for row in db.execute(query)]
        except sa.exc.SQLAlchemyError as err:
            raise self.cannot(err) from None

    def record(self, game_id: str) -> str | None:
        """The game's match record as one line of JSON, checked by replaying it; None for a
        game gone since it was listed. RecordError for one whose stored actions do not replay
        to the match's end."""
        try:
            with self.engine.connect() as db:
                row = read_game(db, game_id)
                rows = read_actions(db, game_id)
        except sa.exc.SQLAlchemyError as err:
            raise self.cannot(err) from None
        except (ValueError, TypeError) as err:  # a stored value that is not JSON, or not an object
            raise RecordError(f"game {game_id}: cannot be read: {first_line(err)}") from None
        if row is None:
            return None
        try:
            table, _updates = rebuild(row, rows)
        except RecordError as err:  # on one line: a stored action's own may run to several
            raise RecordError(first_line(err)) from None
        if not table.is_over:
            raise RecordError(f"game {game_id}: its stored actions end before the match")
        text = table.record_text()
        replay(text)
        return text

    def close(self) -> None:
        self.engine.dispose()
