// The statistics page: per game, played, won, win rate, streaks and records (Penguin's
// partial and speed scores, Black Hole's and Fourteen Out's best time per undo rule,
// Fourteen Out's cards taken out), assisted wins apart;
// and a plot of results over time, drawn here as SVG (no library, no build step).

import { clock, el } from "./dom.js";
import { players, resultText } from "./players-api.js";
import { recordTable } from "./record.js";
import { showCalendar } from "./daily-calendar.js";
import { call, ApiError } from "./api.js";
import { formatDate, formatNumber, localHref, t, tn } from "./i18n.js";

const $ = (id) => document.getElementById(id);
const UNDO_NAMES = () => ({ unlimited: t("unlimited undo"), one: t("one undo"), none: t("no undo") });

function figure(label, value, id) {
  return el("div", { class: "figure", "data-figure": id }, el("dt", {}, label), el("dd", {}, value === null || value === undefined ? "\u2014" : value));
}

function card(stats) {
  const figures = [
    figure(t("Played"), formatNumber(stats.played), "played"),
    figure(t("Won"), formatNumber(stats.won), "won"),
    figure(t("Win rate"), formatNumber(stats.win_rate, { style: "percent", maximumFractionDigits: 1 }), "win_rate"),
    figure(t("Current streak"), formatNumber(stats.current_streak), "current_streak"),
    figure(t("Best streak"), formatNumber(stats.best_streak), "best_streak"),
    figure(t("Best time"), stats.best_seconds === null ? null : clock(stats.best_seconds), "best_seconds"),
    figure(t("Fewest moves"), stats.fewest_moves, "fewest_moves"),
    figure(t("Assisted wins"), formatNumber(stats.assisted_wins), "assisted_wins"),
  ];
  if (stats.best_seconds_by_undo) {
    const names = UNDO_NAMES();
    for (const mode of ["unlimited", "one", "none"]) {
      if (mode in stats.best_seconds_by_undo) figures.push(figure(t("Best time, {rule}", { rule: names[mode] }), clock(stats.best_seconds_by_undo[mode]), `best_${mode}`));
    }
  }
  if (stats.partial_average !== null) {
    figures.push(
      figure(t("Average score"), t("{n} of 52", { n: formatNumber(stats.partial_average) }), "partial_average"),
      figure(t("Best score"), t("{n} of 52", { n: stats.partial_best }), "partial_best"),
      figure(t("Best speed score"), stats.speed_best, "speed_best"),
    );
  }
  if (stats.removed_average !== null && stats.removed_average !== undefined) {
    figures.push(
      figure(t("Cards taken out, on average"), t("{n} of 52", { n: formatNumber(stats.removed_average) }), "removed_average"),
      figure(t("Most cards taken out"), t("{n} of 52", { n: stats.removed_best }), "removed_best"),
    );
  }
  return el("section", { class: "stats-card", "data-game": stats.game }, el("h2", {}, stats.title), el("dl", { class: "figures" }, ...figures));
}

/** Results over time: one dot per game (cards brought home, of all; colour: result) and
 * the win rate of the last ten games as a line, on one 0-100 % scale. */
function plot(history, title) {
  const W = 640, H = 240, left = 44, right = 12, top = 14, bottom = 30;
  const n = history.length;
  const x = (i) => left + (n <= 1 ? (W - left - right) / 2 : (i * (W - left - right)) / (n - 1));
  const y = (share) => top + (1 - share) * (H - top - bottom);
  const svg = el("svg", { id: "results-plot", class: "plot", viewBox: `0 0 ${W} ${H}`, role: "img", "aria-labelledby": "plot-title" });
  svg.append(el("title", { id: "plot-title" }, title));
  for (const share of [0, 0.5, 1]) {
    svg.append(
      el("line", { class: "grid", x1: left, x2: W - right, y1: y(share), y2: y(share) }),
      el("text", { class: "axis", x: left - 6, y: y(share) + 4, "text-anchor": "end" }, `${Math.round(share * 100)}%`),
    );
  }
  svg.append(el("text", { class: "axis", x: left, y: H - 8 }, t("oldest")), el("text", { class: "axis", x: W - right, y: H - 8, "text-anchor": "end" }, t("latest")));
  const rate = [];
  history.forEach((game, i) => {
    const recent = history.slice(Math.max(0, i - 9), i + 1);
    rate.push(`${x(i)},${y(recent.filter((g) => g.status === "won" && !g.assisted).length / recent.length)}`);
  });
  if (n > 1) svg.append(el("polyline", { class: "rate", points: rate.join(" ") }));
  history.forEach((game, i) => {
    const home = game.out_of ? (game.out_of - (game.cards_left ?? game.out_of)) / game.out_of : game.status === "won" ? 1 : 0;
    const kind = game.status === "won" ? (game.assisted ? "assisted" : "won") : game.status;
    const dot = el("circle", { class: `dot ${kind}`, cx: x(i), cy: y(game.status === "won" ? 1 : home), r: 4.5 });
    const when = formatDate(game.at, { dateStyle: "medium", timeStyle: "short" });
    const assisted = game.assisted ? t("won with hints") : resultText(game.status);
    const moves = tn("{n} move", "{n} moves", game.moves, { n: game.moves });
    dot.append(el("title", {}, t("{when}: {result}, {moves}", { when, result: assisted, moves })));
    svg.append(dot);
  });
  return svg;
}

