"""The Learn page (`/learn`) in a real browser, as `tests/web/test_browser.py` drives the table:
a step answered by a click on the board, its rules shown in full; a wrong place, another try,
then the answer; the progress kept in the browser's storage across a reload; the whole tour
walked on a phone in Polish, and on a desktop, with axe-core finding nothing serious; the guided
match after it, begun from the Learn page, its hint saying why, played to its end.

Without Chromium or the playwright package these tests skip; with CI=true they fail instead."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from exact61 import i18n
from exact61.learn import guided
from exact61.learn.tour import steps
from exact61.render.geometry import picture_json
from tests.server.kit import Server, database_url, server_in_thread
from tests.web.chromium import FLAGS
from tests.web.test_browser import (
    CHROMIUM,
    DESKTOP,
    Person,
    _missing,
    axe_problems,
    new_page,
    play_to_the_end,
    wait_true,
)

pytestmark = [pytest.mark.server, pytest.mark.browser]

STEPS = steps()
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
STORED = "exact61.learn.tour"
LETTERS = "abcdefghijkl"


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _missing("the playwright package is not installed")
    if not CHROMIUM.exists():
        _missing(f"no Chromium at {CHROMIUM} (apt-get install chromium)")
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=FLAGS)
        yield chromium
        chromium.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder = tmp_path_factory.mktemp("learn-server")
    with server_in_thread(database_url("sqlite", folder), folder) as running:
        yield running


def at(step_id: str) -> int:
    return next(i for i, s in enumerate(STEPS) if s.id == step_id)


def shown_step(page: Any) -> str:
    step: str = page.get_attribute(".learn-step", "data-step")
    return step


def kept(page: Any) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(page.evaluate(f"localStorage.getItem('{STORED}')") or "{}")
    return data


def open_learn(page: Any, server: Server, step_id: str | None = None) -> None:
    """The Learn page, at `step_id` if given (as a learner who got there before)."""
    page.goto(server.url + "/learn")
    if step_id is not None:
        progress = {"format": "exact61-progress/1", "step": step_id, "results": {}}
        page.evaluate(f"localStorage.setItem('{STORED}', {json.dumps(json.dumps(progress))})")
        page.reload()
    wait_true(page, "!!document.querySelector('.learn-step')")


def answer_right(page: Any, index: int, by_board: bool = True) -> None:
    """Answer step `index` rightly: a place by a click on the board, choices in the list."""
    question = STEPS[index].question
    wait_true(page, f"document.querySelector('.learn-step')?.dataset.step === '{STEPS[index].id}'")
    for i in question.right[:1] if question.kind.value == "place" else question.right:
        option = question.options[i]
        if option.point is not None and by_board:
            key = f"{option.point.tile.low}-{option.point.tile.high}-{option.point.end.value}"
            page.click(f'g.point.choice[data-point="{key}"]')
        else:
            page.click(f'[data-option="{i}"]')
    if question.kind.value == "count":
        page.click('[data-key="check"]')
    wait_true(page, "!!document.querySelector('[data-key=\"next\"]')")


def test_the_tour_is_served_with_the_renderers_pictures(server: Server) -> None:
    answer = httpx.get(f"{server.url}/api/learn/pl")
    assert answer.status_code == 200
    data = answer.json()
    assert [s["id"] for s in data["steps"]] == [s.id for s in STEPS]
    assert [lesson["steps"] for lesson in data["lessons"]] == [
        sum(s.lesson == lesson for s in STEPS) for lesson in dict.fromkeys(s.lesson for s in STEPS)
    ]
    i18n.use("pl")
    try:
        for step, served in zip(STEPS, data["steps"], strict=True):
            assert served["question"]["prompt"] == step.question.prompt.text()
            assert served["picture"] == json.loads(json.dumps(picture_json(step.scene.layout())))
            free = {json.dumps(p["at"]) for p in served["picture"]["points"]}
            for option in served["question"]["options"]:  # every lettered place is drawn
                assert option["point"] is None or json.dumps(option["point"]) in free
    finally:
        i18n.use("en")
    assert httpx.get(f"{server.url}/api/learn/xx").status_code == 404
    assert httpx.get(f"{server.url}/learn").status_code == 200


def test_a_place_chosen_on_the_board_wrong_then_right_with_its_rules(
    browser: Any, server: Server
) -> None:
    errors: list[str] = []
    page = new_page(browser, errors, **DESKTOP)
    index = at("terminal-doubles/place/2")
    step = STEPS[index]
    open_learn(page, server, step.id)
    assert shown_step(page) == step.id
    assert page.inner_text("h1") == step.question.prompt.text()
    wrong = next(o for o in step.question.options if not o.right)
    assert wrong.point is not None
    key = f"{wrong.point.tile.low}-{wrong.point.tile.high}-{wrong.point.end.value}"
    page.click(f'g.point.choice[data-point="{key}"]')
    wait_true(page, "!!document.querySelector('.learn-wrong')")
    feedback = page.inner_text(".learn-feedback")
    assert wrong.why.text() in feedback and "Try again." in feedback
    assert not page.query_selector('[data-key="next"]')  # a second try, not the answer yet
    page.set_viewport_size(PHONE["viewport"])  # a resize keeps the step and what was said
    wait_true(page, "document.querySelector('.board-scroll').clientWidth < 390")
    assert shown_step(page) == step.id and "Try again." in page.inner_text(".learn-feedback")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["viewport"]["width"]
    answer_right(page, index)
    feedback = page.inner_text(".learn-feedback")
    assert "✓ Right." in feedback and step.answer[0].text() in feedback
    for rule in step.rules:  # each rule's own words, in full
        words = i18n.plain_text(i18n.rule_paragraphs("en")[rule]).split("\n")[0][:40]
        assert words in page.inner_text(f'[data-rule="{rule}"]')
    assert kept(page)["results"] == {step.id: "later"}
    page.select_option("header select", "de")  # another language mid-step: the same step
    wait_true(page, "document.documentElement.lang === 'de'")
    wait_true(page, "document.querySelector('.learn-feedback').innerText.includes('Richtig.')")
    assert shown_step(page) == step.id and "kann an" in page.inner_text(".learn-feedback")
    page.select_option("header select", "en")
    wait_true(page, "document.querySelector('.learn-feedback').innerText.includes('Right.')")
    page.click('[data-key="next"]')
    wait_true(
        page, f"document.querySelector('.learn-step').dataset.step === '{STEPS[index + 1].id}'"
    )
    assert kept(page)["step"] == STEPS[index + 1].id
    page.reload()  # a reload mid-tour goes on where it was left
    wait_true(page, "!!document.querySelector('.learn-step')")
    assert shown_step(page) == STEPS[index + 1].id
    assert not errors, errors
    page.context.close()


@pytest.mark.parametrize(
    ("size", "locale"), [(PHONE, "pl-PL"), (DESKTOP, "en-US")], ids=["phone-pl", "desktop-en"]
)
def test_the_whole_tour_walked_by_clicks(
    browser: Any, server: Server, size: dict[str, Any], locale: str
) -> None:
    errors: list[str] = []
    page = new_page(browser, errors, locale=locale, **size)
    page.goto(server.url + "/")
    page.click('[data-key="learn"]')
    wait_true(page, "!!document.querySelector('.learn-step')")
    assert page.evaluate("document.documentElement.lang") == locale[:2]
    problems = axe_problems(page)
    assert not problems, problems
    for index in range(len(STEPS)):
        answer_right(page, index, by_board=index % 2 == 0)
        if index == at("spinner-arms-1/count/5"):
            problems = axe_problems(page)
            assert not problems, problems
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= size["viewport"]["width"], (STEPS[index].id, width)  # nothing sideways
        page.click('[data-key="next"]')
    wait_true(page, "!!document.querySelector('.learn-done')")
    done = page.inner_text(".learn-done")
    if locale.startswith("pl"):
        assert "Lekcje ukończone" in done and f"{len(STEPS)} z {len(STEPS)}" in done
    else:
        assert f"You answered {len(STEPS)} of {len(STEPS)} steps" in done
    assert kept(page)["stage"] == "match"  # the guided match comes next
    assert page.locator('.learn-done [data-key="guided"]').is_visible()
    assert set(kept(page)["results"].values()) == {"first"}
    problems = axe_problems(page)
    assert not problems, problems
    assert not errors, errors
    page.context.close()


def test_the_places_that_count_picked_by_their_letters_and_checked_by_enter(
    browser: Any, server: Server
) -> None:
    errors: list[str] = []
    page = new_page(browser, errors, **DESKTOP)
    index = at("spinner-arms-1/count/5")
    step = STEPS[index]
    open_learn(page, server, step.id)
    right = [LETTERS[i] for i in step.question.right]
    for letter in right:
        page.keyboard.press(letter)
    pressed = page.evaluate(
        "[...document.querySelectorAll('.learn-option[aria-pressed=true]')]"
        ".map((b) => b.dataset.option)"
    )
    assert pressed == [str(i) for i in step.question.right]
    page.keyboard.press("Enter")
    wait_true(page, "!!document.querySelector('.learn-right')")
    assert kept(page)["results"] == {step.id: "first"}
    page.keyboard.press("Enter")  # on to the next step
    wait_true(
        page, f"document.querySelector('.learn-step').dataset.step === '{STEPS[index + 1].id}'"
    )
    assert not errors, errors
    page.context.close()


@pytest.mark.parametrize(
    ("size", "locale", "tips"),
    [
        (
            PHONE,
            "en-US",
            [
                "Tap your answer.",
                "Tap a place on the board, or its letter below.",
                "Tap each place that counts (again to drop it), then Check.",
            ],
        ),
        (PHONE, "de-DE", ["Tippe auf deine Antwort.", "Tippe auf eine Stelle", "„Prüfen“"]),
        (
            DESKTOP,
            "en-US",
            [
                "Choose by its number, or a click.",
                "Choose a place: its letter, or a click on the board.",
                "then press Enter.",
            ],
        ),
    ],
    ids=["phone-en", "phone-de", "desktop-en"],
)
def test_how_to_answer_is_said_for_taps_on_a_touch_screen(
    browser: Any, server: Server, size: dict[str, Any], locale: str, tips: list[str]
) -> None:
    """A phone has no keys to choose by and no Enter to press: its learner is told to tap (a
    first-time player read "by its number, or a click" and looked for the numbers to type)."""
    errors: list[str] = []
    page = new_page(browser, errors, locale=locale, **size)
    kinds = ["choose", "place", "count"]
    for kind, tip in zip(kinds, tips, strict=True):
        step = next(s for s in STEPS if s.question.kind.value == kind)
        open_learn(page, server, step.id)
        assert tip in page.inner_text("#learn-options"), (kind, page.inner_text("#learn-options"))
    assert not errors, errors
    page.context.close()


def on_the_table(page: Any) -> dict[str, Any]:
    """The guided match's first state, on the table page the Learn page went to."""
    page.wait_for_url("**/g/*")
    wait_true(page, "!!window.exact61?.view?.frame")
    frame: dict[str, Any] = page.evaluate("window.exact61.view.frame")
    return frame


