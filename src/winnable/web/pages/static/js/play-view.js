// Bringing a card into view (issue 34): the hinted card of a long column may lie below
// the screen's edge or under the toolbar docked at the bottom; the page scrolls so that
// the part of it that shows (its strip, or the whole card on top) stands in the room the
// fixed bars, the message box and Show me's panel leave, and does nothing when it is
// there already.

import { reducedMotion } from "./play-state.js";

/** The part of the window no fixed bar or message covers: [top, bottom] in px. */
function room() {
  let top = 0;
  let bottom = innerHeight;
  for (const node of document.querySelectorAll("#actions, #message, #showme, .play-top")) {
    const style = getComputedStyle(node);
    if (node.hidden || style.display === "none" || (style.position !== "fixed" && style.position !== "sticky")) continue;
    const box = node.getBoundingClientRect();
    if (box.width < innerWidth / 2) continue; // a rail at the side covers no card
    if (box.top > innerHeight / 2) bottom = Math.min(bottom, box.top);
    else top = Math.max(top, box.bottom);
  }
  return [top, bottom];
}

/** What shows of `node` (a card): down to the next card of its pile, or all of it. */
function shownPart(node) {
  const box = node.getBoundingClientRect();
  const next = node.nextElementSibling;
  const strip = next && next.classList.contains("card") ? next.getBoundingClientRect().top - box.top : box.height;
  return { top: box.top, bottom: box.top + Math.max(8, Math.min(box.height, strip)) };
}

/** Scroll the page so that `node`'s shown part is in view, between the bars. */
export function bringIntoView(node) {
  if (!node || !node.isConnected) return;
  const [top, bottom] = room();
  const part = shownPart(node);
  if (part.top >= top && part.bottom <= bottom) return;
  // Centred in the room there is: the cards around it show too.
  const by = part.top - (top + Math.max(0, bottom - top - (part.bottom - part.top)) / 2);
  // Near the page's end the page grows by what it lacks (the message box stands over
  // the last cards otherwise).
  growBy(scrollY + by - (document.documentElement.scrollHeight - innerHeight));
  window.scrollBy({ top: by, behavior: reducedMotion.matches ? "auto" : "smooth" });
}

/** Let the page scroll far enough that whatever lies down to `bottom` (a height on the
 * screen now: the table's last cards) can stand above the fixed bars and panels. */
export function roomDownTo(bottom) {
  const [, roomBottom] = room();
  growBy(bottom - roomBottom - (document.documentElement.scrollHeight - innerHeight - scrollY));
}

/** The room the page keeps under the table (on a phone upright) grows by `short` px. */
function growBy(short) {
  if (short <= 0) return;
  const kept = parseFloat(document.body.style.getPropertyValue("--view-room")) || 0;
  document.body.style.setProperty("--view-room", `${Math.ceil(kept + short)}px`);
}
