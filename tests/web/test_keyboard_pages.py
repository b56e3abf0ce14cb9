"""The pages other than the table used with the keyboard only (Tab, Shift+Tab, Enter, Space,
the arrows, Escape), as a person who uses no mouse uses them, and as a screen reader tells them:
the start page, the replay viewer, the Learn page, the Puzzles page. Where the focus goes after
an action, what is read out as a result comes. Chromium, as `test_browser`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from exact61 import match_to_record
from tests.helpers import played_match
from tests.server.kit import Server
from tests.web.test_browser import (  # noqa: F401  (fixtures)
    DESKTOP,
    PHONE,
    axe_problems,
    browser,
    new_page,
    server,
    settled_paint,
    wait_true,
)

pytestmark = [pytest.mark.server, pytest.mark.browser]

ACTIVE = """(() => {
  const el = document.activeElement;
  return !el || el === document.body ? 'body' : el.dataset.key || el.tagName.toLowerCase();
})()"""

# What a screen reader is handed to read out, in order: the words of a live region (aria-live,
# or a role live by itself) each time they change, once for the changes of one task. A region
# put in the page with its words already in it is not counted: screen readers read out a
# region's changes, and miss those of one that was not there before (or was put in again).
SAID = """
(() => {
  window.said = [];
  const LIVE = '[aria-live]:not([aria-live="off"]), [role=log], [role=status], [role=alert]';
  let known = new WeakSet();
  new MutationObserver((records) => {
    const added = records.flatMap((r) => [...r.addedNodes]);
    const changed = new Set();
    for (const r of records) {
      const node = r.target.nodeType === 1 ? r.target : r.target.parentElement;
      const region = node?.closest(LIVE);
      if (!region || !region.isConnected || !known.has(region)) continue;
      if (added.some((n) => n !== region && n.contains(region))) continue;
      changed.add(region);
    }
    for (const region of changed) window.said.push(region.textContent.replace(/\\s+/g, ' ').trim());
    known = new WeakSet(document.querySelectorAll(LIVE));
  }).observe(document, { subtree: true, childList: true, characterData: true });
})();
"""


def said(page: Any) -> list[str]:
    texts: list[str] = page.evaluate("window.said.filter((t) => t)")
    return texts


def tab_to(page: Any, expression: str, key: str = "Tab", limit: int = 60) -> None:
    """Press Tab (or `key`) until `expression` holds of the focused element (`el`)."""
    for _ in range(limit):
        page.keyboard.press(key)
        found = f"(() => {{ const el = document.activeElement; return {expression}; }})()"
        if page.evaluate(found):
            return
    raise AssertionError(f"{key} never reached {expression}")


# ---- the Puzzles page ---------------------------------------------------------------------


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_next_puzzle_takes_the_focus_to_its_title(
    browser: Any,  # noqa: F811
    server: Server,  # noqa: F811
    size: str,
) -> None:
    """A person without a mouse answered a puzzle and pressed Enter on "Next puzzle": the new
    puzzle came, and the focus fell to the top of the page with the old one, so a screen reader
    said nothing of it and Tab began again at the header. Now the focus is on the new puzzle's
    title, which a screen reader reads out, and Tab goes on from there to its goal and moves."""
    errors: list[str] = []
    page = new_page(browser, errors, **(PHONE if size == "phone" else DESKTOP))
    page.goto(server.url + "/puzzles")
    wait_true(page, "window.exact61.view.puzzle")
    first = page.evaluate("window.exact61.view.puzzle.id")
    tab_to(page, "el.classList.contains('choice')")
    page.keyboard.press("Enter")
    wait_true(page, "window.exact61.view.verdict")
    assert page.evaluate("document.activeElement.classList.contains('verdict')")
    tab_to(page, "el.textContent === 'Next puzzle'")
    page.keyboard.press("Enter")
    wait_true(page, f"window.exact61.view.puzzle.id !== '{first}' && !window.exact61.view.verdict")
    shown = page.evaluate("window.exact61.view.puzzle")
    assert page.evaluate(ACTIVE) == "h1"
    assert page.evaluate("document.activeElement.textContent").startswith(f"Puzzle {shown['id']}")
    tab_to(page, "el.classList.contains('choice')")  # on through the new puzzle, not the header
    assert not page.evaluate("document.activeElement.closest('header')")
    assert not errors, errors
    page.context.close()


# ---- every page -----------------------------------------------------------------------------


@pytest.mark.parametrize("path", ["/", "/replay", "/learn", "/puzzles", "the table"])
def test_the_language_chosen_by_keys_keeps_the_focus_on_its_list(
    browser: Any,  # noqa: F811
    server: Server,  # noqa: F811
    path: str,
) -> None:
    """A person on the header's language list pressed the down arrow to go from German to
    Polish: the page came in Polish, and the focus fell to the top of the page with the list,
    drawn again, so the next arrow did nothing and a screen reader did not say which language
    was now chosen. Now the focus stays on the list (and an arrow goes on to the next)."""
    errors: list[str] = []
    page = new_page(browser, errors, locale="de-DE", **DESKTOP)
    if path == "the table":
        game = server.create(["human", "bot:greedy"])
        page.goto(server.url + game["seats"][0]["url"])
        wait_true(page, "window.exact61?.view?.frame")
    else:
        page.goto(server.url + path)
    # the page's heading (the table's is always the game's name), in German
    heading = "main h1" if path != "the table" else "header [data-key=page-rules]"
    wait_true(page, f"document.querySelector('{heading}')?.textContent")
    settled_paint(page)
    before = page.evaluate(f"document.querySelector('{heading}').textContent")
    tab_to(page, "el.tagName === 'SELECT' && !!el.closest('header')")
    page.keyboard.press("ArrowDown")
    wait_true(page, "document.documentElement.lang === 'pl'")
    wait_true(page, f"document.querySelector('{heading}').textContent !== {json.dumps(before)}")
    settled_paint(page)
    assert page.evaluate("document.activeElement.closest('header .lang') !== null"), page.evaluate(
        ACTIVE
    )
    assert page.evaluate("document.activeElement.value") == "pl"
    page.keyboard.press("ArrowDown")  # and on to Russian, from the same place
    wait_true(page, "document.documentElement.lang === 'ru'")
    assert not errors, errors
    page.context.close()


# ---- the replay viewer ----------------------------------------------------------------------


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_replay_says_what_each_step_shows(
    browser: Any,  # noqa: F811
    server: Server,  # noqa: F811
    tmp_path: Path,
    size: str,
) -> None:
    """A person who hears the page opened a record with the keyboard (Space on "Choose a
    file…") and heard nothing: the position's title was read out only as it changed, and it
    came with the viewer. Stepping on (the arrows, Next) they heard "Round 1, action 2 of 10"
    and not what was done there: the words of the move are not a live region. Now the record's
    summary and the deal are said as it opens, and each step says where and what was done, once."""
    errors: list[str] = []
    record = match_to_record(played_match(2, 3, ["greedy"] * 2), seed=3)
    path = tmp_path / "match.json"
    path.write_text(json.dumps(record))
    page = new_page(browser, errors, **(PHONE if size == "phone" else DESKTOP))
    page.context.add_init_script(SAID)
    page.goto(server.url + "/replay")
    tab_to(page, "el.id === 'record-file'")
    # the file chosen where the focus is, as Space there opens the chooser for (the browser's
    # chooser itself is not what this checks)
    page.locator("#record-file").set_input_files(str(path))
    wait_true(page, "window.exact61.view.data")
    settled_paint(page)
    assert page.evaluate(ACTIVE) == "file"  # where it was, to open another
    summary = page.locator(".replay-summary").inner_text()
    spoken = said(page)
    assert spoken and summary in spoken[-1] and "Round 1: the deal" in spoken[-1], spoken
    tab_to(page, "el.dataset.key === 'next'")
    for step in (1, 2, 3):
        page.keyboard.press("ArrowRight" if step < 3 else "Enter")
        wait_true(page, f"window.exact61.view.pos === {step}")
        settled_paint(page)
        title = page.locator(".position-title").inner_text()
        words = page.locator(".action-words").inner_text()
        spoken = said(page)
        assert words and title in spoken[-1] and words in spoken[-1], (words, spoken)
        assert sum(words in text for text in spoken) == 1, spoken
    assert page.evaluate(ACTIVE) == "next"
    assert not errors, errors
    page.context.close()


def test_the_replays_buttons_say_their_keys(
    browser: Any,  # noqa: F811
    server: Server,  # noqa: F811
    tmp_path: Path,
) -> None:
    """The arrows, Home, End and the page keys step through a record, and nothing said so to
    a screen reader (the toolbar's arrows are taken for its buttons). Each button names its key
    (`aria-keyshortcuts`), and the key goes where the button goes."""
    errors: list[str] = []
    record = match_to_record(played_match(2, 3, ["greedy"] * 2), seed=3)
    path = tmp_path / "match.json"
    path.write_text(json.dumps(record))
    page = new_page(browser, errors, **DESKTOP)
    page.goto(server.url + "/replay")
    page.locator("#record-file").set_input_files(str(path))
    wait_true(page, "window.exact61.view.data")
    keys = {}
    for name in ("first", "prev-round", "prev", "next", "next-round", "last"):
        keys[name] = page.locator(f".controls [data-key={name}]").get_attribute("aria-keyshortcuts")
    assert all(keys.values()), keys
    middle = page.evaluate("window.exact61.view.data.positions.length") // 2
    for name, key in keys.items():
        page.evaluate(f"window.exact61.view.pos = {middle}")  # from the middle each time
        page.locator(f".controls [data-key={name}]").click()
        by_button = page.evaluate("window.exact61.view.pos")
        page.evaluate(f"window.exact61.view.pos = {middle}")
        page.locator(".position-title").click()  # the focus out of the toolbar
        page.keyboard.press(key)
        assert page.evaluate("window.exact61.view.pos") == by_button, (name, key)
    assert not errors, errors
    page.context.close()


# ---- the Learn page -------------------------------------------------------------------------


def feedback_said(page: Any, part: str) -> list[str]:
    """The texts said that hold the words of the feedback's `part` (a selector) as shown."""
    shown = page.locator(f".learn-feedback {part}").first.inner_text()
    return [text for text in said(page) if " ".join(shown.split()) in text]


@pytest.mark.parametrize(("size", "locale"), [("phone", "en-US"), ("desktop", "ru-RU")])
def test_a_screen_reader_hears_whether_an_answer_was_right_and_why(
    browser: Any,  # noqa: F811
    server: Server,  # noqa: F811
    size: str,
    locale: str,
) -> None:
    """A person who hears the Learn page chose an answer with Enter: the focus went on to "Go
    on" (or back to the first answer, to try again), and whether it was right, and why, was not
    read out: the box that says it was drawn anew with its words at each answer, and a screen
    reader reads out the changes of a live region that was there before. Now the verdict, the
    why and "Try again." are said, once each time, in the page's language."""
    errors: list[str] = []
    page = new_page(browser, errors, locale=locale, **(PHONE if size == "phone" else DESKTOP))
    page.context.add_init_script(SAID)
    page.goto(server.url + "/learn")
    wait_true(page, "!!document.querySelector('.learn-step')")
    steps = page.evaluate("window.exact61.learn.tour.steps.map((s) => s.question)")
    wrong = next(i for i, o in enumerate(steps[0]["options"]) if not o["right"])
    tab_to(page, f"el.dataset.key === 'option-{wrong}'")
    page.keyboard.press("Enter")  # a wrong choice: the step is answered, with why
    wait_true(page, "window.exact61.learn.answered")
    settled_paint(page)
    assert page.evaluate(ACTIVE) == "next"
    assert len(feedback_said(page, ".learn-wrong")) == 1, said(page)
    assert len(feedback_said(page, ".learn-answer")) == 1, said(page)
    # a place: wrong, then right
    place = next(i for i, q in enumerate(steps) if q["kind"] == "place")
    options = steps[place]["options"]
    for _ in range(place):
        page.keyboard.press("Enter")  # on, from the step's "Go on" (or its title)
        wait_true(page, "!window.exact61.learn.answered")
        right = next(
            i
            for i, o in enumerate(
                page.evaluate(
                    "window.exact61.learn.tour.steps[window.exact61.learn.at].question.options"
                )
            )
            if o["right"]
        )
        if page.evaluate("window.exact61.learn.at") == place:
            break
        tab_to(page, f"el.dataset.key === 'option-{right}'")
        page.keyboard.press("Enter")
        wait_true(page, "window.exact61.learn.answered")
    wrong = next(i for i, o in enumerate(options) if not o["right"])
    right = next(i for i, o in enumerate(options) if o["right"])
    tab_to(page, f"el.dataset.key === 'option-{wrong}'")
    page.keyboard.press("Enter")
    wait_true(page, "window.exact61.learn.tries === 1")
    settled_paint(page)
    assert page.evaluate(ACTIVE) == "option-0"
    assert len(feedback_said(page, ".learn-wrong")) == 1, said(page)
    assert len(feedback_said(page, ".learn-wrong + p")) >= 1, said(page)  # try again
    tab_to(page, f"el.dataset.key === 'option-{right}'")
    page.keyboard.press("Enter")
    wait_true(page, "window.exact61.learn.answered")
    settled_paint(page)
    assert len(feedback_said(page, ".learn-right")) >= 1, said(page)
    assert feedback_said(page, ".learn-answer")[-1] == said(page)[-1], said(page)
    assert not errors, errors
    page.context.close()


# What a screen reader says of the focused element besides its name: the words of the elements
# its aria-describedby names.
DESCRIPTION = """(() => {
  const ids = (document.activeElement.getAttribute('aria-describedby') || '').split(/\\s+/);
  return ids.filter(Boolean).map((id) => document.getElementById(id)?.textContent ?? '').join(' ');
})()"""


def test_a_new_step_is_read_out_with_what_it_tells(
    browser: Any,  # noqa: F811
    server: Server,  # noqa: F811
) -> None:
    """On "Go on" the focus goes to the next step's question, which a screen reader reads out:
    "What does the opening score?", and not what the step tells before it ("A new layout.
    [0|0] opens the round."), nor which lesson it is in, so the person had to go back up the
    page to learn which tile the question was about. Now the question is described by them."""
    errors: list[str] = []
    page = new_page(browser, errors, locale="de-DE", **DESKTOP)
    page.goto(server.url + "/learn")
    wait_true(page, "!!document.querySelector('.learn-step')")
    for step in (1, 2):
        tab_to(page, "el.dataset.key === 'option-0'")
        page.keyboard.press("Enter")
        wait_true(page, "window.exact61.learn.answered")
        assert page.evaluate(ACTIVE) == "next"
        page.keyboard.press("Enter")
        wait_true(page, f"window.exact61.learn.at === {step} && !window.exact61.learn.answered")
        assert page.evaluate(ACTIVE) == "h1"
        described = " ".join(page.evaluate(DESCRIPTION).split())
        told = page.locator(".learn-head .told").all_inner_texts()
        assert told, "this step tells nothing: the check above tells nothing"
        for text in [page.locator(".learn-where").inner_text(), *told]:
            assert " ".join(text.split()) in described, (text, described)
    assert not errors, errors
    page.context.close()


# ---- the start page -------------------------------------------------------------------------


def test_a_new_game_made_with_the_keyboard(
    browser: Any,  # noqa: F811
    server: Server,  # noqa: F811
) -> None:
    """A person made a game with the keyboard (Enter on "Create the game"): the focus went to
    the first "Copy" button, past the link that opens their own seat, and the page's three
    "Copy" buttons were all called "Copy" by a screen reader, which link each copies not said;
    in the list of open games each game's "Take seat 1" was called alike too. Now the focus is
    on "Play at seat 0", each Copy names its link, and each seat to take names its game."""
    errors: list[str] = []
    server.create(["human", "human"], open=True, name="Evening game")
    page = new_page(browser, errors, **DESKTOP)
    page.goto(server.url + "/")
    page.locator(".lobby-game").first.wait_for()
    tab_to(page, "el.dataset.key === 'create'")
    page.keyboard.press("Enter")
    page.locator(".links").wait_for()
    settled_paint(page)
    assert page.evaluate("document.activeElement.textContent") == "Play at seat 0"
    assert page.get_by_role("button", name="Copy", exact=True).count() == 0
    for label in ("Seat 0", "Seat 1", "Link for spectators"):
        assert page.get_by_role("button", name=f"Copy: {label}").count() == 1, label
    take = page.get_by_role("button", name="Take seat 1")
    assert take.count() >= 1
    assert take.first.get_attribute("aria-describedby"), "the seat does not say which game"
    game = page.locator("#" + take.first.get_attribute("aria-describedby").split()[0])
    assert "Evening game" in game.inner_text()
    assert not errors, errors
    page.context.close()


def test_another_game_takes_the_focus_to_the_new_form(
    browser: Any,  # noqa: F811
    server: Server,  # noqa: F811
) -> None:
    """With their game made, a person pressed Enter on "Another game": the form came back and
    the focus fell to the top of the page with the button, gone; Tab began again at the header.
    Now the focus is on the form's first field, the number of players."""
    errors: list[str] = []
    page = new_page(browser, errors, **PHONE)
    page.goto(server.url + "/")
    tab_to(page, "el.dataset.key === 'create'")
    page.keyboard.press("Enter")
    page.locator(".links").wait_for()
    tab_to(page, "el.dataset.key === 'another'")
    page.keyboard.press("Enter")
    page.locator('[data-key="create"]').wait_for()
    assert page.evaluate(ACTIVE) == "players-2"
    assert not errors, errors
    page.context.close()
