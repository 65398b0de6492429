"""The settings players expect (issue 34 item 7), in the game page's menu and the lobby:
each changes what it says (a four-colour deck, the theme and following the system's, card
size, left-handed controls, sound with a mute), is remembered after a reload, and, signed
in, in another browser; axe-core finds nothing in either theme."""

from __future__ import annotations

import pytest

from browser_helpers import NO_AUTO, new_page, open_game, open_menu, wait_moves
from screen_checks import axe_violations

FOUR = {"D": "rgb(11, 85, 200)", "C": "rgb(18, 107, 44)"}


def colour(page, selector: str) -> str:
    return page.eval_on_selector(selector, "node => getComputedStyle(node).color")


def choose(page, control: str, value: str | bool) -> None:
    """Set a setting through its control in the open menu."""
    if isinstance(value, bool):
        page.set_checked(control, value) if page.is_visible(control) else page.locator(control).set_checked(value, force=True)
    else:
        page.select_option(control, value)


def switch(page, control: str, on: bool) -> None:
    page.locator(control).set_checked(on, force=True)  # the input under its drawn switch


def test_the_four_colour_deck_draws_diamonds_blue_and_clubs_green_and_is_remembered(browser, server):
    page = new_page(browser, "desktop", NO_AUTO)
    try:
        open_game(page, server, "freecell", 1)  # every card face up: all four suits
        assert colour(page, "#table .card.suit-D") == "rgb(204, 34, 56)"  # red, two colours
        open_menu(page)
        switch(page, "#set-deck", True)
        page.wait_for_selector("html[data-deck='four']")
        assert colour(page, "#table .card.suit-D") == FOUR["D"]
        assert colour(page, "#table .card.suit-C") == FOUR["C"]
        assert colour(page, "#table .card.suit-H") == "rgb(204, 34, 56)"
        assert colour(page, "#table .card.suit-S") == "rgb(27, 33, 39)"
        page.reload()
        page.wait_for_selector("#table .card")
        assert page.get_attribute("html", "data-deck") == "four" and colour(page, "#table .card.suit-D") == FOUR["D"]
    finally:
        page.context.close()


def luminance(page) -> float:
    """How light the page's felt is (0 black, 1 white): --felt-2, the body's colour."""
    rgb = page.evaluate("""() => {
        const probe = document.createElement("div");
        probe.style.color = getComputedStyle(document.documentElement).getPropertyValue("--felt-2");
        document.body.append(probe);
        const value = getComputedStyle(probe).color;
        probe.remove();
        return value.match(/\\d+/g).slice(0, 3).map(Number);
    }""")
    return sum(rgb) / (3 * 255)


def test_the_theme_is_dark_light_or_the_systems(browser, server):
    page = new_page(browser, "desktop", NO_AUTO)
    try:
        page.emulate_media(color_scheme="light")
        open_game(page, server, "black-hole", 1)
        assert page.get_attribute("html", "data-look") == "dark" and luminance(page) < 0.4  # today's felt by default
        open_menu(page)
        choose(page, "#set-theme", "light")
        page.wait_for_selector("html[data-look='light']")
        assert luminance(page) > 0.7
        choose(page, "#set-theme", "system")
        page.wait_for_selector("html[data-theme='system'][data-look='light']")
        page.emulate_media(color_scheme="dark")
        page.wait_for_selector("html[data-look='dark']")
        assert luminance(page) < 0.4
        page.reload()
        page.wait_for_selector("#table .card")
        assert page.get_attribute("html", "data-theme") == "system" and page.get_attribute("html", "data-look") == "dark"
        page.emulate_media(color_scheme="light")
        page.wait_for_selector("html[data-look='light']")
    finally:
        page.context.close()


def card_width(page) -> float:
    return page.eval_on_selector("#table .card", "node => node.getBoundingClientRect().width")


def test_card_size_changes_the_cards_width_within_the_screen(browser, server):
    page = new_page(browser, "desktop", NO_AUTO)
    try:
        page.set_viewport_size({"width": 1600, "height": 1200})
        open_game(page, server, "penguin", 1)
        medium = card_width(page)
        open_menu(page)
        widths = {}
        for size in ("small", "large", "medium"):
            choose(page, "#set-card-size", size)
            page.wait_for_selector(f"html[data-card-size='{size}']")
            page.wait_for_function(
                "width => Math.abs(document.querySelector('#table .card').getBoundingClientRect().width - width) > 1 || true", arg=medium
            )
            page.wait_for_function(
                "([size, medium]) => { const w = document.querySelector('#table .card').getBoundingClientRect().width;"
                " return size === 'small' ? w < medium - 5 : size === 'large' ? w > medium + 5 : Math.abs(w - medium) < 1; }",
                arg=[size, medium],
            )
            widths[size] = card_width(page)
        assert widths["small"] < widths["medium"] < widths["large"], widths
        assert page.eval_on_selector("#table", "t => t.scrollWidth <= t.clientWidth + 1")  # nothing cut sideways
    finally:
        page.context.close()


