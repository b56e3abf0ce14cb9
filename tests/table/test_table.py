"""The table every front end plays through: turns, bots, saving, resuming, taking back."""

from __future__ import annotations

import json
import pickle
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exact61 import Action, IllegalMoveError, Pass, Phase, Play, RecordError, RuleError, replay
from exact61.table import Table, TurnError, Update, Waiting, decide
from exact61.table.files import FileStore, check_writable, claim_new_file


def person(table: Table, k: int) -> Action:
    """A scripted person: the k-th legal action (cycling), the same whenever asked."""
    legal = table.match.legal_actions()
    return legal[k % len(legal)]


def play_to_end(table: Table, *, stop_at: int | None = None) -> None:
    """Run the table: bots decide, the scripted person answers; stop before action `stop_at`."""
    while not table.match.is_over:
        if stop_at is not None and table.seq >= stop_at:
            return
        if table.match.phase is Phase.DEAL:
            table.deal()
            continue
        seat = table.to_act
        assert seat is not None
        if table.is_human(seat):
            table.apply(person(table, table.seq * 7 + seat), seat=seat)
        else:
            table.apply(table.bot_action())


SEATINGS = [
    ["human", "ismcts:25"],
    ["human", "heuristic", "greedy"],
    ["human", "random", "human", "ismcts:20"],
]


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**40), seating=st.sampled_from(SEATINGS), cut=st.integers(0, 400))
def test_a_game_cut_and_resumed_plays_exactly_as_one_never_cut(
    seed: int, seating: list[str], cut: int
) -> None:
    whole = Table(len(seating), seating, seed)
    play_to_end(whole)
    first = Table(len(seating), seating, seed)
    play_to_end(first, stop_at=cut)
    resumed = Table.from_record(json.loads(first.record_text()))
    assert resumed.seq == first.seq
    play_to_end(resumed)
    assert resumed.record() == whole.record()


def test_turns_and_illegal_actions_change_nothing() -> None:
    table = Table(2, ["human", "human"], 5)
    table.deal()
    seat = table.to_act
    assert seat is not None
    other = 1 - seat
    record = table.record()
    with pytest.raises(TurnError, match="R2"):
        table.apply(table.match.legal_actions()[0], seat=other)
    tile = table.match.hand(other)[0]
    with pytest.raises(IllegalMoveError, match="R9"):
        table.apply(Play(tile, None), seat=seat)  # a tile seat does not hold
    assert table.record() == record and table.seq == 0
    update = table.apply(table.match.legal_actions()[0], seat=seat)
    assert isinstance(update, Update) and update.seq == 1 == table.seq and update.seat == seat


def test_bot_requests_travel_to_worker_processes_and_decide_the_same() -> None:
    table = Table(3, ["ismcts:30", "heuristic", "greedy"], 11)
    decided = 0
    while table.seq < 60 and not table.match.is_over:
        if table.match.phase is Phase.DEAL:
            table.deal()
            continue
        request = table.bot_request()
        copy = pickle.loads(pickle.dumps(request))
        action = decide(request)
        assert decide(copy) == action and action in table.match.legal_actions()
        table.apply(action)
        decided += 1
    assert decided == 60


def test_take_back_against_bots_only() -> None:
    table = Table(2, ["human", "greedy"], 21)
    play_to_end(table, stop_at=9)
    human_moves = [(i, s) for i, s in enumerate(table.match.rounds[-1].steps) if s.seat == 0]
    assert human_moves
    before = table.record()
    seq = table.seq
    undone = table.take_back(0)
    assert undone >= 1 and table.seq == seq - undone
    # the same as a table that never made the move: replaying the kept actions gives it
    replayed = Table(2, ["human", "greedy"], 21)
    play_to_end(replayed, stop_at=table.seq)
    assert table.record() == replayed.record()
    assert replay(table.record()).scores == table.match.scores
    assert table.record() != before
    with pytest.raises(TurnError):
        Table(2, ["human", "human"], 1).take_back(0)


def test_file_store_always_holds_a_record_that_replays(tmp_path: Path) -> None:
    path = tmp_path / "games" / "g.json"
    table = Table(4, ["human", "greedy", "random", "greedy"], 3, store=FileStore(path))
    seen = last_person = 0
    while not table.match.is_over and seen < 150:
        if table.match.phase is Phase.DEAL:
            table.deal()
        else:
            by_person = not table.bot_to_act  # a person's seat, its forced steps too
            action = table.bot_action() if table.bot_to_act else person(table, seen)
            table.apply(action)
            last_person = table.seq if by_person else last_person
            seen += 1
        saved = sum(len(r.steps) for r in replay(path.read_text()).rounds)
        if table.waiting_for() in (Waiting.PERSON, Waiting.DEAL, Waiting.OVER):
            assert saved == table.seq  # all of it whenever a person waits, and at a round's end
        else:  # the bots' moves since may wait for the next write; a person's never does
            assert last_person <= saved <= table.seq
    assert [p.name for p in path.parent.iterdir()] == ["g.json"]  # no temporary file left


