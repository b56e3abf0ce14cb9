// The replay viewer: open an exact61-match/1 record (a finished game, or a .jsonl file from
// `exact61 simulate`), pick a match, step through it action by action with the table's picture.
// The server replays the record through the rules engine (POST /api/replays) and returns every
// position; nothing here knows the rules.

import { backImage, tileImage } from "./board.js";
import { BoardView } from "./boardview.js";
import { h, replaceKeepingFocus, typing } from "./dom.js";
import { _, ngettext, onLanguageChange } from "./i18n.js";
import { api } from "./net.js";
import { scoresView, settlementView } from "./table.js";
import { announcer, header, withRules } from "./ui.js";
import { logLines, nameTilesAs, pipsText, points, scoredEndsText, seatTitle, setSeatNames, sideLabel, tilesLeft, winnerLine } from "./words.js";

export function mountReplay(root) {
  const view = { lines: [], chosen: null, data: null, pos: 0, playing: null, error: "", loading: false, source: "" };
  const main = h("main", { id: "main", class: "replay-view" });
  const top = h("div");
  // what a screen reader says as the record loads and as the position changes: where in the
  // match, and what was done (the visible title and words are drawn again at each change)
  const said = announcer();
  root.replaceChildren(top, main, said.el);
  const boardView = new BoardView();
  // one file field for the page's life: drawn again, it would say "No file chosen" beside the
  // record it just opened; it is hidden behind its label, which looks like a button
  const fileInput = h("input", {
    type: "file",
    accept: ".json,.jsonl,application/json",
    id: "record-file",
    class: "file-field",
    "data-key": "file",
    onChange: (e) => readFile(e.target.files[0]),
  });

  function render() {
    replaceKeepingFocus(top, header(h("span", { class: "round" }, _("Replay"))));
    document.title = "Exact 61 · " + _("Replay");
    const active = document.activeElement?.dataset?.key;
    main.replaceChildren(...[loader(), matchList(), viewer()].filter(Boolean));
    if (view.data) drawPosition();
    if (active) main.querySelector(`[data-key="${CSS.escape(active)}"]`)?.focus();
  }

  function loader() {
    const zone = h(
      "section",
      {
        class: "panel loader",
        "aria-labelledby": "loader-title",
        onDragover: (e) => (e.preventDefault(), zone.classList.add("over")),
        onDragleave: () => zone.classList.remove("over"),
        onDrop: (e) => {
          e.preventDefault();
          zone.classList.remove("over");
          readFile(e.dataTransfer.files[0]);
        },
      },
      h("h1", { id: "loader-title" }, _("Open a record")),
      h("p", { id: "record-file-note" }, _("A record file (.json), or a .jsonl file from exact61 simulate:")),
      h("div", { class: "file-row" }, fileInput, h("label", { for: "record-file", class: "button file-button" }, _("Choose a file…")), view.source ? h("span", { class: "file-name" }, view.source) : null),
      view.loading ? h("p", { class: "note" }, _("Replaying the record…")) : null,
      view.error ? h("p", { class: "error", role: "alert" }, view.error) : null,
    );
    return zone;
  }

  function matchList() {
    if (view.lines.length < 2) return null;
    return h(
      "section",
      { class: "panel matches" },
      h(
        "label",
        { class: "field" },
        _("Match"),
        h(
          "select",
          { "data-key": "match", onChange: (e) => choose(Number(e.target.value)) },
          view.lines.map((_line, i) => h("option", { value: i, selected: view.chosen === i }, _("Match {n}", { n: i }))),
        ),
      ),
      h("span", { class: "note" }, ngettext("{n} match in the file", "{n} matches in the file", view.lines.length)),
    );
  }

  function viewer() {
    const data = view.data;
    if (!data) return null;
    const total = data.positions.length;
    // each names the key that does the same (the document's keydown below), for a screen reader
    const button = (key, label, text, go, shortcut) =>
      h("button", { type: "button", class: "small", "data-key": key, "aria-label": label, "aria-keyshortcuts": shortcut, title: label, onClick: go }, text);
    return h(
      "section",
      { class: "viewer", "aria-labelledby": "position-title" },
      h("div", { class: "replay-summary" }, summary(data)),
      h(
        "div",
        { class: "controls", role: "toolbar", "aria-label": _("Replay") },
        button("first", _("First"), "|◀", () => go(0), "Home"),
        button("prev-round", _("Previous round"), "◀◀", () => go(roundStart(-1)), "PageUp"),
        button("prev", _("Previous"), "‹", () => go(view.pos - 1), "ArrowLeft"),
        playButton(),
        button("next", _("Next"), "›", () => go(view.pos + 1), "ArrowRight"),
        button("next-round", _("Next round"), "▶▶", () => go(roundStart(1)), "PageDown"),
        button("last", _("Last"), "▶|", () => go(total - 1), "End"),
        h("input", {
          type: "range",
          min: 0,
          max: total - 1,
          value: view.pos,
          "data-key": "slider",
          "aria-label": _("Position"),
          onInput: (e) => go(Number(e.target.value)),
        }),
      ),
      h("h2", { id: "position-title", class: "position-title" }),
      h("p", { class: "status action-words" }),
      h(
        "div",
        { class: "replay-layout" },
        h("div", { class: "replay-main" }, boardView.el, h("p", { class: "boneyard" })),
        h("aside", { class: "side" }, h("section", { class: "panel scores" }), h("section", { class: "panel replay-hands" }), h("section", { class: "panel log" })),
      ),
      h("section", { class: "panel settlement-panel", hidden: true }),
    );
  }

  /** Play (or Pause) says so in words, and looks unlike the step buttons beside it. */
  function playButton() {
    const label = view.playing ? _("Pause") : _("Play");
    return h("button", { type: "button", class: "small primary play", "data-key": "play", onClick: togglePlay }, h("span", { "aria-hidden": "true" }, view.playing ? "❚❚" : "▶"), " ", label);
  }

  function summary(data) {
    const parts = [ngettext("{n} player", "{n} players", data.players), ngettext("{n} round", "{n} rounds", data.rounds)];
    parts.push(data.winner === null ? _("unfinished") : winnerLine(data.players, data.winner, null));
    return parts.join(" · ");
  }

  function roundStart(direction) {
    const positions = view.data.positions;
    const round = positions[view.pos].round + direction;
    const index = positions.findIndex((p) => p.round === Math.max(0, round));
    return index < 0 ? positions.length - 1 : index;
  }

  function go(index) {
    if (!view.data) return;
    view.pos = Math.max(0, Math.min(view.data.positions.length - 1, index));
    drawPosition();
  }

  function togglePlay() {
    if (view.playing) {
      clearInterval(view.playing);
      view.playing = null;
    } else {
      view.playing = setInterval(() => {
        if (view.pos >= view.data.positions.length - 1) togglePlay();
        else go(view.pos + 1);
      }, 800);
    }
    const focused = document.activeElement?.dataset?.key === "play";
    main.querySelector('[data-key="play"]')?.replaceWith(playButton());
    if (focused) main.querySelector('[data-key="play"]')?.focus();
  }

  function drawPosition() {
    const data = view.data;
    const p = data.positions[view.pos];
    const slider = main.querySelector('[data-key="slider"]');
    if (slider) slider.value = view.pos;
    const actions = data.positions.filter((q) => q.round === p.round).length - 1;
    const title = main.querySelector(".position-title");
    title.textContent =
      p.action < 0
        ? _("Round {round}: the deal", { round: p.round + 1 })
        : _("Round {round}, action {action} of {total}", { round: p.round + 1, action: p.action + 1, total: actions });
    // the round so far, in words: its placed tiles named as this position's board draws them,
    // not as the position shown before (another round's, maybe) did
    nameTilesAs(p.picture);
    const start = data.positions.findIndex((q) => q.round === p.round);
    const entries = data.positions.slice(start, view.pos + 1).flatMap((q) => q.last);
    const lines = logLines(entries, data.players, null);
    const words = main.querySelector(".action-words");
    words.replaceChildren(...withRules(p.action < 0 ? lines[0]?.text || "" : logLines(p.last, data.players, null).filter((l) => l.kind !== "round").map((l) => l.text)[0] || ""));
    // said: where, and what was done there (a record just opened: what it is, first)
    const opened = view.opened ? summary(data) + ". " : "";
    view.opened = false;
    said.say(`${opened}${title.textContent}. ${words.textContent}`);
    boardView.draw(p.picture, {
      info: p.layout.length ? scoredEndsText(p.ends, p.end_sum) : "",
      follow: true,
    });
    main.querySelector(".replay-main .boneyard").replaceChildren(backImage(7), " ", _("Boneyard: {tiles}", { tiles: tilesLeft(p.boneyard) }));
    main.querySelector(".scores").replaceChildren(
      h("h2", {}, _("Scores")),
      h("ul", { class: "score-list" }, p.scores.map((raw, side) => h("li", {}, h("span", { class: "side-name" }, sideLabel(data.players, side, null)), h("span", { class: "score" }, h("strong", {}, points(raw)))))),
    );
    main.querySelector(".replay-hands").replaceChildren(
      h("h2", {}, _("Hands")),
      h(
        "ul",
        { class: "hands" },
        p.hands.map((hand, seat) =>
          h(
            "li",
            { class: p.to_act === seat && p.status === "playing" ? "acting" : "" },
            h("span", { class: "turn-mark", "aria-hidden": "true" }, p.to_act === seat ? "▶" : ""),
            h("span", { class: "who" }, seatTitle(seat, data.seats ? kindOf(data.seats[seat]) : "human", null)),
            h("span", { class: "tiles" }, hand.map((t) => tileImage(t, { unit: 8 }))),
            h("span", { class: "pips" }, pipsText(hand.reduce((sum, t) => sum + t[0] + t[1], 0))),
          ),
        ),
      ),
    );
    const log = h("div", { class: "log-scroll", tabindex: 0, role: "region", "aria-label": _("Log") }, h("ol", { class: "log-lines" }, lines.map((l) => h("li", { class: `log-${l.kind}` }, withRules(l.text)))));
    main.querySelector(".log").replaceChildren(h("h2", {}, _("Log")), log);
    log.scrollTop = log.scrollHeight;
    const panel = main.querySelector(".settlement-panel");
    if (p.round_end) {
      panel.hidden = false;
      panel.replaceChildren(
        // a match won on a placement has no settlement (R30): its heading does not say so
        h("h2", {}, p.round_end.kind === "target" ? _("The match is over") : _("Round {n} settled", { n: p.round + 1 })),
        settlementView(p.round_end, data.players, null),
        scoresView(_("Scores"), data.players, p.scores, null),
      );
    } else {
      panel.hidden = true;
      panel.replaceChildren();
    }
  }

  function kindOf(name) {
    return !name || name === "human" ? "human" : `bot:${name}`;
  }

  async function readFile(file) {
    if (!file) return;
    view.source = file.name;
    fileInput.value = ""; // the same file chosen again (changed since) is read again
    load(await file.text());
  }

  function load(text) {
    view.error = "";
    view.data = null;
    const trimmed = text.trim();
    let lines;
    try {
      const whole = JSON.parse(trimmed);
      lines = Array.isArray(whole) ? whole.map((r) => JSON.stringify(r)) : [trimmed];
    } catch {
      lines = trimmed.split(/\r?\n/).filter((line) => line.trim());
    }
    view.lines = lines;
    if (!lines.length) {
      view.error = _("The file holds no record.");
      render();
      return;
    }
    choose(0);
  }

  async function choose(index) {
    view.chosen = index;
    view.data = null;
    view.loading = true;
    view.error = "";
    if (view.playing) togglePlay();
    render();
    said.say(_("Replaying the record…"));
    try {
      view.data = await api("/api/replays", { method: "POST", body: view.lines[index] });
      view.pos = 0;
      view.opened = true;
      setSeatNames(view.data.names); // each person by the name the record gives them
    } catch (error) {
      view.data = null;
      view.error = _("This record does not verify: {message}", { message: error.message });
    }
    view.loading = false;
    render();
  }

  document.addEventListener("keydown", (event) => {
    if (!root.isConnected || !view.data || typing(event) || document.querySelector("dialog[open]")) return;
    const moves = { ArrowRight: 1, ArrowLeft: -1 };
    // the keys step through the record, and do not scroll the page too (End had hidden the header)
    const jumps = { Home: () => 0, End: () => view.data.positions.length - 1, PageDown: () => roundStart(1), PageUp: () => roundStart(-1) };
    if (event.key in moves) {
      event.preventDefault();
      go(view.pos + moves[event.key]);
    } else if (event.key in jumps) {
      event.preventDefault();
      go(jumps[event.key]());
    }
  });

  onLanguageChange(render);
  render();
  const game = new URLSearchParams(location.search).get("game");
  if (game) {
    view.source = _("Game {game}", { game });
    fetch(`/api/games/${encodeURIComponent(game)}/record`)
      .then(async (answer) => {
        if (!answer.ok) throw new Error((await answer.json()).message);
        load(await answer.text());
      })
      .catch((error) => {
        view.error = error.message;
        render();
      });
  }
  window.exact61 = { view, go };
}
