// A ranked challenge attempt's end (issue 34): like the Daily's, the player's rank among
// the challenge's players (filled in once the server says it) and the way to its
// leaderboard.

import { call } from "./api.js";
import { el } from "./dom.js";
import { localHref, t } from "./i18n.js";

/** The challenge's page, with its leaderboard. */
export const challengeBoard = (state) => localHref(`/challenge/${encodeURIComponent(state.challenge)}`);

/** The rank line: "counting…" until the server answers; gone when the attempt is not ranked
 * (none at all when the state says so: its reason is said above). */
export function challengeLines(state) {
  if (state.not_ranked) return [];
  const rank = el("p", { id: "challenge-result-rank", class: "daily-result-rank" }, t("Your rank: counting\u2026"));
  call("GET", `/api/challenges/${encodeURIComponent(state.challenge)}`)
    .then((found) => {
      const attempt = found && found.your_attempt;
      if (!attempt || attempt.rank === null || attempt.rank === undefined) rank.remove(); // not ranked: the reason is said above
      else rank.textContent = t("Your rank in this challenge: {rank} of {players}", { rank: attempt.rank, players: found.players });
    })
    .catch(() => rank.remove());
  return [rank];
}

/** The link to the challenge's leaderboard, as a dialog's button. */
export function challengeBoardButton(state, { primary = true } = {}) {
  return el("a", { class: `btn${primary ? " primary" : ""}`, id: "challenge-leaderboard", href: challengeBoard(state) }, t("See the leaderboard"));
}