def test_file_store_of_bots_alone_writes_at_deals_and_round_ends(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    table = Table(2, ["greedy", "random"], 8, store=FileStore(path))
    writes = 0
    while not table.match.is_over:
        before = path.read_text() if path.exists() else ""
        update = table.step()
        written = path.read_text() if path.exists() else ""
        writes += written != before
        assert (written != before) == (update is None or update.round_ended)
    assert writes == 2 * len(table.match.rounds)  # each round's deal and its end
    assert path.read_text() == table.record_text() + "\n"  # the whole match, at its end


def test_claiming_a_new_file_never_takes_one_already_taken(tmp_path: Path) -> None:
    """Saves and tournament records named by time and seed: a name already taken, or taken a
    moment ago by another caller, yields the next free `-N` (exclusive creation)."""
    from concurrent.futures import ThreadPoolExecutor

    wanted = tmp_path / "20261130-120000-8.json"
    wanted.write_text("someone else's game")
    with ThreadPoolExecutor(8) as pool:
        claimed = list(pool.map(lambda _: claim_new_file(wanted), range(8)))
    assert len(set(claimed)) == 8 and wanted not in claimed
    assert {p.name for p in claimed} == {f"20261130-120000-8-{n}.json" for n in range(2, 10)}
    assert wanted.read_text() == "someone else's game"


def test_records_without_a_seed_or_with_bad_seats_are_refused() -> None:
    table = Table(2, ["human", "greedy"], 8)
    table.deal()
    record = table.record()
    del record["seed"]
    with pytest.raises(RecordError, match="seed"):
        Table.from_record(record)
    record = table.record()
    record["seats"] = ["human", "nobody"]
    with pytest.raises(RecordError, match="seats"):
        Table.from_record(record)


def test_a_save_from_before_seats_were_recorded_resumes_against_ismcts() -> None:
    # Such saves were played against ismcts, the expert level then; `expert` is now the equity
    # bot, but a resumed game keeps the opponents it had.
    table = Table(3, ["human", "ismcts:20", "ismcts:20"], 8)
    table.deal()
    record = table.record()
    del record["seats"]
    assert Table.from_record(record).seats == ["human", "ismcts", "ismcts"]


def test_unwritable_folder_is_reported_before_a_game(tmp_path: Path) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    with pytest.raises(OSError):
        check_writable(blocked / "games")
    check_writable(tmp_path / "fine")
    assert (tmp_path / "fine").is_dir()


def test_seeded_tables_deal_the_same_rounds_as_the_match_driver() -> None:
    table = Table(2, ["random", "random"], 99)
    table.deal()
    reference = random.Random(99)
    from exact61 import Match

    match = Match(2)
    match.deal_next_round(reference)
    assert table.match.rounds[0].deal == match.rounds[0].deal


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32), before=st.integers(0, 60), after=st.integers(1, 40))
def test_restore_puts_the_table_back_exactly_as_it_was_at_the_checkpoint(
    seed: int, before: int, after: int
) -> None:
    """The server restores a checkpoint when an action's write fails: the table must be the
    one it was, down to the next deals (the seed's draws), and play on the same."""
    rng = random.Random(seed)

    def play(table: Table, n: int) -> None:
        for _ in range(n):
            if table.match.is_over:
                return
            legal = table.match.legal_actions()
            table.apply(legal[rng.randrange(len(legal))])
            if table.match.phase is Phase.DEAL:
                table.deal()

    table = Table(2, ["human", "human"], seed)
    table.deal()
    play(table, before)
    checkpoint = table.checkpoint()
    as_it_was = table.record_text()
    seq = table.seq
    play(table, after)
    table.restore(checkpoint)
    assert (table.record_text(), table.seq) == (as_it_was, seq)
    # and plays on as a table that never went further: its twin, given the same actions
    twin = Table(2, ["human", "human"], seed)
    twin.deal()
    for action in [s.action for log in table.match.rounds for s in log.steps]:
        twin.apply(action)
        if twin.match.phase is Phase.DEAL:
            twin.deal()
    rng = random.Random(seed + 1)
    play(table, 30)
    rng = random.Random(seed + 1)
    play(twin, 30)
    assert table.record_text() == twin.record_text()


