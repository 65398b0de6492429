// A month of Dailies (the Daily page and the statistics page): a calendar grid of the
// player's Dailies, each day with its grade (it follows the week) and the player's
// result; today's at a glance; the month's points, badge and Daily streaks. Everything
// comes from GET /api/daily/calendar, worked out by the server from the stored attempts.
// The grid is a table of buttons: Tab reaches the days, arrows move a day or a week,
// Enter or a tap shows that day's Dailies below.

import { call, ApiError } from "./api.js";
import { el } from "./dom.js";
import { gradeBadge, gradeName, gradeWord } from "./grades.js";
import { formatDate, formatNumber, locale, localHref, t, tn } from "./i18n.js";
import { resultText } from "./players-api.js";

const BADGE_NAMES = () => ({ bronze: t("Bronze"), silver: t("Silver"), gold: t("Gold") });

function monthOf(date) {
  return date.slice(0, 7);
}

function shiftMonth(month, by) {
  const [year, number] = month.split("-").map(Number);
  const moved = new Date(Date.UTC(year, number - 1 + by, 1));
  return moved.toISOString().slice(0, 7);
}

function monthTitle(month) {
  return new Intl.DateTimeFormat(locale, { month: "long", year: "numeric", timeZone: "UTC" }).format(new Date(`${month}-01T00:00:00Z`));
}

/** Monday first: the weekday names, narrow for the grid and long for screen readers. */
function weekdays() {
  const monday = Date.UTC(2026, 10, 30); // a Monday
  return Array.from({ length: 7 }, (_, i) => {
    const day = new Date(monday + i * 86400000);
    const name = (weekday) => new Intl.DateTimeFormat(locale, { weekday, timeZone: "UTC" }).format(day);
    return { short: name("narrow"), long: name("long") };
  });
}

function dayState(day) {
  if (day.won) return "won";
  if (day.games.some((game) => game.status === "playing")) return "playing";
  if (day.played) return "lost";
  return "none";
}

function dayLabel(day) {
  const date = formatDate(day.date, { dateStyle: "full" });
  const results = day.future
    ? t("to come")
    : day.played
      ? t("{won} of {played} played won, {points} points", { won: day.won, played: day.played, points: day.points })
      : t("no Daily played");
  return t("{date}, {grade}: {results}", { date, grade: gradeWord(day.grade), results });
}

function cell(day, chosen) {
  const state = dayState(day);
  const mark = { won: "\u2714", lost: "\u2716", playing: "\u25b6", none: "" }[state];
  return el(
    "button",
    {
      type: "button",
      class: `cal-day cal-${state} grade-${day.grade}${day.today ? " cal-today" : ""}${day.future ? " cal-future" : ""}`,
      "data-date": day.date,
      "aria-label": dayLabel(day),
      "aria-current": day.today ? "date" : null,
      "aria-pressed": day.date === chosen ? "true" : "false",
      tabindex: day.date === chosen ? "0" : "-1",
    },
    el("span", { class: "cal-number", "aria-hidden": "true" }, String(Number(day.date.slice(8)))),
    el(
      "span",
      { class: "cal-line", "aria-hidden": "true" },
      el("span", { class: "cal-grade" }, gradeName(day.grade).slice(0, 1)),
      el("span", { class: "cal-mark" }, mark),
    ),
  );
}

function grid(calendar, chosen) {
  const names = weekdays();
  const first = calendar.days[0].weekday - 1;
  const cells = [...Array(first).fill(null), ...calendar.days];
  while (cells.length % 7) cells.push(null);
  const rows = [];
  for (let i = 0; i < cells.length; i += 7) {
    rows.push(el("tr", {}, ...cells.slice(i, i + 7).map((day) => el("td", {}, day ? cell(day, chosen) : ""))));
  }
  return el(
    "table",
    { class: "cal-grid", id: "calendar-grid" },
    el("caption", { class: "visually-hidden" }, t("Your Dailies of {month}", { month: monthTitle(calendar.month) })),
    el("thead", {}, el("tr", {}, ...names.map((name) => el("th", { scope: "col", abbr: name.long }, el("span", { "aria-hidden": "true" }, name.short), el("span", { class: "visually-hidden" }, name.long))))),
    el("tbody", {}, ...rows),
  );
}

function summary(calendar) {
  const names = BADGE_NAMES();
  const badge = calendar.badge
    ? el("span", { class: `month-badge badge-${calendar.badge}`, id: "month-badge" }, t("{badge} badge", { badge: names[calendar.badge] }))
    : el("span", { class: "month-badge badge-none", id: "month-badge" }, t("No badge yet"));
  const next = calendar.next_badge
    ? tn("{n} more Daily won for {badge}", "{n} more Dailies won for {badge}", calendar.to_next_badge, { n: calendar.to_next_badge, badge: names[calendar.next_badge] })
    : t("The gold badge: the best there is.");
  const figure = (label, value, id) => el("div", { class: "figure", "data-figure": id }, el("dt", {}, label), el("dd", {}, value));
  return el(
    "div",
    { class: "cal-summary" },
    el(
      "dl",
      { class: "figures cal-figures", id: "calendar-figures" },
      figure(t("Dailies won"), formatNumber(calendar.won), "won"),
      figure(t("Points"), formatNumber(calendar.points), "points"),
      figure(t("Daily streak"), tn("{n} day", "{n} days", calendar.streaks.current, { n: calendar.streaks.current }), "streak"),
      figure(t("Best Daily streak"), tn("{n} day", "{n} days", calendar.streaks.best, { n: calendar.streaks.best }), "best_streak"),
    ),
    el("p", { class: "cal-badge-line" }, badge, " ", el("span", { class: "muted" }, next)),
  );
}

