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
    this.picture = null;
    this.options = {};
    this.svg = s("svg", { class: "layout", role: "group" });
    this.scroll = h("div", { class: "board-scroll", tabindex: 0, role: "region" }, this.svg);
    this.tools = h("div", { class: "board-tools" });
    this.title = h("h2", { class: "visually-hidden" });
    this.el = h("section", { class: "board" }, this.title, this.tools, this.scroll);
    let timer = null;
    window.addEventListener("resize", () => {
      clearTimeout(timer);
      timer = setTimeout(() => this.redraw(), 100);
    });
  }

  /** Pixels per unit: the whole picture if it fits, never below 12 (a tile 48 x 24 px). On a
   * narrow screen the frame is only as tall as the picture needs (up to 40% of the screen), so
   * the hand stays in sight below it. */
  unit(picture) {
    const width = this.scroll.clientWidth || 320;
    const phone = width < 560;
    const tallest = phone ? Math.max(200, window.innerHeight * 0.4) : this.scroll.clientHeight || 300;
    const fit = Math.min(width / (picture.w + 2), tallest / (picture.h + 2));
    const unit = Math.max(12, Math.min(phone ? 16 : 24, fit)) * this.zoomLevel;
    if (phone) {
      const needed = (picture.h + 2) * unit + 4;
      this.scroll.style.height = `${Math.round(Math.min(tallest, Math.max(170, needed)))}px`;
    } else {
      this.scroll.style.height = "";
    }
    return unit;
  }

  zoom(factor) {
    this.zoomLevel = factor === 0 ? 1 : Math.min(3, Math.max(0.4, this.zoomLevel * factor));
    this.redraw();
  }

  /** Draw `picture`; `options`: {choices, info (text above), label (for screen readers),
   * follow (keep the last placed tile in view)}. */
  draw(picture, options = {}) {
    this.picture = picture;
    this.options = options;
    this.redraw();
    if (options.follow) {
      const last = this.svg.querySelector(".tile.last");
      if (last) this.keepInView(last);
    }
  }

  redraw() {
    if (!this.picture) return;
    const { choices, info = "", label } = this.options;
    drawLayout(this.svg, this.picture, { unit: this.unit(this.picture), choices, onChoice: this.onChoice, creditLabel: this.creditLabel });
    this.title.textContent = _("The layout");
    this.scroll.setAttribute("aria-label", _("The layout"));
    this.svg.setAttribute("aria-label", label || _("The layout"));
    const button = (key, text, title, factor) =>
      h("button", { type: "button", class: "small", "data-key": key, "aria-label": title, title, onClick: () => this.zoom(factor) }, text);
    replaceKeepingFocus(
      this.tools,
      h("span", { class: "ends" }, info),
      h("span", { class: "zoom" }, button("zoom-out", "−", _("Smaller"), 0.8), button("zoom-fit", "⤢", _("Fit"), 0), button("zoom-in", "+", _("Larger"), 1.25)),
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

  /** Bring the lit attach points into view when none of them is. */
  revealChoices() {
    const marks = [...this.svg.querySelectorAll(".point.choice")];
    if (marks.length && !marks.some((m) => this.inView(m))) this.keepInView(marks[0]);
  }
}
