"""The table played with the keyboard only, as a person who uses no mouse plays it (Tab,
Shift+Tab, Enter, Escape) and as a screen reader tells it: where the focus goes after a move,
after a dialog, and what the page says when the others move. Chromium, as `test_browser`."""

from __future__ import annotations

import time
from typing import Any

import pytest

from tests.server.kit import Server
from tests.web.test_browser import (  # noqa: F401  (fixtures)
    DESKTOP,
    Person,
    browser,
    finished_match,
    my_turn_with_plays,
    new_page,
    server,
    settled_paint,
    wait_true,
)

pytestmark = [pytest.mark.server, pytest.mark.browser]

FOCUSED_TILE = (
    "document.activeElement?.classList.contains('hand-tile') "
    "? document.activeElement.dataset.tile : null"
)


def tab_to_a_playable_tile(page: Any) -> str:
    """Tab (from wherever the focus is) to the first hand tile that fits; its tile."""
    for _ in range(60):
        if page.evaluate("document.activeElement?.classList.contains('playable') ?? false"):
            return str(page.evaluate(FOCUSED_TILE))
        page.keyboard.press("Tab")
    raise AssertionError("Tab never reached a tile that fits")


def test_the_focus_stays_in_the_hand_after_a_move(browser: Any, server: Server) -> None:  # noqa: F811
    """Someone playing with the keyboard only pressed Enter on a tile (or on one of its places)
    and the focus fell out of the page with the tile: each turn they pressed Tab up to thirty
    times, through the header, the zoom buttons and the layout, to get back to their hand. Now
    the focus stays in the hand, on the tile that took the played one's place."""
    errors: list[str] = []
    game = server.create(["human", "bot:greedy"])
    page = new_page(browser, errors, **DESKTOP)
    page.goto(server.url + game["seats"][0]["url"])
    person = Person(page, 0, "keyboard")
    moves, places = 0, 0
    while moves < 4 or not places:
        assert moves < 30, "no tile with several places came"
        frame = my_turn_with_plays(person, 90)
        if moves:  # the focus stayed in the hand since the last move
            assert page.evaluate(FOCUSED_TILE) is not None, page.evaluate(
                "document.activeElement.outerHTML.slice(0, 120)"
            )
        tile = tab_to_a_playable_tile(page)
        page.keyboard.press("Enter")
        if page.locator(".choices button.choice").count():
            # a tile that fits several places: the first place has the focus, Enter takes it
            assert page.evaluate("document.activeElement.dataset.key").startswith("choice-")
            page.keyboard.press("Enter")
            places += 1
        wait_true(page, f"window.exact61.view.frame.seq > {frame['seq']}")
        wait_true(page, f"!window.exact61.view.frame.hand.some(t => t.join('-') === '{tile}')")
        if (
            page.evaluate("window.exact61.view.frame.hand.length")
            and not page.locator("dialog[open]").count()
        ):
            wait_true(page, f"({FOCUSED_TILE}) !== null")
        moves += 1
    assert not errors, errors
    page.context.close()


# Every text a screen reader reads out as it changes: live regions (aria-live, and the roles
# that are live by themselves), joined.
SPOKEN = """[...document.querySelectorAll(
  '[aria-live]:not([aria-live="off"]), [role=log], [role=status], [role=alert]'
)].map((el) => el.textContent).join(' | ')"""


def test_a_screen_reader_is_told_what_the_others_played(
    browser: Any,  # noqa: F811
    server: Server,  # noqa: F811
) -> None:
    """A person who hears the page heard only "Seat 1 to play." as the others moved: what they
    played, and what it scored, was in the log, which is not read out as it grows, so they had to
    leave their hand for it at every turn. Now each new line of the log is also said (a polite
    live region), and none of the lines already there when the page opens."""
    errors: list[str] = []
    game = server.create(["human", "bot:greedy"])
    page = new_page(browser, errors, **DESKTOP)
    page.goto(server.url + game["seats"][0]["url"])
    person = Person(page, 0, "keyboard")
    for _ in range(3):
        frame = my_turn_with_plays(person, 90)
        person.act(frame)
    frame = my_turn_with_plays(person, 90)
    bot = [e for e in page.evaluate("window.exact61.view.entries") if e.get("seat") == 1]
    assert bot, "the bot has not moved"
    lines = page.locator(".log-lines li").all_inner_texts()
    said = page.evaluate(SPOKEN)
    assert lines[-1] in said, (lines[-1], said)  # the bot's move, the last line of the log
    # a page opened again reads out none of the old lines (the log has them)
    page.reload()
    wait_true(page, f"window.exact61?.view?.frame?.seq >= {frame['seq']}")
    settled_paint(page)
    said = page.evaluate(SPOKEN)
    assert not any(line in said for line in lines), said
    assert not errors, errors
    page.context.close()


