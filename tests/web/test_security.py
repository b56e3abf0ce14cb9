"""What a browser is told and may ask (docs/hosting.md, "Security"): the security headers on
every answer, no inline script for the policy to allow, no game made, seat taken or socket
opened from another site's page, and the page's files compressed and cached under versioned
names."""

from __future__ import annotations

import asyncio
import gzip
import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import websockets

from exact61.server.security import CONTENT_SECURITY_POLICY, origin_allowed
from exact61.server.web import STATIC, asset_version
from tests.server.kit import Server, database_url, server_in_thread

pytestmark = pytest.mark.server

FRIEND = "https://friends.example"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder = tmp_path_factory.mktemp("security")
    db = database_url("sqlite", folder)
    with server_in_thread(db, folder, allowed_origins=(FRIEND,)) as running:
        yield running


def lobby_size(server: Server) -> int:
    return len(httpx.get(f"{server.url}/api/games").json()["games"])


def new_game(server: Server, origin: str | None) -> httpx.Response:
    headers = {} if origin is None else {"origin": origin}
    body = {"players": 2, "seats": ["human", "human"], "open": True}
    return httpx.post(f"{server.url}/api/games", json=body, headers=headers)


def test_every_answer_carries_the_security_headers(server: Server) -> None:
    """The page, its files, the API, errors and a refusal: each forbids framing, sniffing,
    referrers and script from anywhere but the server."""
    version = asset_version()
    answers = [
        httpx.get(f"{server.url}/"),
        httpx.get(f"{server.url}/g/abc"),
        httpx.get(f"{server.url}/replay"),
        httpx.get(f"{server.url}/v/{version}/js/main.js"),
        httpx.get(f"{server.url}/app.css"),
        httpx.get(f"{server.url}/api/games"),
        httpx.get(f"{server.url}/api/lang/pl"),
        httpx.get(f"{server.url}/no/such/page"),
        new_game(server, "http://evil.example"),
    ]
    assert [a.status_code for a in answers] == [200] * 7 + [404, 403]
    for answer in answers:
        headers = answer.headers
        assert headers["content-security-policy"] == CONTENT_SECURITY_POLICY, answer.url
        assert headers["x-content-type-options"] == "nosniff"
        assert headers["x-frame-options"] == "DENY"
        assert headers["referrer-policy"] == "no-referrer"
    policy = dict(p.strip().split(" ", 1) for p in CONTENT_SECURITY_POLICY.split(";"))
    assert policy["script-src"] == "'self'" and policy["frame-ancestors"] == "'none'"
    assert "unsafe" not in CONTENT_SECURITY_POLICY


def test_no_other_site_may_load_the_answers_and_a_refused_method_names_the_allowed(
    server: Server,
) -> None:
    """An answer read by another site's page without CORS (an `<img>`, a `<script>`, which
    Spectre-like attacks read from memory) is blocked by `Cross-Origin-Resource-Policy`; and
    the page uses no camera, microphone, location or payment, which the policy turns off for
    any script that got in. A method a path does not take is 405 with `Allow` (RFC 9110),
    which the server's own 405 answer had dropped."""
    for answer in (
        httpx.get(f"{server.url}/"),
        httpx.get(f"{server.url}/api/games"),
        httpx.get(f"{server.url}/no/such/page"),
    ):
        assert answer.headers["cross-origin-resource-policy"] == "same-origin", answer.url
        allowed = answer.headers["permissions-policy"]
        for feature in ("camera", "microphone", "geolocation", "payment"):
            assert f"{feature}=()" in allowed
    refused = httpx.delete(f"{server.url}/api/games")
    assert refused.status_code == 405 and refused.json()["error"] == "method_not_allowed"
    assert set(refused.headers["allow"].replace(" ", "").split(",")) >= {"GET", "POST"}
    refused = httpx.put(f"{server.url}/api/replays")
    assert refused.status_code == 405 and refused.headers["allow"] == "POST"
    refused = httpx.put(f"{server.url}/index.html")  # the page's files
    assert refused.status_code == 405 and refused.headers["allow"] == "GET, HEAD"


def test_the_page_has_no_inline_script_or_handler_for_the_policy_to_block() -> None:
    """`script-src 'self'` blocks inline script: the page loads its one module by name, and
    neither the page nor its script writes markup with handlers or style attributes."""
    page = (STATIC / "index.html").read_text()
    scripts = re.findall(r"<script\b[^>]*>(.*?)</script>", page, re.S)
    assert scripts == [""] and re.search(r'<script[^>]+src="/js/main\.js"', page)
    assert not re.search(r"\son[a-z]+=", page) and "style=" not in page
    for path in (STATIC / "js").glob("*.js"):
        text = path.read_text()
        assert "innerHTML" not in text and "eval(" not in text, path.name
        assert 'setAttribute("style"' not in text and "cssText" not in text, path.name


