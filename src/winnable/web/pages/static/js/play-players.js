// The game page's players' features: the Daily in the game's menu (with the countdown to
// the next one and today's rank), the Daily's rules on the table (no hints, no restart),
// and Black Hole's timed play (seconds a move, chosen before the deal, counted down).

import { clock, el } from "./dom.js";
import { dailyOverviewOrNull, notRankedText, openDaily } from "./players-api.js";
import { formatDate, localHref, t } from "./i18n.js";
import { setRefusal } from "./play-refusals.js";

const $ = (id) => document.getElementById(id);
const gameName = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");
const THINK_KEY = `winnable:think:${gameName}`;
const THINK_CHOICES = [10, 30, 60];

const local = {
  get(key) {
    try {
      return localStorage.getItem(key);
    } catch {
      return null;
    }
  },
  set(key, value) {
    try {
      localStorage.setItem(key, value);
    } catch {
      /* private mode */
    }
  },
};

// ------------------------------------------------------------------ the Daily button

const dailyButton = el(
  "button",
  { id: "daily-button", class: "btn daily-button", type: "button", hidden: true, title: t("Today's Daily: the same deal for everyone, one attempt") },
  el("span", { class: "daily-word" }, t("Daily")),
  el("span", { id: "daily-rank", class: "count", hidden: true }),
  el("span", { id: "daily-next", class: "daily-next" }),
);
let stopCountdown = null;
// A Daily or ranked challenge attempt whose moves came faster than a person plays:
// kept, not ranked; the badge's title says why.
const notRanked = el("span", { id: "not-ranked", class: "badge lost not-ranked", hidden: true }, t("Not ranked"));

async function refreshDaily() {
  const overview = await dailyOverviewOrNull();
  if (!overview) return;
  const entry = overview.games.find((game) => game.game === gameName);
  dailyButton.hidden = !entry || !entry.available;
  if (!entry) return;
  const rank = $("daily-rank");
  if (entry.attempt && entry.attempt.rank === null) {
    rank.hidden = false;
    rank.textContent = t("not ranked");
    rank.title = notRankedText(entry.attempt.not_ranked);
  } else if (entry.attempt) {
    rank.hidden = false;
    rank.textContent = t("#{rank}", { rank: entry.attempt.rank });
    rank.title = t("Your rank today: {rank} of {players}", { rank: entry.attempt.rank, players: entry.players });
  } else rank.hidden = true;
  if (stopCountdown) stopCountdown();
  const until = performance.now() + overview.next_in_seconds * 1000;
  const next = $("daily-next");
  const tick = () => {
    const left = Math.max(0, (until - performance.now()) / 1000);
    next.textContent = clock(left);
    next.title = t("Next Daily in {time}", { time: clock(left) });
    if (left <= 0) {
      clearInterval(timer);
      refreshDaily();
    }
  };
  const timer = setInterval(tick, 1000);
  stopCountdown = () => clearInterval(timer);
  tick();
}

dailyButton.addEventListener("click", () => openDaily(gameName).catch((error) => console.error(error)));

// ------------------------------------------------------------------ timed play

const thinkSelect = el(
  "select",
  { id: "think-time" },
  el("option", { value: "" }, t("Untimed")),
  ...THINK_CHOICES.map((seconds) => el("option", { value: String(seconds) }, t("{n} s a move", { n: seconds }))),
);
// A row of the game's menu, like the undo rule: it applies to the next deal.
const thinkLabel = el(
  "label",
  { class: "row select-row think-mode", for: "think-time", hidden: true },
  el("span", { class: "switch-label" }, t("Timed play"), el("small", {}, t("For your next deal: each move within this time, or the game is lost"))),
  thinkSelect,
);
thinkSelect.value = local.get(THINK_KEY) || "";
thinkSelect.addEventListener("change", () => local.set(THINK_KEY, thinkSelect.value));

