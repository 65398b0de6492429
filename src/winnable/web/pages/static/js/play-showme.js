// Show me: the solver's winning line played out on the table, frame by frame (GET
// /api/games/{id}/solution), with pause, a step forward and back, a speed, and "take over"
// (POST .../solution/play: the shown moves become the game's own). After a loss the same
// player shows, view only, how the game could have been won from the last position that
// was still winnable (`?at=K`).
//
// A frame is drawn as a state built from the current one with the frame's position and
// status and no legal moves (`app.shown`): the table takes no move while it is shown.
// This module stands above the game's actions and picking (play-game.js, play-pick.js)
// and below review (play-review.js offers its line after a loss); play-game.js ends a
// show through the `endShow` hook.

import { api, ApiError } from "./api.js";
import { $, el } from "./dom.js";
import { t, tn } from "./i18n.js";
import { clearHighlights, draw, elementAt, highlight } from "./play-draw.js";
import { setState, updateChrome } from "./play-game.js";
import { hooks } from "./play-hooks.js";
import { clearSelection } from "./play-pick.js";
import { announce, app, busy, enqueue, hush, placesOf, plainSentence, reducedMotion, report, say, sentenceOf, store, table } from "./play-state.js";
import { bringIntoView, roomDownTo } from "./play-view.js";

/** Milliseconds between two shown moves, by speed ("fastest": none, and no gliding). */
export const SPEEDS = { slow: 1600, normal: 800, fast: 300, fastest: 0 };
const SPEED_LABELS = { slow: () => t("Slow"), normal: () => t("Normal"), fast: () => t("Fast"), fastest: () => t("Fastest") };
const KEY_SPEED = "winnable:showme-speed";

let show = null; // {game, from, line, frames, step, playing, timer, viewOnly, returnFocus}
let asking = false;

/** Why the solver's line cannot be shown now, or null. */
function refusal(state, at) {
  // (A game over is no longer "playing": its hint_allowed is false, its ranked flags stay.)
  if (state.status === "playing" ? state.hint_allowed === false : rankedOpen(state)) {
    if (state.daily) return t("Hints are off in the Daily");
    if (state.challenge) return t("Hints are off in a ranked challenge attempt");
    return t("Hints are off while these cards are an open challenge");
  }
  if (state.timed_out) return t("Time ran out: this game is lost.");
  if (state.status === "won") return t("The game is won: there is nothing to show.");
  if (at === null && state.status !== "playing") return t("The game is over.");
  return null;
}

/** A ranked attempt whose help stays off after it ends: a challenge's, a Daily's while its day lasts. */
export function rankedOpen(state) {
  return Boolean(state.challenge) || (Boolean(state.daily) && state.daily >= new Date().toISOString().slice(0, 10));
}

/** Show the solver's winning line from here (or, `at` given, from the position after the
 * game's first `at` moves; `viewOnly`: no take over). A lost game shows it from the last
 * position that was still winnable. */
export async function showMe({ at = null, viewOnly = false } = {}) {
  const state = app.state;
  if (!state || app.finishing || asking) return;
  if (show) return;
  const refused = refusal(state, at);
  if (refused) {
    say(refused);
    return;
  }
  hooks.endReview(false);
  clearSelection(false);
  asking = true;
  busy(true);
  say(t("Looking for a winning line\u2026"), { sticky: true, kind: "hint" });
  let answer;
  try {
    if (at === null && state.status === "lost") {
      // A lost game: from the last position that was still winnable ("where did I lose?").
      const analysis = await api.analysis(state.id);
      at = analysis.lost_at ?? (analysis.between && analysis.between[0]) ?? null;
      viewOnly = true;
      if (at === null) throw new ApiError(409, analysis.message || t("The solver could not settle it within its time budget."));
    }
    answer = await api.solution(state.id, at);
  } catch (error) {
    report(error);
    draw({ animate: false }); // (the game's table again, were a replay shown)
    return;
  } finally {
    asking = false;
    busy(false);
  }
  if (app.state !== state || show) return; // a move was played meanwhile
  hush();
  start(answer, viewOnly);
}

function start(answer, viewOnly) {
  const frames = answer.frames || [];
  if (!frames.length) return;
  app.hint = null;
  clearHighlights("hint");
  show = {
    game: app.state.id,
    from: answer.from ?? 0,
    line: answer.line || [],
    frames,
    step: 0,
    playing: false,
    timer: null,
    viewOnly,
    returnFocus: document.activeElement,
  };
  const speed = $("showme-speed");
  speed.replaceChildren(...Object.keys(SPEEDS).map((name) => el("option", { value: name }, SPEED_LABELS[name]())));
  speed.value = SPEEDS[store.get(KEY_SPEED)] === undefined ? "normal" : store.get(KEY_SPEED);
  $("showme-take").hidden = viewOnly;
  $("showme").hidden = false;
  document.body.classList.add("showing");
  document.body.dataset.showing = viewOnly ? "view" : "1";
  document.body.dataset.showFrom = String(show.from);
  showFrame(0, { animate: false });
  const total = show.line.length;
  announce(
    viewOnly
      ? tn("How it could have been won from move {from}: a winning line of {n} move.", "How it could have been won from move {from}: a winning line of {n} moves.", total, { n: total, from: show.from })
      : tn("Show me: a winning line of {n} move.", "Show me: a winning line of {n} moves.", total, { n: total }),
  );
  $("showme-pause").focus();
  resume();
}

