// The header of every page: the Daily, statistics, and signing in or out.

import { el } from "./dom.js";
import { ApiError, players } from "./players-api.js";
import { localHref, t } from "./i18n.js";

async function main() {
  const bar = document.querySelector(".topbar");
  if (!bar || bar.querySelector(".player-nav")) return;
  const nav = el("nav", { class: "player-nav", "aria-label": t("Player") });
  const links = el("div", { class: "player-links", id: "player-links" });
  // On narrow screens the links fold into a menu behind one button.
  const toggle = el(
    "button",
    { class: "nav-toggle", type: "button", "aria-expanded": "false", "aria-controls": "player-links", "aria-label": t("Player menu") },
    el("svg", { viewBox: "0 0 24 24", "aria-hidden": "true" }, el("path", { d: "M3 6h18v2H3zm0 5h18v2H3zm0 5h18v2H3z" })),
  );
  const close = () => {
    nav.classList.remove("open");
    toggle.setAttribute("aria-expanded", "false");
  };
  toggle.addEventListener("click", () => {
    const open = nav.classList.toggle("open");
    toggle.setAttribute("aria-expanded", String(open));
    if (open) links.querySelector("a, button")?.focus();
  });
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && nav.classList.contains("open")) {
      close();
      toggle.focus();
    }
  });
  document.addEventListener("click", (event) => {
    if (!nav.contains(event.target)) close();
  });
  // The game page has a menu of its own in the header: the links join it there.
  const gameMenu = document.querySelector("#menu .menu-links");
  if (gameMenu) {
    nav.classList.add("in-menu");
    nav.append(links);
    gameMenu.after(nav);
  } else {
    nav.append(toggle, links);
    bar.append(nav);
  }
  let me = { signed_in: false, name: null };
  try {
    me = await players.me();
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
  }
  document.body.dataset.player = me.signed_in ? me.name : "";
  const here = location.pathname;
  const link = (href, text, extra = {}) =>
    el("a", { class: "nav-link", href: localHref(href), "aria-current": here === href ? "page" : null, ...extra }, text);
  // In the game's menu the Daily of the game has its own button: this link is for the boards.
  const dailyText = document.querySelector("#menu .menu-links") ? t("Leaderboards") : t("Daily");
  links.append(link("/daily", dailyText, { id: "nav-daily" }), link("/stats", t("Statistics"), { id: "nav-stats" }));
  if (me.signed_in) {
    links.append(
      link("/account", me.name, { id: "nav-account", title: t("Your account") }),
      el(
        "button",
        {
          class: "nav-link as-button",
          type: "button",
          id: "sign-out",
          onclick: async () => {
            await players.logout();
            // The account's games are its own: a Daily or a game page of it goes back to the lobby.
            if (document.body.dataset.gameId) location.href = localHref("/");
            else location.reload();
          },
        },
        t("Sign out"),
      ),
    );
  } else {
    const next = encodeURIComponent(here + location.search);
    links.append(link(`/account?next=${next}`, t("Sign in"), { id: "sign-in", class: "nav-link strong" }));
  }
  document.dispatchEvent(new CustomEvent("winnable:player", { detail: me }));
}

main();