@pytest.mark.parametrize("close", ["Escape", "the close button"])
def test_closing_the_end_dialog_leaves_the_focus_on_the_end_bar(
    browser: Any,  # noqa: F811
    server: Server,  # noqa: F811
    close: str,
) -> None:
    """The match over, a person without a mouse closed its dialog (Escape, or Enter on its Close)
    to look at the last layout, and the focus fell to the top of the page: the hand it had been
    in is gone, and Tab went through the header before it reached Play again. Now the focus is
    on the end bar's first button, which offers what the dialog did."""
    errors: list[str] = []
    game = finished_match(server, ["human", "human"])
    page = new_page(browser, errors, **DESKTOP)
    page.goto(server.url + game["seats"][1]["url"])
    page.locator("dialog.end-dialog").wait_for()
    assert page.evaluate("document.activeElement.dataset.key") == "again"
    if close == "Escape":
        page.keyboard.press("Escape")
    else:
        for _ in range(20):  # from Play again back to the dialog's Close, past the rules named
            page.keyboard.press("Shift+Tab")
            if page.evaluate("document.activeElement.classList.contains('close')"):
                break
        page.keyboard.press("Enter")
    wait_true(page, "!document.querySelector('dialog[open]')")
    wait_true(page, "document.activeElement.closest('.end-bar') !== null")
    assert page.evaluate("document.activeElement.dataset.key") == "again"
    page.keyboard.press("Enter")  # and it plays again, as the dialog's button did
    wait_true(page, f"location.pathname !== '/g/{game['game']}'")
    wait_true(page, "window.exact61?.view?.frame?.you === 1")
    assert not errors, errors
    page.context.close()


# What a screen reader says of the open dialog as the focus goes into it: its name (its title)
# and its description (the elements aria-describedby names), besides the focused button.
DESCRIPTION = """(() => {
  const dialog = document.querySelector('dialog[open]');
  const ids = (dialog.getAttribute('aria-describedby') || '').split(/\\s+/).filter(Boolean);
  return ids.map((id) => document.getElementById(id)?.textContent ?? '').join(' ');
})()"""


def test_a_round_settled_and_the_match_over_are_read_out_with_their_dialogs(
    browser: Any,  # noqa: F811
    server: Server,  # noqa: F811
) -> None:
    """When a round was settled, or the match won, a screen reader said the dialog's title and
    "Continue" (or "Play again"), the button that takes the focus: who made domino, what each
    side scored, who won, were not said unless the person went looking inside the dialog. Now
    the dialog is described by them."""
    errors: list[str] = []
    game = server.create(["human", "bot:greedy"])
    page = new_page(browser, errors, **DESKTOP)
    page.goto(server.url + game["seats"][0]["url"])
    person = Person(page, 0, "keyboard")
    dialog = page.locator("dialog.settlement-dialog[open]")
    deadline = time.monotonic() + 180
    while not dialog.count():
        assert time.monotonic() < deadline, "no round was settled"
        frame = person.frame()
        if frame is None or not person.act(frame):
            time.sleep(0.05)
    said = page.evaluate(DESCRIPTION)
    for line in dialog.locator(".settlement-lines li").all_inner_texts():
        assert line in said, (line, said)
    assert "Scores" in said
    page.keyboard.press("Enter")
    game = finished_match(server, ["human", "human"])
    page.goto(server.url + game["seats"][0]["url"])
    end = page.locator("dialog.end-dialog")
    end.wait_for()
    said = page.evaluate(DESCRIPTION)
    assert end.locator(".winner-line").inner_text() in said, said
    assert "Final scores" in said
    assert not errors, errors
    page.context.close()