/** The state a frame is drawn as: the current one with the frame's position and status,
 * and no move to play. */
function frameState(i) {
  const frame = show.frames[i];
  return { ...app.state, position: frame.position, status: frame.status, legal: [], safe: [], finish: null, move_count: show.from + i };
}

/** The move that leads to frame `i` (its description, and its `why`). */
function moveInto(i) {
  const frame = show.frames[i];
  const describe = frame.describe || (frame.move ? { move: frame.move } : null);
  return { describe, why: frame.why || describe?.why || "" };
}

function showFrame(i, { animate = true, spoken = false } = {}) {
  show.step = i;
  app.shown = frameState(i);
  clearHighlights("hint");
  draw({ animate: animate && !reducedMotion.matches });
  const last = show.frames.length - 1;
  document.body.dataset.showStep = String(i);
  document.body.dataset.showStatus = show.frames[i].status;
  // Paused: the card the next move takes is marked.
  if (!show.playing && i < last) {
    const next = moveInto(i + 1).describe;
    if (next && next.from) highlight(next, "hint", show.frames[i].position);
  }
  describe(spoken);
  if (fitTable()) draw({ animate: false });
  roomDownTo(table.getBoundingClientRect().bottom);
  bringIntoView(cardInSight(i));
}

/** The card to keep in sight: paused, the one the next move takes; else the one the last
 * move laid down. On a small phone a long column's cards may lie under the panel, where
 * the table cannot shrink any more: the page scrolls to them (play-view.js). */
function cardInSight(i) {
  const paused = !show.playing && i < show.frames.length - 1;
  const entry = paused ? moveInto(i + 1).describe : i > 0 ? moveInto(i).describe : null;
  const place = paused ? entry?.from : entry?.to;
  if (!place) return null;
  const cards = placesOf(show.frames[i].position).get(place) || [];
  return elementAt(place, cards.length - 1);
}

/** Keep the table above the panel (a phone upright, a desktop window: the panel lies at
 * the bottom; held sideways it takes the rail's place, CSS). True when the room left for
 * the table shrank: it is drawn again. The room only shrinks during a show, so the table
 * does not jump at every step. */
function fitTable() {
  const panel = $("showme").getBoundingClientRect();
  if (panel.left > innerWidth / 2 || !panel.height) return false; // beside the table
  const actions = $("actions");
  const box = actions.getBoundingClientRect();
  const docked = getComputedStyle(actions).position === "fixed" && box.top > innerHeight / 2 ? box.height : 0;
  const reserve = Math.ceil(innerHeight - panel.top - docked + 6);
  if (reserve <= (show.reserve || 0) + 1) return false;
  show.reserve = reserve;
  document.body.style.setProperty("--table-reserve", `${reserve}px`);
  return true;
}

function describe(spoken) {
  const i = show.step;
  const total = show.line.length;
  const won = show.frames[i].status === "won";
  $("showme-at").textContent = `${i} / ${total}`;
  $("showme-back").disabled = i <= 0;
  $("showme-step").disabled = i >= total;
  const pause = $("showme-pause");
  const atEnd = i >= total;
  pause.textContent = show.playing ? "\u275a\u275a" : atEnd ? "\u21ba" : "\u25b6";
  const label = show.playing ? t("Pause") : atEnd ? t("Show it again") : t("Play");
  pause.setAttribute("aria-label", label);
  pause.title = label;
  $("showme-take").disabled = i === 0;
  const text = $("showme-text");
  const head = show.viewOnly ? t("How it could have been won") : t("Show me");
  if (i === 0) {
    text.replaceChildren(el("b", {}, head), " ", show.viewOnly ? t("From the position after move {n}.", { n: show.from }) : t("From where you are."));
  } else {
    const { describe: entry, why } = moveInto(i);
    const before = show.frames[i - 1].position;
    const said = entry && entry.from ? sentenceOf(entry, before) : [entry ? entry.move : ""];
    text.replaceChildren(el("b", {}, t("Move {n} of {total}:", { n: i, total })), " ", ...said, why ? el("span", { class: "why" }, ` \u2014 ${why}`) : "", won ? el("b", { class: "shown-won" }, ` ${t("Won!")}`) : "");
    if (spoken) {
      const sentence = entry && entry.from ? plainSentence(entry, before) : entry?.move || "";
      announce([t("Move {n} of {total}:", { n: i, total }), sentence, why, won ? t("Won!") : ""].filter(Boolean).join(" "));
    }
  }
}

