"""French and Dutch in a real browser: a browser set to fr-FR or nl-NL gets the lobby, a
game of each family with its hint, its win and loss dialogs and the review of a lost
game, and the rules, with no English string a player could read or hear; and a link
shared in French stays French in a Dutch browser."""

from __future__ import annotations

import re
from functools import cache

import pytest
from babel.messages.pofile import read_po

from browser_helpers import TIMEOUT, open_game, wait_review
from winnable.games import game_class
from winnable.solver import Budget, solve
from winnable.web.pages import i18n

LOCALES = {"fr-FR": "fr", "nl-NL": "nl"}
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
    "English",
    "Français",
    "Nederlands",
    "API",
    "Enter",
    "Esc",
    "flippers",
]
ENGLISH_WORDS = {
    "the",
    "you",
    "your",
    "with",
    "this",
    "that",
    "from",
    "card",
    "cards",
    "move",
    "moves",
    "game",
    "games",
    "deal",
    "deals",
    "undo",
    "hint",
    "won",
    "lost",
    "left",
    "play",
    "rules",
    "new",
    "restart",
    "close",
    "finish",
    "still",
    "winnable",
    "column",
    "foundation",
    "free",
    "cell",
    "hole",
}  # not French or Dutch words

# Deals with short lines: the solver wins them at once, and these moves lose them.
WIN = {"black-hole": 2, "penguin": 1, "black-widow": 1}
LOSE = {
    "black-hole": (2, None),
    "penguin": (1, ["4d", "5c", "1e", "3a", "6f", "4g", "4b", "6o"]),
    "black-widow": (4, ["deal", "deal", "deal", "deal", "deal", "9>7"]),
}

VISIBLE = """() => {
  const out = [document.title];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode;
    if (node.parentElement.closest("script, style")) continue;
    const text = node.textContent.trim();
    if (text) out.push(text);
  }
  const spoken = ["title", "aria-label", "placeholder", "alt", "aria-roledescription", "data-name"];
  for (const el of document.querySelectorAll(spoken.map((a) => `[${a}]`).join(","))) {
    for (const name of spoken) {
      const value = el.getAttribute(name);
      if (value && value.trim()) out.push(value.trim());
    }
  }
  return out;
}"""


@cache
def english_patterns(locale: str) -> tuple[re.Pattern, ...]:
    """The English message ids whose translation differs, as patterns (placeholders match anything)."""
    with i18n.po_path(locale).open("rb") as handle:
        catalog = read_po(handle, locale=locale)
    patterns = []
    for message in catalog:
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        for msgid in ids:
            if not msgid or msgid in strings or not re.search(r"[A-Za-z]{2,}", re.sub(r"\{\w+\}", "", msgid)):
                continue
            text = re.sub(r"<[^>]+>", "", msgid)
            pattern = re.escape(text)
            pattern = re.sub(r"\\\{\w+\\\}|%\\\(\w+\\\)s", ".+?", pattern)
            patterns.append(re.compile(pattern))
    return tuple(patterns)


def english_on_page(page, locale: str) -> list[str]:
    """Every text the page shows or reads out that is English: a message of the
    catalogue in its English words, or a sentence with English words in it."""
    found = []
    for text in page.evaluate(VISIBLE):
        for name in sorted(NAMES, key=len, reverse=True):
            text = text.replace(name, "")
        if not re.search(r"[A-Za-z]{2,}", text):
            continue
        words = {word.lower() for word in re.findall(r"[A-Za-z]+", text)}
        if words & ENGLISH_WORDS or any(pattern.fullmatch(text) for pattern in english_patterns(locale)):
            found.append(text)
    return found


def assert_no_english(page, locale: str, where: str) -> None:
    assert page.evaluate("document.documentElement.lang") == locale, where
    left = english_on_page(page, locale)
    assert not left, f"{where}: English on the page: {left}"


@pytest.fixture(params=list(LOCALES))
def browser_locale(request):
    return request.param


@pytest.fixture
def tab(browser, browser_locale):
    """A browser whose language is fr-FR or nl-NL (its Accept-Language and navigator)."""
    context = browser.new_context(locale=browser_locale, viewport={"width": 1280, "height": 900}, bypass_csp=True)
    context.set_default_timeout(TIMEOUT)
    context.add_init_script("try { localStorage.setItem('winnable:safe-home', '0'); } catch (e) {}")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    context.close()
    assert not errors, f"JavaScript errors in the page: {errors}"


def line_of(game: str, deal: int) -> list[str]:
    verdict = solve(game_class(game).deal(deal), Budget(seconds=60))
    assert verdict.won
    return [str(move) for move in verdict.line]


def losing_black_hole(deal: int) -> list[str]:
    position, line = game_class("black-hole").deal(deal), []
    while position.legal_moves():
        move = position.legal_moves()[-1]
        line.append(str(move))
        position = position.apply(move)
    return line


def stored_game(server, game: str, deal: int, moves: list[str]) -> str:
    state = server.api("POST", "/api/games", {"game": game, "deal": deal})
    for move in moves:
        server.api("POST", f"/api/games/{state['id']}/moves", {"move": move})
    return state["id"]


def test_the_lobby(tab, server, browser_locale):
    locale = LOCALES[browser_locale]
    tab.goto(server.url("/"))
    tab.wait_for_selector(".game-tile")
    assert_no_english(tab, locale, "lobby")
    titles = tab.locator(".game-tile h3").all_inner_texts()
    assert ("Spider à deux couleurs" if locale == "fr" else "Spider met twee kleuren") in titles
    # The tiles' links keep the language.
    assert tab.get_attribute('.game-tile[data-game="penguin"] a.play', "href") == f"/play/penguin?lang={locale}"


