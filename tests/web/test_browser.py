"""The web page in a real browser: Playwright driving Debian's Chromium (/usr/bin/chromium, or
EXACT61_CHROMIUM) against `exact61 serve` on a loopback port.

People play whole matches through the page as a person would (clicks, taps, the keyboard),
on desktop and phone viewports, in English and Polish, with a reload and a dropped connection in
the middle; the records they download verify. The layout picture of every documented position
is checked in the DOM. Screenshots of the table, the settlement panel and the end screen go to
EXACT61_WEB_ARTIFACTS (default: a temporary folder); with EXACT61_DOCS_SCREENSHOTS=1 the table
shots also go to docs/ for the README and the docs site.

Without Chromium or the playwright package these tests skip; with CI=true they fail instead.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import shutil
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest

from exact61 import match_to_record, replay
from exact61.core import Layout, Play
from exact61.render.geometry import picture_json, tile_names
from tests.helpers import played_match
from tests.render.test_picture import layout_of
from tests.server.kit import IN_CI, Server, database_url, play_game, server_in_thread
from tests.web.chromium import FLAGS

pytestmark = [pytest.mark.server, pytest.mark.browser]

CHROMIUM = Path(os.environ.get("EXACT61_CHROMIUM", "/usr/bin/chromium"))
DOCS = Path(__file__).parents[2] / "docs"
PHONE = {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True}
DESKTOP = {"viewport": {"width": 1280, "height": 860}}


def _missing(message: str) -> None:
    if IN_CI:
        pytest.fail(message + " (CI=true: the browser tests must run)")
    pytest.skip(message)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _missing("the playwright package is not installed")
    if not CHROMIUM.exists():
        _missing(f"no Chromium at {CHROMIUM} (apt-get install chromium)")
    with sync_playwright() as playwright:
        # launch() gives the browser a fresh profile of its own, removed when it closes
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=FLAGS)
        yield chromium
        chromium.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder = tmp_path_factory.mktemp("web-server")
    with server_in_thread(database_url("sqlite", folder), folder) as running:
        yield running


@pytest.fixture(scope="module")
def artifacts(tmp_path_factory: pytest.TempPathFactory) -> Path:
    given = os.environ.get("EXACT61_WEB_ARTIFACTS")
    folder = Path(given) if given else tmp_path_factory.mktemp("web-artifacts")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def new_page(browser: Any, errors: list[str], locale: str = "en-US", **options: Any) -> Any:
    context = browser.new_context(locale=locale, reduced_motion="reduce", **options)
    page = context.new_page()
    page.set_default_timeout(60_000)  # generous: a loaded 2-core machine is slow, not wrong
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on(
        "console", lambda m: errors.append(m.text) if m.type == "error" else None
    )  # a failed request or a script error
    return page


def wait_true(page: Any, expression: str, timeout: float = 60) -> None:
    """Wait until `expression` is true in `page`. Playwright's `wait_for_function` compiles its
    predicate inside the page, which the page's Content-Security-Policy forbids (no eval), so
    this asks from outside, as `page.evaluate` does (an error counts as not yet)."""
    from playwright.sync_api import Error as PlaywrightError

    deadline = time.monotonic() + timeout
    while True:
        try:
            if page.evaluate(expression):
                return
        except PlaywrightError as error:
            if time.monotonic() >= deadline:
                raise AssertionError(f"{expression}: {error}") from None
        if time.monotonic() >= deadline:
            raise AssertionError(f"not true within {timeout} s: {expression}")
        time.sleep(0.05)


class Person:
    """One person at the page of their seat, choosing as a greedy player would (the highest
    credit) and acting through the page: clicks, taps, the keyboard or the list of choices."""

    def __init__(self, page: Any, seat: int, way: str = "click") -> None:
        self.page, self.seat, self.way = page, seat, way
        self.moves = 0

    def frame(self) -> dict[str, Any] | None:
        frame: dict[str, Any] | None = self.page.evaluate("window.exact61?.view?.frame ?? null")
        return frame

    def close_settlements(self) -> int:
        """Read and close every settlement panel on the screen: Continue clicked, or Enter
        for a person at the keyboard (the panel's Continue has the focus)."""
        from playwright.sync_api import TimeoutError as PlaywrightTimeout

        closed = 0
        button = self.page.locator("dialog.settlement-dialog[open] button.primary")
        while button.count():
            try:
                if self.way == "keyboard":
                    self.page.keyboard.press("Enter")
                    button.first.wait_for(state="detached", timeout=3000)
                else:
                    button.first.click(timeout=3000)
                closed += 1
            except PlaywrightTimeout:
                pass
        return closed

    def plays(self, frame: dict[str, Any]) -> list[tuple[dict[str, Any], int]]:
        if frame["status"] != "playing" or frame["to_act"] != self.seat or "legal" not in frame:
            return []
        if self.page.evaluate("window.exact61.view.sentSeq") == frame["seq"]:
            return []
        return [
            (a, c)
            for a, c in zip(frame["legal"], frame["credits"], strict=True)
            if a["type"] == "play"
        ]

    def act(self, frame: dict[str, Any], *, screenshot: Path | None = None) -> bool:
        """Make a placement if it is this seat's turn (draws and passes the page makes itself)."""
        plays = self.plays(frame)
        if not plays:
            return False
        action, _credit = max(plays, key=lambda p: p[1])
        tile = action["tile"]
        key = f"{tile[0]}-{tile[1]}"
        same = [a for a, _c in plays if a["tile"] == tile]
        index = [t == tile for t in frame["hand"]].index(True)
        page = self.page
        way = self.way if not (self.way == "keyboard" and index >= 9) else "click"
        self.close_settlements()
        if way == "keyboard":
            page.locator("body").press(str(index + 1))
        else:
            self.press(page.locator(f'.hand-tile[data-tile="{key}"]'), way)
        if len(same) > 1:
            at = action["at"]
            point = f"{at[0][0]}-{at[0][1]}-{at[1]}"
            mark = page.locator(f'svg.layout .point.choice[data-point="{point}"]')
            mark.wait_for()
            if screenshot is not None:
                page.screenshot(path=str(screenshot))
            if way == "keyboard":
                letter = mark.locator("text.letter").text_content()
                page.locator("body").press(letter)
            elif way == "list":
                self.press(page.locator(f'.choices button[data-key="choice-{point}"]'), "click")
            else:
                self.press(mark, way)
        wait_true(page, f"window.exact61.view.frame.seq > {frame['seq']}")
        self.moves += 1
        return True

    def press(self, target: Any, way: str) -> None:
        """Tap or click `target`; a settlement panel that opened over it (the round another
        seat just ended) is read and closed first, as a person would."""
        from playwright.sync_api import TimeoutError as PlaywrightTimeout

        for _ in range(10):
            try:
                (target.tap if way == "tap" else target.click)(timeout=5000)
                return
            except PlaywrightTimeout:
                if not self.close_settlements():
                    raise
        raise AssertionError("a settlement panel kept covering the table")


def play_to_the_end(
    people: list[Person], *, timeout: float = 240, during: Any = None
) -> dict[str, Any]:
    """Everyone plays until the match is over; `during(frame, people)` is called after every
    move (screenshots, reloads). Returns the last frame."""
    deadline = time.monotonic() + timeout
    settlements = 0
    while True:
        assert time.monotonic() < deadline, "the match did not end in time"
        moved = False
        for person in people:
            settlements += person.close_settlements()
            frame = person.frame()
            if frame is None:
                continue
            if frame["status"] == "over":
                return {"frame": frame, "settlements": settlements}
            if person.act(frame):
                moved = True
                if during is not None:
                    during(person.frame(), people)
        if not moved:
            time.sleep(0.05)


def download_record(page: Any) -> dict[str, Any]:
    with page.expect_download() as download:
        page.locator("dialog.end-dialog a[download]").click()
    record: dict[str, Any] = json.loads(Path(download.value.path()).read_text())
    return record


def shot(page: Any, artifacts: Path, name: str, *, docs: str | None = None) -> Path:
    path = artifacts / name
    page.screenshot(path=str(path))
    if docs and os.environ.get("EXACT61_DOCS_SCREENSHOTS") == "1":
        DOCS.mkdir(exist_ok=True)
        shutil.copy(path, DOCS / docs)
    return path


# ---- whole matches --------------------------------------------------------------------------


def test_two_people_play_a_whole_match_in_two_browsers(
    browser: Any, server: Server, artifacts: Path
) -> None:
    errors: list[str] = []
    game = server.create(["human", "human"])
    people = []
    sent: list[dict[str, Any]] = []  # every frame the pages sent

    def heard(socket: Any) -> None:
        socket.on("framesent", lambda payload: sent.append(json.loads(payload)))

    for seat, way in ((0, "click"), (1, "keyboard")):
        page = new_page(browser, errors, **DESKTOP)
        page.on("websocket", heard)
        page.goto(server.url + game["seats"][seat]["url"])
        wait_true(page, "window.exact61?.view?.frame")
        assert "#" not in page.url  # the token leaves the address bar (kept in the tab)
        kept = "Object.keys({}).filter((k) => k.startsWith('exact61.token.')).length"
        assert page.evaluate(kept.format("sessionStorage")) == 1
        assert page.evaluate(kept.format("localStorage")) == 0  # earlier versions': for good
        people.append(Person(page, seat, way))
    watcher = new_page(browser, errors, **DESKTOP)
    watcher.goto(f"{server.url}/g/{game['game']}/watch")
    taken: dict[str, Path] = {}

    def during(frame: dict[str, Any] | None, everyone: list[Person]) -> None:
        if frame is None or "table" in taken or len(frame["layout"]) < 7:
            return
        # a person to act with a tile that fits several places: the lit attach points
        for person in everyone:
            now = person.frame()
            if now is None:
                continue
            plays = person.plays(now)
            tiles = [json.dumps(a["tile"]) for a, _c in plays]
            several = [t for t in tiles if tiles.count(t) > 1]
            if several:
                tile = json.loads(several[0])
                person.page.locator(f'.hand-tile[data-tile="{tile[0]}-{tile[1]}"]').click()
                person.page.locator("svg.layout .point.choice").first.wait_for()
                taken["table"] = shot(person.page, artifacts, "table.png", docs="table.png")
                person.page.locator('.choices button[data-key="back"]').click()
                assert not person.page.locator("svg.layout .point.choice").count()
                return

    # the first settlement panel, as the person sees it
    def settle_shot() -> None:
        for person in people:
            if person.page.locator("dialog.settlement-dialog").count() and "settle" not in taken:
                taken["settle"] = shot(person.page, artifacts, "settlement.png")

    def during_all(frame: dict[str, Any] | None, everyone: list[Person]) -> None:
        settle_shot()
        during(frame, everyone)

    result = play_to_the_end(people, during=during_all)
    final = result["frame"]
    assert final["winner"] in (0, 1) and 305 in final["scores"]
    assert all(p.moves > 5 for p in people)
    for person in people:  # both are told the end, in words
        dialog = person.page.locator("dialog.end-dialog")
        dialog.wait_for()
        text = dialog.inner_text()
        winner = "You reach exactly 61" if final["winner"] == person.seat else "Seat"
        assert winner in text and "Final scores" in text
    taken["end"] = shot(people[0].page, artifacts, "end.png")
    # a spectator is told the end too, and offered no seat's action (issue 23): no Play again
    seen = watcher.locator("dialog.end-dialog")
    seen.wait_for()
    assert "Final scores" in seen.inner_text() and "Download the record" in seen.inner_text()
    assert watcher.locator('[data-key="again"]').count() == 0
    assert people[0].page.locator('dialog.end-dialog [data-key="again"]').count() == 1
    record = download_record(people[1].page)
    match = replay(record)  # the record the page hands out verifies
    assert match.is_over and list(match.scores) == final["scores"]
    assert record == httpx.get(f"{server.url}/api/games/{game['game']}/record").json()
    # the draws R10 forced were the server's: the pages sent placements only (issue 45)
    acts = [f["action"]["type"] for f in sent if f.get("type") == "act"]
    assert acts and set(acts) == {"play"}, set(acts)
    assert any(a["type"] == "draw" for r in record["rounds"] for a in r["actions"])
    assert {"table", "end"} <= set(taken), taken
    # play again (issue 23, rematch): the same seats in the next game, the same links; the one
    # who asks goes there, the other is offered it, the spectator may watch it
    old = f"/g/{game['game']}"
    again = people[1].page
    again.locator('dialog.end-dialog button[data-key="again"]').click()
    wait_true(again, f"location.pathname !== '{old}' && window.exact61?.view?.frame?.you === 1")
    new = again.evaluate("location.pathname").split("/")[2]
    assert again.evaluate("window.exact61.view.frame.seq") >= 0
    other = people[0].page
    other.locator('.end-buttons [data-key="next"]').wait_for(state="attached")
    other.keyboard.press("Escape")  # the end dialog closes; the end bar stays
    other.locator('.end-buttons [data-key="next"]').click()
    wait_true(other, f"location.pathname === '/g/{new}' && window.exact61?.view?.frame?.you === 0")
    link = watcher.locator('.end-buttons a[data-key="next"]')
    link.wait_for(state="attached")
    assert link.get_attribute("href") == f"/g/{new}/watch"
    assert not errors, errors


def test_four_players_two_people_on_phones_in_polish_with_a_reload(
    browser: Any, server: Server, artifacts: Path
) -> None:
    errors: list[str] = []
    game = server.create(["human", "bot:greedy", "human", "bot:random"], lang="pl")
    people = []
    for seat in (0, 2):
        page = new_page(browser, errors, locale="pl-PL", **PHONE)
        page.goto(server.url + game["seats"][seat]["url"])
        people.append(Person(page, seat, "tap"))
    phone = people[0].page
    wait_true(phone, "window.exact61?.view?.frame")
    assert phone.evaluate("document.documentElement.lang") == "pl"
    assert "Twoja ręka" in phone.locator(".hand h2").inner_text()
    state = {"reloaded": False, "dropped": False, "checked": False}

    def during(frame: dict[str, Any] | None, everyone: list[Person]) -> None:
        if frame is None:
            return
        page = everyone[0].page
        if not state["checked"] and len(frame["layout"]) >= 6:
            state["checked"] = True
            phone_is_readable(page)
            page.evaluate("window.scrollTo(0, 0)")
            shot(page, artifacts, "table-phone.png", docs="table-phone.png")
        if not state["reloaded"] and frame["round"] >= 1 and len(frame["layout"]) >= 3:
            # a reload in the middle of a round resumes the seat where it was
            mine = everyone[0].frame()
            assert mine is not None
            lines = page.locator(".log-lines li").count()
            page.reload()
            wait_true(page, f"window.exact61?.view?.frame?.seq >= {mine['seq']}")
            again = everyone[0].frame()
            assert again is not None and again["you"] == 0 and again["round"] == mine["round"]
            assert again["hand"] == mine["hand"] or again["seq"] > mine["seq"]
            wait_true(page, f"document.querySelectorAll('.log-lines li').length >= {lines}")
            state["reloaded"] = True
        elif state["reloaded"] and not state["dropped"]:
            # the network drops: the page says so, reconnects with `since` and goes on
            other = everyone[1].page
            other.evaluate("window.exact61.socket.drop()")
            wait_true(other, "window.exact61.view.drops === 1")
            assert "Połączenie" in other.locator(".banner").inner_text()
            wait_true(other, "window.exact61.view.connection === 'open'")
            assert not other.locator(".banner").inner_text()
            state["dropped"] = True

    result = play_to_the_end(people, during=during)
    assert state == {"reloaded": True, "dropped": True, "checked": True}
    final = result["frame"]
    assert final["winner"] in (0, 1)
    end = phone.locator("dialog.end-dialog")
    end.wait_for()
    assert "61" in end.inner_text() and "Zagraj ponownie" in end.inner_text()
    shot(phone, artifacts, "end-phone.png")
    record = download_record(phone)
    match = replay(record)
    assert match.is_over and match.players == 4
    assert not errors, errors


def phone_is_readable(page: Any) -> None:
    """On a 360-pixel phone: nothing wider than the screen but the layout's own scrolled frame,
    tiles at least 48 x 24 px, hand tiles big enough to tap."""
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 360, width
    sizes = page.evaluate(
        "[...document.querySelectorAll('svg.layout .tile .face')].map(r => {"
        "const b = r.getBoundingClientRect(); return [b.width, b.height]; })"
    )
    assert sizes and all(min(w, h) >= 22 and max(w, h) >= 44 for w, h in sizes), sizes
    taps = page.evaluate(
        "[...document.querySelectorAll('.hand-tile')].map(b => {"
        "const r = b.getBoundingClientRect(); return [r.width, r.height]; })"
    )
    assert taps and all(w >= 40 and h >= 44 for w, h in taps), taps


# ---- languages ------------------------------------------------------------------------------


def test_the_browser_language_first_then_the_switch(browser: Any, server: Server) -> None:
    errors: list[str] = []
    page = new_page(browser, errors, locale="de-DE", **DESKTOP)
    page.goto(server.url + "/")
    page.wait_for_selector("main h1")
    assert page.evaluate("document.documentElement.lang") == "de"
    assert page.locator("button.primary").inner_text() == "Spiel anlegen"
    page.locator("header select").select_option("ru")
    wait_true(page, "document.documentElement.lang === 'ru'")
    assert page.locator("button.primary").inner_text() == "Создать игру"
    assert page.locator("#seat-0 option").first.inner_text() == "Человек"
    page.reload()  # the choice is remembered
    page.wait_for_selector("main h1")
    assert page.evaluate("document.documentElement.lang") == "ru"
    # the table in the chosen language, the rule references too
    game = server.create(["human", "bot:greedy"])
    page.goto(server.url + game["seats"][0]["url"])
    wait_true(page, "window.exact61?.view?.frame")
    assert "Ваши кости" in page.locator(".hand h2").inner_text()
    page.locator("header button.link").click()  # the rules
    rules = page.locator("dialog.dialog").inner_text()
    assert "R13" in rules and "дубль" in rules.lower()
    page.keyboard.press("Escape")
    page.locator("header select").select_option("en")
    wait_true(page, "document.documentElement.lang === 'en'")
    assert page.locator("#scores-title").inner_text().startswith("Scores")
    assert not errors, errors


# ---- the start page and the lobby ----------------------------------------------------------


def test_a_new_game_from_the_start_page_and_a_seat_from_the_lobby(
    browser: Any, server: Server
) -> None:
    errors: list[str] = []
    maker = new_page(browser, errors, **DESKTOP)
    maker.goto(server.url + "/")
    maker.locator('input[name="players"][value="3"]').check()
    maker.locator("#seat-1").select_option("bot:easy")
    maker.locator("#seat-2").select_option("human")
    maker.locator('input[data-key="name"]').fill("Friday dominoes")
    maker.locator('input[data-key="you"]').fill("Łucja <i>x</i>")  # her name: text, not markup
    maker.locator('input[data-key="open"]').check()
    maker.locator('button[data-key="create"]').click()
    links = maker.locator(".links .link-row input")
    links.first.wait_for()
    urls = [links.nth(i).input_value() for i in range(links.count())]
    assert len(urls) == 3  # seats 0 and 2, and the spectators'
    assert "?seat=0#" in urls[0] and "?seat=2#" in urls[1] and urls[2].endswith("/watch")
    game = urls[0].split("/g/")[1].split("?")[0]
    # another person finds it in the lobby and takes the free seat 2
    other = new_page(browser, errors, **DESKTOP)
    other.goto(server.url + "/")
    take = other.locator(f'button[data-key="take-{game}-2"]')
    take.wait_for()
    assert "Friday dominoes" in other.locator(".lobby").inner_text()
    other.locator('input[data-key="you"]').fill("Ёжик")
    take.click()
    other.wait_for_url(f"**/g/{game}?seat=2")
    wait_true(other, "window.exact61?.view?.frame?.you === 2")
    # the seat is taken: seat 2 leaves the lobby's free seats
    lobby = httpx.get(f"{server.url}/api/games").json()["games"]
    listed = [g for g in lobby if g["game"] == game]
    assert not listed or 2 not in listed[0]["free"]
    # a spectator sees the table and no hand
    watcher = new_page(browser, errors, **DESKTOP)
    watcher.goto(urls[2])
    watcher.wait_for_selector(".board")
    wait_true(watcher, "window.exact61?.view?.frame?.you === null")
    assert watcher.locator(".hand").is_hidden()
    assert watcher.evaluate("'hand' in window.exact61.view.frame") is False
    # the bot chosen by its level is named by its level, in the page's language (issue 24)
    names = watcher.locator(".player-name").all_inner_texts()
    assert any(name.startswith("Seat 1 (easy)") for name in names), names
    # each person under the name they gave, as plain text (issue 23: names, never HTML)
    assert any(name.startswith("Łucja <i>x</i>") for name in names), names
    assert any(name.startswith("Ёжик") for name in names), names
    assert watcher.locator(".player-name i").count() == 0
    # a seat link without its token in this browser says what to do
    stranger = new_page(browser, errors, **DESKTOP)
    stranger.goto(f"{server.url}/g/{game}?seat=0")
    assert "open the link you were sent" in stranger.locator(".notice").inner_text()
    assert not errors, errors


@pytest.mark.parametrize(
    ("locale", "alone", "together"),
    [
        ("en-US", "Everyone else at this table is a bot", "Send each person the link"),
        ("pl-PL", "Poza tobą przy stole grają tylko boty", "Wyślij każdej osobie link"),
    ],
)
def test_a_game_against_bots_has_no_link_to_send(
    browser: Any, server: Server, locale: str, alone: str, together: str
) -> None:
    """A newcomer who made a game against a bot was told to send each person the link of their
    seat, and looked for someone to send theirs to: alone with bots, the page says so."""
    errors: list[str] = []
    page = new_page(browser, errors, locale=locale, **PHONE)
    for second, words in (("bot:expert", alone), ("human", together)):
        page.goto(server.url + "/")
        page.locator("#seat-1").select_option(second)
        page.locator('button[data-key="create"]').tap()
        page.locator(".links").wait_for()
        text = page.locator(".links > p").inner_text()
        assert words in text, (second, text)
    assert not errors, errors
    page.context.close()


def test_keyboard_only_a_hint_and_names_for_screen_readers(browser: Any, server: Server) -> None:
    errors: list[str] = []
    game = server.create(["human", "bot:greedy"])
    page = new_page(browser, errors, **DESKTOP)
    page.goto(server.url + game["seats"][0]["url"])
    person = Person(page, 0, "keyboard")
    deadline = time.monotonic() + 60
    while True:  # wait for a placement on a layout (draws and passes happen by themselves)
        assert time.monotonic() < deadline
        person.close_settlements()
        frame = person.frame()
        plays = person.plays(frame) if frame else []
        if plays and not frame["layout"]:  # the opening: key 1 plays the first tile (R7)
            page.evaluate("document.activeElement.blur()")
            page.keyboard.press("1")
            wait_true(page, f"window.exact61.view.frame.seq > {frame['seq']}")
        elif plays:
            break
        time.sleep(0.05)
    # every tile in the hand is a named button; Tab reaches them
    names = page.locator(".hand-tile").evaluate_all(
        "bs => bs.map(b => b.getAttribute('aria-label'))"
    )
    assert all(name and "[" in name for name in names), names
    page.locator(".hand-tile").first.focus()
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.tagName") == "BUTTON"
    # the hint: the strongest bot's move and its credit, played with Enter
    page.locator("body").press("?")
    wait_true(page, "window.exact61.view.hint !== null")
    hint = page.evaluate("window.exact61.view.hint")
    assert hint["action"] in frame["legal"]
    assert page.locator(".hint-text").inner_text().startswith("Hint:")
    board_names = page.locator("svg.layout .tile").evaluate_all(
        "gs => gs.map(g => g.getAttribute('aria-label'))"
    )
    assert len(board_names) == len(frame["layout"]) and all(board_names)
    points = page.locator("svg.layout .point").evaluate_all(
        "ps => ps.map(p => p.getAttribute('aria-label'))"
    )
    assert points and all("attach point" in p for p in points)
    page.evaluate("document.activeElement.blur()")  # Enter on a focused button presses it
    page.keyboard.press("Enter")  # plays the hinted move
    wait_true(page, f"window.exact61.view.frame.seq > {frame['seq']}")
    after = page.evaluate("window.exact61.view.frame")
    assert {"tile": hint["action"]["tile"], "at": hint["action"]["at"]} in after["layout"]
    assert not errors, errors


# ---- the replay viewer ------------------------------------------------------------------------


def test_the_replay_viewer_on_a_simulated_record(
    browser: Any, server: Server, tmp_path: Path, artifacts: Path
) -> None:
    errors: list[str] = []
    lines = [
        json.dumps(match_to_record(played_match(3, seed, ["greedy"] * 3), seed=seed))
        for seed in (11, 12)
    ]
    path = tmp_path / "simulated.jsonl"
    path.write_text("\n".join(lines) + "\n")
    chosen = json.loads(lines[1])
    page = new_page(browser, errors, **DESKTOP)
    page.goto(server.url + "/replay")
    page.locator("#record-file").set_input_files(str(path))
    page.wait_for_selector(".viewer")
    page.locator('select[data-key="match"]').select_option("1")
    wait_true(page, "window.exact61.view.chosen === 1 && window.exact61.view.data")
    positions = page.evaluate("window.exact61.view.data.positions.length")
    actions = sum(len(r["actions"]) for r in chosen["rounds"])
    assert positions == actions + len(chosen["rounds"])  # each deal, then each action
    # step action by action: the picture follows the record
    for _ in range(5):
        page.keyboard.press("ArrowRight")
    page.locator('button[data-key="next"]').click()
    pos = page.evaluate("window.exact61.view.pos")
    assert pos == 6
    first_round = chosen["rounds"][0]
    played = [a for a in first_round["actions"][:6] if a["type"] == "play"]
    assert page.locator("svg.layout .tile").count() == len(played)
    step = replay(chosen, stop_after=(0, 5))
    assert page.locator(".replay-hands .hands li").count() == 3
    hands = page.evaluate("window.exact61.view.data.positions[6].hands")
    assert hands == [[[t.low, t.high] for t in step.hand(s)] for s in range(3)]
    # each play's words name its tile as the board beside them draws it: they were written
    # with the names of the position shown before, where the tile was not yet (or lay in
    # another round's layout)
    page.keyboard.press("Home")
    named = 0
    for pos in range(1, positions):
        page.keyboard.press("ArrowRight")
        wait_true(page, f"window.exact61.view.pos === {pos}")
        position = page.evaluate(f"window.exact61.view.data.positions[{pos}]")
        plays = [e["action"] for e in position["last"] if e.get("action", {}).get("type") == "play"]
        if not plays:
            continue
        drawn = next(
            t["name"] for t in position["picture"]["tiles"] if t["tile"] == plays[0]["tile"]
        )
        words = page.locator(".action-words").inner_text()
        assert drawn in words, (pos, drawn, words)
        named += drawn != f"[{plays[0]['tile'][0]}|{plays[0]['tile'][1]}]"
    assert named, "no tile of this match lay turned: the check above tells nothing"
    page.keyboard.press("End")
    assert page.locator(".replay-summary").inner_text().count("61") >= 1
    assert (
        page.locator(".settlement-panel").is_visible()
        or chosen["rounds"][-1]["end"]["kind"] == "target"
    )
    shot(page, artifacts, "replay.png")
    # a record that does not verify says where, in one line, its round counted from 1 as shown
    broken = json.loads(lines[0])
    broken["rounds"][0]["actions"][0]["tile"] = broken["rounds"][0]["actions"][1].get(
        "tile", [6, 6]
    )
    path.write_text(json.dumps(broken))
    page.locator("#record-file").set_input_files(str(path))
    page.locator(".loader .error").wait_for()
    assert "round 1, action 0" in page.locator(".loader .error").inner_text()
    assert not [e for e in errors if "422" not in e], errors


# ---- the layout picture in the DOM ----------------------------------------------------------


def test_every_documented_position_drawn_in_the_page(
    browser: Any, server: Server, seed_positions: list[dict[str, Any]]
) -> None:
    errors: list[str] = []
    page = new_page(browser, errors, **DESKTOP)
    page.goto(server.url + "/replay")
    page.wait_for_selector("main")
    for case in seed_positions:
        layout = layout_of(case)
        drawn = page.evaluate(
            """async (picture) => {
                const { drawLayout } = await import('/js/board.js');
                const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
                svg.classList.add('layout');
                document.body.append(svg);
                drawLayout(svg, picture, { unit: 14 });
                const box = (e) => { const b = e.getBoundingClientRect();
                    return [b.left, b.top, b.right, b.bottom]; };
                const out = {
                    tiles: [...svg.querySelectorAll('.tile')].map(g => [g.dataset.tile,
                        box(g.querySelector('.face'))]),
                    points: [...svg.querySelectorAll('.point')].map(p => [p.dataset.point, box(p)]),
                    pips: [...svg.querySelectorAll('.tile')].map(g =>
                        g.querySelectorAll('.pip').length),
                };
                svg.remove();
                return out;
            }""",
            picture_json(layout),
        )
        tiles = [key for key, _box in drawn["tiles"]]
        assert sorted(tiles) == sorted(f"{t.low}-{t.high}" for t in layout.tiles), case["name"]
        assert len(set(tiles)) == len(tiles)  # each tile once
        assert drawn["pips"] == [t.low + t.high for t in layout.tiles]  # in the order played
        boxes = [b for _key, b in drawn["tiles"]] + [b for _key, b in drawn["points"]]
        for i, a in enumerate(boxes):
            for b in boxes[i + 1 :]:
                overlap_x = min(a[2], b[2]) - max(a[0], b[0])
                overlap_y = min(a[3], b[3]) - max(a[1], b[1])
                assert overlap_x <= 0.5 or overlap_y <= 0.5, (case["name"], a, b)
        free = sorted(f"{p[0][0]}-{p[0][1]}-{p[1]}" for p in case["free"])
        assert sorted(key for key, _box in drawn["points"]) == free, case["name"]
    assert not errors, errors


# ---- what the page looks like: fit, frame, layout shift, accessibility (issue 24) ------------

PHONE_390 = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
DESKTOP_800 = {"viewport": {"width": 1280, "height": 800}}
# Every layout shift the page makes, added up (CLS counts the worst 5-second window of them, so
# this sum is never below it); shifts right after a person's input do not count, as in CLS.
SHIFTS = """window.__shifts = 0;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) if (!entry.hadRecentInput) window.__shifts += entry.value;
}).observe({ type: "layout-shift", buffered: true });"""


# The page's own module instances (their catalog loaded), as its script tag names them.
PAGE_MODULE = "document.querySelector('script[type=module]').src"


def axe_source() -> str:
    try:
        import axe_playwright_python
    except ImportError:
        _missing("the axe-playwright-python package (it ships axe-core) is not installed")
    return (Path(axe_playwright_python.__file__).parent / "axe.min.js").read_text()


def axe_problems(page: Any) -> list[dict[str, Any]]:
    """axe-core's violations on the page as it is now: the serious and critical ones, and the
    rules the issue named at any impact (a page without a heading one is 'moderate')."""
    page.evaluate(axe_source())  # evaluated from outside, as the page's CSP allows no eval
    found: list[dict[str, Any]] = page.evaluate(
        """axe.run(document, { resultTypes: ["violations"] }).then((r) => r.violations.map((v) =>
            ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n) => n.target.join(" ")) })))"""
    )
    named = {"link-name", "scrollable-region-focusable", "page-has-heading-one"}
    return [v for v in found if v["impact"] in ("serious", "critical") or v["id"] in named]


def settled_paint(page: Any) -> None:
    """Two animation frames: whatever the last frame changed has been laid out and painted."""
    page.evaluate("new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")


def my_turn_with_plays(person: Person, timeout: float = 60) -> dict[str, Any]:
    """Wait for a state in which this person may place a tile (draws happen by themselves)."""
    deadline = time.monotonic() + timeout
    while True:
        assert time.monotonic() < deadline, "no placement came"
        person.close_settlements()
        frame = person.frame()
        if frame and person.plays(frame):
            settled_paint(person.page)
            return frame
        time.sleep(0.05)


def test_fit_fits_a_long_layout_in_a_phone_frame(
    browser: Any, server: Server, tmp_path: Path
) -> None:
    errors: list[str] = []
    record = match_to_record(played_match(2, 5, ["greedy"] * 2), seed=5)
    path = tmp_path / "long.json"
    path.write_text(json.dumps(record))
    page = new_page(browser, errors, **PHONE_390)
    page.goto(server.url + "/replay")
    page.locator("#record-file").set_input_files(str(path))
    wait_true(page, "window.exact61.view.data")
    size = """(() => {
        const f = document.querySelector('.board-scroll');
        const s = f.querySelector('svg').getBoundingClientRect();
        return [s.width, f.clientWidth, s.height, f.clientHeight];
    })()"""
    # the longest layout of the match: wider than the frame at the readable size
    widths = page.evaluate("window.exact61.view.data.positions.map((p) => p.picture.w)")
    page.evaluate(f"window.exact61.go({widths.index(max(widths))})")
    settled_paint(page)
    svg_w, frame_w, _svg_h, _frame_h = page.evaluate(size)
    assert svg_w > frame_w + 50, (svg_w, frame_w)  # it is long: the frame scrolls
    page.locator('button[data-key="zoom-fit"]').click()
    settled_paint(page)
    svg_w, frame_w, svg_h, frame_h = page.evaluate(size)
    assert svg_w <= frame_w + 1 and svg_h <= frame_h + 1, (svg_w, frame_w, svg_h, frame_h)
    assert page.locator('button[data-key="zoom-fit"]').get_attribute("aria-pressed") == "true"
    page.locator('button[data-key="zoom-in"]').click()  # a zoom leaves Fit
    assert page.locator('button[data-key="zoom-fit"]').get_attribute("aria-pressed") == "false"
    assert not errors, errors


def test_a_dead_link_says_one_thing(browser: Any, server: Server) -> None:
    errors: list[str] = []
    page = new_page(browser, errors, **DESKTOP)
    page.goto(server.url + "/g/nosuchgame/watch")
    notice = page.locator(".notice")
    notice.wait_for()
    assert "No such game." in notice.inner_text()
    assert page.locator(".banner").inner_text() == "" and page.locator(".banner").is_hidden()
    # a seat link whose token is not the seat's: the server says bad_token and closes
    game = server.create(["human", "bot:greedy"])
    page.goto(f"{server.url}/g/{game['game']}?seat=0#not-the-token")
    page.locator(".notice").wait_for()
    wait_true(page, "window.exact61.view.connection === 'closed'")
    settled_paint(page)
    assert "This seat link is not valid" in page.locator(".notice").inner_text()
    assert page.locator(".banner").is_hidden(), page.locator(".banner").inner_text()
    assert "Reconnecting" not in page.locator("body").inner_text()
    assert not [e for e in errors if "404" not in e], errors


def test_names_in_the_scores_and_offline_inside_the_sentence(browser: Any, server: Server) -> None:
    """A newcomer's review: the scores named a person `Место 0` while the players' panel gave
    the name, and a spectator read `Ходит: Zoë. (не в сети)`."""
    errors: list[str] = []
    game = server.create(["human", "human"], names=["Zoë", "Bo"], lang="ru")
    page = new_page(browser, errors, locale="ru-RU", **DESKTOP)
    page.goto(server.url + game["watch"])
    wait_true(page, "window.exact61?.view?.frame")
    settled_paint(page)
    frame = page.evaluate("window.exact61.view.frame")
    scores = page.locator(".scores").inner_text()
    assert "Zoë" in scores and "Bo" in scores and "Место" not in scores, scores
    name = ["Zoë", "Bo"][frame["to_act"]]
    status = page.locator(".status").inner_text()
    assert f"{name} (не в сети)" in status and ". (" not in status, status
    assert not errors, errors


def test_the_log_names_a_person_as_text_and_a_seat_without_a_name(
    browser: Any, server: Server
) -> None:
    errors: list[str] = []
    game = server.create(["human", "bot:greedy"], names=["<b>Zoë</b>", None], lang="pl")
    person = Person(new_page(browser, errors, locale="pl-PL", **DESKTOP), 0)
    person.page.goto(server.url + game["seats"][0]["url"])
    watcher = new_page(browser, errors, locale="pl-PL", **DESKTOP)
    watcher.goto(server.url + game["watch"])
    wait_true(watcher, "window.exact61?.view?.frame")
    deadline = time.monotonic() + 60
    while True:  # until the log has a line of each seat's own
        lines = watcher.locator(".log-lines li").all_inner_texts()
        if any(line.startswith("<b>Zoë</b> ") for line in lines) and any(
            line.startswith("Miejsce 1 ") for line in lines
        ):
            break
        assert time.monotonic() < deadline, lines
        frame = person.frame()
        if not (frame and person.act(frame)):
            time.sleep(0.05)
    assert not [line for line in lines if "iejsce 0" in line], lines  # the person by name
    assert watcher.locator(".log-lines b").count() == 0  # the name as it was given, not markup
    assert not errors, errors


BRACKETED = re.compile(r"\[\d\|\d\]")


def test_the_log_names_each_placement_as_its_board_drew_it(browser: Any, server: Server) -> None:
    """The log wrote a placement's tiles as the board drew them then (`[3|1]`: the tile [1|3]
    lying the other way round), but after a reload or a change of language every line was
    written again from the board of now: an earlier round's tile came out low first, or turned
    as today's board has it. Each line keeps the names of the board it was played on."""
    errors: list[str] = []
    game = finished_match(server, ["human", "human"])
    record = httpx.get(f"{server.url}/api/games/{game['game']}/record", timeout=30).json()
    match = replay(record)
    drawn = []  # each placement's round, its tile and the tile it joins as drawn just after it
    for r, log in enumerate(match.rounds):
        layout = Layout()
        for step in log.steps:
            if isinstance(step.action, Play):
                layout.place(step.action.tile, step.action.at)
                at = step.action.at
                tiles = [step.action.tile, *([] if at is None else [at.tile])]
                drawn.append((r, [tile_names(layout)[t] for t in tiles]))
    page = new_page(browser, errors, **DESKTOP)
    page.goto(server.url + game["seats"][0]["url"])  # a reload's state: the whole match's log
    page.locator("dialog.end-dialog").wait_for()
    page.locator("dialog.end-dialog .dialog-head .close").click()
    for lang in ("en", "pl"):
        if lang != "en":
            page.locator("header select").select_option(lang)
            wait_true(page, "document.querySelector('#log-title').textContent !== 'Log'")
        lines = page.locator(".log-lines li.log-play").all_inner_texts()
        want = drawn[-len(lines) :]
        assert [BRACKETED.findall(line) for line in lines] == [n for _r, n in want], lang
    # among them, tiles of earlier rounds drawn turned, which the last round's board does not
    # draw so: the lines could not have got them from it
    last = len(match.rounds) - 1
    assert any(r < last and any(n[1] > n[3] for n in names) for r, names in want), want
    assert not errors, errors


def test_bots_and_server_errors_in_the_page_language(browser: Any, server: Server) -> None:
    errors: list[str] = []
    game = server.create(["human", "bot:medium", "human", "bot:expert"], lang="pl")
    page = new_page(browser, errors, locale="pl-PL", **DESKTOP)
    page.goto(server.url + game["seats"][0]["url"])
    wait_true(page, "window.exact61?.view?.frame")
    names = page.locator(".player-name").all_inner_texts()
    assert "Miejsce 1 (średni)" in names and "Miejsce 3 (ekspert)" in names, names
    # an error the server sends is told by its code, in the page's words, with its parameters
    for lang, locale in (("en", "en-US"), ("pl", "pl-PL")):
        listed = server.create(["human", "human"], open=True, lang=lang)
        other = new_page(browser, errors, locale=locale, **DESKTOP)
        other.goto(server.url + "/")
        take = other.locator(f'button[data-key="take-{listed["game"]}-1"]')
        take.wait_for()
        taken = httpx.post(f"{server.url}/api/games/{listed['game']}/seats/1", timeout=30)
        assert taken.status_code == 201 and taken.json()
        take.click()
        toast = other.locator(".toast")
        toast.wait_for()
        want = other.evaluate(
            f"import({PAGE_MODULE}.replace('main.js', 'i18n.js')).then((m) => m._("
            "'Seat {seat} was taken by someone else just now.', { seat: 1 }))"
        )
        assert toast.inner_text() == want, (lang, toast.inner_text())
        assert "is taken" not in toast.inner_text()  # the server's own words: "seat 1 is taken"
        other.context.close()
    assert not [e for e in errors if "409" not in e], errors


def test_each_seat_speaks_its_browsers_language_whoever_made_the_game(
    browser: Any, server: Server
) -> None:
    """A Russian browser that opened a link to a Polish game got a Polish table (issue 44): a
    seat's page speaks its own browser's language; the game's is for a browser that speaks none
    of the page's; the person's own choice wins over both."""
    errors: list[str] = []
    page = new_page(browser, errors, locale="ru-RU", **DESKTOP)
    page.goto(server.url + "/")
    field = page.locator('select[data-key="game-lang"]')
    note = page.locator("#" + field.get_attribute("aria-describedby"))
    assert note.is_visible() and note.inner_text()  # says what the choice does
    game = server.create(["human", "human"], lang="pl")
    page.goto(server.url + game["seats"][0]["url"])
    wait_true(page, "window.exact61?.view?.frame")
    assert page.evaluate("document.documentElement.lang") == "ru"
    assert "Ваши кости" in page.locator(".hand h2").inner_text()
    french = new_page(browser, errors, locale="fr-FR", **DESKTOP)
    french.goto(server.url + game["seats"][1]["url"])
    wait_true(french, "window.exact61?.view?.frame")
    assert french.evaluate("document.documentElement.lang") == "pl"  # the game's, then
    assert "Twoja ręka" in french.locator(".hand h2").inner_text()
    page.locator("header select").select_option("de")  # the person's own choice wins after
    page.reload()
    wait_true(page, "window.exact61?.view?.frame")
    assert page.evaluate("document.documentElement.lang") == "de"
    assert not errors, errors


def test_the_start_page_lists_bots_weakest_first(browser: Any, server: Server) -> None:
    errors: list[str] = []
    page = new_page(browser, errors, **DESKTOP)
    page.goto(server.url + "/")
    page.locator("#seat-1 option").last.wait_for(state="attached")  # the script draws them
    values = page.locator("#seat-1 option").evaluate_all("os => os.map(o => o.value)")
    assert values == ["human", "bot:beginner", "bot:easy", "bot:medium", "bot:hard", "bot:expert"]
    assert not errors, errors


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_table_loads_without_moving(browser: Any, server: Server, size: str) -> None:
    """Layout shift while the table loads (CLS below 0.1), as a seat and as a spectator."""
    errors: list[str] = []
    game = server.create(["human", "bot:greedy"])
    for url in (game["seats"][0]["url"], f"/g/{game['game']}/watch"):
        page = new_page(browser, errors, **(PHONE_390 if size == "phone" else DESKTOP_800))
        page.context.add_init_script(SHIFTS)
        page.goto(server.url + url)
        wait_true(page, "window.exact61?.view?.frame && document.querySelector('svg.layout')")
        settled_paint(page)
        page.wait_for_load_state("networkidle")
        settled_paint(page)
        shifts = page.evaluate("window.__shifts")
        assert shifts < 0.1, (size, url, shifts)
        page.context.close()
    assert not errors, errors


@pytest.mark.parametrize("locale", ["en-US", "de-DE"])
def test_the_phone_table_holds_still_when_the_turn_changes(
    browser: Any, server: Server, locale: str
) -> None:
    """On a 360-px phone the status line says whose turn it is in one line or in two ("Du bist
    am Zug. Tippe auf einen passenden Stein." takes two, "Platz 1 ist am Zug." one): the line
    keeps one height, so the board and the hand under the finger do not jump at every move."""
    errors: list[str] = []
    game = server.create(["human", "bot:greedy"])
    page = new_page(browser, errors, locale=locale, **PHONE)
    page.goto(server.url + game["seats"][0]["url"])
    person = Person(page, 0, "tap")
    seen: dict[str, float] = {}
    deadline = time.monotonic() + 120
    while person.moves < 6:
        assert time.monotonic() < deadline, seen
        person.close_settlements()
        frame = person.frame()
        if frame is None or frame["status"] != "playing":
            time.sleep(0.05)
            continue
        settled_paint(page)
        box = page.locator(".status").bounding_box()
        seen[page.locator(".status-text").inner_text()] = box["height"]
        if not person.act(frame):
            time.sleep(0.05)
    assert len(set(seen.values())) == 1, seen
    assert not errors, errors
    page.context.close()


def test_the_zoom_buttons_keep_their_row_beside_a_long_sum_of_ends(
    browser: Any, server: Server
) -> None:
    """At 360 px the sum of the ends in German ("Gewertete Enden: 0+1+6+12 = 19") and the three
    44-px zoom buttons do not fit one line: the sum wraps beside the buttons, which keep their
    row, so the layout's frame (and the hand below it) does not grow and shrink with the sum."""
    errors: list[str] = []
    game = server.create(["human", "bot:greedy"])
    page = new_page(browser, errors, locale="de-DE", **PHONE)
    page.goto(server.url + game["seats"][0]["url"])
    wait_true(page, "window.exact61?.view?.frame && document.querySelector('.board-tools .zoom')")
    heights = []
    for sum_of_ends in ("", "Gewertete Enden: 5 = 5", "Gewertete Enden: 0+1+6+12 = 19"):
        page.evaluate(
            "(text) => { document.querySelector('.board-tools .ends').textContent = text; }",
            sum_of_ends,
        )
        settled_paint(page)
        heights.append(page.locator(".board-tools").bounding_box()["height"])
    assert len(set(heights)) == 1, heights
    assert not errors, errors
    page.context.close()


def test_the_desktop_table_fits_the_window(browser: Any, server: Server) -> None:
    """At 1280 x 800 the frame is as tall as a short layout needs, the hand and the choices are
    in sight, the page never scrolls (it sat scrolled by 10 px), and a place that scores
    nothing does not look like a gain."""
    errors: list[str] = []
    game = server.create(["human", "bot:greedy"])
    page = new_page(browser, errors, **DESKTOP_800)
    page.goto(server.url + game["seats"][0]["url"])
    person = Person(page, 0)
    frame = my_turn_with_plays(person)
    if len(frame["layout"]) > 4:
        pytest.fail(f"the first placement came on {len(frame['layout'])} tiles")
    height = page.evaluate("document.querySelector('.board-scroll').clientHeight")
    assert height <= 260, height  # it was 448 px with two tiles
    bottom = "document.querySelector('{}').getBoundingClientRect().bottom"
    assert page.evaluate(bottom.format(".hand")) <= 800
    seen_none = False
    for _ in range(40):
        assert page.evaluate("document.documentElement.scrollHeight") <= 800
        plays = person.plays(frame)
        tiles = [json.dumps(a["tile"]) for a, _c in plays]
        several = [json.loads(t) for t in tiles if tiles.count(t) > 1]
        if several:
            tile = several[0]
            page.locator(f'.hand-tile[data-tile="{tile[0]}-{tile[1]}"]').click()
            page.locator(".choices button.choice").first.wait_for()
            assert page.evaluate(bottom.format(".choices")) <= 800  # the choices in sight
            colours = page.locator(".choices button.choice").evaluate_all(
                "bs => bs.map(b => [b.dataset.credit,"
                " getComputedStyle(b.querySelector('.credit')).color])"
            )
            green = {c for credit, c in colours if credit != "0"}
            grey = {c for credit, c in colours if credit == "0"}
            if grey:
                seen_none = True
                assert not grey & green and "rgb(22, 101, 52)" not in grey, colours
            page.locator('.choices button[data-key="back"]').click()
        assert page.evaluate("scrollY") == 0
        if seen_none:
            break
        person.act(frame)
        frame = my_turn_with_plays(person)
    assert seen_none, "no place that scores nothing came up"
    assert not errors, errors


def test_credits_of_lit_points_cover_no_tile(
    browser: Any, server: Server, seed_positions: list[dict[str, Any]]
) -> None:
    """Every free attach point of every documented position lit with a credit: the credit's
    label is drawn beside its dot where no tile is (it was drawn over the spinner above)."""
    errors: list[str] = []
    page = new_page(browser, errors, **DESKTOP)
    page.goto(server.url + "/replay")
    page.wait_for_selector("main")
    for case in seed_positions:
        overlaps = page.evaluate(
            """async (picture) => {
                const { drawLayout } = await import('/js/board.js');
                const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
                document.body.append(svg);
                const key = (at) => `${at[0][0]}-${at[0][1]}-${at[1]}`;
                const choices = new Map(picture.points.map((p, i) =>
                    [key(p.at), { letter: 'abcdefghij'[i % 10], credit: 10 }]));
                drawLayout(svg, picture, { unit: 14, choices });
                const box = (e) => e.getBoundingClientRect();
                const faces = [...svg.querySelectorAll('.tile .face')].map(box);
                const out = [];
                for (const label of svg.querySelectorAll('.point .credit')) {
                    const a = box(label);
                    for (const b of faces) {
                        const x = Math.min(a.right, b.right) - Math.max(a.left, b.left);
                        const y = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
                        if (x > 1 && y > 1) out.push([label.textContent, x, y]);
                    }
                }
                svg.remove();
                return out;
            }""",
            picture_json(layout_of(case)),
        )
        assert not overlaps, (case["name"], overlaps)
    assert not errors, errors


def test_the_phone_table_at_360_px_and_its_marks(browser: Any, server: Server) -> None:
    """At 360 px: the ▲ and ★ marks inside their tile's button, under the hand's heading; the
    longest language name whole in the header's switch; the empty table says it is empty."""
    errors: list[str] = []
    game = server.create(["human", "human"])
    watcher = new_page(browser, errors, **PHONE)
    watcher.goto(f"{server.url}/g/{game['game']}/watch")
    wait_true(watcher, "window.exact61?.view?.frame")
    empty = watcher.locator(".board-empty")
    assert empty.is_visible() and "empty" in empty.inner_text()
    page = new_page(browser, errors, **PHONE)
    page.goto(server.url + "/")
    page.locator("header select").select_option("ru")
    wait_true(page, "document.documentElement.lang === 'ru'")
    page.goto(server.url + game["seats"][0]["url"])
    wait_true(page, "window.exact61?.view?.frame")
    other = new_page(browser, errors, **PHONE)
    other.goto(server.url + game["seats"][1]["url"])
    people = [Person(page, 0, "tap"), Person(other, 1, "tap")]
    # the header: every language's name fits its switch, and the header fits the screen
    fit = page.evaluate(
        """(() => {
            const select = document.querySelector('header select');
            const style = getComputedStyle(select);
            const pen = document.createElement('canvas').getContext('2d');
            pen.font = style.font;
            const room = select.clientWidth - parseFloat(style.paddingLeft)
                - parseFloat(style.paddingRight) - 16;  // the arrow
            return [[...select.options].map((o) => [o.text, pen.measureText(o.text).width, room]),
                    document.querySelector('header').scrollWidth];
        })()"""
    )
    names, header_width = fit
    assert all(width <= room for _text, width, room in names), names
    assert header_width <= 360, header_width
    for _ in range(60):  # until a person to act has a tile that fits (▲)
        for person in people:
            person.close_settlements()
            frame = person.frame()
            if frame and person.plays(frame):
                break
        else:
            time.sleep(0.1)
            continue
        break
    settled_paint(person.page)
    marks = person.page.evaluate(
        """(() => {
            const heading = document.querySelector('.hand h2').getBoundingClientRect();
            const marks = document.querySelectorAll('.hand-tile .fits, .hand-tile .drawn-mark');
            return [...marks].map((m) => {
                const b = m.getBoundingClientRect();
                const tile = m.closest('.hand-tile');
                const t = tile.getBoundingClientRect();
                const border = parseFloat(getComputedStyle(tile).borderTopWidth);
                return [b.left >= t.left + border - 0.5 && b.right <= t.right - border + 0.5 &&
                        b.top >= t.top + border - 0.5 && b.bottom <= t.bottom - border + 0.5,
                        b.top >= heading.bottom];
            });
        })()"""
    )
    assert marks and all(inside and below for inside, below in marks), marks
    assert not errors, errors


def test_rule_references_keep_their_brackets(browser: Any, server: Server) -> None:
    errors: list[str] = []
    page = new_page(browser, errors, **PHONE)
    page.goto(server.url + "/replay")
    page.wait_for_selector("main")
    groups = page.evaluate(
        """async () => {
            const main = document.querySelector('script[type=module]').src;
            const { withRules } = await import(main.replace('main.js', 'ui.js'));
            const box = document.createElement('p');
            box.style.width = '9ch';
            box.append(...withRules('the round is not settled (R30). Rounded (R17-R23): R4, x'));
            document.body.append(box);
            const out = [...box.querySelectorAll('.rule-ref')].map((b) => [b.textContent,
                b.parentElement.textContent, getComputedStyle(b.parentElement).whiteSpace]);
            box.remove();
            return out;
        }"""
    )
    assert groups == [
        ["R30", "(R30).", "nowrap"],
        ["R17", "(R17-R23):", "nowrap"],
        ["R23", "(R17-R23):", "nowrap"],
        ["R4", "R4,", "nowrap"],
    ], groups
    assert not errors, errors


def test_the_boards_frame_says_one_scored_end_without_a_sum(
    browser: Any, server: Server, tmp_path: Path
) -> None:
    """Above a lone double the frame said `Scored ends: 10 = 10`, a sum of one, where the
    terminal's frame says `Scored ends: 10` (R14: the double's one end counts both halves)."""
    errors: list[str] = []
    record = match_to_record(played_match(2, 0, ["greedy"] * 2), seed=0)
    opening, following = record["rounds"][0]["actions"][:2]
    assert opening["tile"] == [5, 5] and following["type"] == "play"  # a double, then a tile
    path = tmp_path / "double.jsonl"
    path.write_text(json.dumps(record) + "\n")
    page = new_page(browser, errors, **DESKTOP)
    page.goto(server.url + "/replay")
    page.locator("#record-file").set_input_files(str(path))
    page.wait_for_selector(".viewer")
    ends = page.locator(".board-tools .ends")
    for pos in (1, 2):
        page.keyboard.press("ArrowRight")
        wait_true(page, f"window.exact61.view.pos === {pos}")
        position = page.evaluate(f"window.exact61.view.data.positions[{pos}]")
        values = [e["value"] for e in position["ends"]]
        total = position["end_sum"]
        want = (
            f"Scored ends: {total}"
            if pos == 1
            else f"Scored ends: {'+'.join(map(str, values))} = {total}"
        )
        assert ends.inner_text() == want, (pos, values)
        if pos == 1:  # the log line says one end too, not "ends 10"
            words = page.locator(".action-words").inner_text()
            assert words.endswith(f"(10): end {total}"), words
    assert not errors, errors
    page.context.close()


def test_the_replay_viewer_end_file_and_buttons(
    browser: Any, server: Server, tmp_path: Path
) -> None:
    """A match won on a placement is not called settled; the record's file name shows, and no
    "No file chosen" beside it; Play looks unlike Next."""
    errors: list[str] = []
    seed = next(
        s
        for s in range(40)
        if match_to_record(played_match(2, s, ["greedy"] * 2), seed=s)["rounds"][-1]["end"]["kind"]
        == "target"
    )
    record = match_to_record(played_match(2, seed, ["greedy"] * 2), seed=seed)
    path = tmp_path / "won-on-a-placement.json"
    path.write_text(json.dumps(record))
    page = new_page(browser, errors, **DESKTOP)
    page.goto(server.url + "/replay")
    page.locator("#record-file").set_input_files(str(path))
    wait_true(page, "window.exact61.view.data")
    page.keyboard.press("End")
    panel = page.locator(".settlement-panel")
    assert panel.is_visible()
    text = panel.inner_text()
    assert "not settled (R30)" in text and "settled" not in text.replace("not settled", ""), text
    # the file field hides behind its label: the file's name shows, not "No file chosen"
    assert page.locator(".file-name").inner_text() == path.name
    box = page.locator("#record-file").bounding_box()
    assert box is not None and box["width"] <= 1 and box["height"] <= 1
    assert page.locator('label[for="record-file"]').is_visible()
    play, step = page.locator('[data-key="play"]'), page.locator('[data-key="next"]')
    assert "Play" in play.inner_text() and "Play" not in step.inner_text()
    assert play.evaluate("b => getComputedStyle(b).backgroundColor") != step.evaluate(
        "b => getComputedStyle(b).backgroundColor"
    )
    assert not errors, errors


# Every control a finger may tap, with its size: buttons, links that look like buttons, fields,
# the players' radio labels and the SVG places. A rule's reference inside a sentence is as big
# as its words, a hand's tile is 40 px across (seven to a row) and 84 tall, a hidden file field
# sits behind its label.
CONTROLS = """[...document.querySelectorAll('button, a.button, .brand, select, input, label.radio')]
  .filter((e) => !e.matches('.rule-ref, .hand-tile, .file-field, [type=radio], [type=checkbox]'))
  .map((e) => [e.dataset.key || e.className || e.tagName, e.getBoundingClientRect()])
  .filter(([, box]) => box.width > 0 && box.height > 0)
  .map(([name, box]) => [name, Math.round(box.width), Math.round(box.height)])"""


def test_every_control_is_big_enough_for_a_finger(
    browser: Any, server: Server, tmp_path: Path
) -> None:
    """On a 360-px touch screen every button, field and choice is at least 44 x 44 px (the
    zoom buttons were 34 x 32, the replay's and the small buttons 32 tall, the paper tally's
    28), on the start page, at the table with its name form and a dialog open, and in the
    replay viewer; a mouse keeps the smaller buttons."""
    errors: list[str] = []
    page = new_page(browser, errors, **PHONE)
    small: dict[str, list[Any]] = {}

    def measure(where: str) -> None:
        settled_paint(page)
        found = [c for c in page.evaluate(CONTROLS) if c[1] < 44 or c[2] < 44]
        if found:
            small[where] = found

    page.goto(server.url + "/")
    page.wait_for_selector("main h1")
    measure("start")
    game = server.create(["human", "bot:greedy"])
    page.goto(server.url + game["seats"][0]["url"])
    wait_true(page, "window.exact61?.view?.frame && document.querySelector('.board-tools button')")
    measure("table")
    page.locator('button[data-key="name-edit"]').tap()
    measure("name form")
    page.locator("header button.link").tap()
    page.locator("dialog[open]").wait_for()
    measure("rules")
    record = match_to_record(played_match(2, 3, ["greedy"] * 2), seed=3)
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    page.goto(server.url + "/replay")
    page.locator("#record-file").set_input_files(str(path))
    wait_true(page, "window.exact61.view.data")
    measure("replay")
    assert not small, small
    mouse = new_page(browser, errors, **DESKTOP)
    mouse.goto(server.url + "/replay")
    mouse.locator("#record-file").set_input_files(str(path))
    wait_true(mouse, "window.exact61.view.data")
    assert mouse.locator('[data-key="next"]').bounding_box()["height"] < 44
    assert not errors, errors


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_axe_finds_nothing_serious_on_any_page(
    browser: Any, server: Server, tmp_path: Path, size: str
) -> None:
    """axe-core on the start page, the table as a seat and as a spectator (a few moves in, the
    log filled) and the replay viewer with a record open: no serious or critical violation."""
    errors: list[str] = []
    options = PHONE_390 if size == "phone" else DESKTOP_800
    game = server.create(["human", "bot:greedy"], lang="de")
    found: dict[str, list[dict[str, Any]]] = {}
    page = new_page(browser, errors, **options)
    page.goto(server.url + "/")
    page.wait_for_selector("main h1")
    found["start"] = axe_problems(page)
    page.goto(server.url + game["seats"][0]["url"])
    person = Person(page, 0, "tap" if size == "phone" else "click")
    for _ in range(4):
        person.act(my_turn_with_plays(person))
    frame = my_turn_with_plays(person)
    found["seat"] = axe_problems(page)
    tile = person.plays(frame)[0][0]["tile"]  # picked: lit places, or placed at once
    page.locator(f'.hand-tile[data-tile="{tile[0]}-{tile[1]}"]').click()
    settled_paint(page)
    found["seat, a tile picked"] = axe_problems(page)
    page.keyboard.press("Escape")  # put down, if it was not placed at once
    frame = my_turn_with_plays(person)
    page.locator('button[data-key="hint"]').click()  # the hint, and Play the hint beside it
    wait_true(page, f"window.exact61.view.hint?.seq === {frame['seq']}")
    settled_paint(page)
    found["seat, the hint"] = axe_problems(page)
    stranger = new_page(browser, errors, **options)  # a browser without the seat's token
    stranger.goto(f"{server.url}/g/{game['game']}?seat=0")
    stranger.locator(".notice").wait_for()
    found["a seat without its token"] = axe_problems(stranger)
    stranger.context.close()
    watcher = new_page(browser, errors, **options)
    watcher.goto(f"{server.url}/g/{game['game']}/watch")
    wait_true(watcher, "window.exact61?.view?.frame")
    found["spectator"] = axe_problems(watcher)
    record = match_to_record(played_match(2, 5, ["greedy"] * 2), seed=5)
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    watcher.goto(server.url + "/replay")
    watcher.wait_for_selector("main h1")
    found["replay, empty"] = axe_problems(watcher)
    watcher.locator("#record-file").set_input_files(str(path))
    wait_true(watcher, "window.exact61.view.data")
    watcher.keyboard.press("End")
    found["replay"] = axe_problems(watcher)
    assert not any(found.values()), {k: v for k, v in found.items() if v}
    assert not [e for e in errors if "fits no free" not in e], errors


# ---- the turn clock ---------------------------------------------------------------------------


def test_the_start_page_offers_a_turn_clock(browser: Any, server: Server) -> None:
    errors: list[str] = []
    page = new_page(browser, errors, **DESKTOP)
    page.goto(server.url + "/")
    clock = page.locator('select[data-key="game-clock"]')
    clock.wait_for()  # the page's script draws the form: its options come with the select
    assert clock.locator("option").evaluate_all("os => os.map(o => o.value)") == [
        "0",
        "30",
        "60",
        "120",
        "300",
    ]
    assert clock.locator("option").all_inner_texts()[:3] == [
        "No clock",
        "30 seconds a move",
        "1 minute a move",
    ]
    clock.select_option("120")
    page.locator('button[data-key="create"]').click()
    link = page.locator(".links .link-row input").first
    link.wait_for()
    game = link.input_value().split("/g/")[1].split("?")[0]
    summary = httpx.get(f"{server.url}/api/games/{game}", timeout=30).json()
    assert summary["clock"] == 120, summary
    assert not errors, errors


def test_the_turn_clock_counts_down_a_stand_in_plays_and_the_person_comes_back(
    browser: Any, server: Server
) -> None:
    """Two people, 10 s a move: one lets the time run out, the stand-in plays for them, they
    come back. The other plays only when asked to here, so the game waits on them."""
    errors: list[str] = []
    game = server.create(["human", "human"], clock=10, stand_in="greedy")
    page = new_page(browser, errors, **DESKTOP)
    page.goto(server.url + game["seats"][0]["url"])
    other = new_page(browser, errors, **DESKTOP)
    other.goto(server.url + game["seats"][1]["url"])
    watcher = new_page(browser, errors, **DESKTOP)
    watcher.goto(f"{server.url}/g/{game['game']}/watch")
    friend = Person(other, 1)
    deadline = time.monotonic() + 120
    while not page.evaluate("window.exact61?.view?.frame?.clock?.seat === 0"):
        assert time.monotonic() < deadline, "seat 0's time never ran"
        frame = friend.frame()
        if frame is not None:
            friend.close_settlements()
            friend.act(frame)
        time.sleep(0.05)
    started = page.evaluate("window.exact61.view.frame.seq")
    # the person's own time, in sight and prominent: it runs down (nobody moves here)
    clock = page.locator(".status .turn-clock")
    assert clock.is_visible() and "mine" in (clock.get_attribute("class") or "")
    first = clock.inner_text()
    assert re.fullmatch(r"0:\d\d", first), first  # digits only: no emoji a phone may lack
    wait_true(page, f"document.querySelector('.status .turn-clock').textContent !== {first!r}")
    # the spectator sees whose time runs, on that seat's row
    wait_true(watcher, "document.querySelector('.player-list [data-clock]') !== null")
    # the last 10 s: a warning, told once
    wait_true(page, "document.querySelector('.status .turn-clock.warn') !== null")
    wait_true(page, "document.querySelector('.status [role=alert]').textContent.includes('left')")
    # time is up: the seat is away, the stand-in moves for it, and everyone is told
    wait_true(page, "window.exact61.view.frame.seats[0].away === true")
    wait_true(
        page,
        "window.exact61.view.entries.some((e) => e.type === 'action' && e.seat === 0"
        f" && e.seq >= {started})",
    )
    status = page.locator(".status")
    back = status.locator('button[data-key="back-in"]')  # beside the words that say why
    back.wait_for()
    assert "a bot (greedy) is playing for you" in status.inner_text(), status.inner_text()
    # said once: not in the status line and again in a bar under it (review)
    told = page.locator("main").inner_text()
    assert told.count("is playing for you") == 1, told
    # the person's own row speaks to them; the others read "for them"
    mine = page.locator(".player-list li.me")
    assert "away: a bot (greedy) plays for you" in mine.inner_text(), mine.inner_text()
    wait_true(watcher, "window.exact61.view.frame.seats[0].away === true")
    row = watcher.locator(".player-list li").first
    assert "away: a bot (greedy) plays for them" in row.inner_text(), row.inner_text()
    # I'm back: the stand-in stops, the seat is the person's again
    back.click()
    wait_true(page, "window.exact61.view.frame.seats[0].away === false")
    assert back.count() == 0 and "playing for you" not in status.inner_text()
    assert "away" not in mine.inner_text()
    wait_true(watcher, "window.exact61.view.frame.seats[0].away === false")
    assert "away" not in row.inner_text()
    assert not errors, errors


# ---- the review of the page: the end dialog, focus, bots' names ------------------------------


def finished_match(server: Server, seats: list[str], **extra: Any) -> dict[str, Any]:
    """A new game whose match is over: its people's seats played to the end over the protocol
    (each the first legal action), their connections closed; every seat's link still works."""
    game = server.create(seats, **extra)

    async def play() -> None:
        clients = await play_game(server, game)
        for client in clients.values():
            await client.close()

    # a thread of its own: Playwright's sync API keeps an event loop in this one
    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, play()).result(timeout=240)
    return game


