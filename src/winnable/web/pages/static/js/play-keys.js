// The keyboard: arrows move the focus between cards, Enter picks up and puts down.

import { $ } from "./dom.js";
import { t } from "./i18n.js";
import { anchor, clearHighlights, focusCard, nearest } from "./play-draw.js";
import { finish, redo, undo } from "./play-game.js";
import { closeOverlay } from "./play-overlay.js";
import { hint } from "./play-hint.js";
import { activate, clearSelection, placeAt } from "./play-pick.js";
import { endReview } from "./play-review.js";
import { showKeys, showMe } from "./play-showme.js";
import { announce, app, hush, say, table } from "./play-state.js";

const ARROWS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

function moveFocus([dx, dy]) {
  if (app.selection) {
    // Arrows go round the places the picked-up card may go.
    const targets = app.selection.targets;
    if (!targets.length) return;
    const step = dx + dy > 0 ? 1 : -1;
    app.selection.focus = ((app.selection.focus ?? -1) + step + targets.length) % targets.length;
    focusCard(targets[app.selection.focus].node);
    announce(app.family.targetName(targets[app.selection.focus].node));
    return;
  }
  const playable = [...table.querySelectorAll(".playable")];
  if (!playable.length) {
    say(app.state && app.state.status === "playing" ? t("No card can move.") : t("The game is over."));
    return;
  }
  const current = table.querySelector(".kfocus");
  if (!current || !current.classList.contains("playable")) {
    focusCard(nearest(playable, app.focusRect) || playable[0]);
    return;
  }
  const from = anchor(current);
  let best = null;
  let bestScore = Infinity;
  for (const node of playable) {
    if (node === current) continue;
    const a = anchor(node);
    const along = (a.x - from.x) * dx + (a.y - from.y) * dy;
    const across = Math.abs((a.x - from.x) * dy) + Math.abs((a.y - from.y) * dx);
    if (along <= 1) continue;
    const score = along + across * 2.5;
    if (score < bestScore) {
      bestScore = score;
      best = node;
    }
  }
  if (!best) {
    // Wrap around: the farthest card the other way along the same line.
    let far = -Infinity;
    for (const node of playable) {
      const a = anchor(node);
      const back = -((a.x - from.x) * dx + (a.y - from.y) * dy) - 2 * (Math.abs((a.x - from.x) * dy) + Math.abs((a.y - from.y) * dx));
      if (node !== current && back > far) {
        far = back;
        best = node;
      }
    }
  }
  if (best) focusCard(best);
}

/** The keys (the page calls this once, after the pointer's listeners). */
export function listenKeys() {
  document.addEventListener("keydown", (event) => {
    const inField = event.target.closest && event.target.closest("input, select, textarea, .menu");
    // Redo as elsewhere: Ctrl+Y, Ctrl+Shift+Z (Cmd on a Mac).
    const key = (event.key || "").toLowerCase();
    if ((event.ctrlKey || event.metaKey) && !event.altKey && !inField && $("overlay").hidden && (key === "y" || (key === "z" && event.shiftKey))) {
      event.preventDefault();
      redo();
      return;
    }
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if ($("overlay").hidden && showKeys(event)) return; // a line is shown: its own keys
    if (inField) return;
    if (event.key === "Escape") {
      if (!$("overlay").hidden) closeOverlay();
      else if (app.selection) {
        app.keyboard = app.keyboard || table.contains(document.activeElement);
        clearSelection();
        announce(t("Put back."));
      } else if (app.review) endReview();
      else {
        hush();
        app.hint = null;
        clearHighlights("hint");
      }
      return;
    }
    if (!$("overlay").hidden) return;
    if (ARROWS[event.key]) {
      event.preventDefault();
      app.keyboard = true;
      moveFocus(ARROWS[event.key]);
      return;
    }
    const focused = document.activeElement;
    const inTable = focused && table.contains(focused);
    if ((event.key === "Enter" || event.key === " ") && inTable) {
      event.preventDefault();
      app.keyboard = true;
      if (app.selection && focused.dataset.drop && placeAt(focused)) return;
      if (focused.dataset.place) activate(focused, { keyboard: true });
      return;
    }
    if (key === "u") {
      app.keyboard = app.keyboard || inTable;
      undo();
    } else if (key === "h") {
      app.keyboard = app.keyboard || !!inTable;
      hint();
    } else if (key === "y") {
      redo();
    } else if (key === "s") {
      showMe();
    } else if (key === "f") {
      finish();
    }
  });
}
