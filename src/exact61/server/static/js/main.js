// The page of `exact61 serve`: one HTML file, a view per address.
//   /                  the start page: a new game, open games
//   /g/{game}?seat=N   a seat at the table (its token in the fragment, #...)
//   /g/{game}/watch    the table for spectators
//   /replay            the replay viewer (?game=ID opens a finished game)
//   /learn             the guided tour of the rule book's positions
//   /puzzles           the puzzle of the day (?id=ID: that puzzle)

import { loadLanguage, preferredLanguage } from "./i18n.js";
import { mountLearn } from "./learn.js";
import { mountPuzzles } from "./puzzles.js";
import { mountReplay } from "./replay.js";
import { mountStart } from "./start.js";
import { mountTable } from "./table.js";

/** A game's public summary (its language, whether it exists), or null when unknown. */
async function summary(game) {
  try {
    const answer = await fetch(`/api/games/${encodeURIComponent(game)}`);
    return answer.ok ? await answer.json() : answer.status === 404 ? { missing: true } : null;
  } catch {
    return null; // the table's socket says what is wrong
  }
}

async function start() {
  const root = document.getElementById("app");
  const path = location.pathname;
  const watch = path.match(/^\/g\/([\w-]+)\/watch\/?$/);
  const seat = path.match(/^\/g\/([\w-]+)\/?$/);
  const game = watch?.[1] ?? seat?.[1];
  // the table speaks the person's language (chosen, else their browser's), the game's where the
  // browser's is none of the page's: known before the first paint, so nothing is drawn twice
  const about = game ? await summary(game) : null;
  await loadLanguage(preferredLanguage(about?.lang));
  if (watch) mountTable(root, { game, seat: null, missing: !!about?.missing });
  else if (seat) {
    const number = Number(new URLSearchParams(location.search).get("seat"));
    const valid = Number.isInteger(number) && number >= 0 && number < 4 && new URLSearchParams(location.search).has("seat");
    mountTable(root, { game, seat: valid ? number : null, missing: !!about?.missing });
  } else if (path.replace(/\/$/, "") === "/replay") mountReplay(root);
  else if (path.replace(/\/$/, "") === "/learn") mountLearn(root);
  else if (path.replace(/\/$/, "") === "/puzzles") mountPuzzles(root);
  else mountStart(root);
  root.removeAttribute("aria-busy");
}

start();
