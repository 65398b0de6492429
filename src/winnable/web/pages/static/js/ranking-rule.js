// How a game's leaderboard orders its results, in one sentence: the registry's ranking
// rule for that game (its catalogue entry's `traits.ranking`): Penguin and the free-cell
// games rank wins by speed score, the others by time.

import { api } from "./api.js";
import { t } from "./i18n.js";

let catalog = null;

/** The sentence for a ranking rule ("time" or "speed"). */
export function rankingText(ranking) {
  return ranking === "speed"
    ? t("Wins rank by speed score (from the moves and the time), then by time and moves; the rest by cards left.")
    : t("Wins rank by time, then moves; the rest by cards left.");
}

/** Write `game`'s ranking rule into `node` (the catalogue is asked once). */
export async function showRankingRule(node, game) {
  if (!node) return;
  catalog = catalog || api.catalog();
  const entry = (await catalog).find((item) => item.id === game);
  node.textContent = rankingText(entry?.traits?.ranking);
  node.dataset.ranking = entry?.traits?.ranking || "time";
}
