"""The Puzzles page in a real browser (Chromium, as `test_browser`): the daily puzzle drawn
and answered wrongly (the refuting defence shown), then three puzzles solved in a row, the
streak kept in the browser's storage across a reload; axe-core finds nothing serious, at phone
and desktop size."""

from __future__ import annotations

import datetime
from typing import Any

import httpx
import pytest

from exact61.learn.puzzles import action_from_json, daily_date, is_solution, shipped
from tests.server.kit import Server
from tests.web.test_browser import (  # noqa: F401  (fixtures)
    BRACKETED,
    DESKTOP_800,
    PHONE,
    PHONE_390,
    axe_problems,
    browser,
    new_page,
    server,
    settled_paint,
    wait_true,
)

pytestmark = [pytest.mark.server, pytest.mark.browser]


def choice_index(page: Any, right: bool) -> int:
    """The index of a right (or a wrong) choice of the puzzle on the page."""
    shown = page.evaluate("window.exact61.view.puzzle")
    puzzle = shipped().by_id(shown["id"])
    for i, choice in enumerate(shown["choices"]):
        action = action_from_json({"seat": puzzle.seat, **choice["action"]})
        if is_solution(puzzle, action) == right:
            return i
    raise AssertionError("no such choice")


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_puzzle_page(browser: Any, server: Server, size: str) -> None:  # noqa: F811
    errors: list[str] = []
    page = new_page(browser, errors, **(PHONE_390 if size == "phone" else DESKTOP_800))
    page.goto(server.url + "/")
    page.get_by_role("link", name="Solve it").click()
    page.wait_for_selector("main h1")
    wait_true(page, "window.exact61.view.puzzle")
    settled_paint(page)
    assert page.locator(".board svg.layout g, .board svg.layout rect").count() > 0
    problems = {"puzzle": axe_problems(page)}
    page.locator("button.choice").nth(choice_index(page, right=False)).click()
    page.wait_for_selector(".verdict.wrong")
    assert "The move that reaches the goal" in page.locator(".verdict").inner_text()
    problems["verdict"] = axe_problems(page)
    assert "Streak: 0" in page.locator(".streak").inner_text()
    ids = set()
    for k in range(3):
        page.get_by_role("button", name="Next puzzle").click()
        wait_true(page, "window.exact61.view.puzzle && !window.exact61.view.verdict")
        ids.add(page.evaluate("window.exact61.view.puzzle.id"))
        page.locator("button.choice").nth(choice_index(page, right=True)).click()
        page.wait_for_selector(".verdict.right")
        assert f"Streak: {k + 1}" in page.locator(".streak").inner_text()
    assert "Puzzle rating: 1500" not in page.locator(".streak").inner_text()  # it moved
    assert len(ids) == 3
    page.reload()
    wait_true(page, "window.exact61.view.puzzle")
    assert "Streak: 3" in page.locator(".streak").inner_text()
    assert not any(problems.values()), problems
    assert not errors, errors


# In view: a box inside the layout's frame.
IN_FRAME = """(mark) => { const b = mark.getBoundingClientRect();
  const f = document.querySelector('.board-scroll').getBoundingClientRect();
  return b.left >= f.left && b.right <= f.right && b.top >= f.top && b.bottom <= f.bottom; }"""


def test_the_places_the_moves_go_are_ringed_and_in_view_on_a_phone(
    browser: Any,  # noqa: F811
    server: Server,  # noqa: F811
) -> None:
    """On a 360-px phone a puzzle's layout is wider and taller than its frame: the place a move
    names ("at [1|2] high end") is ringed, and the frame is scrolled to it (a trial found the
    places of 35 of the first 40 puzzles out of sight)."""
    errors: list[str] = []
    page = new_page(browser, errors, **PHONE)
    listed = httpx.get(f"{server.url}/api/puzzles").json()["puzzles"]
    for puzzle in listed[:8]:
        page.goto(f"{server.url}/puzzles?id={puzzle['id']}")
        wait_true(page, "!!window.exact61.view.puzzle && !!document.querySelector('svg.layout g')")
        settled_paint(page)
        places = {
            "-".join(map(str, (*c["action"]["at"][0], c["action"]["at"][1])))
            for c in page.evaluate("window.exact61.view.puzzle.choices")
        }
        ringed = page.locator("svg.layout .point.move-place")
        assert {ringed.nth(i).get_attribute("data-point") for i in range(ringed.count())} == places
        seen = [ringed.nth(i).evaluate(IN_FRAME) for i in range(ringed.count())]
        assert any(seen), (puzzle["id"], seen)
    assert not errors, errors
    page.context.close()


