// The spider family (Black Widow, Spider with 1, 2 or 4 suits): the stock and the
// completed runs above, ten columns below, face-down cards drawn as backs.

import { makeBack, makeCard, makeSlot } from "./cards.js";

const RATIO = 1.4;
const DOWN_FAN = 0.1;
const UP_MAX = 0.3;
const UP_MIN = 0.24;
const RUNS = 8;

export function places(position) {
  const map = new Map();
  position.columns.forEach((column, i) => map.set(`column:${i}`, [...Array(column.down).fill(null), ...column.up]));
  map.set("stock", Array(position.stock * 10).fill(null));
  return map;
}

export function placeName(place) {
  if (place === "stock") return "the stock";
  return `column ${Number(place.split(":")[1]) + 1}`;
}

export function destinationText(entry) {
  if (entry.from === "stock") return "";
  return `to column ${Number(entry.to.split(":")[1]) + 1}`;
}

export function targetsFor(table, entry) {
  if (entry.from === "stock" || entry.to === "columns") return [...table.querySelectorAll("[data-drop^='column:']")];
  return [...table.querySelectorAll(`[data-drop="${entry.to}"]`)];
}

export function render(table, state, { width, height }) {
  const position = state.position;
  const columns = position.columns;
  const k = columns.length;
  const gap = Math.max(3, Math.min(12, Math.round(width / 110)));
  const cw = Math.floor(Math.min(96, (width - (k - 1) * gap) / k));
  const ch = cw * RATIO;
  const left0 = (width - (k * cw + (k - 1) * gap)) / 2;
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
  stock.setAttribute("aria-label", deals ? `Deal a row: ${deals} deal${deals === 1 ? "" : "s"} left` : "The stock is empty");
  if (!deals) stock.append(makeSlot(null, "", "stock-empty"));
  for (let d = 0; d < deals; d++) {
    const back = makeBack();
    back.style.left = `${d * fan}px`;
    back.removeAttribute("role");
    stock.append(back);
  }
  const badge = document.createElement("span");
  badge.className = "stock-badge";
  if (cw < 60) badge.textContent = String(deals);
  else badge.textContent = deals ? `${deals} deal${deals === 1 ? "" : "s"} left` : "no deals left";
  stock.append(badge);
  frag.append(stock);

  // Completed runs, right-aligned: one King per run, then empty slots.
  const runs = position.foundations || [];
  const slots = Math.max(RUNS, runs.length);
  const runStep = Math.min(cw + gap, (width - left0 - (cw + fan * 4) - 2 * gap - cw) / Math.max(1, slots - 1));
  const runsLeft = width - left0 - cw - runStep * (slots - 1);
  for (let r = 0; r < slots; r++) {
    const x = runsLeft + r * runStep;
    const box = document.createElement("div");
    box.className = "run-slot";
    box.style.left = `${x}px`;
    box.style.top = "0px";
    box.style.zIndex = String(r + 1);
    if (r < runs.length) {
      box.append(makeCard(`K${runs[r]}`, "runs", r));
    } else {
      box.append(makeSlot(null, "", "run-base"));
    }
    frag.append(box);
  }

  const y = ch + gap * 2;
  const longestUp = Math.max(1, ...columns.map((c) => c.up.length));
  const deepest = Math.max(0, ...columns.map((c) => c.down));
  const room = Math.max(ch, height - y - 4);
  let upFan = longestUp > 1 ? (room - ch - deepest * DOWN_FAN * ch) / (longestUp - 1) / ch : UP_MAX;
  upFan = Math.max(UP_MIN, Math.min(cw < 60 ? UP_MAX + 0.08 : UP_MAX, upFan)); // small cards: show more of each
  const downOff = DOWN_FAN * ch;
  const upOff = upFan * ch;
  let bottom = y + ch;
  columns.forEach((column, i) => {
    const box = document.createElement("div");
    box.className = "column";
    box.dataset.drop = `column:${i}`;
    box.append(makeSlot(null, "", "column-base"));
    let top = 0;
    for (let d = 0; d < column.down; d++) {
      const back = makeBack(`column:${i}`, d);
      back.style.top = `${top}px`;
      back.style.zIndex = String(d + 1);
      box.append(back);
      top += downOff;
    }
    column.up.forEach((code, j) => {
      const card = makeCard(code, `column:${i}`, column.down + j);
      card.style.top = `${top}px`;
      card.style.zIndex = String(column.down + j + 1);
      box.append(card);
      top += upOff;
    });
    const colHeight = ch + Math.max(0, top - (column.up.length ? upOff : downOff));
    box.style.height = `${colHeight}px`;
    box.style.left = `${left0 + i * (cw + gap)}px`;
    box.style.top = `${y}px`;
    frag.append(box);
    bottom = Math.max(bottom, y + colHeight);
  });
  table.style.height = `${Math.max(height, bottom + 8)}px`;
  table.replaceChildren(frag);
}
