// The puzzles: a proved puzzle (GET /api/puzzles/daily or /api/puzzles/{id}) as its seat sees
// it, the layout drawn by the table's own picture; a choice is judged by the server (POST
// /api/puzzles/{id}/answer), a wrong one shown the defence that refutes it. The streak and the
// Glicko-2 puzzle rating (which the server updates with each answer) are kept in the browser's
// storage. Nothing here knows the rules or searches.

import { BoardView } from "./boardview.js";
import { h, replaceKeepingFocus } from "./dom.js";
import { _, onLanguageChange } from "./i18n.js";
import { api } from "./net.js";
import { header, withRules } from "./ui.js";
import { actionText, namesIn, nameTilesAs, pointKey, points, settlementLines, tileText, who } from "./words.js";

const GOALS = {
  "win-match": () => _("Win the match now: land on exactly 61 before this round is over (R4, R30)."),
  "win-round": () => _("Win the round: make domino, or have the lightest hand at the block (R18, R23)."),
  "save-match": () => _("Save the match: do not let your opponent land on 61 this round (R30)."),
};
const STORE = "exact61.puzzles";

function kept() {
  try {
    return { streak: 0, best: 0, solved: [], ...JSON.parse(localStorage.getItem(STORE) || "{}") };
  } catch {
    return { streak: 0, best: 0, solved: [] };
  }
}

function keep(progress) {
  try {
    localStorage.setItem(STORE, JSON.stringify(progress));
  } catch {
    // private browsing: the streak lasts the page
  }
}

/** Today's date in UTC (YYYY-MM-DD): the daily puzzle's date on every surface (the command line
 * and the server take it so too, `learn.puzzles.daily_date`), whatever this browser's zone. */
function today() {
  return new Date().toISOString().slice(0, 10);
}

