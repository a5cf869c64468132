"""Every refusal a person meets typing or clicking a move, or entering a penalty at the table,
in BEOR, the Game of Death and Beggar-My-Neighbour: the error carries its catalog key and
values, its message is the English a person has always read, and a front end speaking Romanian
or Dutch says the sentence of that language's catalog (:meth:`Presenter.refusal`), not the
English.

Each game's cases together raise every ``refusal.*`` key its modules say (``said(...)``), so a
refusal added later without a case here fails :func:`test_every_refusal_said_has_a_case`.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

import pytest

from parlour.cards import Card, parse_card
from parlour.core.game import Action, State
from parlour.errors import ParlourError, Value
from parlour.games import GAMES
from parlour.games.beggar import fast as beggar_fast
from parlour.games.beor.notation import BASES, Move, fits
from parlour.games.beor.view import BeorView
from tests.games.beggar.rules_text_helpers import build_deal as beggar_deal
from tests.games.beggar.rules_text_helpers import new as beggar_new
from tests.games.beor.helpers import make_deal as beor_deal
from tests.games.beor.helpers import new as beor_new
from tests.games.death.rules_text_helpers import build_deal as death_deal
from tests.games.death.rules_text_helpers import new as death_new
from tests.games.test_words import _game_sources, said_calls

OTHER_LANGUAGES = ("ro", "nl")


@dataclass(frozen=True)
class Case:
    """``text`` typed at the position ``state`` makes (or ``action`` played there), as a move
    or, with ``entry``, a table entry by seat ``by``: refused with ``key`` and ``values``,
    saying ``english``."""

    game: str
    state: Callable[[], State]
    text: str
    key: str
    values: dict[str, Value]
    english: str
    entry: bool = False
    by: int | None = None
    action: Action | None = None
    call: Callable[[], object] | None = None  # a refusal outside play (a simulation's options)

    @property
    def id(self) -> str:
        return f"{self.game}:{self.key}:{self.text}"

    def attempt(self, state: State) -> State:
        if self.call is not None:
            self.call()
            return state
        if self.entry:
            return state.apply_table(self.text, by=self.by)
        if self.action is not None:
            return state.apply(self.action)
        state.parse_action(self.text)
        return state

    def refuse(self) -> ParlourError:
        state = self.state()
        with pytest.raises(ParlourError) as refused:
            self.attempt(state)
        return refused.value


# -- BEOR ---------------------------------------------------------------------------------------


def _beor() -> State:
    # Bases 2S (black) 4H (even) 7C (odd) TD (red); Player 1 is to move.
    return beor_new(beor_deal(["3S 5S 9H 4C 7D QH", "2H 3H 5H 6H 8H JH", "2C 3C 5C 6C 8C JC"]))


@cache
def _beor_empty_stock() -> tuple[State, str, Card, str]:
    """A position of a seeded game in which a stock is empty: the state, the base of the
    empty stock, a card of the player to move that fits that base, and a move of his 4 or 7
    onto another base drawing from the empty stock."""
    game = GAMES["beor"]
    for seed in range(100):
        rng = random.Random(seed)
        state = game.new(2, seed)
        while not state.is_over:
            view = state.view(state.to_move)
            assert isinstance(view, BeorView) and view.hand is not None
            sizes = [s.size for s in view.stocks]
            for b in (i for i, size in enumerate(sizes) if not size):
                fitting = [c for c in view.hand if fits(c, b)]
                draws = [
                    f"{c}>{BASES[o]}/{BASES[b]}"
                    for c in view.hand
                    if c.rank.letter in "47"
                    for o in range(4)
                    if o != b and sizes[o] and fits(c, o)
                ]
                if fitting and draws:
                    return state, BASES[b], fitting[0], draws[0]
            state = state.apply(rng.choice(state.legal_actions()))
    raise AssertionError("no seeded game reached an empty stock with the cards wanted")


def _beor_cases() -> list[Case]:
    cases = [
        Case("beor", _beor, "3S", "refusal.notation", {"text": "'3S'"},
             "'3S' is not a BEOR action: write CARD>BASE or CARD>BASE/STOCK, e.g. 7H>red or "
             "7H>red/black"),
        Case("beor", _beor, "3S>x", "refusal.not_a_base", {"text": "'x'"},
             "'x' is not a base: write black, even, odd or red"),
        Case("beor", _beor, "ZZ>red", "refusal.card", {"text": "'ZZ'"},
             "'ZZ' is not a card: write rank A 2-9 T J Q K then suit S H D C, e.g. AS, TH, 7C "
             "(or JK1, JK2)"),
        Case("beor", _beor, "KC>red", "refusal.not_in_hand", {"card": "KC", "player": 1},
             "KC is not in Player 1's hand"),
        Case("beor", _beor, "9H>black", "refusal.fits.black", {"card": "9H"},
             "9H cannot go on black: 9H is red (B4)"),
        Case("beor", _beor, "3S>red", "refusal.fits.red", {"card": "3S"},
             "3S cannot go on red: 3S is black (B4)"),
        Case("beor", _beor, "9H>even", "refusal.fits.even", {"card": "9H", "rank": "9"},
             "9H cannot go on even: 9 is odd (B4)"),
        Case("beor", _beor, "QH>odd", "refusal.fits.odd", {"card": "QH", "rank": "Q"},
             "QH cannot go on odd: Q is even (B4)"),
        Case("beor", _beor, "3S>black/red", "refusal.draw_other", {},
             "only a 4 or 7 may draw from another stock (B7)"),
        # A move no typed text makes (its stock is its base's, which the notation drops).
        Case("beor", _beor, "3S>black/black", "refusal.not_legal",
             {"text": "'3S>black/black'"}, "'3S>black/black' is not legal here",
             action=Move(parse_card("3S"), 0, 0)),
    ]  # fmt: skip
    _, empty, card, draw = _beor_empty_stock()
    cases += [
        Case("beor", lambda: _beor_empty_stock()[0], f"{card}>{empty}", "refusal.no_stock",
             {"base": empty}, f"{empty} has no stock left (B4)"),
        Case("beor", lambda: _beor_empty_stock()[0], draw, "refusal.no_stock_draw",
             {"base": empty}, f"{empty} has no stock left to draw from (B7)"),
    ]  # fmt: skip
    return cases


# -- the Game of Death --------------------------------------------------------------------------


def _death(**options: object) -> Callable[[], State]:
    # Player 1 holds 2D and is to move; Player 2 holds 4C 9S, which do not follow 2D.
    return lambda: death_new(death_deal("2D 3D AS 7H 9H", "4C 9S", rest=2), options)


def _death_after_2d() -> State:
    return _death()().apply("2D")


def _death_giving() -> State:
    # Player 1 opened with 2D, the others could not follow; he leads AS and gives 20 (G5).
    state = death_new(death_deal("2D AS 3H", "4C 9S", "5C 6S", rest=0))
    for move in ("2D", "pass", "pass", "AS"):
        state = state.apply(move)
    return state


def _death_over() -> State:
    rng = random.Random(1)
    state = GAMES["death"].new(3, 1)
    while not state.is_over:
        state = state.apply(rng.choice(state.legal_actions()))
    return state


def _death_cases() -> list[Case]:
    d = "death"
    return [
        Case(d, _death(), "xx", "refusal.notation", {"text": "'xx'"},
             "'xx' is not an action of the Game of Death: write a card (7C), pass or give N>Pk"),
        Case(d, _death(), "doh P2", "refusal.notation.table", {"text": "'doh P2'"},
             "'doh P2' is not an action of the Game of Death: write a card (7C), pass or give "
             "N>Pk (doh, delay and illegal are table entries, G13)"),
        Case(d, _death(), "give 0>P1", "refusal.count_from_1", {"text": "'give 0>P1'"},
             "'give 0>P1': drinks and player numbers count from 1"),
        Case(d, _death(), "3D", "refusal.opening", {}, "the holder of 2D throws it first (G1)"),
        Case(d, _death(), "QH", "refusal.not_in_hand", {"card": "QH", "player": 1},
             "QH is not in Player 1's hand"),
        Case(d, _death(), "pass", "refusal.must_throw", {}, "you must throw when you can (G2)"),
        Case(d, _death(), "give 3>P2", "refusal.give.none", {},
             "there are no drinks to give: only a black face card gives (G5)"),
        Case(d, _death(), "give 1>P9", "refusal.no_player", {"player": 9, "players": 3},
             "there is no Player 9: the players are 1 to 3"),
        Case(d, _death_after_2d, "9S", "refusal.not_following", {"card": "9S", "top": "2D"},
             "9S does not follow 2D: neither suit nor rank (G2)"),
        Case(d, _death_giving, "give 3>P1", "refusal.give.self", {"player": 1},
             "Player 1 cannot give drinks to himself (G5)"),
        Case(d, _death_giving, "give 25>P2", "refusal.give.left", {"count": 20},
             "only 20 drinks are left to give (G5)"),
        Case(d, _death_giving, "3H", "refusal.give.first", {"count": 20, "player": 1},
             "Player 1 must first give 20 drinks (G5)"),
        # Table entries (G13).
        Case(d, _death(), "dohh", "refusal.entry.notation", {"text": "'dohh'"},
             "'dohh' is not a table entry of the Game of Death: write doh Pk, delay Pk or "
             "illegal CARD (G13)", entry=True, by=0),
        Case(d, _death(), "doh 0>P2", "refusal.count_from_1", {"text": "'doh 0>P2'"},
             "'doh 0>P2': drinks and player numbers count from 1", entry=True, by=0),
        Case(d, _death(), "doh 2>P2", "refusal.penalty.one_drink.doh",
             {"text": "'doh 2>P2'", "drinks": 2},
             "'doh 2>P2': a D'oh! penalty is one drink, not 2 (G13)", entry=True, by=0),
        Case(d, _death(), "delay 3>P2", "refusal.penalty.one_drink.delay",
             {"text": "'delay 3>P2'", "drinks": 3},
             "'delay 3>P2': a delay of game penalty is one drink, not 3 (G13)",
             entry=True, by=0),
        Case(d, _death(), "doh P9", "refusal.penalty.no_player", {"player": 9, "players": 3},
             "there is no Player 9: the players are 1 to 3 (G13)", entry=True, by=0),
        Case(d, _death(), "doh P2", "refusal.penalty.majority.doh",
             {"player": 2, "others": 2, "count": 1},
             "a D'oh! penalty on Player 2 needs a majority of the other 2 players, and 1 voted "
             "for it (G13)", entry=True, by=0),
        Case(d, _death(), "delay P3", "refusal.penalty.majority.delay",
             {"player": 3, "others": 2, "count": 1},
             "a delay of game penalty on Player 3 needs a majority of the other 2 players, and "
             "1 voted for it (G13)", entry=True, by=0),
        Case(d, _death(illegal_throw_penalty=False), "illegal 7H", "refusal.show.off", {},
             "the illegal throw penalty is off (option illegal_throw_penalty, G13)",
             entry=True, by=0),
        Case(d, _death(), "illegal 7H", "refusal.show.by", {"player": 1, "by": 2},
             "an illegal throw is entered by Player 1, the player to move, or a referee, not "
             "by Player 2 (G13)", entry=True, by=1),
        Case(d, _death_giving, "illegal 3H", "refusal.give.first", {"count": 20, "player": 1},
             "Player 1 must first give 20 drinks (G5)", entry=True, by=0),
        Case(d, _death(), "illegal QH", "refusal.show.not_in_hand",
             {"card": "QH", "player": 1}, "QH is not in Player 1's hand (G13)",
             entry=True, by=0),
        Case(d, _death(), "illegal 2D", "refusal.show.legal", {"card": "2D"},
             "2D is a legal throw, not an illegal one (G13)", entry=True, by=0),
        Case(d, _death(), "illegal zz", "refusal.card", {"text": "'zz'"},
             "'zz' is not a card: write rank A 2-9 T J Q K then suit S H D C, e.g. AS, TH, 7C "
             "(or JK1, JK2)", entry=True, by=0),
        Case(d, _death_over, "doh P1", "refusal.over.entry", {"text": "'doh P1'"},
             "the game is over: 'doh P1' cannot be entered (G12, G13)", entry=True, by=0),
    ]  # fmt: skip


# -- Beggar-My-Neighbour ------------------------------------------------------------------------


def _beggar() -> State:
    return beggar_new(beggar_deal("", ""))


def _beggar_cases() -> list[Case]:
    return [
        Case("beggar", _beggar, text, "refusal.only_play", {"text": repr(text)},
             f"{text!r} is not an action of Beggar-My-Neighbour: the only action is 'play', "
             "turn your top card (the game has no decisions)")
        for text in ("pass", "7H")
    ] + [
        Case("beggar", _beggar, "time", "refusal.time.no_limit", {},
             "this game has no agreed time (option time_limit), so its time cannot run out (M12)",
             entry=True),
        Case("beggar", _beggar_timed_over, "time", "refusal.time.over", {},
             "the game is over: the agreed time cannot run out after the end (M12)", entry=True),
        Case("beggar", _beggar_timed, "times", "refusal.entry", {"text": "'times'"},
             "'times' is not a table entry of Beggar-My-Neighbour: its one entry is 'time', "
             "made by the table when the agreed time runs out (M12)", entry=True),
        Case("beggar", _beggar, "time_limit=5", "refusal.no_clock", {},
             "simulations have no clock: the agreed time (option time_limit, M12) is for tables "
             "with people; use card_limit to stop long games (M11)",
             call=lambda: beggar_fast.play_random(2, 1, 0, {"time_limit": 5})),
    ]  # fmt: skip


def _beggar_timed() -> State:
    return beggar_new(beggar_deal("", ""), {"time_limit": 5}).apply("play")


def _beggar_timed_over() -> State:
    return _beggar_timed().apply_table("time")


CASES = [*_beor_cases(), *_death_cases(), *_beggar_cases()]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_a_refusal_carries_its_key_and_its_english_is_as_it_was(case: Case) -> None:
    err = case.refuse()
    assert (err.key, err.values) == (case.key, case.values)
    assert str(err) == case.english
    game = GAMES[case.game]
    assert game.presenter.speaking(game.words("en")).refusal(err) == case.english


@pytest.mark.parametrize("lang", OTHER_LANGUAGES)
@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_a_refusal_is_said_in_the_language_spoken(case: Case, lang: str) -> None:
    err = case.refuse()
    game = GAMES[case.game]
    words = game.words(lang)
    assert case.key in words.entries, f"{lang} has no {case.key}"
    values = dict(err.values)
    count = values.pop("count", None)
    expected = words(case.key, count if isinstance(count, int) else None, **values)
    said = game.presenter.speaking(words).refusal(err)
    assert said == expected
    assert said != case.english
    for value in values.values():  # what the person typed, the card, the player ...
        assert str(value) in said


def test_refusals_read_as_a_native_writes_them() -> None:
    # A few sentences exactly as a person reads them.
    by_id = {c.id: c for c in CASES}
    death = GAMES["death"]
    err = by_id["death:refusal.no_player:give 1>P9"].refuse()
    assert death.presenter.speaking(death.words("ro")).refusal(err) == (
        "nu există Jucătorul 9: jucătorii sunt numerotați de la 1 la 3"
    )
    assert death.presenter.speaking(death.words("nl")).refusal(err) == (
        "er is geen Speler 9: de spelers zijn 1 tot en met 3"
    )
    beor = GAMES["beor"]
    err = by_id["beor:refusal.fits.even:9H>even"].refuse()
    assert beor.presenter.speaking(beor.words("ro")).refusal(err) == (
        "9H nu poate merge pe par: 9 e impar (B4)"
    )
    assert beor.presenter.speaking(beor.words("nl")).refusal(err) == (
        "9H kan niet op even: 9 is oneven (B4)"
    )


@pytest.mark.parametrize("game", ["beor", "death", "beggar"])
def test_every_refusal_said_has_a_case(game: str) -> None:
    english = GAMES[game].words("en").entries
    said: set[str] = set()
    for path in _game_sources(game):
        for _, keys, _ in said_calls(path.read_text(encoding="utf-8")):
            assert keys is not None
            for key in keys:
                starts = key[:-1] if key.endswith("*") else None
                said |= {k for k in english if k.startswith(starts)} if starts else {key}
    met = {c.key for c in CASES if c.game == game}
    assert sorted(said - met) == []
