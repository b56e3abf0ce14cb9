"""Games in play on the server: one `Room` per game, holding its `Table`, its clients and
their frames, the moves the server makes itself (`moves`: forced actions, bots, the stand-in,
from `Table.waiting_for`) and its turn clock (`clock`); the `Hub`, in `hub`, finds, makes,
rebuilds and forgets rooms.

Every change goes the same way, under the room's lock: check it against the table, apply it,
write it to the database, and only then tell the clients (each its own frame). If the write
fails the table goes back to where it was, so the server never shows or builds on an action
that is not stored. A room lost with the process is rebuilt from the database: the game's seed
and actions, replayed through the core.

The module is a little over 600 lines and one concern: the `Room`, which holds the lock every
change goes under; what works beside it (its moves, clock, thinkers, recovery) is elsewhere.
"""

from __future__ import annotations

import asyncio
import hmac
import logging
import secrets
import time
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any

from exact61 import i18n
from exact61.core import Action, IllegalMoveError, RecordError, replay
from exact61.core.records import action_json, tile_json
from exact61.learn import guided as guided_match
from exact61.learn import hints
from exact61.server.clock import TurnClock
from exact61.server.frames import (
    Frame,
    encode_frame,
    last_entries,
    layout_state,
    public_state,
    state_text,
    update_entries,
)
from exact61.server.moves import ServerMoves
from exact61.server.protocol import DEFAULT_STAND_IN, GameError, error_frame
from exact61.server.quota import Limits
from exact61.server.recovery import apply_rows
from exact61.server.store import (
    ActionRow,
    Conflict,
    Database,
    GameRow,
    Totals,
    Unavailable,
    token_hash,
)
from exact61.server.thinkers import Thinkers
from exact61.server.timings import TIMINGS
from exact61.table import (
    Table,
    TurnError,
    Update,
    Waiting,
    check_name,
)

log = logging.getLogger("exact61.server")

Send = Callable[[Frame], Awaitable[None]]
IDLE_ROOM = 600.0  # seconds without clients or moves before a room is let go (kept on disk)
EXPIRED = "this game was closed: nobody moved in it for a long time"
# Connections to one game. A seat always gets in: past its own cap its oldest connection goes
# (a tab left open, a phone that lost its network), and spectators never take a seat's place.
MAX_SEAT_CONNECTIONS = 4  # open at once with one seat's token
MAX_SPECTATORS = 48  # spectators of one game
MAX_KEPT_ENTRIES = 32  # updates' entries a room keeps for the next frames


@dataclass(eq=False)
class Client:
    """One connection to a game: a seat's, or a spectator's (`seat` None)."""

    seat: int | None
    send: Send  # puts a frame on the connection's way out (never blocks the room)
    end: Callable[[Frame], None] = lambda frame: None  # sends a last frame, then closes
    seen: int | None = None  # the seq of the last state it was sent (None: none yet)
    address: str | None = None  # where it connects from (behind a trusted proxy, the client's)
    opened: float = field(default_factory=time.monotonic)  # when the connection came


def spawn(tasks: set[asyncio.Task[None]], work: Coroutine[Any, Any, None]) -> None:
    """Run `work` as a task held in `tasks` until done (the loop keeps only weak references),
    its failure logged in one line: the database gone for a while is a warning, not a
    traceback ("Task exception was never retrieved")."""
    task = asyncio.get_running_loop().create_task(work)
    tasks.add(task)

    def done(task: asyncio.Task[None]) -> None:
        tasks.discard(task)
        if task.cancelled() or (err := task.exception()) is None:
            return
        if isinstance(err, Unavailable):
            log.warning("the database is unavailable (a game catching up): %s", err)
        else:
            log.error("a game could not catch up: %r", err)

    task.add_done_callback(done)


def rematch_frame(game_id: str) -> Frame:
    return {"type": "rematch", "game": game_id}


def new_token() -> str:
    return secrets.token_urlsafe(32)  # 256 random bits


def guided_json() -> dict[str, Any]:
    """The guided match as a guided game's state tells it: how many rounds it lasts."""
    return {"rounds": guided_match.ROUNDS}


def seat_kinds(table: Table) -> list[str]:
    return ["human" if table.is_human(s) else f"bot:{table.seats[s]}" for s in range(table.players)]


