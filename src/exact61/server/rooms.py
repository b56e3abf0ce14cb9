"""Games in play on the server: one `Room` per game, holding its `Table`, its clients and its
bots; the `Hub` finds, makes and rebuilds rooms.

Every change goes the same way, under the room's lock: check it against the table, apply it,
write it to the database, and only then tell the clients (each its own frame). A room lost with
the process is rebuilt from the database: the game's seed and actions, replayed through the core.
Bots think in a process pool, so one game's search never holds up another game's frames.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import logging
import secrets
from collections.abc import Awaitable, Callable, Coroutine
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import Any

from exact61.core import Action, IllegalMoveError, Phase, RecordError, RuleError, replay, tile_from
from exact61.core.records import ActionRecord, _action_from
from exact61.server.frames import last_entries, state_frame
from exact61.server.protocol import action_json, tile_json
from exact61.server.store import ActionRow, Conflict, GameRow, Store, Totals, token_hash
from exact61.table import HUMAN, BotRequest, Table, TurnError, Update, decide

log = logging.getLogger("exact61.server")

Send = Callable[[dict[str, Any]], Awaitable[None]]
BOT_GRACE = 3.0  # seconds a server waits for another's bot move before making it itself


class GameError(Exception):
    """A request the game refuses: `code` is the protocol's error code."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(eq=False)
class Client:
    """One connection to a game: a seat's, or a spectator's (`seat` None)."""

    seat: int | None
    send: Send  # puts a frame on the connection's way out (never blocks the room)
    seen: int = 0  # the seq of the last state it was sent


def new_token() -> str:
    return secrets.token_urlsafe(32)  # 256 random bits


def seat_kinds(table: Table) -> list[str]:
    return ["human" if table.is_human(s) else f"bot:{table.seats[s]}" for s in range(table.players)]


