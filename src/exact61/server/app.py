"""The ASGI application of `exact61 serve` (Starlette): the HTTP API and the WebSocket of the
online protocol (docs/formats/online-protocol.md), the lobby, and the web page's files.

Every request and frame is checked by a schema; a bad one gets the protocol's error (HTTP 4xx,
or an `error` frame) and changes nothing. Seat tokens never reach a log: they travel in
WebSocket frames and URL fragments only, never in a path or a query string.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import gc
import json
import logging
from collections.abc import AsyncIterator, Callable, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.gzip import GZipMiddleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from exact61.core import RuleError
from exact61.core.records import action_from_record
from exact61.server.frames import Frame, encode_frame
from exact61.server.hub import Hub
from exact61.server.protocol import (
    CLIENT_FRAME,
    MAX_FRAME,
    PROTOCOL,
    Act,
    Back,
    CreateGame,
    Frames,
    GameError,
    Hello,
    HintAsk,
    Ping,
    RematchAsk,
    SeatName,
    TakeSeat,
    error_frame,
)
from exact61.server.quota import Bucket, Expensive, Quotas
from exact61.server.rooms import Client, Room, seat_kinds
from exact61.server.security import BrowserGuard, normal_origins
from exact61.server.store import Database, Unavailable
from exact61.server.thinkers import Thinkers
from exact61.server.timings import TIMINGS
from exact61.server.web import static_routes, web_routes

log = logging.getLogger("exact61.server")
MAX_BODY = 64 * 1024
UNAVAILABLE = "the games' database cannot be reached; try again soon"
RESYNC_BURST = 3  # hellos after the first a connection may send at once
MIN_STATES_PER_MINUTE = 120.0  # whole states per address a minute, however few connections
MAX_SEAT_DIGITS = 2  # a seat number in a path: 0-3, and never thousands of digits to parse


@dataclass(frozen=True)
class Limits:
    """How much a connection may ask of the server."""

    hello_seconds: float = 10.0  # to say who it is
    idle_seconds: float = 900.0  # without a frame from the client, then closed
    rate: float = 20.0  # frames per second, sustained (exact61 serve --frame-rate)
    burst: float = 60.0  # frames at once
    games_per_minute: float = 30.0  # new games one address may make (as many again at once)
    queue: int = 256  # frames waiting to go out before a stalled client is dropped
    sockets_per_address: int = 64  # WebSocket connections one address may hold, all games
    replays_per_minute: float = 6.0  # records one address may post for replay (as many at once)
    replays_at_once: int = 2  # replays worked out at a time, for everyone
    resyncs_per_minute: float = 30.0  # hellos after the first, per connection (a few at once)
    hints_per_minute: float = 60.0  # hints one address may ask for (as many at once)
    # Whole states one address may ask for (every hello, a connection's first too), as many at
    # once; None: twice the connections it may hold, so every tab it has open may reload.
    states_per_minute: float | None = None

    def states_quota(self) -> float:
        if self.states_per_minute is not None:
            return self.states_per_minute
        return max(MIN_STATES_PER_MINUTE, 2.0 * self.sockets_per_address)


def _error(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": code, "message": message}, status_code=status)


async def _json_body(request: Request) -> Any:
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdecimal() or int(declared) > MAX_BODY):
        raise GameError("too_large", f"a request body is at most {MAX_BODY} bytes")
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            raise GameError("too_large", f"a request body is at most {MAX_BODY} bytes")
    try:
        return json.loads(body)
    except (ValueError, RecursionError):
        raise GameError("bad_request", "the body is not JSON") from None


def _has_body(request: Request) -> bool:
    """Whether the request comes with a body (a seat is taken with or without one)."""
    declared = request.headers.get("content-length")
    return declared != "0" if declared is not None else "transfer-encoding" in request.headers


def create_app(
    store: Database,
    *,
    bot_pool: Callable[[], Executor] | None = None,
    bot_workers: int = 2,
    bot_delay: float = 0.0,
    forced_delay: float = 0.0,
    limits: Limits | None = None,
    max_iterations: int = 5000,
    heap: HeapPolicy | None = None,
    allowed_origins: Sequence[str] = (),
    expire_after: float | None = None,
) -> Starlette:
    """The server for `store`; bots think in the pool `bot_pool()` makes (a process pool of
    `bot_workers` processes, shared in turn between addresses; None: in the server); no bot
    searches more than `max_iterations` a move. A bot waits `bot_delay` seconds before it
    moves, and a forced action (R10) is played `forced_delay` seconds after the state that
    announces it, so that people follow. `heap`: how the garbage
    collector is kept from pausing every game at once (None: Python's defaults).
    `expire_after`: seconds without a move after which a game is closed for good (None:
    never). `allowed_origins`: sites other than the server's own whose pages may make games and play
    (`security.BrowserGuard`; ValueError for one that is not `scheme://host[:port]`)."""
    origins = normal_origins(allowed_origins)
    thinkers = Thinkers(bot_pool, bot_workers)
    hub = Hub(
        store,
        thinkers,
        bot_delay=bot_delay,
        forced_delay=forced_delay,
        max_iterations=max_iterations,
    )
    limits = limits or Limits()
    makers = Quotas(limits.games_per_minute)  # per client address: games made
    hints = Quotas(limits.hints_per_minute)  # per client address: hints asked
    states = Quotas(limits.states_quota())  # per client address: whole states asked (hellos)
    replays = Expensive(
        thinkers.work, per_minute=limits.replays_per_minute, at_once=limits.replays_at_once
    )

    async def create_game(request: Request) -> Response:
        address = request.client.host if request.client else "?"
        if not makers.take(address):
            return _error(429, "rate_limited", "too many new games; try again in a minute")
        try:
            data = await _json_body(request)
            body = CreateGame.model_validate(data)
            seats = body.checked_seats()
            names = body.checked_names()
            stand_in = body.checked_stand_in()
        except GameError as err:
            return _error(413 if err.code == "too_large" else 422, err.code, err.message)
        except ValidationError as err:
            return _error(422, "bad_request", _first_error(err))
        except ValueError as err:
            return _error(422, "bad_request", str(err))
        try:
            room, tokens = await hub.create(
                body.players,
                seats,
                body.lang,
                name=body.name,
                open_=body.open,
                mine=body.mine,
                owner=address,
                names=names,
                clock=body.clock,
                stand_in=stand_in,
            )
        except GameError as err:
            return _error(422, err.code, err.message)
        answer_seats: list[dict[str, Any]] = []
        for seat, kind in enumerate(seats):
            entry: dict[str, Any] = {"seat": seat, "kind": kind}
            if seat in tokens:
                entry["token"] = tokens[seat]
                entry["url"] = f"/g/{room.id}?seat={seat}#{tokens[seat]}"
            answer_seats.append(entry)
        answer: dict[str, Any] = {
            "game": room.id,
            "seats": answer_seats,
            "watch": f"/g/{room.id}/watch",
            "protocol": PROTOCOL,
        }
        # Unknown fields are allowed (the protocol), but a misspelt one (`clok`) should not pass
        # unseen: the answer names what the server did not read.
        ignored = sorted(set(data) - set(CreateGame.model_fields))
        if ignored:
            answer["ignored"] = ignored
        return JSONResponse(answer, status_code=201)

    async def lobby(request: Request) -> Response:
        games = []
        for row, free in await store.open_games():
            games.append(
                {
                    "game": row.id,
                    "name": row.name,
                    "players": row.players,
                    "seats": row.seats,
                    "free": free,
                    "names": list(row.names) or [None] * row.players,
                    "lang": row.lang,
                    "scores": row.scores,
                    "clock": row.clock,
                }
            )
        return JSONResponse({"games": games})

    async def game_summary(request: Request) -> Response:
        room = await hub.room(request.path_params["game"])
        if room is None:
            return _error(404, "not_found", "no such game")
        return JSONResponse(await room.summary())

    async def game_record(request: Request) -> Response:
        room = await hub.room(request.path_params["game"])
        if room is None:
            return _error(404, "not_found", "no such game")
        record = await room.record()
        if record is None:
            return _error(409, "playing", "the record is given once the match is over")
        return JSONResponse(
            record,
            headers={"content-disposition": f'attachment; filename="exact61-{room.id}.json"'},
        )

    async def take_seat(request: Request) -> Response:
        game_id = request.path_params["game"]
        number = request.path_params["seat"]
        if not (number.isascii() and number.isdecimal() and len(number) <= MAX_SEAT_DIGITS):
            return _error(422, "not_a_seat", "a seat is a number from 0 to 3 (R2)")
        seat = int(number)
        try:
            raw = await _json_body(request) if _has_body(request) else {}
            name = TakeSeat.model_validate(raw).name
        except GameError as err:
            return _error(413 if err.code == "too_large" else 422, err.code, err.message)
        except ValidationError as err:
            return _error(422, "bad_request", _first_error(err))
        try:
            token = await hub.take_seat(game_id, seat, name)
        except GameError as err:
            status = {"not_found": 404, "taken": 409, "over": 409, "expired": 409}.get(
                err.code, 403 if err.code == "closed" else 422
            )
            return _error(status, err.code, err.message)
        return JSONResponse(
            {
                "game": game_id,
                "seat": seat,
                "token": token,
                "url": f"/g/{game_id}?seat={seat}#{token}",
            },
            status_code=201,
        )

    sockets: collections.Counter[str] = collections.Counter()  # open, per client address

    async def socket(websocket: WebSocket) -> None:
        address = websocket.client.host if websocket.client else "?"
        if sockets[address] >= limits.sockets_per_address:
            await websocket.accept()
            message = f"at most {limits.sockets_per_address} connections from one address"
            await websocket.send_text(encode_frame(error_frame("too_many", message)))
            await websocket.close(1008)
            return
        sockets[address] += 1
        try:
            await _serve_socket(hub, websocket, limits, address, Asks(hints, states))
        finally:
            sockets[address] -= 1
            if not sockets[address]:
                del sockets[address]

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        listener = None
        loop = asyncio.get_running_loop()
        if store.engine.dialect.name == "postgresql":  # other servers may share the database
            from exact61.server.bus import Listener

            hub.shared = True
            url = store.engine.url.render_as_string(hide_password=False)
            listener = Listener(url, loop, hub.heard, hub.refresh, hub.renamed)
            listener.start()
            await loop.run_in_executor(None, listener.ready.wait, 30)
        # No game is rebuilt here: each is when first asked for (a connection, the lobby's
        # seat), its bots moving on from there, so a start costs the same however many games
        # the database holds.
        sweeper = loop.create_task(_sweep(hub, expire_after))
        keeper = loop.create_task(_keep_heap_still(heap)) if heap is not None else None
        probe = loop.create_task(TIMINGS.probe_loop()) if TIMINGS is not None else None
        yield
        sweeper.cancel()
        if keeper is not None:
            keeper.cancel()
        if probe is not None and TIMINGS is not None:
            probe.cancel()
            TIMINGS.dump()
        if listener is not None:
            listener.stop()
        for room in hub.rooms.values():
            room.stop()
        thinkers.shutdown()
        await store.close()

    routes: list[Any] = [
        Route("/api/games", create_game, methods=["POST"]),
        Route("/api/games", lobby, methods=["GET"]),
        Route("/api/games/{game}", game_summary, methods=["GET"]),
        Route("/api/games/{game}/record", game_record, methods=["GET"]),
        Route("/api/games/{game}/seats/{seat}", take_seat, methods=["POST"]),
        WebSocketRoute("/ws/games/{game}", socket),
        *web_routes(replays),
        *static_routes(),
    ]
    app = Starlette(
        routes=routes,
        middleware=[
            Middleware(BrowserGuard, allowed_origins=origins),
            # the page's script and the catalogs are text: a fifth of their size on the wire
            Middleware(GZipMiddleware, minimum_size=1024, compresslevel=6),
        ],
        lifespan=lifespan,
        exception_handlers={
            404: _not_found,
            405: _not_allowed,
            Unavailable: _unavailable,
            Exception: _internal,
        },
    )
    app.state.hub = hub
    return app


@dataclass(frozen=True)
class HeapPolicy:
    """Python's collector stops the whole process while it scans: a thousand games keep tens of
    thousands of objects waiting for seconds (each connection's futures and timers), and every
    move waits while they are scanned (docs/figures/load.md). So what has lived
    `freeze_seconds` is frozen (`gc.freeze`: never scanned again; it is still freed when nothing
    refers to it), and once every `collect_seconds` everything is thawed and collected once, so
    cyclic garbage among frozen objects is still freed (that collection pauses the server)."""

    freeze_seconds: float = 0.25
    collect_seconds: float = 3600.0


async def _keep_heap_still(policy: HeapPolicy) -> None:
    since_collect = 0.0
    while True:
        await asyncio.sleep(policy.freeze_seconds)
        since_collect += policy.freeze_seconds
        if since_collect >= policy.collect_seconds:
            since_collect = 0.0
            gc.unfreeze()
            gc.collect()
        gc.freeze()


async def _sweep(hub: Hub, expire_after: float | None) -> None:
    """Now and then: close the games untouched for `expire_after` seconds (None: never), and
    let rooms nobody uses go (their games stay in the database)."""
    every = 60.0 if expire_after is None else min(60.0, expire_after / 2)
    while True:
        await asyncio.sleep(every)
        if expire_after is not None:
            try:
                if expired := await hub.expire_untouched(expire_after):
                    log.info("closed %d games nobody moved in", expired)
            except Unavailable as err:
                log.warning("the database is unavailable (closing old games): %s", err)
        hub.sweep()


async def _not_found(request: Request, exc: Exception) -> Response:
    return _error(404, "not_found", "no such page")


async def _not_allowed(request: Request, exc: Exception) -> Response:
    return _error(405, "method_not_allowed", f"{request.method} is not allowed here")


async def _unavailable(request: Request, exc: Exception) -> Response:
    log.warning("the database is unavailable (%s %s): %s", request.method, request.url.path, exc)
    return _error(503, "unavailable", UNAVAILABLE)


async def _internal(request: Request, exc: Exception) -> Response:
    log.error("internal error on %s %s: %r", request.method, request.url.path, exc)
    return _error(500, "internal", "the server failed; the game is unchanged")


def _first_error(err: ValidationError) -> str:
    first = err.errors(include_url=False)[0]
    where = ".".join(str(p) for p in first.get("loc", ())) or "body"
    return f"{where}: {first.get('msg', 'invalid')}"


@dataclass(frozen=True)
class Asks:
    """What an address may ask of the games over all its connections: hints (each a search)
    and whole states (each hello: the state, with `last` from where the client says)."""

    hints: Quotas
    states: Quotas


STATES_REFUSED = "too many states asked from this address; try again in a minute"


async def _serve_socket(
    hub: Hub, websocket: WebSocket, limits: Limits, address: str, asks: Asks
) -> None:
    await websocket.accept()
    outbox: asyncio.Queue[Frame | None] = asyncio.Queue(limits.queue)
    writer = asyncio.get_running_loop().create_task(_write(websocket, outbox))
    overflow = asyncio.Event()

    async def send(frame: Frame) -> None:
        try:
            outbox.put_nowait(frame)
        except asyncio.QueueFull:  # a client that stopped reading: it reconnects when it can
            stalled()

    def stalled() -> None:
        if not overflow.is_set():
            overflow.set()
            writer.cancel()
            closing.append(asyncio.get_running_loop().create_task(_close(websocket, 1013)))

    closing: list[asyncio.Task[None]] = []

    def end(frame: Frame) -> None:
        """Send `frame`, then close: what is already on its way out goes first."""
        if overflow.is_set():
            return
        overflow.set()  # read no more
        with contextlib.suppress(asyncio.QueueFull):
            outbox.put_nowait(frame)
            outbox.put_nowait(None)
        closing.append(asyncio.get_running_loop().create_task(_close_after(websocket, writer)))

    room: Room | None = None
    client: Client | None = None
    bucket = Bucket(limits.rate, limits.burst)
    # a state from seq 0 is the longest frame there is: a connection asks again only so often
    resyncs = Bucket(limits.resyncs_per_minute / 60, RESYNC_BURST)
    try:
        room = await hub.room(websocket.path_params["game"])
        if room is None:
            await send(error_frame("not_found", "no such game"))
            return
        hello = await _receive(websocket, limits.hello_seconds, overflow)
        if hello is None:
            return
        frame = _parse(hello)
        if not isinstance(frame, Hello):
            if not isinstance(frame, dict):
                frame = error_frame("bad_message", "say hello first")
            await send(frame)
            return
        if not asks.states.take(address):  # before the database is read for the token
            await send(error_frame("rate_limited", STATES_REFUSED))
            return
        seat = None if frame.token is None else await room.seat_of(frame.token)
        if frame.token is not None and seat is None:
            await send(error_frame("bad_token", "that token is for no seat of this game"))
            return
        client = Client(seat, send, end, address=address)
        try:
            await room.join(client, frame.since)
        except GameError as err:
            client = None
            await send(error_frame(err.code, err.message))
            return
        while True:
            text = await _receive(websocket, limits.idle_seconds, overflow)
            if text is None:
                return
            if TIMINGS is not None:
                TIMINGS.received()
            if not bucket.take():
                await send(error_frame("rate_limited", "too many frames; slow down"))
                continue
            frame = _parse(text)
            if isinstance(frame, dict):
                await send(frame)
            else:
                try:
                    await _handle(hub, room, client, frame, send, resyncs, asks)
                except Unavailable as err:  # the connection stays: the client may ask again
                    log.warning("the database is unavailable (a frame of a game): %s", err)
                    await send(error_frame("unavailable", UNAVAILABLE))
    except WebSocketDisconnect:
        pass
    except Unavailable as err:  # the page reconnects by itself, and gets in once it is back
        log.warning("the database is unavailable (a connection to a game): %s", err)
        with contextlib.suppress(asyncio.QueueFull):
            outbox.put_nowait(error_frame("unavailable", UNAVAILABLE))
    finally:
        if room is not None and client is not None:
            await room.leave(client)
        if not overflow.is_set():
            with contextlib.suppress(asyncio.QueueFull):
                outbox.put_nowait(None)
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await asyncio.wait_for(writer, 5)
        if websocket.client_state is WebSocketState.CONNECTED:
            with contextlib.suppress(Exception):
                await websocket.close(1013 if overflow.is_set() else 1000)


async def _handle(
    hub: Hub, room: Room, client: Client, frame: Any, send: Any, resyncs: Bucket, asks: Asks
) -> None:
    if isinstance(frame, Ping):
        await send({"type": "pong"})
    elif isinstance(frame, Hello):
        if not resyncs.take():
            await send(error_frame("rate_limited", "too many hellos; the last state stands"))
            return
        if not asks.states.take(client.address or "?"):
            await send(error_frame("rate_limited", STATES_REFUSED))
            return
        seat = None if frame.token is None else await room.seat_of(frame.token)
        if frame.token is not None and (seat is None or seat != client.seat):
            await send(error_frame("bad_token", "a connection keeps the seat it said hello with"))
        else:
            await room.resync(client, frame.since)
    elif isinstance(frame, SeatName):
        if client.seat is None:
            await send(error_frame("not_a_seat", "a spectator has no seat to name"))
            return
        try:
            if not await room.rename(client.seat, frame.name):
                await send(room.presence_frame())  # the same name: told to the asker only
        except GameError as err:
            await send(error_frame(err.code, err.message))
    elif client.seat is None:
        await send(error_frame("not_your_turn", "a spectator does not act"))
    elif isinstance(frame, Act):
        try:
            action = action_from_record(frame.action)
            await room.act(client.seat, frame.seq, action)
        except RuleError as err:
            await send(error_frame("illegal", str(err)))
        except GameError as err:
            await send(error_frame(err.code, err.message))
    elif isinstance(frame, HintAsk):
        if not asks.hints.take(client.address or "?"):
            await send(error_frame("rate_limited", "too many hints; try again in a minute"))
            return
        try:
            await send(await room.hint(client.seat, frame.seq, client.address or ""))
        except GameError as err:
            await send(error_frame(err.code, err.message))
    elif isinstance(frame, Back):
        await room.back(client.seat)
    elif isinstance(frame, RematchAsk):
        try:
            await hub.rematch(room)  # the frame comes to every client of the game, this one too
        except GameError as err:
            await send(error_frame(err.code, err.message))


def _parse(text: str) -> Frames | dict[str, Any]:
    """A client's frame, or the error frame to answer it with."""
    if len(text.encode()) > MAX_FRAME:
        return error_frame("bad_message", f"a frame is at most {MAX_FRAME} bytes")
    try:
        return CLIENT_FRAME.validate_json(text)
    except ValidationError as err:
        first = err.errors(include_url=False)[0]
        if first.get("type") == "json_invalid":
            return error_frame("bad_message", "a frame is one JSON object")
        return error_frame("bad_message", _first_error(err))


async def _receive(websocket: WebSocket, timeout: float, stop: asyncio.Event) -> str | None:
    """The next text frame, or None when the client is gone, silent for `timeout`, or `stop`
    is set (it stopped reading what it is sent: the connection is then being closed)."""
    if stop.is_set():
        return None
    try:
        async with asyncio.timeout(timeout):
            message = await websocket.receive()
    except TimeoutError:
        return None
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    text = message.get("text")
    if text is None:
        data = message.get("bytes") or b""
        try:
            return data.decode()
        except UnicodeDecodeError:
            return '"not text"'
    return str(text)


async def _close_after(websocket: WebSocket, writer: asyncio.Task[None]) -> None:
    """Close once `writer` has sent what it holds (a few seconds at most)."""
    with contextlib.suppress(Exception):
        await asyncio.wait_for(asyncio.shield(writer), 5)
    await _close(websocket, 1000)


async def _close(websocket: WebSocket, code: int) -> None:
    with contextlib.suppress(Exception):
        await websocket.close(code)


async def _write(websocket: WebSocket, outbox: asyncio.Queue[Frame | None]) -> None:
    while True:
        frame = await outbox.get()
        if frame is None:
            return
        await websocket.send_text(frame if isinstance(frame, str) else encode_frame(frame))
        if TIMINGS is not None and isinstance(frame, str):
            TIMINGS.written(frame)


__all__ = ["Limits", "create_app", "seat_kinds"]
