// The Learn page: the guided tour of `exact61 learn` in the browser. The server gives the tour
// whole (GET /api/learn/{lang}: every step with its question, its answers and why, worked out by
// the rules engine, and the pictures of its layouts), so nothing here knows the rules: a step is
// answered by choosing on the board (a lettered place) or in the list below it, the answer is
// said at once with the rules behind it, and the learner's progress is kept in this browser
// (localStorage, progress.js), so that a reload or a later visit goes on where the tour was left.
// After the lessons, the guided match: a real game on this server (`guided`: the tour's seats
// and seed, a few rounds, a hint that says why), played on the table page.

import { tileImage } from "./board.js";
import { BoardView } from "./boardview.js";
import { h, replaceKeepingFocus } from "./dom.js";
import { _, language, ngettext, onLanguageChange, ruleParagraph } from "./i18n.js";
import { scoresView } from "./table.js";
import { announcer, coarsePointer, header, markdown, withRules } from "./ui.js";
import { keepTokens } from "./links.js";
import { api } from "./net.js";
import { loadProgress, saveProgress } from "./progress.js";
import { botWords, errorText, nameTilesAs, pointKey, pointName, seatName } from "./words.js";

const LETTERS = "abcdefghijkl";

export function mountLearn(root) {
  const view = { tour: null, at: 0, picked: new Set(), tries: 0, verdict: null, answered: false, error: "", guidedError: "", starting: false };
  let progress = loadProgress();
  const main = h("main", { id: "main", class: "learn-view" });
  const top = h("div");
  // what a screen reader says of an answer: right or not, why (the step is drawn anew with it)
  const said = announcer();
  root.replaceChildren(top, main, said.el);
  const boardView = new BoardView({ onChoice: (key) => chooseKey(key) });
  window.exact61 = { ...(window.exact61 || {}), learn: view };

  async function load() {
    try {
      const answer = await fetch(`/api/learn/${language()}`);
      if (!answer.ok) throw new Error(String(answer.status));
      view.tour = await answer.json();
      view.error = "";
    } catch {
      view.error = _("The lessons could not be loaded. Reload the page to try again.");
    }
    if (view.tour) {
      const at = view.tour.steps.findIndex((s) => s.id === progress.step);
      if (at >= 0 && view.at === 0) view.at = at;
    }
    render();
  }

  const step = () => view.tour.steps[view.at];

  function start(at) {
    view.at = at;
    view.picked = new Set();
    view.tries = 0;
    view.verdict = null;
    view.answered = false;
    progress = { ...progress, step: step().id, stage: "lessons" };
    saveProgress(progress);
    render();
    main.querySelector("h1")?.focus();
    window.scrollTo(0, 0);
  }

  function render() {
    replaceKeepingFocus(top, header(h("span", { class: "round" }, _("Learn the game"))));
    document.title = "Exact 61 · " + _("Learn the game");
    if (view.error) {
      main.replaceChildren(h("p", { class: "error", role: "alert" }, view.error));
      return;
    }
    if (!view.tour) {
      main.replaceChildren(h("p", { class: "note", role: "status" }, _("Loading…")));
      return;
    }
    // the words name placed tiles as this step's board draws them: named before they are written
    if (progress.stage === "lessons") nameTilesAs(view.answered ? step().result_picture : step().picture);
    main.replaceChildren(progress.stage === "lessons" ? lesson() : finished());
    if (progress.stage === "lessons") drawBoard();
  }

  function where() {
    const s = step();
    const lessons = view.tour.lessons;
    const index = lessons.findIndex((l) => l.id === s.lesson.id);
    const first = view.tour.steps.findIndex((t) => t.lesson.id === s.lesson.id);
    return { lesson: index + 1, lessons: lessons.length, at: view.at - first + 1, count: lessons[index].steps };
  }

  function lesson() {
    const s = step();
    const w = where();
    const q = s.question;
    // three parts: what the step says, the board, the ways to answer; one under the other, or
    // on a phone on its side the board on the left and the other two beside it (app.css)
    return h(
      "div",
      { class: "learn-step", "data-step": s.id },
      h(
        "div",
        { class: "learn-head" },
        h("p", { class: "note learn-where", id: "learn-where" }, _("Lesson {n} of {total}: {title}", { n: w.lesson, total: w.lessons, title: s.lesson.title }) + " · " + _("step {n} of {total}", { n: w.at, total: w.count })),
        h("progress", { class: "learn-progress", max: view.tour.steps.length, value: view.at, "aria-label": _("step {n} of {total}", { n: view.at + 1, total: view.tour.steps.length }) }),
        s.told.map((text, i) => h("p", { class: "told", id: `learn-told-${i}` }, withRules(text))),
        // the focus comes to the question at each step: a screen reader says with it what the
        // step tells above it (which tile opened, a new layout) and where in the tour it is
        h("h1", { tabindex: -1, "aria-describedby": ["learn-where", ...s.told.map((_text, i) => `learn-told-${i}`)].join(" ") }, q.prompt),
      ),
      boardView.el,
      h("div", { class: "learn-answering" }, scene(view.answered ? s.result : s.scene), options(), feedback(), actions()),
    );
  }

  function scene(sc) {
    if (!sc.hands.length) return null;
    const theirs = sc.hands[1] || [];
    return h(
      "section",
      { class: "panel learn-scene" },
      scoresView(_("Scores"), 2, sc.scores, 0),
      h("h2", {}, _("Your hand:")),
      h("div", { class: "hand-tiles learn-hand", role: "group", "aria-label": _("Your hand:") }, sc.hands[0].map((t) => tileImage(t, { unit: 11 }))),
      sc.revealed
        ? h("div", { class: "learn-theirs" }, h("h2", {}, seatName(1)), h("div", { class: "hand-tiles learn-hand" }, theirs.map((t) => tileImage(t, { unit: 11 }))))
        : h("p", { class: "note" }, seatName(1) + ": " + ngettext("{n} tile", "{n} tiles", theirs.length) + " · " + _("Boneyard: {tiles}", { tiles: ngettext("{n} tile", "{n} tiles", sc.boneyard) })),
    );
  }

  function optionText(option, i) {
    if (option.point) return `${LETTERS[i]}) ${pointName(option.point)}`;
    return `${i + 1}) ${option.label}`;
  }

  function options() {
    const s = step();
    const q = s.question;
    const buttons = q.options.map((option, i) => {
      const marks = [];
      if (view.answered && option.right) marks.push("✓ ");
      else if (view.answered && view.verdict?.chosen.has(i)) marks.push("✗ ");
      const pressed = q.kind === "count" ? String(view.picked.has(i)) : undefined;
      return h(
        "button",
        {
          type: "button",
          class: `learn-option${view.answered && option.right ? " right" : ""}${view.picked.has(i) ? " picked" : ""}`,
          "data-key": `option-${i}`,
          "data-option": i,
          "aria-pressed": pressed,
          disabled: view.answered,
          onClick: () => choose(i),
        },
        marks,
        optionText(option, i),
      );
    });
    return h(
      "section",
      { class: "panel learn-question", "aria-labelledby": "learn-options" },
      h("p", { id: "learn-options", class: "note" }, view.answered ? "" : tip(q.kind)),
      h("div", { class: "choices", role: "group", "aria-label": q.prompt }, buttons),
    );
  }

  /** How to answer: by keys and clicks, or on a touch screen (no keys, no Enter) by taps. */
  function tip(kind) {
    if (coarsePointer()) {
      if (kind === "choose") return _("Tap your answer.");
      if (kind === "place") return _("Tap a place on the board, or its letter below.");
      return _("Tap each place that counts (again to drop it), then Check.");
    }
    if (kind === "choose") return _("Choose by its number, or a click.");
    if (kind === "place") return _("Choose a place: its letter, or a click on the board.");
    return _("Pick each place by its letter (again to drop it), then press Enter.");
  }

  function feedback() {
    const s = step();
    const v = view.verdict;
    const parts = [];
    if (v) {
      // why, from the options (in the language now shown: a switch mid-step says it again)
      const why = v.why.map((i) => s.question.options[i].why).join(" ");
      parts.push(h("p", { class: v.right ? "learn-right" : "learn-wrong" }, v.right ? "✓ " + _("Right.") : "✗ ", v.right ? null : withRules(why)));
      if (!v.right && !view.answered) parts.push(h("p", {}, _("Try again.")));
    }
    if (view.answered) {
      if (!v.right) parts.push(h("h2", {}, _("The answer:")));
      for (const text of s.answer) parts.push(h("p", { class: "learn-answer" }, withRules(text)));
      parts.push(
        h(
          "section",
          { class: "learn-rules", "aria-label": _("The rule") },
          s.rules.map((rule) => h("div", { class: "rule-text", "data-rule": rule }, markdown(ruleParagraph(rule) || rule))),
        ),
      );
    }
    return h("section", { class: "panel learn-feedback", hidden: !parts.length }, parts);
  }

  function actions() {
    return h(
      "div",
      { class: "end-buttons learn-actions" },
      step().question.kind === "count" && !view.answered ? h("button", { type: "button", class: "primary", "data-key": "check", disabled: !view.picked.size, onClick: () => check() }, _("Check")) : null,
      view.answered ? h("button", { type: "button", class: "primary", "data-key": "next", onClick: () => next() }, _("Go on")) : null,
      view.at > 0 ? h("button", { type: "button", "data-key": "back", onClick: () => start(view.at - 1) }, _("Back")) : null,
      // the way to the guided match before the lessons' end (they are kept where they were)
      h("button", { type: "button", class: "link", "data-key": "guided", disabled: view.starting, onClick: () => startGuided() }, _("The guided match")),
      view.guidedError ? h("p", { class: "error", role: "alert" }, view.guidedError) : null,
    );
  }

  function drawBoard() {
    const s = step();
    const q = s.question;
    const choices = new Map();
    if (!view.answered) {
      q.options.forEach((option, i) => {
        if (option.point) choices.set(pointKey(option.point), { letter: LETTERS[i], credit: 0, hinted: view.picked.has(i) });
      });
    }
    const picture = view.answered ? s.result_picture : s.picture;
    boardView.draw(picture, { choices, info: "", label: _("The layout") });
  }

  function chooseKey(key) {
    const i = step().question.options.findIndex((o) => o.point && pointKey(o.point) === key);
    if (i >= 0) choose(i);
  }

  function choose(i) {
    if (view.answered) return;
    if (step().question.kind === "count") {
      if (view.picked.has(i)) view.picked.delete(i);
      else view.picked.add(i);
      render();
      main.querySelector(`[data-key="option-${i}"]`)?.focus();
      return;
    }
    judge(new Set([i]));
  }

  function check() {
    if (view.picked.size) judge(new Set(view.picked));
  }

  /** As `Step.check`: right when the choice is a right one (or, for the places that count,
   * every right place and no other); why from the options chosen wrongly, then those missed. */
  function judge(chosen) {
    const q = step().question;
    const right = q.options.map((o, i) => (o.right ? i : -1)).filter((i) => i >= 0);
    let ok;
    let why;
    if (q.kind === "count") {
      const wrong = [...chosen].sort((a, b) => a - b).filter((i) => !q.options[i].right);
      const missed = right.filter((i) => !chosen.has(i));
      ok = !wrong.length && !missed.length;
      why = [...wrong, ...missed];
    } else {
      const [only] = chosen;
      ok = q.options[only].right;
      why = [only];
    }
    view.tries += 1;
    view.verdict = { right: ok, why, chosen }; // why: the indices of the options that say it
    if (ok || q.kind === "choose" || view.tries >= 2) {
      view.answered = true;
      const id = step().id;
      if (!(id in progress.results)) progress.results[id] = !ok ? "shown" : view.tries <= 1 ? "first" : "later";
      saveProgress(progress);
    } else view.picked = new Set();
    render();
    // said once, as it comes: the verdict, why, and the answer (the rules' words are shown below)
    const shown = [...main.querySelector(".learn-feedback").children].filter((el) => !el.classList.contains("learn-rules"));
    said.say(shown.map((el) => el.textContent).join(" "));
    // the keyboard goes on from where the answer leaves it: on to the next step, or another try
    main.querySelector(view.answered ? '[data-key="next"]' : '[data-key="option-0"]')?.focus();
  }

  function next() {
    if (view.at + 1 < view.tour.steps.length) return start(view.at + 1);
    progress = { ...progress, stage: progress.guided === "done" ? "done" : "match" };
    saveProgress(progress);
    render();
    main.querySelector("h1")?.focus();
  }

  function finished() {
    const total = view.tour.steps.length;
    const first = Object.values(progress.results).filter((r) => r === "first").length;
    const guided = view.tour.guided;
    const played = progress.guided === "done";
    const again = () => ((progress = { ...progress, step: "", results: {}, stage: "lessons" }), start(0));
    return h(
      "section",
      { class: "panel learn-done" },
      h("h1", { tabindex: -1 }, _("The lessons are done")),
      h("p", {}, ngettext("You answered {n} of {total} steps right at the first try.", "You answered {n} of {total} steps right at the first try.", first, { total })),
      played
        ? h("p", {}, _("You played the guided match.") + " " + _("Play a whole match against a bot, or with friends, from the start page."))
        : h(
            "p",
            { class: "learn-guided" },
            ngettext(
              "Now a short guided match: {n} round against the bot “{bot}”. Ask for a hint and it says why.",
              "Now a short guided match: {n} rounds against the bot “{bot}”. Ask for a hint and it says why.",
              guided.rounds,
              { bot: botWords(guided.seats.find((kind) => kind !== "human")) },
            ),
          ),
      h(
        "div",
        { class: "end-buttons" },
        played
          ? h("a", { class: "button primary", href: "/", "data-key": "play" }, _("New game"))
          : h("button", { type: "button", class: "primary", "data-key": "guided", disabled: view.starting, onClick: () => startGuided() }, progress.game ? _("Go on with the guided match") : _("Play the guided match")),
        played
          ? h("button", { type: "button", "data-key": "guided", disabled: view.starting, onClick: () => startGuided(true) }, _("The guided match again"))
          : h("a", { class: "button", href: "/", "data-key": "play" }, _("New game")),
        h("button", { type: "button", "data-key": "again", onClick: again }, _("The tour again")),
      ),
      view.guidedError ? h("p", { class: "error", role: "alert" }, view.guidedError) : null,
    );
  }

  /** The guided match on the table page: the one this browser began, while it is in play
   * (unless `afresh`), else a new game on this server with `guided` (the tour's seats and
   * seed, a few rounds; the server knows them), kept in the progress. */
  async function startGuided(afresh = false) {
    if (view.starting) return;
    view.starting = true;
    view.guidedError = "";
    render();
    const seat = view.tour.guided.seats.indexOf("human");
    try {
      if (progress.game && !afresh) {
        const kept = await api(`/api/games/${encodeURIComponent(progress.game)}`).catch(() => null);
        if (kept?.status === "playing") {
          location.href = `/g/${encodeURIComponent(progress.game)}?seat=${seat}`;
          return;
        }
      }
      const seats = view.tour.guided.seats;
      const created = await api("/api/games", { method: "POST", body: { players: seats.length, seats, lang: language(), guided: true } });
      keepTokens(created);
      progress = { ...progress, game: created.game };
      saveProgress(progress);
      location.href = `/g/${encodeURIComponent(created.game)}?seat=${seat}`;
    } catch (error) {
      view.starting = false;
      view.guidedError = errorText(error.code, error.message);
      render();
      main.querySelector('[data-key="guided"]')?.focus();
    }
  }

  document.addEventListener("keydown", (e) => {
    if (!view.tour || progress.stage !== "lessons" || e.ctrlKey || e.metaKey || e.altKey) return;
    if (document.querySelector("dialog[open]")) return;
    const q = step().question;
    const onOption = e.target instanceof HTMLElement && e.target.classList.contains("learn-option");
    if (e.key === "Enter" && (e.target === document.body || onOption)) {
      // Enter checks the places picked (Space or a click picks the one in focus), or goes on
      if (view.answered) next();
      else if (q.kind === "count") check();
      else return;
      e.preventDefault();
      return;
    }
    if (view.answered || e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement) return;
    const index = q.kind === "choose" ? Number(e.key) - 1 : LETTERS.indexOf(e.key);
    if (e.key.length === 1 && index >= 0 && index < q.options.length) {
      e.preventDefault();
      choose(index);
    }
  });

  onLanguageChange(() => load());
  render();
  load();
}
