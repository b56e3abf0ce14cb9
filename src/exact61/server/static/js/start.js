// The start page: a new game (players, who sits where, language) with the links to send, and
// the open games with a free seat to take.

import { h, replaceKeepingFocus } from "./dom.js";
import { _, language, languageNames, LANGUAGES, ngettext, onLanguageChange } from "./i18n.js";
import { gameLinks, keepTokens } from "./links.js";
import { api, keepName, keepToken, savedName } from "./net.js";
import { loadProgress } from "./progress.js";
import { header, toast } from "./ui.js";
import { botLabel, errorText, seatName, sideOf } from "./words.js";

const STAND_IN = "bot:heuristic"; // the server's DEFAULT_STAND_IN (server/protocol.py)
const KINDS = ["human", "bot:beginner", "bot:easy", "bot:medium", "bot:hard", "bot:expert"]; // weakest first

const CLOCKS = [0, 30, 60, 120, 300]; // seconds a person has for a move; 0: no turn clock

function clockLabel(seconds) {
  if (!seconds) return _("No clock");
  if (seconds < 60) return ngettext("{n} second a move", "{n} seconds a move", seconds);
  return ngettext("{n} minute a move", "{n} minutes a move", seconds / 60);
}

function kindLabel(kind) {
  if (kind === "human") return _("A person");
  return _("Bot: {bot}", { bot: botLabel(kind) }); // as the lobby names it
}

