// The free-cell family (Penguin and its variants, FreeCell, Eight Off, Baker's Game):
// free cells and foundations above, the columns below.

import { makeCard, makeSlot, suitIcon, rankLabel } from "./cards.js";

const RATIO = 1.4;
const FAN_MAX = 0.3;
const FAN_MIN = 0.24; // the rank and suit strip stays readable
const SUIT_ORDER = ["C", "D", "H", "S"];

export function places(position) {
  const map = new Map();
  position.columns.forEach((column, i) => map.set(`column:${i}`, column.slice()));
  (position.cells || []).forEach((card, i) => map.set(`cell:${i}`, card ? [card] : []));
  (position.foundations || []).forEach((f) => map.set(`foundation:${f.suit}`, f.cards.slice()));
  return map;
}

export function placeName(place) {
  const [kind, i] = place.split(":");
  if (kind === "cell") return "a free cell";
  if (kind === "foundation") return "its foundation";
  return `column ${Number(i) + 1}`;
}

export function destinationText(entry) {
  if (entry.to === "foundation") return "to its foundation";
  if (entry.to.startsWith("cell")) return "to a free cell";
  return `to column ${Number(entry.to.split(":")[1]) + 1}`;
}

export function targetsFor(table, entry) {
  if (entry.to === "foundation") {
    const suit = entry.card ? entry.card.slice(-1) : null;
    const exact = suit && table.querySelector(`[data-drop="foundation"][data-suit="${suit}"]`);
    return exact ? [exact] : [...table.querySelectorAll('[data-drop="foundation"]')];
  }
  return [...table.querySelectorAll(`[data-drop="${entry.to}"]`)];
}

export function render(table, state, { width, height }) {
  const position = state.position;
  const columns = position.columns;
  const cells = position.cells || [];
  const foundations = position.foundations || SUIT_ORDER.map((suit) => ({ suit, cards: [] }));
  const k = columns.length;
  const gap = Math.max(4, Math.min(14, Math.round(width / 100)));
  let cw = Math.floor(Math.min(104, (width - (k - 1) * gap) / k));
  // Cells and foundations share the top row when the cards stay big enough for it.
  const topSlots = cells.length + foundations.length;
  const rowCw = Math.floor((width - (topSlots - 1) * gap - (cells.length ? 3 * gap : 0)) / topSlots);
  const oneRow = rowCw >= cw * 0.8 && rowCw >= 40;
  if (oneRow) cw = Math.min(cw, rowCw);
  const ch = cw * RATIO;
  table.style.setProperty("--cw", `${cw}px`);

  const frag = document.createDocumentFragment();
  let tcw = cw; // top-row card width
  let y = 0;
  const place = (el, x, yy, w) => {
    el.style.left = `${x}px`;
    el.style.top = `${yy}px`;
    if (w) el.style.width = `${w}px`;
    frag.append(el);
  };

  const cellBox = (card, i, x, yy) => {
    const box = document.createElement("div");
    box.className = "cell";
    box.dataset.drop = `cell:${i}`;
    box.style.setProperty("--cw", `${tcw}px`);
    box.append(makeSlot(null, "", "cell-base"));
    if (card) box.append(makeCard(card, `cell:${i}`, 0));
    place(box, x, yy);
  };
  const foundationBox = (f, x, yy) => {
    const box = document.createElement("div");
    box.className = "foundation";
    box.dataset.drop = "foundation";
    box.dataset.suit = f.suit;
    box.style.setProperty("--cw", `${tcw}px`);
    const base = position.base_rank ? rankLabel(position.base_rank) : "A";
    box.append(makeSlot(null, `<b>${base}</b>${suitIcon(f.suit)}`, "foundation-base"));
    const shown = f.cards.slice(-2);
    shown.forEach((code, j) => box.append(makeCard(code, `foundation:${f.suit}`, f.cards.length - shown.length + j)));
    place(box, x, yy);
  };

  const span = Math.max(k * cw + (k - 1) * gap, oneRow ? topSlots * cw + (topSlots + 2) * gap : 0);
  const x0 = (width - span) / 2;
  if (oneRow) {
    cells.forEach((card, i) => cellBox(card, i, x0 + i * (cw + gap), 0));
    foundations.forEach((f, j) => foundationBox(f, x0 + span - (foundations.length - j) * (cw + gap) + gap, 0));
    y = ch + gap * 2;
  } else {
    // Two rows: the cells across the table, then the foundations on the right.
    if (cells.length) {
      tcw = Math.floor(Math.min(cw, (width - (cells.length - 1) * gap) / cells.length));
      const span = cells.length * tcw + (cells.length - 1) * gap;
      const x0 = (width - span) / 2;
      cells.forEach((card, i) => cellBox(card, i, x0 + i * (tcw + gap), 0));
      y = tcw * RATIO + gap;
    }
    const x0 = width - foundations.length * (tcw + gap) + gap;
    foundations.forEach((f, j) => foundationBox(f, x0 + j * (tcw + gap), y));
    const info = document.createElement("div");
    info.className = "table-note";
    info.style.width = `${Math.max(0, x0 - gap)}px`;
    info.style.height = `${tcw * RATIO}px`;
    info.innerHTML = baseNote(position);
    place(info, 0, y);
    y += tcw * RATIO + gap * 2;
  }
  if (oneRow && position.base_rank) {
    const info = document.createElement("div");
    info.className = "table-note centered";
    const left = x0 + cells.length * (cw + gap);
    const right = x0 + span - foundations.length * (cw + gap);
    if (right - left > 60) {
      info.style.width = `${right - left}px`;
      info.style.height = `${ch}px`;
      info.innerHTML = baseNote(position);
      place(info, left, 0);
    }
  }

  const longest = Math.max(1, ...columns.map((c) => c.length));
  const room = Math.max(ch, height - y - 4);
  let fan = longest > 1 ? (room - ch) / (longest - 1) / ch : FAN_MAX;
  fan = Math.max(FAN_MIN, Math.min(cw < 60 ? FAN_MAX + 0.06 : FAN_MAX, fan)); // small cards: show more of each
  const off = fan * ch;
  let bottom = y + ch;
  columns.forEach((column, i) => {
    const box = document.createElement("div");
    box.className = "column";
    box.dataset.drop = `column:${i}`;
    const colHeight = ch + Math.max(0, column.length - 1) * off;
    box.style.height = `${colHeight}px`;
    box.append(makeSlot(null, column.length ? "" : emptyLabel(position), "column-base"));
    column.forEach((code, j) => {
      const card = makeCard(code, `column:${i}`, j);
      card.style.top = `${j * off}px`;
      card.style.zIndex = String(j + 1);
      box.append(card);
    });
    place(box, i * (cw + gap) + (width - (k * cw + (k - 1) * gap)) / 2, y);
    bottom = Math.max(bottom, y + colHeight);
  });
  table.style.height = `${Math.max(height, bottom + 8)}px`;
  table.replaceChildren(frag);
}

const RANKS = "A23456789TJQK";

/** What an empty column takes, when the rules restrict it: the rank below the base. */
function emptyLabel(position) {
  if (!position.rules || position.rules.empty_column !== "below-base") return "";
  const base = RANKS.indexOf(position.base_rank || "A");
  return `<small>only</small>${rankLabel(RANKS[(base + 12) % 13])}`;
}

function baseNote(position) {
  if (!position.base_rank || position.base_rank === "A") return "";
  const base = rankLabel(position.base_rank);
  return `<span>Foundations start at <b>${base}</b></span>`;
}