def test_the_open_end_dialog_offers_the_game_another_started(browser: Any, server: Server) -> None:
    """Seat 0 plays again while seat 1's end dialog is open: that dialog offers the next game
    ("Play the next game", in Polish here) and takes seat 1 to the game seat 0 started, not to
    a second one; a spectator's dialog offers to watch it."""
    errors: list[str] = []
    game = finished_match(server, ["human", "human"], lang="pl")
    pages = []
    for seat in (0, 1):
        page = new_page(browser, errors, locale="pl-PL", **DESKTOP)
        page.goto(server.url + game["seats"][seat]["url"])
        page.locator("dialog.end-dialog").wait_for()
        pages.append(page)
    watcher = new_page(browser, errors, locale="pl-PL", **DESKTOP)
    watcher.goto(f"{server.url}/g/{game['game']}/watch")
    watcher.locator("dialog.end-dialog").wait_for()
    dialog = pages[1].locator("dialog.end-dialog")
    button = dialog.locator(".dialog-actions button.primary")
    assert button.inner_text() == "Zagraj ponownie"  # nobody has asked yet
    pages[0].locator('dialog.end-dialog button[data-key="again"]').click()
    old = f"/g/{game['game']}"
    wait_true(pages[0], f"location.pathname !== '{old}' && window.exact61?.view?.frame?.you === 0")
    new = pages[0].evaluate("location.pathname")
    wait_true(pages[1], "window.exact61.view.rematch !== null")
    # the open dialog says so itself, not only the bar behind it, which the dialog covers
    assert dialog.is_visible()
    assert button.inner_text() == "Zagraj następną grę", button.inner_text()
    assert button.get_attribute("data-key") == "next"
    assert "Następna gra jest gotowa." in dialog.inner_text()
    link = watcher.locator('dialog.end-dialog a[data-key="next"]')
    link.wait_for()
    assert link.get_attribute("href") == f"{new}/watch"
    button.click()
    wait_true(pages[1], f"location.pathname === '{new}' && window.exact61?.view?.frame?.you === 1")
    assert not errors, errors


