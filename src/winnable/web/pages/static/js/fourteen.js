// Fourteen Out: twelve fanned piles of four or five face-up cards in a grid (twelve in a
// row on a wide, low screen; six, four or three a row on narrower ones, whichever gives
// the biggest cards), and above them a band with the last pair taken out.
//
// A move takes out two top cards that make 14. The server describes each move once, from
// the pile of its higher card to the pile of the other; here a move is offered from
// either of its two cards (`entriesFor`), so a tap on one card and then on its partner
// takes the pair out, and a card with a single partner goes with one tap.

import { cardName, cardSpan, makeCard, makeSlot, parseCard, RATIO } from "./cards.js";
import { t, tn } from "./i18n.js";

export const SUM = 14;
const PILES = 12;
const DEEPEST = 5; // the first four piles are dealt five cards, the others four
const FAN_MIN = 0.27; // share of a card's height showing under the next card: its rank and suit
const FAN_MAX = 0.34;
const BAND = 0.5; // the band of cards taken out, in card heights
const SIDE = 84; // the band's width when it stands at the left (px)
const REMOVED = "foundation"; // the place of the cards taken out: the page never picks them up

/** A card's value: Ace 1, Two to Ten their number, Jack 11, Queen 12, King 13. */
export function value(code) {
  const { rank } = parseCard(code);
  return { A: 1, T: 10, J: 11, Q: 12, K: 13 }[rank] || Number(rank);
}

/** Every place of the table and its cards, bottom first. */
export function places(position) {
  const map = new Map();
  position.piles.forEach((pile, i) => map.set(`pile:${i}`, pile.slice()));
  map.set(REMOVED, position.removed.slice());
  return map;
}

const pileNumber = (place) => Number(place.split(":")[1]) + 1;
const topOf = (position, place) => {
  const pile = position.piles[pileNumber(place) - 1];
  return pile && pile.length ? pile[pile.length - 1] : null;
};

export function placeName(place) {
  if (place === REMOVED) return t("the cards taken out");
  return t("pile {n}", { n: pileNumber(place) });
}

/**
 * The moves a tap on the card at `place`/`index` can make, each as seen from that card:
 * `from` its pile, `to` the partner's pile, `card` itself (the move's text unchanged).
 * Only a pile's top card has any.
 */
export function entriesFor(place, index, legal, position) {
  const pile = place.startsWith("pile:") ? position.piles[pileNumber(place) - 1] : null;
  if (!pile || index !== pile.length - 1) return [];
  const code = pile[index];
  const out = [];
  for (const entry of legal) {
    if (entry.from === place) out.push({ ...entry, card: code });
    else if (entry.to === place) out.push({ ...entry, from: place, to: entry.from, card: code });
  }
  return out;
}

/** Where an entry goes, in words. */
export function destinationText(entry, position) {
  const partner = position && topOf(position, entry.to);
  return partner ? t("with {card}", { card: cardName(partner) }) : "";
}

/** A hint or a move as a sentence: "Take out 8♠ and 6♥." (message id, params). */
export function sentence(entry, position) {
  const [first, second] = entry.move.split("+");
  const card = entry.card || first;
  const partner = (position && entry.to && topOf(position, entry.to)) || (card === first ? second : first);
  return [t("Take out {card} and {other}."), { card: cardSpan(card), other: cardSpan(partner) }];
}

/** The accessible name of a destination: the partner card. */
export function targetName(node) {
  return node.dataset.card ? cardName(node.dataset.card) : placeName(node.dataset.drop || "");
}

/** The accessible name of a partner while a card is picked: "6 of hearts: makes 14 with 8 of spades". */
export function targetLabel(node, picked) {
  return t("{card}: makes 14 with {picked}", { card: targetName(node), picked: picked ? cardName(picked) : "" });
}

/** What is said when a card is picked: how many partners it has. */
export function pickedText(code, count) {
  return tn(
    "{card} picked: {n} card makes 14 with it. Choose it, or press Escape.",
    "{card} picked: {n} cards make 14 with it. Choose one, or press Escape.",
    count,
    { card: cardName(code), n: count },
  );
}

/** Elements a hint or a pick highlights as the other card of `entry`: the partner. */
export function targetsFor(table, entry) {
  return [...table.querySelectorAll(`.card[data-drop="${entry.to}"]`)];
}

/**
 * Why a tap on the card at `place`/`index` takes nothing out (a message id and its
 * params, in the words of the rules), or null for a place that is not a pile's.
 */
export function refusal(position, place, index) {
  const pile = place.startsWith("pile:") ? position.piles[pileNumber(place) - 1] : null;
  if (!pile || !pile[index]) return null;
  const code = pile[index];
  if (index < pile.length - 1) return [t("{card} is not available: only the top card of a pile can be taken out."), { card: cardSpan(code) }];
  const need = SUM - value(code);
  const names = { 1: t("an Ace"), 11: t("a Jack"), 12: t("a Queen"), 13: t("a King") };
  const wanted = names[need] || (need === 7 ? t("another Seven") : t("a card worth {n}", { n: need }));
  return [t("{card} has no partner: it needs {wanted} on top of another pile."), { card: cardSpan(code), wanted }];
}

/** Why the picked card and the card at `place`/`index` cannot go out together. */
export function pairRefusal(position, picked, place, index) {
  const pile = place.startsWith("pile:") ? position.piles[pileNumber(place) - 1] : null;
  const first = topOf(position, picked);
  if (!pile || !pile[index] || !first) return null;
  const code = pile[index];
  if (index < pile.length - 1) return refusal(position, place, index);
  const sum = value(first) + value(code);
  return [t("{card} and {other} make {sum}, not 14: they cannot go out together."), { card: cardSpan(first), other: cardSpan(code), sum: String(sum) }];
}

