"""BEOR properties (hypothesis): random playouts checked step by step against the rules.

:func:`check_step` checks every action of a random playout against the rules (cards conserved,
the play and the draw, the goal, losses, restocks, legal actions; B4-B11), :class:`Knowledge`
checks that views and events leak nothing (Common, "Public information"), and the tests add
replay equality and a check that the playouts reach restocks, losses, wins and draws. The
oracles are :mod:`.rules_oracles`, never the engine.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from parlour.core import State

from .rules_oracles import (
    BASES,
    deck,
    expected_actions,
    fits,
    is_goal,
    is_joker,
    kept_base,
    round_robin_sizes,
)
from .rules_text_helpers import (
    GAME,
    all_cards,
    cards_named,
    event_cards,
    js,
    kinds,
    loss3,
    new,
)

# -- properties -------------------------------------------------------------------------------


def check_step(
    before: Mapping[str, Any], action: str, after: State, options: Mapping[str, Any]
) -> None:
    """One action of any game, checked against the rules: cards conserved (B11), the play and
    the draw (B4, B6, B7), the goal (B5), losses and the next seat (B8), restocks (B9), hands of
    6 for the players still in, and the legal actions that follow."""
    data = js(after)
    players = len(data["hands"])
    mover = before["to_move"]
    card, target = action.split(">")
    base, _, other = target.partition("/")
    source = other or base
    assert all_cards(data) == sorted(deck(players))

    # The play and the draw (B6 flip before the draw, B7 another stock).
    cards = list(before["stocks"][source]["cards"])
    face_up = before["stocks"][source]["face_up"]
    if card[0] in "38" and not is_joker(card):
        face_up = not face_up
        if options.get("flip_reverses_order", True):
            cards.reverse()
    drawn = cards[0]
    mine = list(before["hands"][mover])
    mine.remove(card)
    assert sorted(data["hands"][mover]) == sorted([*mine, drawn])

    restocked = "restocked" in kinds(after)
    piles = {b: list(before["bases"][b]) for b in BASES}
    piles[base].insert(0, card)
    if not restocked:
        assert data["bases"] == piles
        for name in BASES:
            expected = {"cards": cards[1:], "face_up": face_up}
            if name != source:
                expected = before["stocks"][name]
            assert data["stocks"][name] == expected
        assert after.is_over or any(s["cards"] for s in data["stocks"].values())
    else:
        assert sum(len(s["cards"]) for s in before["stocks"].values()) == 1
        skip = options.get("restock_skip_jokers", True)
        kept = {b: kept_base(piles[b], b, skip) for b in BASES}
        assert data["bases"] == {b: [kept[b]] for b in BASES}
        rest = [c for b in BASES for c in piles[b] if c != kept[b]] + list(before["scrap"])
        stocked = [c for b in BASES for c in data["stocks"][b]["cards"]]
        assert sorted(stocked) == sorted(rest)
        assert [len(data["stocks"][b]["cards"]) for b in BASES] == round_robin_sizes(len(rest))
        assert not any(s["face_up"] for s in data["stocks"].values())

    # The goal (B5), losses and the turn (B8).
    assert data["out"][: len(before["out"])] == before["out"]
    newly_out = data["out"][len(before["out"]) :]
    if is_goal(data["hands"][mover]):
        assert (data["winner"], data["result"], newly_out) == (mover, "win", [])
    live = [b for b in BASES if data["stocks"][b]["cards"]]
    for seat in newly_out:
        assert not any(fits(c, b) for c in before["hands"][seat] for b in live)
        if players > 2:
            assert data["hands"][seat] == []
    if players > 2 and newly_out:
        scrap = ([] if restocked else list(before["scrap"])) + [
            c for s in newly_out for c in before["hands"][s]
        ]
        assert sorted(data["scrap"]) == sorted(scrap)
    still_in = [s for s in range(players) if s not in data["out"]]
    for seat in still_in:
        assert len(data["hands"][seat]) == 6
    if after.is_over:
        assert after.to_move is None and after.legal_actions() == ()
        if data["result"] == "win" and not is_goal(data["hands"][data["winner"]]):
            assert still_in == [data["winner"]]
    else:
        skipped, seat = [], mover
        for _ in range(players):
            seat = (seat + 1) % players
            if seat in newly_out:
                skipped.append(seat)
            elif seat not in before["out"]:
                break
        assert (after.to_move, skipped) == (seat, newly_out)
        assert data["to_move"] == seat
        assert {str(a) for a in after.legal_actions()} == expected_actions(data)
        assert expected_actions(data), "B8: a seat with no legal play loses at once"


class Knowledge:
    """What each seat may know (Common, "Public information"), over-estimated: every card ever on
    a base or on top of a face-up stock, every card drawn from a face-up stock, a winner's hand,
    and every card the seat itself has held (``held``: before the playout began)."""

    def __init__(self, data: Mapping[str, Any], held: Sequence[set[str]] = ()) -> None:
        self.public: set[str] = set()
        self.held: list[set[str]] = [set(h) for h in held] or [set() for _ in data["hands"]]
        self.update(data)

    def update(self, data: Mapping[str, Any], *shown: str | None) -> None:
        """Learn from a full state and the cards an action showed (played, drawn face up)."""
        self.public |= {c for pile in data["bases"].values() for c in pile}
        self.public |= {
            s["cards"][0] for s in data["stocks"].values() if s["face_up"] and s["cards"]
        }
        self.public |= {c for c in shown if c}
        if data["result"] == "win":  # the winner shows his hand
            self.public |= set(data["hands"][data["winner"]])
        for seat, h in enumerate(data["hands"]):
            self.held[seat] |= set(h)

    def check(self, state: State) -> None:
        data = js(state)
        spectator = state.view(None).to_json()
        assert cards_named(str(spectator)) | event_cards(state, None) <= self.public
        for seat in range(len(data["hands"])):
            view = state.view(seat).to_json()
            allowed = self.public | self.held[seat]
            assert cards_named(str(view)) <= allowed, (seat, cards_named(str(view)) - allowed)
            assert event_cards(state, seat) <= allowed
            assert sorted(view["hand"]) == sorted(data["hands"][seat])
            assert list(view["hand_sizes"]) == [len(h) for h in data["hands"]]
            assert list(view["out"]) == data["out"]
            assert view["to_move"] == data["to_move"]
            for name, entry in data["stocks"].items():
                shown = view["stocks"][name]
                top = entry["cards"][0] if entry["face_up"] and entry["cards"] else None
                assert (shown["size"], shown["face_up"], shown["top"]) == (
                    len(entry["cards"]),
                    entry["face_up"],
                    top,
                )


def _face_up_draw(before: Mapping[str, Any], action: str, reverse: bool) -> str | None:
    """The card drawn by ``action`` if it came off a face-up stock (public, B6)."""
    card, target = action.split(">")
    base, _, other = target.partition("/")
    entry = before["stocks"][other or base]
    face_up, cards = entry["face_up"], list(entry["cards"])
    if card[0] in "38" and not is_joker(card):
        face_up = not face_up
        cards = cards[::-1] if reverse else cards
    return cards[0] if face_up else None


def playout(
    state: State,
    rng: random.Random,
    options: Mapping[str, Any],
    drain: bool = False,
    views: bool = True,
    held: Sequence[set[str]] = (),
) -> tuple[list[str], list[dict[str, Any]], list[list[dict[str, Any]]]]:
    """Random legal play to the end, every step checked; the actions, states and events.

    ``drain`` prefers draws from the smallest stock, which empties stocks sooner (restocks and
    losses); ``held`` is what each seat held before ``state``."""
    actions, states, seen = [], [js(state)], []
    knowledge = Knowledge(states[0], held)
    while not state.is_over:
        before = states[-1]
        choices = [str(a) for a in state.legal_actions()]
        if drain and rng.random() < 0.8:
            sizes = {b: len(before["stocks"][b]["cards"]) for b in BASES}
            smallest = min(sizes[a.split(">")[1].split("/")[-1]] for a in choices)
            choices = [a for a in choices if sizes[a.split(">")[1].split("/")[-1]] == smallest]
        action = rng.choice(choices)
        state = state.apply(action)
        check_step(before, action, state, options)
        states.append(js(state))
        actions.append(action)
        seen.append([e.to_json() | {"audience": e.audience} for e in state.events])
        if views:
            reverse = options.get("flip_reverses_order", True)
            shown = (action.split(">")[0], _face_up_draw(before, action, reverse))
            knowledge.update(states[-1], *shown)
            knowledge.check(state)
    return actions, states, seen


OPTIONS = st.fixed_dictionaries(
    {
        "flip_reverses_order": st.booleans(),
        "restock_skip_jokers": st.booleans(),
        "max_turns": st.integers(40, 300),
    }
)


@pytest.mark.slow
class TestProperties:
    @settings(max_examples=36)
    @given(
        seed=st.integers(0, 2**32 - 1),
        players=st.sampled_from([2, 3, 4, 5]),
        options=OPTIONS,
        drain=st.booleans(),
    )
    def test_random_playouts_keep_the_rules(
        self, seed: int, players: int, options: dict[str, Any], drain: bool
    ) -> None:
        """Every action of a random game: 52 or 54 cards conserved (B11), hands of 6 for the
        players still in, the play and the draw (B4, B6, B7), the goal (B5), losses (B8),
        restocks (B9), legal actions, views and events that leak nothing."""
        state = GAME.new(players, seed, options=options)
        actions, states, _ = playout(state, random.Random(seed), options, drain)
        assert states[-1]["result"] in ("win", "draw")
        if states[-1]["result"] == "draw":
            assert len(actions) == options["max_turns"]

    @settings(max_examples=20)
    @given(seed=st.integers(0, 2**32 - 1), options=OPTIONS, drain=st.booleans())
    def test_random_play_after_a_loss(
        self, seed: int, options: dict[str, Any], drain: bool
    ) -> None:
        """The same checks from the three-player game where seat 1 has lost: the scrap pile goes
        into the next restock, Jokers stay (B8, B9, B11)."""
        deal, moves = loss3("JC")
        start = new(deal, options)
        held = [set(h) for h in js(start)["hands"]]
        for move in moves:
            start = start.apply(move)
            for seat, hand in enumerate(js(start)["hands"]):
                held[seat] |= set(hand)
        assert js(start)["out"] == [1]
        playout(start, random.Random(seed), options, drain, held=held)

    @settings(max_examples=24)
    @given(seed=st.integers(0, 2**32 - 1), players=st.sampled_from([2, 3, 4, 5]))
    def test_replay_equality(self, seed: int, players: int) -> None:
        """Common: "the same record always replays to the same states and events" -- from the
        seed, and from the deal the seed made."""
        options = {"max_turns": 300}
        actions, states, events = playout(
            GAME.new(players, seed, options=options), random.Random(seed), options, views=False
        )
        first = states[0]
        deal = {
            "bases": {b: first["bases"][b][0] for b in BASES},
            "hands": first["hands"],
            "stocks": {b: first["stocks"][b]["cards"] for b in BASES},
        }
        for start in (
            GAME.new(players, seed, options=options),
            GAME.new(players, seed, options=options, deal=deal),
        ):
            state = start
            assert js(state) == states[0]
            for action, expected, said in zip(actions, states[1:], events, strict=True):
                state = state.apply(action)
                assert js(state) == expected
                assert [e.to_json() | {"audience": e.audience} for e in state.events] == said

    def test_playouts_reach_restocks_and_losses(self) -> None:
        """The properties above are not vacuous: seeded random playouts (half of them draining
        the smallest stock) flip stocks, draw from other stocks, restock, lose, win and draw."""
        seen: set[str] = set()
        for seed in range(24):
            options = {"max_turns": 400}
            actions, _, events = playout(
                GAME.new(2 + seed % 4, seed, options=options),
                random.Random(seed),
                options,
                drain=seed % 2 == 0,
                views=False,
            )
            seen |= {e["kind"] for said in events for e in said}
            seen |= {"other stock" for a in actions if "/" in a}
        assert {"flipped", "other stock", "restocked", "lost", "won", "draw"} <= seen