def x_of(page, selector: str) -> float:
    return page.eval_on_selector(selector, "node => node.getBoundingClientRect().left")


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_left_handed_mirrors_the_toolbar(browser, server, size):
    page = new_page(browser, size, NO_AUTO)
    try:
        open_game(page, server, "black-hole", 1)
        assert x_of(page, "#new-deal") < x_of(page, "#undo") < x_of(page, "#hint")
        open_menu(page)
        switch(page, "#set-hand", True)
        page.wait_for_selector("html[data-hand='left']")
        assert x_of(page, "#new-deal") > x_of(page, "#undo") > x_of(page, "#hint")
    finally:
        page.context.close()


def play_one(page, game_id_before: int) -> None:
    """Play a move of Black Hole deal 1 by tapping its card (one-tap play)."""
    from winnable.games import game_class
    from winnable.web.views import click_choices

    state = page.evaluate("fetch('/api/games/' + document.body.dataset.gameId).then(r => r.json())")
    position = game_class("black-hole").deal(1)
    for move in [m for m in state.get("moves", [])]:
        position = position.play(position.parse_move(move))
    entry = next(e for e in click_choices(position) if e["from"] != "stock")
    cards = page.locator(f'#table [data-place="{entry["from"]}"]')
    cards.nth(cards.count() - 1).click()
    wait_moves(page, game_id_before + 1)


def sounds(page) -> int:
    return int(page.get_attribute("html", "data-sounds-played") or 0)


def test_sound_is_off_by_default_and_the_mute_silences_it(browser, server):
    page = new_page(browser, "desktop", NO_AUTO)
    try:
        open_game(page, server, "black-hole", 1)
        assert page.is_hidden("#mute-button")
        play_one(page, 0)
        assert sounds(page) == 0  # off by default
        open_menu(page)
        switch(page, "#set-sound", True)
        page.wait_for_function("document.documentElement.dataset.soundsPlayed === '1'")  # a sample
        page.keyboard.press("Escape")
        play_one(page, 1)
        page.wait_for_function("document.documentElement.dataset.soundsPlayed === '2'")
        assert page.get_attribute("html", "data-last-sound") == "move"
        page.click("#undo")
        wait_moves(page, 1)
        page.wait_for_function("document.documentElement.dataset.soundsPlayed === '3'")
        assert page.get_attribute("html", "data-last-sound") == "undo"
        page.click("#mute-button")
        assert page.get_attribute("#mute-button", "aria-pressed") == "true"
        play_one(page, 1)
        assert sounds(page) == 3  # muted
        page.reload()
        page.wait_for_selector("#table .card")
        assert page.get_attribute("#mute-button", "aria-pressed") == "true" and page.is_visible("#mute-button")
        page.click("#mute-button")
        play_one(page, 2)
        page.wait_for_function("Number(document.documentElement.dataset.soundsPlayed) === 2")  # a new page counts from 0
    finally:
        page.context.close()


def test_settings_follow_a_signed_in_player_to_another_browser(browser, server):
    from test_players import sign_in, sign_up

    first = new_page(browser, "desktop", NO_AUTO)
    second = new_page(browser, "desktop", NO_AUTO)
    try:
        sign_up(first, server, "lefthand")
        open_game(first, server, "black-hole", 1)
        first.wait_for_selector("html[data-settings-from='account']")
        open_menu(first)
        switch(first, "#set-deck", True)
        switch(first, "#set-hand", True)
        choose(first, "#set-theme", "light")
        first.wait_for_function("fetch('/api/account/settings').then(r => r.json()).then(s => s.theme === 'light' && s.hand === 'left')")
        open_game(second, server, "black-hole", 1)
        assert second.get_attribute("html", "data-deck") == "two"  # a guest: this browser's own
        sign_in(second, server, "lefthand")
        open_game(second, server, "black-hole", 1)
        second.wait_for_selector("html[data-settings-from='account'][data-deck='four'][data-hand='left'][data-look='light']")
        second.goto(server.url("/"))
        second.wait_for_selector("html[data-look='light']")  # before the account answers: kept in this browser now
    finally:
        first.context.close()
        second.context.close()