@pytest.mark.parametrize("game", ["black-hole", "penguin", "black-widow"])
def test_a_game_its_hint_and_its_win(tab, server, browser_locale, game):
    locale = LOCALES[browser_locale]
    deal = WIN[game]
    open_game(tab, server, game, deal)
    assert_no_english(tab, locale, f"{game} table")
    # Cards show the locale's letters and are read out with its names.
    letters = set(tab.locator("#table .card.face text.rank").all_inner_texts())
    assert letters and not letters & {"J", "Q", "K"}, letters
    names = tab.locator("#table .card.face").evaluate_all("nodes => nodes.map(n => n.getAttribute('aria-label'))")
    if locale == "fr":
        assert all(re.fullmatch(r"(as|roi|dame|valet|\d+) de (trèfle|carreau|cœur|pique)", name) for name in names), names
    else:
        assert all(re.fullmatch(r"(klaveren|ruiten|harten|schoppen) (aas|heer|vrouw|boer|\d+)", name) for name in names), names
    tab.click("#hint")
    tab.wait_for_selector("#message.hint:not([hidden]) b")
    tab.wait_for_function("!document.querySelector('#message').textContent.endsWith('\u2026')")
    assert_no_english(tab, locale, f"{game} hint")
    game_id = stored_game(server, game, deal, line_of(game, deal))
    tab.goto(server.url(f"/play/{game}?id={game_id}"))
    tab.wait_for_selector("#overlay.win:not([hidden])")
    assert_no_english(tab, locale, f"{game} won")


@pytest.mark.parametrize("game", ["black-hole", "penguin", "black-widow"])
def test_a_loss_and_where_it_was_lost(tab, server, browser_locale, game):
    locale = LOCALES[browser_locale]
    deal, moves = LOSE[game]
    game_id = stored_game(server, game, deal, moves or losing_black_hole(deal))
    tab.goto(server.url(f"/play/{game}?id={game_id}"))
    tab.wait_for_selector("#overlay.lost:not([hidden])")
    assert_no_english(tab, locale, f"{game} lost")
    tab.click("#where-lost")
    wait_review(tab, timeout=60_000)
    assert_no_english(tab, locale, f"{game} review")


@pytest.mark.parametrize("game", ["black-hole", "penguin", "black-widow"])
def test_the_rules(tab, server, browser_locale, game):
    locale = LOCALES[browser_locale]
    tab.goto(server.url(f"/rules/{game}"))
    tab.wait_for_selector("main.rules")
    assert_no_english(tab, locale, f"{game} rules")
    assert tab.get_attribute(".play-now a.primary", "href") == f"/play/{game}?lang={locale}"


def test_a_french_link_stays_french_in_a_dutch_browser(browser, server):
    context = browser.new_context(locale="nl-NL", viewport={"width": 1280, "height": 900}, bypass_csp=True)
    try:
        page = context.new_page()
        page.goto(server.url("/play/penguin?deal=3&lang=fr"))
        page.wait_for_selector("body[data-ready='1'] #table .card")
        assert_no_english(page, "fr", "shared French link")
        assert page.inner_text("#new-deal") == "Nouvelle donne"
        assert page.get_attribute("#deal-link", "href") == "/play/penguin?deal=3&lang=fr"
        assert page.evaluate("location.search") == "?deal=3&lang=fr"
        page.click(".brand")  # on to the lobby: still French
        page.wait_for_selector(".game-tile")
        assert page.evaluate("document.documentElement.lang") == "fr"
        assert page.locator('.game-tile[data-game="black-hole"] a.rules').inner_text() == "Règles"
        # The Dutch browser's own pages stay Dutch, and the switch makes French its choice.
        page.goto(server.url("/"))
        page.wait_for_selector(".game-tile")
        assert page.evaluate("document.documentElement.lang") == "nl"
        page.click('.lang-switch a[hreflang="fr"]')
        page.wait_for_selector(".game-tile")
        page.goto(server.url("/rules/black-widow"))
        assert page.evaluate("document.documentElement.lang") == "fr"
    finally:
        context.close()


def test_the_players_pages(tab, server, browser_locale):
    """Signing up, the lobby's Daily, a Daily game, its leaderboard and the statistics."""
    locale = LOCALES[browser_locale]
    tab.goto(server.url("/account"))
    tab.wait_for_selector("#signup-form")
    assert_no_english(tab, locale, "account, signed out")
    name = f"joueur-{locale}"
    tab.fill("#signup-name", name)
    tab.fill("#signup-password", "correct horse battery")
    tab.click("#signup-form button[type=submit]")
    tab.wait_for_selector(f"body[data-player='{name}']")  # back where the player came from
    tab.goto(server.url("/account"))
    tab.wait_for_selector("#signed-in-as")
    assert_no_english(tab, locale, "account, signed in")
    tab.goto(server.url("/"))
    tab.wait_for_selector("#daily-banner:not([hidden]) [data-game='black-hole'] .daily-play")
    assert_no_english(tab, locale, "lobby with the Daily")
    tab.click("#daily-banner [data-game='black-hole'] .daily-play")
    tab.wait_for_selector("body[data-ready='1'][data-daily] #table .card")
    assert tab.evaluate("new URLSearchParams(location.search).get('lang')") == locale
    assert_no_english(tab, locale, "a Daily game")
    tab.click("#table .card.playable >> nth=0")
    tab.wait_for_selector("body[data-moves='1']")
    tab.goto(server.url("/daily?game=black-hole"))
    tab.wait_for_selector("#board-table")
    assert_no_english(tab, locale, "the Daily's leaderboard")
    tab.goto(server.url("/stats"))
    tab.wait_for_selector("#stats .figure, #stats dl, #plot-box svg")
    assert_no_english(tab, locale, "statistics")