function details(day) {
  const head = el("h3", {}, formatDate(day.date, { dateStyle: "full" }), " ", gradeBadge(day.grade));
  if (day.future) return [head, el("p", { class: "muted" }, t("This day's Dailies are not drawn yet: they will be {grade}.", { grade: gradeWord(day.grade) }))];
  if (!day.games.length) return [head, el("p", { class: "muted" }, day.today ? t("No Daily played today yet.") : t("No Daily played that day."))];
  const words = (status) => (status === "not_played" ? t("Not played") : resultText(status));
  return [
    head,
    el(
      "ul",
      { class: "cal-games" },
      ...day.games.map((game) =>
        el(
          "li",
          { class: `cal-game cal-${game.status}`, "data-game": game.game },
          el("a", { href: localHref(`/daily?game=${encodeURIComponent(game.game)}&date=${day.date}`) }, game.title),
          " ",
          gradeBadge(game.grade),
          " ",
          el("span", { class: `badge ${game.status === "won" ? "won" : game.status === "lost" ? "lost" : ""}` }, words(game.status)),
          game.points ? el("span", { class: "cal-points" }, tn("+{n} point", "+{n} points", game.points, { n: game.points })) : null,
        ),
      ),
    ),
  ];
}

/** Show the calendar of `month` ("YYYY-MM", default this month) in `box`; a guest
 * (`signedIn` false) is asked to sign in. */
export async function showCalendar(box, month = null, signedIn = true) {
  let calendar;
  try {
    if (!signedIn) throw new ApiError(401, "");
    calendar = await call("GET", `/api/daily/calendar${month ? `?month=${encodeURIComponent(month)}` : ""}`);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    const signIn = error.status === 401;
    box.replaceChildren(
      el("h2", { class: "cal-title" }, t("Your month of Dailies")),
      el("p", { class: "muted" }, signIn ? t("Sign in to keep a calendar of your Dailies, with points, badges and streaks.") : error.detail),
      signIn ? el("a", { class: "btn", href: localHref(`/account?next=${encodeURIComponent(location.pathname + location.search)}`) }, t("Sign in")) : null,
    );
    box.hidden = false;
    return null;
  }
  const current = monthOf(calendar.today);
  let chosen = calendar.days.find((day) => day.today) ? calendar.today : calendar.days[0].date;
  const detail = el("div", { class: "cal-detail", id: "calendar-detail", "aria-live": "polite" });
  const table = grid(calendar, chosen);
  const choose = (date, focus = false) => {
    const day = calendar.days.find((entry) => entry.date === date);
    if (!day) return;
    chosen = date;
    for (const button of table.querySelectorAll(".cal-day")) {
      const on = button.dataset.date === date;
      button.setAttribute("aria-pressed", on ? "true" : "false");
      button.tabIndex = on ? 0 : -1;
      if (on && focus) button.focus();
    }
    detail.replaceChildren(...details(day));
  };
  table.addEventListener("click", (event) => {
    const button = event.target.closest(".cal-day");
    if (button) choose(button.dataset.date);
  });
  table.addEventListener("keydown", (event) => {
    const steps = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -7, ArrowDown: 7, Home: null, End: null }[event.key];
    if (steps === undefined || !event.target.closest(".cal-day")) return;
    event.preventDefault();
    const dates = calendar.days.map((day) => day.date);
    let at = dates.indexOf(chosen);
    if (event.key === "Home") at = 0;
    else if (event.key === "End") at = dates.length - 1;
    else at = Math.min(dates.length - 1, Math.max(0, at + steps));
    choose(dates[at], true);
  });
  const prev = el("button", { class: "btn small", type: "button", id: "calendar-prev", "aria-label": t("The month before") }, "\u25c0");
  const next = el("button", { class: "btn small", type: "button", id: "calendar-next", "aria-label": t("The month after"), disabled: calendar.month >= current }, "\u25b6");
  prev.addEventListener("click", () => showCalendar(box, shiftMonth(calendar.month, -1)).then(() => box.querySelector("#calendar-prev")?.focus()));
  next.addEventListener("click", () => showCalendar(box, shiftMonth(calendar.month, 1)).then(() => box.querySelector("#calendar-next")?.focus()));
  const today = calendar.days.find((day) => day.today);
  const glance = today
    ? el(
        "p",
        { class: "cal-glance", id: "calendar-today" },
        t("Today's Dailies are {grade}.", { grade: gradeWord(today.grade) }),
        " ",
        today.played
          ? tn("{n} Daily won today.", "{n} Dailies won today.", today.won, { n: today.won })
          : t("None played yet today."),
      )
    : null;
  box.replaceChildren(
    el("div", { class: "cal-head" }, prev, el("h2", { class: "cal-title", id: "calendar-title" }, monthTitle(calendar.month)), next),
    glance,
    summary(calendar),
    table,
    el("p", { class: "cal-legend muted" }, t("Easy on Monday and Tuesday, medium on Wednesday and Thursday, hard on Friday and Saturday, expert on Sunday. A win scores 1, 2, 3 or 5 points by grade; 5, 15 and 30 Dailies won in a month earn the bronze, silver and gold badges.")),
    detail,
  );
  box.hidden = false;
  choose(chosen);
  box.dataset.month = calendar.month;
  box.dataset.ready = "1";
  return calendar;
}
