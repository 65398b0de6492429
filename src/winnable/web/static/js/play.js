// The game page: one page for every game. It reads the game id from /play/{game},
// keeps nothing but the server's state, and draws it with the renderer of the game's
// family. Every move goes to the server, which checks it with the rules.
//
// Playing: a tap (click, Enter) on a card picks it up and marks every place it may go;
// a tap on one of them puts it there; a tap elsewhere or Esc puts it back. Cards with a
// single place to go may go at once ("one-tap moves"); the hinted card plays the hinted
// move; dragging chooses the place directly.

import { api, ApiError } from "./api.js";
import { installSprite, cardName, cardSpan, rankLabel } from "./cards.js";
import { t, tn, parts, locale, localHref } from "./i18n.js";
import * as blackhole from "./blackhole.js";
import * as freecell from "./freecell.js";
import * as spider from "./spider.js";

const FAMILIES = { blackhole, freecell, spider };
const UNDO_LABELS = { unlimited: () => t("Unlimited undo"), one: () => t("One undo"), none: () => t("No undo") };
const coarse = window.matchMedia("(pointer: coarse)");
const reducedMotion = window.matchMedia("(prefers-reduced-motion: reduce)");
const $ = (id) => document.getElementById(id);
const TOUCH_MIN = 44; // CSS px: the smallest thing a finger is asked to hit

const gameName = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");
const store = {
  get: (key, fallback = null) => {
    try {
      const value = localStorage.getItem(key);
      return value === null ? fallback : value;
    } catch {
      return fallback;
    }
  },
  set: (key, value) => {
    try {
      if (value === null) localStorage.removeItem(key);
      else localStorage.setItem(key, value);
    } catch {
      /* private mode: nothing is remembered */
    }
  },
};
const KEY_GAME = `winnable:game:${gameName}`;
const KEY_UNDO = `winnable:undo:${gameName}`;
const KEY_WINNABLE = "winnable:winnable-deals";
const KEY_WATCH = "winnable:watch";
const KEY_SAFE = "winnable:safe-home";
const KEY_GAMES = "winnable:games"; // this browser's games, newest first (shared with the lobby)
const keyOneTap = (family) => `winnable:onetap:${family}`;

const app = {
  info: null, // the catalog entry
  state: null, // the server's game state
  family: null,
  receivedAt: 0,
  queue: Promise.resolve(),
  focus: null, // {place, index} of the keyboard focus
  focusRect: null,
  keyboard: false, // the last action came from the keyboard
  hint: null, // the hinted click_choices entry
  selection: null, // the card picked up: {place, index, count, group, entries, targets}
  review: null, // "where did I lose?" replay
  watchToken: 0,
  shownOverlayFor: null,
  dragRects: null,
  playSize: null, // the table's size in play, kept while reviewing
  finishing: false,
};

const table = $("table");

// ------------------------------------------------------------------ helpers

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "class") node.className = value;
    else if (key === "onclick") node.addEventListener("click", value);
    else if (value !== null && value !== undefined && value !== false) node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

