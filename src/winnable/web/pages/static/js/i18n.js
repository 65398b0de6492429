// Every sentence a player reads goes through t() (or tn() when it counts something), so
// that `pybabel extract` finds it and the page shows it in the player's language.
//
//   t("Deal {n}", { n: 123 })                    -> "Deal 123" / "Donne 123"
//   tn("{n} move", "{n} moves", count, { n: count })
//   tp("card rank", "K")                         -> "K" / "R" / "H" (a message with a context)
//
// Message ids are the English sentences; `{name}` placeholders are filled from params.
// The catalogue for the page's language is embedded by the server in
// <script id="i18n-catalog" type="application/json">{"locale": "fr", "messages": {...}}</script>
// (a data block, allowed by the Content-Security-Policy); without one the page is English.
// A message of the catalogue is a string, or for tn() a list of plural forms; a message
// with a context is keyed "context\u0004msgid", as gettext does. The server makes the
// catalogue from the .po files (`pybabel extract -k t -k tn:1,2 -k tp:1c,2`, see babel.cfg).

function loadCatalog() {
  try {
    const node = typeof document !== "undefined" && document.getElementById("i18n-catalog");
    if (node) return JSON.parse(node.textContent || "{}");
  } catch {
    /* a broken catalogue: English */
  }
  return {};
}

const catalog = loadCatalog();
const messages = catalog.messages || {};

/** The page's language (a BCP 47 tag such as "en", "fr", "nl"). */
export const locale = catalog.locale || (typeof document !== "undefined" && document.documentElement.lang) || "en";

const plurals = new Intl.PluralRules(locale);

// French elides "de" and "que" before a vowel or a mute h: "un défi d'alice",
// "connecté en tant qu'Hugo" (a name filled in cannot be elided by the translator).
const ELIDES = /(^|[\s(«\u00a0])([Dd]e|[Qq]ue) $/;
const VOWEL = /^[aeiouyhàâäéèêëîïôöùûüœæ]/i;

function fill(text, params) {
  if (!params) return text;
  const french = locale.startsWith("fr");
  let out = "";
  let last = 0;
  text.replace(/\{(\w+)\}/g, (whole, name, at) => {
    out += text.slice(last, at);
    last = at + whole.length;
    if (!(name in params)) {
      out += whole;
      return whole;
    }
    const value = String(params[name]);
    if (french && VOWEL.test(value)) out = out.replace(ELIDES, (all, before, word) => `${before}${word.slice(0, -1)}'`);
    out += value;
    return whole;
  });
  return out + text.slice(last);
}

/** The sentence `msgid` in the page's language, with `{name}` placeholders filled. */
export function t(msgid, params) {
  const found = messages[msgid];
  return fill(typeof found === "string" && found ? found : msgid, params);
}

/** The short text `msgid` in the sense `context` ("card rank", "K"): for words that
 * mean different things in different places. */
export function tp(context, msgid, params) {
  const found = messages[`${context}\u0004${msgid}`];
  return fill(typeof found === "string" && found ? found : msgid, params);
}

/** A link to a page of this site that keeps the page's language when it is not English
 * (so a shared link opens in the language it was shared in): "/play/penguin?lang=fr". */
export function localHref(path) {
  if (locale === "en") return path;
  const [base, hash = ""] = path.split("#");
  const url = new URL(base, "http://x");
  url.searchParams.set("lang", locale);
  return url.pathname + url.search + (hash ? `#${hash}` : "");
}

/** A sentence that counts `n` things: `singular` or `plural` in English, the locale's
 * plural forms elsewhere (English, French and Dutch have two: "one" and "other"). */
export function tn(singular, plural, n, params) {
  const forms = messages[singular];
  const index = plurals.select(n) === "one" ? 0 : 1;
  if (Array.isArray(forms) && forms[index]) return fill(forms[index], params);
  return fill(index === 0 ? singular : plural, params);
}

/** A date (a Date, an ISO time, or a "YYYY-MM-DD" day, taken as UTC) as the locale
 * writes it: formatDate("2026-11-30") -> "Nov 30, 2026" / "30 nov. 2026" / "30 nov 2026". */
export function formatDate(value, options = { dateStyle: "medium" }) {
  const day = typeof value === "string" && /^\d{4}-\d{2}-\d{2}$/.test(value);
  const date = day ? new Date(`${value}T00:00:00Z`) : new Date(value);
  return new Intl.DateTimeFormat(locale, day ? { ...options, timeZone: "UTC" } : options).format(date);
}

/** A number written as the locale writes it (1,234 / 1 234 / 1.234). */
export function formatNumber(n, options) {
  return new Intl.NumberFormat(locale, options).format(n);
}

/** A translated sentence as a list of strings and nodes, for placeholders that are
 * elements (a card drawn in its suit's colour): parts(t("Play {card}."), { card: span }). */
export function parts(text, params) {
  const out = [];
  let last = 0;
  text.replace(/\{(\w+)\}/g, (whole, name, at) => {
    if (at > last) out.push(text.slice(last, at));
    const value = params && name in params ? params[name] : whole;
    out.push(typeof value === "number" ? String(value) : value);
    last = at + whole.length;
    return whole;
  });
  if (last < text.length) out.push(text.slice(last));
  return out;
}
