// The overlay (the won and lost dialogs, questions, the list of games) and its buttons.

import { $, el } from "./dom.js";

export function openOverlay({ title, body = [], buttons = [], art = "", kind = "" }) {
  try {
    if ($("menu").matches(":popover-open")) $("menu").hidePopover();
  } catch {
    /* no popover support: the menu is a plain block */
  }
  $("overlay-title").textContent = title;
  $("overlay-body").replaceChildren(...body);
  $("overlay-buttons").replaceChildren(...buttons);
  $("overlay-art").className = `overlay-art ${art}`;
  const overlay = $("overlay");
  overlay.className = `overlay ${kind}`;
  overlay.hidden = false;
  document.body.dataset.overlay = kind;
  const first = overlay.querySelector("button.primary") || overlay.querySelector("button");
  if (first) first.focus();
}

export function closeOverlay() {
  $("overlay").hidden = true;
  $("overlay").classList.remove("ask");
  document.body.dataset.overlay = "";
}

export function button(label, onclick, { primary = false, id = null } = {}) {
  return el("button", { class: `btn${primary ? " primary" : ""}`, type: "button", id, onclick }, label);
}
