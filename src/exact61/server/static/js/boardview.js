// The layout panel shared by the table and the replay viewer: the picture in a scrolled frame,
// sized to stay readable on a phone (a tile is never smaller than 48 x 24 px unless zoomed
// out), with zoom buttons and the last placed tile kept in view.

import { drawLayout } from "./board.js";
import { h, replaceKeepingFocus, s } from "./dom.js";
import { _ } from "./i18n.js";

const reducedMotion = () => window.matchMedia("(prefers-reduced-motion: reduce)").matches;

export class BoardView {
  constructor({ onChoice, creditLabel } = {}) {
    this.onChoice = onChoice;
    this.creditLabel = creditLabel;
    this.zoomLevel = 1;
    this.fitted = false; // Fit: the whole picture in the frame, however small its tiles
    this.floor = 0; // the frame's height so far this round: it grows, it does not jump back
    this.picture = null;
    this.options = {};
    this.svg = s("svg", { class: "layout", role: "group" });
    this.empty = h("p", { class: "board-empty", hidden: true });
    this.scroll = h("div", { class: "board-scroll", tabindex: 0, role: "region" }, this.svg, this.empty);
    this.tools = h("div", { class: "board-tools" });
    this.title = h("h2", { class: "visually-hidden" });
    this.el = h("section", { class: "board" }, this.title, this.tools, this.scroll);
    // the places last brought into view (`revealChoices`, `reveal`), brought back after a
    // resize redraws the picture at another scale: a phone turned on its side, or a page
    // drawn before its first resize, kept the old scale's scroll and lost them
    this.revealed = null;
    let timer = null;
    window.addEventListener("resize", () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        this.redraw();
        this.revealed?.();
      }, 100);
    });
  }

  /** Pixels per unit: the whole picture if it fits, never below 12 (a tile 48 x 24 px) but
   * after Fit. Where app.css holds the frame's height (`--frame: steady`: the table on a phone
   * or a tablet) the picture fits that; else the frame is only as tall as the picture needs,
   * between a floor and a ceiling (in a narrow window 40% of the screen, on a desktop 56%), and
   * within a round it only grows, so the hand below it does not jump at every move. */
  unit(picture) {
    const width = this.scroll.clientWidth || 320;
    const phone = width < 560;
    const largest = phone ? 16 : 24;
    if (getComputedStyle(this.scroll).getPropertyValue("--frame").trim() === "steady") {
      // the frame keeps one height all match long: the hand under it stays where the finger is
      this.scroll.style.height = "";
      const fit = Math.min(width / (picture.w + 2), (this.scroll.clientHeight || 200) / (picture.h + 2));
      return this.fitted ? Math.min(largest, fit) : Math.max(12, Math.min(largest, fit)) * this.zoomLevel;
    }
    const ceiling = phone ? Math.max(200, window.innerHeight * 0.4) : Math.max(230, Math.min(window.innerHeight * 0.56, 560));
    const lowest = phone ? 170 : 200;
    const fit = Math.min(width / (picture.w + 2), ceiling / (picture.h + 2));
    const unit = this.fitted ? Math.min(largest, fit) : Math.max(12, Math.min(largest, fit)) * this.zoomLevel;
    if (picture.tiles.length <= 1) this.floor = 0;
    const needed = (picture.h + 2) * unit + 4;
    const height = Math.round(Math.min(ceiling, Math.max(lowest, needed, this.floor)));
    this.floor = height;
    this.scroll.style.height = `${height}px`;
    return unit;
  }

  zoom(factor) {
    this.fitted = factor === 0;
    this.zoomLevel = factor === 0 ? 1 : Math.min(3, Math.max(0.4, this.zoomLevel * factor));
    this.floor = 0;
    this.redraw();
  }

  /** Draw `picture`; `options`: {choices, marked (attach points ringed), info (text above),
   * label (for screen readers), follow (keep the last placed tile in view)}. */
  draw(picture, options = {}) {
    this.picture = picture;
    this.options = options;
    this.revealed = null; // a new picture: its caller says what to bring into view
    this.redraw();
    if (options.follow) {
      const last = this.svg.querySelector(".tile.last");
      if (last) this.keepInView(last);
    }
  }

  redraw() {
    if (!this.picture) return;
    const { choices, marked, info = "", label, empty = "" } = this.options;
    drawLayout(this.svg, this.picture, { unit: this.unit(this.picture), choices, marked, onChoice: this.onChoice, creditLabel: this.creditLabel });
    this.empty.textContent = empty; // an empty table says so, where the tiles will be
    this.empty.hidden = !empty;
    this.svg.classList.toggle("none", !!empty);
    this.title.textContent = _("The layout");
    this.scroll.setAttribute("aria-label", _("The layout"));
    this.svg.setAttribute("aria-label", label || _("The layout"));
    const button = (key, text, title, factor, pressed) =>
      h("button", { type: "button", class: "small", "data-key": key, "aria-label": title, "aria-pressed": pressed === undefined ? undefined : String(pressed), title, onClick: () => this.zoom(factor) }, text);
    replaceKeepingFocus(
      this.tools,
      h("span", { class: "ends" }, info),
      h("span", { class: "zoom" }, button("zoom-out", "−", _("Smaller"), 0.8), button("zoom-fit", "⤢", _("Fit"), 0, this.fitted), button("zoom-in", "+", _("Larger"), 1.25)),
    );
  }

  inView(el) {
    const box = el.getBoundingClientRect();
    const frame = this.scroll.getBoundingClientRect();
    return box.left >= frame.left && box.right <= frame.right && box.top >= frame.top && box.bottom <= frame.bottom;
  }

  keepInView(el) {
    if (this.inView(el)) return;
    const box = el.getBoundingClientRect();
    const frame = this.scroll.getBoundingClientRect();
    this.scroll.scrollBy({
      left: box.left + box.width / 2 - (frame.left + frame.width / 2),
      top: box.top + box.height / 2 - (frame.top + frame.height / 2),
      behavior: reducedMotion() ? "auto" : "smooth",
    });
  }

  /** Bring the lit attach points (or those `selector` names) into view: all of them where the
   * frame can hold them all (a place left out of sight is a choice not seen), else the first
   * when none is in view. A place is its dot, as `reveal` takes it: its credit's label beside
   * it could make the places seem too far apart to show together, and none was scrolled. */
  revealChoices(selector = ".point.choice") {
    this.revealed = () => this.revealChoices(selector);
    const marks = [...this.svg.querySelectorAll(selector)].map((m) => m.querySelector(".dot") || m);
    if (!marks.length || marks.every((m) => this.inView(m))) return;
    const boxes = marks.map((m) => m.getBoundingClientRect());
    const left = Math.min(...boxes.map((b) => b.left));
    const right = Math.max(...boxes.map((b) => b.right));
    const top = Math.min(...boxes.map((b) => b.top));
    const bottom = Math.max(...boxes.map((b) => b.bottom));
    const frame = this.scroll.getBoundingClientRect();
    if (right - left <= frame.width && bottom - top <= frame.height) {
      this.scroll.scrollBy({
        left: (left + right) / 2 - (frame.left + frame.width / 2),
        top: (top + bottom) / 2 - (frame.top + frame.height / 2),
        behavior: reducedMotion() ? "auto" : "smooth",
      });
    } else if (!marks.some((m) => this.inView(m))) this.keepInView(marks[0]);
  }

  /** Bring the attach point `selector` names (the hint's) into view: its dot in the frame, and
   * the frame on the screen where it is off it. */
  reveal(selector) {
    this.revealed = () => this.reveal(selector);
    const mark = this.svg.querySelector(selector);
    if (!mark) return;
    this.keepInView(mark.querySelector(".dot") || mark);
    const box = this.scroll.getBoundingClientRect();
    if (box.top < 0 || box.bottom > window.innerHeight) this.scroll.scrollIntoView({ block: "nearest" });
  }
}