function legend() {
  const item = (kind, text) => el("li", {}, el("span", { class: `swatch ${kind}`, "aria-hidden": "true" }), text);
  return el("ul", { class: "legend" }, item("won", t("won")), item("assisted", t("won with hints")), item("lost", t("lost")),
    item("playing", t("unfinished")), item("rate", t("win rate, last 10 games")));
}

function showPlot(data, game) {
  const history = data.history.filter((entry) => entry.game === game);
  const title = t("Results over time: {game}", { game: (data.games.find((g) => g.game === game) || {}).title || game });
  $("plot-box").replaceChildren(el("h2", {}, title), plot(history, title), legend(),
    el("p", { class: "muted small" }, t("Each dot is a game: how many of its cards went home (a win: all). The line is the share of wins among the last ten games.")));
}

/** The challenges the player made, newest first, each with its page and how many played it. */
async function showChallenges(signedIn) {
  const box = $("challenges-made");
  if (!box || !signedIn) return;
  let made;
  try {
    made = (await call("GET", "/api/challenges/mine")).challenges;
  } catch (error) {
    if (error instanceof ApiError) return;
    throw error;
  }
  box.hidden = !made.length;
  if (!made.length) return;
  box.replaceChildren(
    el("h2", {}, t("Your challenges")),
    el(
      "ul",
      { class: "challenge-list" },
      ...made.map((challenge) =>
        el(
          "li",
          {},
          el("a", { href: localHref(challenge.links.page) }, t("{game}, made {date}", { game: challenge.title, date: formatDate(challenge.created_at) })),
          " ",
          el("span", { class: "muted" }, tn("{n} player", "{n} players", challenge.players, { n: challenge.players })),
          " \u00b7 ",
          el("span", { class: "muted" }, new Date(challenge.closes_at) > new Date() ? t("open until {date}", { date: formatDate(challenge.closes_at) }) : t("closed {date}", { date: formatDate(challenge.closes_at) })),
        ),
      ),
    ),
  );
}

/** Every deal played more than once: its games side by side. */
function showRecords(records) {
  const box = $("records");
  if (!box) return;
  box.hidden = !records.length;
  if (!records.length) return;
  const name = (record) =>
    record.deal !== null
      ? t("{game}, deal #{n}", { game: record.title, n: record.deal })
      : record.daily
        ? t("{game}, Daily {date}", { game: record.title, date: formatDate(record.daily) })
        : t("{game}, a challenge's deal", { game: record.title });
  box.replaceChildren(
    el("h2", {}, t("Deals you played more than once")),
    ...records.map((record) =>
      el(
        "section",
        { class: "deal-record", "data-game": record.game, "data-deal": record.deal === null ? "" : String(record.deal) },
        el("h3", {}, name(record), " ", el("span", { class: "muted" }, tn("{n} game", "{n} games", record.played, { n: record.played }))),
        recordTable(record.attempts),
      ),
    ),
  );
}

async function main() {
  const data = await players.stats();
  const who = $("stats-who");
  who.textContent = data.signed_in ? t("Statistics of {name}", { name: data.player }) : t("This browser's statistics (sign in to keep them on every device)");
  await showCalendar($("month-calendar"), null, data.signed_in);
  const root = $("stats");
  if (!data.games.length) {
    root.replaceChildren(el("p", { class: "lead" }, t("No game played yet. Play a game and come back!")));
    await showChallenges(data.signed_in);
    document.body.dataset.ready = "1";
    return;
  }
  root.replaceChildren(...data.games.map(card));
  showRecords(data.records || []);
  await showChallenges(data.signed_in);
  const select = $("plot-game");
  select.replaceChildren(...data.games.map((g) => el("option", { value: g.game }, g.title)));
  const busiest = [...data.games].sort((a, b) => b.played - a.played)[0];
  select.value = busiest.game;
  select.closest("label").hidden = data.games.length < 2;
  select.addEventListener("change", () => showPlot(data, select.value));
  showPlot(data, busiest.game);
  document.body.dataset.ready = "1";
}

main();
