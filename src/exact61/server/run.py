"""Start the server: migrate the database, make the bots' process pool, run uvicorn."""

from __future__ import annotations

import logging
import multiprocessing
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import uvicorn

from exact61.server.app import HeapPolicy, Limits, create_app
from exact61.server.protocol import MAX_FRAME
from exact61.server.store import Database
from exact61.table.files import games_dir


def serve(
    *,
    host: str = "127.0.0.1",
    port: int = 8061,
    db: str | None = None,
    bot_workers: int = 2,
    bot_delay: float = 0.6,
    frame_rate: float = 20.0,
    games_per_minute: float = 30.0,
) -> None:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    logging.getLogger("alembic").setLevel(logging.WARNING)  # migrations: say only what fails
    store = Database.open(db, games_dir().parent)

    def bot_pool() -> ProcessPoolExecutor:
        # spawn: a fork of a process with an event loop and threads is not safe
        return ProcessPoolExecutor(bot_workers, mp_context=multiprocessing.get_context("spawn"))

    limits = Limits(rate=frame_rate, burst=3 * frame_rate, games_per_minute=games_per_minute)
    app = create_app(
        store,
        bot_pool=bot_pool if bot_workers else None,
        bot_delay=bot_delay,
        limits=limits,
        heap=HeapPolicy(),
    )
    shown = "localhost" if host in ("127.0.0.1", "0.0.0.0", "::") else host
    print(f"exact61 serves on http://{shown}:{port}/  (Ctrl+C stops it)", flush=True)
    uvicorn.Server(uvicorn_config(app, host, port)).run()


def uvicorn_config(app: Any, host: str, port: int, *, log_level: str = "info") -> uvicorn.Config:
    """How the server runs under uvicorn (the tests run it the same way)."""
    return uvicorn.Config(
        app,
        host=host,
        port=port,
        ws="websockets-sansio",
        ws_max_size=4 * MAX_FRAME,  # larger frames close the connection (1009)
        ws_per_message_deflate=False,  # small frames: compressing costs more CPU than it saves
        ws_ping_interval=20,
        ws_ping_timeout=20,
        log_level=log_level,
        access_log=True,  # paths only: tokens never travel in a path or query
        lifespan="on",
    )