function speed() {
  const value = SPEEDS[$("showme-speed").value];
  return value === undefined ? SPEEDS.normal : value;
}

function schedule() {
  clearTimeout(show.timer);
  if (!show.playing) return;
  show.timer = setTimeout(advance, speed());
}

function advance() {
  if (!show || !show.playing) return;
  const last = show.frames.length - 1;
  if (show.step >= last) {
    pause();
    return;
  }
  const fastest = speed() === 0;
  const next = show.step + 1;
  if (next >= last) show.playing = false; // the last move: shown as paused, at the end
  // At the fastest speed only the end is said: a word a move would drown the reader.
  showFrame(next, { animate: !fastest, spoken: !fastest || next >= last });
  schedule();
}

function resume() {
  if (!show) return;
  if (show.step >= show.frames.length - 1) {
    show.step = 0; // at the end: again from the start
    showFrame(0, { animate: false });
  }
  show.playing = true;
  describe(false);
  clearHighlights("hint");
  schedule();
}

function pause() {
  if (!show) return;
  show.playing = false;
  clearTimeout(show.timer);
  showFrame(show.step, { animate: false });
}

export function togglePause() {
  if (!show) return;
  if (show.playing) pause();
  else resume();
}

/** One move forward (`by` 1) or back (-1), paused (Home and End: `to` the first or last). */
export function stepBy(by, to = null) {
  if (!show) return;
  show.playing = false;
  clearTimeout(show.timer);
  const i = Math.max(0, Math.min(show.frames.length - 1, to ?? show.step + by));
  showFrame(i, { animate: true, spoken: true });
  if (i === 0) announce(t("Back at the start of the line."));
}

/** Leave the show: the table shows the game again. */
export function endShow(redraw = true) {
  if (!show) return;
  clearTimeout(show.timer);
  const back = show.returnFocus;
  show = null;
  app.shown = null;
  $("showme").hidden = true;
  document.body.classList.remove("showing");
  document.body.style.removeProperty("--table-reserve");
  delete document.body.dataset.showing;
  delete document.body.dataset.showStep;
  delete document.body.dataset.showFrom;
  delete document.body.dataset.showStatus;
  clearHighlights("hint");
  if (app.state) updateChrome();
  if (redraw) draw({ animate: true });
  if (back && back.isConnected && back.focus && !back.closest("[hidden], .menu")) back.focus();
  else $("table").querySelector(".playable")?.focus({ preventScroll: true });
}

/** Take over: the shown moves are played as the game's own, and the game goes on from there. */
export function takeOver() {
  if (!show || show.viewOnly) return;
  const { game, from, step } = show;
  const moves = show.line.slice(0, step);
  pause();
  enqueue(async () => {
    busy(true);
    try {
      const state = await api.takeOver(game, from, moves);
      endShow(false);
      // The game goes on from the position shown, exactly: no safe move home plays by
      // itself now (the next move's will).
      app.finishing = true;
      try {
        setState(state, { animate: false });
      } finally {
        app.finishing = false;
      }
      draw({ animate: false }); // (drawn while finishing: no card was marked playable)
      announce(tn("You take over after {n} shown move.", "You take over after {n} shown moves.", moves.length, { n: moves.length }));
      say(t("Your turn: the game goes on from the position shown."));
    } catch (error) {
      endShow(false);
      report(error);
      if (app.state) setState(await api.get(app.state.id));
    } finally {
      busy(false);
    }
  });
}

/** The player's keys while a line is shown (true when the key was one of them). */
export function showKeys(event) {
  if (!show) return false;
  if (event.key === "Escape") endShow();
  else if (event.target.closest && event.target.closest("select")) return false;
  else if (event.key === "ArrowLeft") stepBy(-1);
  else if (event.key === "ArrowRight") stepBy(1);
  else if (event.key === "Home") stepBy(0, 0);
  else if (event.key === "End") stepBy(0, show.frames.length - 1);
  else if (event.key === "p" || event.key === "P") togglePause();
  else return false;
  event.preventDefault();
  return true;
}

/** The panel's buttons (play.js, once). */
export function wireShowMe() {
  $("showme-pause").addEventListener("click", togglePause);
  $("showme-back").addEventListener("click", () => stepBy(-1));
  $("showme-step").addEventListener("click", () => stepBy(1));
  $("showme-take").addEventListener("click", takeOver);
  $("showme-close").addEventListener("click", () => endShow());
  $("showme-speed").addEventListener("change", (event) => {
    store.set(KEY_SPEED, event.target.value);
    if (show && show.playing) schedule();
  });
  $("showme-bar").addEventListener("click", () => showMe().catch(report));
  $("showme-button").addEventListener("click", () => {
    try {
      $("menu").hidePopover();
    } catch {
      /* no popover support */
    }
    showMe().catch(report);
  });
}
