// Drawing tiles and the layout as SVG, in the rule documents' style: the picture's geometry comes
// from the server (exact61.render.geometry: a tile's short side is 2 units), so this only paints.

import { s } from "./dom.js";
import { _ } from "./i18n.js";
import { nameTilesAs, pointKey, pointName, tileKey, tileText } from "./words.js";

// Pip centres in a half of side 1: columns of 6 run along the tile's long side.
const PIPS = {
  0: [],
  1: [[0.5, 0.5]],
  2: [[0.75, 0.25], [0.25, 0.75]],
  3: [[0.75, 0.25], [0.5, 0.5], [0.25, 0.75]],
  4: [[0.25, 0.25], [0.75, 0.25], [0.25, 0.75], [0.75, 0.75]],
  5: [[0.25, 0.25], [0.75, 0.25], [0.5, 0.5], [0.25, 0.75], [0.75, 0.75]],
  6: [[0.25, 0.22], [0.75, 0.22], [0.25, 0.5], [0.75, 0.5], [0.25, 0.78], [0.75, 0.78]],
};
const GAP = 0.07; // between neighbouring tiles, in units

function half(x, y, size, value, across, scored) {
  const parts = [];
  if (scored) {
    parts.push(s("rect", { class: "scored", x: x + 0.18, y: y + 0.18, width: size - 0.36, height: size - 0.36, rx: 0.2 }));
  }
  for (const [px, py] of PIPS[value]) {
    const [cx, cy] = across ? [py, px] : [px, py];
    parts.push(s("circle", { class: "pip", cx: x + cx * size, cy: y + cy * size, r: size * 0.1 }));
  }
  return parts;
}

/** One tile as SVG elements in a box (x, y, w, h), `a` on the left (or top), `b` the other. */
export function tileShape({ x, y, w, h, a, b, scored = [false, false], last = false }) {
  const across = w > h;
  const size = Math.min(w, h) - 2 * GAP;
  const x0 = x + GAP;
  const y0 = y + GAP;
  const parts = [s("rect", { class: "face", x: x0, y: y0, width: w - 2 * GAP, height: h - 2 * GAP, rx: size * 0.14 })];
  if (across) {
    parts.push(...half(x0, y0, size, a, true, scored[0]), ...half(x0 + size, y0, size, b, true, scored[1]));
    parts.push(s("line", { class: "divider", x1: x0 + size, y1: y0 + size * 0.12, x2: x0 + size, y2: y0 + size * 0.88 }));
  } else {
    parts.push(...half(x0, y0, size, a, false, scored[0]), ...half(x0, y0 + size, size, b, false, scored[1]));
    parts.push(s("line", { class: "divider", x1: x0 + size * 0.12, y1: y0 + size, x2: x0 + size * 0.88, y2: y0 + size }));
  }
  return s("g", { class: `tile${last ? " last" : ""}` }, parts);
}

/** A tile on its own (the hand, a settlement): standing, `a` on top; `unit` px per unit. */
export function tileImage(tile, { unit = 12, across = false, label } = {}) {
  const [w, h] = across ? [4, 2] : [2, 4];
  return s(
    "svg",
    {
      class: "tile-image",
      viewBox: `0 0 ${w} ${h}`,
      width: w * unit,
      height: h * unit,
      role: label === "" ? undefined : "img",
      "aria-hidden": label === "" ? "true" : undefined,
      "aria-label": label === "" ? undefined : label || tileText(tile),
    },
    tileShape({ x: 0, y: 0, w, h, a: tile[0], b: tile[1] }),
  );
}

/** A face-down tile (the boneyard). */
export function backImage(unit = 12) {
  return s(
    "svg",
    { class: "tile-image back", viewBox: "0 0 2 4", width: 2 * unit, height: 4 * unit, "aria-hidden": "true" },
    s("rect", { class: "back-face", x: GAP, y: GAP, width: 2 - 2 * GAP, height: 4 - 2 * GAP, rx: 0.25 }),
  );
}

function tileLabel(t) {
  const words = [t.name || tileText(t.tile)];
  if (t.last) words.push(_("placed last"));
  const scored = [];
  if (t.a === t.b) {
    if (t.scored[0]) scored.push(2 * t.a);
  } else {
    if (t.scored[0]) scored.push(t.a);
    if (t.scored[1]) scored.push(t.b);
  }
  for (const value of scored) words.push(_("scored end {value}", { value }));
  return words.join(", ");
}

// Where a lit attach point's credit may go, in order: above, below, right, left of its dot
// (x, y of the text's baseline, its anchor, and the box the text takes).
const CREDIT_SPOTS = [
  [0, -1.25, "middle", [-0.8, -2.15, 0.8, -1.05]],
  [0, 2.05, "middle", [-0.8, 1.15, 0.8, 2.25]],
  [1.2, 0.35, "start", [1.15, -0.55, 2.9, 0.55]],
  [-1.2, 0.35, "end", [-2.9, -0.55, -1.15, 0.55]],
];

/** The first spot beside attach point `p` where its credit covers no tile. */
function creditSpot(p, tiles) {
  const clear = ([x1, y1, x2, y2]) => tiles.every((t) => x2 + p.x <= t.x || x1 + p.x >= t.x + t.w || y2 + p.y <= t.y || y1 + p.y >= t.y + t.h);
  const spot = CREDIT_SPOTS.find((c) => clear(c[3])) || CREDIT_SPOTS[0];
  return [p.x + spot[0], p.y + spot[1], spot[2]];
}

