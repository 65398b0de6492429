// The game page's sharing: the deal link shares the deal (share.js: the share sheet, else
// the link copied), the menu shares it too and makes a challenge of the game (the same
// cards and settings for friends, ranked), a ranked challenge attempt says so and links
// to its challenge, and the menu shows your record of the deal when you played it more
// than once (your games of it side by side).

import { call, ApiError } from "./api.js";
import { el } from "./dom.js";
import { localHref, t, tn } from "./i18n.js";
import { recordTable } from "./record.js";
import { setRefusal } from "./play-refusals.js";
import { say } from "./play-state.js";
import { shareLink } from "./share.js";

const $ = (id) => document.getElementById(id);
let current = null;

function tell(sentence, url) {
  say(url ? [sentence, " ", url] : sentence, { sticky: Boolean(url) });
}

/** What the page's share action gives: the deal (with its game and the variant; not the
 * language: the friend reads it in theirs), or the challenge of a ranked attempt; null when there is nothing to share
 * (a Daily while its day lasts, a deal dealt from a deck order). */
function shared(state) {
  if (!state) return null;
  if (state.challenge) {
    return { path: `/challenge/${encodeURIComponent(state.challenge)}`, title: t("A {game} challenge", { game: state.title }), text: t("Can you beat me at this {game} deal? One ranked attempt.", { game: state.title }) };
  }
  if (state.deal === null || state.deal === undefined) return null;
  return { path: `/play/${encodeURIComponent(state.game)}?deal=${state.deal}`, title: t("{game}, deal #{n}", { game: state.title, n: state.deal }), text: t("Play this {game} deal on Winnable.", { game: state.title }) };
}

async function share() {
  const what = shared(current);
  if (!what) return;
  await shareLink({ ...what, tell });
}

async function challenge() {
  if (!current) return;
  try {
    const made = await call("POST", "/api/challenges", { game_id: current.id });
    location.href = localHref(made.links.page);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    if (error.status === 401) {
      const here = localHref(`/play/${encodeURIComponent(current.game)}?id=${encodeURIComponent(current.id)}`);
      location.href = localHref(`/account?next=${encodeURIComponent(here)}`);
      return;
    }
    say(error.detail, { kind: "error" });
  }
}

const shareButton = el("button", { id: "share-button", class: "btn", type: "button", title: t("Share a link to this deal (the same cards for whoever opens it)") }, t("Share"));
const challengeButton = el("button", { id: "challenge-button", class: "btn", type: "button", title: t("Challenge friends: the same cards and settings, one ranked attempt each") }, t("Challenge friends"));
const challengeBadge = el("a", { id: "challenge-badge", class: "badge daily-badge", hidden: true }, t("Challenge"));
const recordBox = el("section", { id: "deal-record", class: "deal-record", hidden: true, "aria-labelledby": "deal-record-title" });

shareButton.addEventListener("click", () => share().catch(console.error));
challengeButton.addEventListener("click", () => challenge().catch(console.error));

function showRecord(record) {
  if (!record || record.played < 2) {
    recordBox.hidden = true;
    recordBox.replaceChildren();
    return;
  }
  recordBox.replaceChildren(
    el("h2", { class: "menu-title", id: "deal-record-title" }, t("Your record of this deal")),
    el("p", { class: "record-summary" }, tn("You played this deal {n} time.", "You played this deal {n} times.", record.played, { n: record.played })),
    recordTable(record.attempts),
  );
  recordBox.hidden = false;
}

let asked = null;

async function refreshRecord(state) {
  const key = `${state.id}:${state.status}:${state.move_count > 0}`;
  if (asked === key) return;
  asked = key;
  try {
    showRecord(await call("GET", `/api/stats/record/${encodeURIComponent(state.id)}`));
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    showRecord(null);
  }
}

document.addEventListener("winnable:state", (event) => {
  const state = event.detail;
  current = state;
  const what = shared(state);
  shareButton.hidden = !what;
  shareButton.title = state.challenge ? t("Share this challenge") : t("Share a link to this deal (the same cards for whoever opens it)");
  const dailyOpen = state.daily && state.hint_allowed === false;
  // A ranked attempt in play makes no challenge (its copies would be its hints).
  challengeButton.hidden = Boolean(dailyOpen) || Boolean(state.challenge && state.status === "playing");
  challengeBadge.hidden = !state.challenge;
  if (state.challenge) {
    challengeBadge.href = localHref(`/challenge/${encodeURIComponent(state.challenge)}`);
    challengeBadge.title = t("A ranked challenge attempt: hints are off. See the challenge's leaderboard");
    const hint = $("hint");
    if (hint && state.status === "playing") setRefusal(hint, t("Hints are off in a ranked challenge attempt"));
    setRefusal($("restart"), t("A ranked challenge attempt is one attempt: it cannot be restarted"));
  }
  document.body.dataset.challenge = state.challenge || "";
  refreshRecord(state).catch(console.error);
});

function install() {
  const deal = $("deal-link");
  if (deal) {
    deal.title = t("Share a link to this deal (the same cards for whoever opens it)");
    deal.addEventListener("click", (event) => {
      // A plain click shares; a click with a modifier, or the middle button, opens the link.
      if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      event.preventDefault();
      share().catch(console.error);
    });
  }
  const menu = $("menu");
  const links = menu && menu.querySelector(".menu-links");
  if (links) links.prepend(shareButton, challengeButton);
  if (menu) menu.append(recordBox);
  const status = document.querySelector(".statusbar");
  if (status) status.append(challengeBadge);
}

install();
