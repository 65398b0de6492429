// The game's state from the server, and the actions that change it.

import { api, ApiError } from "./api.js";
import { cardSpan, rankLabel } from "./cards.js";
import { $, clock, el } from "./dom.js";
import { localHref, parts, t, tn } from "./i18n.js";
import { clearHighlights, draw, elementAt } from "./play-draw.js";
import { hooks } from "./play-hooks.js";
import { button, closeOverlay, openOverlay } from "./play-overlay.js";
import { setRefusal } from "./play-refusals.js";
import { announce, app, busy, currentLegal, enqueue, gameName, hush, KEY_GAME, KEY_GAMES, KEY_UNDO, placesOf, plainSentence, reducedMotion, report, say, settings, store, traits } from "./play-state.js";

export function updateChrome() {
  const state = app.state;
  const position = state.position;
  document.body.dataset.status = state.status;
  document.body.dataset.moves = String(state.move_count);
  document.body.dataset.gameId = state.id;
  // A Daily has no deal number (a secret deck order): no link to its deal.
  document.body.dataset.deal = state.deal === null ? "" : String(state.deal);
  const deal = $("deal-link");
  deal.hidden = state.deal === null;
  deal.replaceChildren(...(state.deal === null ? [] : dealLabel(state.deal)));
  deal.href = state.deal === null ? gameAddress(state) : dealAddress(state.deal);
  if (state.winnable_deal && state.deal !== null) deal.append(el("span", { class: "proved", title: t("The solver proved this deal winnable"), "aria-label": t("proved winnable") }, "\u2713"));
  $("moves").textContent = String(state.move_count);
  $("moves-word").textContent = tn("move", "moves", state.move_count);
  const undo = $("undo");
  const left = state.undo_left;
  const refusal = undoRefusal(state);
  undo.disabled = refusal !== null;
  undo.title = refusal || t("Take back the last move (U)");
  const count = $("undo-left");
  count.hidden = left === null || left === undefined || state.undo === "none";
  count.textContent = count.hidden ? "" : String(left);
  const redo = $("redo");
  const redoing = redoRefusal(state);
  redo.disabled = redoing !== null;
  redo.title = redoing || t("Play the move taken back again (Y)");
  // Refused, not disabled: a tap says why (the players' modules refuse them in a ranked attempt).
  setRefusal($("hint"), state.status !== "playing" ? (state.timed_out ? t("Time ran out: this game is lost.") : t("The game is over.")) : null, t("Show a move of a winning line (H)"));
  setRefusal($("restart"), null, t("Start this deal again"));
  $("restart").disabled = state.move_count === 0 && state.status === "playing";
  $("finish").hidden = !(state.status === "playing" && state.finish && state.finish.length) || !!app.review;
  const score = $("score");
  const scoreText = scoreLine(state);
  score.hidden = !scoreText;
  score.textContent = scoreText || "";
  score.title = traits().score === "taken-out" ? t("Cards taken out") : t("Cards on the foundations");
  const base = $("base");
  const rank = position.base_rank;
  base.hidden = !rank || rank === "A";
  base.textContent = base.hidden ? "" : t("Foundations from {rank}", { rank: rankLabel(rank) });
  tick();
  if (state.status === "won") hooks.setBadge("won", t("Won"));
}

/** "Deal #17" with its words in spans of their own: held sideways only the number shows
 * (CSS), and the link's name stays the whole phrase. One span holds it all, so that the
 * link's flex layout keeps the spaces between the words and the number. */
function dealLabel(number) {
  const [before, after = ""] = t("Deal #{n}", { n: "\u0001" }).split("\u0001");
  const words = (text) => (text ? [el("span", { class: "deal-word" }, text)] : []);
  return [el("span", {}, ...words(before), String(number), ...words(after))];
}

/** Why the last move cannot be taken back now (what the Undo button's title and the U
 * key say), or null when it can. */
export function undoRefusal(state) {
  if (state.timed_out) return t("Time ran out: this game is lost, and its moves cannot be taken back.");
  if (state.undo === "none") return t("This game is played without undo");
  if (state.undo_left === 0) return t("Your undo is used up");
  if (state.status === "won") return t("The game is won: there is nothing to take back.");
  if (state.move_count === 0) return t("No move to take back yet.");
  if (state.status !== "playing" && state.status !== "lost") return t("The game is over.");
  return null;
}

