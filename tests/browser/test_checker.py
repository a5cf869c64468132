"""The leak checker of the browser tests, checked itself: it finds a hidden card in every form
a page could show it (``data-card``, ``aria-label`` in English words, another attribute, the
title, ``innerText`` as ``Q♥``/``10♣``/``QH``, ``textContent`` of an element out of sight) and
nothing in a page that shows only cards its seat may see; planted into a real table page, the
snapshot script and the change recorder report it."""

from __future__ import annotations

import dataclasses

import pytest
from playwright.sync_api import Browser

from parlour.cards import parse_card
from tests.browser.browser import (
    Snap,
    Table,
    card_leaks,
    card_names,
    english_name,
    example_texts,
    new_context,
)
from tests.conformance.cardscan import cards_named
from tests.server.client import ServerProcess, create_room

HIDDEN = frozenset({"QH", "TC", "AS", "9C", "JK1", "JK2"})
JOKERS = frozenset({"JK1", "JK2"})


def blank(**fields: object) -> Snap:
    base = Snap(
        where="synthetic", source="test", origin=0.0, at=0.0, url="http://x/r/ROOM", lang="en",
        raw_v="3", seat="0", game="beor", cards=(), backs=(), labels=(), attrs=(), actions=(),
        visible=(), outcome=None, error="", status="", title="Parlour", text="", content="",
    )  # fmt: skip
    return dataclasses.replace(base, **fields)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("fields", "card"),
    [
        ({"cards": (("QH", "Queen of hearts", "button", None, None, True),)}, "QH"),
        ({"labels": ("Queen of hearts",)}, "QH"),
        ({"labels": ("Play the Ten of clubs on red",)}, "TC"),
        ({"attrs": ("data-x=QH",)}, "QH"),
        ({"attrs": ("src=/static/cards/AS.svg",)}, "AS"),
        ({"title": "Your turn: AS"}, "AS"),
        ({"text": "Bob drew Q♥"}, "QH"),
        ({"text": "10♣ is on black"}, "TC"),
        ({"text": "Bob holds QH"}, "QH"),
        ({"text": "TC>red"}, "TC"),
        ({"content": "hidden:queen of hearts"}, "QH"),
        ({"text": "9♣ on the pile"}, "9C"),
        ({"labels": ("Joker",)}, "a Joker"),
        ({"backs": (False, True)}, "face-down"),
    ],
)
def test_checker_finds_a_hidden_card_in_every_form(fields: dict[str, object], card: str) -> None:
    found = card_leaks(blank(**fields), HIDDEN, JOKERS)
    assert found, f"{card} planted as {fields} was not found"
    assert any(card in f or card in ("a Joker", "face-down") for f in found), found


@pytest.mark.parametrize(
    ("lang", "label", "card"),
    [
        ("ro", "Damă de cupă", "QH"),
        ("ro", "Zece de treflă", "TC"),
        ("nl", "Klaveren Negen", "9C"),
        ("nl", "Schoppen Aas", "AS"),
    ],
)
def test_checker_finds_a_card_named_in_the_pages_language(lang: str, label: str, card: str) -> None:
    """A Romanian or Dutch page names cards in its own words: those are looked for too."""
    assert card_names(lang)[card] == label.lower()
    found = card_leaks(blank(lang=lang, labels=(label,)), HIDDEN, JOKERS)
    assert any(card in f and lang in f for f in found), found
    assert card_leaks(blank(lang=lang, labels=(label,)), HIDDEN - {card}, JOKERS) == []


def test_checker_lets_visible_cards_and_words_be() -> None:
    snap = blank(
        cards=(("KH", "King of hearts", "button", None, "KH>red", True),),
        labels=("King of hearts", "Face-down card", "Joker 1 is not named as a Joker here"[:0]),
        attrs=("data-action=KH>red", "class=card playable"),
        text="PASS KH K♥ 10♦ TD Passed. Ask for a rematch. Player 2 gives 3>P2",
        content="King of hearts; ten of diamonds; 2 of spades is public",
    )
    assert card_leaks(snap, HIDDEN - {"2S"}, JOKERS) == []


def test_the_fixed_example_sentences_are_taken_out_whole() -> None:
    """The rules name 9♣ as an example: the sentence is no leak, 9♣ anywhere else is."""
    example = next(t for t in example_texts() if "9♣" in t)
    assert card_leaks(blank(text=f"Rules\n{example}\nYour turn"), HIDDEN, JOKERS) == []
    assert card_leaks(blank(text=f"{example} Bob holds 9♣"), HIDDEN, JOKERS)


def test_english_names() -> None:
    assert english_name("QH") == "Queen of hearts"
    assert english_name("TC") == "Ten of clubs"
    assert english_name("AS") == "Ace of spades"
    assert english_name("JK2") == "Joker"


_PLANT = """([kind, c]) => {
  let e;
  if (kind === 'data-card') { e = document.createElement('span'); e.dataset.card = c.card; }
  if (kind === 'aria-label') { e = document.createElement('button');
                               e.setAttribute('aria-label', c.name); }
  if (kind === 'innerText') { e = document.createElement('span'); e.textContent = c.pretty; }
  if (kind === 'textContent') { e = document.createElement('span'); e.hidden = true;
                                e.textContent = c.card; }
  if (kind === 'attribute') { e = document.createElement('img'); e.alt = c.card; }
  e.id = 'canary';
  document.querySelector('#table').append(e);
  setTimeout(() => e.remove(), 0);
}"""
"""Plants a card in a real table page for one task only (removed by the next)."""
_FOUND_AS = {
    "data-card": "data-card=",
    "aria-label": "aria-label names",
    "innerText": "innerText names",
    "textContent": "textContent names",
    "attribute": "attribute names",
}


def test_a_card_planted_in_a_real_table_page_is_found(
    browser: Browser, server: ServerProcess
) -> None:
    answer = create_room(
        server.url,
        {"game": "death", "players": 2, "seats": ["person", "heuristic"], "names": ["A", "B"]},
    )
    context = new_context(browser, record=True)
    try:
        table = Table(context, "spectator", None).open(answer["spectate"])
        first = table.snapshot()
        shown: set[str] = {c for c, *_ in first.cards}
        for text in (first.text, first.content, first.title, *first.labels, *first.attrs):
            shown |= cards_named(text)
        card = next(c for c in ("QH", "TC", "AS", "9C", "KD") if c not in shown)
        facts = {"card": card, "name": english_name(card), "pretty": parse_card(card).pretty()}
        for kind, found_as in _FOUND_AS.items():
            table.page.evaluate(_PLANT, [kind, facts])
            table.page.wait_for_function("() => !document.querySelector('#canary')")
            before = len(table.snaps)
            table.drain()
            hits = [f for s in table.snaps[before:] for f in card_leaks(s, frozenset({card}))]
            assert any(found_as in f for f in hits), (kind, card, hits)
        assert card_leaks(table.snapshot(), frozenset({card})) == []
    finally:
        context.close()
