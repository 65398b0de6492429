// A control the page refuses now (Hint and Restart in a Daily or a ranked challenge
// attempt, Hint once the game is over) stays focusable and tappable: aria-disabled rather
// than disabled, greyed out, its reason in its title and, when it is tapped or clicked,
// in the message box (role="status": screen readers say it). A title alone is never
// seen on a phone.

import { say } from "./play-state.js";

/** Refuse `node` for `reason` (a sentence), or (null) let it act again, its title `title`. */
export function setRefusal(node, reason, title = null) {
  if (!node) return;
  node.disabled = false;
  if (reason) {
    node.setAttribute("aria-disabled", "true");
    node.dataset.refusal = reason;
    node.title = reason;
  } else {
    node.removeAttribute("aria-disabled");
    delete node.dataset.refusal;
    if (title) node.title = title;
  }
}

/** A tap on a refused control of the toolbar says why, and does nothing else. */
export function listenRefusals(bar = document.getElementById("actions")) {
  bar.addEventListener(
    "click",
    (event) => {
      const refused = event.target.closest("[aria-disabled='true']");
      if (!refused || !bar.contains(refused)) return;
      event.preventDefault();
      event.stopImmediatePropagation();
      say(refused.dataset.refusal || refused.title);
    },
    true,
  );
}
