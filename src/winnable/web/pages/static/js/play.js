// The game page: one page for every game. It reads the game id from /play/{game},
// keeps nothing but the server's state, and draws it with the renderer of the game's
// family. Every move goes to the server, which checks it with the rules.
//
// Playing: a tap (click, Enter) on a card picks it up and marks every place it may go;
// a tap on one of them puts it there; a tap elsewhere or Esc puts it back. Cards with a
// single place to go may go at once ("one-tap moves"); in the Spider family a tap or
// click moves the card to its first place ("click moves the card", a setting); the
// hinted card plays the hinted move; dragging chooses the place directly.
//
// This module wires the page and starts it; the rest lives by concern in play-state.js
// (the shared state, settings and messages), play-draw.js (the table), play-pick.js
// (picking a card up and putting it down), play-game.js (the server's state and the
// actions), play-pointer.js (taps and drags), play-keys.js (the keyboard), play-review.js
// ("still winnable?", "where did I lose?" and the replay), play-showme.js (the solver's
// winning line shown on the table), play-home.js (a double tap sends a card home),
// play-overlay.js (the overlay) and play-dialogs.js (won, lost, your games). They stand in layers (play-hooks.js says
// which); the hooks set here are where a lower layer calls up.

import { api, ApiError } from "./api.js";
import { installSprite } from "./cards.js";
import { $, el } from "./dom.js";
import { localHref, t } from "./i18n.js";
import { showLost, showWin, showYourGames } from "./play-dialogs.js";
import { draw } from "./play-draw.js";
import { askNewGame, finish, loadGame, newGame, redo, restart, sendMove, setState, tick, undo } from "./play-game.js";
import "./play-grade.js";
import { hint } from "./play-hint.js";
import { setHooks } from "./play-hooks.js";
import { listenKeys } from "./play-keys.js";
import { closeOverlay } from "./play-overlay.js";
import { clearSelection, showSelection } from "./play-pick.js";
import { listenRefusals } from "./play-refusals.js";
import { listenPointer } from "./play-pointer.js";
import { checkWinnable, endReview, highlightReview, playOnFromHere, replay, reviewFromBadge, setBadge, setWatching, showHowToWin, showReviewAt, stopReplay } from "./play-review.js";
import { endShow, wireShowMe } from "./play-showme.js";
import { app, enqueue, gameName, KEY_GAME, KEY_SAFE, KEY_UNDO, KEY_WATCH, KEY_WINNABLE, keyClickMove, keyDoubleTap, keyOneTap, rendererOf, report, say, settings, store, table, traits, UNDO_LABELS } from "./play-state.js";

function wire() {
  setHooks({ showSelection, clearSelection, highlightReview, checkWinnable, endReview, endShow, setBadge, showWin, showLost });
  // Hook: another module asks for the server's state again (a timed move's time is up).
  document.addEventListener("winnable:refresh", () => enqueue(async () => app.state && setState(await api.get(app.state.id))));
  listenRefusals();
  $("new-deal").addEventListener("click", () => askNewGame());
  $("restart").addEventListener("click", restart);
  $("undo").addEventListener("click", undo);
  $("redo").addEventListener("click", redo);
  $("hint").addEventListener("click", () => hint());
  $("finish").addEventListener("click", finish);
  $("yours-button").addEventListener("click", showYourGames);
  const winnable = $("winnable-toggle");
  winnable.checked = store.get(KEY_WINNABLE, "1") === "1";
  winnable.addEventListener("change", () => store.set(KEY_WINNABLE, winnable.checked ? "1" : "0"));
  $("watch-badge").addEventListener("click", reviewFromBadge);
  const watch = $("watch-toggle");
  watch.checked = store.get(KEY_WATCH, "0") === "1";
  app.watching = watch.checked;
  watch.addEventListener("change", () => setWatching(watch.checked));
  const safe = $("safe-toggle");
  safe.checked = store.get(KEY_SAFE, "1") === "1";
  safe.addEventListener("change", () => {
    store.set(KEY_SAFE, safe.checked ? "1" : "0");
    if (safe.checked && app.state && app.state.safe && app.state.safe.length && app.state.status === "playing" && !app.review) enqueue(() => sendMove(app.state.safe[0]));
  });
  const oneTap = $("onetap-toggle");
  oneTap.addEventListener("change", () => store.set(keyOneTap(app.info.family), oneTap.checked ? "1" : "0"));
  const doubleTap = $("doubletap-toggle");
  doubleTap.addEventListener("change", () => store.set(keyDoubleTap(app.info.family), doubleTap.checked ? "1" : "0"));
  const clickMove = $("clickmove-toggle");
  clickMove.addEventListener("change", () => {
    store.set(keyClickMove(app.info.family), clickMove.checked ? "1" : "0");
    showTapRows();
  });
  $("undo-mode").addEventListener("change", (event) => {
    const mode = event.target.value;
    store.set(KEY_UNDO, mode);
    if (app.state && app.state.move_count === 0 && app.state.undo !== mode && app.state.deal !== null) {
      newGame({ deal: app.state.deal }).catch(report);
    } else if (app.state && app.state.undo !== mode) {
      say(t("{mode} starts with your next deal.", { mode: (UNDO_LABELS[mode] || (() => mode))() }));
    }
  });
  $("review-prev").addEventListener("click", () => (stopReplay(), showReviewAt(app.review.target - 1)));
  $("review-next").addEventListener("click", () => (stopReplay(), showReviewAt(app.review.target + 1)));
  $("review-lost").addEventListener("click", () => (stopReplay(), showReviewAt(app.review.start)));
  $("review-replay").addEventListener("click", replay);
  $("review-try").addEventListener("click", playOnFromHere);
  $("review-showme").addEventListener("click", showHowToWin);
  wireShowMe();
  $("review-close").addEventListener("click", () => endReview());
  $("overlay").addEventListener("click", (event) => {
    if (event.target === $("overlay")) closeOverlay();
  });
  let resizeTimer = null;
  window.addEventListener("resize", () => {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(() => draw({ animate: false }), 60);
  });
  setInterval(tick, 1000);
}

