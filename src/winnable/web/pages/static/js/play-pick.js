// Picking a card up and putting it down: the part shared by taps, drags and keys.

import { cardName } from "./cards.js";
import { t, tn } from "./i18n.js";
import { elementAt, focusCard } from "./play-draw.js";
import { play, refuse, refusePair } from "./play-game.js";
import { playTapped } from "./play-home.js";
import { announce, app, coarse, currentLegal, currentPosition, entriesFor, placesOf, settings, table } from "./play-state.js";

/** The destinations of `entries`, one element each (free cells: every empty one), best
 * first; a place several entries go to (an empty column) takes the longest run. */
function targetsOf(entries) {
  const targets = [];
  for (const entry of entries) {
    for (const node of app.family.targetsFor(table, entry)) {
      const known = targets.find((target) => target.node === node);
      if (!known) targets.push({ node, entry });
      else if (entry.count > known.entry.count) known.entry = entry;
    }
  }
  return targets;
}

/** Distinct places to go, free cells counted once. */
function destinations(entries) {
  return new Set(entries.map((e) => (e.to.startsWith("cell:") ? "cell" : e.to))).size;
}

function select(selection) {
  clearSelection(false);
  app.selection = selection;
  showSelection(selection);
  const count = selection.targets.length;
  // The card picked up is the run's deepest (a run's entries may start with its top card's).
  const code = (placesOf(currentPosition()).get(selection.place) || [])[selection.index];
  const name = code ? cardName(code) : "";
  if (app.family.pickedText) announce(app.family.pickedText(code, count));
  else announce(tn("{card} picked up: {n} place to go. Choose it, or press Escape.", "{card} picked up: {n} places to go. Choose one, or press Escape.", count, { card: name, n: count }));
  if (app.keyboard && selection.targets.length) {
    selection.focus = 0;
    focusCard(selection.targets[0].node);
  }
}

/** A place that becomes a button ("Put it here") holds no button of its own meanwhile:
 * its playable cards are shown as pictures until the choice is made (no nested controls). */
function quiet(place) {
  if (!place.dataset.drop || place.dataset.card) return;
  for (const card of place.querySelectorAll("[data-card][role='button']")) {
    card.dataset.quiet = card.getAttribute("tabindex") ?? "";
    card.setAttribute("role", "img");
    card.removeAttribute("tabindex");
  }
}

function wake(place) {
  for (const card of place.querySelectorAll("[data-quiet]")) {
    card.setAttribute("role", "button");
    if (card.dataset.quiet !== "") card.setAttribute("tabindex", card.dataset.quiet);
    delete card.dataset.quiet;
  }
}

/** A destination no longer offered: a place loses the button's role and name it was
 * given (its cards get theirs back), a card that is a destination too (a partner in
 * Fourteen Out) gets its own back. */
function unmarkTarget(node) {
  if (!node.dataset.drop) return;
  if (node.dataset.card) {
    const playable = node.classList.contains("playable");
    node.setAttribute("role", playable ? "button" : "img");
    node.setAttribute("aria-label", cardName(node.dataset.card));
    if (!playable) node.removeAttribute("tabindex");
    return;
  }
  node.removeAttribute("role");
  node.removeAttribute("aria-label");
  node.removeAttribute("tabindex");
  wake(node);
}

export function showSelection(selection) {
  for (const node of table.querySelectorAll(".selected, .target")) {
    node.classList.remove("selected", "target");
    unmarkTarget(node);
  }
  const cards = placesOf(currentPosition()).get(selection.place) || [];
  const first = cards.length - selection.count;
  for (let i = first; i < cards.length; i++) elementAt(selection.place, i)?.classList.add("selected");
  selection.lead = elementAt(selection.place, first);
  selection.targets = targetsOf(selection.entries);
  for (const { node } of selection.targets) {
    node.classList.add("target");
    quiet(node);
    node.setAttribute("role", "button");
    const picked = (placesOf(currentPosition()).get(selection.place) || [])[selection.index];
    node.setAttribute("aria-label", app.family.targetLabel ? app.family.targetLabel(node, picked) : t("Put it here: {place}", { place: app.family.targetName(node) }));
    node.tabIndex = -1;
  }
  document.body.dataset.selected = selection.place;
}

