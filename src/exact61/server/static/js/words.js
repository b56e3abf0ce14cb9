// What a player reads, in their language: the same messages as the terminal game
// (src/exact61/terminal/words.py), built from the frames' facts.

import { _, N_, ngettext } from "./i18n.js";

export const LEVELS = { beginner: "random", easy: "ismcts:6", medium: "ismcts:20", hard: "ismcts:60", expert: "expert" };
const ALIASES = { equity: "expert" }; // earlier names, still read (saved games name them)
const LEVEL_OF = Object.fromEntries(Object.entries(LEVELS).map(([level, bot]) => [bot, level]));
export const LEVEL_WORDS = { beginner: N_("beginner"), easy: N_("easy"), medium: N_("medium"), hard: N_("hard"), expert: N_("expert") };

export const END_NAMES = {
  low: N_("low end"),
  high: N_("high end"),
  lineA: N_("line side A"),
  lineB: N_("line side B"),
  armA: N_("side arm A"),
  armB: N_("side arm B"),
};

export const tileText = (t) => `[${t[0]}|${t[1]}]`;
export const tileKey = (t) => `${t[0]}-${t[1]}`;
export const pointKey = (at) => `${at[0][0]}-${at[0][1]}-${at[1]}`;
export const sameTile = (a, b) => a && b && a[0] === b[0] && a[1] === b[1];

/** R3: 5 raw points are 1 display point (Python's floor division, for negative scores too). */
export const display = (raw) => Math.floor(raw / 5);
export const points = (raw) => `${display(raw)} (${raw})`;

export const sideOf = (players, seat) => (players === 4 ? seat % 2 : seat);

/** Each seat's person's display name, as the game's frames give them (none: `Seat N`). The
 * page always puts a name in a text node, never in markup. */
let seatNames = [];
export function setSeatNames(names) {
  seatNames = Array.isArray(names) ? names.slice() : [];
}

export const seatName = (seat) => seatNames[seat] || _("Seat {seat}", { seat });
/** The seat's person's name, or "" (the log's lines then name the seat: `Seat 1 passes`). */
const personOf = (seat) => seatNames[seat] || "";
export const who = (seat, you) => (seat === you ? _("You") : seatName(seat));

/** `expert`, `ismcts:500`: the bot a seat is played by, a level or an earlier name read as its
 * bot (`bot:easy` is `ismcts:6`, `bot:equity` is `expert`), as the terminal names it
 * (terminal/words.py `bot_name`). */
export function botName(kind) {
  const spec = kind.replace(/^bot:/, "");
  const colon = spec.indexOf(":");
  const name = colon < 0 ? spec : spec.slice(0, colon);
  const bot = LEVELS[name] ?? ALIASES[name] ?? name;
  return colon < 0 ? bot : bot + spec.slice(colon);
}

/** `easy (greedy)`: a bot's level in the page's language, then the bot that plays it (left out
 * where the two read the same: `expert`); a bot of no level by its name (`ismcts:500`). The
 * new-game form and the lobby name bots so. */
export function botLabel(kind) {
  const name = botName(kind);
  const level = LEVEL_OF[name];
  if (!level) return name;
  const words = _(LEVEL_WORDS[level]);
  return words === name ? words : `${words} (${name})`;
}

/** A bot in words: its level in the page's language (`medium`), else its name (`ismcts:500`). */
export function botWords(kind) {
  const name = botName(kind);
  const level = LEVEL_OF[name];
  return level ? _(LEVEL_WORDS[level]) : name;
}

/** `You`, `Seat 2` (a person) or `Seat 1 (medium)`. */
export function seatTitle(seat, kind, you) {
  if (seat === you) return _("You");
  if (!kind || kind === "human") return seatName(seat);
  return `${seatName(seat)} (${botWords(kind)})`;
}

// Written with RegExp, not a literal: Babel's extractor (the catalogs' source) misreads some
// regular expression literals and then skips the messages after them.
const SEAT_IN_MESSAGE = new RegExp("\\bseat (\\d)\\b");

/** A server's `error` (a frame's `code`, an HTTP answer's `error`) in the page's language; the
 * server's own words when the code is not one the page knows. Parameters come from the
 * server's message (`seat 2 is taken`). */
