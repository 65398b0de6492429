"""Languages: the gettext catalogues (English, French, Dutch), the choice of a request's
language, and messages that are translated when they are shown.

The catalogues are ``locale/<lang>/LC_MESSAGES/messages.po`` beside this module, made
from ``locale/messages.pot`` (``make messages``: ``pybabel extract`` over the Python, the
Jinja2 templates and the JavaScript, then ``pybabel update``). They are compiled in
memory the first time a language is asked for (no ``.mo`` file to build or commit);
fuzzy and empty entries are left out, so they show in English.

A request's language (:func:`negotiate`): ``?lang=``, then the player's saved choice
(the ``lang`` cookie, which the language switch sets; a signed-in player's choice is also
kept with the account, and signing in on another device sets the cookie from it), then
``Accept-Language``, then English.

>>> negotiate(query="nl", saved="fr", accept="fr-FR,fr;q=0.9")
'nl'
>>> negotiate(query="xx", saved="fr", accept="nl")
'fr'
>>> negotiate(accept="de-DE, nl-BE;q=0.8, fr;q=0.9")
'fr'
>>> negotiate(accept="de, *;q=0.5")
'en'

Messages the server makes (errors, the solver's answers) are :class:`Message`: English
text that remembers its message id and parameters, so it can be shown in any language.

>>> error = N_("unknown game {name} (see /api/catalog for the games)", name="'x1'")
>>> error, error.translate("nl")
("unknown game 'x1' (see /api/catalog for the games)", "onbekend spel: 'x1' (de spellen staan op /api/catalog)")
>>> NP_("{move} keeps a win in reach ({n} move to go)", "{move} keeps a win in reach ({n} moves to go)", 3, move="KH").translate("nl")
'KH houdt de winst binnen bereik (nog 3 zetten)'
"""

from __future__ import annotations

import io
import json
import re
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterator, Mapping, Sequence, TypedDict, TypeVar, cast

from babel import Locale
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import NullTranslations, Translations

LOCALES = ("en", "fr", "nl")
"""The languages Winnable is written in; the first is the default (and the source)."""
DEFAULT_LOCALE = LOCALES[0]
COOKIE = "lang"
"""The cookie holding a player's choice of language (one of :data:`LOCALES`)."""
COOKIE_MAX_AGE = 400 * 24 * 3600
VARY = "Accept-Language, Cookie"
"""What a page or an answer in the request's language depends on (besides ``?lang=``)."""
LOCALE_DIR = Path(__file__).with_name("locale")
DOMAIN = "messages"
JS_SOURCES = ".js"
"""Messages found in the JavaScript go to the page's embedded catalogue."""

NAMES = {"en": "English", "fr": "Français", "nl": "Nederlands"}
"""Each language in its own words, for the language switch."""


def supported(tag: str | None) -> str | None:
    """The supported language of a tag (``"fr-BE"`` -> ``"fr"``), or None."""
    if not tag or len(tag) > 35:
        return None
    primary = tag.strip().replace("_", "-").split("-", 1)[0].lower()
    return primary if primary in LOCALES else None


def accepted(header: str | None) -> list[str]:
    """The languages of an ``Accept-Language`` header, most wanted first (``q=0`` left out).

    >>> accepted("nl-BE,nl;q=0.9,en;q=0.8,fr;q=0")
    ['nl-BE', 'nl', 'en']
    """
    if not header:
        return []
    ranked: list[tuple[float, int, str]] = []
    for index, item in enumerate(header[:1000].split(",")[:30]):
        tag, _, params = item.strip().partition(";")
        quality = 1.0
        params = params.strip()
        if params.startswith("q="):
            try:
                quality = float(params[2:])
            except ValueError:
                quality = 0.0
        if tag and quality > 0:
            ranked.append((-quality, index, tag.strip()))
    return [tag for _, _, tag in sorted(ranked)]


def negotiate(*, query: str | None = None, saved: str | None = None, accept: str | None = None) -> str:
    """The language to answer in: ``query`` (``?lang=``), then ``saved`` (the cookie or
    the account's setting), then the first supported language of ``accept``, then English.
    Unsupported values are skipped."""
    for choice in (query, saved):
        found = supported(choice)
        if found:
            return found
    for tag in accepted(accept):
        if tag == "*":
            return DEFAULT_LOCALE
        found = supported(tag)
        if found:
            return found
    return DEFAULT_LOCALE


def remember(response: Any, locale: str, secure: bool = False) -> None:
    """Save ``locale`` as the browser's choice: the ``lang`` cookie on ``response``."""
    response.set_cookie(COOKIE, locale, max_age=COOKIE_MAX_AGE, path="/", samesite="lax", httponly=True, secure=secure)


def _query_lang(query_string: bytes) -> str | None:
    for pair in query_string.split(b"&"):
        if pair.startswith(b"lang="):
            return pair[5:].decode("latin-1")
    return None


