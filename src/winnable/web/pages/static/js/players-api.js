// The players' API (accounts, the Daily, statistics) and what their pages share.
// Sentences a player reads go through t()/tn() (see i18n.js).

import { call, ApiError } from "./api.js";
import { clock } from "./dom.js";
import { localHref, t } from "./i18n.js";

export { ApiError };

export const players = {
  me: () => call("GET", "/api/auth/me"),
  signup: (name, password) => call("POST", "/api/auth/signup", { name, password }),
  // `altcha`: the solved proof of work a name under guessing asks for (see altcha.js).
  login: (name, password, altcha = null) => call("POST", "/api/auth/login", altcha ? { name, password, altcha } : { name, password }),
  logout: () => call("POST", "/api/auth/logout", {}),
  exportData: () => call("GET", "/api/account/export"),
  deleteAccount: (password) => call("POST", "/api/account/delete", { password }),
  dailyOverview: () => call("GET", "/api/daily"),
  // Starts (or resumes) the player's one attempt at today's Daily: its clock runs from then.
  daily: (game) => call("GET", `/api/daily/${encodeURIComponent(game)}`),
  leaderboard: (game, date) =>
    call("GET", `/api/daily/${encodeURIComponent(game)}/leaderboard${date ? `?date=${encodeURIComponent(date)}` : ""}`),
  stats: () => call("GET", "/api/stats"),
};

/** Today's Dailies, or null when the server cannot say (the page goes on without them). */
export async function dailyOverviewOrNull() {
  try {
    return await players.dailyOverview();
  } catch (error) {
    if (error instanceof ApiError) return null;
    throw error;
  }
}

/** A countdown to the next Daily that ticks every second in `node`. */
export function countdownTo(node, secondsLeft, format = (left) => t("Next Daily in {time}", { time: clock(left) })) {
  const until = performance.now() + secondsLeft * 1000;
  const tick = () => {
    const left = Math.max(0, (until - performance.now()) / 1000);
    node.textContent = format(left);
    if (left <= 0) {
      clearInterval(timer);
      node.dispatchEvent(new CustomEvent("daily:next", { bubbles: true }));
    }
  };
  const timer = setInterval(tick, 1000);
  tick();
  return () => clearInterval(timer);
}

/** A place in this site to go back to after signing in (never another site). */
export function safeNext(value, fallback = "/") {
  return typeof value === "string" && /^\/(?![/\\])/.test(value) ? value : fallback;
}

/** The Daily of `game`: start or resume the attempt and open it; guests go to sign in. */
export async function openDaily(game) {
  try {
    const state = await players.daily(game);
    location.href = localHref(`/play/${encodeURIComponent(game)}?id=${encodeURIComponent(state.id)}`);
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) {
      location.href = localHref(`/account?next=${encodeURIComponent(localHref(`/daily?game=${game}&play=1`))}`);
      return;
    }
    throw error;
  }
}

/** The words for a result on a leaderboard or in statistics. */
/** Why an attempt is not ranked (the state's or an entry's ``not_ranked``), in words. */
export function notRankedText(why) {
  if (!why) return "";
  if (why.code === "pace_total") {
    return t("Not ranked: {n} moves in {seconds} s, under {floor} s a move: faster than anyone can click.", { n: why.actions, seconds: why.seconds, floor: why.floor_seconds });
  }
  return t("Not ranked: half of your moves came at most {median} s apart; no person plays that fast (the floor is {floor} s).", { median: why.median_seconds, floor: why.floor_seconds });
}

export function resultText(status) {
  return (
    {
      won: t("Won"),
      lost: t("Lost"),
      playing: t("In play"),
      unfinished: t("Unfinished"),
    }[status] || status
  );
}
