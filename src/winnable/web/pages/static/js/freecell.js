// The free-cell family (Penguin and its variants, FreeCell, Eight Off, Baker's Game):
// free cells and foundations above, the columns below. Cards are as big as the width
// and the height allow (never under `minCw` while the columns still fit), and the
// columns fan out to use the height there is.

import { bandGap, bandNeed, cardName, cardSpan, columnMove, columnNumber, columnRows, layBands, makeCard, makeColumn, makeSlot, rankLabel, RATIO, splitRows, suitIcon, suitName } from "./cards.js";
import { leastFan, strips } from "./fan.js";
import { t } from "./i18n.js";

const FAN_MAX = 0.45; // a tall screen shows more of every card
const FAN_MIN = 0.27; // the rank and suit corner (the top 38 of 140 units) shows whole
const FAN_TUCK = 0.12; // a card inside a run of its suit, only when nothing else fits (fan.js)
/** A double tap (double click) sends a card to its foundation: on unless switched off. */
export const doubleTapHome = "on";
const SUIT_ORDER = ["C", "D", "H", "S"];
const RANKS = "A23456789TJQK";

export function places(position) {
  const map = new Map();
  position.columns.forEach((column, i) => map.set(`column:${i}`, column.slice()));
  (position.cells || []).forEach((card, i) => map.set(`cell:${i}`, card ? [card] : []));
  (position.foundations || []).forEach((f) => map.set(`foundation:${f.suit}`, f.cards.slice()));
  return map;
}

export function placeName(place) {
  const [kind] = place.split(":");
  if (kind === "cell") return t("a free cell");
  if (kind === "foundation") return t("its foundation");
  return t("column {n}", { n: columnNumber(place) });
}

/** The hint or move as a sentence (a message id and its params). */
export function sentence(entry, position) {
  const card = cardSpan(entry.card);
  if (entry.to === "foundation") return [t("Put {card} on its foundation."), { card }];
  if (entry.to.startsWith("cell")) return [t("Move {card} to a free cell."), { card }];
  const column = position.columns[columnNumber(entry.to) - 1] || [];
  const n = columnNumber(entry.to);
  const onto = column.length ? cardSpan(column[column.length - 1]) : null;
  const source = places(position).get(entry.from) || [];
  const last = source.length ? cardSpan(source[source.length - 1]) : card;
  return columnMove({ card, last, onto, n, count: entry.count });
}

/** Where an entry goes, in a few words (for the move announcement). */
export function destinationText(entry) {
  if (entry.to === "foundation") return t("to its foundation");
  if (entry.to.startsWith("cell")) return t("to a free cell");
  return t("to column {n}", { n: columnNumber(entry.to) });
}

/** The accessible name of a destination element while a card is selected. */
export function targetName(node) {
  const drop = node.dataset.drop || "";
  if (drop.startsWith("cell")) return t("Free cell {n}", { n: columnNumber(drop) });
  if (drop === "foundation") return t("Foundation of {suit}", { suit: suitName(node.dataset.suit) });
  return t("Column {n}", { n: columnNumber(drop) });
}

export function targetsFor(table, entry) {
  if (entry.to === "foundation") {
    const suit = entry.card ? entry.card.slice(-1) : null;
    const exact = suit && table.querySelector(`[data-drop="foundation"][data-suit="${suit}"]`);
    return exact ? [exact] : [...table.querySelectorAll('[data-drop="foundation"]')];
  }
  return [...table.querySelectorAll(`[data-drop="${entry.to}"]`)];
}

/** A column's height in card heights: its top card, then a strip for each card under it. */
const shape = (column) => [1, column.length - 1];
/** The least height of a column, its runs of one suit tucked. */
const least = (column) => 1 + leastFan(column, { min: FAN_MIN, tuck: FAN_TUCK });

/** The card size and arrangement for this table: the columns in one row, or in two on a
 * narrow screen; the free cells and foundations above them (in one row; the cells, then
 * the foundations; or two rows of cells beside the foundations two by two), or, when the
 * screen is too short for that, in a rail beside two rows of columns. */
