// Fanning a long column into the height there is (issue 34): a covered card shows its
// corner (its rank and suit) under the card on it; when a column cannot show every corner
// in the room it has, the cards inside a run of one suit (the card under it one rank
// higher, the card on it one rank lower, the same suit: its neighbours say what it is)
// are tucked, thinner, so that the column fits the screen rather than running under
// the toolbar or off the bottom.
//
//   tuckable(["9S", "8S", "7S", "2H"])  // [false, true, false, false]

import { parseCard } from "./cards.js";

const RANKS = "A23456789TJQK";

/** Which cards of a face-up pile (bottom first) lie inside a run of their suit. */
export function tuckable(up) {
  const cards = up.map((code) => (code ? parseCard(code) : null));
  const below = (a, b) => a && b && a.suit === b.suit && RANKS.indexOf(a.rank) === RANKS.indexOf(b.rank) + 1;
  return cards.map((card, i) => i > 0 && i < cards.length - 1 && below(cards[i - 1], card) && below(card, cards[i + 1]));
}

/**
 * What each card of `up` shows under the next one, in card heights (one fewer than the
 * cards), at the band's fan `fan`: every strip `fan` while that is at least `min`; below
 * it, a card that must show its corner keeps `min` and the tucked cards share what the
 * column is given (`fan` a strip on average), never under `tuck`.
 */
export function strips(up, fan, { min, tuck }) {
  const count = Math.max(0, up.length - 1);
  if (fan >= min) return Array(count).fill(fan);
  const tucked = tuckable(up).slice(0, count);
  const t = tucked.filter(Boolean).length;
  const share = t ? Math.min(min, Math.max(tuck, (count * fan - (count - t) * min) / t)) : min;
  return tucked.map((yes) => (yes ? share : min));
}

/** The least height of the fanned part of `up`, in card heights: every corner at `min`, the tucked cards at `tuck`. */
export function leastFan(up, { min, tuck }) {
  return strips(up, 0, { min, tuck }).reduce((a, b) => a + b, 0);
}
