// The Daily page: today's Dailies and the leaderboard of any game and day
// (?game=black-hole&date=2026-11-30), with the countdown to the next Daily.

import { clock, el } from "./dom.js";
import { ApiError, countdownTo, notRankedText, openDaily, players, resultText } from "./players-api.js";
import { formatDate, localHref, t, tn } from "./i18n.js";
import { showCalendar } from "./daily-calendar.js";
import { gradeBadge } from "./grades.js";
import { showRankingRule } from "./ranking-rule.js";

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
const view = { game: params.get("game"), date: params.get("date"), today: null, overview: null };

function shiftDay(date, days) {
  const day = new Date(`${date}T00:00:00Z`);
  day.setUTCDate(day.getUTCDate() + days);
  return day.toISOString().slice(0, 10);
}

function address() {
  const query = new URLSearchParams({ game: view.game });
  if (view.date && view.date !== view.today) query.set("date", view.date);
  history.replaceState(null, "", localHref(`/daily?${query}`));
}

/** A name of one word too long for a small phone's board (it may break inside; others break between words). */
function longWord(name) {
  return typeof name === "string" && name.split(/\s+/).some((word) => word.length > 16);
}

function row(entry) {
  const penguin = entry.partial !== null && entry.partial !== undefined;
  const outcome =
    entry.status === "won"
      ? clock(entry.seconds || 0)
      : penguin
        ? t("{n} of 52 home", { n: entry.partial })
        : tn("{n} card left", "{n} cards left", entry.cards_left, { n: entry.cards_left });
  return el(
    "tr",
    { class: entry.you ? "you" : null, "aria-current": entry.you ? "true" : null },
    el("td", { class: "num" }, String(entry.rank)),
    el("td", { class: longWord(entry.player) ? "long-name" : null }, entry.player === null ? el("span", { class: "muted" }, t("(deleted account)")) : entry.player, entry.you ? el("span", { class: "badge you-badge" }, t("you")) : null),
    el("td", {}, el("span", { class: `badge ${entry.status === "won" ? "won" : entry.status === "lost" ? "lost" : ""}` }, resultText(entry.status))),
    el("td", { class: "num" }, outcome),
    el("td", { class: "num" }, String(entry.moves)),
    el("td", { class: "num" }, String(entry.undos)),
  );
}

async function showBoard() {
  const box = $("leaderboard");
  let board;
  try {
    board = await players.leaderboard(view.game, view.date);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    box.replaceChildren(el("p", { class: "form-error" }, error.detail));
    return;
  }
  address();
  showRankingRule($("ranking-rule"), view.game).catch(console.error);
  $("board-title").replaceChildren(t("{game} · {date}", { game: board.title, date: formatDate(board.date, { dateStyle: "long" }) }), " ", gradeBadge(board.grade, { id: "board-grade" }) || "");
  $("day-next").disabled = board.date >= view.today;
  $("board-date").value = board.date;
  const summary = [
    board.players ? tn("{n} player", "{n} players", board.players, { n: board.players }) : t("Nobody has played this Daily yet."),
    board.your_rank ? t("Your rank: {rank}", { rank: board.your_rank }) : null,
    board.your_result && board.your_result.not_ranked ? notRankedText(board.your_result.not_ranked) : null,
    board.over ? (board.deal ? t("Deal #{deal}, final results", { deal: board.deal }) : t("Final results")) : t("Today: results change until midnight UTC"),
  ].filter(Boolean);
  const table = el(
    "table",
    { class: "board", id: "board-table" },
    el("caption", { class: "visually-hidden" }, t("Leaderboard")),
    el(
      "thead",
      {},
      el("tr", {}, ...[t("Rank"), t("Player"), t("Result"), t("Time or cards"), t("Moves"), t("Undos")].map((text) => el("th", { scope: "col" }, text))),
    ),
    el("tbody", {}, ...board.entries.map((entry) => row(entry))),
  );
  // As the challenge's: a name too long for a small phone scrolls the board, never the page.
  const scroller = el("div", { class: "board-scroll", tabindex: "0", role: "region", "aria-label": t("Leaderboard") }, table);
  box.replaceChildren(el("p", { class: "muted", id: "board-summary" }, summary.join(" · ")), board.entries.length ? scroller : "");
  document.body.dataset.ready = "1";
}

function games(overview) {
  const select = $("board-game");
  const offered = overview.games.filter((game) => game.available || game.game === view.game);
  select.replaceChildren(...offered.map((game) => el("option", { value: game.game }, game.title)));
  if (!view.game || !offered.some((game) => game.game === view.game)) view.game = (offered[0] || overview.games[0]).game;
  select.value = view.game;
  const play = $("play-daily");
  const entry = overview.games.find((game) => game.game === view.game);
  play.hidden = !entry || !entry.available;
  play.textContent = entry && entry.attempt ? (entry.attempt.status === "playing" ? t("Resume today's Daily") : t("See your Daily game")) : t("Play today's Daily");
  // Today's grade, before playing: the drawn Daily's, else the grade of the day.
  const grade = $("daily-grade");
  const badge = entry && entry.available ? gradeBadge(entry.grade) : null;
  grade.replaceChildren(...(badge ? [t("Today:"), " ", badge] : []));
  grade.hidden = !badge;
}

async function main() {
  const overview = await players.dailyOverview();
  view.overview = overview;
  view.today = overview.date;
  $("board-date").max = overview.date;
  if (!view.date) view.date = overview.date;
  games(overview);
  countdownTo($("next-daily"), overview.next_in_seconds);
  $("board-game").addEventListener("change", (event) => {
    view.game = event.target.value;
    games(overview);
    showBoard();
  });
  $("board-date").addEventListener("change", (event) => {
    if (/^\d{4}-\d{2}-\d{2}$/.test(event.target.value)) {
      view.date = event.target.value;
      showBoard();
    }
  });
  $("day-prev").addEventListener("click", () => {
    view.date = shiftDay(view.date, -1);
    showBoard();
  });
  $("day-next").addEventListener("click", () => {
    view.date = shiftDay(view.date, 1);
    showBoard();
  });
  $("play-daily").addEventListener("click", () => openDaily(view.game).catch(console.error));
  if (params.get("play") && overview.signed_in) {
    await openDaily(view.game);
    return;
  }
  await showBoard();
  await showCalendar($("month-calendar"), null, overview.signed_in);
}

main();