def _cookie_lang(cookie: str | None) -> str | None:
    if not cookie:
        return None
    for part in cookie.split(";"):
        name, _, value = part.strip().partition("=")
        if name == COOKIE:
            return value.strip().strip('"')
    return None


def locale_of_scope(scope: Mapping[str, Any]) -> str:
    """The language of an ASGI request (cached in the scope). A signed-in player's
    account setting reaches it through the cookie, which signing in sets."""
    cached: str | None = scope.get("winnable.locale")
    if cached:
        return cached
    headers: dict[bytes, bytes] = {}
    for name, value in scope.get("headers") or ():
        headers.setdefault(name.lower(), value)
    saved = _cookie_lang(headers.get(b"cookie", b"").decode("latin-1"))
    locale = negotiate(
        query=_query_lang(scope.get("query_string") or b""), saved=saved, accept=headers.get(b"accept-language", b"").decode("latin-1")
    )
    if isinstance(scope, dict):
        scope["winnable.locale"] = locale
    return locale


def locale_of(request: Any) -> str:
    """The language of a Starlette request (see :func:`negotiate`)."""
    return locale_of_scope(request.scope)


# -- catalogues ----------------------------------------------------------------------
def po_path(locale: str) -> Path:
    return LOCALE_DIR / locale / "LC_MESSAGES" / f"{DOMAIN}.po"


@lru_cache(maxsize=None)
def catalog(locale: str) -> Catalog | None:
    """The Babel catalogue of ``locale`` as read from its ``.po`` file (None for English)."""
    if locale == DEFAULT_LOCALE or locale not in LOCALES:
        return None
    path = po_path(locale)
    if not path.is_file():
        return None
    with path.open("rb") as handle:
        return read_po(handle, locale=locale, domain=DOMAIN)


@lru_cache(maxsize=None)
def translations(locale: str) -> NullTranslations:
    """gettext translations of ``locale``, compiled in memory from its ``.po`` file."""
    found = catalog(locale)
    if found is None:
        return NullTranslations()
    buffer = io.BytesIO()
    write_mo(buffer, found, use_fuzzy=False)
    buffer.seek(0)
    return Translations(buffer, domain=DOMAIN)


_ELIDED = re.compile(r"(?<![\w'])([Dd]e|[Qq]ue) \{(\w+)\}")
_VOWEL = re.compile(r"[aeiouyhàâäéèêëîïôöùûüœæ]", re.IGNORECASE)


def elide(locale: str, text: str, params: Mapping[str, Any]) -> str:
    """French elides "de" and "que" before a value that starts with a vowel or an h,
    which a translator cannot write in advance (as ``i18n.js`` does in the browser).

    >>> elide("fr", "la donne du jour de {game}", {"game": "Eight Off"}), elide("fr", "de {game}", {"game": "Penguin"})
    ("la donne du jour d'{game}", 'de {game}')
    """
    if not locale.startswith("fr"):
        return text

    def one(found: re.Match[str]) -> str:
        value = str(params.get(found.group(2), ""))
        return f"{found.group(1)[:-1]}'{{{found.group(2)}}}" if _VOWEL.match(value) else found.group(0)

    return _ELIDED.sub(one, text)


def gettext(locale: str, msgid: str, **params: Any) -> str:
    """``msgid`` in ``locale``, its ``{name}`` placeholders filled from ``params``."""
    text = translations(locale).gettext(msgid)
    return elide(locale, text, params).format(**params) if params else text


def ngettext(locale: str, singular: str, plural: str, n: int, **params: Any) -> str:
    """The form of ``singular``/``plural`` for ``n`` in ``locale``; ``{n}`` is ``n``."""
    text = translations(locale).ngettext(singular, plural, n)
    params = {"n": n} | params
    return elide(locale, text, params).format(**params)


class Message(str):
    """English text that can be shown in another language: a ``str`` (so it prints,
    compares and serialises as English) that keeps its message id and parameters."""

    msgid: str
    plural: str | None
    n: int | None
    params: dict[str, Any]

    def __new__(cls, msgid: str, params: dict[str, Any], plural: str | None = None, n: int | None = None) -> "Message":
        if plural is not None and n is not None:
            english = (msgid if n == 1 else plural).format(**({"n": n} | params))
        else:
            english = msgid.format(**params) if params else msgid
        self = super().__new__(cls, english)
        self.msgid, self.plural, self.n, self.params = msgid, plural, n, params
        return self

    def translate(self, locale: str) -> str:  # type: ignore[override]  # a message's language, not str's table
        """The message in ``locale`` (parameters that are messages too, translated)."""
        if locale == DEFAULT_LOCALE:
            return str(self)
        params = {name: value.translate(locale) if isinstance(value, Message) else value for name, value in self.params.items()}
        if self.plural is not None and self.n is not None:
            return ngettext(locale, self.msgid, self.plural, self.n, **params)
        return gettext(locale, self.msgid, **params)


