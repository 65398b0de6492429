// The Hint: one question to the server at a time, its answer shown on the table (the
// marked card, the sentence, how far the win is) and said to screen readers.

import { api } from "./api.js";
import { el } from "./dom.js";
import { t, tn } from "./i18n.js";
import { elementAt, focusCard, highlight } from "./play-draw.js";
import { clearSelection } from "./play-pick.js";
import { announce, app, placesOf, plainSentence, report, say, sentenceOf, table } from "./play-state.js";
import { bringIntoView } from "./play-view.js";

/** Why no hint can be asked for now (the H key says it), or null. */
function hintRefusal(state) {
  if (app.review) return t("You are looking back at this game. Close the replay to play on.");
  if (state.timed_out) return t("Time ran out: this game is lost.");
  if (state.status !== "playing") return t("The game is over.");
  if (state.hint_allowed === false) {
    if (state.daily) return t("Hints are off in the Daily");
    if (state.challenge) return t("Hints are off in a ranked challenge attempt");
    return t("Hints are off while these cards are an open challenge");
  }
  return null;
}

let asking = null; // the state a hint is on its way for: one question at a time
let answered = null; // {state, answer}: the last hint, shown again without asking while nothing moved
let again = null; // the timer that asks again while the server's longer search goes on

/** While the server searches longer (`searching`), ask again by itself, less and less
 * often, as long as nothing moved: the line comes as soon as it is found. */
function askAgain(asked, tries) {
  clearTimeout(again);
  if (tries >= 12) return; // about two minutes: the longer search is over by then
  again = setTimeout(() => {
    again = null;
    if (app.state === asked && !asking) hint({ quiet: true, tries: tries + 1 });
  }, Math.min(2000 * 1.5 ** tries, 15000));
}

export async function hint({ quiet = false, tries = 0 } = {}) {
  if (!app.state || app.finishing) return;
  const refusal = app.shown ? t("The solver's line is shown: take over or close it to play.") : hintRefusal(app.state);
  if (refusal) {
    if (!quiet) say(refusal);
    return;
  }
  if (asking === app.state) return; // tapped again while the answer is on its way
  if (!quiet) clearSelection(false);
  const asked = app.state;
  let answer = answered && answered.state === asked ? answered.answer : null;
  if (!answer) {
    asking = asked;
    if (!quiet) say(t("Looking for a winning line\u2026"), { sticky: true, kind: "hint" });
    try {
      answer = await api.hint(asked.id);
    } catch (error) {
      if (!quiet) report(error);
      return;
    } finally {
      if (asking === asked) asking = null;
    }
    // An answer still being searched for is not kept: the next tap asks again.
    answered = answer.searching ? null : { state: asked, answer };
  }
  if (app.state !== asked) return; // a move was played meanwhile
  const hidden = answer.knows_hidden ? [el("br"), el("small", {}, t("The hint knows the face-down cards, which you cannot see."))] : [];
  if (answer.move) {
    const entry = app.state.legal.find((e) => e.move === answer.move) || answer.describe;
    app.hint = entry ? { ...entry, why: answer.why || "" } : null;
    document.body.dataset.hint = entry ? entry.move : "";
    highlight(app.hint, "hint");
    const away = answer.line_length ? [el("br"), el("small", {}, tn("A win is {n} move away.", "A win is {n} moves away.", answer.line_length, { n: answer.line_length }))] : [];
    // The device's word: a finger taps, a mouse clicks (a family may say it its own way).
    const touch = window.matchMedia("(pointer: coarse)").matches;
    const tapText = app.family.hintTap ? app.family.hintTap(touch) : touch ? t("Tap the marked card to play it.") : t("Click the marked card to play it.");
    const tap = entry && entry.from !== "stock" ? [el("br"), el("small", {}, tapText)] : [];
    // What the move does on the table ("uncovers the 7♣"), from the rules.
    const why = answer.why ? [el("span", { class: "why", id: "hint-why" }, answer.why)] : [];
    say([el("b", {}, t("Hint:")), " ", ...(entry ? sentenceOf(entry) : [answer.move]), ...why, ...away, ...tap, ...hidden], { sticky: true, kind: "hint" });
    const label = t("Hint:");
    if (entry) announce([label, plainSentence(entry, app.state.position), answer.why || ""].filter(Boolean).join(" "));
    if (entry && entry.from) {
      const cards = placesOf(app.state.position).get(entry.from) || [];
      const node = entry.from === "stock" ? table.querySelector(".stock") : elementAt(entry.from, cards.length - (entry.count || 1));
      // The marked card says why too (its tooltip; a screen reader hears it when it gets there).
      if (node && answer.why) node.title = answer.why;
      if (node && app.keyboard) focusCard(node);
      bringIntoView(node); // a long column's hinted card may lie under the toolbar or below the screen
    }
  } else {
    const text = answer.message || (answer.verdict === "lost" ? t("No winning line from here.") : t("The solver could not decide in time."));
    say([el("b", {}, text), ...hidden], { sticky: true, kind: answer.verdict === "lost" ? "bad hint" : "hint" });
    if (answer.searching) askAgain(asked, tries);
  }
}