/** Why no move can be redone now (the Redo button's title, what the Y key says), or null. */
export function redoRefusal(state) {
  if (state.timed_out) return t("Time ran out: this game is lost.");
  if (state.status === "won") return t("The game is won: there is nothing to take back.");
  if (!state.redo_left) return t("No move taken back to play again.");
  return null;
}

export function scoreLine(state) {
  const kind = traits().score;
  if (kind === "taken-out") {
    const out = state.score?.partial ?? 52 - state.position.cards_left;
    return state.status === "won" ? "" : t("Out {n}/{total}", { n: out, total: state.score?.out_of ?? 52 });
  }
  if (kind !== "foundations") return "";
  const s = state.score || {};
  const onFoundations = s.partial ?? state.position.score;
  if (onFoundations === undefined || onFoundations === null) return "";
  return t("Score {n}/{total}", { n: onFoundations, total: s.out_of ?? 52 });
}

export function tick() {
  const state = app.state;
  if (!state) return;
  let seconds = state.elapsed_seconds || 0;
  if (state.status === "playing" && state.started_at) seconds += (performance.now() - app.receivedAt) / 1000;
  $("timer").textContent = clock(seconds);
}

/** The address of a deal (kept in the address bar: reloading or sharing it gives the same cards). */
function dealAddress(deal) {
  const params = new URLSearchParams();
  params.set("deal", String(deal));
  return localHref(`/play/${encodeURIComponent(gameName)}?${params}`);
}

/** The address of a stored game (a Daily's: it has no deal number to name). */
function gameAddress(state) {
  return localHref(`/play/${encodeURIComponent(state.game)}?id=${encodeURIComponent(state.id)}`);
}

function rememberGame(state) {
  store.set(KEY_GAME, state.id);
  let games = [];
  try {
    games = JSON.parse(store.get(KEY_GAMES, "[]"));
    if (!Array.isArray(games)) games = [];
  } catch {
    games = [];
  }
  games = [{ id: state.id, game: state.game, deal: state.deal }, ...games.filter((g) => g && g.id !== state.id)].slice(0, 60);
  store.set(KEY_GAMES, JSON.stringify(games));
}

export function setState(state, { animate = true } = {}) {
  const previous = app.state;
  app.state = state;
  app.receivedAt = performance.now();
  if (!previous || previous.id !== state.id) rememberGame(state);
  if (!previous || previous.id !== state.id || previous.deal !== state.deal) history.replaceState(null, "", state.deal === null ? gameAddress(state) : dealAddress(state.deal));
  const changed = !previous || previous.id !== state.id || previous.move_count !== state.move_count || previous.status !== state.status;
  if (changed) {
    app.hint = null;
    clearHighlights("hint");
    if ($("message").classList.contains("hint")) hush();
    app.selection = null;
    delete document.body.dataset.selected;
  }
  if (app.shown && changed) hooks.endShow(false); // the game moved on: the shown line is stale
  if (previous && previous.id !== state.id) {
    app.shownOverlayFor = null;
    hooks.endReview(false);
  }
  $("undo-mode").value = state.undo;
  updateChrome();
  draw({ animate: animate && previous && previous.id === state.id });
  document.body.dataset.ready = "1";
  const key = `${state.id}:${state.status}:${state.move_count}`;
  if (state.status === "won" && app.shownOverlayFor !== key) {
    app.shownOverlayFor = key;
    setTimeout(hooks.showWin, app.finishing ? 500 : 250);
  } else if (state.status === "lost" && app.shownOverlayFor !== key && !app.review) {
    app.shownOverlayFor = key;
    setTimeout(hooks.showLost, 250);
  } else if (state.status === "playing" && !$("overlay").classList.contains("ask")) {
    closeOverlay();
  }
  if (app.watching) hooks.checkWinnable();
  if (!app.finishing && settings().safe && state.status === "playing" && state.safe && state.safe.length) {
    // Safe moves waiting (a new deal, or the setting just switched on): play them now.
    enqueue(() => sendMove(state.safe[0]));
  }
  // Hook for the players' module (Daily, timed play): it reads every new state.
  document.dispatchEvent(new CustomEvent("winnable:state", { detail: state }));
}