/** The menu's rows about taps: click to move (Spider family) and, when a tap picks the
 * card up instead, one-tap moves. */
function showTapRows() {
  const clickMove = settings().clickMove;
  $("clickmove-row").hidden = !traits().click_move;
  $("clickmove-toggle").checked = clickMove;
  $("onetap-row").hidden = clickMove;
}

function fatal(message) {
  $("title").textContent = "Winnable";
  table.replaceChildren(el("div", { class: "fatal" }, el("p", {}, message), el("a", { class: "btn primary", href: localHref("/") }, t("See all games"))));
  document.body.dataset.ready = "1";
}

async function main() {
  installSprite();
  listenPointer();
  listenKeys();
  wire();
  let catalog;
  try {
    catalog = await api.catalog();
  } catch (error) {
    fatal(error.detail || t("The server cannot be reached."));
    return;
  }
  app.info = catalog.find((game) => game.id === gameName);
  if (!app.info) {
    fatal(t("There is no game called \u201c{name}\u201d here.", { name: gameName }));
    return;
  }
  document.title = `${app.info.title} \u00b7 Winnable`;
  document.body.dataset.family = app.info.family;
  document.body.dataset.timedPlay = traits().timed_play ? "1" : "0";
  $("title").textContent = app.info.title;
  $("rules-link").href = localHref(`/rules/${gameName}`);
  $("menu-rules").href = localHref(`/rules/${gameName}`);
  $("onetap-toggle").checked = settings().oneTap;
  showTapRows();
  $("safe-row").hidden = !traits().safe_moves;
  const modes = app.info.undo_modes && app.info.undo_modes.length ? app.info.undo_modes : ["unlimited"];
  $("undo-mode").replaceChildren(...modes.map((mode) => el("option", { value: mode }, (UNDO_LABELS[mode] || (() => mode))())));
  $("undo-mode").closest("label").hidden = modes.length < 2;
  const preferred = store.get(KEY_UNDO);
  if (preferred && modes.includes(preferred)) $("undo-mode").value = preferred;
  app.family = rendererOf(app.info);
  app.family.useTraits?.(traits()); // its words (Penguin's flippers)
  // Double tap home: where the family's renderer offers it (cards that go to a foundation).
  $("doubletap-row").hidden = !app.family.doubleTapHome;
  $("doubletap-toggle").checked = settings().doubleTap;

  const params = new URLSearchParams(location.search);
  try {
    if (params.get("id")) {
      try {
        await loadGame(params.get("id"));
      } catch (error) {
        if (!(error instanceof ApiError) || error.status !== 404) throw error;
        await newGame();
        say(t("That game was not found here, so here is a new deal."));
      }
    } else if (params.get("deal")) {
      const deal = params.get("deal").trim();
      const number = /^\d+$/.test(deal) ? deal : null;
      // This browser's game of that deal, if it is the one it was playing; else a new one.
      let resumed = false;
      if (number && store.get(KEY_GAME)) {
        try {
          const state = await api.get(store.get(KEY_GAME));
          if (state.game === gameName && String(state.deal) === String(BigInt(number))) {
            setState(state, { animate: false });
            resumed = true;
          }
        } catch (error) {
          if (!(error instanceof ApiError) || error.status === 0) throw error;
        }
      }
      if (!resumed) await newGame({ deal: number && Number.isSafeInteger(Number(number)) ? Number(number) : deal });
    } else if (store.get(KEY_GAME)) {
      try {
        await loadGame(store.get(KEY_GAME));
      } catch (error) {
        if (!(error instanceof ApiError) || error.status === 0) throw error;
        store.set(KEY_GAME, null);
        await newGame();
      }
    } else {
      await newGame();
    }
  } catch (error) {
    if (error instanceof ApiError) fatal(error.detail);
    else throw error;
  }
}

main().catch(report);
