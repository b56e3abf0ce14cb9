"""What a browser is told and what it may ask: security headers on every page, and no
state-changing request or WebSocket handshake from another site.

A browser sends `Origin` with every cross-site `POST` and every WebSocket handshake, so a page
on another site that tries to make games, take seats or play through a visitor's browser is
refused here (HTTP 403 `foreign_origin`, or the handshake refused). Clients that are not
browsers send no `Origin` and are not affected. The server's own origin is the one the request
names in `Host` (behind a proxy: the proxy passes the `Host` the browser used); others are
allowed only when configured (`exact61 serve --allow-origin`).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from urllib.parse import urlsplit

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Message, Receive, Scope, Send

# The page loads its script, styles and pictures from the server only and talks to it alone;
# no inline script or style element, no plugin, no frame around it, no form to elsewhere.
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
PERMISSIONS_POLICY = "camera=(), microphone=(), geolocation=(), payment=(), usb=()"
SECURITY_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),  # frame-ancestors for browsers without CSP level 2
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-opener-policy", b"same-origin"),
    # no other site's page may load an answer without CORS (an <img>, a <script>), whose bytes
    # Spectre-like attacks read from its process's memory
    (b"cross-origin-resource-policy", b"same-origin"),
    # what the page never uses, off for any script that got in (it copies links: clipboard stays)
    (b"permissions-policy", PERMISSIONS_POLICY.encode()),
)
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


def origin_allowed(origin: str | None, host: str | None, allowed: frozenset[str]) -> bool:
    """Whether a request with this `Origin` header may change state: none (not a browser), the
    server's own (its host and port are the request's `Host`), or one configured as allowed."""
    if origin is None:
        return True
    origin = origin.strip().lower()
    if origin in allowed:
        return True
    parts = urlsplit(origin)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        return False  # "null" (a sandboxed frame, a file) and anything that is not a site
    return host is not None and parts.netloc == host.strip().lower()


def normal_origins(origins: Iterable[str]) -> frozenset[str]:
    """Configured origins as browsers send them: `scheme://host[:port]`, lower case, no path.
    ValueError names the first that is not one."""
    out = set()
    for origin in origins:
        parts = urlsplit(origin.strip().lower())
        if parts.scheme not in ("http", "https") or not parts.netloc or parts.path not in ("", "/"):
            raise ValueError(f"not an origin (scheme://host[:port]): {origin!r}")
        out.add(f"{parts.scheme}://{parts.netloc}")
    return frozenset(out)


class BrowserGuard:
    """ASGI middleware: the security headers on every HTTP response, and foreign origins
    refused for requests that change state and for WebSocket handshakes."""

    def __init__(self, app: ASGIApp, *, allowed_origins: Iterable[str] = ()) -> None:
        self.app = app
        self.allowed = normal_origins(allowed_origins)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        checked = scope["type"] == "websocket" or scope["method"] not in SAFE_METHODS
        if checked and not origin_allowed(headers.get("origin"), headers.get("host"), self.allowed):
            await self._refuse(scope, send)
            return
        if scope["type"] == "websocket":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), *SECURITY_HEADERS]}
            await send(message)

        await self.app(scope, receive, send_with_headers)

    @staticmethod
    async def _refuse(scope: Scope, send: Send) -> None:
        """403 `foreign_origin` (for a WebSocket: the handshake refused with that answer)."""
        body = json.dumps(
            {"error": "foreign_origin", "message": "requests from another site are refused"},
            separators=(",", ":"),  # as every other error's body (Starlette's JSONResponse)
        ).encode()
        prefix = "" if scope["type"] == "http" else "websocket."
        if prefix and "websocket.http.response" not in scope.get("extensions", {}):
            await send({"type": "websocket.close", "code": 1008})  # the server answers 403
            return
        headers = [(b"content-type", b"application/json"), *SECURITY_HEADERS]
        await send({"type": f"{prefix}http.response.start", "status": 403, "headers": headers})
        await send({"type": f"{prefix}http.response.body", "body": body})
