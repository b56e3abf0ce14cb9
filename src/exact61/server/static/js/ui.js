// Pieces every view shares: the header with the language switch, dialogs, rule references.

import { h, s } from "./dom.js";
import { _, chooseLanguage, language, languageNames, LANGUAGES, ruleParagraph } from "./i18n.js";

/** A touch screen (a phone, a tablet): a finger taps, there is no keyboard to name keys of. */
export const coarsePointer = () => window.matchMedia("(pointer: coarse)").matches;

/** A modal dialog; resolves when it closes. `actions`: [{label, onClick, primary}];
 * `describedBy`: the elements of `body` a screen reader says with the title as the dialog
 * opens (what it tells, not only its name and the focused button). */
export function openDialog({ title, body, actions = [], className = "", describedBy = [] }) {
  const id = () => `dlg-${Math.random().toString(36).slice(2)}`;
  const heading = h("h2", { id: id() }, title);
  const dialog = h("dialog", { class: `dialog ${className}`, "aria-labelledby": heading.id });
  const described = describedBy.filter(Boolean).map((el) => (el.id ||= id()));
  if (described.length) dialog.setAttribute("aria-describedby", described.join(" "));
  const close = h("button", { class: "close", type: "button", "aria-label": _("Close"), onClick: () => dialog.close() }, "×");
  const buttons = actions.map((a) =>
    a.href
      ? h("a", { class: `button${a.primary ? " primary" : ""}`, href: a.href, download: a.download, "data-key": a.key }, a.label)
      : h("button", { type: "button", class: a.primary ? "primary" : "", "data-key": a.key, onClick: () => a.onClick?.(dialog) }, a.label),
  );
  dialog.append(h("div", { class: "dialog-head" }, heading, close), h("div", { class: "dialog-body" }, body));
  if (buttons.length) dialog.append(h("div", { class: "dialog-actions" }, buttons));
  document.body.append(dialog);
  // the browser gives the focus back to the opener; one drawn again meanwhile (the table's
  // header, at every frame) is gone, and its like in its place, by its key, takes the focus
  const opener = document.activeElement;
  const openerKey = opener?.dataset?.key;
  const closed = new Promise((resolve) =>
    dialog.addEventListener("close", () => {
      dialog.remove();
      if (openerKey !== undefined && !opener.isConnected) {
        document.querySelector(`[data-key="${CSS.escape(openerKey)}"]`)?.focus();
      }
      resolve(dialog.returnValue);
    }),
  );
  dialog.showModal();
  const first = dialog.querySelector(".dialog-actions .primary") || dialog.querySelector(".dialog-actions button") || close;
  first.focus();
  dialog.closed = closed;
  return dialog;
}

