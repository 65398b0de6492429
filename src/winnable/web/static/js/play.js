// The game page: one page for every game. It reads the game id from /play/{game},
// keeps nothing but the server's state, and draws it with the renderer of the game's
// family. Every move goes to the server, which checks it with the rules.

import { api, ApiError } from "./api.js";
import { installSprite, cardSpan, cardText } from "./cards.js";
import * as blackhole from "./blackhole.js";
import * as freecell from "./freecell.js";
import * as spider from "./spider.js";

const FAMILIES = { blackhole, freecell, spider };
const UNDO_LABELS = { unlimited: "Unlimited undo", one: "One undo", none: "No undo" };
const UNDO_SHORT = { unlimited: "Undo \u221e", one: "Undo \u00d71", none: "No undo" };
const narrow = window.matchMedia("(max-width: 600px)");
const $ = (id) => document.getElementById(id);

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

const app = {
  info: null, // the catalog entry
  state: null, // the server's game state
  family: null,
  receivedAt: 0,
  queue: Promise.resolve(),
  focus: null, // {place, index} of the keyboard focus
  keyboard: false, // the last play came from the keyboard
  hint: null, // the hinted click_choices entry
  review: null, // "where did I lose?" replay
  watchToken: 0,
  shownOverlayFor: null,
  dragRects: null,
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

/** The cards an entry moves, for messages: "7♥" or "7♥ and 2 more". */
function describeEntry(entry, position = app.state.position) {
  if (!entry) return document.createTextNode("");
  if (entry.from === "stock") return document.createTextNode("deal a row from the stock");
  const span = el("span");
  if (entry.card) span.append(cardSpan(entry.card));
  else span.append(entry.move);
  if (entry.count > 1) span.append(` and the ${entry.count - 1} card${entry.count > 2 ? "s" : ""} on it`);
  const where = app.family.destinationText(entry, position);
  if (where) span.append(" " + where);
  return span;
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

function report(error) {
  if (error instanceof ApiError) say(error.detail, { kind: "error" });
  else {
    console.error(error);
    say("Something went wrong in the page. Reload it to go on.", { kind: "error" });
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
  const wrap = $("table-wrap");
  const style = getComputedStyle(wrap);
  const width = wrap.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  const top = table.getBoundingClientRect().top + window.scrollY;
  const actions = $("actions");
  const docked = getComputedStyle(actions).position === "fixed";
  // Keep the bottom strip free for messages (and the docked buttons on phones).
  const review = $("review");
  const reserve = app.review && !review.hidden ? review.offsetHeight + 24 : (docked ? actions.offsetHeight : 0) + 58;
  const height = Math.max(300, window.innerHeight - top - reserve);
  return { width: Math.max(240, Math.min(width, 1180)), height };
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
  if (!before || window.matchMedia("(prefers-reduced-motion: reduce)").matches) return;
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
  if (app.review) return [];
  return app.state.status === "playing" ? app.state.legal : [];
}

/** The click_choices entries a card (or the stock) can play. */
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
      node.classList.toggle("blocked", !playable && position.stock > 0 && !app.review);
      node.title = playable ? "Deal a row (one card on every column)" : position.stock > 0 ? "Fill every empty column before dealing" : "The stock is empty";
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
}

function elementAt(place, index) {
  return table.querySelector(`[data-place="${place}"][data-index="${index}"]`);
}

function restoreFocus() {
  const playable = [...table.querySelectorAll(".playable")];
  playable.forEach((node) => node.classList.remove("kfocus"));
  if (playable.length) playable[0].tabIndex = 0; // Tab reaches the table
  if (!app.keyboard || !playable.length) return;
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
    if (other.tagName !== "BUTTON") other.tabIndex = -1;
  }
  node.classList.add("kfocus");
  node.tabIndex = 0;
  node.focus({ preventScroll: false });
  app.focus = { place: node.dataset.place, index: Number(node.dataset.index) };
  app.focusRect = anchor(node);
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

// ------------------------------------------------------------------ state

function updateChrome() {
  const state = app.state;
  const position = state.position;
  document.body.dataset.status = state.status;
  document.body.dataset.moves = String(state.move_count);
  document.body.dataset.gameId = state.id;
  const deal = $("deal-link");
  deal.textContent = `Deal #${state.deal}`;
  deal.href = (state.links && state.links.deal) || `/play/${gameName}?deal=${state.deal}`;
  if (state.winnable_deal) deal.append(el("span", { class: "proved", title: "The solver proved this deal winnable" }, "\u2713"));
  $("moves").textContent = String(state.move_count);
  $("moves-word").textContent = state.move_count === 1 ? "move" : "moves";
  const undo = $("undo");
  const left = state.undo_left;
  undo.disabled = state.undo === "none" || left === 0 || state.move_count === 0 || state.status !== "playing" && state.status !== "lost";
  undo.title = state.undo === "none" ? "This game is played without undo" : left === 0 ? "Your undo is used up" : "Take back the last move (U)";
  const count = $("undo-left");
  count.hidden = left === null || left === undefined || state.undo === "none";
  count.textContent = count.hidden ? "" : String(left);
  $("hint").disabled = state.status !== "playing";
  $("restart").disabled = state.move_count === 0 && state.status === "playing";
  const score = $("score");
  const scoreText = scoreLine(state);
  score.hidden = !scoreText;
  score.textContent = scoreText || "";
  score.title = "Cards on the foundations";
  const base = $("base");
  const rank = position.base_rank;
  base.hidden = !rank || rank === "A";
  base.textContent = base.hidden ? "" : `Foundations from ${rank === "T" ? "10" : rank}`;
  tick();
  if (state.status === "won") setBadge("won", "Won");
}

function scoreLine(state) {
  if (state.family !== "freecell") return "";
  const s = state.score || {};
  const onFoundations = s.partial ?? s.cards ?? s.foundations ?? state.position.score;
  if (onFoundations === undefined || onFoundations === null) return "";
  const total = s.out_of ?? s.total ?? 52;
  return `Score ${onFoundations}/${total}`;
}

function tick() {
  const state = app.state;
  if (!state) return;
  let seconds = state.elapsed_seconds || 0;
  if (state.status === "playing" && state.started_at) seconds += (performance.now() - app.receivedAt) / 1000;
  $("timer").textContent = formatTime(seconds);
}

function setState(state, { animate = true } = {}) {
  const previous = app.state;
  app.state = state;
  app.receivedAt = performance.now();
  app.family = FAMILIES[state.family] || FAMILIES[app.info?.family] || blackhole;
  store.set(KEY_GAME, state.id);
  if (!previous || previous.id !== state.id || previous.move_count !== state.move_count || previous.status !== state.status) {
    app.hint = null;
    clearHighlights("hint");
    if ($("message").classList.contains("hint")) hush();
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
    setTimeout(showWin, 250);
  } else if (state.status === "lost" && app.shownOverlayFor !== key && !app.review) {
    app.shownOverlayFor = key;
    setTimeout(showLost, 250);
  } else if (state.status === "playing") {
    closeOverlay();
  }
  if (app.watching) checkWinnable();
  // Hook for the players' module (Daily, timed play): it reads every new state.
  document.dispatchEvent(new CustomEvent("winnable:state", { detail: state }));
}

// ------------------------------------------------------------------ actions

async function newGame({ deal = null } = {}) {
  hush();
  const undo = $("undo-mode").value || store.get(KEY_UNDO) || "unlimited";
  const winnable = deal === null && $("winnable-toggle").checked;
  busy(true);
  $("new-deal").disabled = true;
  const slow = setTimeout(() => say(winnable ? "Finding a deal the solver has proved winnable\u2026" : "Dealing\u2026", { sticky: true }), 400);
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
      say(`${error.detail} This deal was picked at random.`, { kind: "info" });
    }
    clearTimeout(slow);
    if ($("message").textContent.endsWith("\u2026")) hush();
    closeOverlay();
    setState(state, { animate: false });
  } finally {
    clearTimeout(slow);
    $("new-deal").disabled = false;
    busy(false);
  }
}

