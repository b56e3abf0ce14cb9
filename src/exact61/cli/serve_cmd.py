"""`exact61 serve`: the game server (HTTP and WebSocket), with the web page."""

from __future__ import annotations

import ipaddress
from typing import Annotated

import typer

from exact61.cli.app import CliError, app, missing_extra
from exact61.i18n import N_
from exact61.server.quota import Limits  # the limits' defaults; stdlib only, no extra needed


# Its help is English, for whoever hosts; its summary is in the list of commands (`exact61 -h`),
# which is said in the locale's language.
@app.command(
    help=N_("Serve games over the online protocol: people in browsers or any client, and bots.")
)
def serve(
    host: Annotated[
        str,
        typer.Option(metavar="ADDRESS", help="Address to listen on (0.0.0.0: every network)."),
    ] = "127.0.0.1",
    port: Annotated[
        int, typer.Option(min=0, max=65535, metavar="PORT", help="Port to listen on.")
    ] = 8061,
    db: Annotated[
        str | None,
        typer.Option(
            metavar="FILE|URL",
            help="The games' database: an SQLite file's path (or sqlite:///FILE), or "
            "PostgreSQL: postgresql+psycopg:// then USER:PASS@HOST/DB (default: an SQLite file "
            "in your data directory).",
        ),
    ] = None,
    bot_workers: Annotated[
        int, typer.Option(min=0, help="Processes for the bots' thinking (0: in the server).")
    ] = 2,
    bot_delay: Annotated[
        float,
        typer.Option(
            min=0,
            max=60,  # inf was taken, and no bot ever moved
            metavar="SECONDS",
            help="Seconds a bot waits before moving, so people follow.",
        ),
    ] = 0.6,
    forced_delay: Annotated[
        float,
        typer.Option(
            min=0,
            max=60,  # inf was taken, and no forced draw or pass was ever played
            metavar="SECONDS",
            help="Seconds before the server plays a draw or pass nobody may refuse (R10), "
            "so pages show it.",
        ),
    ] = 0.7,
    frame_rate: Annotated[
        float,
        typer.Option(
            min=0.1, help="Frames a second a connection may send (three times as many at once)."
        ),
    ] = Limits.rate,
    games_per_minute: Annotated[
        float,
        typer.Option(
            min=0.1,
            help="New games one address may make a minute (as many again at once); raise it "
            "when many people share one address (a school, a load test).",
        ),
    ] = Limits.games_per_minute,
    connections_per_address: Annotated[
        int,
        typer.Option(
            min=1,
            help="WebSocket connections one address may hold over all games (players and "
            "spectators); raise it when many people share one address.",
        ),
    ] = Limits.sockets_per_address,
    replays_per_minute: Annotated[
        float,
        typer.Option(min=0.1, help="Records one address may post a minute for the replay viewer."),
    ] = Limits.replays_per_minute,
    hints_per_minute: Annotated[
        float,
        typer.Option(
            min=0.1,
            help="Hints one address may ask for a minute (as many at once); raise it when many "
            "players share one address (a club's room).",
        ),
    ] = Limits.hints_per_minute,
    spectators_per_address: Annotated[
        int,
        typer.Option(
            min=1,
            help="Spectators of one game from one address; raise it when many people watch "
            "from one address.",
        ),
    ] = Limits.spectators_per_address,
    open_games_per_address: Annotated[
        int,
        typer.Option(
            min=1,
            help="Games one address may have waiting in the lobby at once, so that no one "
            "fills the list everyone sees; raise it for a club whose members share an address.",
        ),
    ] = Limits.open_games_per_address,
    states_per_minute: Annotated[
        float | None,
        typer.Option(
            min=0.1,
            help="Whole game states one address may ask for a minute (every connection's first "
            "and every reload; as many at once); default: twice --connections-per-address, at "
            "least 120.",
        ),
    ] = None,
    expire_days: Annotated[
        float,
        typer.Option(
            "--expire-after",
            min=0,
            metavar="DAYS",
            help="Close a game nobody has moved in for this many days (0: never); its record "
            "can still be downloaded.",
        ),
    ] = 30.0,
    max_connections: Annotated[
        int,
        typer.Option(min=1, help="Connections at once; more are answered 503 (busy)."),
    ] = 10_000,
    head_timeout: Annotated[
        float,
        typer.Option(
            min=0.1,
            metavar="SECONDS",
            help="Seconds a client has to send a request's headers, then it is cut off.",
        ),
    ] = 10.0,
    forwarded_allow_ips: Annotated[
        str,
        typer.Option(
            metavar="ADDRESSES",
            help="Proxies (comma-separated addresses or networks) trusted to name the client in "
            "X-Forwarded-For; none by default. Behind nginx on the same machine: 127.0.0.1.",
        ),
    ] = "",
    allow_origin: Annotated[
        list[str] | None,
        typer.Option(
            metavar="ORIGIN",
            help="Another site (https://host[:port]) whose pages may make games and play here; "
            "repeat for more. The server's own site is always allowed.",
        ),
    ] = None,
) -> None:
    try:
        from exact61.server.run import (
            CannotListen,
            CannotOpenDatabase,
            Connections,
            DatabaseInUse,
        )
        from exact61.server.run import serve as run_server
        from exact61.server.security import normal_origins
    except ImportError:
        raise missing_extra("server", "serve") from None
    try:
        normal_origins(allow_origin or ())
    except ValueError as err:
        raise CliError(f"--allow-origin: {err}", code=2) from None
    from exact61.server.store import database_url
    from exact61.table.files import games_dir

    try:
        database_url(db, games_dir().parent)
    except ValueError as err:
        raise CliError(f"--db: {err}", code=2) from None
    proxies = tuple(p.strip() for p in forwarded_allow_ips.split(",") if p.strip())
    for proxy in proxies:  # a typo would trust nobody, and every member share one address
        try:
            ipaddress.ip_network(proxy, strict=False)
        except ValueError:
            raise CliError(
                f"--forwarded-allow-ips: {proxy!r} is not an address or a network", code=2
            ) from None
    try:
        run_server(
            host=host,
            port=port,
            db=db,
            bot_workers=bot_workers,
            bot_delay=bot_delay,
            forced_delay=forced_delay,
            limits=Limits(
                rate=frame_rate,
                burst=3 * frame_rate,
                games_per_minute=games_per_minute,
                sockets_per_address=connections_per_address,
                replays_per_minute=replays_per_minute,
                states_per_minute=states_per_minute,
                hints_per_minute=hints_per_minute,
                spectators_per_address=spectators_per_address,
                open_games_per_address=open_games_per_address,
            ),
            expire_days=expire_days,
            connections=Connections(max_connections, head_timeout, proxies),
            allowed_origins=allow_origin or (),
        )
    except CannotListen as err:  # another program has the port, or the host is not ours
        raise CliError(str(err.strerror), code=2) from None
    except DatabaseInUse as err:  # another server has the SQLite file, as a port is taken
        raise CliError(str(err), code=2) from None
    except CannotOpenDatabase as err:  # not there, not writable, not reachable, too new
        raise CliError(str(err), code=1) from None
