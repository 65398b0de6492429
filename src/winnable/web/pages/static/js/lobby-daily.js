// The lobby's Daily: today's deal of every game that has one, the countdown to the next,
// the player's result and rank, and the way to the leaderboards.

import { clock, el } from "./dom.js";
import { countdownTo, dailyOverviewOrNull, openDaily, resultText } from "./players-api.js";
import { localHref, t, tn } from "./i18n.js";
import { gradeBadge } from "./grades.js";

async function main() {
  const box = document.getElementById("daily-banner");
  if (!box) return;
  const overview = await dailyOverviewOrNull();
  if (!overview) return;
  const games = overview.games.filter((game) => game.available);
  const next = el("span", { class: "daily-next muted", id: "daily-countdown" });
  // On a phone the Dailies fold under their heading, one tap away, so that the games one
  // can just play come first; on a wider screen they stand open.
  const head = el(
    "summary",
    { class: "daily-head", id: "daily-toggle" },
    el("h2", {}, t("Today's Daily")),
    el("span", { class: "daily-count muted" }, tn("{n} game", "{n} games", games.length, { n: games.length })),
    next,
  );
  const intro = el(
    "p",
    { class: "daily-intro" },
    overview.signed_in
      ? t("The same deal for everyone today, proved winnable: one attempt, no hints, undos counted.")
      : t("The same deal for everyone today, proved winnable. Sign in to play it: one attempt, no hints."),
  );
  const list = el("ul", { class: "daily-list" });
  for (const game of games) {
    const attempt = game.attempt;
    const label = attempt ? (attempt.status === "playing" ? t("Resume") : t("See it")) : t("Play");
    const result = attempt
      ? el(
          "span",
          { class: `daily-result ${attempt.status}` },
          attempt.rank === null
            ? t("{result}, not ranked", { result: resultText(attempt.status) })
            : t("{result}, rank {rank} of {players}", { result: resultText(attempt.status), rank: attempt.rank, players: game.players }),
          attempt.status === "won" && attempt.seconds !== null ? ` · ${clock(attempt.seconds)}` : "",
        )
      : el("span", { class: "daily-result muted" }, game.players ? tn("{n} player so far", "{n} players so far", game.players, { n: game.players }) : t("Be the first today"));
    list.append(
      el(
        "li",
        { class: "daily-item", "data-game": game.game },
        el("span", { class: "daily-title" }, game.title, " ", gradeBadge(game.grade)),
        result,
        el(
          "span",
          { class: "daily-actions" },
          el("button", { class: "btn primary small daily-play", type: "button", onclick: () => openDaily(game.game).catch(console.error) }, label),
          el("a", { class: "btn small", href: localHref(`/daily?game=${encodeURIComponent(game.game)}`) }, t("Leaderboard")),
        ),
      ),
    );
  }
  if (!games.length) list.append(el("li", { class: "muted" }, t("No Daily yet: the solver is still proving deals winnable. Come back soon.")));
  const folded = el("details", { class: "daily-fold" }, head, intro, list);
  folded.open = !window.matchMedia("(max-width: 700px)").matches;
  box.replaceChildren(folded);
  box.hidden = false;
  countdownTo(next, overview.next_in_seconds);
  box.addEventListener("daily:next", () => main());
}

main();
