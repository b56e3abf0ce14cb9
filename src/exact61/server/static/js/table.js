// The table: one game as a seat (or a spectator) sees it, played over the online protocol.

import { backImage, tallyImage, tileImage } from "./board.js";
import { BoardView } from "./boardview.js";
import { h, placeChildren, replaceKeepingFocus, typing } from "./dom.js";
import { _, language, loadLanguage, ngettext, onLanguageChange, preferredLanguage } from "./i18n.js";
import { FATAL, GameSocket, forgetToken, keepName, keepToken, keepTokenBriefly, savedName, seatToken } from "./net.js";
import { guidedMatchDone } from "./progress.js";
import { coarsePointer, header, openDialog, toast, withRules } from "./ui.js";
import {
  actionText,
  botWords,
  creditText,
  display,
  errorText,
  hintLine,
  logLines,
  openerLine,
  pipsText,
  pointKey,
  points,
  sameTile,
  scoredEndsText,
  seatTitle,
  setSeatNames,
  settlementLines,
  sideLabel,
  sideOf,
  tileKey,
  tileText,
  tilesLeft,
  who,
  winnerLine,
} from "./words.js";

const LETTERS = "abcdefghijklmnopqrstuvwxyz";
// What the server may answer a `name` frame with when it does not take the name.
const NAME_ERRORS = new Set(["bad_message", "over", "unavailable", "rate_limited", "not_a_seat"]);
const TARGET = 305;

/** The scores of every side under `title`, a side to a row: its name, then its points, which
 * never break (the dialogs of the table and the replay viewer's settlement). */
export function scoresView(title, players, scores, you) {
  return h(
    "div",
    { class: "score-rows" },
    h("h3", {}, title),
    h(
      "ul",
      {},
      scores.map((raw, side) => h("li", {}, h("span", { class: "side" }, sideLabel(players, side, you)), h("span", { class: "points" }, points(raw)))),
    ),
  );
}

/** A settlement's hands and lines (R17-R23): for the panel, the end screen and the replay. */
export function settlementView(end, players, you) {
  const parts = [];
  if (end.hands) {
    parts.push(
      h(
        "ul",
        { class: "hands" },
        end.hands.map((hand, seat) =>
          h(
            "li",
            {},
            h("span", { class: "who" }, who(seat, you)),
            hand.length
              ? [h("span", { class: "tiles" }, hand.map((t) => tileImage(t, { unit: 9 }))), h("span", { class: "pips" }, `= ${pipsText(end.pips[seat])}`)]
              : h("span", { class: "pips" }, _("no tiles left")),
          ),
        ),
      ),
    );
  }
  parts.push(h("ul", { class: "settlement-lines" }, settlementLines(end, players, you).map((line) => h("li", {}, withRules(line)))));
  return h("div", { class: "settlement" }, parts);
}