# The focused element's outline as it is seen: its colour through the opacity of the element
# and its ancestors, over the background around it; the contrast of the two (WCAG).
FOCUS_RING = """(() => {
  const el = document.activeElement;
  const rgba = (text) => {
    const v = text.match(/[\\d.]+/g).map(Number);
    return v.length > 3 ? v : [...v, 1];
  };
  const linear = (v) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
  const lum = (c) => 0.2126 * linear(c[0]) + 0.7152 * linear(c[1]) + 0.0722 * linear(c[2]);
  const opacity = (node) => {
    let alpha = 1;
    for (let n = node; n; n = n.parentElement) alpha *= Number(getComputedStyle(n).opacity);
    return alpha;
  };
  let back = [255, 255, 255, 1];
  for (let n = el.parentElement; n; n = n.parentElement) {
    const c = rgba(getComputedStyle(n).backgroundColor);
    if (c[3] > 0) { back = c; break; }
  }
  const style = getComputedStyle(el);
  const ring = rgba(style.outlineColor);
  const a = opacity(el) * ring[3];
  const seen = ring.map((v, i) => a * v + (1 - a) * back[i]);
  const [hi, lo] = [lum(seen), lum(back)].sort((x, y) => y - x);
  return {
    tile: el.dataset.tile ?? null,
    focusVisible: el.matches(":focus-visible"),
    outline: style.outlineStyle,
    width: parseFloat(style.outlineWidth),
    contrast: (hi + 0.05) / (lo + 0.05),
    fits: el.getAttribute("aria-disabled") !== "true",
    label: el.getAttribute("aria-label"),
    face: opacity(el.querySelector(".tile-image")),
  };
})()"""