@dataclass(eq=False)
class Room:
    """One game in play on this server."""

    row: GameRow
    table: Table
    store: Database
    thinkers: Thinkers
    bot_delay: float = 0.0  # seconds a bot (or the stand-in) waits before moving
    forced_delay: float = 0.0  # seconds before the server plays a forced action (the page shows it)
    shared: bool = False  # other servers use the same database
    forget: Callable[[Room], None] = lambda room: None  # drop this room (it is rebuilt on demand)
    # who is connected to the game on other servers (`presence`: a bit a seat), and whom to
    # tell when the seats connected here may have changed
    elsewhere: Callable[[str], int] = lambda game_id: 0
    seats_changed: Callable[[Room], None] = lambda room: None
    updates: list[Update] = field(default_factory=list)
    clients: set[Client] = field(default_factory=set)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    hashes: dict[int, str] = field(default_factory=dict)
    active: float = field(default_factory=time.monotonic)  # the last move or connection
    moved_here: bool = True  # this server applied the last action (so it moves the bots)
    # whose turn its bots take in the pool: the address that made it, or for a game rebuilt
    # from the database (the server keeps no address on disk) that of the first person to take
    # a seat in it here; until then, the game's own
    owner: str = ""
    expired: bool = False  # closed for good, untouched too long: no more moves or connections
    rematch: str | None = None  # the game this one continues in, once made
    clock: int | None = None  # seconds a person has for a move (None: no turn clock)
    stand_in: str = DEFAULT_STAND_IN  # the bot that plays for a person whose time ran out
    away: frozenset[int] = frozenset()  # the seats the stand-in plays for now
    spectators_per_address: int = Limits.spectators_per_address  # of this game, from one address
    moves: ServerMoves = field(init=False)  # the moves the server makes itself
    timer: TurnClock = field(init=False)  # the turn clock (`clock`: its seconds a move)
    _hints: dict[tuple[int, int], asyncio.Future[hints.Hint]] = field(default_factory=dict)
    _tasks: set[asyncio.Task[None]] = field(default_factory=set)
    # What the frames are made of, kept while it holds: the layout's part of the state (by the
    # placements it follows from), and each recent update's entries (by seq, for the update
    # they were made of, and whether the recipient sees the tile it drew).
    _drawn: tuple[tuple[int, ...], dict[str, Any]] | None = None
    _entries: dict[tuple[int, bool], tuple[Update, list[dict[str, Any]]]] = field(
        default_factory=dict
    )
    # A long `last` (a reload asks from seq 0: the whole match's log), made once for each
    # recipient and start while the game stays at one seq, however many connections ask.
    _long_last: dict[tuple[int | None, int], tuple[int, list[dict[str, Any]]]] = field(
        default_factory=dict
    )

    def __post_init__(self) -> None:
        self.moves = ServerMoves(self)
        self.timer = TurnClock(self)

    @property
    def id(self) -> str:
        return self.row.id

    @property
    def guided(self) -> bool:
        """The Learn page's guided match: its state says how many rounds it lasts (its table
        ends it after them, `recovery.game_rounds`)."""
        return self.row.guided

    @property
    def over(self) -> bool:
        """Nothing more is played here, as the table says (`Table.is_over`: the match won, or
        a guided game's rounds played)."""
        return self.table.is_over

    # ---- who is there --------------------------------------------------------------------

    async def seat_of(self, token: str) -> int | None:
        """The seat whose token this is, by the database's tokens (the lobby may have given a
        seat a new one, on any server), compared in constant time; None if none.

        A seat's first connection is stored (the lobby gives away only seats nobody has used);
        once stored it stays, so any later hello only reads."""
        presented = token_hash(token)
        tokens = await self.store.tokens(self.id)
        self.hashes = {seat: stored for seat, (stored, _taken) in tokens.items()}
        found = None
        for seat, stored in self.hashes.items():
            if hmac.compare_digest(presented, stored):
                found = seat
        if found is not None and not tokens[found][1]:
            await self.store.mark_taken(self.id, found, presented)
        return found

    def connected(self) -> list[bool]:
        """Each seat: connected to this server or, as they say, to another one (`presence`)."""
        seats = self.seats_here() | self.elsewhere(self.id)
        return [bool(seats >> s & 1) for s in range(self.table.players)]

    def seats_here(self) -> int:
        """The seats connected to this server, a bit each."""
        seats = 0
        for client in self.clients:
            if client.seat is not None:
                seats |= 1 << client.seat
        return seats

    async def join(self, client: Client, since: int | None) -> None:
        async with self.lock:
            if self.expired:
                raise GameError("expired", EXPIRED)
            if client.seat is None:
                self._admit_spectator(client)
            else:
                self._make_way_for(client.seat)
                if not self.owner and client.address:
                    self.owner = client.address
            self.clients.add(client)
            self.seats_changed(self)
            self.active = time.monotonic()
            self.timer.presence()
            await self._send_state(client, since)
            if self.rematch is not None:
                await client.send(rematch_frame(self.rematch))
        await self.tell_presence()
        self.kick_bots()

    def _admit_spectator(self, client: Client) -> None:
        """GameError `full` when the game's spectator places, or those for one address, are
        taken; seats are never counted here."""
        watching = [c for c in self.clients if c.seat is None]
        if len(watching) >= MAX_SPECTATORS:
            raise GameError("full", f"a game takes at most {MAX_SPECTATORS} spectators")
        most = self.spectators_per_address
        if sum(c.address == client.address for c in watching) >= most:
            raise GameError("full", f"at most {most} spectators of a game from one address")

    def _make_way_for(self, seat: int) -> None:
        """A seat's new connection always gets in: past `MAX_SEAT_CONNECTIONS`, the seat's
        oldest connections are closed."""
        same = sorted((c for c in self.clients if c.seat == seat), key=lambda c: c.opened)
        for old in same[: max(0, len(same) - MAX_SEAT_CONNECTIONS + 1)]:
            self.clients.discard(old)
            old.end(error_frame("replaced", "this seat connected again elsewhere"))

    async def leave(self, client: Client) -> None:
        self.clients.discard(client)
        self.seats_changed(self)
        self.active = time.monotonic()
        self.timer.presence()
        await self.tell_presence()

    async def presence_elsewhere(self) -> None:
        """Who is connected to another server changed what this game's clients see: the clock
        starts or stops as for a seat here (`TurnClock.presence`), and they are told."""
        self.timer.presence()
        await self.tell_presence()

    async def resync(self, client: Client, since: int | None) -> None:
        async with self.lock:
            await self._send_state(client, since)

    def drop_seat(self, seat: int) -> None:
        """The seat has a new token: close this server's connections made with the old one."""
        for client in list(self.clients):
            if client.seat == seat:
                client.end(error_frame("bad_token", "this seat was given a new link"))

    # ---- names ---------------------------------------------------------------------------

    async def rename(self, seat: int, name: str) -> bool:
        """The seat's person gives it a display name (`check_name`'s rules), while the match is
        in play: stored, then every client here is told (`presence`); other servers hear of it
        on the bus. False if the seat had that name already (nothing is written or told)."""
        try:
            kept = check_name(name)
        except ValueError as err:
            raise GameError("bad_message", f"name: {err}") from None
        async with self.lock:
            if self.expired:
                raise GameError("expired", EXPIRED)
            if self.over:  # the record handed out stays as it is
                raise GameError("over", "the match is over (R30)")
            if self.table.names[seat] == kept:
                return False
            await self.store.set_name(self.id, seat, kept)
            self.table.name_seat(seat, kept)
        await self.tell_presence()
        return True

    async def reread_names(self) -> None:
        """Another server stored a seat's name: take the names the database holds, and tell
        this server's clients if they changed."""
        changed = False
        async with self.lock:
            row = await self.store.game(self.id)
            if row is None:
                return
            for seat, name in enumerate(row.names):
                if name is not None and name != self.table.names[seat]:
                    self.table.name_seat(seat, name)
                    changed = True
        if changed:
            await self.tell_presence()

    async def reread_rematch(self) -> None:
        """Another server made this finished game's next one: take it from the database, and
        tell this server's clients, as the server that made it told its own."""
        if self.rematch is not None:
            return
        row = await self.store.game(self.id)
        if row is None or row.rematch is None or self.rematch is not None:
            return
        self.rematch = row.rematch
        for client in list(self.clients):
            await client.send(rematch_frame(row.rematch))

    # ---- acting --------------------------------------------------------------------------

    async def act(self, seat: int, seq: int, action: Action) -> None:
        """A person's action: applied only if it is that seat's turn, `seq` is current and the
        action is legal (GameError otherwise; the game is then unchanged)."""
        async with self.lock:
            table = self.table
            if self.over:
                raise GameError("over", "the match is over (R30)")
            if seq != table.seq:
                raise GameError("stale", f"the game is at seq {table.seq}, not {seq}")
            if table.to_act != seat:
                raise GameError("not_your_turn", f"it is seat {table.to_act}'s turn")
            if seat in self.away:  # they are back: the frames after this action say so
                await self._store_away(self.away - {seat})
            await self._apply(action, seat)
        self.kick_bots()

    async def back(self, seat: int) -> None:
        """The seat's person is back: the stand-in stops playing for them, and their clock
        starts again if it is their turn."""
        async with self.lock:
            if seat not in self.away:
                return
            await self._store_away(self.away - {seat})
            self.timer.restart()
            await self._broadcast()
        self.kick_bots()

    async def _apply(self, action: Action, seat: int | None) -> Update:
        """Apply, persist, then broadcast (the lock is held). If the write fails, the table is
        put back as it was: nothing unstored is ever shown or built on."""
        table = self.table
        checkpoint = table.checkpoint()
        try:
            update = table.apply(action, seat=seat)
        except TurnError as err:
            raise GameError("not_your_turn", str(err)) from None
        except IllegalMoveError as err:
            raise GameError("illegal", str(err)) from None
        # The game's row changes only with the scores (R4: events) or the end; the action's
        # own row always.
        totals = None
        over = self.over
        if update.events or over:
            match = table.match
            totals = Totals("over" if over else "playing", match.scores, match.winner)
        try:
            await self.store.append(
                self.id,
                ActionRow(
                    update.seq,
                    update.round_index,
                    update.seat,
                    action_json(update.action),
                    None if update.drawn is None else tile_json(update.drawn),
                ),
                totals=totals,
            )
        except Conflict:  # another server took this seq first: take its actions instead
            table.restore(checkpoint)
            await self._follow()
            raise GameError("stale", "another action came first") from None
        except Exception as err:
            table.restore(checkpoint)
            log.error(
                "game %s: could not save action %d: %s", self.id, update.seq, type(err).__name__
            )
            # The write may have landed after all: look again once the database answers.
            self._spawn(self.catch_up(update.seq))
            raise GameError("unavailable", "the action could not be saved; try again") from None
        if TIMINGS is not None:
            TIMINGS.stored(self.id, update.seq)
        self.updates.append(update)
        self.moved_here = True
        self._hints.clear()
        self.active = time.monotonic()
        if table.waiting_for() is Waiting.DEAL:
            table.deal()  # the next round's chance step: not an action, decided by the seed
        self.timer.restart()
        await self._broadcast()
        return update

    async def _follow(self) -> bool:
        """Apply the actions the database holds beyond the table's (written by another server)
        and tell the clients; True if there were any. The lock is held."""
        rows = await self.store.actions_of(self.id, after=self.table.seq)
        if not rows:
            return False
        try:
            self.updates += apply_rows(self.table, self.id, rows)
        except RecordError:
            log.exception("game %s: cannot follow the database; the room is rebuilt", self.id)
            self.forget(self)
            raise
        self._hints.clear()
        self.active = time.monotonic()
        if self.clock is not None:  # who is away, as the server that moved last wrote it
            row = await self.store.game(self.id)
            if row is not None:
                self.away = frozenset(row.away)
        self.timer.restart()
        await self._broadcast()
        return True

    async def catch_up(self, seq: int) -> None:
        """Another server wrote actions up to `seq` (the message bus says when, the database
        what): apply them here and tell this server's clients."""
        async with self.lock:
            if self.table.seq >= seq or not await self._follow():
                return
            self.moved_here = False  # the other server moves the bots now; this one stands by
        self.kick_bots()

    # ---- the server's moves (`moves.ServerMoves`) ----------------------------------------

    def stop(self) -> None:
        """Stop the server's moves and the clock (the server is shutting down)."""
        self.moves.stop()
        self.timer.stop()

    def kick_bots(self) -> None:
        """Let the server make its moves while it has one to make (`moves`), and the clock
        look again."""
        self.moves.kick()
        self.timer.look_again()

    async def apply_own(self, action: Action) -> None:
        """An action of the server's own (`moves`): applied as a person's is (the lock is
        held); GameError if refused or not stored."""
        await self._apply(action, None)

    # ---- the turn clock (`clock.TurnClock`) ---------------------------------------------

    async def time_ran_out(self, seat: int) -> None:
        """`seat`'s time ran out (its turn clock says so; the lock is held): the stand-in
        plays for it from now on. `Unavailable` if that cannot be stored."""
        await self._store_away(self.away | {seat})
        self.timer.restart()
        await self._broadcast()

    async def _store_away(self, away: frozenset[int]) -> None:
        await self.store.set_away(self.id, tuple(sorted(away)))
        self.away = away

    # ---- hints ---------------------------------------------------------------------------

    async def hint(
        self, seat: int, seq: int, owner: str = "", lang: str | None = None
    ) -> dict[str, Any]:
        """The strongest bot's move for `seat`, which must be to act at `seq`, thought out in
        `owner`'s turn. One search per seat and moment, however often it is asked (the answer
        cannot change). The hint is `hints.explain`'s, and `why` says its reasons in `lang`
        (else the game's language): the frame goes to the asker alone."""
        async with self.lock:
            table = self.table
            if self.over:  # nobody is to act: as `act` answers then
                raise GameError("over", "the match is over (R30)")
            if seq != table.seq:
                raise GameError("stale", f"the game is at seq {table.seq}, not {seq}")
            if table.to_act != seat:
                raise GameError("not_your_turn", f"it is seat {table.to_act}'s turn")
            future = self._hints.get((seat, seq))
            if future is None:
                future = asyncio.ensure_future(self._think_hint(seat, owner or self.id))
                self._hints[(seat, seq)] = future
        hint = await asyncio.shield(future)
        async with self.lock:
            if self.table.seq != seq:
                raise GameError("stale", "the game moved on")
            match = self.table.match
            credit = match.credit_of(hint.action)
            rejects = match.view(seat).rejects(credit)
            layout = match.layout
        frame = {
            "type": "hint",
            "seq": seq,
            "action": action_json(hint.action),
            "credit": credit,
            "rejects": rejects,
        }
        with i18n.speaking(lang or self.table.lang):  # tiles as the page's board draws them
            frame["why"] = hints.texts(hint, layout)
        return frame

    async def _think_hint(self, seat: int, owner: str) -> hints.Hint:
        """The hint for `seat`, to act now: `hints.explain`'s move and its reasons."""
        request = self.table.hint_request(seat)
        view, source = request.view, request.source
        return await self.thinkers.work(hints.explain, view, source, owner=owner)

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        spawn(self._tasks, work)

    # ---- telling the clients -------------------------------------------------------------

    async def _send_state(
        self, client: Client, since: int | None, shared_text: str | None = None
    ) -> None:
        """Send `client` the current state; its `last` holds the updates after `since`, or
        after the last state the client was sent (none for a first hello without `since`: the
        state says it all). A client sent the state at seq 0 has seen no action yet, so the
        next state's `last` starts with the first."""
        start = client.seen if since is None else since
        last = [] if start is None else self._last_after(start, client.seat)
        if shared_text is None:
            shared_text = encode_frame(self._public_state())
        client.seen = self.table.seq
        text = state_text(self.table, client.seat, last, shared_text)
        if TIMINGS is not None:
            TIMINGS.sending(self.id, self.table.seq, text)
        await client.send(text)

    def _last_after(self, start: int, recipient: int | None) -> list[dict[str, Any]]:
        """`last` for `recipient`: the entries of the updates after seq `start`. One that
        spans more than the kept entries is made once per seq (many reloads at once, or one
        client asking again and again, cost its encoding only)."""
        updates: list[Update] = []
        for update in reversed(self.updates):  # in seq order: the newest are wanted
            if update.seq <= start:
                break
            updates.append(update)
        updates.reverse()
        if len(updates) <= MAX_KEPT_ENTRIES:
            return last_entries(self.table, updates, recipient, self._entries_of)
        key, seq = (recipient, start), self.table.seq
        kept = self._long_last.get(key)
        if kept is not None and kept[0] == seq:
            return kept[1]
        if any(made != seq for made, _last in self._long_last.values()):
            self._long_last.clear()  # the game moved on: what was kept is out of date
        elif len(self._long_last) >= MAX_KEPT_ENTRIES:
            self._long_last.clear()
        # made afresh, not through the kept entries: a long `last` would push the recent out
        last = last_entries(self.table, updates, recipient)
        self._long_last[key] = (seq, last)
        return last

    async def _broadcast(self) -> None:
        # What everyone may see is built and encoded once; each client's own part is added.
        shared_text = encode_frame(self._public_state())
        for client in list(self.clients):
            await self._send_state(client, None, shared_text)

    def _public_state(self) -> dict[str, Any]:
        layout = self.table.match.layout
        moves = layout.moves
        if self._drawn is None or self._drawn[0] != moves:
            self._drawn = (moves, layout_state(layout))
        return public_state(
            self.table,
            connected=self.connected(),
            away=self.away,
            clock=self.timer.json(),
            drawn=self._drawn[1],
            guided=guided_json() if self.guided else None,
        )

    def _entries_of(self, update: Update, recipient: int | None) -> list[dict[str, Any]]:
        """`update_entries` for `recipient`, made once for all who may see the same."""
        sees_draw = update.drawn is not None and update.seat == recipient
        key = (update.seq, sees_draw)
        kept = self._entries.get(key)
        if kept is not None and kept[0] is update:
            return kept[1]
        if len(self._entries) >= MAX_KEPT_ENTRIES:
            self._entries.clear()
        match = self.table.match
        after = None  # the newest placement of the round in play: its layout is the match's
        newest = self.updates[-1] is update and update.round_index == len(match.rounds) - 1
        if newest and self._drawn is not None and self._drawn[0] == match.layout.moves:
            after = self._drawn[1]
        entries = update_entries(update, update.seat if sees_draw else None, match, after)
        self._entries[key] = (update, entries)
        return entries

    def presence_frame(self) -> dict[str, Any]:
        """Who is connected, and each seat's name."""
        return {"type": "presence", "connected": self.connected(), "names": list(self.table.names)}

    async def tell_presence(self) -> None:
        """Tell every client who is connected, and each seat's name."""
        frame = self.presence_frame()
        for client in list(self.clients):
            await client.send(frame)

    async def summary(self) -> dict[str, Any]:
        """What anyone may know of the game (as committed: the lock waits out a write)."""
        async with self.lock:
            match = self.table.match
            connected = self.connected()
            return {
                "game": self.id,
                "name": self.row.name,
                "players": match.players,
                "seats": [
                    {
                        "seat": s,
                        "kind": kind,
                        "name": self.table.names[s],
                        "connected": connected[s],
                        "away": s in self.away,
                    }
                    for s, kind in enumerate(seat_kinds(self.table))
                ],
                "status": "expired" if self.expired else "over" if self.over else "playing",
                "scores": list(match.scores),
                "winner": match.winner,
                "seq": self.table.seq,
                "lang": self.table.lang,
                "open": self.row.open,
                "clock": self.clock,
                "stand_in": self.stand_in if self.clock is not None else None,
                "guided": self.guided,
            }

    async def record(self) -> dict[str, Any] | None:
        """The match record once the match is over or the game expired (it holds every hand,
        which nobody can play any more), else None."""
        async with self.lock:
            if not self.over and not self.expired:
                return None
            record = self.table.record()
        replay(record)  # a record the server hands out always verifies
        return record

    def expire(self) -> None:
        """Close the game for good: its bots stop, its clients are told `expired`."""
        self.expired = True
        self.stop()
        for client in list(self.clients):
            self.clients.discard(client)
            client.end(error_frame("expired", EXPIRED))
        self.seats_changed(self)

    @property
    def idle(self) -> bool:
        """Nobody here and nothing moving for a while: the room may go (it stays on disk)."""
        if self.clients or self.moves.busy:
            return False
        return time.monotonic() - self.active > (60.0 if self.over else IDLE_ROOM)