@dataclass(eq=False)
class Room:
    """One game in play on this server."""

    row: GameRow
    table: Table
    store: Store
    pool: Executor | None
    bot_delay: float = 0.0
    updates: list[Update] = field(default_factory=list)
    clients: set[Client] = field(default_factory=set)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    hashes: dict[int, str] = field(default_factory=dict)
    _bots: asyncio.Task[None] | None = None
    _moved_here: bool = True  # this server applied the last action (so it moves the bots)
    _nudge: asyncio.Event = field(default_factory=asyncio.Event)

    @property
    def id(self) -> str:
        return self.row.id

    # ---- who is there --------------------------------------------------------------------

    def seat_of(self, token: str | None) -> int | None:
        """The seat whose token this is (compared in constant time), or None."""
        if token is None:
            return None
        presented = token_hash(token)
        found = None
        for seat, stored in self.hashes.items():
            if hmac.compare_digest(presented, stored):
                found = seat
        return found

    def connected(self) -> list[bool]:
        seats = {c.seat for c in self.clients}
        return [s in seats for s in range(self.table.players)]

    async def join(self, client: Client, since: int | None) -> None:
        async with self.lock:
            self.clients.add(client)
            await self._send_state(client, since)
        await self._presence()

    async def leave(self, client: Client) -> None:
        self.clients.discard(client)
        await self._presence()

    async def resync(self, client: Client, since: int | None) -> None:
        async with self.lock:
            await self._send_state(client, since)

    # ---- acting --------------------------------------------------------------------------

    async def act(self, seat: int, seq: int, action: Action) -> None:
        """A person's action: applied only if it is that seat's turn, `seq` is current and the
        action is legal (GameError otherwise; the game is then unchanged)."""
        async with self.lock:
            table = self.table
            if table.match.is_over:
                raise GameError("over", "the match is over (R30)")
            if seq != table.seq:
                raise GameError("stale", f"the game is at seq {table.seq}, not {seq}")
            if table.to_act != seat:
                raise GameError("not_your_turn", f"it is seat {table.to_act}'s turn")
            await self._apply(action, seat)
        self.kick_bots()

    async def _apply(self, action: Action, seat: int | None) -> Update:
        """Apply, persist, then broadcast (the lock is held)."""
        table = self.table
        try:
            update = table.apply(action, seat=seat)
        except TurnError as err:
            raise GameError("not_your_turn", str(err)) from None
        except IllegalMoveError as err:
            raise GameError("illegal", str(err)) from None
        # The game's row changes only with the scores (R4: events) or the end; the action's
        # own row always.
        totals = None
        if update.events or table.match.is_over:
            match = table.match
            totals = Totals("over" if match.is_over else "playing", match.scores, match.winner)
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
            await self._reload()
            await self._broadcast()
            raise GameError("stale", "another action came first") from None
        except Exception:
            log.exception("game %s: could not save action %d", self.id, update.seq)
            await self._reload()
            raise GameError("unavailable", "the action could not be saved; try again") from None
        self.updates.append(update)
        self._moved_here = True
        if table.match.phase is Phase.DEAL:
            table.deal()  # the next round's chance step: not an action, decided by the seed
        await self._broadcast()
        return update

    async def _reload(self) -> None:
        """Rebuild the table from the database (after a failed or lost write)."""
        fresh = await self.store.actions_of(self.id)
        table, updates = rebuild(self.row, fresh)
        self.table, self.updates = table, updates

    async def catch_up(self, seq: int) -> None:
        """Another server wrote actions up to `seq`: apply them here and tell this server's
        clients (the message bus says when, the database what)."""
        async with self.lock:
            if self.table.seq >= seq:
                return
            rows = await self.store.actions_of(self.id, after=self.table.seq)
            try:
                self.updates += apply_rows(self.table, self.id, rows)
            except RecordError:
                log.exception("game %s: could not follow the database; rebuilding", self.id)
                await self._reload()
            await self._broadcast()
        self._moved_here = False  # the other server moves the bots now; this one stands by
        self.kick_bots()

    # ---- bots and hints ------------------------------------------------------------------

    def kick_bots(self) -> None:
        """Let the bots move while a bot is to act (one task per room)."""
        self._nudge.set()  # a task standing by for another server's bot moves looks again
        idle = self._bots is None or self._bots.done()
        if idle and self.table.bot_to_act and not self.table.match.is_over:
            self._bots = asyncio.get_running_loop().create_task(self._run_bots())

    async def _run_bots(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            async with self.lock:
                table = self.table
                if not table.bot_to_act or table.match.is_over:
                    return
                seq, here = table.seq, self._moved_here
                self._nudge.clear()
            if not here:
                # Another server made the last move, so it moves the bot; stand by in case
                # that server is gone (or until this server moves something itself).
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._nudge.wait(), BOT_GRACE + self.bot_delay)
                if self.table.seq != seq or self._moved_here:
                    continue
            async with self.lock:
                if self.table.seq != seq:
                    continue
                request = self.table.bot_request()
            if self.bot_delay:
                await asyncio.sleep(self.bot_delay)
            action = await self._decide(loop, request)
            async with self.lock:
                if self.table.seq != seq:  # the game moved on meanwhile (another server)
                    continue
                try:
                    await self._apply(action, None)
                except GameError as err:
                    log.info("game %s: bot move not applied: %s", self.id, err.message)
                    if err.code != "stale":
                        return

    async def _decide(self, loop: asyncio.AbstractEventLoop, request: BotRequest) -> Action:
        if len(request.legal) == 1:
            return request.legal[0]
        if self.pool is None:
            return decide(request)
        return await loop.run_in_executor(self.pool, decide, request)

    async def hint(self, seat: int, seq: int) -> dict[str, Any]:
        """The strongest bot's move for `seat`, which must be to act at `seq`."""
        async with self.lock:
            table = self.table
            if seq != table.seq:
                raise GameError("stale", f"the game is at seq {table.seq}, not {seq}")
            if table.to_act != seat:
                raise GameError("not_your_turn", f"it is seat {table.to_act}'s turn")
            request = table.hint_request(seat)
        action = await self._decide(asyncio.get_running_loop(), request)
        async with self.lock:
            if self.table.seq != seq:
                raise GameError("stale", "the game moved on")
            credit = self.table.match.credit_of(action)
        return {"type": "hint", "seq": seq, "action": action_json(action), "credit": credit}

    # ---- telling the clients -------------------------------------------------------------

    async def _send_state(self, client: Client, since: int | None) -> None:
        start = client.seen if since is None else since
        updates = [u for u in self.updates if u.seq > start]
        if since is None and client.seen == 0:
            updates = []  # a first hello: the state says it all
        last = last_entries(self.table, updates, client.seat)
        frame = state_frame(self.table, client.seat, last, connected=self.connected())
        client.seen = self.table.seq
        await client.send(frame)

    async def _broadcast(self) -> None:
        for client in list(self.clients):
            await self._send_state(client, None)

    async def _presence(self) -> None:
        frame = {"type": "presence", "connected": self.connected()}
        for client in list(self.clients):
            await client.send(frame)

    def summary(self) -> dict[str, Any]:
        match = self.table.match
        connected = self.connected()
        return {
            "game": self.id,
            "name": self.row.name,
            "players": match.players,
            "seats": [
                {"seat": s, "kind": kind, "connected": connected[s]}
                for s, kind in enumerate(seat_kinds(self.table))
            ],
            "status": "over" if match.is_over else "playing",
            "scores": list(match.scores),
            "winner": match.winner,
            "seq": self.table.seq,
            "lang": self.table.lang,
            "open": self.row.open,
        }


