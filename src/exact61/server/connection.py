"""One WebSocket connection of the online protocol (docs/formats/online-protocol.md): its hello,
then its frames, each checked by a schema and answered (a bad one with an `error` frame that
changes nothing), the frames going out through a bounded queue (a client that stops reading is
dropped), and the limits an address has over all its connections (`Asks`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from exact61.core import RuleError
from exact61.core.records import action_from_record
from exact61.server.frames import Frame, encode_frame
from exact61.server.hub import Hub
from exact61.server.protocol import (
    CLIENT_FRAME,
    MAX_FRAME,
    Act,
    Back,
    Frames,
    GameError,
    Hello,
    HintAsk,
    Ping,
    RematchAsk,
    SeatName,
    error_frame,
    first_error,
)
from exact61.server.quota import Bucket, Limits, Quotas
from exact61.server.rooms import Client, Room
from exact61.server.store import Unavailable
from exact61.server.timings import TIMINGS

log = logging.getLogger("exact61.server")
UNAVAILABLE = "the games' database cannot be reached; try again soon"
RESYNC_BURST = 3  # hellos after the first a connection may send at once


@dataclass(frozen=True)
class Asks:
    """What an address may ask of the games over all its connections: hints (each a search)
    and whole states (each hello: the state, with `last` from where the client says)."""

    hints: Quotas
    states: Quotas


STATES_REFUSED = "too many states asked from this address; try again in a minute"


async def serve_connection(
    hub: Hub, websocket: WebSocket, limits: Limits, address: str, asks: Asks
) -> None:
    # When the connection came, not when its hello was read: hellos wait on the database in
    # any order, and a seat's oldest connection must be the one opened first.
    opened = time.monotonic()
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
        client = Client(seat, send, end, address=address, opened=opened)
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
            await send(await room.hint(client.seat, frame.seq, client.address or "", frame.lang))
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
        return error_frame("bad_message", first_error(err))


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