document.addEventListener("winnable:new-game", (event) => {
  const { game, options } = event.detail;
  // A game with timed play (the page knows its traits before its first deal: a deal's
  // link opened with timed play chosen is timed too).
  if (game === gameName && document.body.dataset.timedPlay === "1" && thinkSelect.value) options.think = Number(thinkSelect.value);
});

const thinkLeft = el("span", { id: "think-left", class: "stat think-left", hidden: true, role: "timer", "aria-live": "off" });
const dailyBadge = el("a", { id: "daily-badge", class: "badge daily-badge", hidden: true });
let thinkTimer = null;

function showThinking(state) {
  clearInterval(thinkTimer);
  if (!state.think_seconds || state.status !== "playing" || state.think_left === null || state.think_left === undefined) {
    thinkLeft.hidden = !state.think_seconds;
    thinkLeft.textContent = state.think_seconds ? (state.timed_out ? t("Time ran out") : t("{n} s a move", { n: state.think_seconds })) : "";
    thinkLeft.classList.toggle("out", Boolean(state.timed_out));
    return;
  }
  const until = performance.now() + state.think_left * 1000;
  thinkLeft.hidden = false;
  thinkLeft.classList.remove("out");
  const tick = () => {
    const left = Math.max(0, (until - performance.now()) / 1000);
    thinkLeft.textContent = t("{n} s left", { n: Math.ceil(left) });
    thinkLeft.classList.toggle("hurry", left <= 5);
    if (left <= 0) {
      clearInterval(thinkTimer);
      // The server's clock decides: ask it for the game again (it is lost now).
      setTimeout(() => document.dispatchEvent(new CustomEvent("winnable:refresh")), 300);
    }
  };
  thinkTimer = setInterval(tick, 200);
  tick();
}

let lastDailyStatus = null;

document.addEventListener("winnable:state", (event) => {
  const state = event.detail;
  document.body.dataset.daily = state.daily || "";
  thinkLabel.hidden = document.body.dataset.timedPlay !== "1";
  const hint = $("hint");
  if (hint && state.hint_allowed === false && state.status === "playing") {
    setRefusal(hint, state.daily ? t("Hints are off in the Daily") : t("Hints are off while these cards are an open challenge"));
  }
  notRanked.hidden = !state.not_ranked;
  notRanked.title = notRankedText(state.not_ranked);
  notRanked.setAttribute("aria-label", notRanked.title);
  const restart = $("restart");
  if (restart && state.restart_allowed === false) setRefusal(restart, t("The Daily is one attempt: it cannot be restarted"));
  dailyBadge.hidden = !state.daily;
  if (state.daily) {
    // A Daily's address names the attempt, not the deal: the deal is today's Daily,
    // which opens as a normal game for nobody.
    history.replaceState(null, "", localHref(`/play/${encodeURIComponent(state.game)}?id=${encodeURIComponent(state.id)}`));
    dailyBadge.textContent = t("Daily {date}", { date: formatDate(state.daily, { day: "numeric", month: "short" }) });
    dailyBadge.href = localHref(`/daily?game=${encodeURIComponent(state.game)}&date=${state.daily}`);
    dailyBadge.title = t("See the leaderboard");
    if (lastDailyStatus !== state.status) refreshDaily();
  }
  lastDailyStatus = state.daily ? state.status : null;
  showThinking(state);
});

function install() {
  // The game's menu: the Daily (countdown and rank) with its links, timed play with the
  // other settings of the next deal.
  const menu = document.getElementById("menu");
  const links = menu && menu.querySelector(".menu-links");
  if (links) links.prepend(dailyButton);
  const undoRow = menu && menu.querySelector("#undo-mode")?.closest("label");
  if (undoRow) undoRow.after(thinkLabel);
  else if (menu) menu.append(thinkLabel);
  const status = document.querySelector(".statusbar");
  if (status) status.append(dailyBadge, notRanked, thinkLeft);
  refreshDaily();
  const params = new URLSearchParams(location.search);
  if (params.get("daily")) openDaily(gameName).catch((error) => console.error(error));
}

install();