def rebuild(row: GameRow, rows: list[ActionRow]) -> tuple[Table, list[Update]]:
    """A game from its seed and stored actions, replayed through the core."""
    table = Table(row.players, [_seat_name(kind) for kind in row.seats], row.seed, lang=row.lang)
    table.deal()
    return table, apply_rows(table, row.id, rows)


def apply_rows(table: Table, game_id: str, rows: list[ActionRow]) -> list[Update]:
    """Apply stored actions that follow the table's own, checked: each in sequence, legal, and
    a stored draw takes the tile the seed deals. The next round is dealt as rounds end."""
    updates: list[Update] = []
    for stored in rows:
        if stored.seq != table.seq + 1:
            raise RecordError(f"game {game_id}: action {stored.seq} follows {table.seq}")
        try:
            action = _action_from(ActionRecord(seat=stored.seat, **stored.action))
            update = table.apply(action, seat=stored.seat)
        except (RuleError, ValueError) as err:
            raise RecordError(f"game {game_id}, action {stored.seq}: {err}") from None
        if stored.drawn is not None and update.drawn != tile_from(stored.drawn):
            raise RecordError(f"game {game_id}, action {stored.seq}: the seed draws another tile")
        updates.append(update)
        if table.match.phase is Phase.DEAL:
            table.deal()
    return updates


def _seat_name(kind: str) -> str:
    return HUMAN if kind == "human" else kind.removeprefix("bot:")


class Hub:
    """This server's rooms, loaded on demand from the store."""

    def __init__(self, store: Store, pool: Executor | None, *, bot_delay: float = 0.0) -> None:
        self.store = store
        self.pool = pool
        self.bot_delay = bot_delay
        self.rooms: dict[str, Room] = {}
        self._loading: dict[str, asyncio.Lock] = {}
        self._tasks: set[asyncio.Task[None]] = set()

    async def create(
        self, players: int, seats: list[str], lang: str, *, name: str = "", open_: bool = False
    ) -> tuple[Room, dict[int, str]]:
        """A new game; returns its room and the token of each human seat (shown once)."""
        seed = secrets.randbits(63)
        game_id = secrets.token_urlsafe(6)
        table = Table(players, [_seat_name(k) for k in seats], seed, lang=lang)
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
        )
        tokens = {s: new_token() for s, kind in enumerate(seats) if kind == "human"}
        hashes = {s: token_hash(t) for s, t in tokens.items()}
        await self.store.create(row, hashes)
        room = Room(row, table, self.store, self.pool, self.bot_delay, hashes=hashes)
        self.rooms[game_id] = room
        room.kick_bots()
        return room, tokens

    async def room(self, game_id: str) -> Room | None:
        """The game's room, rebuilt from the database if this process does not hold it."""
        room = self.rooms.get(game_id)
        if room is not None:
            return room
        lock = self._loading.setdefault(game_id, asyncio.Lock())
        async with lock:
            room = self.rooms.get(game_id)
            if room is None:
                row = await self.store.game(game_id)
                if row is None:
                    return None
                table, updates = rebuild(row, await self.store.actions_of(game_id))
                tokens = await self.store.tokens(game_id)
                hashes = {s: h for s, (h, _taken) in tokens.items()}
                room = Room(
                    row, table, self.store, self.pool, self.bot_delay, updates, hashes=hashes
                )
                self.rooms[game_id] = room
                room.kick_bots()
        return room

    def heard(self, game_id: str, seq: int) -> None:
        """The message bus: some server wrote `game_id`'s actions up to `seq`."""
        room = self.rooms.get(game_id)
        if room is not None and room.table.seq < seq:
            self._spawn(room.catch_up(seq))

    def refresh(self) -> None:
        """The bus was down a while: read what every room here may have missed."""
        for room in list(self.rooms.values()):
            self._spawn(room.catch_up(room.table.seq + 1))

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)  # held until done: the loop keeps only weak references
        task.add_done_callback(self._tasks.discard)

    async def resume_all(self) -> int:
        """After a start: rebuild every game still in play, so its bots move on."""
        ids = await self.store.playing()
        for game_id in ids:
            await self.room(game_id)
        return len(ids)

    async def take_seat(self, game_id: str, seat: int) -> str:
        """The lobby: a new token for a human seat nobody has used in an open game."""
        room = await self.room(game_id)
        if room is None:
            raise GameError("not_found", f"no game {game_id}")
        if not room.row.open:
            raise GameError("closed", "this game is not open to the lobby")
        if seat not in room.hashes:
            raise GameError("not_a_seat", f"seat {seat} is not a person's seat")
        token = new_token()
        if not await self.store.take_free_seat(game_id, seat, token_hash(token)):
            raise GameError("taken", f"seat {seat} is taken")
        room.hashes[seat] = token_hash(token)
        return token

    def record(self, room: Room) -> dict[str, Any]:
        record = room.table.record()
        replay(record)  # a record the server hands out always verifies
        return record
