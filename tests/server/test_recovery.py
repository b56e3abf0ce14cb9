"""A game rebuilt from the database (`server.recovery`): its table is the one it was, down to
when it is over. A guided game's table is rebuilt with the guided match's rounds (the row's
`guided`, migration 0006), so after a restart it deals no round past them; an ordinary game
with the same actions goes on to the next round."""

from __future__ import annotations

from exact61.core.records import action_json, tile_json
from exact61.learn import guided
from exact61.server.hub import GUIDED_SEATS
from exact61.server.recovery import game_rounds, rebuild, table_seat
from exact61.server.store import ActionRow, GameRow
from exact61.table import Table, Waiting


def played_guided_game() -> tuple[Table, list[ActionRow]]:
    """A guided game played to its end as the server plays it (the person plays their first
    legal action), and its actions as the database keeps them."""
    table = Table(
        2,
        [table_seat(kind) for kind in GUIDED_SEATS],
        guided.SEED,
        rounds=game_rounds(True),
    )
    rows: list[ActionRow] = []
    while (waiting := table.waiting_for()) is not Waiting.OVER:
        if waiting is Waiting.DEAL:
            table.deal()
            continue
        if waiting is Waiting.PERSON:
            update = table.apply(table.match.legal_actions()[0])
        else:
            update = table.step()
            assert update is not None
        drawn = None if update.drawn is None else tile_json(update.drawn)
        rows.append(
            ActionRow(
                update.seq, update.round_index, update.seat, action_json(update.action), drawn
            )
        )
    return table, rows


def row(guided_game: bool) -> GameRow:
    return GameRow(
        "g1", 2, GUIDED_SEATS, "en", guided.SEED, "", False, "over", 0, [0, 0], None,
        guided=guided_game,
    )  # fmt: skip


def test_a_rebuilt_guided_game_keeps_its_rounds_and_deals_no_more() -> None:
    assert game_rounds(True) == guided.ROUNDS and game_rounds(False) is None
    played, rows = played_guided_game()
    assert not played.match.is_over and len(played.match.rounds) == guided.ROUNDS  # no winner
    table, updates = rebuild(row(True), rows)
    assert table.rounds == guided.ROUNDS and table.is_over
    assert table.waiting_for() is Waiting.OVER
    assert (table.seq, len(updates)) == (played.seq, len(rows))
    assert table.record() == played.record()  # its rounds and no next one dealt
    # an ordinary game with the same actions is a whole match: its next round is dealt
    ordinary, _ = rebuild(row(False), rows)
    assert ordinary.rounds is None and not ordinary.is_over
    assert len(ordinary.match.rounds) == guided.ROUNDS + 1
    assert ordinary.waiting_for() is not Waiting.OVER
