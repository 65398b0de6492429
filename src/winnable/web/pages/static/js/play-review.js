// Review and analysis: "still winnable?" and the "where did I lose?" replay.

import { api } from "./api.js";
import { $, el } from "./dom.js";
import { parts, t } from "./i18n.js";
import { clearHighlights, draw, highlight } from "./play-draw.js";
import { newGame, restart, setState, updateChrome } from "./play-game.js";
import { button, closeOverlay, openOverlay } from "./play-overlay.js";
import { clearSelection } from "./play-pick.js";
import { rankedOpen, showMe } from "./play-showme.js";
import { app, busy, gameName, KEY_WATCH, report, say, sentenceOf, store } from "./play-state.js";

export function setBadge(kind, text) {
  const badge = $("watch-badge");
  badge.hidden = !text;
  badge.className = `badge ${kind}`;
  // The words in a span of their own: held sideways only the sign shows (CSS).
  badge.replaceChildren(...(text ? [el("span", { class: "badge-text" }, text)] : []));
  badge.dataset.verdict = kind;
  // "Not winnable any more" opens the replay of the move that lost it.
  const clickable = kind === "lost" && app.state && app.state.status !== "won";
  badge.classList.toggle("clickable", clickable);
  badge.disabled = !clickable;
  badge.title = clickable ? t("Show the move that lost it") : "";
}

export function reviewFromBadge() {
  if (!$("watch-badge").classList.contains("clickable") || app.review) return;
  openOverlay({ title: t("Where did I lose?"), kind: "lost", art: "stuck" });
  whereDidILose();
}

let watchTimer = null;

/** Ask the solver about the current position, once the player pauses for a moment. */
export function checkWinnable() {
  const state = app.state;
  if (!state) return;
  if (state.status === "won") return setBadge("won", t("Won"));
  const token = ++app.watchToken;
  setBadge("pending", t("Checking\u2026"));
  clearTimeout(watchTimer);
  watchTimer = setTimeout(() => askWinnable(state, token), 250);
}

async function askWinnable(state, token) {
  if (token !== app.watchToken) return;
  try {
    const answer = await api.analysis(state.id);
    if (token !== app.watchToken) return;
    if (answer.verdict === "won") setBadge("won", t("Still winnable"));
    else if (answer.verdict === "lost") setBadge("lost", t("Not winnable any more"));
    else setBadge("unknown", t("Too hard to tell"));
  } catch {
    if (token === app.watchToken) setBadge("unknown", t("No answer"));
  }
}

export function setWatching(on) {
  app.watching = on;
  store.set(KEY_WATCH, on ? "1" : "0");
  if (on) checkWinnable();
  else {
    app.watchToken++;
    setBadge("", "");
  }
}

export async function startReview(analysis) {
  const k = analysis.lost_at ?? null;
  const start = k ?? analysis.between[0];
  clearSelection(false);
  app.review = { analysis, k, at: start, start, position: app.state.position, legal: [] };
  $("review").hidden = false;
  $("review-try").hidden = app.state.deal === null; // a Daily's cards open as no other game
  $("review-lost").textContent = k === null ? t("First suspect") : t("Losing move");
  $("review-showme").hidden = start === null || start === undefined || rankedOpen(app.state);
  document.body.classList.add("in-review");
  $("finish").hidden = true;
  await showReviewAt(start);
}

export async function showReviewAt(at) {
  const review = app.review;
  if (!review) return;
  const total = app.state.moves.length;
  at = Math.max(0, Math.min(total, at));
  const asked = (review.asked = (review.asked || 0) + 1); // only the latest step is shown
  review.target = at;
  let answer;
  try {
    answer = await api.positionAt(app.state.id, at);
  } catch (error) {
    report(error);
    return;
  }
  if (app.review !== review || review.asked !== asked) return;
  review.at = at;
  review.position = answer.position || answer;
  review.legal = answer.legal || [];
  describeReview();
  draw({ animate: true });
}

function reviewEntry(move) {
  return (app.review.legal || []).find((e) => e.move === move) || null;
}