def N_(msgid: str, **params: Any) -> Message:
    """Mark ``msgid`` for the catalogue; a :class:`Message` shown in the reader's language."""
    return Message(msgid, params)


def NP_(singular: str, plural: str, n: int, **params: Any) -> Message:
    """A message that counts ``n`` things (``{n}`` in the text)."""
    return Message(singular, params, plural, n)


class Titled(TypedDict):
    """What :func:`titled` needs of an entry: a game's ``title`` (it may hold more)."""

    title: str


TitledT = TypeVar("TitledT", bound=Titled)


def titled(entries: list[TitledT], locale: str) -> list[TitledT]:
    """``entries`` (dicts with a game's ``title``) with the titles in ``locale``, in place."""
    if locale != DEFAULT_LOCALE:
        for entry in entries:
            entry["title"] = gettext(locale, entry["title"])
    return entries


def translate(text: str, locale: str, fallback: str | None = None) -> str:
    """``text`` in ``locale`` if it is a :class:`Message`; other text (the rules' own
    English sentences) is kept in English, or replaced by ``fallback`` in other languages."""
    if isinstance(text, Message):
        return text.translate(locale)
    if fallback is not None and locale != DEFAULT_LOCALE:
        return fallback
    return text


# -- the JavaScript's catalogue --------------------------------------------------------
@lru_cache(maxsize=None)
class JsCatalog(TypedDict):
    """The scripts' messages: msgid (with ``context\\x04`` before it, if any) to its
    text, or a plural message's forms."""

    locale: str
    messages: dict[str, str | list[str]]


def js_catalog(locale: str, modules: frozenset[str] | None = None) -> JsCatalog:
    """The messages of the JavaScript in ``locale``: ``{"locale", "messages"}``, where a
    message is its translation, or the list of plural forms for ``tn()``; with a context
    (``tp()``), the key is ``context + "\\u0004" + msgid`` as in gettext. ``modules``
    (file names such as ``play.js``) keeps the messages of those scripts only."""
    messages: dict[str, str | list[str]] = {}
    found = catalog(locale)
    for message in found or ():
        names = [name.rsplit("/", 1)[-1] for name, _ in message.locations]
        if not message.id or message.fuzzy or not any(name.endswith(JS_SOURCES) and (modules is None or name in modules) for name in names):
            continue
        key: str
        value: str | list[str]
        if isinstance(message.id, tuple):
            forms = list(cast(Sequence[str], message.string))  # a plural message's forms
            if not all(forms):
                continue
            key, value = message.id[0], forms
        else:
            if not message.string:
                continue
            key, value = cast(str, message.id), cast(str, message.string)  # a singular message's text
        messages[f"{message.context}\x04{key}" if message.context else key] = value
    return {"locale": locale, "messages": messages}


@lru_cache(maxsize=None)
def js_catalog_json(locale: str, modules: frozenset[str] | None = None) -> str:
    """:func:`js_catalog` as JSON safe inside ``<script type="application/json">``."""
    text = json.dumps(js_catalog(locale, modules), ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


# -- numbers and dates ---------------------------------------------------------------
@lru_cache(maxsize=None)
def babel_locale(locale: str) -> Locale:
    return Locale.parse(locale)


def format_number(value: float, locale: str) -> str:
    """``1234.5`` as ``locale`` writes it: 1,234.5 / 1 234,5 / 1.234,5."""
    from babel.numbers import format_decimal

    return format_decimal(value, locale=babel_locale(locale))


def format_date(value: Any, locale: str, format: str = "medium") -> str:
    """A date as ``locale`` writes it (``format``: short, medium, long)."""
    from babel.dates import format_date as babel_format_date

    return babel_format_date(value, format=format, locale=babel_locale(locale))


# -- extraction ----------------------------------------------------------------------
def extract_game_texts(
    fileobj: Any, keywords: Any, comment_tags: Any, options: Mapping[str, str]
) -> Iterator[tuple[int, None, str, list[str]]]:
    """A ``pybabel extract`` method (see ``babel.cfg``): what the registry
    (:mod:`winnable.games`) says of every game and family the web app shows, as plain
    strings: each game's title and summary (its rules class's attributes), each family's
    headings and sentence."""
    from winnable.games import families, game_class, game_ids

    for game_id in game_ids():
        cls = game_class(game_id)
        yield 0, None, cls.title, [f"The title of the game {game_id}."]
        if cls.summary:
            yield 0, None, cls.summary, [f"The lobby's one-line summary of {game_id}."]
    for family in families():
        yield 0, None, family.title, [f"The lobby's heading over the {family.id} family's games."]
        if family.blurb:
            yield 0, None, family.blurb, [f"The lobby's sentence on the {family.id} family."]
        if family.rules_title:
            yield 0, None, family.rules_title, [f"The title of the {family.id} family's rules page."]
