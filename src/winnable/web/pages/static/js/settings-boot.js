// The display settings on <html>, before the page is drawn (a classic script in <head>,
// so no page flashes in the wrong theme): data-theme (the choice: dark, light, system),
// data-look (what shows: dark or light, the system's when it is followed), data-deck
// (two or four colours), data-card-size, data-hand. settings.js changes them through
// `winnableSettings.apply`, and keeps them (this browser's localStorage, and the
// account's when signed in). The service worker (/sw.js) is registered here too, on
// every page, so that the site can be installed as an app.
"use strict";

(() => {
  const KEY = "winnable:settings";
  const DEFAULTS = { deck: "two", theme: "dark", card_size: "medium", hand: "right", sound: false, muted: false };
  const CHOICES = { deck: ["two", "four"], theme: ["dark", "light", "system"], card_size: ["small", "medium", "large"], hand: ["right", "left"], sound: [true, false], muted: [true, false] };
  const light = window.matchMedia("(prefers-color-scheme: light)");
  const root = document.documentElement;

  /** Only known keys with known values (anything else is left out). */
  function clean(values) {
    const out = {};
    for (const [key, allowed] of Object.entries(CHOICES)) {
      if (values && allowed.includes(values[key])) out[key] = values[key];
    }
    return out;
  }

  function read() {
    try {
      return { ...DEFAULTS, ...clean(JSON.parse(localStorage.getItem(KEY) || "{}")) };
    } catch {
      return { ...DEFAULTS };
    }
  }

  function write(values) {
    try {
      localStorage.setItem(KEY, JSON.stringify(clean(values)));
    } catch {
      /* private mode: nothing is remembered */
    }
  }

  let current = read();

  function look() {
    return current.theme === "system" ? (light.matches ? "light" : "dark") : current.theme;
  }

  function apply(values) {
    current = { ...DEFAULTS, ...clean(values) };
    root.dataset.theme = current.theme;
    root.dataset.look = look();
    root.dataset.deck = current.deck;
    root.dataset.cardSize = current.card_size;
    root.dataset.hand = current.hand;
    const meta = document.querySelector('meta[name="theme-color"]');
    if (meta) meta.content = root.dataset.look === "light" ? "#dce8df" : "#0d3b2e";
    return current;
  }

  light.addEventListener("change", () => apply(current));
  apply(current);
  window.winnableSettings = { KEY, DEFAULTS, CHOICES, clean, read, write, apply, current: () => ({ ...current }) };

  // The browser's offer to install the site, kept for settings.js's button.
  window.addEventListener("beforeinstallprompt", (event) => {
    event.preventDefault();
    window.winnableSettings.installPrompt = event;
    window.dispatchEvent(new Event("winnable:installable"));
  });

  if ("serviceWorker" in navigator && window.isSecureContext) {
    window.addEventListener("load", () => {
      navigator.serviceWorker
        .register("/sw.js", { scope: "/" })
        .then(() => navigator.serviceWorker.ready)
        .then((registration) => registration.active?.postMessage({ lang: root.lang })) // the offline page's language
        .catch(() => {
          /* no app install here: the site works the same */
        });
    });
  }
})();
