// Double tap (double click) sends a card home: to its foundation, when one of the state's
// legal moves takes it there. Offered where the family's renderer says so (its
// `doubleTapHome`: "on" or "off" by default, a setting in the menu).
//
// A mouse's double click is the platform's (the click's own count). A finger's second tap
// must come within DOUBLE_TAP_MS on the same card. A first tap that would play the card
// at once somewhere else (one-tap moves, click to move) waits that long for a second; one
// that sends it home at once swallows a second tap on the same place (else the card
// under it would follow).

import { play } from "./play-game.js";
import { hooks } from "./play-hooks.js";
import { entriesFor, settings } from "./play-state.js";

/** ms within which a finger's second tap makes a double tap (Android's double-tap time is
 * 300 ms, iOS's about 350). */
export const DOUBLE_TAP_MS = 350;
/** ms a mouse's single click that plays at once waits for a second one (Windows' double
 * click time is 500 ms by default). */
const DOUBLE_CLICK_MS = 500;

let last = null; // the last tap on a card: {key, place, at, home}
let pending = null; // a first tap's play, waiting for a second: {timer, key}
let byMouse = false; // the last tap was a mouse's click

const keyOf = (node) => `${node.dataset.place}:${node.dataset.index}:${node.dataset.card || ""}`;

/** The legal move that sends the card at `node` (with the cards on it) to a foundation. */
export function homeEntry(node) {
  if (!node || !node.dataset.place) return null;
  const entries = entriesFor(node.dataset.place, Number(node.dataset.index));
  return entries.find((entry) => typeof entry.to === "string" && entry.to.startsWith("foundation")) || null;
}

/** A tap on the card at `node` (`clicks`: a mouse click's count, 0 for a finger; `at`: the
 * tap's event time, so that two taps 100 ms apart make a double tap however late a busy
 * page handles them): true when it was the second of a double tap, and handled (the card
 * sent home, or the tap swallowed). */
export function doubleTap(node, { clicks = 0, at = performance.now() } = {}) {
  if (!settings().doubleTap || !node.dataset.card) {
    last = null;
    return false;
  }
  const now = at;
  byMouse = clicks > 0;
  const key = keyOf(node);
  const window = clicks ? DOUBLE_CLICK_MS : DOUBLE_TAP_MS;
  const recent = last && now - last.at <= window;
  // A mouse's second click is the platform's to count (its double-click time); a finger's
  // second tap must come within DOUBLE_TAP_MS.
  const second = Boolean(last) && last.key === key && (clicks >= 2 || (clicks === 0 && recent));
  const afterHome = recent && last.home && last.place === node.dataset.place;
  last = { key, place: node.dataset.place, at: now, home: false };
  if (afterHome) {
    last = null;
    return true; // the first tap sent the card home already
  }
  if (!second) return false;
  last = null;
  const entry = homeEntry(node);
  if (!entry) return false;
  if (pending && pending.key === key) {
    clearTimeout(pending.timer);
    pending = null;
  }
  hooks.clearSelection(false);
  play(entry, node);
  return true;
}

/** Play `entry`, the move a single tap on `node` plays at once: when a double tap would
 * send the card home instead, only once no second tap came. */
export function playTapped(entry, node, { keyboard = false } = {}) {
  if (pending) {
    clearTimeout(pending.timer);
    pending = null;
  }
  const home = !keyboard && settings().doubleTap && node && node.dataset.card ? homeEntry(node) : null;
  const goesHome = typeof entry.to === "string" && entry.to.startsWith("foundation");
  if (!home || goesHome) {
    if (home && last && last.key === keyOf(node)) last.home = true;
    play(entry, node);
    return;
  }
  const key = keyOf(node);
  pending = {
    key,
    timer: setTimeout(() => {
      pending = null;
      play(entry, node);
    }, byMouse ? DOUBLE_CLICK_MS : DOUBLE_TAP_MS),
  };
}
