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

import json
import os
import shutil
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from exact61 import match_to_record, replay
from exact61.render.geometry import picture_json
from exact61.simulation.driver import play_match
from tests.render.test_picture import layout_of
from tests.server.kit import IN_CI, Server, database_url, server_in_thread

pytestmark = [pytest.mark.server, pytest.mark.browser]

CHROMIUM = Path(os.environ.get("EXACT61_CHROMIUM", "/usr/bin/chromium"))
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
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
        """Read and close every settlement panel on the screen (Continue)."""
        from playwright.sync_api import TimeoutError as PlaywrightTimeout

        closed = 0
        button = self.page.locator("dialog.settlement-dialog[open] button.primary")
        while button.count():
            try:
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
        if way == "keyboard":
            page.locator("body").press(str(index + 1))
        elif way == "tap":
            page.locator(f'.hand-tile[data-tile="{key}"]').tap()
        else:
            page.locator(f'.hand-tile[data-tile="{key}"]').click()
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
                page.locator(f'.choices button[data-key="choice-{point}"]').click()
            elif way == "tap":
                mark.tap()
            else:
                mark.click()
        wait_true(page, f"window.exact61.view.frame.seq > {frame['seq']}")
        self.moves += 1
        return True


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
    for seat, way in ((0, "click"), (1, "keyboard")):
        page = new_page(browser, errors, **DESKTOP)
        page.goto(server.url + game["seats"][seat]["url"])
        wait_true(page, "window.exact61?.view?.frame")
        assert "#" not in page.url  # the token leaves the address bar (kept in the tab)
        kept = "Object.keys({}).filter((k) => k.startsWith('exact61.token.')).length"
        assert page.evaluate(kept.format("sessionStorage")) == 1
        assert page.evaluate(kept.format("localStorage")) == 0  # where every tab could read it
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
    watcher.wait_for_selector("svg.layout")
    wait_true(watcher, "window.exact61?.view?.frame?.you === null")
    assert watcher.locator(".hand").is_hidden()
    assert watcher.evaluate("'hand' in window.exact61.view.frame") is False
    # the bot chosen by its level is named as the terminal names it: its bot, not the level
    names = watcher.locator(".player-name").all_inner_texts()
    assert any(name.startswith("Seat 1 (greedy)") for name in names), names
    # each person under the name they gave, as plain text (issue 23: names, never HTML)
    assert any(name.startswith("Łucja <i>x</i>") for name in names), names
    assert any(name.startswith("Ёжик") for name in names), names
    assert watcher.locator(".player-name i").count() == 0
    # a seat link without its token in this browser says what to do
    stranger = new_page(browser, errors, **DESKTOP)
    stranger.goto(f"{server.url}/g/{game}?seat=0")
    assert "open the link you were sent" in stranger.locator(".notice").inner_text()
    assert not errors, errors


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
        json.dumps(match_to_record(play_match(3, seed, ["greedy"] * 3), seed=seed))
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
    page.keyboard.press("End")
    assert page.locator(".replay-summary").inner_text().count("61") >= 1
    assert (
        page.locator(".settlement-panel").is_visible()
        or chosen["rounds"][-1]["end"]["kind"] == "target"
    )
    shot(page, artifacts, "replay.png")
    # a record that does not verify says where, in one line
    broken = json.loads(lines[0])
    broken["rounds"][0]["actions"][0]["tile"] = broken["rounds"][0]["actions"][1].get(
        "tile", [6, 6]
    )
    path.write_text(json.dumps(broken))
    page.locator("#record-file").set_input_files(str(path))
    page.locator(".loader .error").wait_for()
    assert "round 0" in page.locator(".loader .error").inner_text()
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