export function mountPuzzles(root) {
  const params = new URLSearchParams(location.search);
  const view = { puzzle: null, verdict: null, error: "", list: null, progress: kept() };
  const main = h("main", { id: "main", class: "puzzle-view" });
  const top = h("div");
  root.replaceChildren(top, main);
  const boardView = new BoardView();

  async function load() {
    try {
      const id = params.get("id");
      view.puzzle = await api(id ? `/api/puzzles/${encodeURIComponent(id)}` : `/api/puzzles/daily?date=${today()}`);
      view.verdict = null;
    } catch (error) {
      view.error = error.status === 404 ? _("No such puzzle.") : error.message;
    }
    render();
  }

  async function answer(choice) {
    if (view.verdict) return;
    try {
      view.verdict = await api(`/api/puzzles/${encodeURIComponent(view.puzzle.id)}/answer`, {
        method: "POST",
        body: view.progress.rating ? { action: choice.action, rating: view.progress.rating } : { action: choice.action },
      });
      view.verdict.chosen = choice.action;
      const p = view.progress;
      p.streak = view.verdict.solved ? p.streak + 1 : 0;
      p.best = Math.max(p.best, p.streak);
      p.rating = view.verdict.rating; // Glicko-2, worked out by the server (learn.rating)
      if (view.verdict.solved && !p.solved.includes(view.puzzle.id)) p.solved.push(view.puzzle.id);
      keep(p);
    } catch (error) {
      view.error = error.message;
    }
    render();
    main.querySelector(".verdict")?.focus();
  }

  async function next() {
    view.list = view.list || (await api("/api/puzzles")).puzzles;
    const open = view.list.filter((p) => !view.progress.solved.includes(p.id) && p.id !== view.puzzle?.id);
    const pick = (open.length ? open : view.list)[Math.floor(Math.random() * (open.length || view.list.length))];
    history.pushState(null, "", `/puzzles?id=${encodeURIComponent(pick.id)}`);
    params.set("id", pick.id);
    await load();
    // the new puzzle read out from its title, and Tab going on through it: the focus had been
    // on the button just drawn again, and fell to the top of the page
    main.querySelector("h1")?.focus();
  }

  function render() {
    replaceKeepingFocus(top, header(h("span", { class: "round" }, _("Puzzles"))));
    document.title = "Exact 61 · " + _("Puzzles");
    const p = view.puzzle;
    if (!p) {
      main.replaceChildren(h("p", { class: view.error ? "error" : "note", role: view.error ? "alert" : "status" }, view.error || _("Loading…")));
      return;
    }
    const you = p.seat;
    nameTilesAs(p.picture); // the moves' words name placed tiles as the board below draws them
    const rating = view.progress.rating || { rating: 1500, deviation: 350 };
    const streak = _("Streak: {streak} (best {best}). Puzzle rating: {rating} ± {rd}.", {
      streak: view.progress.streak,
      best: view.progress.best,
      rating: Math.round(rating.rating),
      rd: Math.round(rating.deviation),
    });
    const parts = [
      h("h1", { tabindex: -1 }, _("Puzzle {id}, level {level}.", { id: p.id, level: p.level })),
      h("p", { class: "goal" }, ...withRules(GOALS[p.goal]())),
      boardView.el,
      h(
        "section",
        { class: "panel puzzle-facts", "aria-label": _("Scores") },
        h("p", {}, p.scores.map((raw, side) => `${who(side, you)}: ${points(raw)}`).join(" · ")),
        h("p", {}, ...withRules(_("The boneyard is empty: your opponent holds every tile you cannot see (R10)."))),
        h("p", { class: "puzzle-hand" }, _("Your hand: {tiles}", { tiles: p.hand.map(tileText).join(" ") })),
      ),
      h(
        "section",
        { class: "panel puzzle-choices", "aria-labelledby": "choices-title" },
        h("h2", { id: "choices-title" }, _("Your move")),
        h(
          "ul",
          { class: "choices" },
          p.choices.map((c) =>
            h(
              "li",
              {},
              h(
                "button",
                { type: "button", class: "button choice", disabled: !!view.verdict, onClick: () => answer(c) },
                actionText(c.action) + (c.credit ? `  +${points(c.credit)}` : ""),
              ),
            ),
          ),
        ),
      ),
      view.verdict ? verdict(view.verdict, you) : null,
      h("div", { class: "puzzle-next" }, h("p", { class: "streak", role: "status" }, streak), h("button", { type: "button", class: "button", onClick: next }, _("Next puzzle"))),
      view.error ? h("p", { class: "error", role: "alert" }, view.error) : null,
    ];
    main.replaceChildren(...parts.filter(Boolean));
    // the places the moves go, ringed and in view: on a phone the layout is wider and taller
    // than its frame, and the end a move names ("at [3|6] low end") may be out of sight
    const marked = new Set(p.choices.filter((c) => c.action.at).map((c) => pointKey(c.action.at)));
    boardView.draw(p.picture, { marked });
    if (marked.size) boardView.revealChoices(".point.move-place");
  }

  function verdict(v, you) {
    const move = actionText(v.chosen);
    if (v.solved) {
      return h("section", { class: "panel verdict right", tabindex: -1 }, h("p", {}, _("Right: {move} reaches the goal against every defence.", { move })));
    }
    // a move of the line names its tiles as the board after it draws them, as the log does
    const steps = v.refutation.map((step) => {
      const text = step.type === "pass" ? _("passes") : actionText(step, namesIn(step.picture, step));
      return h("li", {}, `${who(step.seat, you)}: ${text}${step.credit ? `  +${points(step.credit)}` : ""}`);
    });
    return h(
      "section",
      { class: "panel verdict wrong", tabindex: -1 },
      h("p", {}, _("Not this one: {move}. The defence that refutes it:", { move })),
      h("ol", {}, steps),
      v.round_end ? h("ul", {}, settlementLines(v.round_end, 2, you).map((line) => h("li", {}, ...withRules(line)))) : null,
      h("p", {}, _("The move that reaches the goal: {move}.", { move: actionText(v.solution) })),
    );
  }

  onLanguageChange(render);
  window.exact61 = { view };
  render();
  load();
}