export function errorText(code, message) {
  const seat = (message || "").match(SEAT_IN_MESSAGE)?.[1];
  switch (code) {
    case "bad_token":
      return _("This seat link is not valid for this game.");
    case "not_found":
      return _("No such game.");
    case "expired":
      return _("This game was closed: nobody moved in it for a long time.");
    case "replaced":
      return _("This seat is now open in another tab or on another device.");
    case "full":
    case "too_many":
      return _("This game has all the spectators it takes. Try again later.");
    case "over":
      return _("The match is over");
    case "playing":
      return _("Not before the match is over (R30).");
    case "stale":
      return _("The game moved on before your move arrived.");
    case "not_your_turn":
      return _("It is not your turn.");
    case "illegal":
      return _("That move is not allowed here.");
    case "unavailable":
      return _("The server could not save that just now. Try again.");
    case "busy":
      return _("The server is busy. Try again soon.");
    case "rate_limited":
      return _("Too many requests: wait a minute and try again.");
    case "too_many_open":
      return _("Games from your address already wait among the open games: play them, or make this one without listing it.");
    case "too_large":
      return _("That is more than the server takes.");
    case "taken":
      return seat === undefined ? message : _("Seat {seat} was taken by someone else just now.", { seat });
    case "closed":
      return _("This game is not open to the lobby.");
    case "bad_request":
    case "bad_message":
      return (message || "").startsWith("name") ? _("A name is 1 to 24 letters, digits or signs, without control characters.") : _("The server did not understand the request.");
    case "internal":
      return _("The server failed; the game is unchanged.");
    default:
      return message || String(code || "");
  }
}

/** A side at the start of a line: `Seats 1 and 3`, or the seat's person's name, or `Seat 1`. */
export function sideName(players, side) {
  return players === 4 ? _("Seats {a} and {b}", { a: side, b: side + 2 }) : seatName(side);
}

/** A side inside a sentence: `seats 1 and 3`, `seat 1`. */
export function sideInSentence(players, side) {
  return players === 4 ? _("seats {a} and {b}", { a: side, b: side + 2 }) : _("seat {seat}", { seat: side });
}

export function sideLabel(players, side, you) {
  const mine = you !== null && you !== undefined && sideOf(players, you) === side;
  if (mine && players !== 4) return _("You");
  if (mine) return _("Your side (seats {a} and {b})", { a: side, b: side + 2 });
  return sideName(players, side);
}

export const pipsText = (n) => ngettext("{n} pip", "{n} pips", n);
export const tilesLeft = (n) => ngettext("{n} tile", "{n} tiles", n);

export function rejected(players, side, you) {
  if (you !== null && you !== undefined && sideOf(players, you) === side) {
    // at 4 players the partners' score, whichever of them scored
    if (players === 4) return _("rejected: it would take your side past 61 (R4)");
    return _("rejected: it would take you past 61 (R4)");
  }
  return _("rejected: it would take {side} past 61 (R4)", { side: sideInSentence(players, side) });
}

// How the board on screen draws each placed tile (`name` in its picture: `[3|1]` for the tile
// [1|3] lying the other way round, render.geometry.tile_names), so that the words beside it name
// a place as it is seen, as the server's words do (the hint's reasons, the analysis). A tile
// in a hand has no such name: it is named low first (`tileText`).
let drawnNames = new Map();

/** Each placed tile's name in `picture`, by its key. */
const namesOf = (picture) => new Map(picture.tiles.map((t) => [tileKey(t.tile), t.name]));

/** Name the placed tiles as `picture` draws them, from now on (drawLayout, for its board). */
export function nameTilesAs(picture) {
  drawnNames = namesOf(picture);
}

/** A placed tile as the board draws it. */
export const placedText = (t) => drawnNames.get(tileKey(t)) || tileText(t);

/** A place: its tile as the board draws it (or as `name` says), and its end. */
export function pointName(at, name = placedText(at[0])) {
  return _("{tile} {end}", { tile: name, end: _(END_NAMES[at[1]]) });
}

export const endsText = (ends) => ends.map((e) => e.value).join("+") || "0";

/** The board frame's line: `Scored ends: 6+3+6 = 15`, or `Scored ends: 12` where one end counts
 * (a lone double, R14), which read `12 = 12` (the terminal's `scored_ends`). */