def a_choice(person: Person) -> dict[str, Any]:
    """Play on (the highest credit, through the page) until the person has two tiles or places
    to choose from: a moment whose hint has reasons to give."""
    deadline = time.monotonic() + 120
    while True:
        assert time.monotonic() < deadline, "no choice came"
        person.close_settlements()
        frame = person.frame()
        assert frame is not None and frame["status"] == "playing"
        plays = person.plays(frame)
        if len(plays) > 1:
            return frame
        if not person.act(frame):
            time.sleep(0.05)


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone-390x844", "desktop"])
def test_the_guided_match_from_the_learn_page_with_a_hint_that_says_why(
    browser: Any, server: Server, size: dict[str, Any]
) -> None:
    """Issue 43, item 1: after the tour, a short guided match against a bot, the hint
    explaining itself. On the phone the match is begun by the link on a lesson's step; on the
    desktop from the end of the lessons, and played to its end: the Learn page then keeps it
    as played."""
    errors: list[str] = []
    page = new_page(browser, errors, **size)
    phone = size is PHONE
    if phone:
        open_learn(page, server, STEPS[3].id)
        page.click('.learn-actions [data-key="guided"]')
    else:
        open_learn(page, server, STEPS[-1].id)
        answer_right(page, len(STEPS) - 1)
        page.click('[data-key="next"]')
        wait_true(page, "!!document.querySelector('.learn-done')")
        intro = page.inner_text(".learn-guided")
        assert f"{guided.ROUNDS} rounds against the bot “easy”" in intro and "says why" in intro
        problems = axe_problems(page)
        assert not problems, problems
        page.click('.learn-done [data-key="guided"]')
    frame = on_the_table(page)
    assert frame["guided"] == {"rounds": guided.ROUNDS} and frame["seats"][1]["kind"] == "bot:easy"
    game = page.evaluate("location.pathname").split("/")[2]
    assert kept(page)["game"] == game  # the Learn page goes on with this one, not a new one
    assert kept(page)["stage"] == ("lessons" if phone else "match")
    note = page.locator(".guided-note")
    assert note.is_visible() and f"{guided.ROUNDS} rounds against" in note.inner_text()
    person = Person(page, 0, "tap" if phone else "click")
    frame = a_choice(person)
    person.press(page.locator('button[data-key="hint"]'), person.way)
    wait_true(page, "document.querySelectorAll('.hint-why li').length >= 2")
    why = page.locator(".hint-why li").all_inner_texts()
    hint = page.evaluate("window.exact61.view.hint")
    assert hint["seq"] == frame["seq"] and why == hint["why"]
    assert why[0].startswith("The expert plays") and "to win the match" in " ".join(why)
    assert page.locator(".hint-why").is_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= size["viewport"]["width"]
    problems = axe_problems(page)
    assert not problems, problems
    if not phone:
        page.locator('button[data-key="play-hint"]').click()  # the hint's move, then on
        wait_true(page, f"window.exact61.view.frame.seq > {frame['seq']}")
        end = play_to_the_end([person], timeout=600)["frame"]
        assert end["round"] == guided.ROUNDS - 1 and end["winner"] is None
        dialog = page.locator("dialog.end-dialog[open]")
        dialog.wait_for()
        assert "The guided match is over" in dialog.inner_text()
        assert f"ends here, after {guided.ROUNDS} rounds" in dialog.inner_text()
        problems = axe_problems(page)
        assert not problems, problems
        assert (kept(page)["stage"], kept(page)["guided"]) == ("done", "done")
        dialog.locator('[data-key="learn"]').click()
        wait_true(page, "!!document.querySelector('.learn-done')")
        assert "You played the guided match." in page.inner_text(".learn-done")
    assert not errors, errors
    page.context.close()


