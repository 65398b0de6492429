// Every sentence a player reads goes through t() (or tn() when it counts something), so
// that `pybabel extract` finds it and the page shows it in the player's language.
//
//   t("Deal {n}", { n: 123 })                    -> "Deal 123" / "Donne 123"
//   tn("{n} move", "{n} moves", count, { n: count })
//
// Message ids are the English sentences; `{name}` placeholders are filled from params.
// The catalogue for the page's language is embedded by the server in
// <script id="i18n-catalog" type="application/json">{"locale": "fr", "messages": {...}}</script>
// (a data block, allowed by the Content-Security-Policy); without one the page is English.
// A message of the catalogue is a string, or for tn() a list of plural forms.

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

function fill(text, params) {
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

/** The sentence `msgid` in the page's language, with `{name}` placeholders filled. */
export function t(msgid, params) {
  const found = messages[msgid];
  return fill(typeof found === "string" && found ? found : msgid, params);
}

/** A sentence that counts `n` things: `singular` or `plural` in English, the locale's
 * plural forms elsewhere (English, French and Dutch have two: "one" and "other"). */
export function tn(singular, plural, n, params) {
  const forms = messages[singular];
  const index = plurals.select(n) === "one" ? 0 : 1;
  if (Array.isArray(forms) && forms[index]) return fill(forms[index], params);
  return fill(index === 0 ? singular : plural, params);
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
