// Menus and dialogs: the overlay (won, lost) and the list of this browser's games.

import { api } from "./api.js";
import { $, clock, el } from "./dom.js";
import { locale, localHref, t, tn } from "./i18n.js";
import { newGame, restart, scoreLine, undo } from "./play-game.js";
import { countdownTo, dailyOverviewOrNull, notRankedText } from "./players-api.js";
import { challengeBoardButton, challengeLines } from "./play-challenge-result.js";
import { button, closeOverlay, openOverlay } from "./play-overlay.js";
import { whereDidILose } from "./play-review.js";
import { app, KEY_GAMES, report, store } from "./play-state.js";

export function showWin() {
  const state = app.state;
  if (state.status !== "won") return;
  const words = { deal: state.deal, game: app.info.title || state.title, time: clock(state.elapsed_seconds || 0), n: state.move_count };
  const body = [
    el("p", {}, state.deal === null
      ? tn("{game}, won in {time} and {n} move.", "{game}, won in {time} and {n} moves.", state.move_count, words)
      : tn("Deal #{deal} of {game}, won in {time} and {n} move.", "Deal #{deal} of {game}, won in {time} and {n} moves.", state.move_count, words)),
  ];
  const score = scoreLine(state);
  if (score) body.push(el("p", { class: "muted" }, score));
  const speed = speedLine(state);
  if (speed) body.push(el("p", { id: "speed-score", class: "speed-score" }, speed));
  // A ranked attempt played faster than a person plays: kept, not ranked, and why.
  if (state.not_ranked) body.push(el("p", { id: "not-ranked-reason", class: "form-error" }, notRankedText(state.not_ranked)));
  if (state.daily) {
    // A Daily is one attempt: no deal to play again; its rank, its leaderboard and what
    // comes next instead.
    openOverlay({
      title: t("You won!"),
      kind: "win daily-result",
      art: "stars",
      body: [...body, ...dailyLines(state)],
      buttons: dailyButtons(state, { primary: true }),
    });
    return;
  }
  if (state.challenge) {
    // A ranked challenge attempt: its rank and its leaderboard, as the Daily's.
    openOverlay({
      title: t("You won!"),
      kind: "win challenge-result",
      art: "stars",
      body: [...body, ...challengeLines(state)],
      buttons: [challengeBoardButton(state), button(t("New deal"), () => newGame().catch(report), { id: "win-new" }), button(t("Look at the table"), closeOverlay)],
    });
    return;
  }
  openOverlay({
    title: t("You won!"),
    kind: "win",
    art: "stars",
    body,
    buttons: [
      button(t("New deal"), () => newGame().catch(report), { primary: true, id: "win-new" }),
      ...(state.deal === null ? [] : [button(t("Play this deal again"), () => newGame({ deal: state.deal }).catch(report))]),
      button(t("Look at the table"), closeOverlay),
    ],
  });
}

/** Penguin's speed score of a won game, as the server computed it (none otherwise). */
export function speedLine(state) {
  const speed = state.score && state.score.speed;
  if (speed === null || speed === undefined) return "";
  return t("Speed score {n} (fewer moves and less time score higher)", { n: speed });
}

/** Whether a Daily's day is over (UTC): then the solver may look at it. */
function dailyOver(state) {
  return Boolean(state.daily) && state.daily < new Date().toISOString().slice(0, 10);
}

function dailyBoard(state) {
  return localHref(`/daily?game=${encodeURIComponent(state.game)}&date=${state.daily}`);
}

/** A Daily's result: the player's rank (filled in once the server says it; none for an
 * attempt the server did not rank, whose reason is said above), and the time to the next
 * Daily. */
function dailyLines(state) {
  const rank = state.not_ranked ? null : el("p", { id: "daily-result-rank", class: "daily-result-rank" }, t("Your rank: counting\u2026"));
  const next = el("p", { id: "daily-result-next", class: "muted" });
  dailyOverviewOrNull()
    .then((overview) => {
      const entry = overview && overview.games.find((game) => game.game === state.game);
      if (rank) {
        const ranked = entry && entry.attempt && app.state === state && entry.attempt.rank !== null;
        if (ranked) rank.textContent = t("Your rank today: {rank} of {players}", { rank: entry.attempt.rank, players: entry.players });
        else rank.remove(); // not ranked: the reason is said above
      }
      if (overview && !dailyOver(state)) {
        countdownTo(next, overview.next_in_seconds, (left) => t("Tomorrow's Daily in {time}", { time: clock(left) }));
      } else next.remove();
    })
    .catch(() => rank?.remove());
  return rank ? [rank, next] : [next];
}

/** What can be done after a Daily: its leaderboard, a deal of this game, another game. */
function dailyButtons(state, { primary }) {
  return [
    el("a", { class: `btn${primary ? " primary" : ""}`, id: "daily-leaderboard", href: dailyBoard(state) }, t("See the leaderboard")),
    button(t("New deal"), () => newGame().catch(report), { id: "win-new" }),
    el("a", { class: "btn", id: "other-game", href: localHref("/") }, t("Another game")),
    button(t("Look at the table"), closeOverlay),
  ];
}

