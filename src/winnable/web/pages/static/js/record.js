// Your record of a deal: your games of one deal side by side, for the game page's menu
// and the statistics page.

import { clock, el } from "./dom.js";
import { formatDate, t } from "./i18n.js";
import { resultText } from "./players-api.js";

/** A deal's record: the player's games of one deal side by side (date, result, time,
 * moves, undos, hints), oldest first; the game the page shows is marked. */
export function recordTable(attempts) {
  const head = [t("Date"), t("Result"), t("Time"), t("Moves"), t("Undos"), t("Hints")];
  return el(
    "div",
    { class: "record-scroll", tabindex: "0", role: "region", "aria-label": t("Your record of this deal") },
    el(
      "table",
      { class: "board record-table" },
      el("thead", {}, el("tr", {}, ...head.map((text) => el("th", { scope: "col" }, text)))),
      el(
        "tbody",
        {},
        ...attempts.map((attempt) =>
          el(
            "tr",
            { class: attempt.current ? "you" : null, "aria-current": attempt.current ? "true" : null },
            el("td", {}, formatDate(attempt.at, { day: "numeric", month: "short" }), attempt.current ? el("span", { class: "visually-hidden" }, " (", t("this game"), ")") : null),
            el("td", {}, resultText(attempt.status), attempt.hints > 0 && attempt.status === "won" ? [" (", t("assisted"), ")"] : ""),
            el("td", { class: "num" }, attempt.seconds === null || attempt.seconds === undefined ? "\u2014" : clock(attempt.seconds)),
            el("td", { class: "num" }, String(attempt.moves)),
            el("td", { class: "num" }, String(attempt.undos)),
            el("td", { class: "num" }, String(attempt.hints)),
          ),
        ),
      ),
    ),
  );
}
