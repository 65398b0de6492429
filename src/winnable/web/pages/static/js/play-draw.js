// Drawing the table with the family's renderer, the moving cards, and where the focus is.

import { $, el } from "./dom.js";
import { t } from "./i18n.js";
import { hooks } from "./play-hooks.js";
import { app, coarse, currentLegal, currentPosition, entriesFor, placesOf, reducedMotion, table, TOUCH_MIN } from "./play-state.js";

/** The player's card size (settings.js, on <html data-card-size>): how far the largest
 * card a renderer draws may grow or shrink (the screen still limits it). */
const CARD_SCALES = { small: 0.75, medium: 1, large: 1.3 };
const cardScale = () => CARD_SCALES[document.documentElement.dataset.cardSize] || 1;

function tableSize() {
  if (app.review && app.playSize && app.playSize.viewport === `${innerWidth}x${innerHeight}`) return app.playSize;
  const wrap = $("table-wrap");
  const style = getComputedStyle(wrap);
  const width = wrap.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  const top = table.getBoundingClientRect().top + window.scrollY;
  const actions = $("actions");
  const actionsBox = actions.getBoundingClientRect();
  // Docked at the bottom (phones held upright): keep the table above the buttons.
  const docked = getComputedStyle(actions).position === "fixed" && actionsBox.top > innerHeight / 2 ? actionsBox.height : 0;
  const reserve = docked + parseFloat(getComputedStyle(document.body).getPropertyValue("--table-reserve") || "8");
  const height = Math.max(220, window.innerHeight - top - reserve);
  const size = { width: Math.max(200, Math.min(width, 1180)), height, minCw: coarse.matches ? TOUCH_MIN : 30, scale: cardScale(), viewport: `${innerWidth}x${innerHeight}` };
  if (!app.review) app.playSize = size;
  return size;
}

/** Where every card is now, to animate the next drawing from there. */
function snapshot() {
  const rects = new Map();
  for (const node of table.querySelectorAll(".card[data-card]")) {
    const code = node.dataset.card;
    if (!rects.has(code)) rects.set(code, []);
    rects.get(code).push(node.getBoundingClientRect());
  }
  if (app.dragRects) {
    // Dropped cards start from where the pointer left them, not from their old place.
    for (const { code, from, to } of app.dragRects) {
      const list = rects.get(code) || [];
      const i = list.findIndex((r) => Math.abs(r.left - from.left) < 1 && Math.abs(r.top - from.top) < 1);
      if (i >= 0) list[i] = to;
    }
    app.dragRects = null;
  }
  const stock = table.querySelector(".stock");
  const top = stock && [...stock.querySelectorAll(".card")].pop(); // the stock's top card
  return { rects, stock: top ? top.getBoundingClientRect() : null };
}

/** FLIP with CSS transitions: start each card where it was, let it glide home. */
function animateFrom(before, dealt = false) {
  if (!before || reducedMotion.matches) return;
  const moved = [];
  const used = new Set();
  const nodes = [...table.querySelectorAll(".card[data-card]")];
  const nows = nodes.map((node) => node.getBoundingClientRect());
  const origin = new Array(nodes.length).fill(null);
  let dealtCount = 0;
  // Two decks hold every card twice: cards that stayed put keep their own place first,
  // then each card that moved takes the nearest place left for its face.
  nodes.forEach((node, i) => {
    const still = (before.rects.get(node.dataset.card) || []).find(
      (rect) => !used.has(rect) && Math.abs(rect.left - nows[i].left) < 1 && Math.abs(rect.top - nows[i].top) < 1,
    );
    if (still) {
      used.add(still);
      origin[i] = still;
    }
  });
  nodes.forEach((node, i) => {
    if (origin[i]) return;
    let best = null;
    let bestDistance = Infinity;
    for (const rect of before.rects.get(node.dataset.card) || []) {
      if (used.has(rect)) continue;
      const distance = Math.hypot(rect.left - nows[i].left, rect.top - nows[i].top);
      if (distance < bestDistance) {
        best = rect;
        bestDistance = distance;
      }
    }
    if (best) used.add(best);
    let from = best;
    let delay = 0;
    if (!from && dealt && before.stock && node.closest(".column")) {
      from = before.stock; // dealt from the stock, one column after the other
      delay = dealtCount++ * 30;
    }
    if (!from) {
      node.classList.add("appear");
      return;
    }
    const now = nows[i];
    // Centre to centre: a card that changes size (into the hole) scales about its centre.
    const dx = from.left + from.width / 2 - (now.left + now.width / 2);
    const dy = from.top + from.height / 2 - (now.top + now.height / 2);
    if (Math.abs(dx) < 1 && Math.abs(dy) < 1 && Math.abs(from.width - now.width) < 1) return;
    moved.push([node, dx, dy, from.width / now.width, delay]);
  });
  for (const [node, dx, dy, scale] of moved) {
    node.style.transition = "none";
    node.style.translate = `${dx}px ${dy}px`;
    if (Math.abs(scale - 1) > 0.01) node.style.scale = String(scale);
    node.classList.add("flying");
  }
  if (!moved.length) return;
  table.getBoundingClientRect(); // one layout with the cards at their old places
  for (const [node, , , , delay] of moved) {
    node.style.transition = "";
    if (delay) {
      node.style.transitionDelay = `${delay}ms`;
      setTimeout(() => (node.style.transitionDelay = ""), delay + 400);
    }
    node.style.translate = "";
    node.style.scale = "";
    node.addEventListener("transitionend", () => node.classList.remove("flying"), { once: true });
    setTimeout(() => node.classList.remove("flying"), 400);
  }
}

