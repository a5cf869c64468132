"""Every refusal a person meets typing or clicking a move of Crazy Eights: the error carries
its key of the game's catalog (``refusal.*`` in ``words/``) and its values, its message is the
English it has always been, and a front end speaking Romanian or Dutch says the sentence of
that language's catalog (:meth:`Presenter.refusal`), not the English. The cases together raise
every ``refusal.*`` key of the catalog."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

import pytest

from parlour.cards import Rank, parse_card
from parlour.core.game import State
from parlour.errors import IllegalAction, InvalidNotation, ParlourError, Value
from parlour.games import GAMES
from parlour_crazy_eights.notation import CARDS, Nominate, Play, parse_action
from parlour_crazy_eights.rules import C8State

GAME = GAMES["crazy-eights"]
HELP = (
    "write a card to play it (7H, 10♥), draw, pass, or after an 8 the suit to name "
    "(clubs, diamonds, hearts, spades)"
)


def _deal(hands: list[str], starter: str, options: Mapping[str, object] | None = None) -> C8State:
    """A game of hand-made hands (padded from the deck, eights last) and starter; the dealer
    is the last seat, so Player 1 plays first."""
    n = len(hands)
    given = [[parse_card(c) for c in h.split()] for h in hands]
    used = {c for h in given for c in h} | {parse_card(starter)}
    rest = [c for c in CARDS if c not in used and c.rank is not Rank.EIGHT]
    rest += [c for c in CARDS if c not in used and c.rank is Rank.EIGHT]
    for h in given:
        while len(h) < (7 if n == 2 else 5):
            h.append(rest.pop(0))
    deal = {
        "dealer": n - 1,
        "hands": [[str(c) for c in h] for h in given],
        "turned": [],
        "starter": starter,
        "stock": [str(c) for c in rest],
    }
    state = GAME.new(n, 0, options, deal=deal)
    assert isinstance(state, C8State) and state.to_move == 0
    return state


def _start(options: Mapping[str, object] | None = None) -> C8State:
    # Player 1 holds 7H 2C 8S 3D against the starter 7D (diamonds to follow).
    return _deal(["7H 2C 8S 3D QD", "3S 4S 5S 6S 9S"], "7D", options)


def _after_an_eight() -> State:
    return _start().apply("8S")


def _drawn_out() -> State:
    state: State = _start()
    for _ in range(5):
        state = state.apply("draw")
    return state


def _no_stock() -> State:
    # With max_draw_cards 52 Player 1 draws the whole stock in his turn.
    state = _start({"max_draw_cards": 52})
    while state.stock:
        state = state.apply("draw")
    assert state.to_move == 0 and len(state.hands[0]) == 52 - 1 - 7
    return state


def _top(starter: str) -> Callable[[], State]:
    """Player 1 holds 2C 3D 4H 5S against ``starter`` (a 9 of the suit to follow)."""
    return lambda: _deal(["2C 3D 4H 5S QD", "TC TD TH TS JS"], starter)


@dataclass(frozen=True)
class Case:
    """``text`` typed at the position ``state`` makes: refused with ``key`` and ``values``,
    saying ``english``."""

    state: Callable[[], State]
    text: str
    key: str
    values: dict[str, Value]
    english: str

    def refuse(self) -> ParlourError:
        with pytest.raises(ParlourError) as refused:
            self.state().parse_action(self.text)
        return refused.value


CASES = [
    Case(_start, "xx", "refusal.notation", {"text": "'xx'"},
         f"'xx' is not a Crazy Eights action: {HELP}"),
    Case(_start, "JK1", "refusal.notation", {"text": "'JK1'"},
         f"'JK1' is not a Crazy Eights action: {HELP}"),
    Case(_start, "hearts", "refusal.suit_after_eight", {"text": "'hearts'"},
         "'hearts': a suit is named only right after playing an 8"),
    Case(_after_an_eight, "2C", "refusal.name_suit_first", {"text": "'2C'"},
         "'2C': name the suit to follow first (clubs, diamonds, hearts, spades)"),
    Case(_start, "pass", "refusal.pass", {"count": 5},
         "you may pass only after drawing 5 cards or when the stock is empty"),
    Case(_drawn_out, "draw", "refusal.draw.limit", {"count": 5},
         "you have drawn 5 cards this turn (max_draw_cards): play or pass"),
    Case(_no_stock, "draw", "refusal.draw.empty", {},
         "the stock is empty: play a card or pass"),
    Case(_start, "9S", "refusal.not_in_hand", {"card": "9♠"}, "9♠ is not in your hand"),
    Case(_start, "2C", "refusal.not_following.diamonds",
         {"card": "2♣", "top": "7♦", "rank": "7"},
         "2♣ does not follow 7♦: play a diamonds card, a card of rank 7, or an 8"),
    Case(_top("9C"), "3D", "refusal.not_following.clubs",
         {"card": "3♦", "top": "9♣", "rank": "9"},
         "3♦ does not follow 9♣: play a clubs card, a card of rank 9, or an 8"),
    Case(_top("9H"), "2C", "refusal.not_following.hearts",
         {"card": "2♣", "top": "9♥", "rank": "9"},
         "2♣ does not follow 9♥: play a hearts card, a card of rank 9, or an 8"),
    Case(_top("9S"), "4H", "refusal.not_following.spades",
         {"card": "4♥", "top": "9♠", "rank": "9"},
         "4♥ does not follow 9♠: play a spades card, a card of rank 9, or an 8"),
]  # fmt: skip


def _ids(case: Case) -> str:
    return f"{case.key}:{case.text}"


@pytest.mark.parametrize("case", CASES, ids=_ids)
def test_a_refusal_carries_its_key_and_its_english_is_as_it_was(case: Case) -> None:
    err = case.refuse()
    assert (err.key, err.values) == (case.key, case.values)
    assert str(err) == case.english
    assert GAME.presenter.speaking(GAME.words("en")).refusal(err) == case.english


def _said_in(lang: str, err: ParlourError) -> str:
    return GAME.presenter.speaking(GAME.words(lang)).refusal(err)


@pytest.mark.parametrize("lang", ["ro", "nl"])
@pytest.mark.parametrize("case", CASES, ids=_ids)
def test_a_refusal_is_said_in_the_language_spoken(case: Case, lang: str) -> None:
    err = case.refuse()
    words = GAME.words(lang)
    assert case.key in words.entries, f"{lang} has no {case.key}"
    values = dict(err.values)
    count = values.pop("count", None)
    said = _said_in(lang, err)
    assert said == words(case.key, count if isinstance(count, int) else None, **values)
    assert said != case.english
    for value in values.values():  # what the person typed, the cards
        assert str(value) in said


def test_refusals_read_as_a_native_writes_them() -> None:
    by_key = {(c.key, c.text): c for c in CASES}
    err = by_key["refusal.not_following.diamonds", "2C"].refuse()
    assert _said_in("ro", err) == (
        "2♣ nu se potrivește cu 7♦: joacă un caro, o carte de rang 7 sau un opt"
    )
    assert _said_in("nl", err) == (
        "2♣ past niet op 7♦: speel ruiten, een kaart met waarde 7 of een acht"
    )
    err = by_key["refusal.draw.limit", "draw"].refuse()
    assert _said_in("ro", err) == (
        "ai tras deja 5 cărți tura aceasta (max_draw_cards): joacă sau treci"
    )
    assert _said_in("nl", err) == (
        "je hebt deze beurt al 5 kaarten gepakt (max_draw_cards): speel of pas"
    )


def test_one_card_drawn_is_said_in_the_singular() -> None:
    # max_draw_cards 1: the number picks the plural form in every language.
    state: State = _start({"max_draw_cards": 1})
    with pytest.raises(IllegalAction) as refused:
        state.parse_action("pass")
    err = refused.value
    assert (err.key, err.values) == ("refusal.pass", {"count": 1})
    assert str(err) == "you may pass only after drawing 1 card or when the stock is empty"
    assert _said_in("ro", err) == "poți trece doar după ce ai tras o carte sau când talonul e gol"
    with pytest.raises(IllegalAction) as refused:
        state.apply("draw").parse_action("draw")
    err = refused.value
    assert str(err) == "you have drawn 1 card this turn (max_draw_cards): play or pass"
    assert _said_in("nl", err) == (
        "je hebt deze beurt al 1 kaart gepakt (max_draw_cards): speel of pas"
    )


def test_the_notations_own_refusals_carry_their_keys() -> None:
    # What parse_action and the actions refuse when called with no text, a Joker or no suit.
    with pytest.raises(InvalidNotation) as refused:
        parse_action(5)  # type: ignore[arg-type]
    err = refused.value
    assert (err.key, err.values, str(err)) == (
        "refusal.not_text",
        {"text": "5"},
        "an action is written as text, got 5",
    )
    assert _said_in("ro", err) == "o mutare se scrie ca text, nu 5"
    with pytest.raises(InvalidNotation) as refused:
        Play(parse_card("JK1"))
    err = refused.value
    assert (err.key, str(err)) == ("refusal.no_jokers", "Crazy Eights is played without Jokers")
    assert _said_in("nl", err) == "Crazy Eights wordt zonder jokers gespeeld"
    with pytest.raises(InvalidNotation) as refused:
        Nominate("H")  # type: ignore[arg-type]
    err = refused.value
    assert (err.key, str(err)) == (
        "refusal.no_suit",
        "a suit named is clubs, diamonds, hearts or spades",
    )
    assert _said_in("ro", err) == "culoarea aleasă poate fi treflă, caro, cupă sau pică"
    # Both are still ValueErrors, as they were.
    with pytest.raises(ValueError, match="without Jokers"):
        Play(parse_card("JK2"))


def test_every_refusal_of_the_catalog_has_a_case() -> None:
    english = GAME.words("en").entries
    keys = {k for k in english if k.startswith("refusal.")}
    met = {c.key for c in CASES} | {"refusal.not_text", "refusal.no_jokers", "refusal.no_suit"}
    assert sorted(keys - met) == []
    assert sorted(met - keys) == []
