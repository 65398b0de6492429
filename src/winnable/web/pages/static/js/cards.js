// Card drawing: every card is a small inline SVG on a 100 x 140 grid, so it stays crisp
// at any size. The rank sits top left and the suit top right, so a card stays readable
// when only its top strip shows in a fanned pile or column. Ranks are drawn with the
// page's language's letters (French R D V, Dutch H V B); the codes stay English ("QH").

import { t, tp } from "./i18n.js";

const SVG_NS = "http://www.w3.org/2000/svg";

/** A card's height over its width, in every family's layout. */
export const RATIO = 1.4;

export const SUITS = { C: "clubs", D: "diamonds", H: "hearts", S: "spades" };
export const SUIT_SYMBOL = { C: "\u2663", D: "\u2666", H: "\u2665", S: "\u2660" };

/** "7 of hearts", "Queen of spades": a card's name for screen readers. */
const CARD_NAMES = {
  C: (rank) => t("{rank} of clubs", { rank }),
  D: (rank) => t("{rank} of diamonds", { rank }),
  H: (rank) => t("{rank} of hearts", { rank }),
  S: (rank) => t("{rank} of spades", { rank }),
};
function rankName(rank) {
  switch (rank) {
    // Translators: a rank's name inside a card's name ("{rank} of hearts"), for screen readers.
    case "A": return tp("card name", "Ace");
    case "J": return tp("card name", "Jack");
    case "Q": return tp("card name", "Queen");
    case "K": return tp("card name", "King");
    case "T": return "10";
    default: return rank;
  }
}

/** "hearts" in the page's language. */
export function suitName(suit) {
  return { C: t("clubs"), D: t("diamonds"), H: t("hearts"), S: t("spades") }[suit] || suit;
}

// Suit outlines, drawn for this project on a 100 x 100 grid.
const SUIT_PATHS = {
  H: "M50 90C22 66 4 50 4 30C4 14 16 4 29 4C39 4 46 10 50 19C54 10 61 4 71 4C84 4 96 14 96 30C96 50 78 66 50 90Z",
  D: "M50 3L87 50L50 97L13 50Z",
  S: "M50 3C78 27 96 42 96 60C96 75 85 84 72 84C63 84 56 80 53 73C54 83 58 90 67 97L33 97C42 90 46 83 47 73C44 80 37 84 28 84C15 84 4 75 4 60C4 42 22 27 50 3Z",
  C: "M50 5A21 21 0 0 1 66 40A21 21 0 1 1 54 71C55 82 59 90 67 97L33 97C41 90 45 82 46 71A21 21 0 1 1 34 40A21 21 0 0 1 50 5Z",
};

/** Put the suit symbols in the page once, for `<use href="#suit-H">`. */
export function installSprite(doc = document) {
  if (doc.getElementById("suit-sprite")) return;
  const svg = doc.createElementNS(SVG_NS, "svg");
  svg.setAttribute("id", "suit-sprite");
  svg.setAttribute("aria-hidden", "true");
  svg.style.position = "absolute";
  svg.style.width = "0";
  svg.style.height = "0";
  svg.innerHTML = Object.entries(SUIT_PATHS)
    .map(([suit, d]) => `<symbol id="suit-${suit}" viewBox="0 0 100 100"><path d="${d}"/></symbol>`)
    .join("");
  doc.body.prepend(svg);
}

export function parseCard(code) {
  const rank = code.slice(0, -1).toUpperCase();
  const suit = code.slice(-1).toUpperCase();
  return { rank: rank === "10" ? "T" : rank, suit, red: suit === "H" || suit === "D" };
}

/** A rank as the page's language writes it on a card: "10", "K" / "R" / "H". */
export function rankLabel(rank) {
  switch (rank) {
    // Translators: the letter on the cards of each rank, as players of the language know them.
    case "A": return tp("card rank", "A");
    case "J": return tp("card rank", "J");
    case "Q": return tp("card rank", "Q");
    case "K": return tp("card rank", "K");
    case "T": return "10";
    default: return rank;
  }
}

/** "7♥", for messages. */
export function cardText(code) {
  const { rank, suit } = parseCard(code);
  return rankLabel(rank) + SUIT_SYMBOL[suit];
}

/** "7 of hearts", for screen readers. */
export function cardName(code) {
  const { rank, suit } = parseCard(code);
  return (CARD_NAMES[suit] || CARD_NAMES.S)(rankName(rank));
}

/** A message-friendly span: "7♥" in the suit's colour. */
export function cardSpan(code) {
  const span = document.createElement("span");
  span.className = "card-name " + (parseCard(code).red ? "red" : "black");
  span.textContent = cardText(code);
  span.dataset.name = cardName(code);
  return span;
}

