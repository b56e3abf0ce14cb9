// One game's WebSocket, speaking exact61-online/1 (docs/formats/online-protocol.md).
// Reconnects by itself with `since`, so a lost network or a sleeping phone resumes the seat.

// Answers that trying again cannot change: the page stops and says why.
export const FATAL = new Set(["bad_token", "not_found", "replaced", "full", "too_many", "expired"]);
// Answers that say an act was not applied: it is not sent again.
const ACT_REFUSED = new Set(["stale", "not_your_turn", "illegal", "over", "bad_message", "unavailable", "rate_limited"]);

export class GameSocket {
  /** handlers: {state(frame), presence(frame), hint(frame), error(frame), status(text)} where
   * status is "connecting", "open", "lost" or "closed". */
  constructor(game, token, handlers) {
    this.game = game;
    this.token = token;
    this.handlers = handlers;
    this.seq = null; // the last state's seq
    this.ws = null;
    this.closed = false;
    this.retry = 0;
    this.timer = null;
    this.pinger = null;
    // the last act, until a state after it or an error answers it: sent again once a lost
    // connection is back (made while it was down, or lost with it; the server never applies an
    // act twice, and refuses it as stale once the game moved on)
    this.unanswered = null;
    this.online = () => this.reconnectSoon(0);
    window.addEventListener("online", this.online);
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible" && !this.isOpen()) this.reconnectSoon(0);
    });
  }

  isOpen() {
    return this.ws && this.ws.readyState === WebSocket.OPEN;
  }

  connect() {
    if (this.closed) return;
    clearTimeout(this.timer);
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(`${scheme}//${location.host}/ws/games/${encodeURIComponent(this.game)}`);
    this.ws = ws;
    this.handlers.status?.("connecting");
    ws.onopen = () => {
      this.retry = 0;
      const hello = { type: "hello", since: this.seq ?? 0 };
      if (this.token) hello.token = this.token;
      ws.send(JSON.stringify(hello));
      if (this.unanswered) ws.send(JSON.stringify(this.unanswered));
      this.handlers.status?.("open");
      clearInterval(this.pinger);
      this.pinger = setInterval(() => this.send({ type: "ping" }), 25000);
    };
    ws.onmessage = (message) => {
      let frame;
      try {
        frame = JSON.parse(message.data);
      } catch {
        return;
      }
      if (frame.type === "state") {
        if (this.seq !== null && frame.seq < this.seq) return; // an old one, overtaken
        this.seq = frame.seq;
        if (this.unanswered && frame.seq > this.unanswered.seq) this.unanswered = null;
        this.handlers.state?.(frame);
      } else if (frame.type === "error") {
        if (ACT_REFUSED.has(frame.code)) this.unanswered = null;
        if (FATAL.has(frame.code)) this.close();
        if (frame.code === "stale") this.send({ type: "hello", token: this.token || undefined, since: this.seq ?? 0 });
        this.handlers.error?.(frame);
      } else {
        this.handlers[frame.type]?.(frame);
      }
    };
    ws.onclose = () => {
      clearInterval(this.pinger);
      if (this.ws !== ws) return;
      if (this.closed) {
        this.handlers.status?.("closed");
        return;
      }
      this.handlers.status?.("lost");
      this.reconnectSoon(Math.min(8000, 500 * 2 ** this.retry++));
    };
  }

  reconnectSoon(delay) {
    if (this.closed || this.isOpen()) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.connect(), delay);
  }

  send(frame) {
    if (!this.isOpen()) return false;
    this.ws.send(JSON.stringify(frame));
    return true;
  }

  act(seq, action) {
    if (this.closed) return false;
    const frame = { type: "act", seq, action };
    this.unanswered = frame;
    if (!this.send(frame)) this.reconnectSoon(0);
    return true;
  }

  /** The hint for the state `seq`, its reasons in `lang`. */
  hint(seq, lang) {
    return this.send(lang ? { type: "hint", seq, lang } : { type: "hint", seq });
  }

  /** This seat's display name, given or changed (a `presence` frame tells everyone). */
  rename(name) {
    return this.send({ type: "name", name });
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    clearInterval(this.pinger);
    window.removeEventListener("online", this.online);
    this.ws?.close();
  }

  /** For tests and the curious: drop the connection as a network loss would. */
  drop() {
    this.ws?.close();
  }
}