export function clearSelection(refocus = true) {
  const had = app.selection;
  app.selection = null;
  delete document.body.dataset.selected;
  for (const node of table.querySelectorAll(".selected, .target")) {
    node.classList.remove("selected", "target", "kfocus");
    unmarkTarget(node);
  }
  if (had && refocus && app.keyboard) {
    const lead = elementAt(had.place, had.index);
    if (lead && lead.classList.contains("playable")) focusCard(lead);
  }
}

/** How a tap (or a finger's drag) on `node` picks cards up: the card itself, or (touch)
 * the run whose strips are too thin for a finger, tapped anywhere from its deepest card
 * to its top card (a tap on what is picked up then gives back its deepest card). */
export function pickFrom(node, { keyboard = false } = {}) {
  const place = node.dataset.place;
  const position = currentPosition();
  const cards = placesOf(position).get(place) || [];
  const index = Number(node.dataset.index);
  const legal = currentLegal();
  const onThinRun = node.classList.contains("in-run") || !!elementAt(place, index - 1)?.classList.contains("in-run");
  const grouped = !keyboard && place.startsWith("column:") && (onThinRun || !node.classList.contains("playable"));
  if (grouped && coarse.matches) {
    const counts = [...new Set(legal.filter((e) => e.from === place).map((e) => e.count))].sort((a, b) => b - a);
    if (counts.length) {
      const count = counts[0];
      return { place, index: cards.length - count, count, group: true, counts, entries: legal.filter((e) => e.from === place && e.count <= count) };
    }
  }
  const count = cards.length - index;
  return { place, index, count, group: false, counts: [count], entries: entriesFor(place, index, legal, position) };
}

/** A tap, click, Enter or Space on a card (or the stock). */
export function activate(node, { keyboard = false } = {}) {
  if (!app.state || app.review || app.shown || app.finishing) return;
  const place = node.dataset.place;
  if (place === "stock") {
    clearSelection(false);
    const entries = entriesFor("stock", 0);
    if (entries.length) play(entries[0], node);
    else refuse(place, 0, node);
    return;
  }
  // Tapping what is picked up: a run gives back its deepest card, else it is put back.
  if (app.selection && app.selection.place === place) {
    const current = app.selection;
    const index = Number(node.dataset.index);
    if (current.group && !keyboard) {
      const smaller = current.counts.filter((c) => c < current.count);
      if (smaller.length) {
        const count = smaller[0];
        const cards = placesOf(currentPosition()).get(place) || [];
        select({ ...current, count, index: cards.length - count, entries: current.entries.filter((e) => e.count <= count) });
        return;
      }
    }
    if (current.group || index === current.index) {
      clearSelection();
      announce(t("Put back."));
      return;
    }
  }
  // A card picked, then a card that does not pair with it (games that take out pairs):
  // the rules' reason, and the first card is put back.
  if (app.selection && app.family.pairRefusal) {
    const picked = app.selection;
    clearSelection(false);
    refusePair(picked.place, place, Number(node.dataset.index), node);
    return;
  }
  const pick = pickFrom(node, { keyboard });
  const hinted = app.hint && pick.entries.some((e) => e.move === app.hint.move && e.from === place);
  if (hinted) {
    clearSelection(false);
    play(app.hint, node);
    return;
  }
  if (!pick.entries.length) {
    clearSelection(false);
    refuse(place, Number(node.dataset.index), node);
    return;
  }
  if (!keyboard && settings().clickMove) {
    // Click to move (the Spider family): the card and the cards on it go to the first
    // place the server lists for them (a column one rank higher, its own suit first,
    // else an empty column). The keyboard still picks up and chooses.
    clearSelection(false);
    playTapped(pick.entries.find((e) => e.count === pick.count) || pick.entries[0], node, { keyboard });
    return;
  }
  if (settings().oneTap && destinations(pick.entries) === 1) {
    clearSelection(false);
    const entry = pick.entries.reduce((best, e) => (e.count > best.count ? e : best), pick.entries[0]);
    playTapped(entry, node, { keyboard });
    return;
  }
  select(pick);
}

/** A tap on a destination while a card is picked up. */
export function placeAt(dropNode) {
  const target = app.selection && app.selection.targets.find((candidate) => candidate.node === dropNode);
  if (!target) return false;
  const entry = target.entry;
  clearSelection(false);
  play(entry, null);
  return true;
}
