"""English, French and Dutch: the catalogues are complete, nothing a player reads escapes
them, and every page and API answer comes in the language the request chose.

The "nothing escapes" checks work two ways: the server's pages are rendered with a
pseudo-language that rewrites every translated letter (so any plain English left on the
page did not come from the catalogue), and the JavaScript's string literals are read
one by one (so a sentence shown to players outside ``t()``/``tn()``/``tp()`` is caught).
"""

from __future__ import annotations

import re
from gettext import NullTranslations
from html.parser import HTMLParser
from pathlib import Path

import pytest
from babel.messages.frontend import CommandLineInterface
from babel.messages.pofile import read_po
from fastapi.testclient import TestClient

from js_strings import literals, translated, unescape
from webapp import SITE, make_client
from winnable.games import game_class, game_ids
from winnable.web.pages import i18n

ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "src" / "winnable" / "web" / "pages"
LOCALES = [locale for locale in i18n.LOCALES if locale != i18n.DEFAULT_LOCALE]

# Names that are the same in every language: the site, the games (the seeds keep them in
# English), programs, the language switch (each language in its own words).
NAMES = [
    "Winnable",
    "Black Hole",
    "Black Widow",
    "Penguin",
    "Spider",
    "FreeCell",
    "Baker's Game",
    "Eight Off",
    "PySolFC",
    "David Parlett",
    "Parlett",
    "Microsoft",
    "API",
    "EN",
    "FR",
    "NL",
    "English",
    "Français",
    "Nederlands",
    "Enter",
    "Esc",
    "flippers",
]


def placeholders(text: str) -> list[str]:
    return sorted(re.findall(r"\{\w+\}|%\(\w+\)s", text))


def tags(text: str) -> list[str]:
    return sorted(re.findall(r"</?\w+[^>]*>|&\w+;", text))


def catalog(locale: str):
    with i18n.po_path(locale).open("rb") as handle:
        return read_po(handle, locale=locale)


# -- the catalogues -----------------------------------------------------------------------
@pytest.mark.parametrize("locale", LOCALES)
def test_every_message_has_a_reviewed_translation(locale):
    problems = []
    for message in catalog(locale):
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        if message.fuzzy:
            problems.append(f"fuzzy: {ids[0]!r}")
        if not all(strings):
            problems.append(f"untranslated: {ids[0]!r}")
            continue
        for text in strings:
            if placeholders(text) != placeholders(ids[-1]) and placeholders(text) != placeholders(ids[0]):
                problems.append(f"placeholders differ: {ids[0]!r} -> {text!r}")
            if tags(text) != tags(ids[0]):
                problems.append(f"markup differs: {ids[0]!r} -> {text!r}")
    assert not problems, f"{locale}: " + "\n".join(problems)


def test_the_catalogues_hold_every_string_of_the_sources(tmp_path):
    """`make messages` has been run: extracting again finds no message the catalogues lack
    (nor one they keep for nothing)."""
    fresh = tmp_path / "messages.pot"
    CommandLineInterface().run(
        [
            "pybabel",
            "-q",
            "extract",
            "-F",
            str(ROOT / "babel.cfg"),
            "-k",
            "t",
            "-k",
            "tn:1,2",
            "-k",
            "tp:1c,2",
            "-k",
            "NP_:1,2",
            "--no-location",
            "-o",
            str(fresh),
            str(ROOT),
        ]
    )
    with fresh.open("rb") as handle:
        wanted = {(m.context, m.id) for m in read_po(handle) if m.id}
    assert len(wanted) > 300  # the sources were read (the games' titles too)
    assert (None, "Spider (2 suits)") in wanted and ("card rank", "K") in wanted
    for locale in LOCALES:
        have = {(m.context, m.id) for m in catalog(locale) if m.id}
        assert not wanted - have, f"{locale} lacks {sorted(map(str, wanted - have))[:10]}: run make messages"
        assert not have - wanted, f"{locale} keeps {sorted(map(str, have - wanted))[:10]}: run make messages"


def test_plural_forms_come_from_the_locale():
    assert i18n.ngettext("fr", "{n} card to go", "{n} cards to go", 0) == "encore 0 carte"  # French: 0 is singular
    assert i18n.ngettext("fr", "{n} card to go", "{n} cards to go", 2) == "encore 2 cartes"
    assert i18n.ngettext("nl", "{n} card to go", "{n} cards to go", 0) == "nog 0 kaarten"
    assert i18n.ngettext("nl", "{n} card to go", "{n} cards to go", 1) == "nog 1 kaart"
    assert i18n.ngettext("en", "{n} card to go", "{n} cards to go", 1) == f"{1} card to go"


