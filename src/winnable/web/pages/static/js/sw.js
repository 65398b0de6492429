// The service worker (served at /sw.js by routes/app_shell.py, which puts `self.BUILD` in
// front: the static files' version and names, and the offline page's languages). It keeps
// the static files of this version and the offline page in every language; serves the
// files from its cache; leaves the API and the pages to the network, and when a page
// cannot be reached shows the offline page in the language of the last page seen (else
// the browser's). A new version of any static file is a new worker: its cache replaces
// the old one.

const { version, prefix, files, languages } = self.BUILD;
const CACHE = `winnable-${version}`;
const offlinePage = (lang) => `/offline?lang=${lang}`;
let pageLanguage = null;

self.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      await cache.addAll([...files.map((name) => prefix + name), ...languages.map(offlinePage)]);
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name.startsWith("winnable-") && name !== CACHE) await caches.delete(name);
      }
      await self.clients.claim();
    })(),
  );
});

const LANGUAGE_KEY = "/offline-language"; // the last page's language, kept in the cache (a worker is stopped when idle)

/** A page tells its language (settings-boot.js): the offline page will speak it. */
self.addEventListener("message", (event) => {
  const lang = event.data && event.data.lang;
  if (!languages.includes(lang) || lang === pageLanguage) return;
  pageLanguage = lang;
  event.waitUntil(caches.open(CACHE).then((cache) => cache.put(LANGUAGE_KEY, new Response(lang))));
});

/** The offline page's language: the address's ?lang=, the last page's, the browser's. */
async function offlineLanguage(url) {
  const asked = url.searchParams.get("lang");
  if (languages.includes(asked)) return asked;
  if (!pageLanguage) {
    const kept = await caches.match(LANGUAGE_KEY, { cacheName: CACHE });
    const lang = kept ? await kept.text() : null;
    if (languages.includes(lang)) pageLanguage = lang;
  }
  if (pageLanguage) return pageLanguage;
  for (const tag of self.navigator.languages || []) {
    const code = tag.slice(0, 2).toLowerCase();
    if (languages.includes(code)) return code;
  }
  return languages[0];
}

async function page(request, url) {
  try {
    const response = await fetch(request);
    const lang = response.headers.get("content-language");
    if (languages.includes(lang)) pageLanguage = lang;
    return response;
  } catch {
    const offline = await caches.match(offlinePage(await offlineLanguage(url)), { cacheName: CACHE });
    return offline || Response.error();
  }
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname.startsWith(prefix)) {
    event.respondWith(caches.match(request, { cacheName: CACHE }).then((hit) => hit || fetch(request)));
  } else if (request.mode === "navigate") {
    event.respondWith(page(request, url));
  }
});
