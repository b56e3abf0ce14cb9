"""The web page's side of the server: the page itself for every game and replay link, the texts
it shows (the same catalogs and rules texts as the terminal game) and the replay of a record.

- `GET /api/lang/{lang}`: the catalog as JSON (`messages`: msgid to text; `plurals`: singular
  msgid to its forms; `plural`: the form each count 0..199 takes, which also serves any larger
  count as `100 + n % 100`), the rules R1-R31 by number, and the language names.
- The page's files: under `/v/{version}/` (the version a digest of every file) for a year, never
  asked again (`immutable`); under their plain names for anything else that links them, checked
  with the server on each use. The page itself names the versioned ones.
- `POST /api/replays`: an `exact61-match/1` record (one match) in; verified through the core,
  then every position of it out: after each deal and each action, what a spectator who sees
  every hand would see, with the layout's picture and the log entries of the action.
- `GET /api/learn/{lang}`: the guided tour (`exact61.learn.tour`) for the Learn page, every
  text in `lang`: its lessons, and each step as `Step.to_json` gives it with the pictures of
  its scene and of the scene its answer leaves (the page keeps the learner's progress itself);
  and `guided`, the guided match that follows the tour: its `seats` and `rounds`.
"""

from __future__ import annotations

import gzip
import hashlib
import json
from functools import cache
from pathlib import Path
from typing import Any

from babel.messages.pofile import read_po
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from exact61 import i18n
from exact61.core import (
    Match,
    RecordError,
    RuleError,
    parse_record,
)
from exact61.core.records import MatchRecord, event_to_json, point_json, replay_steps, tile_json
from exact61.learn import tour
from exact61.render.geometry import picture_json
from exact61.server.answers import BodyError, error_response, read_body
from exact61.server.frames import layout_json, round_end_json, update_entries
from exact61.server.hub import GUIDED_SEATS
from exact61.server.puzzles import puzzle_routes
from exact61.server.quota import Busy, Expensive, client_key
from exact61.server.rooms import guided_json
from exact61.table import Update

STATIC = Path(__file__).parent / "static"
MAX_RECORD = 4 * 1024 * 1024  # bytes: a record posted for replay (a long match is ~50 kB)
PLURAL_TABLE = 200  # counts 0..199 cover every form of en, de, pl, ru (they read n % 100)


# The page's references to its own files, each rewritten to the versioned path.
PAGE_LINKS = ('"/app.css"', '"/js/main.js"', '"/favicon.svg"')
FOREVER = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"


@cache
def asset_version() -> str:
    """A digest of every file of the page: a new one whenever any of them changes."""
    digest = hashlib.sha256()
    for path in sorted(p for p in STATIC.rglob("*") if p.is_file()):
        digest.update(path.relative_to(STATIC).as_posix().encode() + b"\0")
        digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


@cache
def page_html() -> bytes:
    """The page, naming its files under `/v/{version}/`: the script's modules import each other
    by relative names, so all of them load from there."""
    text = (STATIC / "index.html").read_text(encoding="utf-8")
    for link in PAGE_LINKS:
        text = text.replace(link, f'"/v/{asset_version()}{link[1:]}')
    return text.encode()


async def _page(request: Request) -> Response:
    if not (STATIC / "index.html").is_file():
        return error_response(404, "not_found", "no web page")
    return Response(page_html(), media_type="text/html", headers={"cache-control": REVALIDATE})


