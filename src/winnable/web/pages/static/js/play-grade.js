// The game page's grade: the menu's choice of grade for Winnable deals (any, easy,
// medium, hard, expert; remembered like the other settings) and the grade of the deal
// on the table, beside its number. A new deal asks the server for that grade
// (`grade` with `winnable: true`); the server answers 409 `no_graded_deal` when it has
// proved none of that grade yet, and play-game.js then deals a proved deal of any grade.

import { $ } from "./dom.js";
import { GRADES, gradeBadge, gradeName } from "./grades.js";
import { t } from "./i18n.js";
import { store } from "./play-state.js";

export const KEY_GRADE = "winnable:grade";

function wire() {
  const select = $("grade-choice");
  const winnable = $("winnable-toggle");
  if (!select || !winnable) return;
  select.replaceChildren(new Option(t("Any grade"), ""), ...GRADES.map((grade) => new Option(gradeName(grade), grade)));
  const saved = store.get(KEY_GRADE, "");
  select.value = GRADES.includes(saved) ? saved : "";
  select.addEventListener("change", () => store.set(KEY_GRADE, select.value || null));
  const follow = () => {
    select.disabled = !winnable.checked;
    $("grade-row").classList.toggle("off", !winnable.checked);
  };
  winnable.addEventListener("change", follow);
  setTimeout(follow, 0); // once play.js has set the switch from the remembered setting
  // The next deal's options (play-game.js asks every module before it deals).
  document.addEventListener("winnable:new-game", (event) => {
    if (winnable.checked && GRADES.includes(select.value)) event.detail.options.grade = select.value;
  });
  document.addEventListener("winnable:state", (event) => {
    const box = $("deal-grade");
    if (!box) return;
    const badge = gradeBadge(event.detail.grade);
    box.replaceChildren(...(badge ? [badge] : []));
    box.hidden = !badge;
  });
}

wire();