/**
 * The layout in `svg` (an <svg> element, emptied first), `unit` px per unit.
 * `choices`: Map pointKey -> {letter, credit, rejects, hinted} of the attach points the picked
 * tile fits (`rejects`: R4 would throw the credit away, drawn struck through in red);
 * `onChoice(key)` is called when one is picked (click, tap, Enter or Space);
 * `creditLabel(credit, rejects)` says a place's credit in its accessible name;
 * `marked`: the pointKeys of free attach points drawn ringed (a puzzle's moves go there).
 */
export function drawLayout(svg, picture, { unit, choices = new Map(), onChoice, creditLabel, marked = new Set() } = {}) {
  nameTilesAs(picture);
  const margin = 1;
  const width = picture.w + 2 * margin;
  const height = picture.h + 2 * margin;
  while (svg.firstChild) svg.firstChild.remove();
  svg.setAttribute("viewBox", `${-margin} ${-margin} ${width} ${height}`);
  svg.setAttribute("width", Math.round(width * unit));
  svg.setAttribute("height", Math.round(height * unit));
  for (const [x1, y1, x2, y2] of picture.links) {
    svg.append(s("line", { class: "link", x1, y1, x2, y2 }));
  }
  for (const t of picture.tiles) {
    const g = tileShape(t);
    g.setAttribute("role", "img");
    g.setAttribute("aria-label", tileLabel(t));
    g.dataset.tile = tileKey(t.tile);
    svg.append(g);
  }
  // a finger's reach round each lit place (44 px across, as every button), drawn only where the
  // pointer is coarse (app.css): never past halfway to the next lit place, so that the nearest
  // place is the one tapped, and never smaller than the halo
  const lit = picture.points.filter((p) => choices.has(pointKey(p.at)));
  const reach = (p) => Math.max(1.1, Math.min(22 / unit, ...lit.filter((q) => q !== p).map((q) => Math.hypot(q.x - p.x, q.y - p.y) / 2)));
  for (const p of picture.points) {
    const key = pointKey(p.at);
    const choice = choices.get(key);
    const name = _("free attach point {point}, takes {value}", { point: pointName(p.at), value: p.value });
    if (!choice) {
      svg.append(s("circle", { class: marked.has(key) ? "point move-place" : "point", cx: p.x, cy: p.y, r: 0.5, role: "img", "aria-label": name, "data-point": key }));
      continue;
    }
    const pick = () => onChoice && onChoice(key);
    const label = `${choice.letter}) ${name}${creditLabel ? ", " + creditLabel(choice.credit, !!choice.rejects) : ""}`;
    const g = s(
      "g",
      {
        class: `point choice${choice.hinted ? " hinted" : ""}`,
        role: "button",
        tabindex: 0,
        "aria-label": label,
        "data-point": key,
        "data-key": `point-${key}`,
        "data-credit": choice.credit,
        onClick: pick,
        onKeydown: (e) => {
          if (e.key === "Enter" || e.key === " ") {
            e.preventDefault();
            e.stopPropagation();
            pick();
          }
        },
      },
      s("circle", { class: "hit", cx: p.x, cy: p.y, r: reach(p) }),
      s("circle", { class: "halo", cx: p.x, cy: p.y, r: 1.1 }),
      s("circle", { class: "dot", cx: p.x, cy: p.y, r: 0.8 }),
      s("text", { x: p.x, y: p.y, "dy": "0.35", "text-anchor": "middle", class: "letter" }, choice.letter),
    );
    if (choice.credit) {
      const [x, y, anchor] = creditSpot(p, picture.tiles);
      // one R4 would reject is struck through in the list's red (its name says past 61 (R4)); the
      // words are a tspan so that their white edge is theirs, not the line's across them
      const rejected = choice.rejects ? " rejected" : "";
      g.append(s("text", { x, y, "text-anchor": anchor, class: `credit${rejected}` }, s("tspan", {}, `+${Math.floor(choice.credit / 5)}`)));
    }
    svg.append(g);
  }
  return svg;
}

/** R31's paper tally: a stroke per display point, a big X with a small x in each of its four
 * fields for ten. */
export function tallyImage(raw, label) {
  const shown = Math.floor(Math.abs(raw) / 5);
  const groups = Math.floor(shown / 10);
  const strokes = shown % 10;
  const parts = [];
  let x = 0;
  for (let g = 0; g < groups; g++) {
    parts.push(
      s("line", { x1: x, y1: 0, x2: x + 10, y2: 10 }),
      s("line", { x1: x + 10, y1: 0, x2: x, y2: 10 }),
      ...[[5, 1.8], [8.2, 5], [5, 8.2], [1.8, 5]].flatMap(([cx, cy]) => [
        s("line", { x1: cx - 1, y1: cy - 1, x2: cx + 1, y2: cy + 1, class: "small" }),
        s("line", { x1: cx + 1, y1: cy - 1, x2: cx - 1, y2: cy + 1, class: "small" }),
      ]),
    );
    x += 13;
  }
  for (let i = 0; i < strokes; i++) {
    parts.push(s("line", { x1: x + 1, y1: 0.5, x2: x + 1, y2: 9.5 }));
    x += 2.4;
  }
  const width = Math.max(x, 2);
  return s("svg", { class: "tally", viewBox: `-0.5 -0.5 ${width + 1} 11`, width: (width + 1) * 2.6, height: 29, role: "img", "aria-label": label }, parts);
}
