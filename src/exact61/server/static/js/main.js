// The page of `exact61 serve`: one HTML file, a view per address.
//   /                  the start page: a new game, open games
//   /g/{game}?seat=N   a seat at the table (its token in the fragment, #...)
//   /g/{game}/watch    the table for spectators
//   /replay            the replay viewer (?game=ID opens a finished game)

import { loadLanguage, preferredLanguage } from "./i18n.js";
import { mountReplay } from "./replay.js";
import { mountStart } from "./start.js";
import { mountTable } from "./table.js";

async function start() {
  const root = document.getElementById("app");
  await loadLanguage(preferredLanguage());
  const path = location.pathname;
  const watch = path.match(/^\/g\/([\w-]+)\/watch\/?$/);
  const seat = path.match(/^\/g\/([\w-]+)\/?$/);
  if (watch) mountTable(root, { game: watch[1], seat: null });
  else if (seat) {
    const number = Number(new URLSearchParams(location.search).get("seat"));
    const valid = Number.isInteger(number) && number >= 0 && number < 4 && new URLSearchParams(location.search).has("seat");
    mountTable(root, { game: seat[1], seat: valid ? number : null });
  } else if (path.replace(/\/$/, "") === "/replay") mountReplay(root);
  else mountStart(root);
  root.removeAttribute("aria-busy");
}

start();