let lastStock = null;

export function draw({ animate = true } = {}) {
  if (!app.state) return;
  const before = animate ? snapshot() : null;
  const position = currentPosition();
  const stock = typeof position.stock === "number" ? position.stock : null;
  const dealt = stock !== null && lastStock !== null && stock < lastStock;
  lastStock = stock;
  table.className = `table family-${app.state.family}` + (app.review ? " reviewing" : "");
  app.family.render(table, { position }, tableSize());
  markPlayable();
  animateFrom(before, dealt);
  if (app.hint && !app.review) highlight(app.hint, "hint");
  if (app.review) hooks.highlightReview();
  if (app.selection && !app.review) hooks.showSelection(app.selection);
  restoreFocus();
}

function markPlayable() {
  const legal = currentLegal();
  const position = currentPosition();
  for (const node of table.querySelectorAll("[data-place]")) {
    const place = node.dataset.place;
    let playable = false;
    if (place === "stock") {
      playable = legal.some((e) => e.from === "stock");
      const blocked = !playable && position.stock > 0 && !app.review;
      node.classList.toggle("blocked", blocked);
      node.setAttribute("aria-disabled", playable ? "false" : "true");
      if (blocked) node.setAttribute("aria-label", t("Stock: fill every empty column before dealing"));
      node.title = playable ? t("Deal a row (one card on every column)") : position.stock > 0 ? t("Fill every empty column before dealing") : t("The stock is empty");
    } else if (node.dataset.card) {
      playable = entriesFor(place, Number(node.dataset.index), legal, position).length > 0;
    }
    node.classList.toggle("playable", playable);
    if (node.tagName !== "BUTTON") {
      if (playable) node.tabIndex = -1;
      else node.removeAttribute("tabindex");
      if (node.dataset.card) node.setAttribute("role", playable ? "button" : "img");
    }
  }
  // On touch screens a run whose cards show less than a finger's height is one target:
  // its buried cards are picked up by tapping the run (again to take fewer cards).
  if (coarse.matches) {
    for (const column of table.querySelectorAll(".column")) {
      const cards = [...column.querySelectorAll(".card[data-place]")];
      cards.forEach((node, i) => {
        const next = cards[i + 1];
        const strip = next ? next.getBoundingClientRect().top - node.getBoundingClientRect().top : Infinity;
        const grouped = next && strip < TOUCH_MIN && node.classList.contains("playable");
        node.classList.toggle("in-run", !!grouped);
        if (grouped) {
          node.setAttribute("role", "img");
          node.removeAttribute("tabindex");
        }
      });
    }
  }
}

export function elementAt(place, index) {
  return table.querySelector(`[data-place="${place}"][data-index="${index}"]`);
}

