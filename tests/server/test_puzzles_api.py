"""The puzzles' API: the shipped set served as data (no search), a puzzle as its seat sees it,
and an answer judged, a wrong one with the defence that refutes it."""

from __future__ import annotations

import datetime
import json

import httpx
from starlette.applications import Starlette

from exact61.learn.puzzles import action_from_json, is_solution, match_at, shipped
from exact61.server.puzzles import puzzle_routes


def client() -> httpx.AsyncClient:
    app = Starlette(routes=puzzle_routes())
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://test")


async def test_the_list_and_the_daily_puzzle() -> None:
    async with client() as web:
        listed = (await web.get("/api/puzzles")).json()
        day = (await web.get("/api/puzzles/daily", params={"date": "2026-12-05"})).json()
        bad = await web.get("/api/puzzles/daily", params={"date": "soon"})
    assert len(listed["puzzles"]) == len(shipped().puzzles)
    today = datetime.datetime.now(datetime.UTC).date()
    assert listed["daily"] == shipped().daily(today).id
    assert day["id"] == shipped().daily(datetime.date(2026, 12, 5)).id
    assert bad.status_code == 422


async def test_a_puzzle_shows_only_what_its_seat_may_know() -> None:
    puzzle = shipped().puzzles[3]
    async with client() as web:
        shown = (await web.get(f"/api/puzzles/{puzzle.id}")).json()
        missing = await web.get("/api/puzzles/none-0-0")
    match = match_at(shipped(), puzzle)
    assert shown["seat"] == puzzle.seat and shown["goal"] == puzzle.goal.value
    assert shown["hand"] == [[t.low, t.high] for t in match.hand(puzzle.seat)]
    assert "solution" not in shown and "refutations" not in shown
    hidden = {(t.low, t.high) for t in match.hand(1 - puzzle.seat)}
    assert not any(tuple(c["action"]["tile"]) in hidden for c in shown["choices"])
    assert len(shown["picture"]["tiles"]) == len(match.layout)
    assert missing.status_code == 404


async def test_answers_are_judged() -> None:
    puzzle = shipped().puzzles[0]
    verdicts = {}
    async with client() as web:
        shown = (await web.get(f"/api/puzzles/{puzzle.id}")).json()
        for choice in shown["choices"]:
            url = f"/api/puzzles/{puzzle.id}/answer"
            answer = await web.post(url, json={"action": choice["action"]})
            assert answer.status_code == 200
            body = answer.json()
            action = action_from_json({"seat": puzzle.seat, **choice["action"]})
            assert body["solved"] == is_solution(puzzle, action)
            if not body["solved"]:
                assert body["round_end"]["type"] == "round_end"  # the line ends the round
                assert all("picture" in step for step in body["refutation"])
            verdicts[body["solved"]] = body
        bad = await web.post(url, json={"action": {"type": "pass"}})
    assert set(verdicts) == {True, False}
    assert bad.status_code == 422 and bad.json()["error"] == "bad_answer"


async def test_the_rating_the_page_keeps_is_updated_by_glicko_2() -> None:
    """The page sends the rating it keeps with an answer; the server works out the new one as
    the terminal does (`learn.rating.rated`)."""
    from exact61.learn.rating import rated

    puzzle = shipped().puzzles[0]
    mine = {"rating": 1620.0, "deviation": 90.0, "volatility": 0.06}
    async with client() as web:
        shown = (await web.get(f"/api/puzzles/{puzzle.id}")).json()
        action = shown["choices"][0]["action"]
        url = f"/api/puzzles/{puzzle.id}/answer"
        body = (await web.post(url, json={"action": action, "rating": mine})).json()
        fresh = (await web.post(url, json={"action": action})).json()
        bad = await web.post(url, json={"action": action, "rating": {"rating": "high"}})
    expected = rated((1620.0, 90.0, 0.06), puzzle.level, body["solved"])
    assert tuple(body["rating"].values()) == expected
    assert tuple(fresh["rating"].values()) == rated(
        (1500.0, 350.0, 0.06), puzzle.level, fresh["solved"]
    )
    assert bad.status_code == 422


async def test_a_rating_the_server_answers_it_takes_back() -> None:
    """A volatility near 1 is in range, but a failed attempt took it past 1, and the page's next
    answer with that rating was refused: the server refuses it at once instead."""
    puzzle = shipped().puzzles[0]
    url = f"/api/puzzles/{puzzle.id}/answer"
    edge = {"rating": 1500, "deviation": 350, "volatility": 0.999999}
    refused = 0
    async with client() as web:
        for choice in (await web.get(f"/api/puzzles/{puzzle.id}")).json()["choices"]:
            answer = await web.post(url, json={"action": choice["action"], "rating": edge})
            if answer.status_code == 422:
                refused += 1
                assert answer.json()["message"].startswith("a rating is "), answer.text
                continue
            kept = answer.json()["rating"]
            again = await web.post(url, json={"action": choice["action"], "rating": kept})
            assert again.status_code == 200, (kept, again.text)
    assert refused  # a failed attempt at a level-1 puzzle takes this volatility to 1.02


async def test_odd_ratings_and_actions_get_a_one_line_422() -> None:
    """The rating an answer carries is the page's, so anyone's: a whole number too large for
    a float (a few thousand digits fit in an answer) failed the server with a traceback, a
    deviation of 1e-300 came back as "math domain error", and an action of the wrong shape as
    pydantic's report over several lines with a link to its site."""
    puzzle = shipped().puzzles[0]
    url = f"/api/puzzles/{puzzle.id}/answer"
    async with client() as web:
        action = (await web.get(f"/api/puzzles/{puzzle.id}")).json()["choices"][0]["action"]
        for rating in (
            "9" * 3900,
            '"1e400"',
            '"nan"',
            '1500, "deviation": 1e-300, "volatility": 1e-300',
            'true, "deviation": true, "volatility": 0.06',
        ):
            if not rating.endswith("0.06") and "deviation" not in rating:
                rating += ', "deviation": 90, "volatility": 0.06'
            body = f'{{"action": {json.dumps(action)}, "rating": {{"rating": {rating}}}}}'
            answer = await web.post(url, content=body)
            assert answer.status_code == 422, (rating[:40], answer.text)
            message = answer.json()["message"]
            assert message.startswith("a rating is "), message
        for odd in (
            {"type": "play", "tile": "x"},
            {"type": "zzz"},
            {"type": "play", "tile": [1e9]},
        ):
            answer = await web.post(url, json={"action": odd})
            assert answer.status_code == 422
            message = answer.json()["message"]
            assert message.startswith("not an action: ") and "\n" not in message, message
            assert "pydantic" not in message
