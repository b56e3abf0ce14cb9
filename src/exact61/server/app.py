"""The ASGI application of `exact61 serve` (Starlette): the HTTP API, the route to the WebSocket
of the online protocol (docs/formats/online-protocol.md; each connection is `connection`'s),
the lobby, and the web page's files.

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
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket

from exact61.server.answers import BodyError, error_response, read_body
from exact61.server.connection import UNAVAILABLE, Asks, serve_connection
from exact61.server.frames import encode_frame
from exact61.server.hub import Hub
from exact61.server.presence import HEARTBEAT
from exact61.server.protocol import (
    PROTOCOL,
    CreateGame,
    GameError,
    TakeSeat,
    error_frame,
    first_error,
)
from exact61.server.quota import Expensive, Limits, Listings, Quotas, client_key
from exact61.server.rooms import seat_kinds
from exact61.server.security import BrowserGuard, normal_origins
from exact61.server.store import Database, Unavailable
from exact61.server.thinkers import Thinkers
from exact61.server.timings import TIMINGS
from exact61.server.web import static_routes, web_routes

log = logging.getLogger("exact61.server")
MAX_BODY = 64 * 1024
MAX_SEAT_DIGITS = 2  # a seat number in a path: 0-3, and never thousands of digits to parse


async def _json_body(request: Request) -> Any:
    """The body as JSON (`read_body`'s BodyError if too long or too slow; GameError
    `bad_request` if it is not JSON)."""
    body = await read_body(request, MAX_BODY)
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
    heartbeat: float = HEARTBEAT,
) -> Starlette:
    """The server for `store`; bots think in the pool `bot_pool()` makes (a process pool of
    `bot_workers` processes, shared in turn between addresses; None: in the server); no bot
    searches more than `max_iterations` a move. A bot waits `bot_delay` seconds before it
    moves, and a forced action (R10) is played `forced_delay` seconds after the state that
    announces it, so that people follow. `heap`: how the garbage
    collector is kept from pausing every game at once (None: Python's defaults).
    `expire_after`: seconds without a move after which a game is closed for good (None:
    never). `allowed_origins`: sites other than the server's own whose pages may make games and play
    (`security.BrowserGuard`; ValueError for one that is not `scheme://host[:port]`).
    `heartbeat`: on PostgreSQL, seconds between this server's telling the others sharing the
    database again who is connected to it; what one says holds three heartbeats (`presence`)."""
    origins = normal_origins(allowed_origins)
    thinkers = Thinkers(bot_pool, bot_workers)
    limits = limits or Limits()
    hub = Hub(
        store,
        thinkers,
        bot_delay=bot_delay,
        forced_delay=forced_delay,
        max_iterations=max_iterations,
        spectators_per_address=limits.spectators_per_address,
        heartbeat=heartbeat,
    )
    makers = Quotas(limits.games_per_minute)  # per client address: games made
    listings = Listings(limits.open_games_per_address)  # per client address: games in the lobby
    hints = Quotas(limits.hints_per_minute)  # per client address: hints asked
    states = Quotas(limits.states_quota())  # per client address: whole states asked (hellos)
    replays = Expensive(
        thinkers.work, per_minute=limits.replays_per_minute, at_once=limits.replays_at_once
    )

    async def create_game(request: Request) -> Response:
        address = client_key(request)
        if not makers.take(address):
            return error_response(
                429,
                "rate_limited",
                "too many new games; try again in a minute",
                makers.retry_after(address),
            )
        try:
            data = await _json_body(request)
            body = CreateGame.model_validate(data)
            seats = body.checked_seats()
            names = body.checked_names()
            game_name = body.checked_name()
            stand_in = body.checked_stand_in()
        except BodyError as err:
            return err.response()
        except GameError as err:
            return error_response(422, err.code, err.message)
        except ValidationError as err:
            return error_response(422, "bad_request", first_error(err))
        except ValueError as err:
            return error_response(422, "bad_request", str(err))
        listed = listings.of(address) if body.open else []
        if body.open and not listings.reserve(address, listed, await store.waiting(listed)):
            return error_response(
                429,
                "too_many_open",
                f"at most {limits.open_games_per_address} games from one address wait in the "
                "lobby at once; play them, or make this one unlisted",
            )
        made: str | None = None
        try:
            room, tokens = await hub.create(
                body.players,
                seats,
                body.lang,
                name=game_name,
                open_=body.open,
                mine=body.mine,
                owner=address,
                names=names,
                clock=body.clock,
                stand_in=stand_in,
                guided=body.guided,
            )
            made = room.id
        except GameError as err:
            return error_response(422, err.code, err.message)
        finally:
            if body.open:  # reserved above: the game is counted, made or not
                listings.settle(address, made)
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
            return error_response(404, "not_found", "no such game")
        return JSONResponse(await room.summary())

    async def game_record(request: Request) -> Response:
        room = await hub.room(request.path_params["game"])
        if room is None:
            return error_response(404, "not_found", "no such game")
        record = await room.record()
        if record is None:
            return error_response(409, "playing", "the record is given once the match is over")
        return JSONResponse(
            record,
            headers={"content-disposition": f'attachment; filename="exact61-{room.id}.json"'},
        )

    async def take_seat(request: Request) -> Response:
        game_id = request.path_params["game"]
        number = request.path_params["seat"]
        if not (number.isascii() and number.isdecimal() and len(number) <= MAX_SEAT_DIGITS):
            return error_response(422, "not_a_seat", "a seat is a number from 0 to 3 (R2)")
        seat = int(number)
        try:
            raw = await _json_body(request) if _has_body(request) else {}
            name = TakeSeat.model_validate(raw).name
        except BodyError as err:
            return err.response()
        except GameError as err:
            return error_response(422, err.code, err.message)
        except ValidationError as err:
            return error_response(422, "bad_request", first_error(err))
        try:
            token = await hub.take_seat(game_id, seat, name)
        except GameError as err:
            status = {"not_found": 404, "taken": 409, "over": 409, "expired": 409}.get(
                err.code, 403 if err.code == "closed" else 422
            )
            return error_response(status, err.code, err.message)
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
        address = client_key(websocket)
        if sockets[address] >= limits.sockets_per_address:
            await websocket.accept()
            message = f"at most {limits.sockets_per_address} connections from one address"
            await websocket.send_text(encode_frame(error_frame("too_many", message)))
            await websocket.close(1008)
            return
        sockets[address] += 1
        try:
            await serve_connection(hub, websocket, limits, address, Asks(hints, states))
        finally:
            sockets[address] -= 1
            if not sockets[address]:
                del sockets[address]

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        listener = announcer = None
        loop = asyncio.get_running_loop()
        if store.engine.dialect.name == "postgresql":  # other servers may share the database
            from exact61.server.bus import Announcer, Listener

            hub.shared = True
            url = store.engine.url.render_as_string(hide_password=False)
            listener = Listener(
                url, loop, hub.heard, hub.refresh, hub.renamed, hub.rematched, hub.present
            )
            listener.start()
            await loop.run_in_executor(None, listener.ready.wait, 30)
            announcer = Announcer(store.engine)
            hub.presence.start(announcer.send)
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
        await hub.presence.close()  # the others hear nobody is connected here any more
        if announcer is not None:
            announcer.close()
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
            ClientDisconnect: _gone,
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
    return error_response(404, "not_found", "no such page")


async def _not_allowed(request: Request, exc: Exception) -> Response:
    """405, with the methods the path takes in `Allow` (RFC 9110): those of every route of the
    path (the page's files, mounted at `/` after them, answer any other method of any path with
    their own GET and HEAD)."""
    path = request.url.path
    methods: set[str] = set()
    for route in request.app.router.routes:
        if isinstance(route, Route) and route.methods and route.path_regex.match(path):
            methods |= route.methods
    # no route of ours: the page's files, which take GET and HEAD
    allow = {"allow": ", ".join(sorted(methods)) if methods else "GET, HEAD"}
    return error_response(405, "method_not_allowed", f"{request.method} is not allowed here", allow)


async def _unavailable(request: Request, exc: Exception) -> Response:
    log.warning("the database is unavailable (%s %s): %s", request.method, request.url.path, exc)
    return error_response(503, "unavailable", UNAVAILABLE)


async def _gone(request: Request, exc: Exception) -> Response:
    """The client went away before its request was whole: nobody hears an answer, and it is
    no failure of the server's (a client may do it at will: no log line above INFO for it)."""
    log.info(
        "%s %s: the client went away before its body was whole", request.method, request.url.path
    )
    return Response(status_code=400)


async def _internal(request: Request, exc: Exception) -> Response:
    log.error("internal error on %s %s: %r", request.method, request.url.path, exc)
    return error_response(500, "internal", "the server failed; the game is unchanged")


__all__ = ["Limits", "create_app", "seat_kinds"]