export function mountTable(root, { game, seat, missing = false }) {
  const watching = seat === null;
  const token = watching ? null : seatToken(game, seat);
  const you = watching ? null : seat;
  const view = {
    frame: null,
    entries: [],
    loggedSeq: 0,
    selected: null,
    hint: null,
    hintAsked: -1,
    sentSeq: -1,
    sent: null, // the last move this page sent: {seq, action}
    unmade: null, // a placement it sent that the server refused, until the state after it says why
    tally: false,
    zoom: 1,
    connection: "connecting",
    everOpen: false,
    bannerLost: false, // the banner said the connection was lost (renderBanner)
    drops: 0,
    endShown: false,
    drawnSeq: -1,
    previousHand: [],
    scrolledSeq: -1,
    fatal: null,
    clock: null, // the turn clock: {seat, end, warned} while a person's time runs
    clockTimer: null,
    standIn: null, // the bot that plays for a person whose time ran out
    rematch: null, // the next game with the same seats, once somebody asked for it
    wantRematch: false, // this page asked: it goes there as soon as it is made
    naming: false, // the form for this seat's name is open
    nameDraft: "", // what its field holds
    nameSent: null, // the name sent, until the server tells everyone (then this browser keeps it)
  };
  const shownKey = `exact61.settled.${game}.${seat ?? "watch"}`;

  // ---- the skeleton: built once, filled on every state -----------------------------------
  const parts = {
    header: h("div"),
    banner: h("div", { class: "banner", role: "status", "aria-live": "polite" }),
    status: h("span", { class: "status-text", role: "status", "aria-live": "polite" }),
    // the turn clock: the time left to the person to act, beside the status line (a timer is
    // read when asked, not announced every second; the last 10 s are told once, by clockAlert)
    clock: h("span", { class: "turn-clock", role: "timer", hidden: true }),
    clockAlert: h("span", { class: "visually-hidden", role: "alert" }),
    // "I'm back", beside the status line that says a bot plays for this person
    away: h("span", { class: "away-back", hidden: true }),
    scores: h("section", { class: "panel scores", "aria-labelledby": "scores-title" }),
    players: h("section", { class: "panel players", "aria-labelledby": "players-title" }),
    playersTitle: h("h2", { id: "players-title" }),
    playerList: h("div"),
    playersFoot: h("div"),
    // this seat's own name, and the way to give or change it: built apart from the list, so a
    // state arriving while the person types leaves the field alone
    myName: h("div", { class: "my-name", hidden: true }),
    myNameText: h("span", { class: "my-name-text", role: "status" }),
    myNameControls: h("div", { class: "my-name-controls" }),
    hand: h("section", { class: "hand", "aria-labelledby": "hand-title" }),
    end: h("div", { class: "end-bar" }),
    log: h("ol", { class: "log-lines" }),
    // each new line of the log, read out as it comes (the log itself is not: its lines are
    // drawn again in another language, and a page opened again would read them all out)
    news: h("div", { class: "visually-hidden", role: "log", "aria-live": "polite" }),
    logSection: null,
  };
  parts.logSection = h(
    "section",
    { class: "panel log" }, // the scrolled lines below are the region the heading names
    h("h2", { id: "log-title" }),
    // a scrolled region is reached with Tab too, so keys can scroll it
    h("div", { class: "log-scroll", tabindex: 0, role: "region", "aria-labelledby": "log-title" }, parts.log),
  );
  parts.myName.append(parts.myNameText, parts.myNameControls);
  const hand = {
    title: h("h2", { id: "hand-title" }),
    tiles: h("div", { class: "hand-tiles", role: "group" }),
    choices: h("div", { class: "choices", hidden: true }),
    back: h("button", { type: "button", class: "small", "data-key": "back", onClick: () => ((view.selected = null), renderHand(), renderBoard(false)) }),
    hintButton: h("button", { type: "button", class: "hint-button", "data-key": "hint", "aria-keyshortcuts": "?", onClick: () => askHint() }),
    hintText: h("span", { class: "hint-text" }),
    // why the hint is the move to play: the expert's reasons
    hintWhy: h("ul", { class: "hint-why", hidden: true }),
    // the hint's move, one press away: it takes the focus when the hint comes, so Enter plays it
    playHint: h("button", { type: "button", class: "primary play-hint", "data-key": "play-hint", "aria-keyshortcuts": "Enter", hidden: true, onClick: () => playHint() }),
    buttons: new Map(), // each tile's button, by the tile
    choiceButtons: new Map(), // each place's button, by the tile and the place
    coming: null, // the tile being drawn, or the pass, that R10 forces
    round: -1, // the round the buttons were made in
    drawn: false, // the hand was drawn before: a tile that comes into it now slides in
    focused: null, // the tile button that last had the focus: {key, index}
  };
  // where the focus was in the hand: a tile placed (or a new deal) takes its button away, and
  // the focus goes on to the tile now in its place rather than out of the page
  hand.tiles.addEventListener("focusin", (event) => {
    const button = event.target.closest?.(".hand-tile");
    if (button) hand.focused = { key: button.dataset.tile, index: [...hand.tiles.querySelectorAll(".hand-tile")].indexOf(button) };
  });
  parts.hand.append(hand.title, hand.tiles, hand.choices, h("div", { class: "hand-actions" }, hand.hintButton, hand.hintText, hand.playHint), hand.hintWhy);
  parts.players.append(parts.playersTitle, parts.playerList, parts.myName, parts.playersFoot);
  const boardView = new BoardView({ onChoice: (key) => pickChoice(key), creditLabel: creditText });
  const board = boardView.el;
  parts.title = h("h1", { class: "visually-hidden" }, "Exact 61 Five Up");
  parts.statusLine = h("div", { class: "status" }, parts.status, parts.away, parts.clock, parts.clockAlert, parts.news);
  // the guided match (the Learn page's): what it is, above the table while it is played
  parts.guided = h("p", { class: "note guided-note", hidden: true });
  // until the first state only the status line shows ("Connecting…"): the rest appears
  // around it at once, drawn, so nothing on the page moves (layout shift)
  const main = h(
    "main",
    { id: "main", class: "table-view waiting" },
    parts.title,
    h("div", { class: "play-area" }, parts.guided, parts.statusLine, parts.end, board, parts.hand),
    h("aside", { class: "side" }, parts.scores, parts.players, parts.logSection),
  );
  root.replaceChildren(parts.header, parts.banner, main);
  root.classList.add("table-root");

  if (missing) {
    view.fatal = _("No such game.");
    main.classList.remove("waiting");
    main.replaceChildren(parts.title, fatalNotice(view.fatal));
    parts.header.replaceChildren(header());
    return;
  }

  if (!watching && !token) {
    // this browser never opened the seat's link (or forgot it): one line says how to get back
    main.classList.remove("waiting");
    main.replaceChildren(
      parts.title,
      h(
        "div",
        { class: "notice" },
        h("p", {}, _("To play at this seat, open the link you were sent for it.")),
        h("p", { class: "notice-buttons" }, h("a", { class: "button", href: `/g/${game}/watch` }, _("Watch")), h("a", { class: "button", href: "/" }, _("New game"))),
      ),
    );
    parts.header.replaceChildren(header());
    return;
  }

  const socket = new GameSocket(game, token, {
    state: onState,
    presence: (frame) => {
      if (!view.frame) return;
      view.frame.seats.forEach((s, i) => (s.connected = frame.connected[i]));
      if (Array.isArray(frame.names)) {
        view.frame.seats.forEach((s, i) => (s.name = frame.names[i]));
        setSeatNames(frame.names);
        nameArrived(frame.names[you]);
      }
      renderPlayers();
      renderStatus();
    },
    hint: onHint,
    rematch: (frame) => {
      view.rematch = frame.game;
      if (view.wantRematch) {
        goToRematch();
        return;
      }
      renderEndBar();
      // the end dialog, when open, says it itself (a toast behind a modal dialog is neither
      // seen nor read)
      if (!renderEndDialog()) toast(_("The next game is ready."));
    },
    error: onError,
    status: (status) => {
      view.connection = status;
      if (status === "lost") view.drops += 1;
      if (status === "open") view.everOpen = true;
      renderBanner();
    },
  });
  window.exact61 = { socket, view }; // for tests and the curious

  // ---- incoming ----------------------------------------------------------------------------

  function takeEntries(last) {
    let skipping = false;
    for (const entry of last || []) {
      if (entry.type === "action") {
        skipping = entry.seq <= view.loggedSeq;
        if (!skipping) view.loggedSeq = entry.seq;
      }
      if (!skipping) view.entries.push(entry);
    }
  }

  async function onState(frame) {
    const first = view.frame === null;
    const moved = !first && frame.seq !== view.frame.seq;
    view.previousHand = view.frame?.hand || [];
    takeEntries(frame.last);
    view.frame = frame;
    if (!watching && frame.status === "over") keepTokenBriefly(game, seat);
    if (!watching && frame.status === "over" && frame.guided) guidedMatchDone(game);
    startClock(frame.clock);
    setSeatNames((frame.seats || []).map((s) => s.name));
    if (!watching) nameArrived(frame.seats?.[you]?.name);
    if (first) {
      const wanted = preferredLanguage(frame.lang);
      if (wanted !== language()) await loadLanguage(wanted);
    }
    if (moved || first) {
      view.selected = null;
      if (view.hint && view.hint.seq !== frame.seq) view.hint = null;
    }
    renderAll();
    tellUnmade();
    maybeShowSettlement();
    maybeShowEnd();
  }

  /** The strongest bot's move: its tile marked in the hand and, where the tile fits several
   * places, those places lit with the hint's among them (in view on the layout); "Play the
   * hint" beside it takes the focus, so Enter (or a tap) plays it. */
  function onHint(frame) {
    if (!view.frame || frame.seq !== view.frame.seq || !myTurn()) return;
    view.hint = frame;
    const action = frame.action;
    view.selected = action.type === "play" && choicesFor(tileKey(action.tile)).size > 1 ? tileKey(action.tile) : null;
    renderHand();
    renderBoard(false);
    if (view.selected) boardView.reveal(".point.choice.hinted");
    parts.status.textContent = hintLine(action, frame.credit, !!frame.rejects);
    const active = document.activeElement;
    if (!hand.playHint.hidden && (!active || active === document.body || parts.hand.contains(active))) hand.playHint.focus({ preventScroll: true });
  }

  /** The tile of the hint for this state, or null. */
  function hintedTile() {
    const hint = view.hint;
    return hint && view.frame && hint.seq === view.frame.seq && hint.action.type === "play" && myTurn() ? tileKey(hint.action.tile) : null;
  }

  function playHint() {
    if (hintedTile() !== null) send(view.hint.action);
  }

  /** The page's one message when the game cannot be played here (and nothing else). */
  function fatalNotice(text) {
    return h("div", { class: "notice", role: "alert" }, h("p", {}, text), h("p", {}, h("a", { class: "button", href: "/" }, _("New game"))));
  }

  function onError(frame) {
    const code = frame.code;
    if (view.nameSent !== null && NAME_ERRORS.has(code)) {
      // the name was not taken: the form opens again with it, and the toast says why
      view.nameSent = null;
      view.naming = view.frame?.status === "playing";
      renderMyName();
      if (view.naming) parts.myNameControls.querySelector("input")?.focus();
      toast(errorText(code, frame.message));
      return;
    }
    if (FATAL.has(code)) {
      // the game, or this seat's link, is gone: this browser no longer keeps its token
      if (!watching && (code === "bad_token" || code === "not_found" || code === "expired")) forgetToken(game, seat);
      view.fatal = errorText(code, frame.message);
      main.classList.remove("waiting");
      main.replaceChildren(parts.title, fatalNotice(view.fatal));
      renderBanner();
      return;
    }
    if (code === "stale" || code === "not_your_turn" || code === "rate_limited") {
      // the page catches up by itself (a new state follows); a placement it sent that was not
      // made is told once that state is here
      if (code !== "rate_limited") {
        view.sentSeq = -1;
        if (view.sent?.action.type === "play") view.unmade = view.sent;
        view.sent = null;
        tellUnmade();
      }
      return;
    }
    view.sentSeq = -1;
    toast(errorText(code, frame.message));
  }

  /** A placement this page sent that the server did not make: this seat had moved first in
   * another tab or on another device (a race of two tabs counts one move), or the game had moved
   * on. Told once the state after it is here, and not at all where the move made is this one. */
  function tellUnmade() {
    const lost = view.unmade;
    const f = view.frame;
    if (!lost || !f || f.seq <= lost.seq) return;
    view.unmade = null;
    const made = view.entries.find((e) => e.type === "action" && e.seq === lost.seq + 1);
    const same = (a, b) => a.type === b.type && JSON.stringify([a.tile, a.at ?? null]) === JSON.stringify([b.tile, b.at ?? null]);
    if (made && made.seat === you && same(made.action, lost.action)) return;
    toast(made && made.seat === you ? _("Your move was not made: this seat had already moved in another tab or on another device.") : errorText("stale"));
  }

  // ---- acting ------------------------------------------------------------------------------

  function myTurn() {
    const f = view.frame;
    return !!f && !watching && f.status === "playing" && f.to_act === you && Array.isArray(f.legal);
  }

  function plays() {
    return myTurn() ? view.frame.legal.map((a, i) => ({ action: a, credit: view.frame.credits?.[i] ?? 0, rejects: !!view.frame.rejects?.[i] })).filter((c) => c.action.type === "play") : [];
  }

  /** This seat's draw or pass that R10 leaves no choice about, as the state announces it
   * (`forced`): the server plays it after a short pause, the page only shows it coming. */
  function forcedAction() {
    return myTurn() ? view.frame.forced || null : null;
  }

  function send(action) {
    const f = view.frame;
    if (!myTurn() || view.sentSeq === f.seq) return;
    if (socket.act(f.seq, action)) {
      view.sentSeq = f.seq;
      view.sent = { seq: f.seq, action };
      view.selected = null;
      renderHand();
      renderBoard(false);
    }
  }

  function choicesFor(key) {
    const out = new Map();
    plays()
      .filter((c) => tileKey(c.action.tile) === key && c.action.at)
      .forEach((c, i) => {
        const hinted = view.hint && view.hint.action.type === "play" && view.hint.action.at && pointKey(view.hint.action.at) === pointKey(c.action.at) && sameTile(view.hint.action.tile, c.action.tile);
        out.set(pointKey(c.action.at), { letter: LETTERS[i], credit: c.credit, rejects: c.rejects, action: c.action, hinted });
      });
    return out;
  }

  function pickTile(key) {
    const options = plays().filter((c) => tileKey(c.action.tile) === key);
    if (!options.length) {
      if (myTurn()) toast(_("{tile} fits no free attach point (R9).", { tile: tileText(key.split("-").map(Number)) }));
      return;
    }
    if (options.length === 1) {
      send(options[0].action); // a tile that fits one place only is placed at once
      return;
    }
    view.selected = view.selected === key ? null : key;
    renderHand();
    renderBoard(false);
    if (view.selected) {
      hand.choices.querySelector("button")?.focus();
      boardView.revealChoices();
    }
  }

  function pickChoice(pointKeyValue) {
    const choice = choicesFor(view.selected).get(pointKeyValue);
    if (choice) send(choice.action);
  }

  function askHint() {
    if (!myTurn() || forcedAction() || view.hintAsked === view.frame.seq) return;
    view.hintAsked = view.frame.seq;
    socket.hint(view.frame.seq, language());
    parts.status.textContent = _("Thinking…");
  }

  function onKey(event) {
    if (!root.isConnected || typing(event) || document.querySelector("dialog[open]")) return;
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const key = event.key;
    if (key === "?") {
      event.preventDefault();
      askHint();
    } else if (/^[1-9]$/.test(key)) {
      const tile = view.frame?.hand?.[Number(key) - 1];
      if (tile) {
        event.preventDefault();
        pickTile(tileKey(tile));
      }
    } else if (key === "Escape" && view.selected) {
      view.selected = null;
      renderHand();
      renderBoard(false);
    } else if (view.selected && key.length === 1 && LETTERS.includes(key.toLowerCase())) {
      const choice = [...choicesFor(view.selected).values()].find((c) => c.letter === key.toLowerCase());
      if (choice) {
        event.preventDefault();
        send(choice.action);
      }
    } else if (key === "Enter" && !(event.target instanceof HTMLButtonElement || event.target instanceof HTMLAnchorElement || event.target.getAttribute?.("role") === "button")) {
      const all = plays();
      const selected = view.selected ? [...choicesFor(view.selected).values()] : [];
      const hinted = hintedTile() !== null ? view.hint.action : null;
      const action = selected.length === 1 ? selected[0].action : hinted || (all.length === 1 ? all[0].action : null);
      if (action) {
        event.preventDefault();
        send(action);
      }
    } else if (key === "+" || key === "=") {
      boardView.zoom(1.25);
    } else if (key === "-") {
      boardView.zoom(0.8);
    }
  }
  document.addEventListener("keydown", onKey);

  // ---- drawing -----------------------------------------------------------------------------

  function renderAll() {
    if (view.frame) main.classList.remove("waiting");
    renderHeader();
    renderAway();
    tickClock();
    renderBanner();
    renderStatus();
    renderGuided();
    renderScores();
    renderPlayers();
    renderBoard(true);
    renderHand();
    renderEndBar();
    renderLog();
  }

  function renderHeader() {
    const f = view.frame;
    const bits = [];
    if (f) bits.push(h("span", { class: "round" }, _("Round {n}", { n: f.round + 1 })));
    if (watching) bits.push(h("span", { class: "watching" }, _("You are watching.")));
    else bits.push(h("span", { class: "seat-badge" }, _("You: seat {seat}", { seat })));
    replaceKeepingFocus(parts.header, header(...bits)); // the language list keeps the focus
    document.title = "Exact 61 · " + (f ? _("Round {n}", { n: f.round + 1 }) : "");
  }

  /** In the guided match, while it is played: how many rounds, against whom, and that the
   * hint says why. */
  function renderGuided() {
    const f = view.frame;
    const shown = !!f?.guided && f.status === "playing";
    parts.guided.hidden = !shown;
    if (!shown) return;
    const bot = f.seats.find((s) => s.kind !== "human")?.kind ?? "";
    parts.guided.textContent = ngettext(
      "The guided match: {n} round against the bot “{bot}”. Ask for a hint and it says why.",
      "The guided match: {n} rounds against the bot “{bot}”. Ask for a hint and it says why.",
      f.guided.rounds,
      { bot: botWords(bot) },
    );
  }

  /** How a match that is over ended: its winner, or the guided match's last round played. */
  function endLine(f) {
    if (f.winner !== null) return winnerLine(f.players, f.winner, you);
    if (f.guided) return ngettext("The guided match ends here, after {n} round.", "The guided match ends here, after {n} rounds.", f.round + 1);
    return _("The match is over");
  }

  function renderBanner() {
    // a game that cannot be played here says so once, in its notice: no reconnecting banner
    const lost = view.everOpen && !view.fatal && (view.connection === "lost" || view.connection === "connecting");
    const text = lost ? _("Connection lost. Reconnecting…") : "";
    if (parts.banner.textContent !== text) parts.banner.textContent = text; // said once (a live region)
    parts.banner.classList.toggle("shown", lost);
    // the banner only empties when the connection is back: said, or nobody hears it came back
    if (view.bannerLost && view.connection === "open") toast(_("Connected again."));
    view.bannerLost = lost;
  }

  function renderStatus() {
    const f = view.frame;
    if (!f) {
      if (parts.status.textContent !== _("Connecting…")) parts.status.textContent = _("Connecting…");
      return;
    }
    let text;
    if (f.status === "over") text = f.guided ? _("The guided match is over") : _("The match is over");
    else if (iAmAway()) text = _("Your time ran out: a bot ({bot}) is playing for you.", { bot: standInWords() });
    else if (myTurn()) {
      const forced = forcedAction();
      if (forced?.type === "draw") text = _("No tile fits: you draw from the boneyard (R10).");
      else if (forced?.type === "pass") text = _("No tile fits and the boneyard is empty: you pass (R10).");
      else if (f.pending_draw) text = _("You drew {tile}: it must be placed now (R10).", { tile: tileText(f.pending_draw) });
      else if (!f.layout.length) text = _("Your turn.") + " " + _("You open: any tile (R7).");
      else if (coarsePointer()) text = _("Your turn.") + " " + _("Tap a tile that fits.");
      else text = _("Your turn.") + " " + _("Pick a tile: its number, Tab for the next one, or a click.");
    } else {
      const seatInfo = f.seats[f.to_act];
      let seat = seatTitle(f.to_act, seatInfo?.kind, you);
      // inside the sentence: "Seat 1 (offline) to play.", never "... to play. (offline)"
      if (seatInfo && seatInfo.kind === "human" && seatInfo.connected === false) seat += " " + _("(offline)");
      // a draw or pass R10 leaves no choice about: the server plays it in a moment
      if (f.forced?.type === "draw") text = _("{seat} draws from the boneyard: no tile fits (R10).", { seat });
      else if (f.forced?.type === "pass") text = _("{seat} passes: no tile fits and the boneyard is empty (R10).", { seat });
      else text = _("{seat} to play.", { seat });
    }
    // a live region is read out at every change of its text, the same words too: written when
    // they change only (a state or the others' coming and going often leave them as they were)
    if (parts.status.textContent !== text) parts.status.textContent = text;
    parts.statusLine.classList.toggle("mine", myTurn() && !iAmAway());
  }

  function renderScores() {
    const f = view.frame;
    if (!f) return;
    const rows = f.scores.map((raw, side) => {
      const mine = you !== null && sideOf(f.players, you) === side;
      const label = sideLabel(f.players, side, you);
      const winner = f.winner === side;
      return h(
        "li",
        { class: `${mine ? "mine" : ""}${winner ? " winner" : ""}` },
        h("span", { class: "side-name" }, winner ? "★ " : "", label),
        h("span", { class: "score", "aria-label": `${label}: ${points(raw)}` }, h("strong", {}, String(display(raw))), h("span", { class: "raw" }, ` (${raw})`)),
        h("meter", { min: 0, max: TARGET, value: Math.max(0, raw), "aria-hidden": "true" }),
        view.tally ? tallyImage(raw, `${label}: ${display(raw)}`) : null,
      );
    });
    replaceKeepingFocus(
      parts.scores,
      h("h2", { id: "scores-title" }, _("Scores"), h("span", { class: "target" }, _("target: exactly {points}", { points: "61 (305)" }))),
      h("ul", { class: "score-list" }, rows),
      h(
        "button",
        {
          type: "button",
          class: "small",
          "aria-pressed": String(view.tally),
          "data-key": "tally",
          onClick: () => {
            view.tally = !view.tally;
            renderScores();
          },
        },
        _("Paper tally (R31)"),
      ),
    );
  }

  // ---- the turn clock ------------------------------------------------------------------------

  /** The clock as the last state told it: whose time runs and when it runs out (this page's
   * clock, performance.now()), or null. */
  function startClock(clock) {
    clearInterval(view.clockTimer);
    view.clock = clock && clock.seat !== null && clock.seat !== undefined ? { seat: clock.seat, end: performance.now() + clock.left_ms, warned: false } : null;
    view.standIn = clock?.stand_in ?? view.standIn ?? null;
    if (view.clock) view.clockTimer = setInterval(tickClock, 250);
  }

  function secondsLeft() {
    return view.clock ? Math.max(0, Math.ceil((view.clock.end - performance.now()) / 1000)) : 0;
  }

  function clockText() {
    const left = secondsLeft();
    // plain digits: a clock emoji shows as an empty box where no emoji font is installed
    return `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
  }

  function standInWords() {
    return botWords(`bot:${view.standIn || "heuristic"}`);
  }

  /** Every second: the time on the status line (for the person to act, and a spectator) and
   * on the seat's row; the last 10 s in a warning colour, told once to the person. */
  function tickClock() {
    const text = clockText();
    const left = secondsLeft();
    const mine = view.clock && view.clock.seat === you;
    parts.clock.hidden = !view.clock;
    parts.clock.textContent = text;
    parts.clock.setAttribute("aria-label", mine ? _("Your time: {time}", { time: text }) : _("Time left: {time}", { time: text }));
    parts.clock.classList.toggle("mine", !!mine);
    parts.clock.classList.toggle("warn", !!view.clock && left <= 10);
    for (const el of main.querySelectorAll("[data-clock]")) {
      el.textContent = text;
      el.classList.toggle("warn", left <= 10);
    }
    if (mine && left <= 10 && !view.clock.warned) {
      view.clock.warned = true;
      parts.clockAlert.textContent = ngettext("{n} second left", "{n} seconds left", left);
    }
    if (!view.clock) parts.clockAlert.textContent = "";
    if (view.clock && left === 0) clearInterval(view.clockTimer);
  }

  /** Whether the stand-in plays for this page's person (their time ran out). */
  function iAmAway() {
    const f = view.frame;
    return !!f && !watching && f.status === "playing" && !!f.seats?.[you]?.away;
  }

  /** To a person the stand-in plays for: the status line says so (renderStatus), once, and
   * beside it a button takes the seat back. */
  function renderAway() {
    const away = iAmAway();
    parts.away.hidden = !away;
    parts.statusLine.classList.toggle("away", away);
    if (!away) {
      parts.away.replaceChildren();
      return;
    }
    replaceKeepingFocus(
      parts.away,
      h("button", { type: "button", class: "primary", "data-key": "back-in", onClick: () => socket.send({ type: "back" }) }, _("I'm back")),
    );
  }

  function renderPlayers() {
    const f = view.frame;
    if (!f) return;
    parts.playersTitle.textContent = _("Players");
    const rows = f.seats.map((info, i) => {
      const acting = f.status === "playing" && f.to_act === i;
      const human = info.kind === "human";
      const online = info.connected;
      return h(
        "li",
        { class: `${acting ? "acting" : ""}${i === you ? " me" : ""}` },
        h("span", { class: "turn-mark", "aria-hidden": "true" }, acting ? "▶" : ""),
        h("span", { class: "player-name" }, seatTitle(i, info.kind, you), acting ? h("span", { class: "visually-hidden" }, " (" + _("to play") + ")") : null),
        h("span", { class: "count" }, tilesLeft(f.hand_sizes[i])),
        human ? h("span", { class: `presence ${online ? "on" : "off"}` }, online ? "● " + _("online") : "○ " + _("offline")) : null,
        info.away
          ? h("span", { class: "away" }, i === you ? _("away: a bot ({bot}) plays for you", { bot: standInWords() }) : _("away: a bot ({bot}) plays for them", { bot: standInWords() }))
          : null,
        view.clock && view.clock.seat === i ? h("span", { class: "seat-clock", "data-clock": "seat" }, clockText()) : null,
      );
    });
    replaceKeepingFocus(parts.playerList, h("ul", { class: "player-list" }, rows));
    renderMyName();
    replaceKeepingFocus(
      parts.playersFoot,
      f.players === 4 ? h("p", { class: "note" }, _("Seats 0 and 2 play against seats 1 and 3.")) : null,
      h("p", { class: "boneyard" }, backImage(7), " ", _("Boneyard: {tiles}", { tiles: tilesLeft(f.boneyard) })),
    );
  }

  // ---- this seat's name ----------------------------------------------------------------------

  let renderedName = null; // what the controls were last built for

  /** A seat's person names themselves, while the match is in play: "Set your name" (or
   * "Change your name") opens a small form. Nothing is sent until they save it: a name this
   * browser remembers only fills the field. */
  function renderMyName() {
    const f = view.frame;
    const shown = !!f && !watching && f.status === "playing";
    parts.myName.hidden = !shown;
    if (!shown) {
      view.naming = false;
      return;
    }
    const name = f.seats?.[you]?.name || "";
    const text = name ? _("Your name: {name}", { name }) : "";
    if (parts.myNameText.textContent !== text) parts.myNameText.textContent = text;
    const key = `${view.naming}|${!!name}|${language()}`;
    if (key === renderedName) return; // a form being typed in is never built again
    renderedName = key;
    if (!view.naming) {
      replaceKeepingFocus(
        parts.myNameControls,
        h("button", { type: "button", class: "small", "data-key": "name-edit", onClick: openNameForm }, name ? _("Change your name") : _("Set your name")),
      );
      return;
    }
    replaceKeepingFocus(
      parts.myNameControls,
      h(
        "form",
        { class: "name-form", onSubmit: saveName, onKeydown: (e) => e.key === "Escape" && (e.preventDefault(), closeNameForm()) },
        h("label", { for: "seat-name" }, _("Your name")),
        h("input", {
          id: "seat-name",
          type: "text",
          maxlength: 24,
          autocomplete: "nickname",
          value: view.nameDraft,
          "data-key": "name-input",
          onInput: (e) => (view.nameDraft = e.target.value),
        }),
        h("button", { type: "submit", class: "small primary", "data-key": "name-save" }, _("Save")),
        h("button", { type: "button", class: "small", "data-key": "name-cancel", onClick: closeNameForm }, _("Cancel")),
      ),
    );
  }

  function openNameForm() {
    view.naming = true;
    view.nameDraft = view.frame?.seats?.[you]?.name || savedName();
    renderMyName();
    const field = parts.myNameControls.querySelector("input");
    field?.focus();
    field?.select();
  }

  function closeNameForm() {
    view.naming = false;
    renderMyName();
    parts.myNameControls.querySelector("button")?.focus();
  }

  function saveName(event) {
    event.preventDefault();
    const name = view.nameDraft.trim();
    if (!name) {
      toast(errorText("bad_message", "name"));
      parts.myNameControls.querySelector("input")?.focus();
      return;
    }
    if (!socket.rename(name)) {
      toast(_("Connection lost. Reconnecting…"));
      return;
    }
    view.nameSent = name.normalize("NFC");
    closeNameForm();
  }

  /** The seat's name as the server now tells it: once it is the one sent, this browser keeps
   * it for the next game (as the start page does). */
  function nameArrived(name) {
    if (view.nameSent !== null && name === view.nameSent) {
      keepName(name);
      view.nameSent = null;
    }
  }

  function renderBoard(newPosition) {
    const f = view.frame;
    if (!f) return;
    const follow = newPosition && f.seq !== view.scrolledSeq;
    if (follow) view.scrolledSeq = f.seq;
    boardView.draw(f.picture, {
      choices: view.selected ? choicesFor(view.selected) : new Map(),
      info: f.layout.length ? scoredEndsText(f.ends, f.end_sum) : "",
      label: f.layout.length ? _("The layout") : _("The table is empty: the opener may play any tile (R7)."),
      empty: f.layout.length ? "" : _("The table is empty: the opener may play any tile (R7)."),
      follow,
    });
  }

  /** The hand: its parts are made once and its buttons kept from one drawing to the next, a
   * tile's for as long as the tile is in the hand, so a tap or click that began on a button
   * ends on the same button whatever arrives in between (a hint, a state). */
  function renderHand() {
    const inHand = parts.hand.contains(document.activeElement);
    drawHand();
    if (inHand) keepFocusInHand();
  }

  /** The focus was in the hand and its element went (the tile placed, the list of places
   * closed, "Play the hint" hidden): it goes to the tile last focused if it is still held,
   * else to the one now at its place in the hand, so Tab and Enter go on from there. */
  function keepFocusInHand() {
    const active = document.activeElement;
    if (active && active !== document.body && active.isConnected && active.getClientRects().length) return;
    const buttons = [...hand.tiles.querySelectorAll(".hand-tile")];
    if (parts.hand.hidden || !buttons.length) return;
    const last = hand.focused;
    const target = (last && hand.buttons.get(last.key)?.isConnected && hand.buttons.get(last.key)) || buttons[Math.min(last?.index ?? 0, buttons.length - 1)];
    target.focus({ preventScroll: true });
  }

  function drawHand() {
    const f = view.frame;
    if (!f || watching || f.status === "over") {
      parts.hand.hidden = true;
      return;
    }
    parts.hand.hidden = false;
    hand.title.textContent = _("Your hand:");
    hand.tiles.setAttribute("aria-label", _("Your hand:"));
    if (hand.round !== f.round) {
      hand.buttons.clear(); // a new deal: its tiles arrive
      hand.round = f.round;
    }
    const playable = new Set(plays().map((c) => tileKey(c.action.tile)));
    const waiting = view.sentSeq === f.seq;
    const hinted = waiting ? null : hintedTile();
    const held = new Set();
    const buttons = (f.hand || []).map((tile, i) => {
      const key = tileKey(tile);
      held.add(key);
      let button = hand.buttons.get(key);
      if (!button) {
        button = h(
          "button",
          { type: "button", class: "hand-tile", "data-key": `tile-${key}`, "data-tile": key, onClick: () => pickTile(key) },
          // the number and the marks (▲ fits, ★ drawn) in a row above the tile, inside the button
          h("span", { class: "marks", "aria-hidden": "true" }),
          tileImage(tile, { unit: 14, label: "" }),
        );
        if (hand.drawn) {
          button.classList.add("new"); // it slides in once, when it comes into the hand
          button.addEventListener("animationend", () => button.classList.remove("new"), { once: true });
        }
        hand.buttons.set(key, button);
      }
      const can = playable.has(key) && !waiting;
      const drawn = sameTile(tile, f.pending_draw);
      const label = [`${i + 1}: ${tileText(tile)}`];
      if (drawn) label.push(_("(drawn)"));
      if (myTurn()) label.push(can ? _("can be placed") : _("fits nowhere"));
      if (key === hinted) label.push(_("suggested by the hint"));
      button.classList.toggle("playable", can);
      button.classList.toggle("selected", view.selected === key);
      button.classList.toggle("drawn", !!drawn);
      button.classList.toggle("hinted", key === hinted);
      button.setAttribute("aria-label", label.join(", "));
      button.setAttribute("aria-pressed", String(view.selected === key));
      button.setAttribute("aria-disabled", String(myTurn() && !can));
      const marks = `${i + 1}${drawn ? "★" : ""}${can ? "▲" : ""}`;
      if (button.firstChild.dataset.marks !== marks) {
        button.firstChild.dataset.marks = marks;
        button.firstChild.replaceChildren(
          ...[
            h("span", { class: "number" }, String(i + 1)),
            drawn ? h("span", { class: "drawn-mark" }, "★") : null,
            can ? h("span", { class: "fits" }, "▲") : null,
          ].filter(Boolean),
        );
      }
      return button;
    });
    for (const key of [...hand.buttons.keys()]) if (!held.has(key)) hand.buttons.delete(key);
    hand.drawn = true;
    const forced = forcedAction();
    let coming = null;
    if (forced && !waiting) {
      coming =
        forced.type === "draw"
          ? h("span", { class: "incoming", "aria-hidden": "true" }, backImage(14))
          : h("span", { class: "pass-bubble", "aria-hidden": "true" }, _("Pass"));
      if (hand.coming?.className === coming.className) coming = hand.coming; // its animation goes on
    }
    hand.coming = coming;
    placeChildren(hand.tiles, [...buttons, coming]);
    renderChoices();
    const hint = hintedTile() !== null && !waiting;
    hand.hintButton.textContent = coarsePointer() ? _("Hint") : _("Hint") + " (?)"; // its key, where there are keys
    hand.hintButton.disabled = !myTurn() || !!forced || waiting;
    hand.hintText.textContent = hint ? hintLine(view.hint.action, view.hint.credit, !!view.hint.rejects) : "";
    hand.playHint.textContent = _("Play the hint");
    hand.playHint.hidden = !hint;
    const why = hint && Array.isArray(view.hint.why) ? view.hint.why : [];
    hand.hintWhy.hidden = !why.length;
    hand.hintWhy.setAttribute("aria-label", _("Why"));
    placeChildren(hand.hintWhy, why.map((text) => h("li", {}, withRules(text))));
  }

  /** The places the picked tile fits, lettered as on the layout, and Back. */
  function renderChoices() {
    hand.choices.hidden = !view.selected;
    if (!view.selected) {
      placeChildren(hand.choices, []);
      return;
    }
    const rows = [h("span", { class: "choices-title" }, _("Place {tile} at:", { tile: tileText(view.selected.split("-").map(Number)) }))];
    for (const c of choicesFor(view.selected).values()) {
      const key = `${view.selected}|${pointKey(c.action.at)}`;
      let button = hand.choiceButtons.get(key);
      if (!button) {
        const action = c.action;
        button = h("button", { type: "button", class: "choice", "data-key": `choice-${pointKey(action.at)}`, onClick: () => send(action) });
        hand.choiceButtons.set(key, button);
      }
      button.classList.toggle("hinted", c.hinted);
      button.dataset.credit = c.credit;
      const where = actionText(c.action);
      button.setAttribute("aria-label", `${c.letter}) ${where}, ${creditText(c.credit, c.rejects)}`);
      // the credit runs on after the words, and goes whole to the next line where they fill this one
      button.replaceChildren(
        h("span", { class: "letter" }, c.letter),
        h(
          "span",
          { class: "words" },
          where,
          "\u00a0· ",
          h("span", { class: c.credit ? "credit" : "credit none" }, creditText(c.credit)),
          // R4 would reject it: said after a space where the line may break (a phone, Polish)
          ...(c.rejects ? [" ", h("span", { class: "credit rejected" }, _("past 61 (R4)"))] : []),
        ),
      );
      rows.push(button);
    }
    for (const key of [...hand.choiceButtons.keys()]) if (!key.startsWith(`${view.selected}|`)) hand.choiceButtons.delete(key);
    hand.back.textContent = _("Back");
    rows.push(hand.back);
    placeChildren(hand.choices, rows);
  }

  function renderEndBar() {
    const f = view.frame;
    if (!f || f.status !== "over") {
      parts.end.replaceChildren();
      parts.end.hidden = true;
      return;
    }
    parts.end.hidden = false;
    replaceKeepingFocus(parts.end, h("p", {}, h("strong", {}, endLine(f))), endButtons());
  }

  function endButtons() {
    return h(
      "div",
      { class: "end-buttons" },
      // a spectator has no seat to play again from: it may watch the next game once made
      watching
        ? view.rematch && h("a", { class: "button primary", href: `/g/${encodeURIComponent(view.rematch)}/watch`, "data-key": "next" }, _("Watch the next game"))
        : h("button", { type: "button", class: "primary", "data-key": view.rematch ? "next" : "again", onClick: playAgain }, view.rematch ? _("Play the next game") : againLabel()),
      view.frame.guided ? h("a", { class: "button", href: "/learn", "data-key": "learn" }, _("Learn the game")) : null,
      h("a", { class: "button", href: `/api/games/${game}/record`, download: `exact61-${game}.json`, "data-key": "record" }, _("Download the record")),
      h("a", { class: "button", href: `/replay?game=${encodeURIComponent(game)}` }, _("Replay this game")),
      h("a", { class: "button", href: "/" }, _("New game")),
    );
  }

  let renderedLines = 0;
  let renderedLang = null;
  function renderLog() {
    const f = view.frame;
    if (!f) return;
    parts.logSection.querySelector("#log-title").textContent = _("Log");
    const lines = logLines(view.entries, f.players, you);
    if (!lines.length && f.layout.length === 0) lines.push({ text: openerLine(f.round + 1, f.opener, you), kind: "round" });
    // the lines new since the last drawing in this language, none at the first (the page opened)
    const news = renderedLang === language() && lines.length > renderedLines ? lines.slice(renderedLines) : [];
    if (renderedLang !== language() || lines.length < renderedLines) {
      parts.log.replaceChildren();
      renderedLines = 0;
      renderedLang = language();
    }
    for (const line of news) parts.news.append(h("p", {}, line.text));
    while (parts.news.children.length > 12) parts.news.firstChild.remove();
    const start = Math.max(renderedLines, lines.length - 80);
    for (const line of lines.slice(start)) parts.log.append(h("li", { class: `log-${line.kind}` }, withRules(line.text)));
    while (parts.log.children.length > 80) parts.log.firstChild.remove();
    renderedLines = lines.length;
    const scroller = parts.logSection.querySelector(".log-scroll");
    scroller.scrollTop = scroller.scrollHeight;
  }

  // ---- settlement and end ------------------------------------------------------------------

  let settlementDialog = null;
  function maybeShowSettlement() {
    const f = view.frame;
    const end = f.round_end;
    if (!end || f.status === "over") return;
    const shown = Number(sessionStorage.getItem(shownKey) ?? -1);
    if (end.round <= shown) return;
    sessionStorage.setItem(shownKey, String(end.round));
    if (settlementDialog?.open) settlementDialog.close(); // one settlement panel at a time
    const settled = settlementView(end, f.players, you);
    const scores = scoresView(_("Scores"), f.players, f.scores, you);
    settlementDialog = openDialog({
      title: _("Round {n} settled", { n: end.round + 1 }),
      body: [settled, scores],
      actions: [{ label: _("Continue"), primary: true, key: "continue", onClick: (d) => d.close() }],
      className: "settlement-dialog",
      describedBy: [settled.querySelector(".settlement-lines"), scores],
    });
    settlementDialog.closed.then(showStatusLine);
  }

  /** Once a dialog closes, the status line (whose turn it is) is in sight again: on a phone the
   * page may have been scrolled down to the hand when the round ended. */
  function showStatusLine() {
    if (document.querySelector("dialog[open]")) return;
    const box = parts.statusLine.getBoundingClientRect();
    if (box.top < 0 || box.bottom > window.innerHeight) window.scrollTo({ top: 0, behavior: "instant" });
  }

  let endDialog = null;
  function maybeShowEnd() {
    const f = view.frame;
    if (f.status !== "over" || view.endShown) return;
    view.endShown = true;
    if (settlementDialog?.open) settlementDialog.close(); // the end screen tells it too
    const body = [h("p", { class: "winner-line" }, endLine(f))];
    body.push(scoresView(_("Final scores"), f.players, f.scores, you));
    const described = [...body];
    if (f.round_end && f.round_end.kind !== "target") body.push(h("h3", {}, _("Round {n} settled", { n: f.round_end.round + 1 })));
    if (f.round_end) body.push(settlementView(f.round_end, f.players, you));
    // told here when someone else starts the next game while this dialog is open
    body.push(h("p", { class: "rematch-note", role: "status" }));
    endDialog = openDialog({
      title: f.guided ? _("The guided match is over") : _("The match is over"),
      body,
      className: "end-dialog",
      describedBy: described,
      actions: [
        ...(watching ? [] : [{ label: againLabel(), primary: true, key: "again", onClick: (d) => (d.close(), playAgain()) }]),
        ...(f.guided ? [{ label: _("Learn the game"), href: "/learn", key: "learn" }] : []),
        { label: _("Download the record"), href: `/api/games/${game}/record`, download: `exact61-${game}.json` },
        { label: _("Replay this game"), href: `/replay?game=${encodeURIComponent(game)}` },
        { label: _("New game"), href: "/" },
      ],
    });
    endDialog.closed.then(() => {
      showStatusLine();
      // the hand the focus was in is gone: it goes to the end bar, which offers what the
      // dialog did (Play again first), not to the top of the page
      const active = document.activeElement;
      if (!active || active === document.body) parts.end.querySelector(".end-buttons .primary, .end-buttons a, .end-buttons button")?.focus({ preventScroll: true });
    });
    renderEndDialog();
  }

  /** Once the next game is made (by anyone at the table), the open end dialog offers it as the
   * end bar does: "Play the next game" (to a spectator, "Watch the next game"), which goes
   * there. Whether the dialog is open. */
  function renderEndDialog() {
    if (!endDialog?.open) return false;
    if (!view.rematch) return true;
    const note = endDialog.querySelector(".rematch-note");
    if (!note.textContent) note.textContent = _("The next game is ready.");
    const again = endDialog.querySelector('.dialog-actions [data-key="again"]');
    if (again) {
      again.textContent = _("Play the next game");
      again.dataset.key = "next"; // its click plays again, which goes to the game made
    } else if (watching && !endDialog.querySelector('[data-key="next"]')) {
      const href = `/g/${encodeURIComponent(view.rematch)}/watch`;
      endDialog.querySelector(".dialog-actions").prepend(h("a", { class: "button primary", href, "data-key": "next" }, _("Watch the next game")));
    }
    return true;
  }

  /** The button for the next game: after the guided match, a whole match with the same seats
   * (a rematch of a guided game is an ordinary one). */
  function againLabel() {
    return view.frame?.guided ? _("Play a whole match") : _("Play again");
  }

  /** The next game with the same seats, names and links: asked of the server, which tells
   * everyone at this table when it is made (a `rematch` frame); this page then goes there. */
  function playAgain() {
    if (view.rematch) {
      goToRematch();
      return;
    }
    view.wantRematch = true;
    socket.send({ type: "rematch" });
  }

  function goToRematch() {
    const next = encodeURIComponent(view.rematch);
    if (watching) {
      location.href = `/g/${next}/watch`;
      return;
    }
    keepToken(view.rematch, seat, token); // the same token: the seat's link carries over
    location.href = `/g/${next}?seat=${seat}`;
  }

  onLanguageChange(() => {
    renderAll();
    // the hint's reasons are the server's words: the hint is asked again, in the new language
    // (the server keeps the hint of a seat and moment: no search runs again), and shown again
    if (hintedTile() !== null && view.hint.why?.length) socket.hint(view.frame.seq, language());
  });

  renderHeader();
  renderStatus();
  socket.connect();
}