function describeReview() {
  const review = app.review;
  const { k, at, analysis } = review;
  const total = app.state.moves.length;
  $("review-at").textContent = `${at} / ${total}`;
  $("review-prev").disabled = at <= 0;
  $("review-next").disabled = at >= total;
  const text = $("review-text");
  if (k === null) {
    const [low, high] = analysis.between;
    text.replaceChildren(
      el("b", {}, t("The game was lost between move {low} and move {high}.", { low: low + 1, high })),
      " ",
      t("The solver ran out of time before it could say which move lost it."),
      " ",
      t("Showing the table after move {n}.", { n: at }),
    );
  } else if (at === k) {
    const losing = reviewEntry(analysis.losing_move);
    const better = reviewEntry(analysis.better_move);
    const out = [el("b", {}, t("Move {n} lost the game.", { n: k + 1 })), " "];
    out.push(...parts(t("You played: {move} (red)"), { move: losing ? el("span", {}, ...sentenceOf(losing, review.position)) : analysis.losing_move || "?" }));
    if (analysis.better_move) {
      out.push(" ", ...parts(t("This would have kept a winning line: {move} (green)"), { move: better ? el("span", {}, ...sentenceOf(better, review.position)) : analysis.better_move }));
    }
    text.replaceChildren(...out);
  } else if (at < k) {
    text.replaceChildren(t("After move {n}: still winnable. Step on to the move that lost it.", { n: at }));
  } else {
    text.replaceChildren(t("After move {n}: no winning line any more.", { n: at }));
  }
}

export function highlightReview() {
  const review = app.review;
  clearHighlights("lose");
  clearHighlights("better");
  if (review.at !== review.k) return;
  highlight(reviewEntry(review.analysis.losing_move), "lose", review.position);
  highlight(reviewEntry(review.analysis.better_move), "better", review.position);
}

let replaying = 0; // the running replay's number; 0 when none runs

export function stopReplay() {
  replaying = 0;
  $("review-replay").textContent = t("Replay");
}

/** Play the game back from the deal: each step is drawn, then shown for a moment. */
export async function replay() {
  if (replaying) return stopReplay();
  const run = (replaying = Date.now());
  $("review-replay").textContent = t("Stop");
  const total = app.state.moves.length;
  for (let at = 0; at <= total; at++) {
    if (replaying !== run || !app.review) return;
    await showReviewAt(at);
    await new Promise((resolve) => setTimeout(resolve, 700));
  }
  if (replaying === run) stopReplay();
}

export function endReview(redraw = true) {
  stopReplay();
  if (!app.review) return;
  app.review = null;
  $("review").hidden = true;
  document.body.classList.remove("in-review");
  clearHighlights("lose");
  clearHighlights("better");
  if (app.state) updateChrome();
  if (redraw) draw({ animate: true });
}

/** How it could have been won: the solver's line from the last position that was still
 * winnable (the losing move's, else the first the solver could not settle), view only. */
export function showHowToWin() {
  const review = app.review;
  if (!review) return;
  const at = review.k ?? review.analysis.between?.[0] ?? null;
  if (at === null) return;
  endReview(false);
  showMe({ at, viewOnly: true }).catch(report);
}

export async function playOnFromHere() {
  const review = app.review;
  if (!review) return;
  const state = app.state;
  const moves = state.moves.slice(0, review.at);
  endReview(false);
  busy(true);
  try {
    let fresh = await api.create(gameName, { deal: state.deal, undo: state.undo });
    for (const move of moves) fresh = await api.move(fresh.id, move, false);
    app.finishing = true; // no safe moves beyond the replayed ones
    setState(fresh, { animate: false });
    say(t("Deal #{deal} again, from move {n}.", { deal: state.deal, n: moves.length }));
  } catch (error) {
    report(error);
    draw({ animate: false });
  } finally {
    app.finishing = false;
    busy(false);
  }
}

export async function whereDidILose() {
  const state = app.state;
  $("overlay-body").replaceChildren(el("p", { class: "thinking" }, t("Asking the solver\u2026")));
  $("overlay-buttons").replaceChildren();
  let analysis;
  try {
    analysis = await api.analysis(state.id);
  } catch (error) {
    $("overlay-body").replaceChildren(el("p", {}, error.detail || t("The solver did not answer.")));
    $("overlay-buttons").replaceChildren(button(t("New deal"), () => newGame().catch(report), { primary: true }), button(t("Close"), closeOverlay));
    return;
  }
  if (app.state !== state) return;
  const found = analysis.lost_at !== null && analysis.lost_at !== undefined;
  if (found || (analysis.between && analysis.between.length === 2)) {
    closeOverlay();
    await startReview(analysis);
    return;
  }
  const text =
    analysis.winnable === false
      ? t("This deal had no winning line even before your first move: nobody could have won it. Switch on \u201cDeal only winnable deals\u201d in the menu to get only deals the solver has proved.")
      : analysis.message || t("The solver could not settle it within its time budget.");
  $("overlay-body").replaceChildren(el("p", {}, text));
  $("overlay-buttons").replaceChildren(button(t("New deal"), () => newGame().catch(report), { primary: true }), button(t("Restart"), () => (closeOverlay(), restart())), button(t("Close"), closeOverlay));
}