def test_numbers_and_dates_are_written_as_the_locale_writes_them():
    import datetime as dt

    assert i18n.format_number(1234.5, "en") == "1,234.5"
    assert i18n.format_number(1234.5, "fr") == "1\u202f234,5"
    assert i18n.format_number(1234.5, "nl") == "1.234,5"
    day = dt.date(2025, 3, 9)
    assert i18n.format_date(day, "fr", "long") == "9 mars 2025"
    assert i18n.format_date(day, "nl", "long") == "9 maart 2025"


# -- choosing the language ------------------------------------------------------------------
@pytest.fixture
def client(db_url):
    with make_client(db_url) as client:
        yield client


def lang_of(page) -> str:
    return re.search(r'<html lang="(\w+)">', page.text).group(1)


def test_the_language_is_the_query_then_the_cookie_then_accept_language_then_english(client):
    assert lang_of(client.get("/")) == "en"
    assert lang_of(client.get("/", headers={"Accept-Language": "nl-BE,nl;q=0.9,en;q=0.8"})) == "nl"
    assert lang_of(client.get("/", headers={"Accept-Language": "de-DE,fr;q=0.7"})) == "fr"
    assert lang_of(client.get("/", headers={"Accept-Language": "de-DE"})) == "en"
    client.cookies.set("lang", "fr")
    assert lang_of(client.get("/", headers={"Accept-Language": "nl"})) == "fr"  # the saved choice first
    assert lang_of(client.get("/?lang=nl", headers={"Accept-Language": "en"})) == "nl"  # the link first
    assert lang_of(client.get("/?lang=klingon")) == "fr"  # unsupported values are skipped
    client.cookies.set("lang", "<script>")
    assert lang_of(client.get("/", headers={"Accept-Language": "nl"})) == "nl"


def test_pages_say_their_language_and_vary_with_it(client):
    page = client.get("/play/penguin?deal=7", headers={"Accept-Language": "fr"})
    assert page.headers["content-language"] == "fr" and "Accept-Language" in page.headers["vary"]
    assert "<title>Penguin · Winnable</title>" in page.text and ">Nouvelle donne<" in page.text
    assert "<title>Spider met twee kleuren · Winnable</title>" in client.get("/play/spider-2?lang=nl").text
    rules = client.get("/rules/spider-2?lang=fr").text
    assert "<title>Black Widow et Spider · règles · Winnable</title>" in rules and "Jouer à Spider à deux couleurs" in rules


def test_links_keep_a_language_that_is_not_english(client):
    french = client.get("/play/black-hole?deal=3", headers={"Accept-Language": "fr"}).text
    assert 'href="/?lang=fr"' in french and 'href="/rules/black-hole?lang=fr"' in french
    english = client.get("/play/black-hole?deal=3").text
    assert 'href="/"' in english and not re.search(r'href="(?!/lang/)[^"]*lang=', english)


def test_the_language_switch_saves_the_choice_and_returns_to_the_page(client):
    answer = client.get("/lang/nl?next=%2Fplay%2Fpenguin%3Fdeal%3D7%26lang%3Dfr", follow_redirects=False)
    assert answer.status_code == 303 and answer.headers["location"] == "/play/penguin?deal=7&lang=nl"
    assert "lang=nl" in answer.headers["set-cookie"] and "SameSite=lax" in answer.headers["set-cookie"]
    assert lang_of(client.get("/")) == "nl"  # the cookie now chooses
    back = client.get("/lang/en?next=/rules/penguin%3Flang%3Dnl", follow_redirects=False)
    assert back.headers["location"] == "/rules/penguin" and lang_of(client.get("/")) == "en"
    for target in ("https://evil.example/", "//evil.example/x", "/\\evil.example"):
        assert client.get("/lang/fr", params={"next": target}, follow_redirects=False).headers["location"] == "/?lang=fr"
    assert client.get("/lang/xx?next=/rules/penguin", follow_redirects=False).headers["location"] == "/rules/penguin"
    switch = client.get("/rules/penguin?deal=1&lang=fr").text
    assert 'href="/lang/nl?next=%2Frules%2Fpenguin%3Fdeal%3D1"' in switch and 'aria-current="true"' in switch


