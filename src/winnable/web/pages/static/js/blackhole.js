// Black Hole: 17 fanned piles of three laid in a ring around the hole (the foundation);
// on a screen too narrow for a ring of cards a finger can hit, the hole in a band across
// the top and the piles below it in rows.

import { cardName, cardSpan, makeCard, makeSlot, RATIO } from "./cards.js";
import { t, tn } from "./i18n.js";

/** A double tap sends a card into the hole: off unless switched on (a tap sends it there
 * already, one-tap moves being on: a double tap would send two). */
export const doubleTapHome = "off";
const FAN = 0.29; // share of a card's height that shows under the next card of a pile

/** Every place of the table and its cards, bottom first. */
export function places(position) {
  const map = new Map();
  position.piles.forEach((pile, i) => map.set(`pile:${i}`, pile.slice()));
  map.set("foundation", position.foundation.slice());
  return map;
}

export function placeName(place) {
  if (place === "foundation") return t("the hole");
  return t("pile {n}", { n: Number(place.split(":")[1]) + 1 });
}

/** Where an entry goes, in words: "into the hole". */
export function destinationText() {
  return t("into the hole");
}

/** A hint or a move as a sentence: "Play 7♥ into the hole." (message id, params). */
export function sentence(entry) {
  return [t("Play {card} into the hole."), { card: cardSpan(entry.card) }];
}

/** The accessible name of a destination element. */
/** Why the card at `place`/`index` cannot move (a message id and its params), or null
 * for a place that is not a pile's. */
export function refusal(position, place, index) {
  const pile = place.startsWith("pile:") ? position.piles[Number(place.slice(5))] : null;
  if (!pile || !pile[index]) return null;
  if (index < pile.length - 1) return [t("Only the top card of a pile can move."), {}];
  const top = position.foundation[position.foundation.length - 1];
  return [t("{card} can't go on {top}: it must be one rank above or below (suits don't matter, K-A-2 wraps)."), { card: cardSpan(pile[index]), top: cardSpan(top) }];
}

export function targetName() {
  return t("The hole");
}

/** Elements a hint or a drag highlights as the destination of `entry`. */
export function targetsFor(table, _entry) {
  return [...table.querySelectorAll('[data-drop="foundation"]')];
}

/**
 * Choose how many piles go on each side of the ring and how big the cards are, so the
 * ring fills `width` x `height`: top row, bottom row, and `side` piles down each side.
 */
export function ringLayout(width, height, count = 17, minCw = 36) {
  const gap = Math.max(6, Math.min(16, Math.round(width / 90)));
  let best = null;
  for (let side = 1; side <= 5; side++) {
    for (let top = 2; top <= 10; top++) {
      const bottom = count - 2 * side - top;
      if (bottom < 2 || bottom > top || top - bottom > 1) continue;
      const rows = side + 2;
      const byHeight = (height - (rows - 1) * gap) / rows / (RATIO * (1 + 2 * FAN));
      const byWidth = (width - (top - 1) * gap) / top;
      let cw = Math.floor(Math.min(byHeight, byWidth, 112));
      // Leave room in the middle for the hole.
      while (cw > 20) {
        const ph = cw * RATIO * (1 + 2 * FAN);
        const innerW = width - 2 * (cw + gap);
        const innerH = height - 2 * (ph + gap);
        if (innerW >= cw * 1.7 && innerH >= cw * RATIO * 1.25) break;
        cw -= 1;
      }
      // A real ring (two or more piles down each side) unless its cards would be tiny.
      const score = side >= 2 && cw >= Math.max(36, minCw) ? 1000 + cw : cw;
      if (!best || score > best.score) best = { top, bottom, side, cw, gap, score };
    }
  }
  return best;
}

/**
 * The narrow screen's layout: the hole in a band one card high across the top, then the
 * piles in rows of `perRow`, read left to right (17 piles as 6 + 6 + 5), with the card
 * width the rows allow.
 */
export function gridLayout(width, height, count = 17) {
  const gap = Math.max(4, Math.min(10, Math.round(width / 50)));
  let best = null;
  for (let perRow = 4; perRow <= 8; perRow++) {
    const rows = Math.ceil(count / perRow);
    const byWidth = (width - (perRow - 1) * gap) / perRow;
    const byHeight = (height - (rows + 1) * gap - 4) / (RATIO * (1 + rows * (1 + 2 * FAN)));
    const cw = Math.floor(Math.min(byWidth, byHeight, 112));
    if (!best || cw > best.cw) best = { grid: true, perRow, rows, cw, gap };
  }
  return best;
}

/**
 * A screen held sideways, too low for a ring: the piles in rows of `perRow` and the hole
 * in the place after the last pile (17 piles as 9 + 8 and the hole), with the card
 * width the rows allow.
 */
export function cellLayout(width, height, count = 17) {
  const gap = Math.max(4, Math.min(10, Math.round(width / 70)));
  let best = null;
  for (let perRow = 5; perRow <= 9; perRow++) {
    const rows = Math.ceil((count + 1) / perRow);
    const byWidth = (width - (perRow - 1) * gap) / perRow;
    const byHeight = (height - (rows - 1) * gap - 4) / (RATIO * rows * (1 + 2 * FAN));
    const cw = Math.floor(Math.min(byWidth, byHeight, 112));
    if (!best || cw > best.cw) best = { cell: true, perRow, rows, cw, gap };
  }
  return best;
}

/** The ring, or (when the ring's cards would be narrower than `minCw`) the grid under a
 * band or the hole in the grid's last place, whichever has the widest cards. */
function chooseLayout(width, height, count, minCw) {
  const ring = ringLayout(width, height, count, minCw);
  if (ring.cw >= minCw) return ring;
  const grid = gridLayout(width, height, count);
  const cell = width > height ? cellLayout(width, height, count) : null;
  const best = cell && cell.cw > grid.cw ? cell : grid;
  return best.cw > ring.cw ? best : ring;
}

