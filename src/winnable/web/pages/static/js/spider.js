// The spider family (Black Widow, Spider with 1, 2 or 4 suits): the stock and the
// completed runs above, ten columns below, face-down cards drawn as backs. On a narrow
// screen the ten columns stand in two rows of five, so that cards stay big enough to
// read and to touch.

import { bandGap, bandNeed, cardSpan, columnMove, columnNumber, columnRows, layBands, makeBack, makeCard, makeColumn, makeSlot, RATIO, splitRows } from "./cards.js";
import { leastFan, strips } from "./fan.js";
import { t, tn } from "./i18n.js";

const DOWN_FAN = 0.1;
const UP_MAX = 0.42;
// A covered face-up card shows at least its corner: the rank and the suit (the top 38
// of its 140 units), never a strip whose ranks overlap; only a card inside a run of its
// suit is tucked thinner, when a long column would not fit the screen otherwise (fan.js).
const UP_MIN = 0.28;
const UP_TUCK = 0.12;
const RUNS = 8;

export function places(position) {
  const map = new Map();
  position.columns.forEach((column, i) => map.set(`column:${i}`, [...Array(column.down).fill(null), ...column.up]));
  map.set("stock", Array(position.stock * 10).fill(null));
  return map;
}

export function placeName(place) {
  if (place === "stock") return t("the stock");
  return t("column {n}", { n: columnNumber(place) });
}

export function destinationText(entry) {
  if (entry.from === "stock") return "";
  return t("to column {n}", { n: columnNumber(entry.to) });
}

/** The hint or move as a sentence (a message id and its params). */
export function sentence(entry, position) {
  if (entry.from === "stock") return [t("Deal a row from the stock.")];
  const card = cardSpan(entry.card);
  const n = columnNumber(entry.to);
  const target = position.columns[n - 1];
  const onto = target && target.up.length ? cardSpan(target.up[target.up.length - 1]) : null;
  const source = position.columns[columnNumber(entry.from) - 1];
  const last = source && source.up.length ? cardSpan(source.up[source.up.length - 1]) : card;
  return columnMove({ card, last, onto, n, count: entry.count });
}

export function targetName(node) {
  return t("Column {n}", { n: columnNumber(node.dataset.drop) });
}

export function targetsFor(table, entry) {
  if (entry.from === "stock" || entry.to === "columns") return [...table.querySelectorAll("[data-drop^='column:']")];
  return [...table.querySelectorAll(`[data-drop="${entry.to}"]`)];
}

/** A column's height in card heights: its top card and face-down strips, then its face-up strips. */
const shape = (column) => [1 + column.down * DOWN_FAN, column.up.length - 1];
/** The least height of a column, its runs of one suit tucked. */
const least = (column) => 1 + column.down * DOWN_FAN + leastFan(column.up, { min: UP_MIN, tuck: UP_TUCK });

export function render(table, state, { width, height, minCw = 30 }) {
  const position = state.position;
  const columns = position.columns;
  const k = columns.length;
  const gap = Math.max(3, Math.min(12, Math.round(width / 110)));
  // Two rows of five when ten columns side by side would be too narrow.
  const { rows, perRow } = columnRows(k, width, gap, Math.max(minCw, 40));
  const bands = splitRows(columns, perRow);
  const byWidth = (width - (perRow - 1) * gap) / perRow;
  const need = 1 + bands.reduce((sum, band) => sum + bandNeed(band, shape, UP_MIN), 0); // the stock's row, then the bands
  const byHeight = (height - gap * 3 - (rows - 1) * bandGap(gap) - 4) / (RATIO * need);
  let cw = Math.min(96, byWidth, byHeight);
  cw = Math.floor(Math.max(cw, Math.min(minCw, byWidth)));
  const ch = cw * RATIO;
  const span = perRow * cw + (perRow - 1) * gap;
  const left0 = (width - span) / 2;
  table.style.setProperty("--cw", `${cw}px`);
  const frag = document.createDocumentFragment();

  // The stock: a button with a back per deal left.
  const stock = document.createElement("button");
  stock.type = "button";
  stock.className = "stock";
  stock.dataset.place = "stock";
  stock.dataset.index = "0";
  const deals = position.stock;
  const fan = Math.max(3, cw * 0.12);
  stock.style.left = `${left0}px`;
  stock.style.top = "0px";
  stock.style.width = `${cw + fan * Math.max(0, deals - 1)}px`;
  stock.style.height = `${ch}px`;
  stock.setAttribute("aria-label", deals ? tn("Stock: {n} deal left", "Stock: {n} deals left", deals, { n: deals }) : t("The stock is empty"));
  if (!deals) stock.append(makeSlot(null, "", "stock-empty"));
  for (let d = 0; d < deals; d++) {
    const back = makeBack();
    back.style.left = `${d * fan}px`;
    back.removeAttribute("role");
    back.removeAttribute("aria-label");
    stock.append(back);
  }
  const badge = document.createElement("span");
  badge.className = "stock-badge";
  badge.setAttribute("aria-hidden", "true");
  if (cw < 60) badge.textContent = String(deals);
  else badge.textContent = deals ? tn("{n} deal left", "{n} deals left", deals, { n: deals }) : t("no deals left");
  stock.append(badge);
  frag.append(stock);

  // Completed runs, right-aligned: one King per run, then empty slots.
  const runs = position.foundations || [];
  const slots = Math.max(RUNS, runs.length);
  const runStep = Math.max(4, Math.min(cw + gap, (span - (cw + fan * 4) - 2 * gap - cw) / Math.max(1, slots - 1)));
  const runsLeft = left0 + span - cw - runStep * (slots - 1);
  for (let r = 0; r < slots; r++) {
    const box = document.createElement("div");
    box.className = "run-slot";
    box.style.left = `${runsLeft + r * runStep}px`;
    box.style.top = "0px";
    box.style.zIndex = String(r + 1);
    if (r < runs.length) box.append(makeCard(`K${runs[r]}`, "runs", r));
    else if (r === runs.length) box.append(makeSlot(null, "", "run-base", tn("{n} run completed of 8", "{n} runs completed of 8", runs.length, { n: runs.length })));
    else box.append(makeSlot(null, "", "run-base"));
    frag.append(box);
  }

  const downOff = DOWN_FAN * ch;
  const max = cw < 70 ? UP_MAX + 0.12 : UP_MAX;
  const laid = layBands(bands, { top: ch + gap * 2, height, gap, ch, shape, min: UP_MIN, max, squeeze: UP_TUCK, least });
  bands.forEach((band, r) => {
    const { y, fan } = laid.bands[r];
    const upOff = Math.max(fan, UP_MIN) * ch;
    band.forEach((column, j) => {
      const i = r * perRow + j;
      const empty = column.down === 0 && column.up.length === 0;
      const upOffs = strips(column.up, fan, { min: UP_MIN, tuck: UP_TUCK }).map((strip) => strip * ch);
      const box = makeColumn(i, { down: column.down, up: column.up, ch, downOff, upOff, upOffs, name: empty ? t("Column {n}, empty", { n: i + 1 }) : "" });
      box.style.left = `${left0 + j * (cw + gap)}px`;
      box.style.top = `${y}px`;
      frag.append(box);
    });
  });
  table.style.height = `${Math.max(height, laid.bottom + 4)}px`;
  table.replaceChildren(frag);
}
