"""The `Hub`: this server's rooms (`rooms.Room`), found, made (a new game, a rematch), rebuilt
from the store when a process lost them, and let go when idle; and the seats a person takes
from the lobby. A room's own life (its clients, bots, clock and frames) is in `rooms`."""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
import re
import secrets
from collections.abc import Coroutine
from typing import Any

from exact61.bots import budget_of, budget_unit
from exact61.learn import guided as guided_match
from exact61.server.bus import Presence
from exact61.server.presence import HEARTBEAT, SharedPresence
from exact61.server.protocol import DEFAULT_STAND_IN, GameError
from exact61.server.quota import Limits
from exact61.server.recovery import game_rounds, rebuild, table_seat
from exact61.server.rooms import (
    EXPIRED,
    Room,
    new_token,
    rematch_frame,
    spawn,
)
from exact61.server.store import (
    Database,
    GameRow,
    token_hash,
)
from exact61.server.thinkers import Thinkers
from exact61.table import Table, Update, check_name

log = logging.getLogger("exact61.server")

GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")  # what secrets.token_urlsafe makes
# the guided match's seats as a game's are stored (`protocol.check_seat_kind`)
GUIDED_SEATS = [kind if kind == "human" else f"bot:{kind}" for kind in guided_match.SEATS]
MAX_DEALS = 100  # deals a move a server's pimc bot may sample (docs/bots.md: about 1 s at most)