function plan(position, width, height, minCw) {
  const k = position.columns.length;
  const cells = (position.cells || []).length;
  const slots = cells + 4;
  const gap = Math.max(3, Math.min(14, Math.round(width / 100)));
  const { rows, perRow } = columnRows(k, width, gap, minCw);
  const tableau = splitRows(position.columns, perRow).reduce((sum, band) => sum + bandNeed(band, shape, FAN_MIN), 0);
  const byColumns = (width - (perRow - 1) * gap) / perRow;
  // Height: the top rows, then the bands of columns at the smallest readable fan.
  const byHeight = (topRows) => (height - gap * (topRows + 1) - (rows - 1) * bandGap(gap) - 4) / (RATIO * (topRows + tableau));
  const options = [];
  // One row: cells, a wider gap, foundations.
  const rowCw = (width - (slots - 1) * gap - (cells ? 3 * gap : 0)) / slots;
  options.push({ top: "row", widthCw: Math.min(byColumns, rowCw), topLimit: rowCw, byHeight: byHeight(1) });
  // Two rows: the cells across, then the foundations on the right.
  const cellCw = cells ? (width - (cells - 1) * gap) / cells : byColumns;
  options.push({ top: "rows", widthCw: byColumns, topLimit: cellCw, byHeight: byHeight(cells ? 2 : 1) });
  // Two rows: the cells in two rows on the left, the foundations two by two on the right.
  const across = Math.ceil(cells / 2);
  if (cells > 1) options.push({ top: "grid", widthCw: byColumns, topLimit: (width - (across + 3) * gap) / (across + 2), byHeight: byHeight(2), across });
  if (rows === 1) {
    // A screen held sideways: the cells in a row above the columns, the foundations two
    // by two beside them (Penguin's and Eight Off's cells over their columns).
    const across = Math.max(perRow, cells) + 2;
    const besideCw = (width - (across + 1) * gap) / across;
    options.push({ top: "beside", widthCw: besideCw, topLimit: besideCw, byHeight: Math.min(byHeight(cells ? 1 : 0), (height - gap - 4) / (2 * RATIO)) });
  }
  if (rows > 1) {
    // A rail of two beside the columns: the cells two by two, then the foundations.
    const railRows = across + 2;
    const sideCw = (width - (perRow + 4) * gap) / (perRow + 2);
    const railHeight = (height - gap * railRows - 4) / (RATIO * railRows);
    options.push({ top: "side", widthCw: sideCw, topLimit: sideCw, byHeight: Math.min(railHeight, byHeight(0)), railRows });
  }
  let best = null;
  for (const option of options) {
    let cw = Math.min(104, option.widthCw, option.byHeight);
    cw = Math.floor(Math.max(cw, Math.min(minCw, option.widthCw)));
    // The top row's cards: a little bigger over one row of columns, never wider than their row.
    const limit = option.topLimit;
    const tcw = option.top === "row" || option.top === "beside" || !cells ? cw : Math.floor(Math.max(Math.min(cw * (rows === 1 ? 1.15 : 1), limit, 104), Math.min(cw, limit)));
    // One row leaves the columns more height, the rail is the last resort; a table whose
    // columns cannot fan out readably loses, and cards a finger cannot hit lose more.
    const weight = { row: 1.08, beside: 1.04, rows: 1, grid: 1, side: 0.92 }[option.top];
    const score = cw * weight - (option.byHeight < cw ? 500 : 0) - (Math.min(cw, tcw) < minCw ? 1000 : 0);
    if (!best || score > best.score) best = { ...option, cw, tcw, gap, rows, perRow, score };
  }
  return best;
}

