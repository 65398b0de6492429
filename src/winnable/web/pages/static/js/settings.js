// The player's display and sound settings: the rows of the menu (templates/_settings.html),
// kept in this browser (localStorage, read before the page is drawn by settings-boot.js)
// and, for a signed-in player, with the account (GET and PUT /api/account/settings), so
// that another browser signed in to the same account gets them. Also the mute button,
// full screen (the Fullscreen API) and installing the site as an app.

import { call } from "./api.js";
import { $ } from "./dom.js";
import { t } from "./i18n.js";
import { followGame, play } from "./sound.js";

const boot = window.winnableSettings;
let values = boot.current();
let signedIn = false;

/** A setting's value from its control: a select's value, a switch's data-on or data-off. */
function controlValue(control) {
  if (control.type !== "checkbox") return control.value;
  const text = control.checked ? control.dataset.on : control.dataset.off;
  return text === "true" ? true : text === "false" ? false : text;
}

function controls() {
  return document.querySelectorAll("[data-setting]");
}

/** Show the settings in their controls (and the mute button). */
function reflect() {
  for (const control of controls()) {
    const value = values[control.dataset.setting];
    if (control.type === "checkbox") control.checked = String(value) === control.dataset.on;
    else control.value = value;
  }
  const mute = $("mute-button");
  if (mute) {
    mute.hidden = !values.sound;
    mute.setAttribute("aria-pressed", String(Boolean(values.muted)));
    const label = values.muted ? t("Sound effects are muted: turn them back on") : t("Mute the sound effects");
    mute.title = label;
    mute.querySelector(".visually-hidden").textContent = label;
  }
}

/** Keep the settings with the account, one request at a time, each sending the latest
 * (two changes in quick succession never land in the wrong order). */
let saving = Promise.resolve();
function saveToAccount() {
  saving = saving.then(() => call("PUT", "/api/account/settings", values).catch(() => {}));
}

/** Apply and keep `change` (here, and with the account when signed in). */
export function change(change) {
  const before = values;
  values = boot.apply({ ...values, ...change });
  boot.write(values);
  reflect();
  if (signedIn) saveToAccount();
  if (values.card_size !== before.card_size) window.dispatchEvent(new Event("resize")); // the game page redraws
  document.dispatchEvent(new CustomEvent("winnable:settings", { detail: { ...values } }));
  if (values.sound && !values.muted && !(before.sound && !before.muted)) play("move"); // what they sound like
}

/** A signed-in player's settings from the account: they win over this browser's; a player
 * with none kept yet gets this browser's saved with the account. */
async function fromAccount() {
  let kept;
  try {
    kept = await call("GET", "/api/account/settings");
  } catch {
    return; // a guest, or the server away: this browser's settings
  }
  signedIn = true;
  if (kept && Object.keys(kept).length) {
    const before = values;
    values = boot.apply({ ...values, ...kept });
    boot.write(values);
    reflect();
    if (values.card_size !== before.card_size) window.dispatchEvent(new Event("resize"));
  } else {
    saveToAccount();
  }
  document.documentElement.dataset.settingsFrom = "account";
}

function muteButton() {
  const menu = $("menu-button");
  if (!menu || $("mute-button")) return;
  const button = document.createElement("button");
  button.id = "mute-button";
  button.type = "button";
  button.className = "icon-btn mute-button";
  button.hidden = true;
  button.innerHTML =
    '<svg class="sound-on" viewBox="0 0 24 24" aria-hidden="true"><path d="M3 9v6h4l5 5V4L7 9zm13.5 3A4.5 4.5 0 0 0 14 8v8a4.5 4.5 0 0 0 2.5-4zM14 3.2v2.1a7 7 0 0 1 0 13.4v2.1a9 9 0 0 0 0-17.6z"/></svg>' +
    '<svg class="sound-off" viewBox="0 0 24 24" aria-hidden="true"><path d="M3 9v6h4l5 5V4L7 9zm18.4 6.6L19.8 17 17 14.2 14.2 17l-1.4-1.4 2.8-2.8-2.8-2.8 1.4-1.4 2.8 2.8 2.8-2.8 1.4 1.4-2.8 2.8z"/></svg>' +
    '<span class="visually-hidden"></span>';
  button.addEventListener("click", () => change({ muted: !values.muted }));
  menu.before(button);
}

function fullScreen() {
  const button = $("fullscreen-button");
  if (!button || !document.fullscreenEnabled) return;
  button.hidden = false;
  const show = () => {
    const on = Boolean(document.fullscreenElement);
    button.setAttribute("aria-pressed", String(on));
    button.textContent = on ? t("Leave full screen") : t("Full screen");
  };
  button.addEventListener("click", () => {
    const done = document.fullscreenElement ? document.exitFullscreen() : document.documentElement.requestFullscreen({ navigationUI: "hide" });
    done.catch(() => {});
  });
  document.addEventListener("fullscreenchange", show);
  show();
}

/** The browser's offer to install the site (kept by settings-boot.js if it came first). */
function installButton() {
  const button = $("install-button");
  if (!button) return;
  const offer = () => {
    button.hidden = !boot.installPrompt;
  };
  button.addEventListener("click", async () => {
    const prompt = boot.installPrompt;
    if (!prompt) return;
    boot.installPrompt = null;
    offer();
    await prompt.prompt();
  });
  window.addEventListener("winnable:installable", offer);
  window.addEventListener("appinstalled", () => {
    boot.installPrompt = null;
    offer();
  });
  offer();
}

function main() {
  muteButton();
  for (const control of controls()) {
    control.addEventListener("change", () => change({ [control.dataset.setting]: controlValue(control) }));
  }
  reflect();
  fullScreen();
  installButton();
  if (document.body.classList.contains("play-page")) followGame(document.body);
  document.documentElement.dataset.settingsReady = "1";
  fromAccount();
}

main();