def test_a_signed_in_player_keeps_the_choice_on_every_device(client):
    password = "correct horse battery"
    client.cookies.set("lang", "nl")  # chosen before the account existed: it becomes the account's
    assert client.post("/api/auth/signup", json={"name": "Margot", "password": password}).status_code == 201
    assert client.get("/api/account/export").json()["account"]["language"] == "nl"
    client.get("/lang/fr?next=/", follow_redirects=False)  # the switch, signed in
    assert client.get("/api/account/export").json()["account"]["language"] == "fr"
    with TestClient(client.app, headers={"Origin": SITE}) as elsewhere:  # another device
        assert lang_of(elsewhere.get("/", headers={"Accept-Language": "nl"})) == "nl"
        signed_in = elsewhere.post("/api/auth/login", json={"name": "margot", "password": password})
        assert signed_in.status_code == 200 and "lang=fr" in signed_in.headers["set-cookie"]
        assert lang_of(elsewhere.get("/", headers={"Accept-Language": "nl"})) == "fr"
        assert lang_of(elsewhere.get("/?lang=nl")) == "nl"  # a link's language still comes first


def test_error_pages_are_in_the_language(client):
    page = client.get("/play/no-such-game?lang=nl")
    assert page.status_code == 404 and lang_of(page) == "nl" and "onbekend spel" in page.text
    assert "Page introuvable" in client.get("/no/such/page", headers={"Accept-Language": "fr"}).text


# -- the API ---------------------------------------------------------------------------------
def test_api_errors_are_translated_beside_a_stable_code(client):
    fr, nl = {"Accept-Language": "fr"}, {"Accept-Language": "nl"}
    missing = client.get("/api/games/nope1", headers=fr)
    assert missing.status_code == 404 and missing.headers["content-language"] == "fr"
    assert missing.json() == {
        "code": "game_not_found",
        "detail": "aucune partie n'a l'identifiant 'nope1' (elle a peut-être été créée sur un autre serveur)",
    }
    assert client.get("/api/games/nope1").json()["detail"].startswith("no game with id 'nope1'")
    game = client.post("/api/games", json={"game": "black-hole", "deal": 2, "undo": "none"}).json()
    undo = client.post(f"/api/games/{game['id']}/undo?lang=nl", json={})
    assert undo.json() == {"code": "undo_refused", "detail": "deze partij wordt zonder terugnemen gespeeld"}
    # The rules' own English reason is not shown to a French player: the code's sentence is.
    illegal = client.post(f"/api/games/{game['id']}/moves", json={"move": "QD"}, headers=fr)
    assert illegal.json() == {"code": "illegal_move", "detail": "Les règles n'autorisent pas ce coup ici."}
    assert client.post(f"/api/games/{game['id']}/moves", json={"move": "QD"}).json()["detail"] == "QD is not the top card of a pile"
    # Refused at the gate (no JSON body), and by validation.
    gate = client.post("/api/games", content=b"game=black-hole", headers={"Content-Type": "text/plain", **nl})
    assert gate.status_code == 415 and gate.json()["code"] == "json_required" and "JSON-inhoud" in gate.json()["detail"]
    invalid = client.post("/api/games", json={"game": 5}, headers=fr)
    assert invalid.status_code == 422 and invalid.json()["code"] == "invalid_request"
    assert invalid.json()["detail"] == "Les paramètres ou le corps de la requête ne sont pas valides."


def test_the_catalog_and_summaries_have_the_titles_of_the_language(client):
    titles = {g["id"]: g["title"] for g in client.get("/api/catalog", headers={"Accept-Language": "nl"}).json()}
    assert titles["spider-1"] == "Spider met één kleur" and titles["black-hole"] == "Black Hole"
    french = {g["id"]: g for g in client.get("/api/catalog?lang=fr").json()}
    assert french["penguin-0"]["title"] == "Penguin (sans nageoires)" and "nageoires" in french["penguin"]["summary"]
    assert {g["id"]: g["title"] for g in client.get("/api/catalog").json()}["spider-1"] == "Spider (1 suit)"
    game = client.post("/api/games", json={"game": "spider-2", "deal": 2}).json()
    listed = client.post("/api/games/summaries?lang=fr", json={"ids": [game["id"]]}).json()["games"]
    assert listed[0]["title"] == "Spider à deux couleurs"
    assert game["moves"] == [] and client.get(f"/api/games/{game['id']}?lang=fr").json()["title"] == "Spider (2 suits)"