@pytest.mark.parametrize("timed", [False, True])
def test_a_blind_bot_is_asked_without_a_view_and_chooses_as_with_one(
    monkeypatch: pytest.MonkeyPatch, timed: bool
) -> None:
    """`random` chooses from the legal actions alone (a `BlindBot`): the table builds it no
    view, as simulate plays (untimed) and as tournament does (timed); a bot that reads its view
    gets one. (test_records_kept.py checks that the records stay the same byte for byte.)"""
    from exact61 import Match
    from exact61.bots import BlindBot, GreedyBot, RandomBot

    assert isinstance(RandomBot(random.Random(1)), BlindBot)
    assert not isinstance(GreedyBot(random.Random(1)), BlindBot)
    views = 0
    real_view = Match.view

    def counted(match: Match, seat: int) -> object:
        nonlocal views
        views += 1
        return real_view(match, seat)

    monkeypatch.setattr(Match, "view", counted)
    Table(2, ["random", "random"], 5, bots_per="seat", timed=timed).play_out()
    assert views == 0
    Table(2, ["greedy", "random"], 5, bots_per="seat", timed=timed).play_out()
    assert views > 0
    # Asked with a view, `choose` draws from the same source as `pick`: the same choices.
    match = Match(2)
    match.deal_next_round(random.Random(3))
    legal, view = match.legal_actions(), real_view(match, match.to_act or 0)
    picker, chooser = RandomBot(random.Random(9)), RandomBot(random.Random(9))
    picked = [picker.pick(legal) for _ in range(50)]
    assert picked == [chooser.choose(view) for _ in range(50)]
    assert len(set(picked)) > 1


# ---- a game of a number of rounds ---------------------------------------------------------

BOTS = ["greedy", "greedy"]


def step_to_end(table: Table, rounds: int | None = None) -> None:
    """Step a table of bots until it waits for nothing, checking at each step that it is not
    over before it should be: its match won (R30), or `rounds` rounds settled."""
    while (waiting := table.waiting_for()) is not Waiting.OVER:
        settled = sum(log.end is not None for log in table.match.rounds)
        assert not table.is_over and not table.match.is_over
        assert rounds is None or settled < rounds
        assert waiting in (Waiting.DEAL, Waiting.FORCED, Waiting.BOT)
        table.step()
    assert table.is_over


@pytest.mark.parametrize("rounds", [1, 3])
def test_a_table_of_n_rounds_is_over_once_its_nth_round_is_settled_not_before(rounds: int) -> None:
    whole = Table(2, BOTS, 3)
    whole.play_out()
    assert len(whole.match.rounds) > rounds  # the whole match goes on past them
    table = Table(2, BOTS, 3, rounds=rounds)
    step_to_end(table, rounds)
    played = table.match.rounds
    assert len(played) == rounds and played[-1].end is not None and not table.match.is_over
    # the same rounds as the whole match's first ones: the limit only ends the game
    assert table.record()["rounds"] == whole.record()["rounds"][:rounds]
    # a record does not keep the limit: resumed with it the game is over, without it it goes on
    record = json.loads(table.record_text())
    assert Table.from_record(record, rounds=rounds).waiting_for() is Waiting.OVER
    assert Table.from_record(record).waiting_for() is Waiting.DEAL


def test_a_table_over_after_its_rounds_deals_no_more_as_after_a_match_won() -> None:
    limited = Table(2, BOTS, 3, rounds=2)
    step_to_end(limited, 2)
    won = Table(2, BOTS, 3)
    won.play_out()
    assert won.match.is_over and not limited.match.is_over
    for table in (limited, won):
        record, seq = table.record_text(), table.seq
        with pytest.raises(RuleError, match="R30: the match is over"):
            table.deal()
        with pytest.raises(TurnError, match="the match is over"):
            table.step()
        with pytest.raises(TurnError, match="nobody is to act"):
            table.apply(Pass())
        assert (table.record_text(), table.seq) == (record, seq)  # nothing changed


def test_a_table_of_n_rounds_still_ends_at_once_when_a_side_reaches_61_first() -> None:
    """R30: a side landing on exactly 61 wins then and there, whatever the table's rounds."""
    whole = Table(2, BOTS, 2)
    whole.play_out()
    won_in = len(whole.match.rounds)
    last = whole.match.rounds[-1].end
    assert last is not None and last.kind == "target"  # won in the middle of its round
    for rounds in (won_in, won_in + 1, won_in + 10):
        table = Table(2, BOTS, 2, rounds=rounds)
        step_to_end(table, rounds)
        assert table.match.winner == whole.match.winner is not None
        assert table.record() == whole.record()  # ended at the winning action, as the match


def test_playing_out_a_table_of_n_rounds_stops_after_them() -> None:
    for bots_per in ("moment", "seat"):
        table = Table(2, BOTS, 3, rounds=2, bots_per=bots_per)
        table.play_out()
        rounds = table.match.rounds
        assert len(rounds) == 2 and rounds[-1].end is not None and not table.match.is_over
        assert table.waiting_for() is Waiting.OVER


@pytest.mark.parametrize("rounds", [0, -1, 2.0, True])
def test_a_table_lasts_at_least_one_round(rounds: object) -> None:
    with pytest.raises(ValueError, match="rounds"):
        Table(2, BOTS, 3, rounds=rounds)  # type: ignore[arg-type]


def test_the_data_folder_given_with_a_tilde_is_in_the_home_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`EXACT61_DATA_DIR=~/exact61` where no shell expands it (a service's file, quotes) made a
    folder named `~` wherever the program was started."""
    from exact61.table.files import data_dir

    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("EXACT61_DATA_DIR", "~/exact61")
    assert data_dir() == tmp_path / "exact61"