class Hub:
    """This server's rooms, loaded on demand from the store and let go when idle."""

    def __init__(
        self,
        store: Database,
        thinkers: Thinkers,
        *,
        bot_delay: float = 0.0,
        forced_delay: float = 0.0,
        max_iterations: int = 5000,
        max_seconds: float = 1.0,
        max_deals: int = MAX_DEALS,
        spectators_per_address: int = Limits.spectators_per_address,
        heartbeat: float = HEARTBEAT,
    ) -> None:
        """`heartbeat`: seconds between this server's telling the others sharing its database
        again who is connected to it (`presence`)."""
        self.store = store
        self.thinkers = thinkers
        self.spectators_per_address = spectators_per_address
        self.bot_delay = bot_delay  # seconds a bot waits before moving, so people follow
        self.forced_delay = forced_delay  # and before a forced action (R10), which pages show
        self.max_iterations = max_iterations  # the deepest search a bot may be given here
        self.max_seconds = max_seconds  # and the longest time budget a move
        self.max_deals = max_deals  # and the most deals a move (pimc: each one solved)
        self.shared = False  # set when other servers may share the database (the bus is on)
        self.rooms: dict[str, Room] = {}
        self.presence = SharedPresence(self.rooms, heartbeat)  # who is connected elsewhere
        self._loading: dict[str, asyncio.Lock] = {}
        self._tasks: set[asyncio.Task[None]] = set()

    def _room(
        self,
        row: GameRow,
        table: Table,
        updates: list[Update],
        hashes: dict[int, str],
        *,
        moved_here: bool | None = None,
    ) -> Room:
        """A room for the game; unless told, on a shared database the last move may have been
        another server's, so the room stands by first."""
        return Room(
            row,
            table,
            self.store,
            self.thinkers,
            bot_delay=self.bot_delay,
            forced_delay=self.forced_delay,
            shared=self.shared,
            forget=self.forget,
            elsewhere=self.presence.elsewhere,
            seats_changed=self.presence.changed,
            updates=updates,
            hashes=hashes,
            moved_here=not self.shared if moved_here is None else moved_here,
            expired=row.status == "expired",
            rematch=row.rematch,
            clock=row.clock,
            stand_in=row.stand_in or DEFAULT_STAND_IN,
            away=frozenset(row.away),
            spectators_per_address=self.spectators_per_address,
        )

    async def create(
        self,
        players: int,
        seats: list[str],
        lang: str,
        *,
        name: str = "",
        open_: bool = False,
        mine: int | None = None,
        owner: str = "",
        names: list[str | None] | None = None,
        clock: int | None = None,
        stand_in: str = DEFAULT_STAND_IN,
        guided: bool = False,
    ) -> tuple[Room, dict[int, str]]:
        """A new game; returns its room and the token of each human seat (shown once). In an
        open game, `mine` is the maker's own seat, which the lobby does not offer. `owner`: the
        address that made it, whose turns its bots take (`Turns`). `names`: each seat's
        person's display name, or None. `clock`: the seconds a person has for each move, then
        the bot `stand_in` plays for them (None: no turn clock). `guided`: the Learn page's guided
        match (`exact61.learn.guided`): its seats only, dealt from its seed, over after its
        rounds, its hints saying why."""
        if guided and seats != GUIDED_SEATS:
            raise GameError(
                "bad_request", f"a guided game's seats are {', '.join(GUIDED_SEATS)}, as the tour's"
            )
        humans = [s for s, kind in enumerate(seats) if kind == "human"]
        if not humans:
            raise GameError("bad_request", "a game needs at least one person")
        for kind in seats:
            if kind != "human":
                self._check_budget(table_seat(kind))
        if clock is not None:
            self._check_budget(stand_in)
        if mine is not None and mine not in humans:
            raise GameError("bad_request", f"seat {mine} is not a person's seat")
        seed = guided_match.SEED if guided else secrets.randbits(63)
        game_id = secrets.token_urlsafe(6)
        try:
            table = Table(
                players,
                [table_seat(k) for k in seats],
                seed,
                lang=lang,
                names=names,
                rounds=game_rounds(guided),
            )
        except ValueError as err:
            raise GameError("bad_request", f"names: {err}") from None
        table.deal()
        row = GameRow(
            game_id,
            players,
            seats,
            lang,
            seed,
            name,
            open_,
            "playing",
            0,
            list(table.match.scores),
            None,
            tuple(table.names) if any(table.names) else (),
            clock=clock,
            stand_in=stand_in if clock is not None else None,
            guided=guided,
        )
        tokens = {s: new_token() for s in humans}
        hashes = {s: token_hash(t) for s, t in tokens.items()}
        taken = {mine if mine is not None else humans[0]} if open_ else set(humans)
        await self.store.create(row, hashes, taken=taken)
        room = self._room(row, table, [], hashes, moved_here=True)
        room.owner = owner
        self.rooms[game_id] = room
        room.kick_bots()
        return room, tokens

    def _check_budget(self, spec: str) -> None:
        """GameError unless the bot `spec` searches within what this server gives a move."""
        iterations, seconds = budget_of(spec)
        unit = budget_unit(spec)  # iterations or deals
        cap = self.max_deals if unit == "deals" else self.max_iterations
        if iterations is not None and iterations > cap:
            raise GameError("bad_request", f"this server gives a bot at most {cap:,} {unit} a move")
        if seconds is not None and seconds > self.max_seconds:
            raise GameError(
                "bad_request", f"this server gives a bot at most {self.max_seconds:g} s a move"
            )

    async def room(self, game_id: str) -> Room | None:
        """The game's room, rebuilt from the database if this process does not hold it."""
        room = self.rooms.get(game_id)
        if room is not None:
            return room
        if not GAME_ID.fullmatch(game_id):
            return None
        lock = self._loading.setdefault(game_id, asyncio.Lock())
        try:
            async with lock:
                room = self.rooms.get(game_id)
                if room is None:
                    room = await self._load(game_id)
        finally:
            if not lock.locked():
                self._loading.pop(game_id, None)
        return room

    async def _load(self, game_id: str) -> Room | None:
        row = await self.store.game(game_id)
        if row is None:
            return None
        table, updates = rebuild(row, await self.store.actions_of(game_id))
        tokens = await self.store.tokens(game_id)
        room = self._room(row, table, updates, {s: h for s, (h, _t) in tokens.items()})
        self.rooms[game_id] = room
        if self.shared:  # what was written while this room was being read
            self._spawn(room.catch_up(table.seq + 1))
        room.kick_bots()
        return room

    def forget(self, room: Room) -> None:
        if self.rooms.get(room.id) is room:
            del self.rooms[room.id]

    async def expire_untouched(self, seconds: float) -> int:
        """Close the games nobody has made or moved in for `seconds`, here and in the database;
        return how many."""
        try:
            cutoff = dt.datetime.now(dt.UTC) - dt.timedelta(seconds=seconds)
        except OverflowError:  # before the first date (`--expire-after inf`): none is that old
            return 0
        ids = await self.store.expire_untouched(cutoff)
        for game_id in ids:
            room = self.rooms.get(game_id)
            if room is not None:
                room.expire()
        return len(ids)

    def sweep(self) -> int:
        """Let idle rooms go (they are rebuilt from the database when wanted again)."""
        idle = [room for room in self.rooms.values() if room.idle]
        for room in idle:
            room.timer.stop()  # people connected to other servers kept it running
            self.forget(room)
        return len(idle)

    def heard(self, game_id: str, seq: int) -> None:
        """The message bus: some server wrote `game_id`'s actions up to `seq`."""
        room = self.rooms.get(game_id)
        if room is not None and room.table.seq < seq:
            self._spawn(room.catch_up(seq))

    def renamed(self, game_id: str) -> None:
        """The message bus: some server stored a new name for one of `game_id`'s seats."""
        room = self.rooms.get(game_id)
        if room is not None:
            self._spawn(room.reread_names())

    def rematched(self, game_id: str) -> None:
        """The message bus: some server made `game_id`'s rematch."""
        room = self.rooms.get(game_id)
        if room is not None:
            self._spawn(room.reread_rematch())

    def present(self, game_id: str, presence: Presence) -> None:
        """The message bus: another server says which seats are connected to it for `game_id`."""
        self.presence.heard(game_id, presence)

    def refresh(self) -> None:
        """The bus was down a while: read what every room here may have missed, and tell the
        other servers again who is connected here."""
        self.presence.reconnected()
        for room in list(self.rooms.values()):
            self._spawn(room.catch_up(room.table.seq + 1))
            self._spawn(room.reread_names())
            if room.over:
                self._spawn(room.reread_rematch())

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        spawn(self._tasks, work)

    async def rematch(self, room: Room) -> str:
        """The game a finished one continues in, made at the first ask (by any server): the
        same seats, names and language, a new seed, and each seat's token the same as in this
        game, so every seat's link works for the next game too. Everyone in this game is told
        (`rematch` frames)."""
        if not room.over:
            raise GameError("playing", "a rematch comes once the match is over (R30)")
        if room.rematch is None:
            old = room.row
            names = room.table.names
            table = Table(
                old.players, list(room.table.seats), secrets.randbits(63), lang=old.lang,
                names=names,
            )  # fmt: skip
            table.deal()
            row = GameRow(
                secrets.token_urlsafe(6), old.players, old.seats, old.lang, table.seed, old.name,
                False, "playing", 0, list(table.match.scores), None,
                tuple(names) if any(names) else (), clock=old.clock, stand_in=old.stand_in,
            )  # fmt: skip
            made = await self.store.create_rematch(room.id, row, dict(room.hashes))
            if made == row.id:
                new = self._room(row, table, [], dict(room.hashes), moved_here=True)
                new.owner = room.owner
                self.rooms[row.id] = new
                new.kick_bots()
            if room.rematch is None:  # asked twice at once: the first answer stands
                room.rematch = made
                for client in list(room.clients):
                    await client.send(rematch_frame(made))
        return room.rematch

    async def take_seat(self, game_id: str, seat: int, name: str | None = None) -> str:
        """The lobby: a new token for a human seat nobody has used in an open game, for the
        person named `name` if given."""
        room = await self.room(game_id)
        if room is None:
            raise GameError("not_found", f"no game {game_id}")
        if not room.row.open:
            raise GameError("closed", "this game is not open to the lobby")
        if room.over:
            raise GameError("over", "the match is over (R30)")
        if room.expired:
            raise GameError("expired", EXPIRED)
        if seat not in room.hashes:
            raise GameError("not_a_seat", f"seat {seat} is not a person's seat")
        if name is not None:
            try:
                name = check_name(name)
            except ValueError as err:
                raise GameError("bad_request", f"name: {err}") from None
        token = new_token()
        if not await self.store.take_free_seat(game_id, seat, token_hash(token), name):
            raise GameError("taken", f"seat {seat} is taken")
        room.hashes[seat] = token_hash(token)
        room.drop_seat(seat)
        if name is not None:
            room.table.name_seat(seat, name)
            await room.tell_presence()
        return token