def test_solver_answers_are_translated_and_moves_stay_in_notation(client):
    game = client.post("/api/games", json={"game": "black-hole", "deal": 2}).json()
    hint = client.get(f"/api/games/{game['id']}/hint?lang=fr").json()
    assert hint["verdict"] == "won" and re.fullmatch(r"[2-9TJQKA][CDHS]", hint["move"])
    assert hint["message"].startswith(f"{hint['move']} garde la victoire à portée (encore ")
    english = client.get(f"/api/games/{game['id']}/hint").json()
    assert "keeps a win in reach" in english["message"]


# -- nothing escapes the catalogue ------------------------------------------------------------
def pseudo(text: str) -> str:
    """Every letter of a message turned into its full-width twin, markup and placeholders
    kept: a page shown in this language has no plain letter that came from a message."""
    parts = re.split(r"(<[^>]*>|\{\w+\}|%\(\w+\)s|&\w+;)", text)
    return "".join(part if i % 2 else re.sub(r"[A-Za-z]", lambda m: chr(ord(m.group(0)) + 0xFEE0), part) for i, part in enumerate(parts))


class Pseudo(NullTranslations):
    def gettext(self, message):
        return pseudo(message)

    def ngettext(self, singular, plural, n):
        return pseudo(singular if n == 1 else plural)

    def pgettext(self, context, message):
        return pseudo(message)

    def npgettext(self, context, singular, plural, n):
        return pseudo(singular if n == 1 else plural)


class Visible(HTMLParser):
    """The text a page shows or reads out: text outside scripts and styles, and the
    attributes people see or hear."""

    SPOKEN = ("title", "aria-label", "placeholder", "alt", "aria-roledescription")

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.texts: list[str] = []
        self.skipping = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style"):
            self.skipping += 1
        for name, value in attrs:
            if name in self.SPOKEN and value:
                self.texts.append(value)

    def handle_endtag(self, tag):
        if tag in ("script", "style"):
            self.skipping -= 1

    def handle_data(self, data):
        if not self.skipping and data.strip():
            self.texts.append(data.strip())


def english_left(html: str) -> list[str]:
    parser = Visible()
    parser.feed(html)
    found = []
    for text in parser.texts:
        text = re.sub(r"'[\w.-]*'", "", text)  # what the client sent, quoted back
        for name in sorted(NAMES, key=len, reverse=True):
            text = text.replace(name, "")
        if re.search(r"[A-Za-z]{2,}", text):
            found.append(text)
    return found


def page_paths() -> list[str]:
    paths = ["/", "/play/no-such-game", "/no/such/page", "/account", "/daily", "/stats"]
    for game in game_ids():
        paths += [f"/play/{game}", f"/rules/{game}"]
    return paths


def test_pages_show_no_english_that_is_not_in_the_catalogue(client, monkeypatch):
    monkeypatch.setattr(i18n, "translations", lambda locale: Pseudo() if locale == "fr" else NullTranslations())
    client.app.state.pages._environments.clear()
    for path in page_paths():
        page = client.get(path, headers={"Accept-Language": "fr"})
        assert lang_of(page) == "fr"
        assert not english_left(page.text), f"{path}: {english_left(page.text)}"
    client.app.state.pages._environments.clear()


@pytest.mark.parametrize("locale", LOCALES)
def test_pages_in_french_and_dutch_keep_nothing_of_the_english_page(client, locale):
    """Every text of a page differs from the English page's, but names and the words a
    language takes over as they are (its catalogue translates them to themselves)."""
    same_on_purpose = {m.id for m in catalog(locale) if isinstance(m.id, str) and m.id == m.string}
    for path in page_paths():
        english, other = Visible(), Visible()
        english.feed(client.get(path).text)
        other.feed(client.get(path, headers={"Accept-Language": locale}).text)
        left = set(english.texts) & set(other.texts)
        left = {text for text in left if text not in same_on_purpose and english_left(f"<p>{text}</p>")}
        assert not left, f"{locale} {path}: {sorted(left)}"


ENGLISH_WORDS = {
    "the",
    "a",
    "an",
    "to",
    "of",
    "in",
    "on",
    "is",
    "are",
    "was",
    "your",
    "you",
    "this",
    "that",
    "no",
    "not",
    "with",
    "for",
    "and",
    "or",
    "it",
    "can",
    "cannot",
    "has",
    "have",
    "here",
    "there",
    "from",
    "by",
    "at",
    "be",
    "will",
    "would",
    "may",
    "must",
    "one",
    "all",
    "any",
    "every",
    "only",
    "still",
    "more",
    "left",
    "again",
    "new",
}
NOT_SHOWN = {"Winnable", "Content-Type", "Escape", "Enter"}  # the brand; a header; key names


