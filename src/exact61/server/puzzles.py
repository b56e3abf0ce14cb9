"""The puzzles on the server: the shipped set (`exact61.learn.puzzles`) served as data, no search
(every puzzle is proved when the set is made). What a puzzle's seat may know is sent; the
solution and the refutations only once an answer is given.

- `GET /api/puzzles`: every puzzle's `id`, `level` and `goal`, and `daily`, the id of the
  puzzle of the day (UTC).
- `GET /api/puzzles/daily?date=YYYY-MM-DD` (default: today, UTC) and `GET /api/puzzles/{id}`:
  the puzzle as its seat sees it: `id`, `level`, `goal`, `seat`, `scores` (raw, by side),
  `hand`, `hand_sizes`, `layout` (the placements, in order), `picture` (the layout's drawing,
  `render.geometry.picture_json`) and `choices` (one action for each distinct move, in the
  record's form, with the `credit` it scores).
- `POST /api/puzzles/{id}/answer` with `{"action": ...}` (one of the choices) and optionally
  the learner's `rating` (`{"rating", "deviation", "volatility"}`, Glicko-2, as the page keeps
  it): `solved`, the `solution`, the `rating` after the attempt (`learn.rating.rated`), and for
  a wrong answer the `refutation`: the defence's actions to the round's end, each with the
  layout's `picture` after it, and how the round ended (`round_end`).
"""

from __future__ import annotations

import datetime
import json
from typing import Any

from pydantic import ValidationError
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from exact61.core import Match, Play, RuleError
from exact61.core.engine import choices
from exact61.core.records import action_json, tile_json
from exact61.learn.puzzles import (
    Puzzle,
    action_from_json,
    daily_date,
    is_solution,
    match_at,
    refutation_of,
    shipped,
)
from exact61.learn.rating import START, in_range, learner_rating, rated
from exact61.render.geometry import picture_json
from exact61.server.answers import BodyError, error_response, read_body
from exact61.server.frames import layout_json, round_end_json
from exact61.server.protocol import first_error

MAX_ANSWER = 4096  # bytes: an answer is one action


def puzzle_json(puzzle: Puzzle) -> dict[str, Any]:
    """The puzzle as its seat may see it (no other hand, no solution)."""
    match = match_at(shipped(), puzzle)
    view = match.view(puzzle.seat)
    return {
        "id": puzzle.id,
        "level": puzzle.level,
        "goal": puzzle.goal.value,
        "seat": puzzle.seat,
        "scores": list(match.scores),
        "hand": [tile_json(t) for t in view.hand],
        "hand_sizes": list(view.hand_sizes),
        "layout": layout_json(view.layout),
        "picture": picture_json(view.layout),
        "choices": [
            {"action": action_json(a), "credit": match.credit_of(a)}
            for a in choices(view.legal_actions).values()
        ],
    }


def answer_json(puzzle: Puzzle, data: object) -> dict[str, Any]:
    """The verdict on an answer (`{"action": ...}`); ValueError for one that is not a choice."""
    if not isinstance(data, dict) or not isinstance(data.get("action"), dict):
        raise ValueError('an answer is {"action": ...}')
    match = match_at(shipped(), puzzle)
    try:
        chosen = action_from_json({"seat": puzzle.seat, **data["action"]})
    except ValidationError as err:  # its own report is many lines, with a link to its site
        raise ValueError(f"not an action: {first_error(err)}") from None
    except (RuleError, ValueError) as err:
        raise ValueError(f"not an action: {err}") from None
    if chosen not in match.legal_actions():
        raise ValueError("not one of the puzzle's choices")
    out: dict[str, Any] = {"solved": is_solution(puzzle, chosen), "solution": puzzle.solution}
    out["rating"] = _rating_after(data.get("rating"), puzzle.level, out["solved"])
    if not out["solved"]:
        out["refutation"] = _line(match, chosen, refutation_of(puzzle, chosen) or [])
        end = match.rounds[-1].end
        if end is not None:
            out["round_end"] = round_end_json(len(match.rounds) - 1, end, match.rounds[-1], 2)
        out["scores"] = list(match.scores)
    return out


def _rating_after(given: object, level: int, solved: bool) -> dict[str, float]:
    """The learner's Glicko-2 rating after the attempt (`learn.rating.rated`), from the one the
    page keeps (`{"rating", "deviation", "volatility"}`, `learn.rating.learner_rating`; a new
    learner's without it)."""
    learner = START
    if isinstance(given, dict):
        learner = learner_rating([given.get(k) for k in ("rating", "deviation", "volatility")])
    out_of_range = "a rating is {rating, deviation, volatility} in range"
    try:  # a deviation or volatility near nought takes the formulas to log(0)
        rating, deviation, volatility = rated(learner, level, solved)
    except (ArithmeticError, ValueError):
        raise ValueError(out_of_range) from None
    # What the server answers it takes back: a rating taken to the edge of the range (a
    # volatility near 1, which no learner's attempts make) is refused, not answered with one
    # the page would then be refused with at its next attempt.
    if not in_range(rating, deviation, volatility):
        raise ValueError(out_of_range)
    return {"rating": rating, "deviation": deviation, "volatility": volatility}


def _line(match: Match, chosen: Any, line: list[dict[str, Any]]) -> list[dict[str, Any]]:
    match.apply(chosen)
    steps = []
    for data in line:
        action = action_from_json(data)
        credit = match.credit_of(action) if isinstance(action, Play) else 0
        match.apply(action)
        steps.append({**data, "credit": credit, "picture": picture_json(match.layout)})
    return steps


def _find(puzzle_id: str) -> Puzzle | None:
    try:
        return shipped().by_id(puzzle_id)
    except KeyError:
        return None


async def _list(request: Request) -> Response:
    puzzles = shipped()
    today = daily_date()
    return JSONResponse(
        {
            "puzzles": [
                {"id": p.id, "level": p.level, "goal": p.goal.value} for p in puzzles.puzzles
            ],
            "daily": puzzles.daily(today).id,
        }
    )


async def _daily(request: Request) -> Response:
    text = request.query_params.get("date")
    try:
        day = datetime.date.fromisoformat(text) if text else daily_date()
    except ValueError:
        return error_response(422, "bad_date", "date is YYYY-MM-DD")
    return JSONResponse(puzzle_json(shipped().daily(day)))


async def _one(request: Request) -> Response:
    puzzle = _find(request.path_params["puzzle"])
    if puzzle is None:
        return error_response(404, "not_found", "no such puzzle")
    return JSONResponse(puzzle_json(puzzle))


async def _answer(request: Request) -> Response:
    puzzle = _find(request.path_params["puzzle"])
    if puzzle is None:
        return error_response(404, "not_found", "no such puzzle")
    try:
        body = await read_body(request, MAX_ANSWER, "an answer")
    except BodyError as err:
        return err.response()
    try:
        return JSONResponse(answer_json(puzzle, json.loads(body)))
    except (ValueError, RecursionError) as err:
        return error_response(422, "bad_answer", str(err))


def puzzle_routes() -> list[BaseRoute]:
    """The puzzles' API (see the module's docstring)."""
    return [
        Route("/api/puzzles", _list, methods=["GET"]),
        Route("/api/puzzles/daily", _daily, methods=["GET"]),
        Route("/api/puzzles/{puzzle}", _one, methods=["GET"]),
        Route("/api/puzzles/{puzzle}/answer", _answer, methods=["POST"]),
    ]