export function render(table, state, { width, height, minCw = 30 }) {
  const position = state.position;
  const columns = position.columns;
  const cells = position.cells || [];
  const foundations = position.foundations || SUIT_ORDER.map((suit) => ({ suit, cards: [] }));
  const layout = plan(position, width, height, minCw);
  const { gap, cw, perRow } = layout;
  const ch = cw * RATIO;
  table.style.setProperty("--cw", `${cw}px`);

  const frag = document.createDocumentFragment();
  const tcw = layout.tcw; // the top rows' card width
  const tch = tcw * RATIO;
  let y = 0;
  const put = (node, x, yy) => {
    node.style.left = `${x}px`;
    node.style.top = `${yy}px`;
    frag.append(node);
  };

  const cellBox = (card, i, x, yy) => {
    const box = document.createElement("div");
    box.className = "cell";
    box.dataset.drop = `cell:${i}`;
    box.style.setProperty("--cw", `${tcw}px`);
    box.append(makeSlot(null, "", "cell-base", card ? "" : t("Free cell {n}, empty", { n: i + 1 })));
    if (card) box.append(makeCard(card, `cell:${i}`, 0));
    put(box, x, yy);
  };
  const base = position.base_rank ? rankLabel(position.base_rank) : "A";
  const foundationBox = (f, x, yy) => {
    const box = document.createElement("div");
    box.className = "foundation";
    box.dataset.drop = "foundation";
    box.dataset.suit = f.suit;
    box.style.setProperty("--cw", `${tcw}px`);
    const name = f.cards.length ? "" : t("Foundation of {suit}, empty: it starts with {card}", { suit: suitName(f.suit), card: cardName(position.base_rank ? position.base_rank + f.suit : "A" + f.suit) });
    box.append(makeSlot(null, `<b>${base}</b>${suitIcon(f.suit)}`, "foundation-base", name));
    const shown = f.cards.slice(-2);
    shown.forEach((code, j) => box.append(makeCard(code, `foundation:${f.suit}`, f.cards.length - shown.length + j)));
    put(box, x, yy);
  };

  const columnsSpan = perRow * cw + (perRow - 1) * gap;
  let tableauX = (width - columnsSpan - (layout.top === "side" ? 2 * tcw + 4 * gap : 0)) / 2;
  let bottom = 0; // the rail's
  if (layout.top === "row") {
    const topSpan = (cells.length + 4) * cw + (cells.length + 3) * gap + (cells.length ? 3 * gap : 0);
    const span = Math.max(columnsSpan, topSpan);
    const x0 = (width - span) / 2;
    cells.forEach((card, i) => cellBox(card, i, x0 + i * (cw + gap), 0));
    foundations.forEach((f, j) => foundationBox(f, x0 + span - (foundations.length - j) * (cw + gap) + gap, 0));
    const left = x0 + cells.length * (cw + gap);
    const right = x0 + span - foundations.length * (cw + gap);
    if (position.base_rank && position.base_rank !== "A" && right - left > 60) {
      const info = note(position);
      info.classList.add("centered");
      info.style.width = `${right - left}px`;
      info.style.height = `${ch}px`;
      put(info, left, 0);
    }
    y = ch + gap * 2;
  } else if (layout.top === "beside") {
    const across = Math.max(perRow, cells.length);
    const block = across * cw + (across - 1) * gap;
    const x0 = (width - block - 3 * gap - 2 * tcw - gap) / 2;
    cells.forEach((card, i) => cellBox(card, i, x0 + ((across - cells.length) * (cw + gap)) / 2 + i * (cw + gap), 0));
    const fx = x0 + block + 3 * gap;
    foundations.forEach((f, j) => foundationBox(f, fx + (j % 2) * (tcw + gap), Math.floor(j / 2) * (tch + gap)));
    tableauX = x0 + ((across - perRow) * (cw + gap)) / 2;
    bottom = 2 * tch + gap;
    y = cells.length ? ch + gap * 2 : 0;
  } else if (layout.top === "side") {
    const railX = tableauX + columnsSpan + 3 * gap;
    cells.forEach((card, i) => cellBox(card, i, railX + (i % 2) * (tcw + gap), Math.floor(i / 2) * (tch + gap)));
    const fy = Math.ceil(cells.length / 2) * (tch + gap) + gap;
    foundations.forEach((f, j) => foundationBox(f, railX + (j % 2) * (tcw + gap), fy + Math.floor(j / 2) * (tch + gap)));
    bottom = fy + 2 * tch + gap;
  } else if (layout.top === "grid") {
    // Cells in two rows on the left, the foundations two by two on the right.
    const { across } = layout;
    const span = (across + 2) * tcw + (across + 3) * gap;
    const x0 = (width - span) / 2;
    cells.forEach((card, i) => cellBox(card, i, x0 + (i % across) * (tcw + gap), Math.floor(i / across) * (tch + gap)));
    const fx = x0 + span - 2 * tcw - gap;
    foundations.forEach((f, j) => foundationBox(f, fx + (j % 2) * (tcw + gap), Math.floor(j / 2) * (tch + gap)));
    const left = x0 + across * (tcw + gap);
    if (position.base_rank && position.base_rank !== "A" && fx - gap - left > 60) {
      const info = note(position);
      info.classList.add("centered");
      info.style.width = `${fx - gap - left}px`;
      info.style.height = `${2 * tch + gap}px`;
      put(info, left, 0);
    }
    y = 2 * tch + gap * 3;
  } else {
    if (cells.length) {
      const span = cells.length * tcw + (cells.length - 1) * gap;
      const x0 = (width - span) / 2;
      cells.forEach((card, i) => cellBox(card, i, x0 + i * (tcw + gap), 0));
      y = tch + gap;
    }
    const x0 = width - foundations.length * (tcw + gap) + gap;
    foundations.forEach((f, j) => foundationBox(f, x0 + j * (tcw + gap), y));
    const info = note(position);
    info.style.width = `${Math.max(0, x0 - gap)}px`;
    info.style.height = `${tch}px`;
    put(info, 0, y);
    y += tch + gap * 2;
  }

  // The columns, in one band or two, fanned out to use the height there is.
  const max = cw < 70 ? FAN_MAX + 0.17 : FAN_MAX; // small cards: show more of each
  const bands = splitRows(columns, perRow);
  const laid = layBands(bands, { top: y, height, gap, ch, shape, min: FAN_MIN, max, squeeze: FAN_TUCK, least });
  bands.forEach((band, r) => {
    const { fan } = laid.bands[r];
    band.forEach((column, j) => {
      const i = r * perRow + j;
      const empty = !column.length;
      const upOffs = strips(column, fan, { min: FAN_MIN, tuck: FAN_TUCK }).map((strip) => strip * ch);
      const box = makeColumn(i, { up: column, ch, upOff: Math.max(fan, FAN_MIN) * ch, upOffs, label: empty ? emptyLabel(position) : "", name: empty ? emptyName(position, i) : "" });
      put(box, tableauX + j * (cw + gap), laid.bands[r].y);
    });
  });
  table.style.height = `${Math.max(height, laid.bottom + 4, bottom + 4)}px`;
  table.replaceChildren(frag);
}

/** What an empty column takes, when the rules restrict it: the rank below the base. */
function belowBase(position) {
  if (!position.rules || position.rules.empty_column !== "below-base") return null;
  const base = RANKS.indexOf(position.base_rank || "A");
  return RANKS[(base + 12) % 13];
}

function emptyLabel(position) {
  const rank = belowBase(position);
  const only = t("only");
  return rank ? `<small>${only}</small>${rankLabel(rank)}` : "";
}

function emptyName(position, i) {
  const rank = belowBase(position);
  return rank ? t("Column {n}, empty: only a {rank} may start it", { n: i + 1, rank: rankLabel(rank) }) : t("Column {n}, empty", { n: i + 1 });
}

function note(position) {
  const info = document.createElement("div");
  info.className = "table-note";
  if (position.base_rank && position.base_rank !== "A") {
    const span = document.createElement("span");
    const b = document.createElement("b");
    b.textContent = rankLabel(position.base_rank);
    const [before, after] = t("Foundations start at {rank}").split("{rank}");
    span.append(before || "", b, after || "");
    info.append(span);
  }
  return info;
}