def english_msgids() -> set[str]:
    return {m.id for m in catalog("fr") if isinstance(m.id, str) and m.id}


def shown_english(text: str, msgids: set[str]) -> bool:
    """A literal that reads as English for people: a message id, or words with a space
    between them that are a sentence (a capital, final punctuation, an English word),
    not markup, a selector or a class list."""
    if text in NOT_SHOWN or re.search(r"[<>=#{}\[\]/\\]", text):
        return False
    if len(text) > 1 and text[:1].isupper() and text in msgids:
        return True
    if re.fullmatch(r"[a-z0-9_-]+( [a-z0-9_-]+)+ ?", text) and re.search(r"\w[-_]\w", text):
        return False  # a class list: "badge you-badge"
    words = re.findall(r"[A-Za-z']+", text)
    if len(words) < 2 or not re.search(r"[A-Za-z]{2,}[ \u00a0]+[A-Za-z]{2,}", text):
        return False
    return text[:1].isupper() or text.rstrip().endswith((".", "?", "!", ":", "…")) or bool(ENGLISH_WORDS & {w.lower() for w in words})


def test_javascript_shows_players_no_string_outside_the_translation_functions():
    msgids = english_msgids()
    found = []
    for path in sorted((WEB / "static" / "js").glob("*.js")):
        source = path.read_text(encoding="utf-8")
        for offset, text, _ in literals(source):
            if not translated(source, offset) and shown_english(text, msgids):
                found.append(f"{path.name}:{source.count(chr(10), 0, offset) + 1}: {text!r}")
    assert not found, "shown to players without t()/tn()/tp():\n" + "\n".join(found)


def test_every_message_of_the_javascript_is_in_the_catalogue():
    """What ``t()``, ``tn()`` and ``tp()`` are called with is in the catalogue, even where
    ``pybabel extract`` cannot see it (a call inside a template literal's ``${...}``)."""
    have = {msgid for m in catalog("fr") if m.id for msgid in ((m.id,) if isinstance(m.id, str) else m.id)}
    missing = []
    for path in sorted((WEB / "static" / "js").glob("*.js")):
        source = path.read_text(encoding="utf-8")
        for offset, text, kind in literals(source):
            if translated(source, offset) and kind == "str" and not re.search(r"\btp\(\s*$", source[:offset]):
                if unescape(text) not in have:
                    missing.append(f"{path.name}:{source.count(chr(10), 0, offset) + 1}: {text!r}")
    assert not missing, "not in the catalogue (move the call out of ${...}, then make messages):\n" + "\n".join(missing)


def test_the_literal_check_catches_an_english_sentence():
    msgids = english_msgids()
    caught = 'el("p", {}, "No moves left"); say("Try again later."); x.title = "Undo";'
    assert [text for _, text, _ in literals(caught) if shown_english(text, msgids)] == ["No moves left", "Try again later.", "Undo"]
    fine = 'el("div", { class: "btn primary play" }, t("Close")); x.dataset.status = "won"; key === "Escape"'
    assert [text for offset, text, _ in literals(fine) if not translated(fine, offset) and shown_english(text, msgids)] == []


def test_the_page_carries_the_javascript_catalogue_for_its_language(client):
    page = client.get("/play/black-widow?lang=nl").text
    data = re.search(r'<script id="i18n-catalog" type="application/json">(.*?)</script>', page).group(1)
    import json

    found = json.loads(data)
    assert found["locale"] == "nl"
    messages = found["messages"]
    assert messages["Undo"] == "Terug" and messages["card rank\u0004Q"] == "V"
    assert messages["{n} card to go"] == ["nog {n} kaart", "nog {n} kaarten"]
    assert "The aim" not in messages  # only what the scripts say
    lobby = json.loads(re.search(r'id="i18n-catalog" type="application/json">(.*?)</script>', client.get("/?lang=fr").text).group(1))[
        "messages"
    ]
    assert lobby["Rules"] == "Règles" and "Where did I lose?" not in lobby  # and only the page's scripts
    assert json.loads(re.search(r'id="i18n-catalog" type="application/json">(.*?)</script>', client.get("/").text).group(1)) == {
        "locale": "en",
        "messages": {},
    }


@pytest.mark.parametrize("game", sorted({game_class(g).title for g in game_ids()}))
def test_every_game_title_is_in_the_catalogue(game):
    for locale in LOCALES:
        assert i18n.gettext(locale, game)
        assert any(m.id == game and m.string for m in catalog(locale))
