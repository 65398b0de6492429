// Pointer and touch: tap to pick up and put down, drag to choose the place directly.

import { el } from "./dom.js";
import { t } from "./i18n.js";
import { draw, focusCard } from "./play-draw.js";
import { lookingText, refuse, sendMove } from "./play-game.js";
import { doubleTap } from "./play-home.js";
import { activate, clearSelection, pickFrom, placeAt } from "./play-pick.js";
import { announce, app, currentLegal, enqueue, plainSentence, say, table } from "./play-state.js";

let drag = null;
let suppressClick = false;
// A finger's tap is played from its own pointer events, where the finger touched: the
// click the browser makes of it afterwards may land elsewhere (touch adjustment moves it
// to a nearby card, e.g. from a run's thin strip to the card on it), so it is dropped.
let press = null; // a finger down on the table: {target, x, y, id}
let fingerTapAt = -Infinity;
const TAP_SLOP = 10; // CSS px a finger may move and still tap
const CLICK_AFTER_TAP = 800; // ms during which the browser's click after a tap is dropped

// A tap outside the table (not on a control) puts a picked-up card back.

// A mouse or finger plays without moving the keyboard focus (and its ring) to the card.

function runNodes(place, index) {
  return [...table.querySelectorAll(`[data-place="${place}"]`)].filter((n) => Number(n.dataset.index) >= index).sort((a, b) => a.dataset.index - b.dataset.index);
}

function startDrag() {
  clearSelection(false);
  // What a tap there would pick up (touch: a run whose strips are thin, whole), the
  // longest part of it that fits a place going there.
  const pick = pickFrom(drag.node);
  drag.index = pick.index;
  const nodes = runNodes(drag.place, drag.index);
  const ghost = el("div", { class: "drag-ghost" });
  ghost.style.setProperty("--cw", getComputedStyle(drag.node).width);
  for (const node of nodes) {
    const rect = node.getBoundingClientRect();
    const copy = node.cloneNode(true);
    copy.classList.remove("playable", "kfocus", "hint-src", "flying", "selected");
    copy.style.left = `${rect.left}px`;
    copy.style.top = `${rect.top}px`;
    copy.style.width = `${rect.width}px`;
    copy.style.height = `${rect.height}px`;
    copy.style.transform = "";
    copy.style.translate = "";
    ghost.append(copy);
    node.classList.add("lifted");
  }
  document.body.append(ghost);
  drag.ghost = ghost;
  drag.nodes = nodes;
  drag.entries = [...pick.entries].sort((a, b) => b.count - a.count);
  drag.targets = drag.entries.map((entry) => [entry, app.family.targetsFor(table, entry)]);
  for (const [, targets] of drag.targets) targets.forEach((target) => target.classList.add("drop-ok"));
}

/** The entry whose destination lies under the pointer or overlaps the dragged card most. */
function dropChoice(current, x, y) {
  if (!current || !current.ghost) return null;
  const lead = current.ghost.firstElementChild.getBoundingClientRect();
  let best = null;
  let bestArea = 0;
  for (const [entry, targets] of current.targets) {
    for (const target of targets) {
      const r = target.getBoundingClientRect();
      // A column's drop area reaches down to its last card.
      const last = target.querySelector(".card:last-of-type");
      const bottom = last ? Math.max(r.bottom, last.getBoundingClientRect().bottom) : r.bottom;
      if (x >= r.left && x <= r.right && y >= r.top && y <= bottom) return [entry, target];
      const w = Math.min(lead.right, r.right) - Math.max(lead.left, r.left);
      const h = Math.min(lead.bottom, bottom) - Math.max(lead.top, r.top);
      const area = w > 0 && h > 0 ? w * h : 0;
      if (area > bestArea) {
        bestArea = area;
        best = [entry, target];
      }
    }
  }
  return bestArea > lead.width * lead.height * 0.15 ? best : null;
}

function markDropTarget(x, y) {
  for (const node of table.querySelectorAll(".drop-here")) node.classList.remove("drop-here");
  const choice = dropChoice(drag, x, y);
  if (choice) choice[1].classList.add("drop-here");
}

function endDrag(event, cancelled) {
  const current = drag;
  drag = null;
  if (!current || !current.ghost) return;
  suppressClick = true;
  setTimeout(() => (suppressClick = false), 0);
  for (const node of table.querySelectorAll(".drop-ok, .drop-here")) node.classList.remove("drop-ok", "drop-here");
  const choice = cancelled ? null : dropChoice(current, event.clientX, event.clientY);
  if (choice) {
    const [entry] = choice;
    const copies = [...current.ghost.children];
    app.dragRects = current.nodes.map((node, i) => ({ code: node.dataset.card, from: node.getBoundingClientRect(), to: copies[i].getBoundingClientRect() }));
    // The ghost stays where it was dropped until the server answers and the table is redrawn.
    enqueue(async () => {
      try {
        if (app.review) return;
        const still = currentLegal().find((e) => e.move === entry.move);
        if (still) {
          const spoken = plainSentence(still, app.state.position);
          await sendMove(still.move);
          announce(spoken);
        } else draw({ animate: true });
      } finally {
        app.dragRects = null;
        current.ghost.remove();
        current.nodes.forEach((n) => n.classList.remove("lifted"));
      }
    });
  } else {
    const ghost = current.ghost;
    ghost.classList.add("returning");
    ghost.style.translate = "0px 0px";
    const done = () => {
      ghost.remove();
      current.nodes.forEach((n) => n.classList.remove("lifted"));
    };
    ghost.addEventListener("transitionend", done, { once: true });
    setTimeout(done, 300);
  }
}

