// Building the page: elements from plain calls, no framework.

const SVG_NS = "http://www.w3.org/2000/svg";

function fill(el, attrs, children) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") el.setAttribute("class", value);
    else if (key === "text") el.textContent = value;
    else if (key.startsWith("on") && typeof value === "function") {
      el.addEventListener(key.slice(2).toLowerCase(), value);
    } else if (key === "dataset") Object.assign(el.dataset, value);
    else if (key === "style" && typeof value === "object") Object.assign(el.style, value);
    else el.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

/** An HTML element: h("button", {class: "x", onClick: f}, "text", child). */
export function h(tag, attrs = {}, ...children) {
  return fill(document.createElement(tag), attrs, children);
}

/** An SVG element. */
export function s(tag, attrs = {}, ...children) {
  return fill(document.createElementNS(SVG_NS, tag), attrs, children);
}

export function clear(el) {
  while (el.firstChild) el.firstChild.remove();
  return el;
}

/** Replace an element's children, keeping focus on the element with the same data-key. */
export function replaceKeepingFocus(el, ...children) {
  const active = document.activeElement;
  const key = active && el.contains(active) ? active.dataset.key : undefined;
  clear(el);
  fill(el, {}, children);
  if (key !== undefined) {
    const again = el.querySelector(`[data-key="${CSS.escape(key)}"]`);
    if (again) again.focus({ preventScroll: true });
  }
}

/** Put `elements` in `el`, in order, moving only what is out of place: an element already
 * there stays where it is (a press that began on it still ends on it, its focus and its
 * animation go on); the focus follows an element that had to move. */
export function placeChildren(el, elements) {
  const wanted = elements.filter(Boolean);
  const keep = new Set(wanted);
  for (const child of [...el.children]) if (!keep.has(child)) child.remove();
  const active = document.activeElement;
  wanted.forEach((child, i) => {
    if (el.children[i] !== child) el.insertBefore(child, el.children[i] ?? null);
  });
  if (active && active !== document.activeElement && active.isConnected) active.focus({ preventScroll: true });
}

/** Whether a key press belongs to a text field (the page's shortcuts leave it alone). */
export function typing(event) {
  const t = event.target;
  return t instanceof HTMLElement && (t.isContentEditable || /^(INPUT|SELECT|TEXTAREA)$/.test(t.tagName));
}

export function copyText(text) {
  if (navigator.clipboard && window.isSecureContext) return navigator.clipboard.writeText(text);
  const area = h("textarea", { style: { position: "fixed", opacity: "0" } }, text);
  document.body.append(area);
  area.select();
  try {
    document.execCommand("copy");
  } finally {
    area.remove();
  }
  return Promise.resolve();
}
