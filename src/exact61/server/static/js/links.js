// The links of a new game: one per person's seat (its token in the fragment), one to watch.

import { copyText, h } from "./dom.js";
import { _ } from "./i18n.js";
import { keepToken } from "./net.js";
import { seatTitle } from "./words.js";
import { toast } from "./ui.js";

/** Keep every seat's token of a game this browser created, so its maker can open any seat. */
export function keepTokens(created) {
  for (const seat of created.seats) if (seat.token) keepToken(created.game, seat.seat, seat.token);
}

function linkRow(label, url, { open } = {}) {
  const full = new URL(url, location.origin).href;
  const field = h("input", { type: "text", readonly: true, value: full, "aria-label": label, onFocus: (e) => e.target.select() });
  return h(
    "li",
    { class: "link-row" },
    h("span", { class: "link-label" }, label),
    field,
    // named with its link: a screen reader called the three buttons of a new game "Copy" alike
    h("button", { type: "button", "aria-label": _("Copy: {link}", { link: label }), onClick: () => copyText(full).then(() => toast(_("Copied"))) }, _("Copy")),
    // a row of its own: beside the field it squeezed the address on a phone to "http:"
    open ? h("a", { class: "button primary link-open", href: url }, open) : null,
  );
}

/** Links to send: each person's seat, and the spectators'; `mine` is the seat to open here. */
export function gameLinks(created, mine = null) {
  const rows = [];
  for (const seat of created.seats) {
    if (!seat.url) continue;
    const label = seatTitle(seat.seat, seat.kind, null);
    rows.push(linkRow(label, seat.url, { open: seat.seat === mine ? _("Play at seat {seat}", { seat: seat.seat }) : undefined }));
  }
  rows.push(linkRow(_("Link for spectators"), created.watch));
  // a game of one person against bots has no link to send: a newcomer looked for someone to
  // send theirs to
  const alone = mine !== null && created.seats.filter((seat) => seat.url).length === 1;
  return h(
    "div",
    { class: "links" },
    h("p", {}, alone ? _("Everyone else at this table is a bot: open your seat to play. Anyone with the last link can watch.") : _("Send each person the link of their seat; anyone with the last link can watch.")),
    h("ul", { class: "link-list" }, rows),
  );
}