def test_every_hand_tile_shows_a_clear_focus_ring(browser: Any, server: Server) -> None:
    """Tab through the hand on a turn when some tiles fit and some fit nowhere: each tile shows
    a focus ring at 3:1 or more against the hand behind it (a tile that fits nowhere too: its
    face is dimmed, not its ring), and a tile that fits nowhere stays in the tab order, saying
    so to a screen reader."""
    errors: list[str] = []
    game = server.create(["human", "bot:greedy"])
    page = new_page(browser, errors, **DESKTOP)
    page.goto(server.url + game["seats"][0]["url"])
    person = Person(page, 0)
    deadline = time.monotonic() + 120
    while True:  # a turn with tiles of both kinds
        frame = my_turn_with_plays(person)
        fitting = {f"{a['tile'][0]}-{a['tile'][1]}" for a, _c in person.plays(frame)}
        if len(fitting) < len(frame["hand"]):
            break
        assert time.monotonic() < deadline, "no turn with a tile that fits nowhere"
        person.act(frame)
    tiles = page.locator(".hand-tile")
    count = tiles.count()
    tiles.first.focus()
    page.keyboard.press("Shift+Tab")  # the keyboard's way in: the ring shows (:focus-visible)
    page.keyboard.press("Tab")
    seen = []
    for i in range(count):
        if i:
            page.keyboard.press("Tab")
        seen.append(page.evaluate(FOCUS_RING))
    assert [s["tile"] for s in seen] == tiles.evaluate_all("ts => ts.map((t) => t.dataset.tile)")
    for ring in seen:
        assert ring["focusVisible"] and ring["outline"] == "solid" and ring["width"] >= 2, ring
        assert ring["contrast"] >= 3, ring
    nowhere = [s for s in seen if not s["fits"]]
    assert nowhere and {s["tile"] for s in nowhere} == {s["tile"] for s in seen} - fitting
    for ring in nowhere:  # told apart by a dimmed face, and in words
        assert ring["face"] < 0.6 and "fits nowhere" in ring["label"], ring
    assert all(s["face"] == 1 for s in seen if s["fits"])
    assert not errors, errors