export function scoredEndsText(ends, total) {
  if (ends.length <= 1) return _("Scored ends: {total}", { total });
  return _("Scored ends: {ends} = {total}", { ends: endsText(ends), total });
}

/** The log line for one action entry (with the events it caused). */
export function actionLine(players, entry, events, you) {
  const seat = entry.seat;
  const mine = seat === you;
  const name = personOf(seat);
  const action = entry.action;
  if (action.type === "play") {
    // on the board once played: named as the board drew it and the tile it joins just after
    // (the entry's `names`), whatever board is drawn now, another round's maybe
    const [tileName, atName] = entry.names || [];
    const tile = tileName || placedText(action.tile);
    let text;
    if (action.at === null) {
      if (mine) text = _("You open with {tile}", { tile });
      else text = name ? _("{name} opens with {tile}", { name, tile }) : _("Seat {seat} opens with {tile}", { seat, tile });
    } else {
      const point = pointName(action.at, atName || placedText(action.at[0]));
      if (mine) text = _("You place {tile} at {point}", { tile, point });
      else text = name ? _("{name} places {tile} at {point}", { name, tile, point }) : _("Seat {seat} places {tile} at {point}", { seat, tile, point });
    }
    const credit = entry.credit || 0;
    if (credit && !events.some((e) => e.kind === "domino")) {
      // one scored end (a lone double, R14) is named alone, as scoredEndsText names it
      const ends = entry.ends || [];
      const args = { display: display(credit), raw: credit, ends: endsText(ends) };
      text += ": " + (ends.length > 1 ? _("+{display} ({raw}): ends {ends}", args) : _("+{display} ({raw}): end {ends}", args));
      const play = events.find((e) => e.kind === "play");
      if (play && !play.accepted) text += ", " + rejected(players, play.side, you);
    }
    return text;
  }
  if (action.type === "draw") {
    if (mine && action.tile) return _("You draw {tile}", { tile: tileText(action.tile) });
    if (action.tile && name) return _("{name} draws {tile}", { name, tile: tileText(action.tile) });
    if (action.tile) return _("Seat {seat} draws {tile}", { seat, tile: tileText(action.tile) });
    return name ? _("{name} draws a tile", { name }) : _("Seat {seat} draws a tile", { seat });
  }
  if (mine) return _("You pass");
  return name ? _("{name} passes", { name }) : _("Seat {seat} passes", { seat });
}

export function winnerLine(players, winner, you) {
  if (you !== null && you !== undefined && sideOf(players, you) === winner) {
    // at 4 players either partner may have taken the side there
    if (players === 4) return _("Your side reaches exactly 61 and wins the match!");
    return _("You reach exactly 61 and win the match!");
  }
  if (players === 4) return _("Seats {a} and {b} reach exactly 61 and win the match!", { a: winner, b: winner + 2 });
  const name = personOf(winner);
  if (name) return _("{name} reaches exactly 61 and wins the match!", { name });
  return _("Seat {seat} reaches exactly 61 and wins the match!", { seat: winner });
}

export function openerLine(roundNumber, opener, you) {
  if (opener === you) return _("Round {n}: you open.", { n: roundNumber });
  const name = personOf(opener);
  if (name) return _("Round {n}: {name} opens.", { n: roundNumber, name });
  return _("Round {n}: seat {seat} opens.", { n: roundNumber, seat: opener });
}

/** A placement's tile and the tile it joins as `picture` draws them (a log entry's `names`). */
export function namesIn(picture, action) {
  const names = namesOf(picture);
  return [action.tile, ...(action.at ? [action.at[0]] : [])].map((t) => names.get(tileKey(t)) || tileText(t));
}

/** A placement in words: a tile in hand named low first, its place as the board draws it; or,
 * given `names` (`namesIn` the board after it), both as that board draws them. */
export function actionText(action, [tileName, atName] = []) {
  const tile = tileName || tileText(action.tile);
  if (action.at === null || action.at === undefined) return _("open with {tile}", { tile });
  return _("{tile} at {point}", { tile, point: pointName(action.at, atName || placedText(action.at[0])) });
}

/** `3 (15)`, and `past 61 (R4)` after it when R4 rejects the credit (the frame's `rejects`). */
function creditPoints(credit, rejected) {
  return rejected ? points(credit) + " " + _("past 61 (R4)") : points(credit);
}

