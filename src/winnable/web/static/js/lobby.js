// The lobby: every game of /api/catalog, grouped by family, with its rules.

import { api } from "./api.js";
import { installSprite, makeBack, makeCard } from "./cards.js";

const FAMILY_INFO = {
  blackhole: {
    title: "Black Hole",
    blurb: "Every card is face up: each loss can be traced back to one move.",
    art: ["KH", "AS", "2D"],
  },
  freecell: {
    title: "Penguin and the free-cell games",
    blurb: "Build down in suit, park cards in free cells, bring every suit home.",
    art: ["JC", "TC", "9C"],
  },
  spider: {
    title: "Spider games",
    blurb: "Two decks, ten columns: clear King-to-Ace runs of one suit.",
    art: [null, "8S", "7H"],
  },
};
const ORDER = ["blackhole", "freecell", "spider"];
// A little picture of how each game builds (null: a face-down card).
const GAME_ART = {
  freecell: ["KS", "QH", "JC"],
  "bakers-game": ["6S", "5S", "4S"],
  "eight-off": ["9D", "8D", "7D"],
  "black-widow": [null, "9S", "8H"],
  "spider-4": [null, "8S", "7S"],
  "spider-2": [null, "8H", "7H"],
  "spider-1": [null, "8C", "7C"],
};

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "class") node.className = value;
    else node.setAttribute(key, value);
  }
  node.append(...children.filter((c) => c !== null && c !== undefined));
  return node;
}

function art(game) {
  const family = game.family;
  const box = el("div", { class: `tile-art art-${family}`, "aria-hidden": "true" });
  (GAME_ART[game.id] || (FAMILY_INFO[family] || FAMILY_INFO.freecell).art).forEach((code, i) => {
    const card = code ? makeCard(code) : makeBack();
    card.removeAttribute("role");
    card.removeAttribute("aria-label");
    card.style.setProperty("--i", String(i));
    box.append(card);
  });
  return box;
}

function stored(gameId) {
  try {
    return localStorage.getItem(`winnable:game:${gameId}`);
  } catch {
    return null;
  }
}

function tile(game, compact = false) {
  const playing = stored(game.id);
  const form = el("form", { class: "deal-form", action: `/play/${game.id}`, method: "get" });
  const input = el("input", { type: "text", name: "deal", inputmode: "numeric", pattern: "[0-9]{1,20}", placeholder: "Deal #", "aria-label": `${game.title}: deal number` });
  form.append(input, el("button", { class: "btn small", type: "submit" }, "Open"));
  return el(
    "article",
    { class: compact ? "game-tile compact" : "game-tile", "data-game": game.id },
    compact ? null : art(game),
    el(
      "div",
      { class: "tile-body" },
      el("h3", {}, game.title),
      el("p", { class: "summary" }, game.summary || ""),
      el(
        "div",
        { class: "tile-actions" },
        el("a", { class: "btn primary play", href: `/play/${game.id}` }, playing ? "Continue" : "Play"),
        el("a", { class: "btn rules", href: `/rules/${game.id}` }, "Rules"),
        form,
      ),
    ),
  );
}

async function main() {
  installSprite();
  const root = document.getElementById("families");
  let catalog;
  try {
    catalog = await api.catalog();
  } catch (error) {
    root.replaceChildren(el("p", { class: "loading" }, error.detail || "The server cannot be reached."));
    return;
  }
  const families = [...new Set([...ORDER, ...catalog.map((g) => g.family)])];
  const sections = [];
  for (const family of families) {
    const games = catalog.filter((g) => g.family === family);
    if (!games.length) continue;
    const info = FAMILY_INFO[family] || { title: family, blurb: "" };
    // A variant's id extends another game's id ("penguin-6" of "penguin"): listed compactly after it.
    const parentOf = (game) => games.find((other) => other !== game && game.id.startsWith(other.id + "-"));
    const main = games.filter((game) => !parentOf(game));
    const section = el(
      "section",
      { class: "family", "data-family": family },
      el("div", { class: "family-head" }, el("h2", {}, info.title), el("p", {}, info.blurb)),
      el("div", { class: "tiles" }, ...main.map((game) => tile(game))),
    );
    for (const parent of main) {
      const variants = games.filter((game) => parentOf(game) === parent);
      if (!variants.length) continue;
      section.append(
        el("h3", { class: "variants-head" }, `${parent.title} variants`),
        el("div", { class: "tiles variants" }, ...variants.map((game) => tile(game, true))),
      );
    }
    sections.push(section);
  }
  root.replaceChildren(...sections);
  document.body.dataset.ready = "1";
}

main();