function midGame() {
  return app.state && app.state.status === "playing" && app.state.move_count > 0;
}

/** New deal: in the middle of a game, ask first (the game stays in "Your games"). */
export function askNewGame(options = {}) {
  if (!midGame()) return newGame(options).catch(report);
  openOverlay({
    title: t("Start a new deal?"),
    kind: "ask",
    body: [el("p", {}, t("This game stays in Your games: you can come back to it from the menu."))],
    buttons: [
      button(t("New deal"), () => newGame(options).catch(report), { primary: true, id: "confirm-new" }),
      button(t("Keep playing"), closeOverlay, { id: "keep-playing" }),
    ],
  });
}

export async function newGame({ deal = null } = {}) {
  hush();
  closeOverlay();
  const undo = $("undo-mode").value || store.get(KEY_UNDO) || "unlimited";
  const winnable = deal === null && $("winnable-toggle").checked;
  busy(true);
  $("new-deal").disabled = true;
  const slow = setTimeout(() => say(winnable ? t("Finding a deal the solver has proved winnable\u2026") : t("Dealing\u2026"), { sticky: true }), 400);
  try {
    let state;
    // Hook: other modules add options of the next game (timed play's seconds a move).
    const extra = {};
    document.dispatchEvent(new CustomEvent("winnable:new-game", { detail: { game: gameName, options: extra } }));
    try {
      state = await api.create(gameName, { deal, winnable, undo, ...extra });
    } catch (error) {
      if (!winnable || !(error instanceof ApiError) || error.status === 0) throw error;
      let reason = error.detail;
      if (error.code === "no_graded_deal") {
        // None of the chosen grade yet (play-grade.js): a proved deal of any grade.
        try {
          state = await api.create(gameName, { winnable, undo, ...extra, grade: null });
          say(t("{reason} This deal is proved winnable, of another grade.", { reason }), { kind: "info" });
        } catch (again) {
          if (!(again instanceof ApiError) || again.status === 0) throw again;
          reason = again.detail;
        }
      }
      if (!state) {
        state = await api.create(gameName, { undo, ...extra, grade: null });
        say(t("{reason} This deal was picked at random.", { reason }), { kind: "info" });
      }
    }
    clearTimeout(slow);
    if ($("message").textContent.endsWith("\u2026")) hush();
    setState(state, { animate: false });
  } finally {
    clearTimeout(slow);
    $("new-deal").disabled = false;
    busy(false);
  }
}

export async function loadGame(id) {
  const state = await api.get(id);
  if (state.game !== gameName) throw new ApiError(404, t("That game belongs to another table."));
  setState(state, { animate: false });
}

export async function sendMove(move, { auto = settings().safe } = {}) {
  busy(true);
  try {
    setState(await api.move(app.state.id, move, auto));
  } catch (error) {
    if (error instanceof ApiError && error.status === 409) {
      say(error.detail, { kind: "error" });
      setState(await api.get(app.state.id));
    } else throw error;
  } finally {
    busy(false);
  }
}

/** Play one described move and say what happened. */
export function play(entry, node) {
  enqueue(async () => {
    if (app.review || app.shown || !app.state) return;
    const still = currentLegal().find((e) => e.move === entry.move);
    if (!still) {
      if (node) refuse(entry.from, 0, node);
      return;
    }
    const position = app.state.position;
    const before = app.state.move_count;
    const spoken = plainSentence(still, position);
    await sendMove(still.move);
    if (app.state.move_count > before) {
      const auto = app.state.move_count - before - 1;
      const more = tn("{n} more card went home by itself.", "{n} more cards went home by themselves.", auto, { n: auto });
      announce(auto > 0 ? `${spoken} ${more}` : spoken);
    }
  });
}

