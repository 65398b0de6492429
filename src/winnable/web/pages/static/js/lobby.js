// The lobby: every game of /api/catalog, grouped by family, with its rules.

import { api } from "./api.js";
import { installSprite, makeBack, makeCard } from "./cards.js";
import { el } from "./dom.js";
import { t, tn, locale, localHref } from "./i18n.js";

// The families, in order, with their headings in the page's language: the server renders
// them from the registry (winnable.games) into the page; the games come from /api/catalog.
function pageFamilies() {
  try {
    const node = document.getElementById("lobby-families");
    return node ? JSON.parse(node.textContent || "[]") : [];
  } catch {
    return [];
  }
}

// Translated outside template literals: `pybabel extract` does not look inside ${...}.
const movesText = (n) => tn("{n} move", "{n} moves", n, { n });

function art(game) {
  const box = el("div", { class: `tile-art art-${game.family}`, "aria-hidden": "true" });
  (game.picture || []).forEach((code, i) => {
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
  const input = el("input", { type: "text", name: "deal", inputmode: "numeric", pattern: "[0-9]{1,20}", placeholder: t("Deal #"), "aria-label": t("{game}: deal number", { game: game.title }) });
  form.append(input);
  if (locale !== "en") form.append(el("input", { type: "hidden", name: "lang", value: locale }));
  form.append(el("button", { class: "btn small", type: "submit" }, t("Open")));
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
        el("a", { class: "btn primary play", href: localHref(`/play/${game.id}`) }, playing ? t("Continue") : t("Play")),
        el("a", { class: "btn rules", href: localHref(`/rules/${game.id}`) }, t("Rules")),
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
    root.replaceChildren(el("p", { class: "loading" }, error.detail || t("The server cannot be reached.")));
    return;
  }
  const known = new Map(pageFamilies().map((family) => [family.id, family]));
  const families = [...new Set([...known.keys(), ...catalog.map((g) => g.family)])];
  const sections = [];
  for (const family of families) {
    const games = catalog.filter((g) => g.family === family);
    if (!games.length) continue;
    const info = known.get(family) || { title: family, blurb: "" };
    // A variant of another game ("penguin-6" of "penguin") is listed compactly after it.
    const parentOf = (game) => games.find((other) => other.id === game.variant_of);
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
        el("h3", { class: "variants-head" }, t("{game} variants", { game: parent.title })),
        el("div", { class: "tiles variants" }, ...variants.map((game) => tile(game, true))),
      );
    }
    sections.push(section);
  }
  root.replaceChildren(...sections);
  document.body.dataset.ready = "1";
  yourGames().catch(() => {});
}

/** This browser's games (their ids are kept in localStorage), unfinished ones first. */
async function yourGames() {
  let ids = [];
  try {
    ids = JSON.parse(localStorage.getItem("winnable:games") || "[]").map((g) => g && g.id).filter((id) => typeof id === "string");
  } catch {
    ids = [];
  }
  if (!ids.length) return;
  const { games } = await api.summaries(ids);
  if (!games.length) return;
  const words = { playing: t("in play"), won: t("won"), lost: t("lost") };
  const format = new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short" });
  games.sort((a, b) => (b.status === "playing") - (a.status === "playing"));
  const section = document.getElementById("your-games");
  section.querySelector(".your-list").replaceChildren(
    ...games.slice(0, 12).map((game) =>
      el(
        "li",
        { "data-id": game.id, class: `your-game ${game.status}` },
        el(
          "a",
          { class: "your-game-link", href: localHref(game.links.resume) },
          el("b", {}, game.title),
          " ",
          game.deal === null ? t("Daily") : t("Deal #{n}", { n: game.deal }),
          el("small", {}, `${movesText(game.moves)} \u00b7 ${words[game.status] || words.playing} \u00b7 ${game.updated_at ? format.format(new Date(game.updated_at)) : ""}`),
        ),
      ),
    ),
  );
  section.hidden = false;
}

main();