const faceCache = new Map();

function faceMarkup(code) {
  let markup = faceCache.get(code);
  if (markup) return markup;
  const { rank, suit } = parseCard(code);
  const label = rankLabel(rank);
  const index =
    `<text class="rank${label.length > 1 ? " wide" : ""}" x="7" y="36">${label}</text>` +
    `<use href="#suit-${suit}" x="66" y="8" width="28" height="28"/>`;
  let middle;
  if (rank === "J" || rank === "Q" || rank === "K") {
    middle =
      `<rect class="frame" x="17" y="46" width="66" height="84" rx="7"/>` +
      `<use class="ghost" href="#suit-${suit}" x="24" y="58" width="52" height="52"/>` +
      `<text class="court" x="50" y="106" text-anchor="middle">${label}</text>`;
  } else if (rank === "A") {
    middle = `<use href="#suit-${suit}" x="17" y="50" width="66" height="66"/>`;
  } else {
    middle = `<use href="#suit-${suit}" x="24" y="56" width="52" height="52"/>`;
  }
  markup = `<svg viewBox="0 0 100 140" aria-hidden="true" focusable="false">${index}${middle}</svg>`;
  faceCache.set(code, markup);
  return markup;
}

/** A move of `count` cards (led by `card`, ending with `last`) to column `n`, onto the
 * card `onto` or into the empty column (null), as a sentence: a message id and its
 * params (the free-cell and Spider families word their column moves alike). */
export function columnMove({ card, last, onto, n, count }) {
  if (count === 2) {
    return onto
      ? [t("Move {card} and {last} onto {onto} in column {n}."), { card, last, onto, n }]
      : [t("Move {card} and {last} to the empty column {n}."), { card, last, n }];
  }
  if (count > 2) {
    return onto
      ? [t("Move the {count} cards from {card} to {last} onto {onto} in column {n}."), { card, last, onto, n, count }]
      : [t("Move the {count} cards from {card} to {last} to the empty column {n}."), { card, last, n, count }];
  }
  return onto ? [t("Move {card} onto {onto} in column {n}."), { card, onto, n }] : [t("Move {card} to the empty column {n}."), { card, n }];
}

/**
 * A face-up card element. `place` and `index` say where it lies ("column:3", 0-based
 * index from the bottom of that place); they are also the hooks tests select on.
 */
export function makeCard(code, place = null, index = null) {
  const { suit, red } = parseCard(code);
  const card = document.createElement("div");
  card.className = `card face ${red ? "red" : "black"} suit-${suit}`;
  card.dataset.card = code;
  if (place !== null) card.dataset.place = place;
  if (index !== null) card.dataset.index = String(index);
  card.setAttribute("role", "img");
  card.setAttribute("aria-label", cardName(code));
  card.innerHTML = faceMarkup(code);
  return card;
}

/** A face-down card (the spider family's hidden cards, the stock). */
export function makeBack(place = null, index = null) {
  const card = document.createElement("div");
  card.className = "card back";
  if (place !== null) card.dataset.place = place;
  if (index !== null) card.dataset.index = String(index);
  card.setAttribute("role", "img");
  card.setAttribute("aria-label", t("face-down card"));
  return card;
}

/** An empty place a card can be dropped on: a column, a cell, a foundation. `name` is
 * its accessible name ("Empty column 3"); `label` what it shows (markup of our own). */
export function makeSlot(drop, label = "", extraClass = "", name = "") {
  const slot = document.createElement("div");
  slot.className = "slot" + (extraClass ? " " + extraClass : "");
  if (drop) slot.dataset.drop = drop;
  if (name) {
    slot.setAttribute("role", "img");
    slot.setAttribute("aria-label", name);
  }
  if (label) {
    const span = document.createElement("span");
    span.className = "slot-label";
    span.setAttribute("aria-hidden", "true");
    span.innerHTML = label;
    slot.append(span);
  }
  return slot;
}

/** Markup for a suit symbol inside a label. */
export function suitIcon(suit, extraClass = "") {
  const red = suit === "H" || suit === "D";
  return `<svg class="suit-icon ${red ? "red" : "black"} ${extraClass}" viewBox="0 0 100 100" aria-hidden="true"><use href="#suit-${suit}"/></svg>`;
}

// ---- tableau geometry, shared by the column games (the free-cell and Spider families)

/** The 1-based number of a place such as "column:3" or "cell:0": 4, 1. */
export const columnNumber = (place) => Number(place.split(":")[1]) + 1;

/**
 * A column of the tableau, "column:i": its slot (showing `label`, named `name` when it is
 * empty), then `down` face-down cards `downOff` px apart and the face-up `up` cards
 * `upOff` px apart (or each `upOffs[u]` px above the next, a card thinner than `upOff`
 * marked tucked); as tall as its cards (`ch` is a card's height).
 */
