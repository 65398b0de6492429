// The header of every page: the Daily, statistics, and signing in or out.

import { ApiError, el, players } from "./players-api.js";
import { t } from "./i18n.js";

async function main() {
  const bar = document.querySelector(".topbar");
  if (!bar || bar.querySelector(".player-nav")) return;
  const nav = el("nav", { class: "player-nav", "aria-label": t("Player") });
  bar.append(nav);
  let me = { signed_in: false, name: null };
  try {
    me = await players.me();
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
  }
  document.body.dataset.player = me.signed_in ? me.name : "";
  const here = location.pathname;
  const link = (href, text, extra = {}) =>
    el("a", { class: "nav-link", href, "aria-current": here === href ? "page" : null, ...extra }, text);
  nav.append(link("/daily", t("Daily"), { id: "nav-daily" }), link("/stats", t("Statistics"), { id: "nav-stats" }));
  if (me.signed_in) {
    nav.append(
      link("/account", me.name, { id: "nav-account", title: t("Your account") }),
      el(
        "button",
        {
          class: "nav-link as-button",
          type: "button",
          id: "sign-out",
          onclick: async () => {
            await players.logout();
            location.reload();
          },
        },
        t("Sign out"),
      ),
    );
  } else {
    const next = encodeURIComponent(here + location.search);
    nav.append(link(`/account?next=${next}`, t("Sign in"), { id: "sign-in", class: "nav-link strong" }));
  }
  document.dispatchEvent(new CustomEvent("winnable:player", { detail: me }));
}

main();
