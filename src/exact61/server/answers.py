"""How the HTTP endpoints refuse a request (one JSON body for every refusal), and how they read
a request's body (`read_body`: bounded in size and in time, the same for every endpoint)."""

from __future__ import annotations

import asyncio

from starlette.requests import Request
from starlette.responses import JSONResponse

# Seconds a client has to send a request's body once its head is in: the head's own deadline
# (`run.Connections.head_seconds`) ends where the body begins, and a body trickled in a byte at
# a time would hold its connection for ever. The largest body (a record for the replay viewer,
# 4 MiB) comes whole within it over a link of a megabit and a bit; the others are 64 KiB at most.
BODY_SECONDS = 30.0


class BodyError(Exception):
    """A body the endpoint does not read to its end: `status`, `code` and `message` are the
    refusal's (`error_response`)."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message

    def response(self) -> JSONResponse:
        # 408 leaves the rest of the body unread: the connection cannot serve another request
        headers = {"connection": "close"} if self.status == 408 else None
        return error_response(self.status, self.code, self.message, headers)


def error_response(
    status: int, code: str, message: str, headers: dict[str, str] | None = None
) -> JSONResponse:
    """An HTTP answer that refuses a request: `{"error": code, "message": message}` (the
    protocol's error codes, docs/formats/online-protocol.md) with `status`."""
    return JSONResponse({"error": code, "message": message}, status_code=status, headers=headers)


async def read_body(request: Request, most: int, what: str = "a request body") -> bytes:
    """The request's body, `most` bytes at most (BodyError 413 `too_large` for a longer one:
    at once for a longer declared length, else as soon as it passes `most`, never held whole),
    whole within `BODY_SECONDS` (BodyError 408 `too_slow`). A client that goes away meanwhile
    raises starlette's ClientDisconnect (the app answers it with nothing, `app._gone`)."""
    too_large = BodyError(413, "too_large", f"{what} is at most {most} bytes")
    declared = request.headers.get("content-length")
    if declared is not None and not (
        declared.isascii()
        and declared.isdecimal()
        and len(declared) <= 20
        and int(declared) <= most
    ):
        raise too_large
    body = bytearray()
    try:
        async with asyncio.timeout(BODY_SECONDS):
            async for chunk in request.stream():
                body += chunk
                if len(body) > most:
                    raise too_large
    except TimeoutError:
        raise BodyError(
            408, "too_slow", f"{what} must come whole within {BODY_SECONDS:g} s"
        ) from None
    return bytes(body)
