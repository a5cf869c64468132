"""Game of Death properties (hypothesis): random playouts for 2 to 10 players, every step
checked against the rules.

:class:`Model` is the rules of G1-G13 written small and plainly, from the text and the rulings,
never from the engine: each step of a random playout (random legal actions, now and then a table
entry: an illegal throw or a D'oh!/delay penalty with random votes, ``random.Random(seed)``) is
applied to both, and the full state, the legal actions and the refusals must agree. The
properties: the rules (the model), the 52 cards conserved, no negative or shrinking drinks,
drinks given equal to drinks received through gives, exactly the cards the rules keep hidden
listed by ``hidden_from``, views, events and logs that leak none of them and agree with the state
(and with sampled states), replay equality, and an end to every game.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from parlour.core import IllegalAction, Record, State, TableEntry, replay

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
        self.illegal_penalty = bool(options.get("illegal_throw_penalty", True))
        # Known to be in a hand: 2D, whose holder starts (G1); cards shown in illegal throws
        # (G13).
        self.known: list[set[str]] = [{"2D"} & set(h) for h in hands]

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
        if word[0] == "give":
            drinks, _, player = word[1].partition(">P")
            self.taken[int(player) - 1] += int(drinks)
            self._give(int(drinks), int(player) - 1)
        elif action == "pass":  # G2
            assert self.to_move is not None
            self.taken[self.to_move] += 1
            self.passed.add(self.to_move)
            self._advance(self.to_move)
        else:
            self._throw(action)

    def allows(self, entry: str, by: int | None, votes: set[int]) -> bool:
        """G13: whether the table entry may be made."""
        if self.over:
            return False
        word = entry.split()
        if word[0] == "illegal":
            me = self.to_move
            return (
                self.illegal_penalty
                and by in (None, me)
                and self.pending is None
                and me is not None
                and word[1] in self.hands[me]
                and word[1] not in self.legal()
            )
        seat = int(word[1][1:]) - 1
        if by is None or by == seat:
            return True
        support = len((votes | {by}) - {seat})
        return 2 * support > self.n - 1  # a majority of the players other than ``seat``

    def table(self, entry: str) -> None:
        """G13: a table entry the table may make (:meth:`allows`)."""
        word = entry.split()
        if word[0] == "illegal":  # 2 drinks, the card goes back and is known to be there
            assert self.to_move is not None
            self.taken[self.to_move] += 2
            self.known[self.to_move].add(word[1])
        else:  # a D'oh! or a delay of game: one drink
            self.taken[int(word[1][1:]) - 1] += 1

    def hidden_from(self, seat: int | None) -> set[str]:
        """What the rules keep from ``seat``: cards in other hands but the known ones (G13);
        nothing at the end, when the hands are shown (G11)."""
        if self.over:
            return set()
        return {
            c for s, h in enumerate(self.hands) if s != seat for c in h if c not in self.known[s]
        }

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
        self.known[me].discard(card)
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


def check_views(state: State, model: Model, sober: set[int]) -> None:
    """``hidden_from`` lists exactly what the rules hide; views, events and the newest log
    entry hold none of it and agree with the state (Common: public information)."""
    data = js(state)
    for seat in [None, *range(model.n)]:
        hidden = model.hidden_from(seat)
        assert state.hidden_from(seat) == frozenset(hidden)
        view = state.view(seat).to_json()
        assert not cards_named(str(view)) & hidden, (seat, cards_named(str(view)) & hidden)
        # The newest log entry holds the seat's telling of every event of the last step.
        assert not cards_named(str(state.tail(seat, 1)[0].to_json())) & hidden
        shown = [sorted(h) for h in model.hands] if model.over else model.known
        assert [sorted(k) for k in view["known_in_hands"]] == [sorted(k) for k in shown]
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


Step = tuple[str, int | None, list[int]]
"""A step of a playout: an action (by the seat to move) or a table entry, by whom, the votes."""


def random_step(state: State, rng: random.Random) -> tuple[bool, Step]:
    """A random legal action, or now and then a table entry (G13): an illegal throw, or a
    D'oh! or delay on a random player by a random seat (or a referee) with random votes.
    Whether it is a table entry, and the step."""
    data = js(state)
    roll = rng.random()
    seats: list[int | None] = [None, *range(state.players)]
    if roll < 0.04:
        kind = rng.choice(["doh", "delay"])
        votes = [s for s in range(state.players) if rng.random() < 0.5]
        return True, (f"{kind} P{rng.randint(1, state.players)}", rng.choice(seats), votes)
    if roll < 0.08 and data["pile"]:
        seat = state.to_move
        assert seat is not None
        wrong = [c for c in data["hands"][seat] if not follows(c, data["pile"][0])]
        if wrong:
            by = seat if rng.random() < 0.8 else rng.choice(seats)
            return True, (f"illegal {rng.choice(sorted(wrong))}", by, [])
    legal = [str(a) for a in state.legal_actions()]
    return False, (rng.choice(legal), state.to_move, [])


def playout(
    state: State, seed: int, options: Mapping[str, Any], views: bool = True
) -> tuple[list[str], list[TableEntry], list[dict[str, Any]], State]:
    """Random play to the end, every step checked against the model: the actions, the table
    entries made, the states and the end."""
    rng = random.Random(seed)
    model = Model(js(state)["hands"], options)
    sober = {p - 1 for p in options.get("sober", [])}
    actions: list[str] = []
    table: list[TableEntry] = []
    states = [js(state)]
    check_state(state, model)
    while not state.is_over:
        assert len(actions) + len(table) < STEP_LIMIT, "the game does not end"
        is_table, (text, by, votes) = random_step(state, rng)
        before = js(state)["drinks_taken"]
        if not is_table:
            state = state.apply(text)
            model.apply(text)
            actions.append(text)
        elif model.allows(text, by, set(votes)):
            state = state.apply_table(text, by=by, votes=votes)
            model.table(text)
            table.append(TableEntry(len(actions), text, by, tuple(votes)))
        else:
            with pytest.raises(IllegalAction, match=r"G13|G5"):
                state.apply_table(text, by=by, votes=votes)
            continue
        states.append(js(state))
        check_state(state, model)
        assert all(a <= b for a, b in zip(before, js(state)["drinks_taken"], strict=True))
        if views:
            check_views(state, model, sober)
            if len(states) % 7 == 0 and not state.is_over:
                seat = rng.randrange(state.players)
                view = state.view(seat)
                assert GAME.sample(view, rng).view(seat).to_json() == view.to_json()
    check_outcome(state)
    return actions, table, states, state


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


@pytest.mark.slow
@settings(max_examples=80, deadline=None)
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
    """Common: "the same record always replays to the same states and events" -- table
    entries included, where they were made (G13)."""
    actions, table, states, end = playout(GAME.new(players, seed), seed, {}, views=False)
    record = Record("death", players, seed, actions=tuple(actions), table=tuple(table))
    replayed = replay(Record.from_json(record.to_json()), GAME)
    assert [js(s) for s in replayed] == states
    last = replayed[-1]
    assert [e.to_json() for e in last.events] == [e.to_json() for e in end.events]
    assert last.outcome == end.outcome
    assert [e.to_json() for e in last.log(None)] == [e.to_json() for e in end.log(None)]
