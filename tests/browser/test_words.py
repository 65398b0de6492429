"""Words that fit the device and the language (issue 21 item 7): a desktop's hint says
"Click", a phone's "Tap"; the short-password message is a sentence in every language;
French elides ("trop de demandes d'indice", never "de indices"); no page's header links
to the English developer documentation, which the lobby's footer keeps."""

from __future__ import annotations

import re

import pytest

from browser_helpers import new_page
from screen_checks import LANGUAGES, lang_url

HINTS = {
    ("desktop", "en"): "Click the marked card to play it.",
    ("desktop", "fr"): "Cliquez sur la carte marquée pour la jouer.",
    ("desktop", "nl"): "Klik op de gemarkeerde kaart om hem te spelen.",
    ("phone", "en"): "Tap the marked card to play it.",
}


@pytest.mark.parametrize("size, lang", list(HINTS))
def test_the_hint_says_click_or_tap_as_the_device_does(browser, server, size, lang):
    page = new_page(browser, size)
    try:
        page.goto(server.url(f"/play/freecell?deal=1&lang={lang}"))
        page.wait_for_selector("body[data-ready='1'] #table .card")
        page.click("#hint") if size == "desktop" else page.tap("#hint")
        page.wait_for_selector("body[data-hint]:not([data-hint=''])", timeout=60_000)
        message = page.inner_text("#message")
        assert HINTS[size, lang] in message, message
        other = {"Click": "Tap", "Tap": "Click"}[HINTS[size, "en"].split()[0]] if lang == "en" else None
        assert other is None or other not in message
    finally:
        page.context.close()


SHORT = {
    "en": "A password must be 8 to 128 characters long.",
    "fr": "Le mot de passe doit compter de 8 à 128 caractères.",
    "nl": "Een wachtwoord moet 8 tot 128 tekens lang zijn.",
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_short_password_is_told_in_a_sentence(page, server, lang):
    page.goto(lang_url(server, "/account", lang))
    page.wait_for_selector("#signup-form")
    page.fill("#signup-name", f"short{lang}")
    page.fill("#signup-password", "short")
    page.click("#signup-form button[type=submit]")
    page.wait_for_selector("#signup-form .form-error:not([hidden])")
    assert page.inner_text("#signup-form .form-error") == SHORT[lang]


def test_french_rate_limits_elide():
    from limits import parse

    from winnable.web.security.ratelimit import refusal

    for name in ("solver", "play", "create", "signup", "login", "default"):
        text = refusal(name, parse("30/minute"), 12).translate("fr")
        assert not re.search(r"\bde [aeiouéèêhAEIOUÉ]", text), text
    assert refusal("solver", parse("30/minute"), 12).translate("fr").startswith("trop de demandes d'indice")


PAGES = ("/", "/daily", "/stats", "/account", "/rules/penguin", "/play/penguin")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_header_links_to_the_developer_docs(page, server, lang):
    for path in PAGES:
        page.goto(lang_url(server, path, lang))
        page.wait_for_load_state("networkidle")
        links = page.locator("header a").evaluate_all("nodes => nodes.map(n => [n.getAttribute('href'), n.textContent.trim()])")
        assert not [link for link in links if link[0] and link[0].startswith("/docs") or link[1] == "API"], (path, links)
    page.goto(lang_url(server, "/", lang))
    footer = page.locator("footer a[href='/docs']")
    assert footer.count() == 1 and footer.get_attribute("hreflang") == "en"
    assert page.request.get(server.url("/docs")).ok