async function loadGame(id) {
  const state = await api.get(id);
  if (state.game !== gameName) throw new ApiError(404, "That game belongs to another table.");
  setState(state, { animate: false });
}

async function sendMove(move) {
  busy(true);
  try {
    setState(await api.move(app.state.id, move));
  } catch (error) {
    if (error instanceof ApiError && error.status === 409) {
      say(error.detail, { kind: "error" });
      setState(await api.get(app.state.id));
    } else throw error;
  } finally {
    busy(false);
  }
}

/** A click (or Enter) on the card at place/index: play the first matching entry. */
function play(place, index, code, { to = null, node = null } = {}) {
  enqueue(async () => {
    if (app.review || !app.state) return;
    const position = app.state.position;
    if (place !== "stock") {
      const cards = placesOf(position).get(place);
      if (!cards || (code && cards[index] !== code)) return; // the table changed since the click
    }
    const entries = entriesFor(place, index, currentLegal(), position);
    const entry = to ? entries.find((e) => matchesTarget(e, to)) : entries[0];
    if (!entry) {
      refuse(place, index, node);
      return;
    }
    await sendMove(entry.move);
  });
}

function matchesTarget(entry, to) {
  if (entry.to === to) return true;
  return to.startsWith("cell:") && entry.to.startsWith("cell:");
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
    say(position.stock > 0 ? "Fill every empty column before dealing the stock." : "The stock is empty.");
    return;
  }
  const cards = placesOf(position).get(place) || [];
  const code = cards[index];
  if (!code) return;
  if (state.family === "blackhole") {
    if (index < cards.length - 1) say("Only the top card of a pile can move.");
    else {
      const top = position.foundation[position.foundation.length - 1];
      say([cardSpan(code), " can't go on ", cardSpan(top), ": it must be one rank above or below (suits don't matter, K-A-2 wraps)."]);
    }
  } else if (index < cards.length - 1) {
    say([cardSpan(code), " can't move with the cards on it now."]);
  } else {
    say([cardSpan(code), " has nowhere to go right now."]);
  }
}