/** A placement's credit (R15), or none; `rejected`: R4 would throw it away whole. */
export function creditText(credit, rejected = false) {
  if (!credit) return _("no credit");
  return _("credit {points}", { points: creditPoints(credit, rejected) });
}

/** The strongest bot's suggestion and the credit it takes now (R15); hints are for placements. */
export function hintLine(action, credit, rejected = false) {
  if (credit) return _("Hint: {action}, credit {points}", { action: actionText(action), points: creditPoints(credit, rejected) });
  return _("Hint: {action}, no credit", { action: actionText(action) });
}

/** How a round was settled (R17-R23), line by line; the hands are shown beside. */
export function settlementLines(end, players, you) {
  if (end.kind === "target") return [_("The match ended on a placement: the round is not settled (R30).")];
  const lines = [];
  const events = end.events || [];
  if (end.kind === "domino") {
    const event = events.find((e) => e.kind === "domino");
    if (!event) return lines;
    const name = personOf(event.seat);
    if (event.seat === you) lines.push(_("You made domino (R18)."));
    else lines.push(name ? _("{name} made domino (R18).", { name }) : _("Seat {seat} made domino (R18).", { seat: event.seat }));
    lines.push(_("Last placement: {points}", { points: points(event.play_raw) }));
    lines.push(_("Opponents' pips {pips}, rounded to {raw} (R17)", { pips: event.opponents_pips, raw: event.opponents_raw }));
    if (players === 4) {
      lines.push(_("Partner's pips {pips}, rounded on their own to {raw}, deducted (R19)", { pips: event.partner_pips, raw: event.partner_raw }));
    }
    const verdict = event.accepted ? _("applied") : rejected(players, event.side, you);
    lines.push(_("Domino event (R19): {points}, {verdict}", { points: points(event.raw), verdict }));
    return lines;
  }
  lines.push(_("The round is blocked (R11): lighter hands score the differences."));
  const bySeat = new Map(events.filter((e) => e.kind === "block").map((e) => [e.seat, e]));
  for (const line of end.credits || []) {
    if (!line.heavier.length) continue;
    const parts = line.heavier.map((o) => `(${o.pips} - ${line.pips})`).join(" + ");
    let text = _("{who}: {parts} = {diff}, rounded to {raw}", { who: who(line.seat, you), parts, diff: line.difference, raw: line.raw });
    const event = bySeat.get(line.seat);
    if (event && !event.accepted) text += "; " + rejected(players, event.side, you);
    else if (!event && line.raw) text += "; " + _("not applied: the match was already won");
    lines.push(text);
  }
  if (end.winner === null) lines.push(_("Opposing sides share the lightest hand: the round is a tie (R23)."));
  else lines.push(_("Round winner: {side} (R23).", { side: sideLabel(players, end.winner, you) }));
  return lines;
}

/**
 * The log as lines, from the entries of every `last` so far: [{text, round, kind}].
 * A round's first line says who opens; a round's end is followed by its settlement.
 */
export function logLines(entries, players, you) {
  const out = [];
  const opened = new Set();
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i];
    if (entry.type === "deal") {
      opened.add(entry.round);
      out.push({ text: openerLine(entry.round + 1, entry.opener, you), round: entry.round, kind: "round" });
    } else if (entry.type === "action") {
      if (!opened.has(entry.round)) {
        opened.add(entry.round);
        if (entry.action.type === "play" && entry.action.at === null) {
          out.push({ text: openerLine(entry.round + 1, entry.seat, you), round: entry.round, kind: "round" });
        }
      }
      const events = [];
      for (let j = i + 1; j < entries.length && entries[j].type === "event" && entries[j].seq === entry.seq; j++) {
        events.push(entries[j]);
      }
      out.push({ text: actionLine(players, entry, events, you), round: entry.round, kind: entry.action.type, seq: entry.seq });
    } else if (entry.type === "round_end") {
      if (entry.kind !== "target") out.push({ text: _("Round {n} settled:", { n: entry.round + 1 }), round: entry.round, kind: "settled" });
      for (const text of settlementLines(entry, players, you)) out.push({ text, round: entry.round, kind: "settlement" });
    }
  }
  return out;
}