@pytest.mark.parametrize("locale", ["en-US", "de-DE"])
def test_the_lobby_names_bots_as_the_new_game_form_does(
    browser: Any, server: Server, locale: str
) -> None:
    """A bot's level, then its bot: `medium (ismcts:20)`, the same in the form and the lobby
    (`expert` once, where the two read the same)."""
    errors: list[str] = []
    name = f"Bots by level {locale}"
    seats = ["human", "human", "bot:expert", "bot:medium"]
    server.create(seats, open=True, name=name, lang=locale[:2])
    page = new_page(browser, errors, locale=locale, **DESKTOP)
    page.goto(server.url + "/")
    row = page.locator(".lobby-game", has_text=name)
    row.wait_for()
    taken = row.locator(".taken").all_inner_texts()
    form = dict(
        zip(
            page.locator("#seat-1 option").evaluate_all("os => os.map((o) => o.value)"),
            page.locator("#seat-1 option").all_inner_texts(),
            strict=True,
        )
    )
    for seat in (2, 3):  # "Seat 2: expert" in the lobby, "Bot: expert" in the form
        lobby_words = taken[seat - 1].split(": ", 1)[1]  # seat 0 first; seat 1 is free
        form_words = form[seats[seat]].split(": ", 1)[1]
        assert lobby_words == form_words, (taken, form)
    if locale == "en-US":
        assert taken[1:] == ["Seat 2: expert", "Seat 3: medium (ismcts:20)"], taken
        assert (
            form["bot:medium"] == "Bot: medium (ismcts:20)" and form["bot:expert"] == "Bot: expert"
        )
    assert not errors, errors


def test_the_lobby_names_the_person_in_a_taken_seat(browser: Any, server: Server) -> None:
    """A taken seat reads `Seat 0: Ada` when its person gave a name, `Seat 2: a person` when
    not: the lobby's answer carries the names, and a bare `Seat 0` looked like a seat number
    with nobody in it."""
    errors: list[str] = []
    name = "Names in the lobby"
    game = server.create(
        ["human", "human", "human", "bot:easy"],
        open=True,
        name=name,
        names=["Ada", None, None, None],
    )
    take = httpx.post(f"{server.url}/api/games/{game['game']}/seats/2")
    assert take.status_code == 201, take.text
    page = new_page(browser, errors, **DESKTOP)
    page.goto(server.url + "/")
    row = page.locator(".lobby-game", has_text=name)
    row.wait_for()
    assert row.locator(".taken").all_inner_texts() == [
        "Seat 0: Ada",
        "Seat 2: a person",
        "Seat 3: easy (ismcts:6)",
    ]
    assert row.locator("button", has_text="Take seat 1").count() == 1
    assert not errors, errors


# ---- a seat's own name, given at the table ----------------------------------------------------

ACTIVE_KEY = "document.activeElement?.dataset?.key ?? null"


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_person_who_came_by_a_seat_link_names_themselves(
    browser: Any, server: Server, size: str
) -> None:
    """Only a game's maker or a seat taken from the lobby could name a seat: a person sent a
    seat link was `Seat 1` to everyone. At the table they set their name (by the keyboard),
    everyone sees it, and a name this browser remembers only fills the field."""
    errors: list[str] = []
    game = server.create(["human", "human", "bot:easy"])
    seat_url = next(s["url"] for s in game["seats"] if s["seat"] == 1)
    other = new_page(browser, errors, **DESKTOP)
    other.goto(server.url + game["seats"][0]["url"])
    wait_true(other, "window.exact61?.view?.frame")
    page = new_page(browser, errors, **(PHONE_390 if size == "phone" else DESKTOP_800))
    page.goto(server.url + "/")
    page.evaluate("localStorage.setItem('exact61.name', 'Remembered')")
    page.goto(server.url + seat_url)
    wait_true(page, "window.exact61?.view?.frame?.you === 1")
    edit = page.locator('button[data-key="name-edit"]')
    assert edit.inner_text() == "Set your name"
    summary = httpx.get(f"{server.url}/api/games/{game['game']}").json()
    assert summary["seats"][1]["name"] is None  # nothing is sent unasked
    edit.focus()
    page.keyboard.press("Enter")
    field = page.get_by_label("Your name", exact=True)
    assert field.input_value() == "Remembered"  # the remembered name, only in the field
    assert page.evaluate(ACTIVE_KEY) == "name-input"
    assert field.get_attribute("maxlength") == "24"
    page.keyboard.press("Escape")  # Cancel: nothing sent, the button has the focus again
    assert page.evaluate(ACTIVE_KEY) == "name-edit"
    page.keyboard.press("Enter")
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")  # a phone too
    box = field.bounding_box()
    assert (
        box is not None and box["x"] >= 0 and box["x"] + box["width"] <= page.viewport_size["width"]
    )
    assert not axe_problems(page), axe_problems(page)
    field.fill("a\u202eb")  # a character no name may hold: the server says so
    page.keyboard.press("Enter")
    toast = page.locator(".toast", has_text="A name is 1 to 24")
    toast.wait_for()
    assert field.input_value() == "a\u202eb"  # the form is open again, as it was
    field.fill("  Ada <b>x</b> ")
    page.keyboard.press("Enter")
    assert page.evaluate(ACTIVE_KEY) == "name-edit"
    wait_true(other, "window.exact61.view.frame.seats[1].name === 'Ada <b>x</b>'")
    names = other.locator(".player-name").all_inner_texts()
    assert any(name.startswith("Ada <b>x</b>") for name in names), names
    assert other.locator(".player-name b").count() == 0  # plain text, never markup
    wait_true(
        page, "document.querySelector('.my-name-text').textContent === 'Your name: Ada <b>x</b>'"
    )
    assert edit.inner_text() == "Change your name"
    assert page.evaluate("localStorage.getItem('exact61.name')") == "Ada <b>x</b>"
    assert not axe_problems(page), axe_problems(page)
    summary = httpx.get(f"{server.url}/api/games/{game['game']}").json()
    assert summary["seats"][1]["name"] == "Ada <b>x</b>"
    watcher = new_page(browser, errors, **DESKTOP)
    watcher.goto(server.url + game["watch"])
    wait_true(watcher, "window.exact61?.view?.frame")
    assert watcher.locator(".my-name").is_hidden()  # a spectator has no seat to name
    assert not errors, errors


