// The game page's shared state: the catalogue entry, the server's state, what is picked up,
// the browser's remembered settings, and the messages shown to the player.

import * as blackhole from "./blackhole.js";
import * as fourteen from "./fourteen.js";
import * as freecell from "./freecell.js";
import * as spider from "./spider.js";
import { ApiError } from "./api.js";
import { $ } from "./dom.js";
import { parts, t } from "./i18n.js";

/** Every renderer module, by the name a game's `traits.view` gives (the registry's, in
 * the catalogue): what draws its table and words its moves. */
const RENDERERS = { blackhole, freecell, spider, fourteen };
/** The renderer of a catalogue entry's game. */
export const rendererOf = (info) => RENDERERS[info.traits.view];
export const UNDO_LABELS = { unlimited: () => t("Unlimited undo"), one: () => t("One undo"), none: () => t("No undo") };
export const coarse = window.matchMedia("(pointer: coarse)");
export const reducedMotion = window.matchMedia("(prefers-reduced-motion: reduce)");
export const TOUCH_MIN = 44; // CSS px: the smallest thing a finger is asked to hit

export const gameName = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");
export const store = {
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
export const KEY_GAME = `winnable:game:${gameName}`;
export const KEY_UNDO = `winnable:undo:${gameName}`;
export const KEY_WINNABLE = "winnable:winnable-deals";
export const KEY_WATCH = "winnable:watch";
export const KEY_SAFE = "winnable:safe-home";
export const KEY_GAMES = "winnable:games"; // this browser's games, newest first (shared with the lobby)
export const keyOneTap = (family) => `winnable:onetap:${family}`;
export const keyClickMove = (family) => `winnable:clickmove:${family}`;
export const keyDoubleTap = (family) => `winnable:doubletap:${family}`;
/** What the page's game can do (its catalogue entry's `traits`, from the registry:
 * winnable/games.py), all off before the catalogue arrives. */
export const traits = () => app.info?.traits || {};

export const app = {
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
  shown: null, // Show me: the state shown (a frame of the solver's line), or null
  watchToken: 0,
  shownOverlayFor: null,
  dragRects: null,
  playSize: null, // the table's size in play, kept while reviewing
  finishing: false,
};

export const table = $("table");

export function placesOf(position) {
  return app.family.places(position);
}

/** A move as a sentence with the cards drawn in colour: "Move 4♠ to a free cell." */
export function sentenceOf(entry, position = currentPosition()) {
  if (!entry) return [];
  const [text, params] = app.family.sentence(entry, position);
  return parts(text, params);
}

/** The same sentence as plain text, for screen readers. */
export function plainSentence(entry, position) {
  return sentenceOf(entry, position)
    .map((part) => (part instanceof Node ? (part.dataset && part.dataset.name) || part.textContent : part))
    .join("");
}

export function settings() {
  return {
    oneTap: store.get(keyOneTap(app.info?.family), traits().one_tap ? "1" : "0") === "1",
    safe: store.get(KEY_SAFE, "1") === "1" && Boolean(traits().safe_moves),
    clickMove: Boolean(traits().click_move) && store.get(keyClickMove(app.info.family), "1") === "1",
    // A double tap sends a card home: offered where the renderer says so (its default).
    doubleTap: Boolean(app.family?.doubleTapHome) && store.get(keyDoubleTap(app.info.family), app.family.doubleTapHome === "on" ? "1" : "0") === "1",
  };
}

let messageTimer = null;

export function say(content, { kind = "info", sticky = false } = {}) {
  const box = $("message");
  box.replaceChildren(...(Array.isArray(content) ? content : [content]).map((c) => (c instanceof Node ? c : document.createTextNode(c))));
  box.className = `message ${kind}`;
  box.hidden = false;
  clearTimeout(messageTimer);
  if (!sticky) messageTimer = setTimeout(() => (box.hidden = true), kind === "error" ? 5000 : 3500);
}

export function hush() {
  clearTimeout(messageTimer);
  $("message").hidden = true;
}

/** A polite sentence for screen readers (moves, picks, undo). */
export function announce(text) {
  const box = $("announce");
  box.textContent = "";
  requestAnimationFrame(() => (box.textContent = text));
}

export function report(error) {
  if (error instanceof ApiError) say(error.detail, { kind: "error" });
  else {
    console.error(error);
    say(t("Something went wrong in the page. Reload it to go on."), { kind: "error" });
  }
}

export function enqueue(task) {
  app.queue = app.queue.then(task).catch(report);
  return app.queue;
}

export function busy(flag) {
  document.body.dataset.busy = flag ? "1" : "0";
}

export function currentPosition() {
  if (app.shown) return app.shown.position;
  return app.review ? app.review.position : app.state.position;
}

export function currentLegal() {
  if (app.review || app.shown || app.finishing) return [];
  return app.state.status === "playing" ? app.state.legal : [];
}

/** The click_choices entries that move the card at place/index with the cards on it (a
 * family that pairs cards offers each move from both its cards: its own `entriesFor`). */
export function entriesFor(place, index, legal = currentLegal(), position = currentPosition()) {
  if (app.family && app.family.entriesFor) return app.family.entriesFor(place, index, legal, position);
  if (place === "stock") return legal.filter((e) => e.from === "stock");
  const cards = placesOf(position).get(place);
  if (!cards) return [];
  const count = cards.length - index;
  return legal.filter((e) => e.from === place && e.count === count);
}