/** A tap or click on `target` in the table: pick up, put down, play or refuse. `at`: the
 * event's time (its `timeStamp`, when the finger or button acted, not when a busy page got
 * to it). */
function tapOn(target, clicks = 0, at = performance.now()) {
  if (!app.state || !target.isConnected) return;
  if (app.review || app.shown) {
    if (target.closest("[data-place]")) say(lookingText());
    return;
  }
  app.keyboard = false;
  // With a card picked up, a tap on one of its places puts it there.
  const drop = target.closest("[data-drop]");
  if (app.selection && drop && table.contains(drop) && placeAt(drop)) return;
  const node = target.closest("[data-place]");
  if (node && table.contains(node) && node.dataset.place !== "runs" && !node.dataset.place.startsWith("foundation")) {
    if (doubleTap(node, { clicks, at })) return; // the second tap of a double tap: the card went home
    activate(node);
    return;
  }
  // Anywhere else: put the card back.
  if (app.selection) {
    clearSelection();
    announce(t("Put back."));
  } else if (node) {
    refuse(node.dataset.place, Number(node.dataset.index), node);
  }
}

/** Taps, clicks and drags on the table (the page calls this once, before anything else listens). */
export function listenPointer() {
  table.addEventListener("click", (event) => {
    if (suppressClick) return;
    if (event.timeStamp - fingerTapAt < CLICK_AFTER_TAP) return; // played already, where the finger was
    tapOn(event.target, Math.max(1, event.detail), event.timeStamp);
  });
  // A tap's browser-made mouse events and click are not wanted: the tap has been played.
  table.addEventListener("touchend", (event) => {
    if (event.timeStamp - fingerTapAt < 100 && event.cancelable) event.preventDefault();
  });
  document.addEventListener("click", (event) => {
    if (!app.selection || table.contains(event.target) || event.target.closest("button, a, input, select, label, .menu, .overlay")) return;
    clearSelection();
    announce(t("Put back."));
  });
  table.addEventListener("mousedown", (event) => {
    if (event.target.closest("[data-place], [data-drop]")) event.preventDefault();
  });
  table.addEventListener("focusin", (event) => {
    const node = event.target.closest(".playable, .target");
    if (node && !node.classList.contains("kfocus")) {
      app.keyboard = true;
      focusCard(node);
    }
  });
  table.addEventListener("pointerdown", (event) => {
    if (event.pointerType === "touch" && event.isPrimary) press = { target: event.target, x: event.clientX, y: event.clientY, id: event.pointerId };
    if (event.button !== 0 || app.review || app.shown || app.finishing) return;
    const node = event.target.closest(".card.playable[data-card]");
    if (!node) return;
    drag = { node, place: node.dataset.place, index: Number(node.dataset.index), x: event.clientX, y: event.clientY, id: event.pointerId, ghost: null };
  });
  window.addEventListener("pointermove", (event) => {
    if (!drag || event.pointerId !== drag.id) return;
    const dx = event.clientX - drag.x;
    const dy = event.clientY - drag.y;
    if (!drag.ghost) {
      if (Math.hypot(dx, dy) < 7) return;
      startDrag();
    }
    drag.ghost.style.translate = `${dx}px ${dy}px`;
    markDropTarget(event.clientX, event.clientY);
    event.preventDefault();
  });
  window.addEventListener("pointerup", (event) => {
    const dragged = !!(drag && event.pointerId === drag.id && drag.ghost);
    if (drag && event.pointerId === drag.id) {
      if (drag.ghost) endDrag(event, false);
      else drag = null;
    }
    if (press && event.pointerId === press.id) {
      const finger = press;
      press = null;
      // (A link on the table, as when the game cannot be shown, follows its own click.)
      const played = app.state && !finger.target.closest("a");
      if (played && !dragged && Math.hypot(event.clientX - finger.x, event.clientY - finger.y) <= TAP_SLOP) {
        fingerTapAt = event.timeStamp;
        tapOn(finger.target, 0, event.timeStamp);
      }
    }
  });
  window.addEventListener("pointercancel", (event) => {
    if (press && event.pointerId === press.id) press = null;
    if (drag && event.pointerId === drag.id) endDrag(event, true);
  });
}