# ---- the table as new players use it: openings, the hint, links, the phone (issue 44) ---------


def an_opening(browser: Any, server: Server, errors: list[str], **options: Any) -> Person:
    """Seat 0's page of a new game against a bot in which seat 0 opens the first round (R6 draws
    the opener: games are made until one does)."""
    for _ in range(40):
        game = server.create(["human", "bot:greedy"])
        page = new_page(browser, errors, **options)
        page.goto(server.url + game["seats"][0]["url"])
        wait_true(page, "window.exact61?.view?.frame")
        frame = page.evaluate("window.exact61.view.frame")
        if frame["to_act"] == 0 and not frame["layout"]:
            settled_paint(page)
            return Person(page, 0, "tap" if options.get("has_touch") else "click")
        page.context.close()
    raise AssertionError("seat 0 never opened")


def hinted(page: Any) -> dict[str, Any]:
    wait_true(page, "window.exact61.view.hint !== null")
    settled_paint(page)
    hint: dict[str, Any] = page.evaluate("window.exact61.view.hint.action")
    return hint


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_hint_at_an_opening_is_played_with_enter_or_a_tap(
    browser: Any, server: Server, size: str
) -> None:
    """At an opening the hint picked its tile and offered an empty list of places with only
    Back; the Hint button kept the focus, so Enter asked for the hint again. Now the hint marks
    its tile and "Play the hint", which takes the focus, plays it: Enter on a desktop, a tap on
    a phone."""
    errors: list[str] = []
    person = an_opening(browser, server, errors, **(PHONE_390 if size == "phone" else DESKTOP_800))
    page = person.page
    person.press(page.locator('button[data-key="hint"]'), person.way)
    hint = hinted(page)
    key = f"{hint['tile'][0]}-{hint['tile'][1]}"
    assert hint["at"] is None
    # no list of places without a place in it: the hint's tile is marked, and said to be
    assert page.locator(".choices").is_hidden()
    tile = page.locator(f'.hand-tile[data-tile="{key}"]')
    assert "hinted" in (tile.get_attribute("class") or "")
    assert "suggested by the hint" in (tile.get_attribute("aria-label") or "")
    play = page.locator('button[data-key="play-hint"]')
    assert play.is_visible() and page.evaluate(ACTIVE_KEY) == "play-hint"
    if size == "desktop":
        page.keyboard.press("Enter")
    else:
        play.tap()
    wait_true(page, "window.exact61.view.frame.seq > 0")
    layout = page.evaluate("window.exact61.view.frame.layout")
    assert layout[0] == {"tile": hint["tile"], "at": None}
    assert not errors, errors


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_touch_screen_shows_no_keys_to_press(browser: Any, server: Server, size: str) -> None:
    """The hint's key (?) and each hand tile's number (1, 2, ...) say which key does it: on a
    phone there are no keys, and a first-time player read "Hint (?)" as a question. The names
    for screen readers keep the numbers."""
    errors: list[str] = []
    phone = size == "phone"
    person = an_opening(browser, server, errors, **(PHONE if phone else DESKTOP))
    page = person.page
    hint = page.locator('button[data-key="hint"]')
    assert hint.inner_text() == ("Hint" if phone else "Hint (?)")
    number = page.locator(".hand-tile .number").first
    assert number.is_visible() is not phone
    assert page.locator(".hand-tile").first.get_attribute("aria-label").startswith("1: ")
    assert not errors, errors
    page.context.close()


def test_the_hint_button_then_enter_plays_the_hint_in_a_round(browser: Any, server: Server) -> None:
    """Clicking Hint, then Enter, asked for the hint again: the focus stayed on the button,
    though the docs say Enter plays the hinted move. On a layout too, "Play the hint" takes the
    focus, and Enter plays it."""
    errors: list[str] = []
    game = server.create(["human", "bot:greedy"])
    page = new_page(browser, errors, **DESKTOP_800)
    page.goto(server.url + game["seats"][0]["url"])
    person = Person(page, 0)
    while True:  # a placement on a layout (the opening is the test above's)
        frame = my_turn_with_plays(person)
        if frame["layout"]:
            break
        person.act(frame)
    page.locator('button[data-key="hint"]').click()
    hint = hinted(page)
    assert page.evaluate(ACTIVE_KEY) == "play-hint"
    # the status line names the place as the board draws its tile, as the reasons below it do
    picture = page.evaluate("window.exact61.view.frame.picture")
    drawn = next(t["name"] for t in picture["tiles"] if t["tile"] == hint["at"][0])
    wait_true(page, "document.querySelectorAll('ul.hint-why li').length > 0")
    status = page.locator(".status-text").inner_text()
    said = [status, *page.locator("ul.hint-why li").all_inner_texts()]
    assert f"{drawn} " in said[0], (drawn, said)
    assert all(f"[{hint['at'][0][0]}|{hint['at'][0][1]}] " not in line for line in said) or (
        drawn == f"[{hint['at'][0][0]}|{hint['at'][0][1]}]"
    ), (drawn, said)
    page.keyboard.press("Enter")
    wait_true(page, f"window.exact61.view.frame.seq > {frame['seq']}")
    layout = page.evaluate("window.exact61.view.frame.layout")
    assert {"tile": hint["tile"], "at": hint["at"]} in layout, (hint, layout)
    named = page.evaluate(  # the page's own module (its versioned address): a turned tile
        "import(performance.getEntriesByType('resource').map((e) => e.name)"
        ".find((n) => n.endsWith('/js/words.js'))).then((w) => {"
        " w.nameTilesAs({tiles: [{tile: [1, 3], name: '[3|1]'}]});"
        " return [w.pointName([[1, 3], 'high']), w.pointName([[2, 4], 'low'])]; })"
    )
    assert named == ["[3|1] high end", "[2|4] low end"]
    assert not errors, errors


LANDSCAPE = {"viewport": {"width": 740, "height": 360}, "is_mobile": True, "has_touch": True}


@pytest.mark.parametrize("size", ["phone", "landscape"])
def test_after_a_hint_everything_to_play_it_is_in_sight(
    browser: Any, server: Server, size: str
) -> None:
    """After a tap on Hint, the status line that says it, the layout's frame, the hand and Play
    the hint are all on the screen at once: on a 360 x 740 phone Play the hint was under the
    fold (the hint said twice, in the status line and again in the hand), and on a phone on its
    side (740 x 360) the one column put the status line a screen above the hand."""
    errors: list[str] = []
    person = an_opening(browser, server, errors, **(PHONE if size == "phone" else LANDSCAPE))
    page = person.page
    page.locator('button[data-key="hint"]').tap()
    hinted(page)
    page.locator('button[data-key="play-hint"]').wait_for()
    settled_paint(page)
    height = page.viewport_size["height"]
    for part in (".status", ".board-scroll", ".hand-tiles", 'button[data-key="play-hint"]'):
        box = page.locator(part).bounding_box()
        assert box["y"] >= 0 and box["y"] + box["height"] <= height, (part, box)
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]
    page.locator('button[data-key="play-hint"]').tap()
    wait_true(page, "window.exact61.view.frame.layout.length > 0")
    assert not errors, errors
    page.context.close()


PHONE_ON_ITS_SIDE = {
    "viewport": {"width": 844, "height": 390},
    "is_mobile": True,
    "has_touch": True,
}
# a hand of five dealt tiles and seven drawn: copies of the dealt ones, whose room is all that
# counts here; then where the status line, each tile and Hint are on the screen
FULL_HAND = """(() => {
    const tiles = document.querySelector('.hand-tiles');
    const dealt = [...tiles.children];
    for (let i = 0; i < 7; i++) tiles.append(dealt[i % dealt.length].cloneNode(true));
    const parts = document.querySelectorAll('.status, .hand-tile, button[data-key="hint"]');
    return [...parts].map((e) => [e.className, e.getBoundingClientRect().toJSON()]);
})()"""


def test_a_full_hand_on_a_phone_on_its_side_keeps_hint_in_sight(
    browser: Any, server: Server
) -> None:
    """At 844 x 390 a hand of twelve tiles took three rows and Hint came under them, below the
    fold: a player scrolled the page, the status line with it, to reach it. Hint is beside the
    hand's title now and the tiles take two rows: the status line, every tile and Hint are on
    the screen, the page unscrolled."""
    errors: list[str] = []
    person = an_opening(browser, server, errors, **PHONE_ON_ITS_SIDE)
    page = person.page
    height = page.viewport_size["height"]
    parts = page.evaluate(FULL_HAND)
    assert len(parts) == 1 + 12 + 1
    for name, box in parts:
        assert box["top"] >= 0 and box["bottom"] <= height, (name, box, height)
    assert page.evaluate("scrollY") == 0
    assert not errors, errors
    page.context.close()


def test_the_hand_holds_still_when_the_hint_comes(browser: Any, server: Server) -> None:
    """A tile tapped to open a round did not always play: the hint, coming in, drew the whole
    hand anew, and at an opening after the first every tile slid in again from above for half
    a second, away from the finger. The hand keeps its buttons now: a tile slides in once, when
    it comes, and a press held while the hint comes ends on the tile it began on."""
    errors: list[str] = []
    game = server.create(["human", "bot:greedy"])
    context = browser.new_context(reduced_motion="no-preference", **DESKTOP_800)
    page = context.new_page()
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(server.url + game["seats"][0]["url"])
    person = Person(page, 0)
    deadline = time.monotonic() + 240
    while True:  # an opening of seat 0's after the first round (R8: it made domino)
        assert time.monotonic() < deadline, "seat 0 never opened a later round"
        person.close_settlements()
        frame = person.frame()
        if frame and frame["round"] > 0 and frame["to_act"] == 0 and not frame["layout"]:
            break
        if frame is None or frame["status"] == "over":
            page.close()
            game = server.create(["human", "bot:greedy"])
            page = context.new_page()
            page.goto(server.url + game["seats"][0]["url"])
            person = Person(page, 0)
            continue
        if not person.act(frame):
            time.sleep(0.05)
    moving = (
        "document.getAnimations().filter((a) => a.effect?.target?.closest?.('.hand-tiles'))"
        ".filter((a) => a.playState === 'running').length"
    )
    wait_true(page, f"{moving} === 0")  # the new hand has slid in
    tile = frame["hand"][-1]
    box = page.locator(f'.hand-tile[data-tile="{tile[0]}-{tile[1]}"]').bounding_box()
    assert box is not None
    page.locator('button[data-key="hint"]').click()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    wait_true(page, "window.exact61.view.hint !== null")  # it comes while the tile is held
    assert page.evaluate(moving) == 0  # nothing moves under the pointer
    page.mouse.up()
    wait_true(page, f"window.exact61.view.frame.seq > {frame['seq']}")
    layout = page.evaluate("window.exact61.view.frame.layout")
    assert layout and layout[0]["tile"] == tile, (layout, tile)
    context.close()
    assert not errors, errors


IN_FRAME = """(selector) => {
    const mark = document.querySelector(selector).querySelector('.dot').getBoundingClientRect();
    const frame = document.querySelector('.board-scroll').getBoundingClientRect();
    return mark.left >= frame.left && mark.right <= frame.right && mark.top >= frame.top
        && mark.bottom <= frame.bottom && mark.top >= 0 && mark.bottom <= innerHeight;
}"""


def test_the_hinted_place_comes_into_view_on_a_phone(browser: Any, server: Server) -> None:
    """On a phone the hint's place stayed out of the layout's frame when another lit place was
    in it. Played with the hint all along (Play the hint), until a hint's tile fits several
    places: scrolled away from it, the hint brings it into view."""
    errors: list[str] = []
    game = server.create(["human", "bot:greedy"])
    page = new_page(browser, errors, **PHONE_390)
    page.goto(server.url + game["seats"][0]["url"])
    person = Person(page, 0, "tap")
    for _ in range(5):
        page.locator('button[data-key="zoom-in"]').tap()  # tiles 3 times their size: a layout
        # wider and taller than its frame
    deadline = time.monotonic() + 180
    while True:
        assert time.monotonic() < deadline, "no hint with several places came"
        frame = my_turn_with_plays(person)
        page.evaluate(f"window.exact61.socket.hint({frame['seq']})")
        hint = hinted(page)
        scrolls = page.evaluate(
            "(() => { const f = document.querySelector('.board-scroll');"
            " return f.scrollWidth > 1.5 * f.clientWidth; })()"
        )
        if scrolls and page.locator(".choices button.choice").count() > 1:
            break
        page.locator('button[data-key="play-hint"]').tap()
        wait_true(page, f"window.exact61.view.frame.seq > {frame['seq']}")
    point = f"{hint['at'][0][0]}-{hint['at'][0][1]}-{hint['at'][1]}"
    mark = f'svg.layout .point.choice.hinted[data-point="{point}"]'
    # the frame scrolled so that the hint's place (its dot) is just out of it
    page.evaluate(
        """(selector) => {
            const frame = document.querySelector('.board-scroll');
            const dot = document.querySelector(selector).querySelector('.dot');
            const mark = dot.getBoundingClientRect();
            const box = frame.getBoundingClientRect();
            const most = [frame.scrollWidth - frame.clientWidth,
                          frame.scrollHeight - frame.clientHeight];
            const moves = [[mark.right - box.left + 2, 0], [mark.left - box.right - 2, 0],
                           [0, mark.bottom - box.top + 2], [0, mark.top - box.bottom - 2]];
            for (const [x, y] of moves) {
                const left = frame.scrollLeft + x, top = frame.scrollTop + y;
                if (left >= 0 && top >= 0 && left <= most[0] && top <= most[1]) {
                    frame.scrollTo(left, top);
                    return;
                }
            }
        }""",
        mark,
    )
    settled_paint(page)
    assert not page.evaluate(f"({IN_FRAME})({json.dumps(mark)})"), "the place stayed in view"
    page.evaluate(f"window.exact61.socket.hint({frame['seq']})")  # the hint again
    wait_true(page, f"({IN_FRAME})({json.dumps(mark)})")
    assert not errors, errors


