"""The words of issue 34 (item 6) in the pages and the catalogues: French "parties" for the
games played on a deal and "Annulations" over the undo rule, agreement beside "Jouées",
"{rank} uniquement" not "seul 6"; Dutch "partij", "bij een uitdaging", no "winnende lijn"
and no "plak hem voor een vriend"; Penguin's flippers in its words; each game's ranking
rule (not one sentence for all); F in the keys' help; French typography (a no-break space
before : ; ? !)."""

from __future__ import annotations

import json
import re

import pytest

from winnable.web.pages import i18n


def page_catalog(client, path: str) -> dict:
    text = client.get(path).text
    found = re.search(r'<script id="i18n-catalog" type="application/json">(.*?)</script>', text, re.S)
    assert found, path
    return json.loads(found.group(1))["messages"]


def test_french_and_dutch_count_the_games_played_on_a_deal_as_parties_and_partijen():
    assert i18n.ngettext("fr", "{n} game played", "{n} games played", 2) == "2 parties"
    assert i18n.ngettext("nl", "{n} game played", "{n} games played", 2) == "2 partijen"
    assert i18n.ngettext("nl", "{n} game played", "{n} games played", 1) == "1 partij"


def test_the_stats_figures_agree_in_french(client):
    messages = page_catalog(client, "/stats?lang=fr")
    assert messages["games counted\u0004Played"] == "Jouées" and messages["games counted\u0004Won"] == "Gagnées"
    assert messages["{n} game played"] == ["{n} partie", "{n} parties"]


@pytest.mark.parametrize(
    "lang, heading, keys", [("fr", "Annulations", "F termine"), ("nl", "Terugnemen", "F maakt af"), ("en", "Undo", "F finishes")]
)
def test_the_menu_heads_the_undo_rule_as_a_noun_and_the_keys_help_names_f(client, lang, heading, keys):
    page = client.get(f"/play/penguin?lang={lang}").text
    label = re.search(r'<label class="row select-row" for="undo-mode">\s*<span class="switch-label">([^<]*)<small>', page)
    assert label and label.group(1) == heading
    help_text = re.search(r'<p id="keys-help" class="keys-help">(.*?)</p>', page, re.S).group(1)
    assert keys in help_text


def test_an_empty_column_says_only_a_rank_in_each_language(client):
    assert page_catalog(client, "/play/penguin?lang=fr")["only {rank}"] == "{rank} uniquement"
    assert page_catalog(client, "/play/penguin?lang=nl")["only {rank}"] == "alleen {rank}"


def test_penguins_words_say_flipper(client):
    catalog = {entry["id"]: entry for entry in client.get("/api/catalog").json()}
    assert all(catalog[game]["traits"]["cells"] == "flippers" for game in catalog if game.startswith("penguin"))
    assert all(catalog[game]["traits"]["cells"] == "cells" for game in ("freecell", "eight-off", "bakers-game"))
    fr = page_catalog(client, "/play/penguin?lang=fr")
    assert fr["Move {card} to a flipper."] == "Mettez {card} sur une nageoire."
    assert page_catalog(client, "/play/penguin?lang=nl")["Flipper {n}, empty"] == "Vin {n}, leeg"


@pytest.mark.parametrize("path", ["/daily", "/challenge/abcdefghijklmnop"])
def test_the_daily_and_challenge_pages_leave_the_ranking_rule_to_each_game(client, path):
    for lang in i18n.LOCALES:
        page = client.get(f"{path}?lang={lang}").text
        lead = re.search(r'<p (?:id="challenge-about" )?class="lead">(.*?)</p>', page, re.S).group(1)
        assert "rank by time" not in lead and "se classent" not in lead and "gerangschikt op" not in lead, lead
        assert 'id="ranking-rule"' in page
    messages = page_catalog(client, f"{path}?lang=fr")
    assert (
        "score de vitesse"
        in messages["Wins rank by speed score (from the moves and the time), then by time and moves; the rest by cards left."]
    )


def entries(lang: str):
    from babel.messages.pofile import read_po

    with open(i18n.LOCALE_DIR / lang / "LC_MESSAGES" / "messages.po", "rb") as handle:
        for message in read_po(handle):
            if message.id:
                yield from (message.string if isinstance(message.string, tuple) else (message.string,))


def test_dutch_says_bij_een_uitdaging_and_oplossing():
    for text in entries("nl"):
        assert "aan een uitdaging" not in text and "winnende lijn" not in text and "plak hem" not in text, text


def test_french_puts_a_no_break_space_before_high_punctuation():
    for text in entries("fr"):
        assert not re.search(r" [:;?!](\s|$)", text), text
        assert "« " not in text and " »" not in text, text


def test_french_elides_de_before_a_vowel_in_the_servers_sentences():
    message = i18n.N_("this name has played today's {game} Daily already: one attempt per name and day", game="Eight Off")
    assert "la donne du jour d'Eight Off" in message.translate("fr")
    assert "de Black Hole" in i18n.N_(
        "this name has played today's {game} Daily already: one attempt per name and day", game="Black Hole"
    ).translate("fr")
    assert "{game}" not in message.translate("nl") and "Eight Off" in message.translate("nl")