@pytest.mark.parametrize("zone", ["Pacific/Kiritimati", "Pacific/Honolulu"])
def test_the_daily_puzzle_is_the_utc_dates_in_any_time_zone(
    browser: Any,  # noqa: F811
    server: Server,  # noqa: F811
    zone: str,
) -> None:
    """The page asks for the puzzle of today's UTC date, as the server (`GET /api/puzzles`'s
    `daily`) and `exact61 puzzle --daily` take it, in a browser 14 hours ahead of UTC or 10
    behind (for most of a day the local date is another)."""
    errors: list[str] = []
    page = new_page(browser, errors, timezone_id=zone, **DESKTOP_800)
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if "/api/puzzles/daily" in r.url else None)
    page.goto(server.url + "/puzzles")
    wait_true(page, "window.exact61.view.puzzle")
    utc = datetime.datetime.now(datetime.UTC).date()
    assert (asked and asked[0].endswith(f"date={utc.isoformat()}")) or utc != daily_date()
    assert page.evaluate("window.exact61.view.puzzle.id") == shipped().daily(daily_date()).id
    assert not errors, errors
    page.context.close()


# the board's next redraw (its svg's attributes written again), set as `window.redrawn`
REDRAW_WATCHED = """(() => {
    window.redrawn = false;
    const seen = new MutationObserver(() => { window.redrawn = true; seen.disconnect(); });
    seen.observe(document.querySelector('svg.layout'), { attributes: true, childList: true });
})()"""


def test_the_places_stay_in_view_when_the_phone_turns(
    browser: Any,  # noqa: F811
    server: Server,  # noqa: F811
) -> None:
    """A phone turned on its side and back (a window's resize) redraws the layout at another
    scale: the ringed places are brought into view again, not left where the old scale's
    scroll puts them (CI, under load, drew a puzzle before the page's first resize and lost
    them so)."""
    errors: list[str] = []
    page = new_page(browser, errors, **PHONE)
    listed = httpx.get(f"{server.url}/api/puzzles").json()["puzzles"]
    for puzzle in listed[:8]:
        page.set_viewport_size({"width": 360, "height": 740})
        page.goto(f"{server.url}/puzzles?id={puzzle['id']}")
        wait_true(page, "!!window.exact61.view.puzzle && !!document.querySelector('svg.layout g')")
        for size in ({"width": 740, "height": 360}, {"width": 360, "height": 740}):
            page.evaluate(REDRAW_WATCHED)
            page.set_viewport_size(size)
            wait_true(page, "window.redrawn")  # 100 ms after the last resize, or later
            settled_paint(page)
            ringed = page.locator("svg.layout .point.move-place")
            seen = [ringed.nth(i).evaluate(IN_FRAME) for i in range(ringed.count())]
            assert any(seen), (puzzle["id"], size, seen)
    assert not errors, errors
    page.context.close()


def test_a_refutation_names_its_tiles_as_its_boards_draw_them(
    browser: Any,  # noqa: F811
    server: Server,  # noqa: F811
) -> None:
    """A refutation's moves named the tiles they place low first, and a place on such a tile
    as well (`[2|5] high end`), where the board, the log and the hint name a placed tile as
    the board draws it (`[5|2]`): each move of the line now names its tile and the tile it
    joins as the board after it draws them (each step's `picture`). In this puzzle's first
    wrong answer the defence places tiles that lie turned."""
    errors: list[str] = []
    page = new_page(browser, errors, **DESKTOP_800)
    page.goto(server.url + "/puzzles?id=s59-0-32")
    wait_true(page, "window.exact61.view.puzzle")
    page.locator("button.choice").nth(choice_index(page, right=False)).click()
    page.wait_for_selector(".verdict.wrong")
    steps = page.evaluate("window.exact61.view.verdict.refutation")
    want = []
    for step in steps:
        names = {tuple(t["tile"]): t["name"] for t in step["picture"]["tiles"]}
        tiles = [] if step["type"] == "pass" else [step["tile"], *(step["at"] or [])[:1]]
        want.append([names[tuple(t)] for t in tiles])
    lines = page.locator(".verdict ol li").all_inner_texts()
    assert [BRACKETED.findall(line) for line in lines] == want, lines
    assert any(n[1] > n[3] for names in want for n in names), want  # a tile lying turned
    assert not errors, errors