def test_the_hint_says_why_in_the_language_the_page_is_in(browser: Any, server: Server) -> None:
    """Every game's hint says why (`learn.hints`), under the hint; the language changed with
    the hint on screen, the reasons follow it (the server's words, asked again), on a phone."""
    errors: list[str] = []
    game = server.create(["human", "bot:greedy"])
    page = new_page(browser, errors, **PHONE_390)
    page.goto(server.url + game["seats"][0]["url"])
    person = Person(page, 0, "tap")
    frame = my_turn_with_plays(person)
    page.locator('button[data-key="hint"]').tap()
    hint = hinted(page)
    wait_true(page, "document.querySelectorAll('ul.hint-why li').length > 1")
    english = page.locator("ul.hint-why li").all_inner_texts()
    # the expert's move and why; or, where there is one move (or places alike), what it scores
    one = english[0].endswith("is the only move you have (R10).")
    assert one or english[0].startswith(("The expert plays ", "Every move you have plays")), english
    assert page.evaluate("window.exact61.view.frame.seq") == frame["seq"]
    page.locator("header select").select_option("de")
    first = json.dumps(english[0])
    wait_true(page, f"document.querySelector('ul.hint-why li').textContent !== {first}")
    german = page.locator("ul.hint-why li").all_inner_texts()
    assert len(german) == len(english), (english, german)
    one = german[0].endswith("ist dein einziger Zug (R10).")
    assert one or german[0].startswith(("Der Experte spielt ", "Jeder deiner Züge spielt")), german
    assert page.evaluate("window.exact61.view.hint.action") == hint  # the same hint, in German
    assert page.locator('button[data-key="play-hint"]').is_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390  # no sideways scroll
    # a credit that would pass 61 says so (R4), in the page's words as in the terminal's
    past = page.evaluate(  # the page's own module (its versioned address), in German now
        "import(performance.getEntriesByType('resource').map((e) => e.name)"
        ".find((n) => n.endsWith('/js/words.js'))).then((w) => [w.creditText(15, true),"
        " w.creditText(15), w.hintLine({type: 'play', tile: [3, 6], at: null}, 15, true)])"
    )
    assert past[0] == "Gutschrift 3 (15) über 61 (R4)" and past[1] == "Gutschrift 3 (15)", past
    assert past[2].endswith(", Gutschrift 3 (15) über 61 (R4)"), past
    page.locator("header select").select_option("en")
    assert not errors, errors


def test_closing_a_settlement_shows_whose_turn_it_is(browser: Any, server: Server) -> None:
    """On a phone, closing a round's settlement left the page scrolled down to the hand, the
    status line out of sight. The dialog's scores are a side to a row, each side's points
    whole, and a hand played out says so (it read "– = 0 pips")."""
    errors: list[str] = []
    game = server.create(["human", "bot:greedy"])
    page = new_page(browser, errors, **PHONE_390)
    page.goto(server.url + game["seats"][0]["url"])
    person = Person(page, 0, "tap")
    dialog = page.locator("dialog.settlement-dialog[open]")
    deadline = time.monotonic() + 180
    while True:  # a round that ends in domino, the page scrolled down to the hand
        assert time.monotonic() < deadline, "no round ended in domino"
        page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
        if dialog.count():
            if "R18" in dialog.inner_text():  # made domino: a hand played out
                break
            dialog.locator("button.primary").click()
            continue
        frame = person.frame()
        if frame is None or not person.act(frame):
            time.sleep(0.05)
    rows = dialog.locator(".score-rows li")
    assert rows.count() == 2
    whole = rows.locator(".points").evaluate_all(
        "ps => ps.map((p) => p.getClientRects().length === 1"
        " && p.getBoundingClientRect().height < 1.6 * parseFloat(getComputedStyle(p).lineHeight))"
    )
    assert whole == [True, True], whole
    hands = dialog.locator(".hands li")
    empty = [h for h in hands.all_inner_texts() if not h.count("=")]
    assert len(empty) == 1 and "no tiles left" in empty[0], hands.all_inner_texts()
    assert hands.locator(".tile-image").count() > 0  # the others' tiles, and their pips
    assert page.evaluate("scrollY") > 0
    dialog.locator("button.primary").click()
    settled_paint(page)
    box = page.locator(".status").bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 844, box
    assert not errors, errors


FIELD_SHARE = """(() => [...document.querySelectorAll('.link-row')].map((row) =>
    row.querySelector('input').getBoundingClientRect().width
    / row.getBoundingClientRect().width))()"""


def test_the_phone_layout_of_links_places_and_scores(
    browser: Any, server: Server, tmp_path: Path, artifacts: Path
) -> None:
    """At 390 px in Polish: seat 0's link was squeezed to "http:" by its buttons; a place's
    credit wrapped over two lines in a narrow third column; the replay's scores ran into one
    line ("61 (305) Miejsca 1 i 3: 33 (165)"); a credit R4 would reject was marked in the list
    under the hand but not at its lettered place on the layout."""
    errors: list[str] = []
    page = new_page(browser, errors, locale="pl-PL", **PHONE_390)
    page.goto(server.url + "/")
    page.locator('input[name="players"][value="4"]').check()
    page.locator("#seat-1").select_option("bot:easy")
    page.locator("#seat-2").select_option("human")
    page.locator('button[data-key="create"]').click()
    page.locator(".links .link-row input").first.wait_for()
    shares = page.evaluate(FIELD_SHARE)
    assert len(shares) == 3 and min(shares) > 0.6, shares  # the address has most of its row
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    game = server.create(["human", "bot:greedy"], lang="pl")
    page.goto(server.url + game["seats"][0]["url"])
    person = Person(page, 0, "tap")
    deadline = time.monotonic() + 180
    while True:  # a tile that fits several places, picked
        assert time.monotonic() < deadline, "no tile fitted several places"
        frame = my_turn_with_plays(person)
        tiles = [json.dumps(a["tile"]) for a, _c in person.plays(frame)]
        several = [json.loads(t) for t in tiles if tiles.count(t) > 1]
        if several:
            page.locator(f'.hand-tile[data-tile="{several[0][0]}-{several[0][1]}"]').tap()
            break
        person.act(frame)
    credits = page.locator(".choices .choice .credit").evaluate_all(
        """cs => cs.map((c) => [c.textContent, c.getClientRects().length,
            c.getBoundingClientRect().height < 1.6 * parseFloat(getComputedStyle(c).lineHeight)])"""
    )
    assert credits and all(rects == 1 and one for _t, rects, one in credits), credits
    page.screenshot(path=str(artifacts / "places-phone.png"))
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    # the longest a place's words get: 12 (60) that R4 would reject, "ponad 61 (R4)" after it
    page.evaluate(
        "(() => { const f = window.exact61.view.frame;"
        " f.credits = f.legal.map(() => 60); f.rejects = f.legal.map(() => true); })()"
    )
    tile = page.locator(f'.hand-tile[data-tile="{several[0][0]}-{several[0][1]}"]')
    tile.tap()  # put down, and picked again: its places drawn from the frame as it is now
    tile.tap()
    rejected = page.locator(".choices .choice .credit.rejected")
    assert rejected.count() > 1 and rejected.first.inner_text() == "ponad 61 (R4)"
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    # the layout's lettered places say it too: all but the tile's first place (a) rejected, so
    # a) keeps its green +12, the others' are struck through in the list's red and their names
    # end in the words the list says
    page.evaluate(
        """(tile) => { const f = window.exact61.view.frame;
        const first = f.legal.findIndex((a) => a.type === 'play' && a.at
            && a.tile[0] === tile[0] && a.tile[1] === tile[1]);
        f.rejects = f.legal.map((_a, i) => i !== first); }""",
        several[0],
    )
    tile.tap()
    tile.tap()
    red = rejected.first.evaluate("(c) => getComputedStyle(c).color")
    marks = page.locator("svg.layout .point.choice").evaluate_all(
        """gs => gs.map((g) => { const c = g.querySelector('.credit'), look = getComputedStyle(c);
        return [g.querySelector('.letter').textContent, c.textContent, c.classList.contains(
            'rejected'), look.fill, look.textDecorationLine, g.getAttribute('aria-label')]; })"""
    )
    assert len(marks) > 1 and sorted(m[0] for m in marks)[0] == "a", marks
    for letter, text, struck, fill, line, name in marks:
        assert text == "+12", marks
        if letter == "a":
            assert not struck and fill == "rgb(22, 101, 52)" and line == "none", marks
            assert name.endswith(" 12 (60)") and "ponad 61" not in name, marks
        else:
            assert struck and fill == red == "rgb(180, 35, 24)" and line == "line-through", marks
            assert name.endswith(" 12 (60) ponad 61 (R4)"), marks
    page.screenshot(path=str(artifacts / "places-rejected-phone.png"))
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    # the replay of a finished match: its scores a side to a row
    record = match_to_record(played_match(4, 3, ["greedy"] * 4), seed=3)
    path = tmp_path / "four.json"
    path.write_text(json.dumps(record))
    page.goto(server.url + "/replay")
    page.locator("#record-file").set_input_files(str(path))
    wait_true(page, "window.exact61.view.data")
    page.keyboard.press("End")
    rows = page.locator(".settlement-panel .score-rows li")
    assert rows.count() == 2
    assert [len(t.split("\n")) for t in rows.all_inner_texts()] == [1, 1] or all(
        t.split("\n")[-1].endswith(")") for t in rows.all_inner_texts()
    )
    tops = rows.evaluate_all("ls => ls.map((l) => l.getBoundingClientRect().top)")
    assert tops[1] > tops[0]
    assert not errors, errors


def test_a_seat_opened_again_by_its_address_in_the_same_browser(
    browser: Any, server: Server
) -> None:
    """A seat's address copied from the address bar, or bookmarked, had no key in a new tab of
    the same browser, and the page said so in a tall, mostly empty box. The browser keeps the
    token while the game lasts (never in the address), and a browser that never had it is told
    in one line how to get back to the seat."""
    errors: list[str] = []
    game = server.create(["human", "bot:greedy"])
    page = new_page(browser, errors, **DESKTOP_800)
    page.goto(server.url + game["seats"][0]["url"])
    wait_true(page, "window.exact61?.view?.frame?.you === 0")
    address = page.url
    assert "#" not in address and game["seats"][0]["token"] not in address
    kept = page.evaluate(f"JSON.parse(localStorage.getItem('exact61.seat.{game['game']}.0'))")
    assert kept["token"] == game["seats"][0]["token"]
    left = kept["until"] / 1000 - time.time()
    assert 29 * 86400 < left <= 30 * 86400  # then forgotten
    again = page.context.new_page()  # another tab of the same browser, by the address alone
    again.goto(address)
    wait_true(again, "window.exact61?.view?.frame?.you === 0")
    assert again.locator(".hand").is_visible()
    stranger = new_page(browser, errors, **DESKTOP_800)  # another browser
    stranger.goto(address)
    notice = stranger.locator(".notice")
    notice.wait_for()
    line = notice.locator("p").first
    assert line.inner_text() == "To play at this seat, open the link you were sent for it."
    height = line.evaluate("p => p.getBoundingClientRect().height")
    assert height < 2 * line.evaluate("p => parseFloat(getComputedStyle(p).lineHeight)")
    box = notice.bounding_box()
    assert box is not None and box["height"] < 160, box
    assert not errors, errors


def test_a_finished_game_and_a_dead_link_let_go_of_the_token(browser: Any, server: Server) -> None:
    """A finished match's token is kept a day more at most (for Play again), and a link the
    server no longer knows is forgotten at once."""
    errors: list[str] = []
    game = finished_match(server, ["human", "bot:greedy"])
    page = new_page(browser, errors, **DESKTOP_800)
    page.goto(server.url + game["seats"][0]["url"])
    page.locator("dialog.end-dialog").wait_for()
    key = f"exact61.seat.{game['game']}.0"
    until = page.evaluate(f"JSON.parse(localStorage.getItem('{key}')).until")
    assert until / 1000 - time.time() <= 86400
    page.goto(f"{server.url}/g/{game['game']}?seat=1#not-the-token")
    page.locator(".notice").wait_for()
    wait_true(page, "window.exact61.view.connection === 'closed'")
    assert page.evaluate(f"localStorage.getItem('exact61.seat.{game['game']}.1')") is None
    assert page.evaluate(f"sessionStorage.getItem('exact61.token.{game['game']}.1')") is None
    assert not [e for e in errors if "404" not in e], errors


def test_the_replay_viewer_names_the_people_of_the_record(browser: Any, server: Server) -> None:
    """The replay viewer showed "Seat 0" for a person the record names."""
    errors: list[str] = []
    game = finished_match(
        server, ["human", "bot:greedy", "human", "bot:random"], names=["Ada", None, "Zoë", None]
    )
    page = new_page(browser, errors, **DESKTOP_800)
    page.goto(f"{server.url}/replay?game={game['game']}")
    wait_true(page, "window.exact61.view.data")
    assert page.evaluate("document.documentElement.scrollHeight > innerHeight")
    page.keyboard.press("End")
    settled_paint(page)
    assert page.evaluate("scrollY") == 0  # End goes to the last position, not the page's end
    hands = page.locator(".replay-hands .who").all_inner_texts()
    assert hands[0] == "Ada" and hands[2] == "Zoë" and hands[1].startswith("Seat 1"), hands
    # the first round whole: each of them placed a tile in it, told in their name
    page.evaluate(
        "window.exact61.go(window.exact61.view.data.positions.findIndex((p) => p.round === 1) - 1)"
    )
    log = page.locator(".log-lines").inner_text()
    assert "Ada " in log and "Zoë " in log and "Seat 0" not in log, log
    assert not errors, errors


def make(page: Any, action: dict[str, Any]) -> None:
    """Make a placement through the page: its tile, then its place where it fits several."""
    tile, at = action["tile"], action["at"]
    page.locator(f'.hand-tile[data-tile="{tile[0]}-{tile[1]}"]').click()
    choice = page.locator(f'.choices button[data-key="choice-{at[0][0]}-{at[0][1]}-{at[1]}"]')
    if page.locator(".choices button.choice").count():
        choice.click()


def test_a_move_that_loses_a_race_between_two_tabs_is_told(browser: Any, server: Server) -> None:
    """The same seat in two tabs, both moving at once: the server counts one move, and the
    other tab's move was dropped without a word."""
    errors: list[str] = []
    game = server.create(["human", "bot:greedy"])
    first = new_page(browser, errors, **DESKTOP_800)
    first.goto(server.url + game["seats"][0]["url"])
    second = first.context.new_page()
    second.on("pageerror", lambda error: errors.append(str(error)))
    second.goto(first.url)  # the same seat, by its address
    person = Person(first, 0)
    deadline = time.monotonic() + 120
    while True:  # a turn with two different moves to make
        assert time.monotonic() < deadline, "no turn with two placements"
        frame = my_turn_with_plays(person)
        plays = [p for p, _c in person.plays(frame)]
        if len(plays) > 1 and frame["layout"]:
            break
        person.act(frame)
    wait_true(second, f"window.exact61.view.frame.seq === {frame['seq']}")
    Person(second, 0).close_settlements()  # a round's, if one ended on the way: read in this tab
    # the second tab hears nothing for a while, as over a slow network
    second.evaluate(
        """(() => {
            const ws = window.exact61.socket.ws, handle = ws.onmessage, held = [];
            ws.onmessage = (m) => held.push(m);
            window.release = () => { ws.onmessage = handle; held.forEach((m) => handle(m)); };
        })()"""
    )
    make(first, plays[0])
    wait_true(first, f"window.exact61.view.frame.seq > {frame['seq']}")
    make(second, plays[1])  # too late: refused as stale
    wait_true(second, f"window.exact61.view.sentSeq === {frame['seq']}")
    second.evaluate("window.release()")
    toast = second.locator(".toast", has_text="another tab")
    toast.wait_for()
    assert "not made" in toast.inner_text()
    made = second.evaluate("window.exact61.view.frame.layout")
    assert {"tile": plays[0]["tile"], "at": plays[0]["at"]} in made
    assert {"tile": plays[1]["tile"], "at": plays[1]["at"]} not in made
    assert first.locator(".toast", has_text="another tab").count() == 0
    assert not errors, errors