# Each text the status line was given, as a screen reader is handed it: every change of its
# children is a change of a live region, read out again even when the words are the same.
RECORDER = """
document.addEventListener('DOMContentLoaded', () => {
  window.said = {};
  for (const selector of ['.status-text', '.banner']) {
    const texts = (window.said[selector] = []);
    const found = new MutationObserver(() => {
      const line = document.querySelector(selector);
      if (!line) return;
      found.disconnect();
      texts.push(line.textContent);
      new MutationObserver(() => texts.push(line.textContent))
        .observe(line, { subtree: true, childList: true, characterData: true });
    });
    found.observe(document.body, { subtree: true, childList: true });
  }
});
"""


def said_twice(page: Any, selector: str) -> list[str]:
    """The texts `selector`'s live region was given again with the words it already had."""
    texts: list[str] = page.evaluate(f"window.said['{selector}']")
    return [t for i, t in enumerate(texts) if i and t == texts[i - 1]]


def test_the_status_line_says_a_turn_once(
    browser: Any,  # noqa: F811
    server: Server,  # noqa: F811
) -> None:
    """The status line is read out whenever it changes, and it was written again with the same
    words at every state and every coming and going of the others: a screen reader said
    "Seat 0 to play." twice as the page opened, and again as the partner's page connected. Now
    it is written only when its words change."""
    errors: list[str] = []
    game = server.create(["human", "human"])
    page = new_page(browser, errors, **DESKTOP)
    page.context.add_init_script(RECORDER)
    page.goto(server.url + game["seats"][1]["url"])
    wait_true(page, "window.exact61?.view?.frame")
    other = new_page(browser, errors, **DESKTOP)
    other.goto(server.url + game["seats"][0]["url"])
    wait_true(page, "window.exact61.view.frame.seats[0].connected === true")
    settled_paint(page)
    assert not said_twice(page, ".status-text"), page.evaluate("window.said")
    assert not errors, errors
    page.context.close()
    other.context.close()


def test_a_dropped_connection_is_said_once(
    browser: Any,  # noqa: F811
    server: Server,  # noqa: F811
) -> None:
    """The connection dropped for a moment: "Connection lost. Reconnecting…" was written into
    its live region as the socket was lost and again as it reconnected, and a screen reader said
    it twice. Now it is said once, and the banner is empty again once the page is back, saying
    so: the banner just emptied, and a screen reader heard nothing of the connection's return."""
    errors: list[str] = []
    game = server.create(["human", "bot:greedy"])
    page = new_page(browser, errors, **DESKTOP)
    page.context.add_init_script(RECORDER)
    page.goto(server.url + game["seats"][0]["url"])
    wait_true(page, "window.exact61?.view?.connection === 'open'")
    page.evaluate("window.exact61.socket.drop()")
    wait_true(page, "window.exact61.view.drops === 1")
    wait_true(page, "window.exact61.view.connection === 'open'")
    texts = page.evaluate("window.said['.banner']")
    assert "Connection lost. Reconnecting…" in texts and texts[-1] == "", texts
    assert not said_twice(page, ".banner"), texts
    back = page.locator(".toast[role=status]", has_text="Connected again.")
    back.wait_for(timeout=2000)
    assert back.count() == 1
    assert not errors, errors
    page.context.close()


def test_the_rules_dialog_gives_the_focus_back_to_the_header_drawn_again(
    browser: Any,  # noqa: F811
    server: Server,  # noqa: F811
) -> None:
    """The table draws its header again at every frame: someone reading the rules while the
    others moved closed the dialog (Escape) and the focus fell to the top of the page, the
    button that opened it gone. It goes to the Rules button drawn in its place."""
    errors: list[str] = []
    game = server.create(["human", "bot:greedy"])
    page = new_page(browser, errors, **DESKTOP)
    page.goto(server.url + game["seats"][0]["url"])
    wait_true(page, "window.exact61?.view?.connection === 'open'")
    page.locator("header [data-key=page-rules]").focus()
    page.keyboard.press("Enter")
    page.locator("dialog[open]").wait_for()
    page.evaluate("window.exact61.socket.drop()")  # back again: a new frame, a new header
    wait_true(page, "window.exact61.view.drops === 1")
    wait_true(page, "window.exact61.view.connection === 'open'")
    page.keyboard.press("Escape")
    wait_true(page, "document.querySelector('dialog[open]') === null")
    assert page.evaluate("document.activeElement?.dataset?.key ?? null") == "page-rules"
    assert page.evaluate("document.activeElement.isConnected")
    assert not errors, errors
    page.context.close()
