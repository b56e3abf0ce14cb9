"""The pure rules core of Exact 61 Five Up: no I/O, no clock, no global random state.

`engine` decides every rule on a round's compact state; `Match` plays whole matches through it;
`SeatView` is what one seat may know; `records` reads and writes match records.
"""

from exact61.core.actions import DRAW, PASS, Action, Draw, Pass, Play
from exact61.core.deal import HAND_SIZE, PLAYER_COUNTS, Deal, draw_lot, random_deal, round_chance
from exact61.core.engine import Position, credit_for
from exact61.core.errors import (
    Exact61Error,
    IllegalMoveError,
    RecordError,
    RecordFormatError,
    ReplayError,
    RuleError,
)
from exact61.core.layout import Layout
from exact61.core.log import RoundEnd, RoundLog, Step
from exact61.core.match import Match, Phase
from exact61.core.points import ALL_POINTS, AttachPoint, TileEnd, free_end
from exact61.core.records import FORMAT, MatchRecord, dumps, match_to_record, parse_record, replay
from exact61.core.settlement import (
    TARGET_RAW,
    BlockEvent,
    DominoEvent,
    Event,
    PlayEvent,
    block_credits,
    block_winner,
    display,
    domino_parts,
    round5,
    side_count,
    side_of,
)
from exact61.core.tiles import ALL_TILES, Tile, pip_sum, tile_from
from exact61.core.views import PublicHistory, PublicStep, SeatView

__all__ = [
    "ALL_POINTS",
    "ALL_TILES",
    "DRAW",
    "FORMAT",
    "HAND_SIZE",
    "PASS",
    "PLAYER_COUNTS",
    "TARGET_RAW",
    "Action",
    "AttachPoint",
    "BlockEvent",
    "Deal",
    "DominoEvent",
    "Draw",
    "Event",
    "Exact61Error",
    "IllegalMoveError",
    "Layout",
    "Match",
    "MatchRecord",
    "Pass",
    "Phase",
    "Play",
    "PlayEvent",
    "Position",
    "PublicHistory",
    "PublicStep",
    "RecordError",
    "RecordFormatError",
    "ReplayError",
    "RoundEnd",
    "RoundLog",
    "RuleError",
    "SeatView",
    "Step",
    "Tile",
    "TileEnd",
    "block_credits",
    "block_winner",
    "credit_for",
    "display",
    "domino_parts",
    "draw_lot",
    "dumps",
    "free_end",
    "match_to_record",
    "parse_record",
    "pip_sum",
    "random_deal",
    "replay",
    "round5",
    "round_chance",
    "side_count",
    "side_of",
    "tile_from",
]