/** Markdown of the rules texts (headings, paragraphs, **bold**, `code`) as elements. */
export function markdown(text) {
  const blocks = [];
  for (const block of text.trim().split(/\n\s*\n/)) {
    const heading = block.match(/^(#{1,3})\s+(.*)$/s);
    if (heading) {
      blocks.push(h(`h${heading[1].length + 1}`, {}, heading[2]));
      continue;
    }
    const rule = block.match(/^\*\*(R\d+)\*\*/);
    blocks.push(h("p", rule ? { id: `rule-${rule[1]}` } : {}, inline(block.replace(/\s*\n\s*/g, " "))));
  }
  return blocks;
}

function inline(text) {
  const out = [];
  for (const part of text.split(/(\*\*[^*]+\*\*|`[^`]+`)/)) {
    if (part.startsWith("**")) out.push(h("strong", {}, part.slice(2, -2)));
    else if (part.startsWith("`")) out.push(h("code", {}, part.slice(1, -1)));
    else if (part) out.push(part);
  }
  return out;
}

/** The rules R1-R31 (and `rule` in view, if given). */
export async function showRules(rule) {
  const answer = await fetch(`/api/rules/${language()}`);
  const text = answer.ok ? await answer.text() : "";
  const dialog = openDialog({ title: _("Rules"), body: h("div", { class: "rules-text" }, markdown(text)), className: "wide" });
  if (rule) dialog.querySelector(`#rule-${rule}`)?.scrollIntoView({ block: "start" });
}

/** One rule's paragraph, with a way to all of them. */
export function showRule(rule) {
  const paragraph = ruleParagraph(rule);
  if (!paragraph) return showRules();
  openDialog({
    title: rule,
    body: markdown(paragraph),
    actions: [{ label: _("All rules"), onClick: (d) => (d.close(), showRules(rule)) }],
  });
}

/** Text whose rule references (R13) open that rule's words. A reference stays on one line
 * with its brackets and the sign after it: `(R30).` never breaks before `R30` or `)`. */
export function withRules(text) {
  const parts = String(text).split(/(\(?\bR\d{1,2}\b(?:[-–]R\d{1,2}\b)*\)?[.,:;!?]?)/);
  return parts.map((part, i) => {
    if (!(i % 2)) return part;
    const pieces = part.split(/\b(R\d{1,2})\b/);
    if (!pieces.some((piece, j) => j % 2 && ruleParagraph(piece))) return part;
    return h(
      "span",
      { class: "rule-group" },
      pieces.map((piece, j) =>
        j % 2 && ruleParagraph(piece)
          ? h("button", { type: "button", class: "rule-ref", title: _("Rule {rule}", { rule: piece }), onClick: () => showRule(piece) }, piece)
          : piece,
      ),
    );
  });
}

export function languageSwitch() {
  const names = languageNames();
  const select = h(
    "select",
    { "aria-label": _("Language"), "data-key": "page-lang", onChange: (e) => chooseLanguage(e.target.value) },
    LANGUAGES.map((code) => h("option", { value: code, selected: code === language() }, names[code] || code)),
  );
  return h("label", { class: "lang" }, select);
}

/** The page's header; drawn again in place of `el`'s with `replaceKeepingFocus`, so that a
 * language chosen with the arrow keys leaves the focus on its list. */
export function header(...middle) {
  return h(
    "header",
    { class: "bar" },
    h("a", { class: "brand", href: "/", "aria-label": "Exact 61" }, logo(), h("span", { class: "brand-name" }, "Exact 61")),
    h("div", { class: "bar-middle" }, middle),
    h("button", { type: "button", class: "link", "data-key": "page-rules", onClick: () => showRules() }, _("Rules")),
    languageSwitch(),
  );
}

function logo() {
  return s(
    "svg",
    { viewBox: "0 0 32 32", width: 22, height: 22, "aria-hidden": "true" },
    s("rect", { x: 9, y: 1, width: 14, height: 30, rx: 3, fill: "#fffdf6", stroke: "#fffdf6", "stroke-width": 1 }),
    s("line", { x1: 11, y1: 16, x2: 21, y2: 16, stroke: "#23303f", "stroke-width": 1.5 }),
    s("circle", { cx: 16, cy: 8.5, r: 2.2, fill: "#23303f" }),
    s("circle", { cx: 13, cy: 20, r: 1.8, fill: "#23303f" }),
    s("circle", { cx: 16, cy: 23.5, r: 1.8, fill: "#23303f" }),
    s("circle", { cx: 19, cy: 27, r: 1.8, fill: "#23303f" }),
  );
}

/** A polite live region for a page's life, out of sight: `say(text)` has a screen reader read
 * `text` out. A region put in the page with its words already in it is not read out (a screen
 * reader reads the changes of a region that was there before), and the views draw their parts
 * again at each change: what they have to say goes through this one, which stays. */
export function announcer() {
  const el = h("div", { class: "visually-hidden", role: "status", "aria-live": "polite", "aria-atomic": "true" });
  return { el, say: (text) => (el.textContent = text) };
}

/** A short message that fades (copied, errors). */
export function toast(text) {
  const el = h("div", { class: "toast", role: "status" }, text);
  document.body.append(el);
  setTimeout(() => el.remove(), 2600);
}