// Where a seat's token is kept: in this tab (sessionStorage), and in this browser (localStorage,
// which no other site can read) for another tab, a reload or an address copied from the address
// bar or bookmarked to find the seat again while the game lasts. It is never put in an address
// (the link's fragment is taken off the address bar at once), so no referrer or log holds it.
// The browser's copy is forgotten once the game no longer needs it: when the server says the
// game or the seat's link is gone, a day after the match is over (the next game of a rematch
// keeps its own), or 30 days after the seat was last opened (the server's default for closing a
// game nobody moves in).
const tabKey = (game, seat) => `exact61.token.${game}.${seat}`;
const SEAT_PREFIX = "exact61.seat.";
const browserKey = (game, seat) => `${SEAT_PREFIX}${game}.${seat}`;
const DAY = 86_400_000;
const KEEP = 30 * DAY;

function storage(kind) {
  try {
    return kind === "tab" ? sessionStorage : localStorage;
  } catch {
    return null; // storage may be off: the seat's link still works in the tab that opens it
  }
}

/** Tokens kept where every tab could read them for good by earlier versions, and this
 * browser's copies whose time is up: removed. */
function forgetOldTokens() {
  const local = storage("browser");
  if (!local) return;
  for (const key of Object.keys(local)) {
    if (key.startsWith("exact61.token.")) local.removeItem(key);
    else if (key.startsWith(SEAT_PREFIX)) {
      let kept = null;
      try {
        kept = JSON.parse(local.getItem(key));
      } catch {
        kept = null;
      }
      if (!kept || typeof kept.token !== "string" || !(kept.until > Date.now())) local.removeItem(key);
    }
  }
}

/** A seat's token: from the link's fragment (kept, then taken off the address bar), else the
 * one this tab keeps, else this browser's copy; null when there is none. */
export function seatToken(game, seat) {
  forgetOldTokens();
  const fragment = location.hash.slice(1);
  if (fragment) {
    keepToken(game, seat, decodeURIComponent(fragment));
    history.replaceState(null, "", location.pathname + location.search);
  }
  const token = storage("tab")?.getItem(tabKey(game, seat)) ?? browserToken(game, seat);
  if (token) keepToken(game, seat, token); // opened again: kept for another 30 days
  return token;
}

function browserToken(game, seat) {
  try {
    return JSON.parse(storage("browser")?.getItem(browserKey(game, seat)) ?? "null")?.token ?? null;
  } catch {
    return null;
  }
}

/** Keep a seat's token in this tab and, for 30 days, in this browser. */
export function keepToken(game, seat, token) {
  storage("tab")?.setItem(tabKey(game, seat), token);
  const until = Date.now() + KEEP;
  storage("browser")?.setItem(browserKey(game, seat), JSON.stringify({ token, until }));
}

/** The match is over: this browser's copy is kept a day longer at most (for "Play again"). */
export function keepTokenBriefly(game, seat) {
  const local = storage("browser");
  const key = browserKey(game, seat);
  try {
    const kept = JSON.parse(local?.getItem(key) ?? "null");
    if (kept && kept.until > Date.now() + DAY) local.setItem(key, JSON.stringify({ ...kept, until: Date.now() + DAY }));
  } catch {
    // nothing readable was kept
  }
}

/** The server says the game or this token is gone: forgotten, here and in this tab. */
export function forgetToken(game, seat) {
  storage("tab")?.removeItem(tabKey(game, seat));
  storage("browser")?.removeItem(browserKey(game, seat));
}

const NAME_KEY = "exact61.name"; // the name this browser gave last: not a secret

/** The name this browser gave last (the start page and a seat's own name), or "". */
export function savedName() {
  try {
    return localStorage.getItem(NAME_KEY) || "";
  } catch {
    return ""; // storage may be off
  }
}

/** The name as given (trimmed), kept for the next game; "" when none. */
export function keepName(text) {
  const name = text.trim();
  try {
    if (name) localStorage.setItem(NAME_KEY, name);
    else localStorage.removeItem(NAME_KEY);
  } catch {
    // storage may be off: the name still goes with this game
  }
  return name;
}

export async function api(path, { method = "GET", body } = {}) {
  const answer = await fetch(path, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
  let data = null;
  try {
    data = await answer.json();
  } catch {
    data = null;
  }
  if (!answer.ok) {
    const error = new Error((data && data.message) || `${answer.status}`);
    error.status = answer.status;
    error.code = data && data.error;
    throw error;
  }
  return data;
}