export function mountStart(root) {
  const form = { players: 2, seats: ["human", "human", "bot:medium", "bot:medium"], lang: language(), open: false, name: "", you: savedName(), clock: 0 };
  let created = null;
  let lobby = [];
  let lobbyError = false;

  const main = h("main", { id: "main", class: "start-view" });
  const lobbySection = h("section", { class: "panel lobby", "aria-labelledby": "lobby-title" });
  const top = h("div");
  root.replaceChildren(top, main);

  function render() {
    replaceKeepingFocus(top, header());
    document.title = "Exact 61 Five Up";
    const active = document.activeElement?.dataset?.key;
    main.replaceChildren(
      h("h1", {}, _("Exact 61 Five Up: reach exactly 61.")),
      h("p", { class: "lead" }, _("Dominoes where every double is a spinner, the open ends score in fives, and a side must land exactly on 61.")),
      h("div", { class: "start-columns" }, newGame(), h("div", {}, learnBox(), lobbySection, puzzleBox(), replayBox())),
    );
    renderLobby();
    if (active) main.querySelector(`[data-key="${CSS.escape(active)}"]`)?.focus();
  }

  function newGame() {
    if (created) {
      const mine = created.seats.find((s) => s.url);
      return h(
        "section",
        { class: "panel new-game", "aria-labelledby": "new-title" },
        h("h2", { id: "new-title" }, _("Your game is ready")),
        gameLinks(created, mine ? mine.seat : null),
        h("button", { type: "button", "data-key": "another", onClick: another }, _("Another game")),
      );
    }
    const seatRows = [];
    for (let seat = 0; seat < form.players; seat++) {
      const id = `seat-${seat}`;
      const team = form.players === 4 ? " · " + _("side {side}", { side: sideOf(4, seat) }) : "";
      seatRows.push(
        h(
          "li",
          {},
          h("label", { for: id }, seatName(seat), team),
          h(
            "select",
            { id, "data-key": id, onChange: (e) => (form.seats[seat] = e.target.value) },
            KINDS.map((kind) => h("option", { value: kind, selected: form.seats[seat] === kind }, kindLabel(kind))),
          ),
        ),
      );
    }
    const names = languageNames();
    return h(
      "section",
      { class: "panel new-game", "aria-labelledby": "new-title" },
      h("h2", { id: "new-title" }, _("New game")),
      h(
        "form",
        { onSubmit: create },
        h(
          "fieldset",
          { class: "players-count" },
          h("legend", {}, _("Players")),
          [2, 3, 4].map((n) =>
            h(
              "label",
              { class: "radio" },
              h("input", {
                type: "radio",
                name: "players",
                value: n,
                checked: form.players === n,
                "data-key": `players-${n}`,
                onChange: () => {
                  form.players = n;
                  render();
                },
              }),
              String(n),
            ),
          ),
        ),
        form.players === 4 ? h("p", { class: "note" }, _("Seats 0 and 2 play against seats 1 and 3.")) : null,
        h("ul", { class: "seat-list" }, seatRows),
        h(
          "div",
          { class: "field" },
          h("label", { for: "game-lang" }, _("Language of the game")),
          h(
            "select",
            { id: "game-lang", "data-key": "game-lang", "aria-describedby": "game-lang-note", onChange: (e) => (form.lang = e.target.value) },
            LANGUAGES.map((code) => h("option", { value: code, selected: form.lang === code }, names[code] || code)),
          ),
          h("span", { class: "note", id: "game-lang-note" }, _("The table speaks each browser's language, or the one picked at the top of the page; this one is for browsers in other languages, and the record keeps it.")),
        ),
        h(
          "div",
          { class: "field" },
          h("label", { for: "game-clock" }, _("Turn clock")),
          h(
            "select",
            { id: "game-clock", "data-key": "game-clock", "aria-describedby": "game-clock-note", onChange: (e) => (form.clock = Number(e.target.value)) },
            CLOCKS.map((seconds) => h("option", { value: seconds, selected: form.clock === seconds }, clockLabel(seconds))),
          ),
          h("span", { class: "note", id: "game-clock-note" }, _("When a person's time for a move runs out, a bot ({bot}) plays for them until they are back.", { bot: botLabel(STAND_IN) })),
        ),
        h(
          "label",
          { class: "field" },
          _("Your name (optional, shown to the others)"),
          h("input", { type: "text", maxlength: 24, value: form.you, autocomplete: "nickname", "data-key": "you", onInput: (e) => (form.you = e.target.value) }),
        ),
        h(
          "label",
          { class: "field" },
          _("Name of the game (optional)"),
          h("input", { type: "text", maxlength: 60, value: form.name, "data-key": "name", onInput: (e) => (form.name = e.target.value) }),
        ),
        h(
          "label",
          { class: "check" },
          h("input", { type: "checkbox", checked: form.open, "data-key": "open", onChange: (e) => (form.open = e.target.checked) }),
          _("List it among the open games, so anyone may take a free seat"),
        ),
        h("button", { type: "submit", class: "primary", "data-key": "create" }, _("Create the game")),
      ),
    );
  }

  /** The form again, the focus on its first field: it fell to the top of the page with the
   * button that brought the form back. */
  function another() {
    created = null;
    render();
    main.querySelector('.players-count input:checked')?.focus();
  }

  async function create(event) {
    event.preventDefault();
    const seats = form.seats.slice(0, form.players);
    const body = { players: form.players, seats, lang: form.lang, open: form.open, name: form.name.trim() };
    if (form.clock) body.clock = form.clock; // the stand-in is the server's default (protocol.DEFAULT_STAND_IN)
    const you = keepName(form.you);
    if (you) body.names = seats.map((kind, seat) => (seat === seats.indexOf("human") ? you : null));
    try {
      created = await api("/api/games", { method: "POST", body });
      keepTokens(created);
      render();
      // the person's own seat first (one selector for both found the first Copy before it)
      (main.querySelector(".links a.primary") || main.querySelector(".links button"))?.focus();
      loadLobby();
    } catch (error) {
      toast(errorText(error.code, error.message));
    }
  }

  function renderLobby() {
    const rows = lobby.map((game) =>
      h(
        "li",
        { class: "lobby-game" },
        h("div", { class: "lobby-name", id: `lobby-${game.game}` }, h("strong", {}, game.name || game.game), " · ", ngettext("{n} player", "{n} players", game.players)),
        h(
          "div",
          { class: "lobby-seats" },
          game.seats.map((kind, seat) =>
            game.free.includes(seat)
              ? h("button", { type: "button", "data-key": `take-${game.game}-${seat}`, "aria-describedby": `lobby-${game.game}`, onClick: () => take(game.game, seat) }, _("Take seat {seat}", { seat }))
              : h("span", { class: "taken" }, _("Seat {seat}", { seat }), ": ", kind === "human" ? game.names[seat] || _("a person") : botLabel(kind)),
          ),
        ),
      ),
    );
    replaceKeepingFocus(
      lobbySection,
      h("h2", { id: "lobby-title" }, _("Open games")),
      rows.length ? h("ul", { class: "lobby-list" }, rows) : h("p", { class: "note" }, lobbyError ? _("The list of open games is not available.") : _("No open games just now.")),
      h("button", { type: "button", class: "small", "data-key": "refresh", onClick: loadLobby }, _("Refresh")),
    );
  }

  function learnBox() {
    const begun = loadProgress();
    return h(
      "section",
      { class: "panel", "aria-labelledby": "learn-title" },
      h("h2", { id: "learn-title" }, _("Learn the game")),
      h("p", {}, _("New to Five Up? A guided tour of the rule book's positions, each a question answered on the board with the rules behind the answer, then a short match against the easy bot, whose hint says why.")),
      h("a", { class: "button", href: "/learn", "data-key": "learn" }, begun.step && begun.stage !== "done" ? _("Go on with the tour") : _("Start the tour")),
    );
  }

  function puzzleBox() {
    return h(
      "section",
      { class: "panel", "aria-labelledby": "puzzle-title" },
      h("h2", { id: "puzzle-title" }, _("Puzzle of the day")),
      h("p", {}, _("A moment from a real match, proved by the solver: one move reaches the goal against every defence.")),
      h("a", { class: "button", href: "/puzzles" }, _("Solve it")),
    );
  }

  function replayBox() {
    return h(
      "section",
      { class: "panel", "aria-labelledby": "replay-title" },
      h("h2", { id: "replay-title" }, _("Replay a record")),
      h("p", {}, _("Step through a finished game, or a file from exact61 simulate, action by action.")),
      h("a", { class: "button", href: "/replay" }, _("Open the replay viewer")),
    );
  }

  async function take(game, seat) {
    try {
      const you = keepName(form.you);
      const answer = await api(`/api/games/${encodeURIComponent(game)}/seats/${seat}`, { method: "POST", body: you ? { name: you } : undefined });
      keepToken(game, seat, answer.token);
      location.href = answer.url;
    } catch (error) {
      toast(errorText(error.code, error.message));
      loadLobby();
    }
  }

  async function loadLobby() {
    try {
      lobby = (await api("/api/games")).games;
      lobbyError = false;
    } catch {
      lobbyError = true;
    }
    renderLobby();
  }

  onLanguageChange(() => {
    render();
  });
  render();
  loadLobby();
  const timer = setInterval(() => (document.visibilityState === "visible" ? loadLobby() : null), 15000);
  return () => clearInterval(timer);
}