function formatTime(seconds) {
  seconds = Math.max(0, Math.floor(seconds));
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = String(seconds % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`;
}

function placesOf(position) {
  return app.family.places(position);
}

/** A move as a sentence with the cards drawn in colour: "Move 4♠ to a free cell." */
function sentenceOf(entry, position = currentPosition()) {
  if (!entry) return [];
  const [text, params] = app.family.sentence(entry, position);
  return parts(text, params);
}

/** The same sentence as plain text, for screen readers. */
function plainSentence(entry, position) {
  return sentenceOf(entry, position)
    .map((part) => (part instanceof Node ? (part.dataset && part.dataset.name) || part.textContent : part))
    .join("");
}

function settings() {
  return {
    oneTap: store.get(keyOneTap(app.info?.family || "blackhole"), app.info?.family === "blackhole" ? "1" : "0") === "1",
    safe: store.get(KEY_SAFE, "1") === "1" && hasSafeMoves(),
  };
}

function hasSafeMoves() {
  return (app.state?.family || app.info?.family) === "freecell";
}

// ------------------------------------------------------------------ messages

let messageTimer = null;

function say(content, { kind = "info", sticky = false } = {}) {
  const box = $("message");
  box.replaceChildren(...(Array.isArray(content) ? content : [content]).map((c) => (c instanceof Node ? c : document.createTextNode(c))));
  box.className = `message ${kind}`;
  box.hidden = false;
  clearTimeout(messageTimer);
  if (!sticky) messageTimer = setTimeout(() => (box.hidden = true), kind === "error" ? 5000 : 3500);
}

function hush() {
  clearTimeout(messageTimer);
  $("message").hidden = true;
}

/** A polite sentence for screen readers (moves, picks, undo). */
function announce(text) {
  const box = $("announce");
  box.textContent = "";
  requestAnimationFrame(() => (box.textContent = text));
}

function report(error) {
  if (error instanceof ApiError) say(error.detail, { kind: "error" });
  else {
    console.error(error);
    say(t("Something went wrong in the page. Reload it to go on."), { kind: "error" });
  }
}

function enqueue(task) {
  app.queue = app.queue.then(task).catch(report);
  return app.queue;
}

function busy(flag) {
  document.body.dataset.busy = flag ? "1" : "0";
}

// ------------------------------------------------------------------ drawing

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
  const size = { width: Math.max(200, Math.min(width, 1180)), height, minCw: coarse.matches ? TOUCH_MIN : 30, viewport: `${innerWidth}x${innerHeight}` };
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

function currentPosition() {
  return app.review ? app.review.position : app.state.position;
}

function currentLegal() {
  if (app.review || app.finishing) return [];
  return app.state.status === "playing" ? app.state.legal : [];
}

/** The click_choices entries that move the card at place/index with the cards on it. */
function entriesFor(place, index, legal = currentLegal(), position = currentPosition()) {
  if (place === "stock") return legal.filter((e) => e.from === "stock");
  const cards = placesOf(position).get(place);
  if (!cards) return [];
  const count = cards.length - index;
  return legal.filter((e) => e.from === place && e.count === count);
}

let lastStock = null;

function draw({ animate = true } = {}) {
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
  if (app.review) highlightReview();
  if (app.selection && !app.review) showSelection(app.selection);
  restoreFocus();
}

function markPlayable() {
  const legal = currentLegal();
  const position = currentPosition();
  const placeCards = placesOf(position);
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
      const cards = placeCards.get(place);
      if (cards) {
        const count = cards.length - Number(node.dataset.index);
        playable = legal.some((e) => e.from === place && e.count === count);
      }
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

function elementAt(place, index) {
  return table.querySelector(`[data-place="${place}"][data-index="${index}"]`);
}

function focusables() {
  if (app.selection) return app.selection.targets.map((target) => target.node).concat(app.selection.lead ? [app.selection.lead] : []);
  return [...table.querySelectorAll(".playable")];
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

function focusCard(node) {
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

function anchor(node) {
  const rect = node.getBoundingClientRect();
  return { x: rect.left + rect.width / 2, y: rect.top + Math.min(rect.height, rect.width * 0.5) / 2 };
}

function nearest(nodes, point) {
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

function clearHighlights(prefix) {
  for (const node of table.querySelectorAll(`.${prefix}-src, .${prefix}-dst`)) node.classList.remove(`${prefix}-src`, `${prefix}-dst`);
}

function highlight(entry, prefix, position = currentPosition()) {
  clearHighlights(prefix);
  if (!entry) return;
  if (entry.from === "stock") {
    table.querySelector(".stock")?.classList.add(`${prefix}-src`);
  } else {
    const cards = placesOf(position).get(entry.from) || [];
    const first = cards.length - (entry.count || 1);
    for (let i = first; i < cards.length; i++) elementAt(entry.from, i)?.classList.add(`${prefix}-src`);
  }
  for (const target of app.family.targetsFor(table, entry)) target.classList.add(`${prefix}-dst`);
}

// ------------------------------------------------------------------ picking a card up

/** The destinations of `entries`, one element each (free cells: every empty one), best
 * first; a place several entries go to (an empty column) takes the longest run. */
function targetsOf(entries) {
  const targets = [];
  for (const entry of entries) {
    for (const node of app.family.targetsFor(table, entry)) {
      const known = targets.find((target) => target.node === node);
      if (!known) targets.push({ node, entry });
      else if (entry.count > known.entry.count) known.entry = entry;
    }
  }
  return targets;
}

/** Distinct places to go, free cells counted once. */
function destinations(entries) {
  return new Set(entries.map((e) => (e.to.startsWith("cell:") ? "cell" : e.to))).size;
}

function select(selection) {
  clearSelection(false);
  app.selection = selection;
  showSelection(selection);
  const first = selection.entries[0];
  const count = selection.targets.length;
  const name = first.card ? cardName(first.card) : "";
  announce(tn("{card} picked up: {n} place to go. Choose it, or press Escape.", "{card} picked up: {n} places to go. Choose one, or press Escape.", count, { card: name, n: count }));
  if (app.keyboard && selection.targets.length) {
    selection.focus = 0;
    focusCard(selection.targets[0].node);
  }
}

function showSelection(selection) {
  for (const node of table.querySelectorAll(".selected, .target")) {
    node.classList.remove("selected", "target");
    if (node.dataset.drop) {
      node.removeAttribute("role");
      node.removeAttribute("aria-label");
      node.removeAttribute("tabindex");
    }
  }
  const cards = placesOf(currentPosition()).get(selection.place) || [];
  const first = cards.length - selection.count;
  for (let i = first; i < cards.length; i++) elementAt(selection.place, i)?.classList.add("selected");
  selection.lead = elementAt(selection.place, first);
  selection.targets = targetsOf(selection.entries);
  for (const { node } of selection.targets) {
    node.classList.add("target");
    node.setAttribute("role", "button");
    node.setAttribute("aria-label", t("Put it here: {place}", { place: app.family.targetName(node) }));
    node.tabIndex = -1;
  }
  document.body.dataset.selected = selection.place;
}

function clearSelection(refocus = true) {
  const had = app.selection;
  app.selection = null;
  delete document.body.dataset.selected;
  for (const node of table.querySelectorAll(".selected, .target")) {
    node.classList.remove("selected", "target", "kfocus");
    if (node.dataset.drop) {
      node.removeAttribute("role");
      node.removeAttribute("aria-label");
      node.removeAttribute("tabindex");
    }
  }
  if (had && refocus && app.keyboard) {
    const lead = elementAt(had.place, had.index);
    if (lead && lead.classList.contains("playable")) focusCard(lead);
  }
}

/** How a tap on `node` picks cards up: the card itself, or (touch, thin strips) the run. */
function pickFrom(node, { keyboard = false } = {}) {
  const place = node.dataset.place;
  const position = currentPosition();
  const cards = placesOf(position).get(place) || [];
  const index = Number(node.dataset.index);
  const legal = currentLegal();
  const grouped = !keyboard && place.startsWith("column:") && (node.classList.contains("in-run") || !node.classList.contains("playable"));
  if (grouped && coarse.matches) {
    const counts = [...new Set(legal.filter((e) => e.from === place).map((e) => e.count))].sort((a, b) => b - a);
    if (counts.length) {
      const count = counts[0];
      return { place, index: cards.length - count, count, group: true, counts, entries: legal.filter((e) => e.from === place && e.count <= count) };
    }
  }
  const count = cards.length - index;
  return { place, index, count, group: false, counts: [count], entries: entriesFor(place, index, legal, position) };
}

/** A tap, click, Enter or Space on a card (or the stock). */
function activate(node, { keyboard = false } = {}) {
  if (!app.state || app.review || app.finishing) return;
  const place = node.dataset.place;
  if (place === "stock") {
    clearSelection(false);
    const entries = entriesFor("stock", 0);
    if (entries.length) play(entries[0], node);
    else refuse(place, 0, node);
    return;
  }
  // Tapping what is picked up: a run gives back its deepest card, else it is put back.
  if (app.selection && app.selection.place === place) {
    const current = app.selection;
    const index = Number(node.dataset.index);
    if (current.group && !keyboard) {
      const smaller = current.counts.filter((c) => c < current.count);
      if (smaller.length) {
        const count = smaller[0];
        const cards = placesOf(currentPosition()).get(place) || [];
        select({ ...current, count, index: cards.length - count, entries: current.entries.filter((e) => e.count <= count) });
        return;
      }
    }
    if (current.group || index === current.index) {
      clearSelection();
      announce(t("Put back."));
      return;
    }
  }
  const pick = pickFrom(node, { keyboard });
  const hinted = app.hint && app.hint.from === place && pick.entries.some((e) => e.move === app.hint.move);
  if (hinted) {
    clearSelection(false);
    play(app.hint, node);
    return;
  }
  if (!pick.entries.length) {
    clearSelection(false);
    refuse(place, Number(node.dataset.index), node);
    return;
  }
  if (settings().oneTap && destinations(pick.entries) === 1) {
    clearSelection(false);
    const entry = pick.entries.reduce((best, e) => (e.count > best.count ? e : best), pick.entries[0]);
    play(entry, node);
    return;
  }
  select(pick);
}

/** A tap on a destination while a card is picked up. */
function placeAt(dropNode) {
  const target = app.selection && app.selection.targets.find((candidate) => candidate.node === dropNode);
  if (!target) return false;
  const entry = target.entry;
  clearSelection(false);
  play(entry, null);
  return true;
}

// ------------------------------------------------------------------ state

function updateChrome() {
  const state = app.state;
  const position = state.position;
  document.body.dataset.status = state.status;
  document.body.dataset.moves = String(state.move_count);
  document.body.dataset.gameId = state.id;
  // A Daily has no deal number (a secret deck order): no link to its deal.
  document.body.dataset.deal = state.deal === null ? "" : String(state.deal);
  const deal = $("deal-link");
  deal.hidden = state.deal === null;
  deal.textContent = state.deal === null ? "" : t("Deal #{n}", { n: state.deal });
  deal.href = state.deal === null ? gameAddress(state) : dealAddress(state.deal);
  if (state.winnable_deal && state.deal !== null) deal.append(el("span", { class: "proved", title: t("The solver proved this deal winnable"), "aria-label": t("proved winnable") }, "\u2713"));
  $("moves").textContent = String(state.move_count);
  $("moves-word").textContent = tn("move", "moves", state.move_count);
  const undo = $("undo");
  const left = state.undo_left;
  undo.disabled = state.undo === "none" || left === 0 || state.move_count === 0 || (state.status !== "playing" && state.status !== "lost");
  undo.title = state.undo === "none" ? t("This game is played without undo") : left === 0 ? t("Your undo is used up") : t("Take back the last move (U)");
  const count = $("undo-left");
  count.hidden = left === null || left === undefined || state.undo === "none";
  count.textContent = count.hidden ? "" : String(left);
  $("hint").disabled = state.status !== "playing";
  $("restart").disabled = state.move_count === 0 && state.status === "playing";
  $("finish").hidden = !(state.status === "playing" && state.finish && state.finish.length) || !!app.review;
  const score = $("score");
  const scoreText = scoreLine(state);
  score.hidden = !scoreText;
  score.textContent = scoreText || "";
  score.title = t("Cards on the foundations");
  const base = $("base");
  const rank = position.base_rank;
  base.hidden = !rank || rank === "A";
  base.textContent = base.hidden ? "" : t("Foundations from {rank}", { rank: rankLabel(rank) });
  tick();
  if (state.status === "won") setBadge("won", t("Won"));
}

function scoreLine(state) {
  if (state.family !== "freecell") return "";
  const s = state.score || {};
  const onFoundations = s.partial ?? state.position.score;
  if (onFoundations === undefined || onFoundations === null) return "";
  return t("Score {n}/{total}", { n: onFoundations, total: s.out_of ?? 52 });
}

function tick() {
  const state = app.state;
  if (!state) return;
  let seconds = state.elapsed_seconds || 0;
  if (state.status === "playing" && state.started_at) seconds += (performance.now() - app.receivedAt) / 1000;
  $("timer").textContent = formatTime(seconds);
}

/** The address of a deal (kept in the address bar: reloading or sharing it gives the same cards). */
function dealAddress(deal) {
  const params = new URLSearchParams();
  params.set("deal", String(deal));
  return localHref(`/play/${encodeURIComponent(gameName)}?${params}`);
}

/** The address of a stored game (a Daily's: it has no deal number to name). */
function gameAddress(state) {
  return localHref(`/play/${encodeURIComponent(state.game)}?id=${encodeURIComponent(state.id)}`);
}

function rememberGame(state) {
  store.set(KEY_GAME, state.id);
  let games = [];
  try {
    games = JSON.parse(store.get(KEY_GAMES, "[]"));
    if (!Array.isArray(games)) games = [];
  } catch {
    games = [];
  }
  games = [{ id: state.id, game: state.game, deal: state.deal }, ...games.filter((g) => g && g.id !== state.id)].slice(0, 60);
  store.set(KEY_GAMES, JSON.stringify(games));
}

function setState(state, { animate = true } = {}) {
  const previous = app.state;
  app.state = state;
  app.receivedAt = performance.now();
  app.family = FAMILIES[state.family] || FAMILIES[app.info?.family] || blackhole;
  if (!previous || previous.id !== state.id) rememberGame(state);
  if (!previous || previous.id !== state.id || previous.deal !== state.deal) history.replaceState(null, "", state.deal === null ? gameAddress(state) : dealAddress(state.deal));
  const changed = !previous || previous.id !== state.id || previous.move_count !== state.move_count || previous.status !== state.status;
  if (changed) {
    app.hint = null;
    clearHighlights("hint");
    if ($("message").classList.contains("hint")) hush();
    app.selection = null;
    delete document.body.dataset.selected;
  }
  if (previous && previous.id !== state.id) {
    app.shownOverlayFor = null;
    endReview(false);
  }
  $("undo-mode").value = state.undo;
  updateChrome();
  draw({ animate: animate && previous && previous.id === state.id });
  document.body.dataset.ready = "1";
  const key = `${state.id}:${state.status}:${state.move_count}`;
  if (state.status === "won" && app.shownOverlayFor !== key) {
    app.shownOverlayFor = key;
    setTimeout(showWin, app.finishing ? 500 : 250);
  } else if (state.status === "lost" && app.shownOverlayFor !== key && !app.review) {
    app.shownOverlayFor = key;
    setTimeout(showLost, 250);
  } else if (state.status === "playing" && !$("overlay").classList.contains("ask")) {
    closeOverlay();
  }
  if (app.watching) checkWinnable();
  if (!app.finishing && settings().safe && state.status === "playing" && state.safe && state.safe.length) {
    // Safe moves waiting (a new deal, or the setting just switched on): play them now.
    enqueue(() => sendMove(state.safe[0]));
  }
  // Hook for the players' module (Daily, timed play): it reads every new state.
  document.dispatchEvent(new CustomEvent("winnable:state", { detail: state }));
}

// ------------------------------------------------------------------ actions

function midGame() {
  return app.state && app.state.status === "playing" && app.state.move_count > 0;
}

/** New deal: in the middle of a game, ask first (the game stays in "Your games"). */
function askNewGame(options = {}) {
  if (!midGame()) return newGame(options).catch(report);
  openOverlay({
    title: t("Start a new deal?"),
    kind: "ask",
    body: [el("p", {}, t("This game stays in Your games: you can come back to it from the menu."))],
    buttons: [
      button(t("New deal"), () => newGame(options).catch(report), { primary: true, id: "confirm-new" }),
      button(t("Keep playing"), closeOverlay, { id: "keep-playing" }),
    ],
  });
}

async function newGame({ deal = null } = {}) {
  hush();
  closeOverlay();
  const undo = $("undo-mode").value || store.get(KEY_UNDO) || "unlimited";
  const winnable = deal === null && $("winnable-toggle").checked;
  busy(true);
  $("new-deal").disabled = true;
  const slow = setTimeout(() => say(winnable ? t("Finding a deal the solver has proved winnable\u2026") : t("Dealing\u2026"), { sticky: true }), 400);
  try {
    let state;
    try {
      // Hook: other modules add options of the next game (timed play's seconds a move).
      const extra = {};
      document.dispatchEvent(new CustomEvent("winnable:new-game", { detail: { game: gameName, options: extra } }));
      state = await api.create(gameName, { deal, winnable, undo, ...extra });
    } catch (error) {
      if (!winnable || !(error instanceof ApiError) || error.status === 0) throw error;
      state = await api.create(gameName, { undo });
      say(t("{reason} This deal was picked at random.", { reason: error.detail }), { kind: "info" });
    }
    clearTimeout(slow);
    if ($("message").textContent.endsWith("\u2026")) hush();
    setState(state, { animate: false });
  } finally {
    clearTimeout(slow);
    $("new-deal").disabled = false;
    busy(false);
  }
}

async function loadGame(id) {
  const state = await api.get(id);
  if (state.game !== gameName) throw new ApiError(404, t("That game belongs to another table."));
  setState(state, { animate: false });
}

async function sendMove(move, { auto = settings().safe } = {}) {
  busy(true);
  try {
    setState(await api.move(app.state.id, move, auto));
  } catch (error) {
    if (error instanceof ApiError && error.status === 409) {
      say(error.detail, { kind: "error" });
      setState(await api.get(app.state.id));
    } else throw error;
  } finally {
    busy(false);
  }
}

/** Play one described move and say what happened. */
function play(entry, node) {
  enqueue(async () => {
    if (app.review || !app.state) return;
    const still = currentLegal().find((e) => e.move === entry.move);
    if (!still) {
      if (node) refuse(entry.from, 0, node);
      return;
    }
    const position = app.state.position;
    const before = app.state.move_count;
    const spoken = plainSentence(still, position);
    await sendMove(still.move);
    if (app.state.move_count > before) {
      const auto = app.state.move_count - before - 1;
      const more = tn("{n} more card went home by itself.", "{n} more cards went home by themselves.", auto, { n: auto });
      announce(auto > 0 ? `${spoken} ${more}` : spoken);
    }
  });
}

function refuse(place, index, node) {
  const state = app.state;
  if (state.status !== "playing") return;
  if (place.startsWith("foundation") || place === "runs") return; // cards that are home stay home
  node = node && node.isConnected ? node : elementAt(place, index);
  if (node) {
    node.classList.remove("shake");
    void node.offsetWidth;
    node.classList.add("shake");
  }
  const position = state.position;
  if (place === "stock") {
    say(position.stock > 0 ? t("Fill every empty column before dealing the stock.") : t("The stock is empty."));
    return;
  }
  const cards = placesOf(position).get(place) || [];
  const code = cards[index];
  if (!code) return;
  if (state.family === "blackhole") {
    if (index < cards.length - 1) say(t("Only the top card of a pile can move."));
    else {
      const top = position.foundation[position.foundation.length - 1];
      say(parts(t("{card} can't go on {top}: it must be one rank above or below (suits don't matter, K-A-2 wraps)."), { card: cardSpan(code), top: cardSpan(top) }));
    }
  } else if (index < cards.length - 1) {
    say(parts(t("{card} can't move with the cards on it now."), { card: cardSpan(code) }));
  } else {
    say(parts(t("{card} has nowhere to go right now."), { card: cardSpan(code) }));
  }
}

function undo() {
  if (!app.state || $("undo").disabled || app.review || app.finishing) return;
  clearSelection(false);
  enqueue(async () => {
    busy(true);
    try {
      setState(await api.undo(app.state.id, settings().safe));
      announce(t("Move taken back."));
    } finally {
      busy(false);
    }
  });
}

function restart() {
  if (!app.state) return;
  endReview(false);
  clearSelection(false);
  enqueue(async () => {
    busy(true);
    try {
      setState(await api.restart(app.state.id));
      say(t("The deal starts again."));
    } finally {
      busy(false);
    }
  });
}

/** Play the rest of the game home, one card after the other. */
function finish() {
  const state = app.state;
  if (!state || state.status !== "playing" || !state.finish || !state.finish.length || app.review || app.finishing) return;
  clearSelection(false);
  enqueue(async () => {
    app.finishing = true;
    document.body.classList.add("finishing");
    try {
      for (const move of app.state.finish || []) {
        if (app.state.status !== "playing") break;
        await sendMove(move, { auto: false });
        if (!reducedMotion.matches) await new Promise((resolve) => setTimeout(resolve, 120));
      }
      announce(t("Every card is home."));
    } finally {
      app.finishing = false;
      document.body.classList.remove("finishing");
      updateChrome();
    }
  });
}

async function hint() {
  if (!app.state || app.state.status !== "playing" || app.review || app.finishing) return;
  clearSelection(false);
  const asked = app.state;
  say(t("Looking for a winning line\u2026"), { sticky: true, kind: "hint" });
  let answer;
  try {
    answer = await api.hint(asked.id);
  } catch (error) {
    report(error);
    return;
  }
  if (app.state !== asked) return; // a move was played meanwhile
  const hidden = answer.knows_hidden ? [el("br"), el("small", {}, t("The hint knows the face-down cards, which you cannot see."))] : [];
  if (answer.move) {
    const entry = app.state.legal.find((e) => e.move === answer.move) || answer.describe;
    app.hint = entry || null;
    document.body.dataset.hint = entry ? entry.move : "";
    highlight(app.hint, "hint");
    const away = answer.line_length ? [el("br"), el("small", {}, tn("A win is {n} move away.", "A win is {n} moves away.", answer.line_length, { n: answer.line_length }))] : [];
    const tap = entry && entry.from !== "stock" ? [el("br"), el("small", {}, t("Tap the marked card to play it."))] : [];
    say([el("b", {}, t("Hint:")), " ", ...(entry ? sentenceOf(entry) : [answer.move]), ...away, ...tap, ...hidden], { sticky: true, kind: "hint" });
    const label = t("Hint:");
    if (entry) announce(`${label} ${plainSentence(entry, app.state.position)}`);
    if (entry && entry.from) {
      const cards = placesOf(app.state.position).get(entry.from) || [];
      const node = entry.from === "stock" ? table.querySelector(".stock") : elementAt(entry.from, cards.length - (entry.count || 1));
      if (node && app.keyboard) focusCard(node);
    }
  } else {
    const text = answer.message || (answer.verdict === "lost" ? t("No winning line from here.") : t("The solver could not decide in time."));
    say([el("b", {}, text), ...hidden], { sticky: true, kind: answer.verdict === "lost" ? "bad hint" : "hint" });
  }
}

// ------------------------------------------------------------------ "still winnable?"

function setBadge(kind, text) {
  const badge = $("watch-badge");
  badge.hidden = !text;
  badge.className = `badge ${kind}`;
  badge.textContent = text;
  badge.dataset.verdict = kind;
  // "Not winnable any more" opens the replay of the move that lost it.
  const clickable = kind === "lost" && app.state && app.state.status !== "won";
  badge.classList.toggle("clickable", clickable);
  badge.disabled = !clickable;
  badge.title = clickable ? t("Show the move that lost it") : "";
}

function reviewFromBadge() {
  if (!$("watch-badge").classList.contains("clickable") || app.review) return;
  openOverlay({ title: t("Where did I lose?"), kind: "lost", art: "stuck" });
  whereDidILose();
}

let watchTimer = null;

/** Ask the solver about the current position, once the player pauses for a moment. */
function checkWinnable() {
  const state = app.state;
  if (!state) return;
  if (state.status === "won") return setBadge("won", t("Won"));
  const token = ++app.watchToken;
  setBadge("pending", t("Checking\u2026"));
  clearTimeout(watchTimer);
  watchTimer = setTimeout(() => askWinnable(state, token), 250);
}

async function askWinnable(state, token) {
  if (token !== app.watchToken) return;
  try {
    const answer = await api.analysis(state.id);
    if (token !== app.watchToken) return;
    if (answer.verdict === "won") setBadge("won", t("Still winnable"));
    else if (answer.verdict === "lost") setBadge("lost", t("Not winnable any more"));
    else setBadge("unknown", t("Too hard to tell"));
  } catch (error) {
    if (token === app.watchToken) setBadge("unknown", t("No answer"));
  }
}

function setWatching(on) {
  app.watching = on;
  store.set(KEY_WATCH, on ? "1" : "0");
  if (on) checkWinnable();
  else {
    app.watchToken++;
    setBadge("", "");
  }
}

// ------------------------------------------------------------------ overlays

function openOverlay({ title, body = [], buttons = [], art = "", kind = "" }) {
  try {
    if ($("menu").matches(":popover-open")) $("menu").hidePopover();
  } catch {
    /* no popover support: the menu is a plain block */
  }
  $("overlay-title").textContent = title;
  $("overlay-body").replaceChildren(...body);
  $("overlay-buttons").replaceChildren(...buttons);
  $("overlay-art").className = `overlay-art ${art}`;
  const overlay = $("overlay");
  overlay.className = `overlay ${kind}`;
  overlay.hidden = false;
  document.body.dataset.overlay = kind;
  const first = overlay.querySelector("button.primary") || overlay.querySelector("button");
  if (first) first.focus();
}

function closeOverlay() {
  $("overlay").hidden = true;
  $("overlay").classList.remove("ask");
  document.body.dataset.overlay = "";
}

function button(label, onclick, { primary = false, id = null } = {}) {
  return el("button", { class: `btn${primary ? " primary" : ""}`, type: "button", id, onclick }, label);
}

function showWin() {
  const state = app.state;
  if (state.status !== "won") return;
  const words = { deal: state.deal, game: app.info.title || state.title, time: formatTime(state.elapsed_seconds || 0), n: state.move_count };
  const body = [
    el("p", {}, state.deal === null
      ? tn("{game}, won in {time} and {n} move.", "{game}, won in {time} and {n} moves.", state.move_count, words)
      : tn("Deal #{deal} of {game}, won in {time} and {n} move.", "Deal #{deal} of {game}, won in {time} and {n} moves.", state.move_count, words)),
  ];
  const score = scoreLine(state);
  if (score) body.push(el("p", { class: "muted" }, score));
  openOverlay({
    title: t("You won!"),
    kind: "win",
    art: "stars",
    body,
    buttons: [
      button(t("New deal"), () => newGame().catch(report), { primary: true, id: "win-new" }),
      ...(state.deal === null ? [] : [button(t("Play this deal again"), () => newGame({ deal: state.deal }).catch(report))]),
      button(t("Look at the table"), closeOverlay),
    ],
  });
}

function showLost() {
  const state = app.state;
  if (state.status !== "lost") return;
  const left = state.position.cards_left;
  const buttons = [button(t("Where did I lose?"), whereDidILose, { primary: true, id: "where-lost" })];
  if (state.undo !== "none" && state.undo_left !== 0) buttons.push(button(t("Undo"), () => (closeOverlay(), undo())));
  buttons.push(
    button(t("Restart"), () => (closeOverlay(), restart())),
    button(t("New deal"), () => newGame().catch(report)),
    button(t("Look at the table"), closeOverlay),
  );
  openOverlay({
    title: t("No moves left"),
    kind: "lost",
    art: "stuck",
    body: [
      el("p", {}, tn("No card can move: {n} card left on the table.", "No card can move: {n} cards left on the table.", left, { n: left })),
      scoreLine(state) ? el("p", {}, `${scoreLine(state)} \u00b7 ${formatTime(state.elapsed_seconds || 0)} \u00b7 ${movesText(state.move_count)}`) : null,
      el("p", { class: "muted" }, t("The solver can show you the move that lost the game.")),
    ].filter(Boolean),
    buttons,
  });
}

async function whereDidILose() {
  const state = app.state;
  $("overlay-body").replaceChildren(el("p", { class: "thinking" }, t("Asking the solver\u2026")));
  $("overlay-buttons").replaceChildren();
  let analysis;
  try {
    analysis = await api.analysis(state.id);
  } catch (error) {
    $("overlay-body").replaceChildren(el("p", {}, error.detail || t("The solver did not answer.")));
    $("overlay-buttons").replaceChildren(button(t("New deal"), () => newGame().catch(report), { primary: true }), button(t("Close"), closeOverlay));
    return;
  }
  if (app.state !== state) return;
  const found = analysis.lost_at !== null && analysis.lost_at !== undefined;
  if (found || (analysis.between && analysis.between.length === 2)) {
    closeOverlay();
    await startReview(analysis);
    return;
  }
  const text =
    analysis.winnable === false
      ? t("This deal had no winning line even before your first move: nobody could have won it. Switch on \u201cDeal only winnable deals\u201d in the menu to get only deals the solver has proved.")
      : analysis.message || t("The solver could not settle it within its time budget.");
  $("overlay-body").replaceChildren(el("p", {}, text));
  $("overlay-buttons").replaceChildren(button(t("New deal"), () => newGame().catch(report), { primary: true }), button(t("Restart"), () => (closeOverlay(), restart())), button(t("Close"), closeOverlay));
}

// ------------------------------------------------------------------ your games

function rememberedGames() {
  try {
    const games = JSON.parse(store.get(KEY_GAMES, "[]"));
    return Array.isArray(games) ? games.filter((g) => g && typeof g.id === "string") : [];
  } catch {
    return [];
  }
}

function when(iso) {
  if (!iso) return "";
  const seconds = (Date.parse(iso) - Date.now()) / 1000;
  const format = new Intl.RelativeTimeFormat(locale, { numeric: "auto" });
  for (const [unit, size] of [["day", 86400], ["hour", 3600], ["minute", 60]]) {
    if (Math.abs(seconds) >= size) return format.format(Math.round(seconds / size), unit);
  }
  return format.format(0, "second"); // "now", "maintenant", "nu" (CLDR's Dutch "this minute" reads as the future)
}

const STATUS_WORDS = { playing: () => t("in play"), won: () => t("won"), lost: () => t("lost") };
// Translated outside template literals: `pybabel extract` does not look inside ${...}.
const movesText = (n) => tn("{n} move", "{n} moves", n, { n });

async function showYourGames() {
  openOverlay({ title: t("Your games"), kind: "yours", body: [el("p", { class: "thinking" }, t("Loading\u2026"))], buttons: [button(t("Close"), closeOverlay, { id: "yours-close" })] });
  const ids = rememberedGames().map((g) => g.id);
  let games = [];
  try {
    games = ids.length ? (await api.summaries(ids)).games : [];
  } catch (error) {
    $("overlay-body").replaceChildren(el("p", {}, error.detail || t("The server cannot be reached.")));
    return;
  }
  if (!games.length) {
    $("overlay-body").replaceChildren(el("p", {}, t("No games yet in this browser.")));
    return;
  }
  games.sort((a, b) => (a.status === "playing") - (b.status === "playing") || 0).reverse();
  const thisGame = t("this game");
  const list = el(
    "ul",
    { class: "your-games" },
    games.map((game) => {
      const current = app.state && game.id === app.state.id;
      return el(
        "li",
        { "data-id": game.id, class: `your-game ${game.status}` },
        el(
          "a",
          { class: "your-game-link", href: localHref(game.links.resume), "aria-current": current ? "true" : null },
          el("b", {}, game.title),
          " ",
          game.deal === null ? t("Daily") : t("Deal #{n}", { n: game.deal }),
          el("small", {}, `${movesText(game.moves)} \u00b7 ${(STATUS_WORDS[game.status] || STATUS_WORDS.playing)()} \u00b7 ${when(game.updated_at)}${current ? ` \u00b7 ${thisGame}` : ""}`),
        ),
      );
    }),
  );
  $("overlay-body").replaceChildren(list);
}

// ------------------------------------------------------------------ "where did I lose?" replay

async function startReview(analysis) {
  const k = analysis.lost_at ?? null;
  const start = k ?? analysis.between[0];
  clearSelection(false);
  app.review = { analysis, k, at: start, start, position: app.state.position, legal: [] };
  $("review").hidden = false;
  $("review-try").hidden = app.state.deal === null; // a Daily's cards open as no other game
  $("review-lost").textContent = k === null ? t("First suspect") : t("Losing move");
  document.body.classList.add("in-review");
  $("finish").hidden = true;
  await showReviewAt(start);
}

async function showReviewAt(at) {
  const review = app.review;
  if (!review) return;
  const total = app.state.moves.length;
  at = Math.max(0, Math.min(total, at));
  const asked = (review.asked = (review.asked || 0) + 1); // only the latest step is shown
  review.target = at;
  let answer;
  try {
    answer = await api.positionAt(app.state.id, at);
  } catch (error) {
    report(error);
    return;
  }
  if (app.review !== review || review.asked !== asked) return;
  review.at = at;
  review.position = answer.position || answer;
  review.legal = answer.legal || [];
  describeReview();
  draw({ animate: true });
}

function reviewEntry(move) {
  return (app.review.legal || []).find((e) => e.move === move) || null;
}

function describeReview() {
  const review = app.review;
  const { k, at, analysis } = review;
  const total = app.state.moves.length;
  $("review-at").textContent = `${at} / ${total}`;
  $("review-prev").disabled = at <= 0;
  $("review-next").disabled = at >= total;
  const text = $("review-text");
  if (k === null) {
    const [low, high] = analysis.between;
    text.replaceChildren(
      el("b", {}, t("The game was lost between move {low} and move {high}.", { low: low + 1, high })),
      " ",
      t("The solver ran out of time before it could say which move lost it."),
      " ",
      t("Showing the table after move {n}.", { n: at }),
    );
  } else if (at === k) {
    const losing = reviewEntry(analysis.losing_move);
    const better = reviewEntry(analysis.better_move);
    const out = [el("b", {}, t("Move {n} lost the game.", { n: k + 1 })), " "];
    out.push(...parts(t("You played: {move} (red)"), { move: losing ? el("span", {}, ...sentenceOf(losing, review.position)) : analysis.losing_move || "?" }));
    if (analysis.better_move) {
      out.push(" ", ...parts(t("This would have kept a winning line: {move} (green)"), { move: better ? el("span", {}, ...sentenceOf(better, review.position)) : analysis.better_move }));
    }
    text.replaceChildren(...out);
  } else if (at < k) {
    text.replaceChildren(t("After move {n}: still winnable. Step on to the move that lost it.", { n: at }));
  } else {
    text.replaceChildren(t("After move {n}: no winning line any more.", { n: at }));
  }
}

function highlightReview() {
  const review = app.review;
  clearHighlights("lose");
  clearHighlights("better");
  if (review.at !== review.k) return;
  highlight(reviewEntry(review.analysis.losing_move), "lose", review.position);
  highlight(reviewEntry(review.analysis.better_move), "better", review.position);
}

let replaying = 0; // the running replay's number; 0 when none runs

function stopReplay() {
  replaying = 0;
  $("review-replay").textContent = t("Replay");
}

/** Play the game back from the deal: each step is drawn, then shown for a moment. */
async function replay() {
  if (replaying) return stopReplay();
  const run = (replaying = Date.now());
  $("review-replay").textContent = t("Stop");
  const total = app.state.moves.length;
  for (let at = 0; at <= total; at++) {
    if (replaying !== run || !app.review) return;
    await showReviewAt(at);
    await new Promise((resolve) => setTimeout(resolve, 700));
  }
  if (replaying === run) stopReplay();
}

function endReview(redraw = true) {
  stopReplay();
  if (!app.review) return;
  app.review = null;
  $("review").hidden = true;
  document.body.classList.remove("in-review");
  clearHighlights("lose");
  clearHighlights("better");
  if (app.state) updateChrome();
  if (redraw) draw({ animate: true });
}

async function playOnFromHere() {
  const review = app.review;
  if (!review) return;
  const state = app.state;
  const moves = state.moves.slice(0, review.at);
  endReview(false);
  busy(true);
  try {
    let fresh = await api.create(gameName, { deal: state.deal, undo: state.undo });
    for (const move of moves) fresh = await api.move(fresh.id, move, false);
    app.finishing = true; // no safe moves beyond the replayed ones
    setState(fresh, { animate: false });
    say(t("Deal #{deal} again, from move {n}.", { deal: state.deal, n: moves.length }));
  } catch (error) {
    report(error);
    draw({ animate: false });
  } finally {
    app.finishing = false;
    busy(false);
  }
}

// ------------------------------------------------------------------ pointer: tap and drag

let drag = null;
let suppressClick = false;

table.addEventListener("click", (event) => {
  if (suppressClick) return;
  if (!app.state) return;
  if (app.review) {
    if (event.target.closest("[data-place]")) say(t("You are looking back at this game. Close the replay to play on."));
    return;
  }
  app.keyboard = false;
  // With a card picked up, a tap on one of its places puts it there.
  const drop = event.target.closest("[data-drop]");
  if (app.selection && drop && table.contains(drop) && placeAt(drop)) return;
  const node = event.target.closest("[data-place]");
  if (node && table.contains(node) && node.dataset.place !== "runs" && !node.dataset.place.startsWith("foundation")) {
    activate(node);
    return;
  }
  // Anywhere else: put the card back.
  if (app.selection) {
    clearSelection();
    announce(t("Put back."));
  } else if (node) {
    refuse(node.dataset.place, Number(node.dataset.index), node);
  }
});

// A tap outside the table (not on a control) puts a picked-up card back.
document.addEventListener("click", (event) => {
  if (!app.selection || table.contains(event.target) || event.target.closest("button, a, input, select, label, .menu, .overlay")) return;
  clearSelection();
  announce(t("Put back."));
});

// A mouse or finger plays without moving the keyboard focus (and its ring) to the card.
table.addEventListener("mousedown", (event) => {
  if (event.target.closest("[data-place], [data-drop]")) event.preventDefault();
});

table.addEventListener("focusin", (event) => {
  const node = event.target.closest(".playable, .target");
  if (node && !node.classList.contains("kfocus")) {
    app.keyboard = true;
    focusCard(node);
  }
});

table.addEventListener("pointerdown", (event) => {
  if (event.button !== 0 || app.review || app.finishing) return;
  const node = event.target.closest(".card.playable[data-card]");
  if (!node) return;
  drag = { node, place: node.dataset.place, index: Number(node.dataset.index), x: event.clientX, y: event.clientY, id: event.pointerId, ghost: null };
});

window.addEventListener("pointermove", (event) => {
  if (!drag || event.pointerId !== drag.id) return;
  const dx = event.clientX - drag.x;
  const dy = event.clientY - drag.y;
  if (!drag.ghost) {
    if (Math.hypot(dx, dy) < 7) return;
    startDrag();
  }
  drag.ghost.style.translate = `${dx}px ${dy}px`;
  markDropTarget(event.clientX, event.clientY);
  event.preventDefault();
});

function runNodes(place, index) {
  return [...table.querySelectorAll(`[data-place="${place}"]`)].filter((n) => Number(n.dataset.index) >= index).sort((a, b) => a.dataset.index - b.dataset.index);
}

function startDrag() {
  clearSelection(false);
  const nodes = runNodes(drag.place, drag.index);
  const ghost = el("div", { class: "drag-ghost" });
  ghost.style.setProperty("--cw", getComputedStyle(drag.node).width);
  for (const node of nodes) {
    const rect = node.getBoundingClientRect();
    const copy = node.cloneNode(true);
    copy.classList.remove("playable", "kfocus", "hint-src", "flying", "selected");
    copy.style.left = `${rect.left}px`;
    copy.style.top = `${rect.top}px`;
    copy.style.width = `${rect.width}px`;
    copy.style.height = `${rect.height}px`;
    copy.style.transform = "";
    copy.style.translate = "";
    ghost.append(copy);
    node.classList.add("lifted");
  }
  document.body.append(ghost);
  drag.ghost = ghost;
  drag.nodes = nodes;
  drag.entries = entriesFor(drag.place, drag.index);
  drag.targets = drag.entries.map((entry) => [entry, app.family.targetsFor(table, entry)]);
  for (const [, targets] of drag.targets) targets.forEach((target) => target.classList.add("drop-ok"));
}

/** The entry whose destination lies under the pointer or overlaps the dragged card most. */
function dropChoice(current, x, y) {
  if (!current || !current.ghost) return null;
  const lead = current.ghost.firstElementChild.getBoundingClientRect();
  let best = null;
  let bestArea = 0;
  for (const [entry, targets] of current.targets) {
    for (const target of targets) {
      const r = target.getBoundingClientRect();
      // A column's drop area reaches down to its last card.
      const last = target.querySelector(".card:last-of-type");
      const bottom = last ? Math.max(r.bottom, last.getBoundingClientRect().bottom) : r.bottom;
      if (x >= r.left && x <= r.right && y >= r.top && y <= bottom) return [entry, target];
      const w = Math.min(lead.right, r.right) - Math.max(lead.left, r.left);
      const h = Math.min(lead.bottom, bottom) - Math.max(lead.top, r.top);
      const area = w > 0 && h > 0 ? w * h : 0;
      if (area > bestArea) {
        bestArea = area;
        best = [entry, target];
      }
    }
  }
  return bestArea > lead.width * lead.height * 0.15 ? best : null;
}

function markDropTarget(x, y) {
  for (const node of table.querySelectorAll(".drop-here")) node.classList.remove("drop-here");
  const choice = dropChoice(drag, x, y);
  if (choice) choice[1].classList.add("drop-here");
}

function endDrag(event, cancelled) {
  const current = drag;
  drag = null;
  if (!current || !current.ghost) return;
  suppressClick = true;
  setTimeout(() => (suppressClick = false), 0);
  for (const node of table.querySelectorAll(".drop-ok, .drop-here")) node.classList.remove("drop-ok", "drop-here");
  const choice = cancelled ? null : dropChoice(current, event.clientX, event.clientY);
  if (choice) {
    const [entry] = choice;
    const copies = [...current.ghost.children];
    app.dragRects = current.nodes.map((node, i) => ({ code: node.dataset.card, from: node.getBoundingClientRect(), to: copies[i].getBoundingClientRect() }));
    // The ghost stays where it was dropped until the server answers and the table is redrawn.
    enqueue(async () => {
      try {
        if (app.review) return;
        const still = entriesFor(current.place, current.index).find((e) => e.move === entry.move);
        if (still) {
          const spoken = plainSentence(still, app.state.position);
          await sendMove(still.move);
          announce(spoken);
        } else draw({ animate: true });
      } finally {
        app.dragRects = null;
        current.ghost.remove();
        current.nodes.forEach((n) => n.classList.remove("lifted"));
      }
    });
  } else {
    const ghost = current.ghost;
    ghost.classList.add("returning");
    ghost.style.translate = "0px 0px";
    const done = () => {
      ghost.remove();
      current.nodes.forEach((n) => n.classList.remove("lifted"));
    };
    ghost.addEventListener("transitionend", done, { once: true });
    setTimeout(done, 300);
  }
}

window.addEventListener("pointerup", (event) => {
  if (drag && event.pointerId === drag.id) {
    if (drag.ghost) endDrag(event, false);
    else drag = null;
  }
});
window.addEventListener("pointercancel", (event) => {
  if (drag && event.pointerId === drag.id) endDrag(event, true);
});

// ------------------------------------------------------------------ keyboard

const ARROWS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

function moveFocus([dx, dy]) {
  if (app.selection) {
    // Arrows go round the places the picked-up card may go.
    const targets = app.selection.targets;
    if (!targets.length) return;
    const step = dx + dy > 0 ? 1 : -1;
    app.selection.focus = ((app.selection.focus ?? -1) + step + targets.length) % targets.length;
    focusCard(targets[app.selection.focus].node);
    announce(app.family.targetName(targets[app.selection.focus].node));
    return;
  }
  const playable = [...table.querySelectorAll(".playable")];
  if (!playable.length) {
    say(app.state && app.state.status === "playing" ? t("No card can move.") : t("The game is over."));
    return;
  }
  const current = table.querySelector(".kfocus");
  if (!current || !current.classList.contains("playable")) {
    focusCard(nearest(playable, app.focusRect) || playable[0]);
    return;
  }
  const from = anchor(current);
  let best = null;
  let bestScore = Infinity;
  for (const node of playable) {
    if (node === current) continue;
    const a = anchor(node);
    const along = (a.x - from.x) * dx + (a.y - from.y) * dy;
    const across = Math.abs((a.x - from.x) * dy) + Math.abs((a.y - from.y) * dx);
    if (along <= 1) continue;
    const score = along + across * 2.5;
    if (score < bestScore) {
      bestScore = score;
      best = node;
    }
  }
  if (!best) {
    // Wrap around: the farthest card the other way along the same line.
    let far = -Infinity;
    for (const node of playable) {
      const a = anchor(node);
      const back = -((a.x - from.x) * dx + (a.y - from.y) * dy) - 2 * (Math.abs((a.x - from.x) * dy) + Math.abs((a.y - from.y) * dx));
      if (node !== current && back > far) {
        far = back;
        best = node;
      }
    }
  }
  if (best) focusCard(best);
}

document.addEventListener("keydown", (event) => {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  if (event.target.closest && event.target.closest("input, select, textarea, .menu")) return;
  if (event.key === "Escape") {
    if (!$("overlay").hidden) closeOverlay();
    else if (app.selection) {
      app.keyboard = app.keyboard || table.contains(document.activeElement);
      clearSelection();
      announce(t("Put back."));
    } else if (app.review) endReview();
    else {
      hush();
      app.hint = null;
      clearHighlights("hint");
    }
    return;
  }
  if (!$("overlay").hidden) return;
  if (ARROWS[event.key]) {
    event.preventDefault();
    app.keyboard = true;
    moveFocus(ARROWS[event.key]);
    return;
  }
  const focused = document.activeElement;
  const inTable = focused && table.contains(focused);
  if ((event.key === "Enter" || event.key === " ") && inTable) {
    event.preventDefault();
    app.keyboard = true;
    if (app.selection && focused.dataset.drop && placeAt(focused)) return;
    if (focused.dataset.place) activate(focused, { keyboard: true });
    return;
  }
  const key = event.key.toLowerCase();
  if (key === "u") {
    app.keyboard = app.keyboard || inTable;
    undo();
  } else if (key === "h") {
    app.keyboard = app.keyboard || !!inTable;
    hint();
  } else if (key === "f") {
    finish();
  }
});

// ------------------------------------------------------------------ wiring

function wire() {
  // Hook: another module asks for the server's state again (a timed move's time is up).
  document.addEventListener("winnable:refresh", () => enqueue(async () => app.state && setState(await api.get(app.state.id))));
  $("new-deal").addEventListener("click", () => askNewGame());
  $("restart").addEventListener("click", restart);
  $("undo").addEventListener("click", undo);
  $("hint").addEventListener("click", hint);
  $("finish").addEventListener("click", finish);
  $("yours-button").addEventListener("click", showYourGames);
  const winnable = $("winnable-toggle");
  winnable.checked = store.get(KEY_WINNABLE, "1") === "1";
  winnable.addEventListener("change", () => store.set(KEY_WINNABLE, winnable.checked ? "1" : "0"));
  $("watch-badge").addEventListener("click", reviewFromBadge);
  const watch = $("watch-toggle");
  watch.checked = store.get(KEY_WATCH, "0") === "1";
  app.watching = watch.checked;
  watch.addEventListener("change", () => setWatching(watch.checked));
  const safe = $("safe-toggle");
  safe.checked = store.get(KEY_SAFE, "1") === "1";
  safe.addEventListener("change", () => {
    store.set(KEY_SAFE, safe.checked ? "1" : "0");
    if (safe.checked && app.state && app.state.safe && app.state.safe.length && app.state.status === "playing" && !app.review) enqueue(() => sendMove(app.state.safe[0]));
  });
  const oneTap = $("onetap-toggle");
  oneTap.addEventListener("change", () => store.set(keyOneTap(app.info.family), oneTap.checked ? "1" : "0"));
  $("undo-mode").addEventListener("change", (event) => {
    const mode = event.target.value;
    store.set(KEY_UNDO, mode);
    if (app.state && app.state.move_count === 0 && app.state.undo !== mode && app.state.deal !== null) {
      newGame({ deal: app.state.deal }).catch(report);
    } else if (app.state && app.state.undo !== mode) {
      say(t("{mode} starts with your next deal.", { mode: (UNDO_LABELS[mode] || (() => mode))() }));
    }
  });
  $("review-prev").addEventListener("click", () => (stopReplay(), showReviewAt(app.review.target - 1)));
  $("review-next").addEventListener("click", () => (stopReplay(), showReviewAt(app.review.target + 1)));
  $("review-lost").addEventListener("click", () => (stopReplay(), showReviewAt(app.review.start)));
  $("review-replay").addEventListener("click", replay);
  $("review-try").addEventListener("click", playOnFromHere);
  $("review-close").addEventListener("click", () => endReview());
  $("overlay").addEventListener("click", (event) => {
    if (event.target === $("overlay")) closeOverlay();
  });
  let resizeTimer = null;
  window.addEventListener("resize", () => {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(() => draw({ animate: false }), 60);
  });
  setInterval(tick, 1000);
}

function fatal(message) {
  $("title").textContent = "Winnable";
  table.replaceChildren(el("div", { class: "fatal" }, el("p", {}, message), el("a", { class: "btn primary", href: localHref("/") }, t("See all games"))));
  document.body.dataset.ready = "1";
}

async function main() {
  installSprite();
  wire();
  let catalog;
  try {
    catalog = await api.catalog();
  } catch (error) {
    fatal(error.detail || t("The server cannot be reached."));
    return;
  }
  app.info = catalog.find((game) => game.id === gameName);
  if (!app.info) {
    fatal(t("There is no game called \u201c{name}\u201d here.", { name: gameName }));
    return;
  }
  document.title = `${app.info.title} \u00b7 Winnable`;
  document.body.dataset.family = app.info.family;
  $("title").textContent = app.info.title;
  $("rules-link").href = localHref(`/rules/${gameName}`);
  $("menu-rules").href = localHref(`/rules/${gameName}`);
  $("onetap-toggle").checked = settings().oneTap;
  $("safe-row").hidden = app.info.family !== "freecell";
  const modes = app.info.undo_modes && app.info.undo_modes.length ? app.info.undo_modes : ["unlimited"];
  $("undo-mode").replaceChildren(...modes.map((mode) => el("option", { value: mode }, (UNDO_LABELS[mode] || (() => mode))())));
  $("undo-mode").closest("label").hidden = modes.length < 2;
  const preferred = store.get(KEY_UNDO);
  if (preferred && modes.includes(preferred)) $("undo-mode").value = preferred;
  app.family = FAMILIES[app.info.family] || blackhole;

  const params = new URLSearchParams(location.search);
  try {
    if (params.get("id")) {
      try {
        await loadGame(params.get("id"));
      } catch (error) {
        if (!(error instanceof ApiError) || error.status !== 404) throw error;
        await newGame();
        say(t("That game was not found here, so here is a new deal."));
      }
    } else if (params.get("deal")) {
      const deal = params.get("deal").trim();
      const number = /^\d+$/.test(deal) ? deal : null;
      // This browser's game of that deal, if it is the one it was playing; else a new one.
      let resumed = false;
      if (number && store.get(KEY_GAME)) {
        try {
          const state = await api.get(store.get(KEY_GAME));
          if (state.game === gameName && String(state.deal) === String(BigInt(number))) {
            setState(state, { animate: false });
            resumed = true;
          }
        } catch (error) {
          if (!(error instanceof ApiError) || error.status === 0) throw error;
        }
      }
      if (!resumed) await newGame({ deal: number && Number.isSafeInteger(Number(number)) ? Number(number) : deal });
    } else if (store.get(KEY_GAME)) {
      try {
        await loadGame(store.get(KEY_GAME));
      } catch (error) {
        if (!(error instanceof ApiError) || error.status === 0) throw error;
        store.set(KEY_GAME, null);
        await newGame();
      }
    } else {
      await newGame();
    }
  } catch (error) {
    if (error instanceof ApiError) fatal(error.detail);
    else throw error;
  }
}

main().catch(report);
