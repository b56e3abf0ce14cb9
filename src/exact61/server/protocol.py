"""The online protocol `exact61-online/1` (docs/formats/online-protocol.md): the shapes of
requests and frames, checked by pydantic, and actions written as the match-record format writes
them. Pure: no I/O."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictInt,
    StrictStr,
    TypeAdapter,
    ValidationError,
)

from exact61.bots import check_bot_spec, file_of
from exact61.i18n import LANGUAGES
from exact61.table import check_name

PROTOCOL = "exact61-online/1"
MAX_FRAME = 16 * 1024  # bytes: the largest frame a client may send
MIN_CLOCK, MAX_CLOCK = 10, 3600  # seconds a turn clock may give a person for a move
DEFAULT_STAND_IN = "heuristic"  # the bot that plays for a person whose time ran out
MAX_GAME_NAME = 60  # characters in a game's name, which the lobby shows


class GameError(Exception):
    """A request the game refuses: `code` is the protocol's error code."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class _Strict(BaseModel):
    model_config = ConfigDict(strict=True, extra="ignore", frozen=True)


def check_seat_kind(kind: str) -> str:
    """`human` or `bot:NAME` (NAME as `exact61 play --seats` takes it); canonical spelling."""
    if kind == "human":
        return kind
    prefix, _, name = kind.partition(":")
    if prefix != "bot" or not name:
        raise ValueError(f"a seat is 'human' or 'bot:NAME', not {kind!r}")
    return "bot:" + server_bot(name)


def server_bot(spec: str) -> str:
    """A bot a client may ask the server for, canonical: any of the project's own, never one
    played from a file (`learned:FILE`), which would have the server open a path a client
    names. ValueError names what is wrong."""
    if file_of(spec) is not None:
        raise ValueError("a game on a server takes the project's bots, not a policy file")
    return check_bot_spec(spec, files=False)


NameJSON = Annotated[StrictStr, Field(max_length=200)]  # checked further by table.check_name


class CreateGame(_Strict):
    """`POST /api/games`. `open` (an extension) lists the game in the lobby, where anyone may
    take a human seat nobody has used yet."""

    players: Literal[2, 3, 4]
    seats: list[StrictStr]
    lang: Literal["en", "de", "pl", "ru"] = "en"
    open: bool = False
    name: NameJSON = ""  # the game's, in the lobby (`checked_name`), blank for none
    mine: Annotated[StrictInt, Field(ge=0, le=3)] | None = None  # the maker's seat, in open games
    # each seat's person's display name (`table.check_name`), null for bots and the unnamed
    names: Annotated[list[NameJSON | None], Field(max_length=4)] | None = None
    # the turn clock: seconds a person has for each move, then `stand_in` plays for them
    clock: Annotated[StrictInt, Field(ge=MIN_CLOCK, le=MAX_CLOCK)] | None = None
    stand_in: Annotated[StrictStr, Field(max_length=40)] = DEFAULT_STAND_IN
    # the Learn page's guided match (`exact61.learn.guided`): its seats, its seed, its rounds
    guided: bool = False

    def checked_seats(self) -> list[str]:
        if len(self.seats) != self.players:
            raise ValueError(
                f"{self.players} players need {self.players} seats, not {len(self.seats)}"
            )
        return [check_seat_kind(kind) for kind in self.seats]

    def checked_name(self) -> str:
        """The game's name as kept: a person's name's rules (`check_name`: NFC, trimmed, one
        line of plain text, no control or format character), `MAX_GAME_NAME` characters at
        most; blank is none (""). ValueError says what is wrong."""
        if not self.name.strip():
            return ""
        try:
            return check_name(self.name, MAX_GAME_NAME)
        except ValueError as err:
            raise ValueError(f"name: {err}") from None

    def checked_names(self) -> list[str | None] | None:
        """The seats' names as kept (`check_name`); ValueError names the first bad one."""
        if self.names is None:
            return None
        if len(self.names) != self.players:
            raise ValueError(f"names: one per seat ({self.players}), not {len(self.names)}")
        out: list[str | None] = []
        for seat, (kind, name) in enumerate(zip(self.seats, self.names, strict=True)):
            if name is not None and kind != "human":
                raise ValueError(f"names: seat {seat} is a bot's; it has no name")
            try:
                out.append(None if name is None else check_name(name))
            except ValueError as err:
                raise ValueError(f"names: seat {seat}: {err}") from None
        return out

    def checked_stand_in(self) -> str:
        """The stand-in bot's name, canonical (ValueError names a bot nobody has)."""
        return server_bot(self.stand_in.removeprefix("bot:"))  # as a seat names it, too


class TakeSeat(_Strict):
    """`POST /api/games/{game}/seats/{seat}`: the body is optional; `name` is the person's."""

    name: NameJSON | None = None


assert set(LANGUAGES) == {"en", "de", "pl", "ru"}  # CreateGame.lang lists them


TileJSON = Annotated[list[StrictInt], Field(min_length=2, max_length=2)]
PointJSON = Annotated[list[Any], Field(min_length=2, max_length=2)]


class ActionJSON(_Strict):
    type: Literal["play", "draw", "pass"]
    tile: TileJSON | None = None
    at: PointJSON | None = None


class Hello(_Strict):
    type: Literal["hello"]
    token: Annotated[StrictStr, Field(max_length=200)] | None = None
    since: Annotated[StrictInt, Field(ge=0)] | None = None


class Act(_Strict):
    type: Literal["act"]
    seq: Annotated[StrictInt, Field(ge=0)]
    action: ActionJSON


class HintAsk(_Strict):
    """An extension: the seat to act asks for the strongest bot's move; the answer says why,
    in `lang` (else the game's language)."""

    type: Literal["hint"]
    seq: Annotated[StrictInt, Field(ge=0)]
    lang: Literal["en", "de", "pl", "ru"] | None = None


class Ping(_Strict):
    type: Literal["ping"]


class RematchAsk(_Strict):
    """An extension: a seat asks for the next game with the same seats, once the match is over."""

    type: Literal["rematch"]


class Back(_Strict):
    """An extension: a seat's person is back; the stand-in stops playing for them."""

    type: Literal["back"]


class SeatName(_Strict):
    """An extension: a seat's person gives their seat a display name, or changes it
    (`table.check_name`), while the match is in play."""

    type: Literal["name"]
    name: NameJSON


Frames = Hello | Act | HintAsk | Ping | RematchAsk | Back | SeatName
ClientFrame = Annotated[Frames, Field(discriminator="type")]
CLIENT_FRAME: TypeAdapter[Frames] = TypeAdapter(ClientFrame)


# ---- actions as JSON ---------------------------------------------------------------------


def error_frame(code: str, message: str) -> dict[str, Any]:
    return {"type": "error", "code": code, "message": message}


def first_error(err: ValidationError) -> str:
    """A validation error's first complaint in one line: where, and what."""
    first = err.errors(include_url=False)[0]
    where = ".".join(str(p) for p in first.get("loc", ())) or "body"
    return f"{where}: {first.get('msg', 'invalid')}"