def test_a_move_lost_with_its_connection_is_sent_again(browser: Any, server: Server) -> None:
    """A move sent into a connection that had died without a word (a phone asleep) was lost,
    and the page waited for its answer for good: tapped again, nothing happened. The page sends
    it again once it is connected again."""
    errors: list[str] = []
    person = an_opening(browser, server, errors, **PHONE_390)
    page = person.page
    frame = person.frame()
    assert frame is not None
    # the network swallows what the page sends, then the connection drops
    page.evaluate(
        """(() => { const ws = window.exact61.socket.ws, send = ws.send.bind(ws);
            ws.send = (data) => (data.includes('"act"') ? undefined : send(data)); })()"""
    )
    tile = frame["hand"][0]
    page.locator(f'.hand-tile[data-tile="{tile[0]}-{tile[1]}"]').tap()
    wait_true(page, f"window.exact61.view.sentSeq === {frame['seq']}")
    time.sleep(0.5)
    assert page.evaluate("window.exact61.view.frame.seq") == frame["seq"]
    page.evaluate("window.exact61.socket.drop()")
    wait_true(page, f"window.exact61.view.frame.seq > {frame['seq']}")
    assert page.evaluate("window.exact61.view.frame.layout")[0]["tile"] == tile
    assert not errors, errors


ALL_LIT_IN_VIEW = """(() => {
    const frame = document.querySelector('.board-scroll').getBoundingClientRect();
    const dots = [...document.querySelectorAll('svg.layout .point.choice .dot')];
    return dots.length > 1 && dots.every((d) => {
        const b = d.getBoundingClientRect();
        return b.left >= frame.left && b.right <= frame.right && b.top >= frame.top
            && b.bottom <= frame.bottom;
    });
})()"""


# The frame scrolled so that one lit place is just out of it and another still in it (where
# none is in view the page has always brought the first in).
SCROLL_ONE_OUT = """(() => {
    const frame = document.querySelector('.board-scroll');
    const dots = [...document.querySelectorAll('svg.layout .point.choice .dot')];
    const seen = (d) => {
        const b = d.getBoundingClientRect(), f = frame.getBoundingClientRect();
        return b.left >= f.left && b.right <= f.right && b.top >= f.top && b.bottom <= f.bottom;
    };
    const most = [frame.scrollWidth - frame.clientWidth, frame.scrollHeight - frame.clientHeight];
    const [x0, y0] = [frame.scrollLeft, frame.scrollTop];
    for (const dot of dots) {
        const mark = dot.getBoundingClientRect(), box = frame.getBoundingClientRect();
        const moves = [[mark.right - box.left + 2, 0], [mark.left - box.right - 2, 0],
                       [0, mark.bottom - box.top + 2], [0, mark.top - box.bottom - 2]];
        for (const [x, y] of moves) {
            const left = x0 + x, top = y0 + y;
            if (left < 0 || top < 0 || left > most[0] || top > most[1]) continue;
            frame.scrollTo(left, top);
            if (dots.some(seen) && !dots.every(seen)) return true;
            frame.scrollTo(x0, y0);
        }
    }
    return false;
})()"""


def test_every_lit_place_of_a_picked_tile_comes_into_view(browser: Any, server: Server) -> None:
    """Playing it through on a desktop: a tile picked lit two places, one of them below the
    layout's frame, out of sight, because the other was in view. Where the frame can hold every
    lit place, the frame shows them all."""
    errors: list[str] = []
    page = new_page(browser, errors, **DESKTOP_800)
    deadline = time.monotonic() + 240
    frame: dict[str, Any] | None = None
    person: Person | None = None
    while True:
        assert time.monotonic() < deadline, "no tile lit places the frame could hold together"
        if person is None or (frame is not None and frame["status"] == "over"):  # a new game
            game = server.create(["human", "bot:greedy"])
            page.goto(server.url + game["seats"][0]["url"])
            person = Person(page, 0)
            for _ in range(3):  # a layout larger than its frame
                page.locator('button[data-key="zoom-in"]').click()
        person.close_settlements()
        frame = person.frame()
        if frame is None or not person.plays(frame):
            time.sleep(0.05)
            continue
        settled_paint(page)
        tiles = [json.dumps(a["tile"]) for a, _c in person.plays(frame)]
        several = [json.loads(t) for t in tiles if tiles.count(t) > 1]
        if several:
            tile = page.locator(f'.hand-tile[data-tile="{several[0][0]}-{several[0][1]}"]')
            tile.click()
            settled_paint(page)
            # all in view, then the frame scrolled so that one of them is just out of it
            if page.evaluate(ALL_LIT_IN_VIEW) and page.evaluate(SCROLL_ONE_OUT):
                break
            page.keyboard.press("Escape")
        person.close_settlements()
        person.act(frame)
    settled_paint(page)
    assert not page.evaluate(ALL_LIT_IN_VIEW)
    page.keyboard.press("Escape")  # put down, then picked again
    tile.click()
    wait_true(page, ALL_LIT_IN_VIEW)
    assert not errors, errors


# ---- the table as people hold a phone: upright and on its side --------------------------------

# a finger's reach, as every button's 44 px: whether a press `reach` px from the middle of `el`
# (up, down, left, right) lands on it (`closest`: the element that takes the press), where that
# spot is on the screen and inside `within`, the frame that shows it
REACH = """([el, closest, within, reach]) => {
    const box = el.getBoundingClientRect();
    const frame = within.getBoundingClientRect();
    const x = (box.left + box.right) / 2, y = (box.top + box.bottom) / 2;
    const out = [];
    for (const [dx, dy] of [[0, -reach], [0, reach], [-reach, 0], [reach, 0]]) {
        const [px, py] = [x + dx, y + dy];
        if (px < Math.max(0, frame.left) || px > Math.min(innerWidth, frame.right)
            || py < Math.max(0, frame.top) || py > Math.min(innerHeight, frame.bottom)) continue;
        const hit = document.elementFromPoint(px, py)?.closest(closest);
        out.push(hit === el.closest(closest));
    }
    return out;
}"""


def test_the_end_dialog_on_a_phone_on_its_side(browser: Any, server: Server) -> None:
    """On a phone on its side (740 x 360) the end dialog's buttons were under the screen's
    edge: now every button and the close button are on the screen as it opens, the words
    scroll between them to their last line, and a rule's reference in them (R18, R30...)
    takes a finger 44 px across though it looks as small as the words."""
    errors: list[str] = []
    game = finished_match(server, ["human", "human"], lang="pl")
    page = new_page(browser, errors, locale="pl-PL", **LANDSCAPE)
    page.goto(server.url + game["seats"][0]["url"])
    dialog = page.locator("dialog.end-dialog")
    dialog.wait_for()
    body = dialog.locator(".dialog-body")
    # a match that ends on a placement says little; one that ends in a settlement says its hands
    # and lines as well (R17-R23): the words made three times as long, taller than the screen
    body.evaluate("b => b.append(...[...b.children, ...b.children].map((c) => c.cloneNode(true)))")
    settled_paint(page)
    height = page.viewport_size["height"]
    assert body.evaluate("b => b.scrollHeight") > height
    buttons = dialog.locator(".dialog-actions > *, .dialog-head .close")
    assert buttons.count() >= 5
    for box in buttons.evaluate_all("bs => bs.map((b) => b.getBoundingClientRect().toJSON())"):
        assert box["top"] >= 0 and box["bottom"] <= height, (box, height)
    body.evaluate("b => { b.scrollTop = b.scrollHeight; }")
    settled_paint(page)
    last = body.evaluate(
        "b => [b.lastElementChild.getBoundingClientRect().bottom, b.getBoundingClientRect().bottom]"
    )
    assert last[0] <= min(last[1], height) + 0.5, (last, height)
    reference = dialog.locator(".rule-ref").first
    reference.evaluate("r => r.scrollIntoView({ block: 'center' })")
    settled_paint(page)
    box = reference.bounding_box()
    assert box["height"] < 30  # the look of the words
    reaches = page.evaluate(
        REACH, [reference.element_handle(), ".rule-ref", body.element_handle(), 21]
    )
    assert len(reaches) == 4 and all(reaches), reaches
    reference.tap(position={"x": box["width"] / 2, "y": box["height"] / 2 + 20}, force=True)
    page.locator("dialog[open] .dialog-head h2", has_text=re.compile(r"^R\d+$")).wait_for()
    assert not errors, errors
    page.context.close()


LIT = "[...document.querySelectorAll('svg.layout .point.choice')]"


def test_the_phone_hand_stays_put_while_the_layout_grows(browser: Any, server: Server) -> None:
    """At 360 x 740 the layout's frame grew from 170 to 296 px in a round, and the hand under
    it went down at every move. The frame keeps one height now, the picture inside it zoomed or
    scrolled: the hand's top stays where it was from the first move to a tall layout. A lit
    place on the board takes a finger 44 px across (halfway to the next lit place at most):
    a tap 20 px beside its dot plays there."""
    errors: list[str] = []
    game = server.create(["human", "bot:greedy"], seed=7)
    page = new_page(browser, errors, **PHONE)
    page.goto(server.url + game["seats"][0]["url"])
    person = Person(page, 0, "tap")
    tops: dict[int, float] = {}
    tapped_beside = False
    tallest = 0.0
    deadline = time.monotonic() + 120
    while not (tapped_beside and tallest >= 12):
        assert time.monotonic() < deadline, (tapped_beside, tallest, tops)
        frame = my_turn_with_plays(person)
        assert frame["status"] == "playing"
        tallest = max(tallest, frame["picture"]["h"])
        tops[frame["seq"]] = page.evaluate(
            "document.querySelector('.hand').getBoundingClientRect().top + scrollY"
        )
        tiles = [json.dumps(a["tile"]) for a, _c in person.plays(frame)]
        several = [json.loads(t) for t in tiles if tiles.count(t) > 1]
        if tapped_beside or not several:
            person.act(frame)
            continue
        page.locator(f'.hand-tile[data-tile="{several[0][0]}-{several[0][1]}"]').tap()
        page.locator("svg.layout .point.choice").first.wait_for()
        settled_paint(page)
        # each lit place answers 20 px from its dot, or halfway to the nearest other lit place
        reach = page.evaluate(
            f"""(() => {{
                const dots = {LIT}.map((p) => p.querySelector('.dot').getBoundingClientRect());
                const mid = (b) => [(b.left + b.right) / 2, (b.top + b.bottom) / 2];
                return Math.min(20, ...dots.flatMap((a, i) => dots.filter((_, j) => j !== i)
                    .map((b) => Math.hypot(mid(a)[0] - mid(b)[0], mid(a)[1] - mid(b)[1]) / 2 - 1)));
            }})()"""
        )
        # every lit place as drawn at this moment, in one call: handles taken beforehand name
        # the elements of a drawing the board may since have replaced (detached, they measure
        # 0 x 0 at the page's corner, and every place seemed out of sight)
        reaches, where = page.evaluate(
            f"""(reach) => {{
                const frame = document.querySelector('.board-scroll');
                const box = (el) => el.getBoundingClientRect().toJSON();
                return [{LIT}.map((mark) => ({REACH})([mark.querySelector('.dot'),
                            '.point.choice', frame, reach])),
                        [scrollY, box(frame),
                         {LIT}.map((mark) => box(mark.querySelector('.dot')))]];
            }}""",
            reach,
        )  # none for a place out of the frame's sight
        assert any(reaches) and all(all(r) for r in reaches), (reach, reaches, where)
        if reach < 16:  # too near each other to tell a finger's 20 px: another turn
            page.locator('.choices button[data-key="back"]').tap()
            person.act(frame)
            continue
        mark = page.locator("svg.layout .point.choice").nth([bool(r) for r in reaches].index(True))
        point = mark.get_attribute("data-point")
        dot = mark.locator(".dot").bounding_box()
        frame_box = page.locator(".board-scroll").bounding_box()
        x, y = dot["x"] + dot["width"] / 2, dot["y"] + dot["height"] / 2
        spots = [(x, y - 20), (x, y + 20), (x - 20, y), (x + 20, y)]
        inside = [
            (sx, sy)
            for sx, sy in spots
            if frame_box["x"] < sx < frame_box["x"] + frame_box["width"]
            and max(0, frame_box["y"]) < sy < min(740, frame_box["y"] + frame_box["height"])
        ]
        page.touchscreen.tap(*inside[0])
        wait_true(page, f"window.exact61.view.sent?.seq === {frame['seq']}")
        at = page.evaluate("window.exact61.view.sent.action.at")  # the move the tap made
        assert f"{at[0][0]}-{at[0][1]}-{at[1]}" == point, (point, at)
        wait_true(page, f"window.exact61.view.frame.seq > {frame['seq']}")
        tapped_beside = True
    assert len(set(tops.values())) == 1, tops
    assert not errors, errors
    page.context.close()


TABLETS = {
    "768x1024": {"viewport": {"width": 768, "height": 1024}, "is_mobile": True, "has_touch": True},
    "820x1180": {"viewport": {"width": 820, "height": 1180}, "is_mobile": True, "has_touch": True},
    # on their side: wider than a phone, a desktop's two columns
    "1024x768": {"viewport": {"width": 1024, "height": 768}, "is_mobile": True, "has_touch": True},
    "1180x820": {"viewport": {"width": 1180, "height": 820}, "is_mobile": True, "has_touch": True},
}


@pytest.mark.parametrize("size", sorted(TABLETS))
def test_the_tablet_hand_stays_put_while_the_layout_grows(
    browser: Any, server: Server, size: str
) -> None:
    """On a tablet held upright the layout's frame grew during a round, as a desktop's does,
    and the hand under it went down at every move, away from the finger. A tablet's frame keeps
    one height all match long, as a phone's, tall enough for a layout with arms; the hand and
    Hint under it stay on the screen."""
    errors: list[str] = []
    game = server.create(["human", "bot:greedy"])
    page = new_page(browser, errors, **TABLETS[size])
    page.goto(server.url + game["seats"][0]["url"])
    person = Person(page, 0, "tap")
    height = page.viewport_size["height"]
    tops: dict[int, float] = {}
    tallest = 0.0
    deadline = time.monotonic() + 120
    while tallest < 10:  # a double's arms: a picture taller than the frame's first height
        assert time.monotonic() < deadline, (tallest, tops)
        frame = my_turn_with_plays(person)
        tallest = max(tallest, frame["picture"]["h"])
        tops[frame["seq"]] = page.evaluate(
            "document.querySelector('.hand').getBoundingClientRect().top + scrollY"
        )
        hint = page.locator('button[data-key="hint"]').bounding_box()
        assert hint["y"] + hint["height"] <= height, (frame["seq"], hint, height)
        person.act(frame)
    assert len(set(tops.values())) == 1, tops
    assert page.evaluate("document.querySelector('.board-scroll').clientHeight") >= 300
    assert not errors, errors
    page.context.close()