export function showLost() {
  const state = app.state;
  if (state.status !== "lost") return;
  if (state.timed_out) {
    showTimedOut(state);
    return;
  }
  const left = state.position.cards_left;
  // No button that can only fail: a Daily cannot be restarted, and the solver looks at
  // it only once its day is over.
  const askSolver = !state.daily || dailyOver(state);
  const buttons = askSolver ? [button(t("Where did I lose?"), whereDidILose, { primary: true, id: "where-lost" })] : [];
  if (state.undo !== "none" && state.undo_left !== 0) buttons.push(button(t("Undo"), () => (closeOverlay(), undo())));
  if (state.daily) buttons.push(...dailyButtons(state, { primary: !askSolver }));
  else if (state.challenge) buttons.push(challengeBoardButton(state, { primary: false }), button(t("New deal"), () => newGame().catch(report)), button(t("Look at the table"), closeOverlay));
  else {
    buttons.push(
      button(t("Restart"), () => (closeOverlay(), restart())),
      button(t("New deal"), () => newGame().catch(report)),
      button(t("Look at the table"), closeOverlay),
    );
  }
  openOverlay({
    title: t("No moves left"),
    kind: "lost",
    art: "stuck",
    body: [
      el("p", {}, app.family.lostText ? app.family.lostText(left) : tn("No card can move: {n} card left on the table.", "No card can move: {n} cards left on the table.", left, { n: left })),
      scoreLine(state) ? el("p", {}, `${scoreLine(state)} \u00b7 ${clock(state.elapsed_seconds || 0)} \u00b7 ${movesText(state.move_count)}`) : null,
      askSolver ? el("p", { class: "muted" }, t("The solver can show you the move that lost the game.")) : null,
      state.not_ranked ? el("p", { id: "not-ranked-reason", class: "form-error" }, notRankedText(state.not_ranked)) : null,
      ...(state.daily ? dailyLines(state) : state.challenge ? challengeLines(state) : []),
    ].filter(Boolean),
    buttons,
  });
}

/** Timed play lost on the clock: the time ran out (moves were left, or not), where the
 * player was, and what can be done: the same deal again, a new one (no undo: the
 * server refuses it). */
function showTimedOut(state) {
  const left = state.position.cards_left;
  const seconds = state.think_seconds || 0;
  const legalLeft = state.position.lost === false;
  openOverlay({
    title: t("Time ran out"),
    kind: "lost timed-out",
    art: "stuck",
    body: [
      el("p", {}, tn("Each move had to be played within {n} second, and the time ran out.", "Each move had to be played within {n} seconds, and the time ran out.", seconds, { n: seconds })),
      el(
        "p",
        { id: "timed-out-where" },
        state.move_count
          ? [tn("Where you were: {n} card left on the table", "Where you were: {n} cards left on the table", left, { n: left }), ` \u00b7 ${movesText(state.move_count)} \u00b7 ${clock(state.elapsed_seconds || 0)}`]
          : t("The time ran out before your first move: the deal is as it was dealt."),
      ),
      el("p", { class: "muted" }, legalLeft ? t("Cards could still move: the table behind shows where you stopped.") : t("No card could move any more either.")),
    ],
    buttons: [
      button(t("Play this deal again"), () => (closeOverlay(), restart()), { primary: true, id: "timed-again" }),
      button(t("New deal"), () => newGame().catch(report), { id: "timed-new" }),
      button(t("Look at the table"), closeOverlay, { id: "timed-look" }),
    ],
  });
}

function rememberedGames() {
  try {
    const games = JSON.parse(store.get(KEY_GAMES, "[]"));
    return Array.isArray(games) ? games.filter((g) => g && typeof g.id === "string") : [];
  } catch {
    return [];
  }
}

function when(iso) {
  if (!iso) return "";
  const seconds = (Date.parse(iso) - Date.now()) / 1000;
  const format = new Intl.RelativeTimeFormat(locale, { numeric: "auto" });
  for (const [unit, size] of [["day", 86400], ["hour", 3600], ["minute", 60]]) {
    if (Math.abs(seconds) >= size) return format.format(Math.round(seconds / size), unit);
  }
  return format.format(0, "second"); // "now", "maintenant", "nu" (CLDR's Dutch "this minute" reads as the future)
}

const STATUS_WORDS = { playing: () => t("in play"), won: () => t("won"), lost: () => t("lost") };
// Translated outside template literals: `pybabel extract` does not look inside ${...}.
const movesText = (n) => tn("{n} move", "{n} moves", n, { n });

export async function showYourGames() {
  openOverlay({ title: t("Your games"), kind: "yours", body: [el("p", { class: "thinking" }, t("Loading\u2026"))], buttons: [button(t("Close"), closeOverlay, { id: "yours-close" })] });
  const ids = rememberedGames().map((g) => g.id);
  let games = [];
  try {
    games = ids.length ? (await api.summaries(ids)).games : [];
  } catch (error) {
    $("overlay-body").replaceChildren(el("p", {}, error.detail || t("The server cannot be reached.")));
    return;
  }
  if (!games.length) {
    $("overlay-body").replaceChildren(el("p", {}, t("No games yet in this browser.")));
    return;
  }
  games.sort((a, b) => (a.status === "playing") - (b.status === "playing") || 0).reverse();
  const thisGame = t("this game");
  const list = el(
    "ul",
    { class: "your-games" },
    games.map((game) => {
      const current = app.state && game.id === app.state.id;
      return el(
        "li",
        { "data-id": game.id, class: `your-game ${game.status}` },
        el(
          "a",
          { class: "your-game-link", href: localHref(game.links.resume), "aria-current": current ? "true" : null },
          el("b", {}, game.title),
          " ",
          game.deal === null ? t("Daily") : t("Deal #{n}", { n: game.deal }),
          el("small", {}, `${movesText(game.moves)} \u00b7 ${(STATUS_WORDS[game.status] || STATUS_WORDS.playing)()} \u00b7 ${when(game.updated_at)}${current ? ` \u00b7 ${thisGame}` : ""}`),
        ),
      );
    }),
  );
  $("overlay-body").replaceChildren(list);
}