function restoreFocus() {
  const playable = [...table.querySelectorAll(".playable")];
  playable.forEach((node) => node.classList.remove("kfocus"));
  if (playable.length) playable[0].tabIndex = 0; // Tab reaches the table
  if (!app.keyboard || !playable.length) return;
  if (app.selection) {
    const target = app.selection.targets[app.selection.focus || 0];
    if (target) focusCard(target.node);
    return;
  }
  let target = app.focus ? elementAt(app.focus.place, app.focus.index) : null;
  if (!target || !target.classList.contains("playable")) {
    target = nearest(playable, app.focusRect) || playable[0];
  }
  focusCard(target);
}

export function focusCard(node) {
  if (!node) return;
  for (const other of table.querySelectorAll(".kfocus")) {
    other.classList.remove("kfocus");
    if (other.tagName !== "BUTTON" && !other.classList.contains("target")) other.tabIndex = -1;
  }
  node.classList.add("kfocus");
  node.tabIndex = 0;
  node.focus({ preventScroll: false });
  if (node.dataset.place) {
    app.focus = { place: node.dataset.place, index: Number(node.dataset.index) };
    app.focusRect = anchor(node);
  }
}

export function anchor(node) {
  const rect = node.getBoundingClientRect();
  return { x: rect.left + rect.width / 2, y: rect.top + Math.min(rect.height, rect.width * 0.5) / 2 };
}

export function nearest(nodes, point) {
  if (!point) return null;
  let best = null;
  let bestDistance = Infinity;
  for (const node of nodes) {
    const a = anchor(node);
    const d = Math.hypot(a.x - point.x, a.y - point.y);
    if (d < bestDistance) {
      best = node;
      bestDistance = d;
    }
  }
  return best;
}

/** A label written under a card (centred on it) moved sideways so that it stays on the
 * screen and off the rail of buttons held sideways when the card is at an edge. (Up and
 * down the table may still scroll to show the hinted card: see play-view.js.) */
function keepOnScreen(label) {
  // The screen's width, not window.innerWidth: on a phone that grows with a label that
  // sticks out, the very overflow this undoes.
  const width = document.documentElement.clientWidth;
  const bar = $("actions")?.getBoundingClientRect();
  const room = { left: 4, right: width - 4 };
  if (bar && bar.height > bar.width) {
    // The rail held sideways, at the right (or at the left, left-handed).
    if (bar.left > width / 2) room.right = Math.min(room.right, bar.left - 4);
    else room.left = Math.max(room.left, bar.right + 4);
  }
  const box = label.getBoundingClientRect();
  const shift = box.left < room.left ? room.left - box.left : box.right > room.right ? room.right - box.right : 0;
  if (shift) label.style.setProperty("--shift", `${Math.round(shift)}px`);
}

export function clearHighlights(prefix) {
  for (const node of table.querySelectorAll(`.${prefix}-src, .${prefix}-dst`)) node.classList.remove(`${prefix}-src`, `${prefix}-dst`);
  for (const node of table.querySelectorAll(`.${prefix}-why`)) node.remove();
}

export function highlight(entry, prefix, position = currentPosition()) {
  clearHighlights(prefix);
  if (!entry) return;
  if (entry.from === "stock") {
    table.querySelector(".stock")?.classList.add(`${prefix}-src`);
  } else {
    const cards = placesOf(position).get(entry.from) || [];
    const first = cards.length - (entry.count || 1);
    for (let i = first; i < cards.length; i++) elementAt(entry.from, i)?.classList.add(`${prefix}-src`);
    // What the move does ("uncovers the 7♣"), written beside the marked card (screen
    // readers hear it from the hint's message).
    const marked = entry.why && elementAt(entry.from, cards.length - 1);
    if (marked) {
      const label = el("span", { class: `${prefix}-why`, "aria-hidden": "true" }, entry.why);
      marked.append(label);
      // Measured where the card comes to rest, not on its way there.
      const moving = marked.getAnimations().filter((a) => a.effect?.getTiming().iterations !== Infinity); // not the hint's pulse
      if (moving.length) Promise.allSettled(moving.map((a) => a.finished)).then(() => label.isConnected && keepOnScreen(label));
      else keepOnScreen(label);
    }
  }
  for (const target of app.family.targetsFor(table, entry)) target.classList.add(`${prefix}-dst`);
}