export function refuse(place, index, node) {
  const state = app.state;
  if (state.status !== "playing") {
    if (!app.review) say(state.timed_out ? t("Time ran out: this game is lost.") : t("The game is over."));
    return;
  }
  if (place.startsWith("foundation") || place === "runs") return; // cards that are home stay home
  node = node && node.isConnected ? node : elementAt(place, index);
  if (node) {
    node.classList.remove("shake");
    void node.offsetWidth;
    node.classList.add("shake");
  }
  const position = state.position;
  if (place === "stock") {
    say(position.stock > 0 ? t("Fill every empty column before dealing the stock.") : t("The stock is empty."));
    return;
  }
  const cards = placesOf(position).get(place) || [];
  const code = cards[index];
  if (!code) return;
  const reason = app.family.refusal && app.family.refusal(position, place, index);
  if (reason) {
    say(parts(...reason));
    return;
  }
  if (index < cards.length - 1) {
    say(parts(t("{card} can't move with the cards on it now."), { card: cardSpan(code) }));
  } else {
    say(parts(t("{card} has nowhere to go right now."), { card: cardSpan(code) }));
  }
}

/** A card picked (at `picked`), then a card it cannot go out with: say why (a game that
 * takes out pairs), shaking both. */
export function refusePair(picked, place, index, node) {
  const state = app.state;
  if (state.status !== "playing") return;
  const reason = app.family.pairRefusal(state.position, picked, place, index);
  if (!reason) return;
  const cards = placesOf(state.position).get(picked) || [];
  for (const shaken of [node, elementAt(picked, cards.length - 1)]) {
    if (!shaken) continue;
    shaken.classList.remove("shake");
    void shaken.offsetWidth;
    shaken.classList.add("shake");
  }
  say(parts(...reason), { kind: "error" });
  announce(plainParts(parts(...reason)));
}

/** Message parts as plain text, for screen readers. */
function plainParts(list) {
  return list.map((part) => (part instanceof Node ? (part.dataset && part.dataset.name) || part.textContent : part)).join("");
}

export function undo() {
  if (!app.state || app.finishing) return;
  if (app.review || app.shown) {
    say(lookingText());
    return;
  }
  const refusal = undoRefusal(app.state);
  if (refusal) {
    say(refusal); // the U key, refused: said, not silent
    return;
  }
  hooks.clearSelection(false);
  enqueue(async () => {
    busy(true);
    try {
      setState(await api.undo(app.state.id, settings().safe));
      announce(t("Move taken back."));
    } finally {
      busy(false);
    }
  });
}

/** What a move, an undo or a redo says while the table shows something else than the game. */
export function lookingText() {
  return app.shown ? t("The solver's line is shown: take over or close it to play.") : t("You are looking back at this game. Close the replay to play on.");
}

/** Redo: the move last taken back is played again (with the safe moves home that came with it). */
export function redo() {
  if (!app.state || app.finishing) return;
  if (app.review || app.shown) {
    say(lookingText());
    return;
  }
  const refusal = redoRefusal(app.state);
  if (refusal) {
    say(refusal);
    return;
  }
  hooks.clearSelection(false);
  enqueue(async () => {
    busy(true);
    try {
      setState(await api.redo(app.state.id));
      announce(t("Move played again."));
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 409) throw error;
      say(error.detail, { kind: "error" });
      setState(await api.get(app.state.id));
    } finally {
      busy(false);
    }
  });
}

export function restart() {
  if (!app.state) return;
  hooks.endReview(false);
  hooks.clearSelection(false);
  enqueue(async () => {
    busy(true);
    try {
      setState(await api.restart(app.state.id));
      say(t("The deal starts again."));
    } finally {
      busy(false);
    }
  });
}

/** Play the rest of the game home, one card after the other. */
export function finish() {
  const state = app.state;
  if (!state || app.finishing) return;
  if (app.review || app.shown || state.status !== "playing" || !state.finish || !state.finish.length) {
    say(app.review || app.shown ? lookingText() : state.status !== "playing" ? t("The game is over.") : t("Nothing to finish yet: F plays the rest home once every card can go there."));
    return;
  }
  hooks.clearSelection(false);
  enqueue(async () => {
    app.finishing = true;
    document.body.classList.add("finishing");
    try {
      for (const move of app.state.finish || []) {
        if (app.state.status !== "playing") break;
        await sendMove(move, { auto: false });
        if (!reducedMotion.matches) await new Promise((resolve) => setTimeout(resolve, 120));
      }
      announce(t("Every card is home."));
    } finally {
      app.finishing = false;
      document.body.classList.remove("finishing");
      updateChrome();
    }
  });
}