/** What the hint says a tap (a click, with a mouse) does: either card of the pair takes it out. */
export function hintTap(touch) {
  return touch ? t("Tap either marked card to take the pair out.") : t("Click either marked card to take the pair out.");
}

/** The lost screen's sentence. */
export function lostText(left) {
  return tn("No two top cards make 14: {n} card left on the table.", "No two top cards make 14: {n} cards left on the table.", left, { n: left });
}

/**
 * The grid: `perRow` piles a row (12, 6, 4 or 3), the one that gives the widest cards
 * that fit `width` x `height` with the band above and every card's rank showing; then
 * the piles fan out as far as the height allows.
 *
 * On a screen held sideways and low, the band may stand at the left instead, `SIDE` px
 * wide (`side` in the answer), when that gives wider cards.
 *
 *   gridLayout(304, 400)   // six a row, two rows
 *   gridLayout(1180, 300)  // twelve in a row
 *   gridLayout(498, 271)   // six a row, the band at the left
 */
export function gridLayout(width, height) {
  const gap = Math.max(4, Math.min(14, Math.round(width / 70)));
  let best = null;
  for (const side of width > height ? [false, true] : [false]) {
    const rowGap = side ? gap + 2 : 2 * gap + 2;
    const across = side ? width - SIDE - gap : width;
    for (const perRow of [12, 6, 4, 3]) {
      const rows = PILES / perRow;
      const byWidth = (across - (perRow - 1) * gap) / perRow;
      const room = height - (side ? 2 : gap + 4) - (rows - 1) * rowGap;
      const byHeight = room / (RATIO * ((side ? 0 : BAND) + rows * (1 + (DEEPEST - 1) * FAN_MIN)));
      const cw = Math.floor(Math.min(byWidth, byHeight, 112));
      if (!best || cw > best.cw) best = { perRow, rows, cw, gap, rowGap, side };
    }
  }
  const { rowGap, side } = best;
  const ch = best.cw * RATIO;
  const perRowRoom = (height - (side ? 0 : gap + BAND * ch) - (best.rows - 1) * rowGap - 4) / best.rows;
  best.fan = Math.max(FAN_MIN, Math.min(FAN_MAX, (perRowRoom / ch - 1) / (DEEPEST - 1)));
  return best;
}

export function render(table, state, { width, height }) {
  const position = state.position;
  const layout = gridLayout(width, height);
  const { perRow, cw, gap, rowGap, fan, side } = layout;
  const ch = cw * RATIO;
  const off = ch * fan;
  const ph = ch + (DEEPEST - 1) * off;
  const band = side ? 0 : Math.round(BAND * ch);
  const x0 = side ? SIDE + gap : 0; // the piles' area
  const across = width - x0;
  table.style.setProperty("--cw", `${cw}px`);
  const frag = document.createDocumentFragment();
  let bottom = band;

  position.piles.forEach((pile, i) => {
    const row = Math.floor(i / perRow);
    const inRow = Math.min(perRow, PILES - row * perRow);
    const left = x0 + (across - inRow * cw - (inRow - 1) * gap) / 2;
    const x = left + (i % perRow) * (cw + gap);
    const y = side ? row * (ph + rowGap) : band + gap + row * (ph + rowGap);
    bottom = Math.max(bottom, y + ph);
    const place = `pile:${i}`;
    const box = document.createElement("div");
    box.className = "pile";
    box.dataset.pile = String(i);
    box.style.left = `${x}px`;
    box.style.top = `${y}px`;
    box.style.height = `${ph}px`;
    box.append(makeSlot(null, "", "pile-base", pile.length ? "" : t("Pile {n}, empty", { n: i + 1 })));
    pile.forEach((code, j) => {
      const card = makeCard(code, place, j);
      card.style.top = `${j * off}px`;
      card.style.zIndex = String(j + 1);
      if (j === pile.length - 1) card.dataset.drop = place; // a partner is chosen by its top card
      box.append(card);
    });
    frag.append(box);
  });

  // The band: the last pair taken out, and how many cards are out.
  const out = position.removed;
  const strip = document.createElement("div");
  strip.className = side ? "removed side" : "removed";
  strip.setAttribute("role", "group");
  strip.setAttribute("aria-label", tn("{n} card taken out", "{n} cards taken out", out.length, { n: out.length }));
  strip.style.left = "0px";
  strip.style.top = "0px";
  strip.style.width = `${side ? SIDE : width}px`;
  strip.style.height = `${side ? bottom : band}px`;
  const small = side ? Math.floor((SIDE - 8) / 2) : Math.max(18, Math.floor((band - 4) / RATIO));
  strip.style.setProperty("--rcw", `${small}px`);
  const pair = document.createElement("div");
  pair.className = "removed-pair";
  const first = Math.max(0, out.length - 2);
  out.slice(first).forEach((code, k) => pair.append(makeCard(code, REMOVED, first + k)));
  if (!out.length) pair.append(makeSlot(null, "", "removed-base"));
  strip.append(pair);
  const caption = document.createElement("div");
  caption.className = "removed-caption";
  caption.setAttribute("aria-hidden", "true");
  caption.textContent = position.cards_left === 0 ? t("Every card is out") : t("{n} of 52 out", { n: out.length });
  strip.append(caption);
  frag.append(strip);

  table.style.height = `${Math.max(height, bottom + 4)}px`;
  table.replaceChildren(frag);
}