export function makeColumn(i, { down = 0, up, ch, downOff = 0, upOff, upOffs = null, label = "", name = "" }) {
  const place = `column:${i}`;
  const box = document.createElement("div");
  box.className = "column";
  box.dataset.drop = place;
  box.append(makeSlot(null, label, "column-base", name));
  let top = 0;
  for (let d = 0; d < down; d++) {
    const back = makeBack(place, d);
    back.style.top = `${top}px`;
    back.style.zIndex = String(d + 1);
    box.append(back);
    top += downOff;
  }
  up.forEach((code, u) => {
    const card = makeCard(code, place, down + u);
    card.style.top = `${top}px`;
    card.style.zIndex = String(down + u + 1);
    const step = upOffs && u < upOffs.length ? upOffs[u] : upOff;
    if (upOffs && u < upOffs.length && step < upOff - 0.5) card.classList.add("tucked");
    box.append(card);
    top += step;
  });
  const last = up.length ? (upOffs && upOffs.length >= up.length ? upOffs[up.length - 1] : upOff) : downOff;
  box.style.height = `${ch + Math.max(0, top - last)}px`;
  return box;
}

/**
 * How many rows `count` columns stand in: one when each can be `minCw` px wide beside its
 * gaps, two otherwise (ten columns as 5 + 5, eight as 4 + 4, seven as 4 + 3), so that
 * cards stay big enough to read and to touch on a narrow screen.
 *
 *   columnRows(8, 312, 3, 44)  // { rows: 2, perRow: 4 }
 *   columnRows(8, 382, 4, 44)  // { rows: 1, perRow: 8 }
 */
export function columnRows(count, width, gap, minCw) {
  const rows = (width - (count - 1) * gap) / count < minCw ? 2 : 1;
  return { rows, perRow: Math.ceil(count / rows) };
}

/** The columns of each row, for `columnRows`: `[[c0, c1, c2, c3], [c4, c5, c6]]`. */
export function splitRows(columns, perRow) {
  const bands = [];
  for (let i = 0; i < columns.length; i += perRow) bands.push(columns.slice(i, i + perRow));
  return bands;
}

/**
 * How tall a band (a row of columns) is, in card heights, when every fanned strip shows
 * `fan` of a card. `shape(column)` is `[fixed, fanned]`: the card heights that do not
 * depend on the fan (the top card, face-down strips) and the number of fanned strips.
 *
 *   bandNeed([["AS", "2H"], ["KD"]], (c) => [1, c.length - 1], 0.25)  // 1.25
 */
export function bandNeed(band, shape, fan) {
  let need = 1;
  for (const column of band) {
    const [fixed, fanned] = shape(column);
    need = Math.max(need, fixed + Math.max(0, fanned) * fan);
  }
  return need;
}

/** The space between two bands of columns: wider than between columns, so that a band's
 * top cards do not look like the next cards of the columns above. */
export const bandGap = (gap) => 2 * gap + 2;

/**
 * Lays bands of columns down the table from `top` to `height`: each band gets a share of
 * the height in proportion to what it needs at the readable fan `min`, and its columns
 * fan out alike, as far as its longest one fits in that share (between `squeeze` and
 * `max` of a card's height), so a long column never runs into the band below; a band too
 * long even at `squeeze` pushes the next one down (the table grows).
 *
 * `least(column)`, if given, is the least height a column takes however thin its fan
 * (its corners kept: see fan.js), so a band is as tall as its longest column really is.
 *
 * Returns each band's `y` and `fan`, and the lowest card's bottom.
 */
export function layBands(bands, { top, height, gap, ch, shape, min, max, squeeze, least = null }) {
  const needs = bands.map((band) => bandNeed(band, shape, min));
  const total = needs.reduce((a, b) => a + b, 0);
  const room = Math.max(ch, height - top - 4);
  let y = top;
  let bottom = top + ch;
  const laid = bands.map((band, r) => {
    const share = bands.length === 1 ? room : ((room - bandGap(gap) * (bands.length - 1)) * needs[r]) / total;
    let fan = max;
    for (const column of band) {
      const [fixed, fanned] = shape(column);
      if (fanned > 0) fan = Math.min(fan, (share / ch - fixed) / fanned);
    }
    fan = Math.max(squeeze, fan);
    const floor = least ? Math.max(...band.map(least)) : 0;
    const bandBottom = y + ch * Math.max(floor, bandNeed(band, shape, fan));
    const placed = { y, fan };
    bottom = Math.max(bottom, bandBottom);
    y = Math.max(bandBottom, y + share) + bandGap(gap);
    return placed;
  });
  return { bands: laid, bottom };
}