/** Where each pile goes when the hole takes the place after the last pile. */
function cellBoxes(layout, width, count) {
  const { perRow, cw, gap } = layout;
  const ch = cw * RATIO;
  const ph = ch * (1 + 2 * FAN);
  const left = (width - perRow * cw - (perRow - 1) * gap) / 2;
  const at = (i) => [left + (i % perRow) * (cw + gap), Math.floor(i / perRow) * (ph + gap)];
  const boxes = [...Array(count)].map((_, i) => at(i));
  const [x, y] = at(count);
  return { boxes, ch, ph, hole: { left: x, top: y, width: cw, height: ph, hcw: cw * 0.8 } };
}

/** Where each pile goes in the grid, and where the hole's band is. */
function gridBoxes(layout, width, count) {
  const { perRow, cw, gap } = layout;
  const ch = cw * RATIO;
  const ph = ch * (1 + 2 * FAN);
  const boxes = [];
  for (let i = 0; i < count; i++) {
    const row = Math.floor(i / perRow);
    const inRow = Math.min(perRow, count - row * perRow);
    const left = (width - inRow * cw - (inRow - 1) * gap) / 2;
    boxes.push([left + (i % perRow) * (cw + gap), ch + 2 * gap + row * (ph + gap)]);
  }
  return { boxes, ch, ph, hole: { left: 0, top: 0, width, height: ch, hcw: cw } };
}

function pileBox(layout, width, height) {
  const { top, bottom, side, cw, gap } = layout;
  const ch = cw * RATIO;
  const ph = ch * (1 + 2 * FAN);
  const boxes = [];
  const spread = (n, span, size) => (n === 1 ? [span / 2 - size / 2] : [...Array(n)].map((_, i) => (i * (span - size)) / (n - 1)));
  // Clockwise from the top-left corner.
  spread(top, width, cw).forEach((x) => boxes.push([x, 0]));
  const bandTop = ph + gap;
  const band = height - 2 * (ph + gap);
  const sideYs = [...Array(side)].map((_, j) => bandTop + ((j + 0.5) * band) / side - ph / 2);
  sideYs.forEach((y) => boxes.push([width - cw, y]));
  spread(bottom, width, cw).reverse().forEach((x) => boxes.push([x, height - ph]));
  sideYs.slice().reverse().forEach((y) => boxes.push([0, y]));
  // The hole, in the middle of the ring.
  const innerLeft = cw + gap;
  const innerTop = ph + gap;
  const innerW = width - 2 * innerLeft;
  const innerH = height - 2 * innerTop;
  const hcw = Math.min(cw * 1.15, innerW / 1.9, (innerH * 0.72) / RATIO);
  return { boxes, ch, ph, hole: { left: innerLeft, top: innerTop, width: innerW, height: innerH, hcw } };
}

export function render(table, state, { width, height, minCw = 36 }) {
  const position = state.position;
  const count = position.piles.length;
  const layout = chooseLayout(width, height, count, minCw);
  const { cw } = layout;
  const { boxes, ch, ph, hole: place } = layout.grid ? gridBoxes(layout, width, count) : layout.cell ? cellBoxes(layout, width, count) : pileBox(layout, width, height);
  const off = ch * FAN;
  table.style.setProperty("--cw", `${cw}px`);
  table.style.height = `${Math.max(height, ...boxes.map(([, y]) => y + ph + 4))}px`;
  const frag = document.createDocumentFragment();

  position.piles.forEach((pile, i) => {
    const [x, y] = boxes[i];
    const box = document.createElement("div");
    box.className = "pile";
    box.dataset.pile = String(i);
    box.style.left = `${x}px`;
    box.style.top = `${y}px`;
    box.style.height = `${ph}px`;
    box.append(makeSlot(null, "", "pile-base", pile.length ? "" : t("Pile {n}, empty", { n: i + 1 })));
    pile.forEach((code, j) => {
      const card = makeCard(code, `pile:${i}`, j);
      card.style.top = `${j * off}px`;
      card.style.zIndex = String(j + 1);
      box.append(card);
    });
    frag.append(box);
  });

  const hole = document.createElement("div");
  hole.className = layout.grid ? "hole band" : layout.cell ? "hole cell" : "hole";
  hole.dataset.drop = "foundation";
  hole.setAttribute("aria-label", t("The hole: {card} on top", { card: cardName(position.foundation[position.foundation.length - 1]) }));
  hole.style.left = `${place.left}px`;
  hole.style.top = `${place.top}px`;
  hole.style.width = `${place.width}px`;
  hole.style.height = `${place.height}px`;
  hole.style.setProperty("--hcw", `${place.hcw}px`);
  const vortex = document.createElement("div");
  vortex.className = "vortex";
  hole.append(vortex);
  const stack = document.createElement("div");
  stack.className = "hole-stack";
  const shown = position.foundation.slice(-4);
  const first = position.foundation.length - shown.length;
  shown.forEach((code, k) => {
    const card = makeCard(code, "foundation", first + k);
    const depth = shown.length - 1 - k;
    card.style.transform = depth ? `rotate(${(((first + k) * 37) % 21) - 10}deg)` : "";
    card.style.zIndex = String(k + 1);
    if (depth) card.classList.add("buried");
    stack.append(card);
  });
  hole.append(stack);
  const caption = document.createElement("div");
  caption.className = "hole-caption";
  const left = position.cards_left;
  caption.textContent = left === 0 ? t("All cards are in the hole") : tn("{n} card to go", "{n} cards to go", left, { n: left });
  hole.append(caption);
  frag.append(hole);
  table.replaceChildren(frag);
}
