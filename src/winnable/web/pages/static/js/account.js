// The account page: sign in or create an account; signed in, download your data, sign
// out, or delete the account.

import { solveAltcha } from "./altcha.js";
import { el } from "./dom.js";
import { ApiError, players, safeNext } from "./players-api.js";
import { localHref, t } from "./i18n.js";

const $ = (id) => document.getElementById(id);
const next = safeNext(new URLSearchParams(location.search).get("next"));

function field(id, label, attrs) {
  return el("p", { class: "field" }, el("label", { for: id }, label), el("input", { id, name: id.split("-").pop(), required: true, ...attrs }));
}

/** The API's reason ("a password must be 8 to 128 characters long") as the sentence a
 * player reads: a capital first, a full stop last. */
export function asSentence(text) {
  const words = String(text || "").trim();
  if (!words) return words;
  const first = words[0].toLocaleUpperCase(document.documentElement.lang || undefined) + words.slice(1);
  return /[.!?…)]$/.test(first) ? first : `${first}.`;
}

function form(id, title, button, fields, onsubmit) {
  const error = el("p", { class: "form-error", role: "alert", hidden: true });
  const status = el("p", { class: "form-status muted small", role: "status", hidden: true });
  const node = el("form", { id, class: "player-form", novalidate: true }, el("h2", {}, title), ...fields, error, status, el("button", { class: "btn primary", type: "submit" }, button));
  node.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.hidden = true;
    node.querySelector("button[type=submit]").disabled = true;
    try {
      await onsubmit(new FormData(node));
    } catch (problem) {
      if (!(problem instanceof ApiError)) throw problem;
      error.textContent = asSentence(problem.detail);
      error.hidden = false;
    } finally {
      node.querySelector("button[type=submit]").disabled = false;
    }
  });
  return node;
}

let pending = null; // a proof-of-work challenge the server asked for: { name, altcha }

/** Sign in; a name under guessing asks this browser for a proof of work (the answer
 * carries `altcha`): solve it, saying so, and try again with it. A wrong password
 * keeps the fresh challenge for the next try. */
async function signIn(node, name, password) {
  const status = node.querySelector(".form-status");
  for (let tries = 0; ; tries += 1) {
    let proof = null;
    if (pending && pending.name === name.toLowerCase()) {
      status.textContent = t("Checking…");
      status.hidden = false;
      try {
        proof = await solveAltcha(pending.altcha);
      } finally {
        status.hidden = true;
        pending = null;
      }
    }
    try {
      return await players.login(name, password, proof);
    } catch (problem) {
      const challenge = problem instanceof ApiError && problem.data && problem.data.altcha;
      if (!challenge) throw problem;
      pending = { name: name.toLowerCase(), altcha: challenge };
      // 429 or a refused proof: the password was not tried, so try again (twice at most);
      // 401: it was, and it is wrong.
      if (problem.status === 401 || tries >= 2) throw problem;
    }
  }
}

function signedOut(root) {
  const nameRule = t("3 to 24 letters or digits, with . _ or - between them");
  const login = form("login-form", t("Sign in"), t("Sign in"), [
    field("login-name", t("Name"), { autocomplete: "username", maxlength: 24 }),
    field("login-password", t("Password"), { type: "password", autocomplete: "current-password", maxlength: 128 }),
  ], async (data) => {
    await signIn(login, data.get("name"), data.get("password"));
    location.href = next;
  });
  const signup = form("signup-form", t("Create an account"), t("Create the account"), [
    field("signup-name", t("Name"), { autocomplete: "username", maxlength: 24, title: nameRule, "aria-describedby": "name-rule" }),
    el("p", { id: "name-rule", class: "muted small" }, nameRule),
    field("signup-password", t("Password"), { type: "password", autocomplete: "new-password", minlength: 8, maxlength: 128 }),
    el("p", { class: "muted small" }, t("At least 8 characters. Your games on this browser become the account's.")),
  ], async (data) => {
    await players.signup(data.get("name"), data.get("password"));
    location.href = next;
  });
  root.replaceChildren(
    el("p", { class: "lead" }, t("Sign in to play the Daily and keep your statistics on every device. Guests play every other game.")),
    el("div", { class: "forms" }, login, signup),
  );
}

function signedIn(root, me) {
  const remove = form("delete-form", t("Delete the account"), t("Delete my account"), [
    el("p", { class: "muted" }, t("Your name, sessions and games are deleted; your Daily results stay on the leaderboards without a name.")),
    field("delete-password", t("Password"), { type: "password", autocomplete: "current-password", maxlength: 128 }),
  ], async (data) => {
    if (!window.confirm(t("Delete your account and its games for good?"))) return;
    await players.deleteAccount(data.get("password"));
    location.href = localHref("/");
  });
  remove.classList.add("danger");
  root.replaceChildren(
    el("p", { class: "lead", id: "signed-in-as" }, t("Signed in as {name}.", { name: me.name })),
    el(
      "div",
      { class: "account-actions" },
      el("a", { class: "btn", href: localHref("/stats") }, t("Your statistics")),
      el("a", { class: "btn", href: localHref("/daily") }, t("Today's Daily")),
      el("a", { class: "btn", id: "download-data", href: "/api/account/export", download: `winnable-${me.name}.json` }, t("Download my data (JSON)")),
      el("button", { class: "btn", type: "button", id: "account-sign-out", onclick: async () => {
        await players.logout();
        location.href = localHref("/");
      } }, t("Sign out")),
    ),
    remove,
  );
}

async function main() {
  const root = $("account");
  const me = await players.me();
  if (me.signed_in) signedIn(root, me);
  else signedOut(root);
  document.body.dataset.ready = "1";
}

main();