class Cached:
    """ASGI wrapper: every response of `app` carries `cache-control: {policy}`."""

    def __init__(self, app: ASGIApp, policy: str) -> None:
        self.app, self.policy = app, policy.encode()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        async def send_cached(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [h for h in message.get("headers", []) if h[0] != b"cache-control"]
                message = {**message, "headers": [*headers, (b"cache-control", self.policy)]}
            await send(message)

        await self.app(scope, receive, send_cached)


async def _rules(request: Request) -> Response:
    lang = request.path_params["lang"]
    if lang not in i18n.LANGUAGES:
        return error_response(404, "not_found", "no such language")
    return PlainTextResponse(i18n.rules_text(lang))


# ---- the catalogs ------------------------------------------------------------------------


@cache
def catalog_json(lang: str) -> dict[str, Any]:
    """Everything the page translates with, for `lang` (the same `.po` files as the terminal)."""
    messages: dict[str, str] = {}
    plurals: dict[str, list[str]] = {}
    if lang != "en":
        with (i18n.LOCALE_DIR / f"{lang}.po").open("rb") as f:
            catalog = read_po(f, locale=lang)
        for message in catalog:
            if not message.id or message.fuzzy:
                continue
            if isinstance(message.id, str):
                if message.string:
                    messages[message.id] = str(message.string)
            elif isinstance(message.string, tuple | list) and all(message.string):
                plurals[message.id[0]] = [str(s) for s in message.string]
    return {
        "lang": lang,
        "languages": dict(i18n.LANGUAGE_NAMES),
        "plural": [_plural_form(lang, n) for n in range(PLURAL_TABLE)],
        "messages": messages,
        "plurals": plurals,
        "rules": i18n.rule_paragraphs(lang),
    }


def _plural_form(lang: str, n: int) -> int:
    """The plural form the catalog's rule (its Plural-Forms header) gives the count `n`."""
    if lang == "en":
        return 0 if n == 1 else 1
    rule = getattr(i18n.translations(lang), "plural")  # noqa: B009 - GNUTranslations sets it
    return int(rule(n))


async def _lang(request: Request) -> Response:
    lang = request.path_params["lang"]
    if lang not in i18n.LANGUAGES:
        return error_response(404, "not_found", "no such language")
    return JSONResponse(catalog_json(lang), headers={"cache-control": "public, max-age=300"})


# ---- the guided tour ----------------------------------------------------------------------


@cache
def tour_json(lang: str) -> dict[str, Any]:
    """The guided tour for the Learn page, every text in `lang`: the lessons (`id`, `title`,
    how many steps) and each step (`Step.to_json`) with `picture` and `result_picture`, the
    layouts of its scene and of its result as the renderer draws them (`picture_json`). Said
    in `lang` by this call alone (`i18n.speaking`): the process's language stays as it is."""
    with i18n.speaking(lang):
        steps = tour.steps()
        lessons = [
            {
                "id": lesson.id,
                "title": lesson.title_text,
                "steps": sum(s.lesson == lesson for s in steps),
            }
            for lesson in tour.lessons()
        ]
        out = []
        for step in steps:
            data = step.to_json()
            data["picture"] = picture_json(step.scene.layout())
            data["result_picture"] = picture_json(step.result.layout())
            out.append(data)
    # the guided match after the tour, as the page makes it (`POST /api/games` with `guided`)
    guided = {"seats": GUIDED_SEATS, **guided_json()}
    return {"lang": lang, "lessons": lessons, "steps": out, "guided": guided}


async def _learn(request: Request) -> Response:
    lang = request.path_params["lang"]
    if lang not in i18n.LANGUAGES:
        return error_response(404, "not_found", "no such language")
    return JSONResponse(tour_json(lang), headers={"cache-control": "public, max-age=300"})


# ---- replays -----------------------------------------------------------------------------


def _position(
    match: Match, round_index: int, action_index: int, seq: int, last: list[dict[str, Any]]
) -> dict[str, Any]:
    """What the table shows at this moment of the record: every hand (a record holds them)."""
    log = match.rounds[-1]
    layout = match.layout
    out: dict[str, Any] = {
        "round": round_index,
        "action": action_index,
        "seq": seq,
        "players": match.players,
        "to_act": match.to_act,
        "opener": log.opener,
        "hands": [[tile_json(t) for t in match.hand(s)] for s in range(match.players)],
        "hand_sizes": list(match.hand_sizes()),
        "boneyard": match.boneyard_size,
        "layout": layout_json(layout),
        "scores": list(match.scores),
        "winner": match.winner,
        "ends": [{"tile": tile_json(t), "value": v} for t, v in layout.contributions()],
        "end_sum": layout.end_sum,
        "free": [{"at": point_json(p), "value": v} for p, v in layout.free_points()],
        "picture": picture_json(layout),
        "events": [event_to_json(e) for e in log.events],  # the round's so far, as in a state
        "last": last,
        "status": "over" if match.is_over else "playing",
    }
    if log.end is not None:
        out["round_end"] = round_end_json(round_index, log.end, log, match.players)
    return out


def replay_positions(data: dict[str, Any]) -> dict[str, Any]:
    """Every position of a record, read once through the rules (`replay_steps`: RecordError if
    the record does not verify, its message naming the round and action)."""
    record: MatchRecord = parse_record(data)
    positions: list[dict[str, Any]] = []
    seq = 0
    for moment in replay_steps(record):
        match, r = moment.match, moment.round
        log = match.rounds[-1]
        if moment.action < 0:
            deal_entry = {"type": "deal", "round": r, "opener": log.opener}
            positions.append(_position(match, r, -1, seq, [deal_entry]))
            continue
        seq += 1
        step = log.steps[-1]
        update = Update(seq, r, step.seat, step.action, step.drawn, moment.events, log.end)
        # the drawn tile is named: a record shows everything
        last = update_entries(update, step.seat, match)
        positions.append(_position(match, r, moment.action, seq, last))
    extra = {k: v for k, v in data.items() if k in ("seats", "lang", "seed")}
    names = data.get("names")  # each seat's person's name, as the game's record keeps them
    if isinstance(names, list) and len(names) == record.players:
        extra["names"] = [n if isinstance(n, str) else None for n in names]
    return {
        "players": record.players,
        "scores": list(record.scores),
        "winner": record.winner,
        "rounds": len(record.rounds),
        **extra,
        "positions": positions,
    }


def record_problem(err: RecordError) -> str:
    """Where a posted record goes wrong and why: the round counted from 1, as the page and the
    game show rounds (and `exact61 replay` says them), the action from 0 as the record holds it."""
    where = []
    if err.round is not None:
        where.append(f"round {err.round + 1}")
    if err.action is not None:
        where.append(f"action {err.action}")
    return f"{', '.join(where)}: {err.message}" if where else err.message


def replay_answer(body: bytes, compress: bool) -> tuple[int, str, bytes]:
    """The answer to a record posted for replay, worked out whole where it runs (a bot
    process): the status, the error code (empty when 200) and the JSON body, gzipped if
    `compress`. Plain values only, so that it comes back from another process as it went."""
    try:
        data = json.loads(body)
    except (ValueError, RecursionError):
        return 422, "bad_record", b"the body is not JSON"
    if not isinstance(data, dict):
        return 422, "bad_record", b"a record is one JSON object (one line of a .jsonl)"
    try:
        answer = replay_positions(data)
    except RecordError as err:
        return 422, "bad_record", record_problem(err).encode()
    except RuleError as err:
        return 422, "bad_record", str(err).encode()
    content = json.dumps(answer, separators=(",", ":")).encode()
    if compress and len(content) > 1024:
        # a long match is a few hundred positions, each with its picture: it compresses well
        return 200, "gzip", gzip.compress(content, 6)
    return 200, "", content


async def _replays(request: Request, expensive: Expensive) -> Response:
    address = client_key(request)
    if not expensive.quotas.take(address):
        return error_response(
            429,
            "rate_limited",
            "too many replays from this address; try in a minute",
            expensive.quotas.retry_after(address),
        )
    try:
        body = await read_body(request, MAX_RECORD, "a record")
    except BodyError as err:
        return err.response()
    compress = "gzip" in request.headers.get("accept-encoding", "")
    try:
        status, code, content = await expensive(replay_answer, body, compress, owner=address)
    except Busy:
        return error_response(503, "busy", "the server is busy replaying records; try again soon")
    if status != 200:
        return error_response(status, code, content.decode())
    headers = {"vary": "accept-encoding"}
    if code == "gzip":
        headers["content-encoding"] = "gzip"
    return Response(content, media_type="application/json", headers=headers)


def web_routes(replays: Expensive) -> list[BaseRoute]:
    """Routes the page needs beside the protocol's API (the static files are mounted last);
    records posted for replay are worked out by `replays`."""

    async def replay(request: Request) -> Response:
        return await _replays(request, replays)

    return [
        Route("/", _page, methods=["GET"]),
        Route("/index.html", _page, methods=["GET"]),
        Route("/g/{game}", _page, methods=["GET"]),
        Route("/g/{game}/watch", _page, methods=["GET"]),
        Route("/replay", _page, methods=["GET"]),
        Route("/learn", _page, methods=["GET"]),
        Route("/puzzles", _page, methods=["GET"]),
        Route("/api/rules/{lang}", _rules, methods=["GET"]),
        Route("/api/learn/{lang}", _learn, methods=["GET"]),
        Route("/api/lang/{lang}", _lang, methods=["GET"]),
        Route("/api/replays", replay, methods=["POST"]),
        *puzzle_routes(),
    ]


def static_routes() -> list[BaseRoute]:
    """The page's files, versioned and kept for a year, and under their plain names (mounted
    last: every other route comes first)."""
    if not STATIC.is_dir():
        return []
    files = StaticFiles(directory=STATIC)
    return [
        Mount(f"/v/{asset_version()}", Cached(files, FOREVER)),
        Mount("/", Cached(files, REVALIDATE), name="static"),
    ]
