// The free-cell family (Penguin and its variants, FreeCell, Eight Off, Baker's Game):
// free cells and foundations above, the columns below. Cards are as big as the width
// and the height allow (never under `minCw` while the columns still fit), and the
// columns fan out to use the height there is.

import { cardName, cardSpan, columnMove, makeCard, makeSlot, rankLabel, suitIcon, suitName } from "./cards.js";
import { t } from "./i18n.js";

const RATIO = 1.4;
const FAN_MAX = 0.45; // a tall screen shows more of every card
const FAN_MIN = 0.24; // the rank and suit strip stays readable
const FAN_SQUEEZE = 0.15; // only when nothing else fits
const SUIT_ORDER = ["C", "D", "H", "S"];
const RANKS = "A23456789TJQK";

export function places(position) {
  const map = new Map();
  position.columns.forEach((column, i) => map.set(`column:${i}`, column.slice()));
  (position.cells || []).forEach((card, i) => map.set(`cell:${i}`, card ? [card] : []));
  (position.foundations || []).forEach((f) => map.set(`foundation:${f.suit}`, f.cards.slice()));
  return map;
}

const columnNumber = (place) => Number(place.split(":")[1]) + 1;

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

/** The card size and arrangement for this table: the top row (cells and foundations in
 * one row, or cells then foundations in two), the card width, the fan. */
function plan(position, width, height, minCw) {
  const k = position.columns.length;
  const cells = (position.cells || []).length;
  const slots = cells + 4;
  const gap = Math.max(3, Math.min(14, Math.round(width / 100)));
  const longest = Math.max(1, ...position.columns.map((c) => c.length));
  const byColumns = (width - (k - 1) * gap) / k;
  const options = [];
  // One row: cells, a wider gap, foundations.
  const rowCw = (width - (slots - 1) * gap - (cells ? 3 * gap : 0)) / slots;
  options.push({ oneRow: true, widthCw: Math.min(byColumns, rowCw), topRows: 1 });
  // Two rows: the cells across, then the foundations on the right.
  const cellCw = cells ? (width - (cells - 1) * gap) / cells : byColumns;
  options.push({ oneRow: false, widthCw: byColumns, tcwLimit: cellCw, topRows: cells ? 2 : 1 });
  let best = null;
  for (const option of options) {
    // Height: the top rows, then the longest column at the smallest readable fan.
    const perCw = RATIO * option.topRows + RATIO * (1 + (longest - 1) * FAN_MIN);
    const gaps = gap * (option.topRows + 1) + 4;
    const byHeight = (height - gaps) / perCw;
    let cw = Math.min(104, option.widthCw, byHeight);
    cw = Math.floor(Math.max(cw, Math.min(minCw, option.widthCw)));
    // One row leaves the columns more height; cards a finger cannot hit lose.
    const score = (option.oneRow ? cw * 1.08 : cw) - (cw < minCw ? 1000 : 0);
    if (!best || score > best.score) best = { ...option, cw, gap, score, longest };
  }
  return best;
}

export function render(table, state, { width, height, minCw = 30 }) {
  const position = state.position;
  const columns = position.columns;
  const cells = position.cells || [];
  const foundations = position.foundations || SUIT_ORDER.map((suit) => ({ suit, cards: [] }));
  const k = columns.length;
  const layout = plan(position, width, height, minCw);
  const { gap, oneRow, longest } = layout;
  const cw = layout.cw;
  const ch = cw * RATIO;
  table.style.setProperty("--cw", `${cw}px`);

  const frag = document.createDocumentFragment();
  let tcw = cw; // top-row card width
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

  const columnsSpan = k * cw + (k - 1) * gap;
  if (oneRow) {
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
  } else {
    if (cells.length) {
      tcw = Math.floor(Math.max(Math.min(cw * 1.15, layout.tcwLimit, 104), Math.min(cw, layout.tcwLimit)));
      const span = cells.length * tcw + (cells.length - 1) * gap;
      const x0 = (width - span) / 2;
      cells.forEach((card, i) => cellBox(card, i, x0 + i * (tcw + gap), 0));
      y = tcw * RATIO + gap;
    }
    const x0 = width - foundations.length * (tcw + gap) + gap;
    foundations.forEach((f, j) => foundationBox(f, x0 + j * (tcw + gap), y));
    const info = note(position);
    info.style.width = `${Math.max(0, x0 - gap)}px`;
    info.style.height = `${tcw * RATIO}px`;
    put(info, 0, y);
    y += tcw * RATIO + gap * 2;
  }

  const room = Math.max(ch, height - y - 4);
  let fan = longest > 1 ? (room - ch) / (longest - 1) / ch : FAN_MAX;
  fan = Math.max(FAN_SQUEEZE, Math.min(cw < 70 ? FAN_MAX + 0.17 : FAN_MAX, fan)); // small cards: show more of each
  const off = fan * ch;
  let bottom = y + ch;
  const x0 = (width - columnsSpan) / 2;
  columns.forEach((column, i) => {
    const box = document.createElement("div");
    box.className = "column";
    box.dataset.drop = `column:${i}`;
    const colHeight = ch + Math.max(0, column.length - 1) * off;
    box.style.height = `${colHeight}px`;
    box.append(makeSlot(null, column.length ? "" : emptyLabel(position), "column-base", column.length ? "" : emptyName(position, i)));
    column.forEach((code, j) => {
      const card = makeCard(code, `column:${i}`, j);
      card.style.top = `${j * off}px`;
      card.style.zIndex = String(j + 1);
      box.append(card);
    });
    put(box, x0 + i * (cw + gap), y);
    bottom = Math.max(bottom, y + colHeight);
  });
  table.style.height = `${Math.max(height, bottom + 4)}px`;
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