async function undo() {
  if (!app.state || $("undo").disabled || app.review) return;
  enqueue(async () => {
    busy(true);
    try {
      setState(await api.undo(app.state.id));
    } finally {
      busy(false);
    }
  });
}

async function restart() {
  if (!app.state) return;
  endReview(false);
  enqueue(async () => {
    busy(true);
    try {
      setState(await api.restart(app.state.id));
      say("The deal starts again.");
    } finally {
      busy(false);
    }
  });
}

async function hint() {
  if (!app.state || app.state.status !== "playing" || app.review) return;
  const asked = app.state;
  say("Looking for a winning line\u2026", { sticky: true, kind: "hint" });
  let answer;
  try {
    answer = await api.hint(asked.id);
  } catch (error) {
    report(error);
    return;
  }
  if (app.state !== asked) return; // a move was played meanwhile
  const hidden = answer.knows_hidden ? [el("br"), el("small", {}, "The hint knows the face-down cards, which you cannot see.")] : [];
  if (answer.move) {
    const entry = answer.describe || app.state.legal.find((e) => e.move === answer.move);
    app.hint = entry || null;
    highlight(app.hint, "hint");
    const away = answer.line_length ? [el("br"), el("small", {}, `A win is ${answer.line_length} move${answer.line_length === 1 ? "" : "s"} away.`)] : [];
    say([el("b", {}, "Hint: "), entry ? describeEntry(entry) : answer.move, ".", ...away, ...hidden], { sticky: true, kind: "hint" });
    if (entry && entry.from) {
      const cards = placesOf(app.state.position).get(entry.from) || [];
      const node = entry.from === "stock" ? table.querySelector(".stock") : elementAt(entry.from, cards.length - (entry.count || 1));
      if (node && app.keyboard) focusCard(node);
    }
  } else {
    const text = answer.message || (answer.verdict === "lost" ? "No winning line from here." : "The solver could not decide in time.");
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
  badge.title = clickable ? "Show the move that lost it" : "";
  if (clickable) {
    badge.setAttribute("role", "button");
    badge.tabIndex = 0;
  } else {
    badge.removeAttribute("role");
    badge.removeAttribute("tabindex");
  }
}

function reviewFromBadge() {
  if (!$("watch-badge").classList.contains("clickable") || app.review) return;
  openOverlay({ title: "Where did I lose?", kind: "lost", art: "stuck" });
  whereDidILose();
}

let watchTimer = null;

/** Ask the solver about the current position, once the player pauses for a moment. */
function checkWinnable() {
  const state = app.state;
  if (!state) return;
  if (state.status === "won") return setBadge("won", "Won");
  const token = ++app.watchToken;
  setBadge("pending", "Checking\u2026");
  clearTimeout(watchTimer);
  watchTimer = setTimeout(() => askWinnable(state, token), 250);
}

async function askWinnable(state, token) {
  if (token !== app.watchToken) return;
  try {
    const answer = await api.analysis(state.id);
    if (token !== app.watchToken) return;
    if (answer.verdict === "won") setBadge("won", "Still winnable");
    else if (answer.verdict === "lost") setBadge("lost", "Not winnable any more");
    else setBadge("unknown", "Too hard to tell");
  } catch (error) {
    if (token === app.watchToken) setBadge("unknown", "No answer");
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
  document.body.dataset.overlay = "";
}

function button(label, onclick, { primary = false, id = null } = {}) {
  return el("button", { class: `btn${primary ? " primary" : ""}`, type: "button", id, onclick }, label);
}

function showWin() {
  const state = app.state;
  if (state.status !== "won") return;
  const body = [
    el("p", {}, `Deal #${state.deal} of ${state.title || app.info.title}, won in ${formatTime(state.elapsed_seconds || 0)} and ${state.move_count} move${state.move_count === 1 ? "" : "s"}.`),
  ];
  const score = scoreLine(state);
  if (score) body.push(el("p", { class: "muted" }, score));
  openOverlay({
    title: "You won!",
    kind: "win",
    art: "stars",
    body,
    buttons: [
      button("New deal", () => newGame().catch(report), { primary: true, id: "win-new" }),
      button("Play this deal again", () => newGame({ deal: state.deal }).catch(report)),
      button("Look at the table", closeOverlay),
    ],
  });
}

function showLost() {
  const state = app.state;
  if (state.status !== "lost") return;
  const left = state.position.cards_left;
  const buttons = [button("Where did I lose?", whereDidILose, { primary: true, id: "where-lost" })];
  if (state.undo !== "none" && state.undo_left !== 0) buttons.push(button("Undo", () => (closeOverlay(), undo())));
  buttons.push(
    button("Restart", () => (closeOverlay(), restart())),
    button("New deal", () => newGame().catch(report)),
    button("Look at the table", closeOverlay),
  );
  openOverlay({
    title: "No moves left",
    kind: "lost",
    art: "stuck",
    body: [
      el("p", {}, `No card can move: ${left} card${left === 1 ? "" : "s"} left on the table.`),
      scoreLine(state) ? el("p", {}, `${scoreLine(state)} \u00b7 ${formatTime(state.elapsed_seconds || 0)} \u00b7 ${state.move_count} moves`) : null,
      el("p", { class: "muted" }, "The solver can show you the move that lost the game."),
    ].filter(Boolean),
    buttons,
  });
}

async function whereDidILose() {
  const state = app.state;
  $("overlay-body").replaceChildren(el("p", { class: "thinking" }, "Asking the solver\u2026"));
  $("overlay-buttons").replaceChildren();
  let analysis;
  try {
    analysis = await api.analysis(state.id);
  } catch (error) {
    $("overlay-body").replaceChildren(el("p", {}, error.detail || "The solver did not answer."));
    $("overlay-buttons").replaceChildren(button("New deal", () => newGame().catch(report), { primary: true }), button("Close", closeOverlay));
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
      ? "This deal had no winning line even before your first move: nobody could have won it. Switch on \u201cWinnable\u201d to get only deals the solver has proved."
      : analysis.message || "The solver could not settle it within its time budget.";
  $("overlay-body").replaceChildren(el("p", {}, text));
  $("overlay-buttons").replaceChildren(button("New deal", () => newGame().catch(report), { primary: true }), button("Restart", () => (closeOverlay(), restart())), button("Close", closeOverlay));
}

// ------------------------------------------------------------------ "where did I lose?" replay

async function startReview(analysis) {
  const k = analysis.lost_at ?? null;
  const start = k ?? analysis.between[0];
  app.review = { analysis, k, at: start, start, position: app.state.position, legal: [] };
  $("review").hidden = false;
  $("review-lost").textContent = k === null ? "First suspect" : "Losing move";
  document.body.classList.add("in-review");
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
  review.legal = answer.legal || answer.click_choices || [];
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
      el("b", {}, `The game was lost between move ${low + 1} and move ${high}. `),
      "The solver ran out of time before it could say which move lost it. ",
      `Showing the table after move ${at}.`,
    );
  } else if (at === k) {
    const losing = reviewEntry(analysis.losing_move);
    const better = reviewEntry(analysis.better_move);
    const parts = [el("b", {}, `Move ${k + 1} lost the game. `), "You played "];
    parts.push(losing ? describeEntry(losing, review.position) : analysis.losing_move || "?");
    parts.push(" (red).");
    if (analysis.better_move) {
      parts.push(" ", better ? describeEntry(better, review.position) : analysis.better_move, " (green) would have kept a winning line.");
    }
    text.replaceChildren(...parts);
  } else if (at < k) {
    text.replaceChildren(`After move ${at}: still winnable. Step on to the move that lost it.`);
  } else {
    text.replaceChildren(`After move ${at}: no winning line any more.`);
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
  $("review-replay").textContent = "Replay";
}

/** Play the game back from the deal: each step is drawn, then shown for a moment. */
async function replay() {
  if (replaying) return stopReplay();
  const run = (replaying = Date.now());
  $("review-replay").textContent = "Stop";
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
    for (const move of moves) fresh = await api.move(fresh.id, move);
    setState(fresh, { animate: false });
    say(`Deal #${state.deal} again, from move ${moves.length}.`);
  } catch (error) {
    report(error);
    draw({ animate: false });
  } finally {
    busy(false);
  }
}

// ------------------------------------------------------------------ pointer: click and drag

let drag = null;
let suppressClick = false;

table.addEventListener("click", (event) => {
  if (suppressClick) return;
  const node = event.target.closest("[data-place]");
  if (!node || !table.contains(node)) return;
  app.keyboard = false;
  if (app.review) {
    say("You are looking back at this game. Close the replay to play on.");
    return;
  }
  play(node.dataset.place, Number(node.dataset.index), node.dataset.card || null, { node });
});

// A mouse or finger plays without moving the keyboard focus (and its ring) to the card.
table.addEventListener("mousedown", (event) => {
  if (event.target.closest("[data-place]")) event.preventDefault();
});

table.addEventListener("focusin", (event) => {
  const node = event.target.closest(".playable");
  if (node && !node.classList.contains("kfocus")) {
    app.keyboard = true;
    focusCard(node);
  }
});

table.addEventListener("pointerdown", (event) => {
  if (event.button !== 0 || app.review) return;
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
  const nodes = runNodes(drag.place, drag.index);
  const ghost = el("div", { class: "drag-ghost" });
  ghost.style.setProperty("--cw", getComputedStyle(drag.node).width);
  for (const node of nodes) {
    const rect = node.getBoundingClientRect();
    const copy = node.cloneNode(true);
    copy.classList.remove("playable", "kfocus", "hint-src", "flying");
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
  for (const [, targets] of drag.targets) targets.forEach((t) => t.classList.add("drop-ok"));
}

/** The entry whose destination lies under the pointer or overlaps the dragged card most. */
function dropChoice(drag, x, y) {
  if (!drag || !drag.ghost) return null;
  const lead = drag.ghost.firstElementChild.getBoundingClientRect();
  let best = null;
  let bestArea = 0;
  for (const [entry, targets] of drag.targets) {
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
        if (still) await sendMove(still.move);
        else draw({ animate: true });
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
  const playable = [...table.querySelectorAll(".playable")];
  if (!playable.length) {
    say(app.state && app.state.status === "playing" ? "No card can move." : "The game is over.");
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
  if (event.target.closest && event.target.closest("input, select, textarea")) return;
  if (event.key === "Escape") {
    if (!$("overlay").hidden) closeOverlay();
    else if (app.review) endReview();
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
  const inTable = focused && table.contains(focused) && focused.dataset.place;
  if ((event.key === "Enter" || event.key === " ") && inTable) {
    event.preventDefault();
    app.keyboard = true;
    play(focused.dataset.place, Number(focused.dataset.index), focused.dataset.card || null, { node: focused });
    return;
  }
  const key = event.key.toLowerCase();
  if (key === "u") {
    app.keyboard = app.keyboard || inTable;
    undo();
  } else if (key === "h") {
    app.keyboard = app.keyboard || !!inTable;
    hint();
  }
});

// ------------------------------------------------------------------ wiring

function wire() {
  // Hook: another module asks for the server's state again (a timed move's time is up).
  document.addEventListener("winnable:refresh", () => enqueue(async () => app.state && setState(await api.get(app.state.id))));
  $("new-deal").addEventListener("click", () => newGame().catch(report));
  $("restart").addEventListener("click", restart);
  $("undo").addEventListener("click", undo);
  $("hint").addEventListener("click", hint);
  const winnable = $("winnable-toggle");
  winnable.checked = store.get(KEY_WINNABLE, "1") === "1";
  winnable.addEventListener("change", () => store.set(KEY_WINNABLE, winnable.checked ? "1" : "0"));
  $("watch-badge").addEventListener("click", reviewFromBadge);
  $("watch-badge").addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      event.stopPropagation();
      reviewFromBadge();
    }
  });
  const watch = $("watch-toggle");
  watch.checked = store.get(KEY_WATCH, "0") === "1";
  app.watching = watch.checked;
  watch.addEventListener("change", () => setWatching(watch.checked));
  $("undo-mode").addEventListener("change", (event) => {
    const mode = event.target.value;
    store.set(KEY_UNDO, mode);
    if (app.state && app.state.move_count === 0 && app.state.undo !== mode) {
      newGame({ deal: app.state.deal }).catch(report);
    } else if (app.state && app.state.undo !== mode) {
      say(`${UNDO_LABELS[mode] || mode} starts with your next deal.`);
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
  table.replaceChildren(el("div", { class: "fatal" }, el("p", {}, message), el("a", { class: "btn primary", href: "/" }, "See all games")));
  document.body.dataset.ready = "1";
}

async function main() {
  installSprite();
  wire();
  let catalog;
  try {
    catalog = await api.catalog();
  } catch (error) {
    fatal(error.detail || "The server cannot be reached.");
    return;
  }
  app.info = catalog.find((game) => game.id === gameName);
  if (!app.info) {
    fatal(`There is no game called \u201c${gameName}\u201d here.`);
    return;
  }
  document.title = `${app.info.title} \u00b7 Winnable`;
  $("title").textContent = app.info.title;
  $("rules-link").href = `/rules/${gameName}`;
  const modes = app.info.undo_modes && app.info.undo_modes.length ? app.info.undo_modes : ["unlimited"];
  const labelModes = () => {
    for (const option of $("undo-mode").options) option.textContent = (narrow.matches ? UNDO_SHORT : UNDO_LABELS)[option.value] || option.value;
  };
  $("undo-mode").replaceChildren(...modes.map((mode) => el("option", { value: mode, title: UNDO_LABELS[mode] || mode }, mode)));
  labelModes();
  narrow.addEventListener("change", labelModes);
  $("undo-mode").closest("label").hidden = modes.length < 2;
  const preferred = store.get(KEY_UNDO);
  if (preferred && modes.includes(preferred)) $("undo-mode").value = preferred;
  app.family = FAMILIES[app.info.family] || blackhole;

  const params = new URLSearchParams(location.search);
  const clean = () => history.replaceState(null, "", `/play/${encodeURIComponent(gameName)}`);
  try {
    if (params.get("id")) {
      try {
        await loadGame(params.get("id"));
      } catch (error) {
        if (!(error instanceof ApiError) || error.status !== 404) throw error;
        await newGame();
        say("That game was not found here, so here is a new deal.");
      }
    } else if (params.get("deal")) {
      const deal = params.get("deal").trim();
      await newGame({ deal: /^\d+$/.test(deal) ? Number(deal) : deal });
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
    clean();
  } catch (error) {
    if (error instanceof ApiError) fatal(error.detail);
    else throw error;
  }
}

main().catch(report);
