// The pages' small DOM helpers, one copy for every script: el() builds an element,
// clock() writes seconds as a clock, $() finds an element by its id.

const SVG = new Set(["svg", "g", "rect", "circle", "line", "polyline", "path", "text", "title"]);

/** The element with this id (or null). */
export const $ = (id) => document.getElementById(id);

/**
 * An element with attributes and children (text or nodes). An attribute that is null,
 * undefined or false is left out, `true` sets it empty, `on<event>` adds a listener;
 * null, undefined and false children are left out. SVG tags get the SVG namespace.
 *
 *     el("a", { class: "btn", href: "/" }, "Home")  // <a class="btn" href="/">Home</a>
 */
export function el(tag, attrs = {}, ...children) {
  const node = SVG.has(tag) ? document.createElementNS("http://www.w3.org/2000/svg", tag) : document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.setAttribute("class", value);
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** Seconds as m:ss or h:mm:ss: clock(75) is "1:15", clock(3675) is "1:01:15". */
export function clock(seconds) {
  seconds = Math.max(0, Math.floor(seconds));
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = String(seconds % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`;
}