def test_another_sites_page_cannot_make_games_or_take_seats(server: Server) -> None:
    """A page elsewhere posting through a visitor's browser (which sends its `Origin`) is
    refused and changes nothing; the server's own page, an allowed site and clients that are
    not browsers (no `Origin`) are served."""
    before = lobby_size(server)
    for foreign in ("http://evil.example", "null", f"{server.url}.evil.example", "file://"):
        refused = new_game(server, foreign)
        assert refused.status_code == 403, foreign
        assert refused.json()["error"] == "foreign_origin"
        assert refused.text.startswith('{"error":"foreign_origin",')  # as the other errors
    assert lobby_size(server) == before
    for fine in (server.url, FRIEND, None):
        assert new_game(server, fine).status_code == 201, fine
    assert lobby_size(server) == before + 3
    game = new_game(server, None).json()["game"]
    seat = f"{server.url}/api/games/{game}/seats/1"
    assert httpx.post(seat, headers={"origin": "https://evil.example"}).status_code == 403
    assert httpx.post(seat, headers={"origin": server.url}).status_code == 201


def test_a_socket_from_another_sites_page_is_refused(server: Server) -> None:
    """The WebSocket handshake checks `Origin` as a POST does: a page elsewhere cannot watch
    or play through a visitor's browser."""
    game = new_game(server, None).json()["game"]

    async def opens(origin: str | None) -> bool:
        headers = {} if origin is None else {"Origin": origin}
        try:
            async with websockets.connect(server.ws(game), additional_headers=headers) as ws:
                await ws.send('{"type": "hello"}')
                return '"state"' in str(await asyncio.wait_for(ws.recv(), 10))
        except websockets.InvalidStatus as refused:
            assert refused.response.status_code == 403
            return False

    async def all_of() -> list[bool]:
        return [await opens(o) for o in ("http://evil.example", server.url, FRIEND, None)]

    assert asyncio.run(all_of()) == [False, True, True, True]


def test_origins_are_compared_as_browsers_send_them() -> None:
    allowed = frozenset({FRIEND})
    assert origin_allowed(None, "host:8061", allowed)
    assert origin_allowed("http://host:8061", "host:8061", allowed)
    assert origin_allowed("HTTPS://Friends.Example", "host:8061", allowed)
    assert not origin_allowed("http://host:8062", "host:8061", allowed)
    assert not origin_allowed("http://host", "host:8061", allowed)
    assert not origin_allowed("null", "host:8061", allowed)
    assert not origin_allowed("http://host:8061", None, allowed)


def test_the_pages_files_are_compressed_and_cached_under_versioned_names(server: Server) -> None:
    """The page names its files under /v/{digest}/ (kept a year, never asked again); the page
    and the plain names are checked on each use; text goes gzipped to browsers that take it."""
    page = httpx.get(f"{server.url}/g/abc")
    version = asset_version()
    assert re.fullmatch(r"[0-9a-f]{12}", version)
    assert f'src="/v/{version}/js/main.js"' in page.text
    assert f'href="/v/{version}/app.css"' in page.text
    assert page.headers["cache-control"] == "no-cache"
    versioned = httpx.get(f"{server.url}/v/{version}/js/table.js")
    assert versioned.headers["cache-control"] == "public, max-age=31536000, immutable"
    assert versioned.headers["content-encoding"] == "gzip"  # httpx asks for it and unpacks it
    assert versioned.text == (STATIC / "js" / "table.js").read_text()
    # modules import each other by relative names: they resolve under the same version
    assert httpx.get(f"{server.url}/v/{version}/js/net.js").status_code == 200
    plain = httpx.get(f"{server.url}/js/table.js")
    assert plain.headers["cache-control"] == "no-cache" and "etag" in plain.headers
    source = (STATIC / "js" / "table.js").read_bytes()
    with httpx.stream("GET", f"{server.url}/v/{version}/js/table.js") as answer:
        wire = b"".join(answer.iter_raw())
    assert gzip.decompress(wire) == source and len(wire) < len(source) / 3


def test_a_seat_number_thousands_of_digits_long_is_a_clear_422(server: Server) -> None:
    """A seat in a path is 0-3 (R2): anything else is `not_a_seat`, never a 500."""
    game = new_game(server, None).json()["game"]
    for seat in ("9" * 5000, "-1", "\u0661", "4"):  # \u0661: an Arabic-Indic one
        answer = httpx.post(f"{server.url}/api/games/{game}/seats/{seat}")
        assert answer.status_code in (404, 422), (seat[:5], answer.text)
        body: dict[str, Any] = answer.json()
        assert body["error"] in ("not_a_seat", "not_found")
    long = httpx.post(f"{server.url}/api/games/{game}/seats/{'9' * 5000}")
    assert long.status_code == 422 and long.json()["error"] == "not_a_seat"


def test_a_misspelt_field_is_named_in_the_answer(server: Server) -> None:
    """Fields a server does not know are allowed (the protocol), but a typo such as `clok` must
    not pass unseen: the answer names every field the server did not read."""
    body = {"players": 2, "seats": ["human", "human"], "clok": 60, "Lang": "pl", "clock": 30}
    answer = httpx.post(f"{server.url}/api/games", json=body)
    assert answer.status_code == 201 and answer.json()["ignored"] == ["Lang", "clok"]
    plain = httpx.post(f"{server.url}/api/games", json={"players": 2, "seats": ["human"] * 2})
    assert plain.status_code == 201 and "ignored" not in plain.json()