LANDSCAPE = {"viewport": {"width": 740, "height": 360}, "is_mobile": True, "has_touch": True}
# the board's box and the bar's (Check, Go on, Back, the guided match), and the screen's size
BOXES = """(() => {
    const box = (s) => document.querySelector(s).getBoundingClientRect().toJSON();
    return [box('.learn-step > .board'), box('.learn-actions'), innerWidth, innerHeight];
})()"""


def test_a_step_on_a_phone_on_its_side(browser: Any, server: Server) -> None:
    """On a phone on its side (740 x 360) the board was taller than the screen under the header
    and the sticky bar of buttons lay over its lower half. The board goes beside the words
    now: the whole board on the screen, the bar never over it, before and after the answer
    with the page scrolled to its end; its lettered place is tapped on the board."""
    errors: list[str] = []
    page = new_page(browser, errors, locale="pl-PL", **LANDSCAPE)
    index = at("terminal-doubles/place/2")
    open_learn(page, server, STEPS[index].id)

    def check(where: str) -> None:
        board, bar, width, height = page.evaluate(BOXES)
        assert board["top"] >= 0 and board["bottom"] <= height, (where, board, height)
        apart = (
            bar["left"] >= board["right"]
            or bar["right"] <= board["left"]
            or bar["top"] >= board["bottom"]
            or bar["bottom"] <= board["top"]
        )
        assert apart, (where, board, bar)
        assert page.evaluate("document.documentElement.scrollWidth") <= width, where

    check("the question")
    option = STEPS[index].question.options[STEPS[index].question.right[0]]
    assert option.point is not None
    key = f"{option.point.tile.low}-{option.point.tile.high}-{option.point.end.value}"
    page.locator(f'g.point.choice[data-point="{key}"]').tap()
    page.locator('[data-key="next"]').wait_for()
    check("the answer")
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    wait_true(page, "scrollY > 0")
    check("the answer's end")
    assert not errors, errors
    page.context.close()
