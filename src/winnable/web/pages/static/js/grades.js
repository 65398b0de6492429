// How hard a deal is, as the solver graded it (easy, medium, hard, expert): the words
// and the small badge every page shows a grade with (the game page, the Daily, the lobby).

import { el } from "./dom.js";
import { t } from "./i18n.js";

export const GRADES = ["easy", "medium", "hard", "expert"];

/** A grade's name in the page's language ("" for none). */
export function gradeName(grade) {
  return { easy: t("Easy"), medium: t("Medium"), hard: t("Hard"), expert: t("Expert") }[grade] || "";
}

/** A grade's name inside a sentence ("easy", "facile", "makkelijk"). */
export function gradeWord(grade) {
  return { easy: t("easy"), medium: t("medium"), hard: t("hard"), expert: t("expert") }[grade] || "";
}

/** A grade as a small badge (null for none): "Hard", marked by its colour and its dots. */
export function gradeBadge(grade, attrs = {}) {
  if (!GRADES.includes(grade)) return null;
  const level = GRADES.indexOf(grade) + 1;
  return el(
    "span",
    { class: `grade-badge grade-${grade}`, "data-grade": grade, title: t("Graded by the solver: {grade}", { grade: gradeName(grade) }), ...attrs },
    el("span", { class: "grade-dots", "aria-hidden": "true" }, "\u25cf".repeat(level) + "\u25cb".repeat(GRADES.length - level)),
    " ",
    el("span", { class: "grade-name" }, gradeName(grade)),
  );
}
