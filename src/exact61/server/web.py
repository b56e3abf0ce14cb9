"""The web page's side of the server: the page itself for every game and replay link, and the
texts it shows (the same catalogs and rules texts as the terminal game)."""

from __future__ import annotations

from pathlib import Path

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Route

from exact61 import i18n

STATIC = Path(__file__).parent / "static"


async def _page(request: Request) -> Response:
    page = STATIC / "index.html"
    if not page.is_file():
        return JSONResponse({"error": "not_found", "message": "no web page"}, status_code=404)
    return FileResponse(page, media_type="text/html")


async def _rules(request: Request) -> Response:
    lang = request.path_params["lang"]
    if lang not in i18n.LANGUAGES:
        return JSONResponse({"error": "not_found", "message": "no such language"}, status_code=404)
    return PlainTextResponse(i18n.rules_text(lang))


def web_routes() -> list[Route]:
    """Routes the page needs beside the protocol's API (the static files are mounted last)."""
    return [
        Route("/g/{game}", _page, methods=["GET"]),
        Route("/g/{game}/watch", _page, methods=["GET"]),
        Route("/replay", _page, methods=["GET"]),
        Route("/api/rules/{lang}", _rules, methods=["GET"]),
    ]
