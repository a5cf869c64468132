"""Game of Death properties (hypothesis): random playouts for 2 to 10 players, every step
checked against the rules.

:class:`Model` is the rules of G1-G13 written small and plainly, from the text and the rulings,
never from the engine: each action of a random playout (random legal actions, now and then an
illegal throw or a table penalty, ``random.Random(seed)``) is applied to both, and the full state
and the legal actions must agree. The properties: the rules (the model), the 52 cards conserved,
no negative or shrinking drinks, drinks given equal to drinks received through gives, views and
events that leak no hidden card and agree with the state (and with sampled states), replay
equality, and an end to every game.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from parlour.core import State

from .rules_text_helpers import (
    DECK,
    FACE_NUMBER,
    GAME,
    GIVE,
    NUMBER,
    TAKE,
    cards_named,
    follows,
    gives,
    hand_penalty,
    js,
    new,
    sober_seats,
)

STEP_LIMIT = 3000  # 52 throws, a pass per seat between throws, gives: far below this


class Model:
    """The rules, small: the state after each action (G1-G13)."""

    def __init__(self, hands: Sequence[Sequence[str]], options: Mapping[str, Any]) -> None:
        self.n = len(hands)
        self.hands = [list(h) for h in hands]
        self.pile: list[str] = []
        self.throwers: list[int] = []  # who threw each pile card, top first
        self.taken = [0] * self.n
        self.given = [0] * self.n
        self.received = [0] * self.n  # drinks received through gives
        self.pending: list[int] | None = None  # [seat, drinks] (G5)
        self.pending_ace = False
        self.first_out: int | None = None
        self.passed: set[int] = set()
        self.last: int | None = None
        self.started = False
        self.over = False
        self.to_move: int | None = next(s for s, h in enumerate(hands) if "2D" in h)  # G1
        self.faces = bool(options.get("difference_against_faces", False))

    def legal(self) -> set[str]:
        if self.over:
            return set()
        if self.pending:
            return gives(self.pending[0], self.pending[1], self.n)
        assert self.to_move is not None
        hand = self.hands[self.to_move]
        if not self.started:
            return {"2D"}  # G1
        if not self.pile:
            return set(hand)  # G2: a new lead
        playable = {c for c in hand if follows(c, self.pile[0])}
        return playable or {"pass"}

    def apply(self, action: str) -> None:
        word = action.split()
        if word[0] in ("doh", "delay", "give"):
            drinks, _, player = word[1].partition(">P")
            self.taken[int(player) - 1] += int(drinks)
            if word[0] == "give":
                assert self.pending is not None
                self._give(int(drinks), int(player) - 1)
        elif word[0] == "illegal":  # G13: 2 drinks, the card goes back
            assert self.to_move is not None
            self.taken[self.to_move] += 2
        elif action == "pass":  # G2
            assert self.to_move is not None
            self.taken[self.to_move] += 1
            self.passed.add(self.to_move)
            self._advance(self.to_move)
        else:
            self._throw(action)

    def _give(self, drinks: int, seat: int) -> None:
        assert self.pending is not None
        giver = self.pending[0]
        self.given[giver] += drinks
        self.received[seat] += drinks
        self.pending[1] -= drinks
        if self.pending[1] == 0:
            self.pending = None
            self._after_effects(giver, self.pending_ace)

    def _throw(self, card: str) -> None:
        me = self.to_move
        assert me is not None
        top = self.pile[0] if self.pile else None
        self.hands[me].remove(card)
        self.started = True
        if top is not None and card[0] == top[0]:  # G4
            self.taken[self.throwers[0]] += 1
        elif top is not None and card[1] == top[1]:  # G3
            low = NUMBER.get(card[0])
            high = NUMBER.get(top[0]) or (FACE_NUMBER.get(top[0]) if self.faces else None)
            if low is not None and high is not None and low < high:
                self.taken[me] += high - low
        self.pile.insert(0, card)
        self.throwers.insert(0, me)
        self.passed.clear()
        self.last = me
        if not self.hands[me] and self.first_out is None:
            self.first_out = me
        self.taken[me] += TAKE.get(card, 0)  # G5
        if len(self.pile) >= 4 and len({c[0] for c in self.pile[:4]}) == 1:  # G7
            self.taken = [t + 1 for t in self.taken]
        if card in GIVE:  # G5: the game waits for the gives
            self.pending, self.pending_ace = [me, GIVE[card]], card[0] == "A"
            return
        self._after_effects(me, card[0] == "A")

    def _after_effects(self, me: int, ace: bool) -> None:
        if not ace:
            self._advance(me)
            return
        self.pile, self.throwers = [], []  # G8
        if self.hands[me]:
            self.to_move = me
        else:
            self._end()

    def _advance(self, me: int) -> None:
        for step in range(1, self.n + 1):
            seat = (me + step) % self.n
            if seat == self.first_out:  # G10
                self._end()
                return
            if self.hands[seat]:  # G10: players with no cards are skipped
                if seat == self.last and self.pile:  # G9: every other one passed
                    self.pile, self.throwers = [], []
                self.to_move = seat
                return
        raise AssertionError("nobody holds a card and nobody went out")

    def _end(self) -> None:
        self.over, self.to_move = True, None
        self.taken = [t + hand_penalty(h) for t, h in zip(self.taken, self.hands, strict=True)]


def check_state(state: State, model: Model) -> None:
    """The engine's state against the model's."""
    data = js(state)
    cards = [c for h in data["hands"] for c in h] + list(data["pile"])
    assert len(cards) == len(set(cards)) <= 52 and set(cards) <= set(DECK)
    assert [sorted(h) for h in data["hands"]] == [sorted(h) for h in model.hands]
    assert data["pile"] == model.pile
    assert data["drinks_taken"] == model.taken
    assert data["drinks_given"] == model.given
    assert min(data["drinks_taken"] + data["drinks_given"]) >= 0
    assert sum(data["drinks_given"]) == sum(model.received)
    if model.pending is None:
        assert data["pending_give"] is None
    else:
        assert data["pending_give"] == {"seat": model.pending[0], "drinks": model.pending[1]}
    assert (data["first_out"], data["over"]) == (model.first_out, model.over)
    assert data["to_move"] == state.to_move == model.to_move
    assert state.is_over == model.over
    actions = [str(a) for a in state.legal_actions()]
    assert len(actions) == len(set(actions))
    assert set(actions) == model.legal()


def check_views(state: State, model: Model, public: set[str], sober: set[int]) -> None:
    """Views and events hold no hidden card and agree with the state (Common: public info)."""
    data = js(state)
    shown = set(public)
    if state.is_over:  # G11: the black face cards left in hands are drunk for, in public
        shown |= {c for h in data["hands"] for c in h if c in GIVE}
    for seat in [None, *range(model.n)]:
        view = state.view(seat).to_json()
        own = set(data["hands"][seat]) if seat is not None else set()
        hidden = {c for h in data["hands"] for c in h} - own - shown
        assert not cards_named(str(view)) & hidden, (seat, cards_named(str(view)) & hidden)
        for event in state.events:
            if event.is_visible_to(seat):
                assert not cards_named(event.text + str(dict(event.data))) & hidden
        if seat is None:
            continue
        assert sorted(view["hand"]) == sorted(data["hands"][seat])
        assert list(view["hand_sizes"]) == [len(h) for h in data["hands"]]
        assert list(view["pile"]) == data["pile"]
        assert list(view["drinks_taken"]) == data["drinks_taken"]
        assert list(view["drinks_given"]) == data["drinks_given"]
        assert view["pending_give"] == data["pending_give"]
        assert view["first_out"] == data["first_out"]
        if model.pile:
            assert sorted(view["passed"]) == sorted(model.passed)
        shown_sober = sober_seats(view["sober"], model.n)
        assert shown_sober in (sober, {s + 1 for s in sober})  # seats or player numbers (G14)


def random_action(state: State, rng: random.Random, penalty: bool) -> str:
    """A random legal action; now and then an illegal throw (G13) or a table penalty."""
    data = js(state)
    roll = rng.random()
    if roll < 0.03:
        kind = rng.choice(["doh", "delay"])
        return f"{kind} {rng.randint(1, 3)}>P{rng.randint(1, state.players)}"
    legal = [str(a) for a in state.legal_actions()]
    if roll < 0.08 and penalty and data["pile"] and data["pending_give"] is None:
        seat = state.to_move
        assert seat is not None
        wrong = [c for c in data["hands"][seat] if not follows(c, data["pile"][0])]
        if wrong:
            return f"illegal {rng.choice(sorted(wrong))}"
    return rng.choice(legal)


def playout(
    state: State, seed: int, options: Mapping[str, Any], views: bool = True
) -> tuple[list[str], list[dict[str, Any]], State]:
    """Random play to the end, every step checked against the model; actions, states, end."""
    rng = random.Random(seed)
    model = Model(js(state)["hands"], options)
    sober = {p - 1 for p in options.get("sober", [])}
    penalty = bool(options.get("illegal_throw_penalty", True))
    public: set[str] = set()
    actions: list[str] = []
    states = [js(state)]
    check_state(state, model)
    while not state.is_over:
        assert len(actions) < STEP_LIMIT, "the game does not end"
        action = random_action(state, rng, penalty)
        before = js(state)["drinks_taken"]
        state = state.apply(action)
        model.apply(action)
        public |= cards_named(action)
        public |= set(js(state)["pile"])
        actions.append(action)
        states.append(js(state))
        check_state(state, model)
        assert all(a <= b for a, b in zip(before, js(state)["drinks_taken"], strict=True))
        if views:
            check_views(state, model, public, sober)
            if len(actions) % 7 == 0 and not state.is_over:
                seat = rng.randrange(state.players)
                view = state.view(seat)
                assert GAME.sample(view, rng).view(seat).to_json() == view.to_json()
    check_outcome(state)
    return actions, states, state


def check_outcome(state: State) -> None:
    """G12: the fewest drinks taken win, ties share."""
    data = js(state)
    outcome = state.outcome
    assert outcome is not None and state.to_move is None and state.legal_actions() == ()
    fewest = min(data["drinks_taken"])
    winners = tuple(s for s, t in enumerate(data["drinks_taken"]) if t == fewest)
    assert outcome.winners == winners
    assert list(outcome.details["drinks_taken"]) == data["drinks_taken"]
    assert list(outcome.details["drinks_given"]) == data["drinks_given"]
    assert outcome.details["first_out"] == data["first_out"]


OPTIONS = st.fixed_dictionaries(
    {
        "difference_against_faces": st.booleans(),
        "illegal_throw_penalty": st.booleans(),
    }
)


@settings(max_examples=120, deadline=None)
@given(st.integers(2, 10), st.integers(0, 2**32 - 1), OPTIONS, st.data())
def test_random_playouts_follow_the_rules(
    players: int, seed: int, options: dict[str, Any], data: st.DataObject
) -> None:
    """Every step of a random game agrees with the rules; views leak nothing; the game ends."""
    sober = data.draw(st.lists(st.integers(1, players), unique=True, max_size=2))
    options = {**options, "sober": sober}
    playout(GAME.new(players, seed, options=options), seed, options)


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 10), st.integers(0, 2**32 - 1), OPTIONS)
def test_hand_built_deals_of_any_sizes(players: int, seed: int, options: dict[str, Any]) -> None:
    """A deal may hold hands of any sizes (G1), empty ones included (G10: skipped)."""
    rng = random.Random(seed)
    cards = list(DECK)
    rng.shuffle(cards)
    cuts = sorted(rng.randint(0, 52) for _ in range(players - 1))
    hands = [cards[a:b] for a, b in zip([0, *cuts], [*cuts, 52], strict=True)]
    playout(new({"hands": hands}, options), seed, options, views=False)


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 10), st.integers(0, 2**32 - 1))
def test_replay_gives_the_same_states(players: int, seed: int) -> None:
    """Common: "the same record always replays to the same states and events" """
    actions, states, end = playout(GAME.new(players, seed), seed, {}, views=False)
    state = GAME.new(players, seed)
    assert js(state) == states[0]
    for action, expected in zip(actions, states[1:], strict=True):
        state = state.apply(action)
        assert js(state) == expected
    assert [e.to_json() for e in state.events] == [e.to_json() for e in end.events]
    assert state.outcome == end.outcome