READY = """Promise.race([
    navigator.serviceWorker.ready.then((registration) => registration.scope),
    new Promise((done) => setTimeout(() => done(null), 30000)),
])"""
"""The service worker's scope once it is active (null after 30 s: none)."""


def test_the_manifest_and_the_service_worker_make_an_installable_app(browser, server):
    page = new_page(browser, "desktop")
    try:
        page.goto(server.url("/"))
        scope = page.evaluate(READY)
        assert scope == server.url("/")
        href = page.get_attribute("link[rel=manifest]", "href")
        manifest = page.request.get(server.url(href))
        assert manifest.ok and manifest.headers["content-type"].startswith("application/manifest+json")
        data = manifest.json()
        assert data["start_url"] == "/" and data["display"] == "standalone"
        sizes = {(icon["sizes"], icon["purpose"]) for icon in data["icons"]}
        assert {("192x192", "any"), ("512x512", "any"), ("192x192", "maskable"), ("512x512", "maskable")} <= sizes
        base = server.url(href.rsplit("/", 1)[0] + "/")
        for icon in data["icons"]:
            answer = page.request.get(base + icon["src"])
            assert answer.ok and answer.headers["content-type"] == icon["type"], icon
        # The static files of this version come from the worker's cache.
        cached = page.evaluate(
            "caches.keys().then((names) => Promise.all(names.map((n) => caches.open(n).then((c) => c.keys())))).then((l) => l.flat().map((r) => r.url))"
        )
        assert any(url.endswith("/js/play.js") for url in cached) and any("/offline?lang=nl" in url for url in cached)
    finally:
        page.context.close()


OFFLINE = {"en": "You are offline", "fr": "Vous êtes hors ligne", "nl": "Je bent offline"}


@pytest.mark.parametrize("lang", ["en", "fr", "nl"])
def test_offline_a_page_says_the_games_need_the_server(browser, server, lang):
    page = new_page(browser, "phone")
    try:
        page.goto(server.url(f"/?lang={lang}"))
        assert page.evaluate(READY) == server.url("/")
        page.wait_for_function("navigator.serviceWorker.controller !== null")
        # The worker has heard the page's language (the offline page will speak it).
        page.wait_for_function(
            "lang => caches.keys().then((names) => Promise.all(names.map((n) => caches.open(n).then((c) => c.match('/offline-language')))))"
            ".then((found) => found.find(Boolean)?.text()).then((text) => text === lang)",
            arg=lang,
        )
        page.context.set_offline(True)
        page.goto(server.url("/play/penguin?deal=3"))
        page.wait_for_selector("#offline")
        assert page.inner_text("h1") == OFFLINE[lang]
        assert page.get_attribute("html", "lang") == lang
        assert axe_violations(page) == []
        page.context.set_offline(False)
        page.click("#offline a.btn")
        page.wait_for_selector("#table .card")
    finally:
        page.context.close()


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_no_axe_violation_in_either_theme(browser, server, theme, size):
    from winnable.games import game_class
    from winnable.web.views import click_choices

    settings = '{"theme": "%s", "deck": "four", "sound": true}' % theme
    page = new_page(browser, size, {**NO_AUTO, "winnable:settings": settings, "winnable:onetap:freecell": "0"})
    try:
        page.goto(server.url("/"))
        page.wait_for_selector(".game-tile")
        assert page.get_attribute("html", "data-look") == theme
        assert axe_violations(page) == []
        page.click("#settings-button")
        page.wait_for_selector("#settings-menu:popover-open")
        assert axe_violations(page) == []
        open_game(page, server, "penguin", 1)
        entry = next(e for e in click_choices(game_class("penguin").deal(1)) if e["from"] != "stock")
        cards = page.locator(f'#table [data-place="{entry["from"]}"]')
        cards.nth(cards.count() - entry["count"]).click(position={"x": 10, "y": 5})
        page.wait_for_selector("#table .card.selected")
        assert axe_violations(page) == []
        page.keyboard.press("Escape")
        open_menu(page)
        assert axe_violations(page) == []
        for path in ("/daily", "/stats", "/rules/penguin", "/account"):
            page.goto(server.url(path))
            page.wait_for_load_state("networkidle")
            assert axe_violations(page) == [], path
    finally:
        page.context.close()
