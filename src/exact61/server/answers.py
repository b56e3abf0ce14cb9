"""How the HTTP endpoints refuse a request: one JSON body for every refusal."""

from __future__ import annotations

from starlette.responses import JSONResponse


def error_response(
    status: int, code: str, message: str, headers: dict[str, str] | None = None
) -> JSONResponse:
    """An HTTP answer that refuses a request: `{"error": code, "message": message}` (the
    protocol's error codes, docs/formats/online-protocol.md) with `status`."""
    return JSONResponse({"error": code, "message": message}, status_code=status, headers=headers)
