"""A game rebuilt from the database: its seed and stored actions replayed through the core,
each checked (in sequence, legal, a stored draw the tile the seed deals). A room lost with its
process is rebuilt so, and a room follows so the actions another server stored."""

from __future__ import annotations

from exact61.core import RecordError, RuleError, tile_from
from exact61.core.records import ActionRecord, action_from_record
from exact61.learn import guided as guided_match
from exact61.server.store import ActionRow, GameRow
from exact61.table import HUMAN, Table, Update, Waiting


def game_rounds(guided: bool) -> int | None:
    """The rounds a game's table lasts (`Table`'s `rounds`): the Learn page's guided match's
    (`guided.ROUNDS`, as the terminal plays it), else None, a whole match to 61 (R30)."""
    return guided_match.ROUNDS if guided else None


def table_seat(kind: str) -> str:
    """A stored seat kind (`human`, `bot:expert`) as the `Table` takes it."""
    return HUMAN if kind == "human" else kind.removeprefix("bot:")


def rebuild(row: GameRow, rows: list[ActionRow]) -> tuple[Table, list[Update]]:
    """A game from its seed and stored actions, replayed through the core."""
    table = Table(
        row.players,
        [table_seat(kind) for kind in row.seats],
        row.seed,
        lang=row.lang,
        names=row.names or None,
        rounds=game_rounds(row.guided),
    )
    table.deal()
    return table, apply_rows(table, row.id, rows)


def apply_rows(table: Table, game_id: str, rows: list[ActionRow]) -> list[Update]:
    """Apply stored actions that follow the table's own, checked: each in sequence, legal, and
    a stored draw takes the tile the seed deals. The next round is dealt as rounds end, while
    the game goes on (the table says when it is over: `Table.is_over`)."""
    updates: list[Update] = []
    for stored in rows:
        if stored.seq != table.seq + 1:
            raise RecordError(f"game {game_id}: action {stored.seq} follows {table.seq}")
        try:
            action = action_from_record(ActionRecord(seat=stored.seat, **stored.action))
            update = table.apply(action, seat=stored.seat)
        except (RuleError, ValueError) as err:
            raise RecordError(f"game {game_id}, action {stored.seq}: {err}") from None
        if stored.drawn is not None and update.drawn != tile_from(stored.drawn):
            raise RecordError(f"game {game_id}, action {stored.seq}: the seed draws another tile")
        updates.append(update)
        if table.waiting_for() is Waiting.DEAL:
            table.deal()
    return updates
