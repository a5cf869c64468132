"""BEOR strategy: how close a hand is to the goal, a heuristic player, and an evaluation of
positions for search.

The heuristic keeps the cards that build toward two groups (B5), counting a group as dead when
the card it lacks is buried on a base or known to be in another hand, draws where the card it
will get is known and wanted (a face-up top, a card known at the bottom before a 3 or 8 flip,
any stock with a 4 or 7, B6/B7), and avoids moves that leave it no base to play on next turn
(B8). It sees only a view.

``STRATEGY`` hands these parts to the bots with BEOR's search settings.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable
from dataclasses import replace
from itertools import combinations

from parlour.cards import Card, Rank
from parlour.core.game import Action, State, View
from parlour.core.strategy import SearchSetting, Strategy
from parlour.games.beor.deal import deck_for
from parlour.games.beor.notation import FITS, GROUPS, Move
from parlour.games.beor.rules import BeorState
from parlour.games.beor.view import BeorView

__all__ = ["STRATEGY", "BeorHeuristic", "evaluate", "potential", "show_hands"]

_PAIR_GROUPS: dict[tuple[Card, Card], tuple[frozenset[Card], ...]] = {}
"""The groups (B5) that hold both cards of a pair, for every pair that some group holds."""
for _group in GROUPS:
    for _a in _group:
        for _b in _group:
            if _a is not _b:
                _PAIR_GROUPS[_a, _b] = (*_PAIR_GROUPS.get((_a, _b), ()), _group)
_PARTNERS: dict[Card, frozenset[Card]] = {}
"""The cards that share some group with a card (none for a Joker)."""
for _a, _b in _PAIR_GROUPS:
    _PARTNERS[_a] = _PARTNERS.get(_a, frozenset()) | {_b}
_NO_CARDS: frozenset[Card] = frozenset()


def potential(hand: Iterable[Card], dead: frozenset[Card] = frozenset()) -> float:
    """How many cards of ``hand`` sit in two disjoint partial groups (0..6); a group counts only
    with the cards it lacks still live (not in ``dead``). 6 is a winning hand (B5).

    A partial group holds two or three cards of the hand, so it holds a pair of them: the
    groups are found through the hand's pairs (most hands have few), not through every group
    of every card."""
    cards = frozenset(hand)
    parts: set[frozenset[Card]] = set()
    for card in cards:
        for other in _PARTNERS.get(card, _NO_CARDS) & cards:
            for group in _PAIR_GROUPS[card, other]:
                if group.isdisjoint(dead) or (group - cards).isdisjoint(dead):
                    parts.add(group & cards)
    if not parts:
        return float(min(2, len(cards)))
    best = 0
    for a, b in combinations(parts, 2):
        if a.isdisjoint(b) and len(a) + len(b) > best:
            best = len(a) + len(b)
    if best == 0:
        top = max(map(len, parts))
        best = top + (1 if len(cards) > top else 0)
    return float(best)


def _dead_cards(view: BeorView) -> frozenset[Card]:
    """Cards no longer to be had: under the top of a base, or known in another hand."""
    dead = {c for pile in view.bases for c in pile}
    for seat, known in enumerate(view.known_in_hands):
        if seat != view.seat:
            dead.update(known)
    return frozenset(dead)


def _drawn_card(view: BeorView, move: Move) -> Card | None:
    """The card this move will draw, when the view tells it (B6: a flip first)."""
    stock_index = move.base if move.stock is None else move.stock
    stock = view.stocks[stock_index]
    if not stock.size:
        return None
    known = dict(stock.known)
    flips = move.card.rank in (Rank.THREE, Rank.EIGHT) and move.stock is None
    if flips and view.options.flip_reverses_order:
        return known.get(0)  # the bottom card comes to the top
    return known.get(stock.size - 1)


class BeorHeuristic:
    """A BEOR player that sees only its view (see the module docstring)."""

    name = "heuristic"

    def choose(self, view: View, legal_actions: tuple[Action, ...], rng: random.Random) -> Action:
        assert isinstance(view, BeorView) and view.hand is not None
        hand = view.hand
        dead = _dead_cards(view)
        seen = dead | set(hand) | {c for s in view.stocks for _, c in s.known}
        unseen = [c for c in deck_for(view.players) if c not in seen]
        best: list[Action] = []
        best_score = -math.inf
        cache: dict[Card, tuple[float, float]] = {}
        for action in legal_actions:
            assert isinstance(action, Move)
            kept = [c for c in hand if c != action.card]
            if action.card not in cache:
                now = potential(kept, dead)
                cache[action.card] = (now, self._unknown_gain(kept, dead, unseen, now))
            base_value, unknown_gain = cache[action.card]
            drawn = _drawn_card(view, action)
            if drawn is not None:
                value = potential([*kept, drawn], dead)
                if value >= 6:
                    return action  # a known winning draw (B5)
            else:
                value = base_value + unknown_gain
            score = value + self._safety(view, kept, action) + rng.random() * 1e-6
            if score > best_score:
                best, best_score = [action], score
        return best[0]

    @staticmethod
    def _unknown_gain(
        kept: list[Card], dead: frozenset[Card], unseen: list[Card], now: float
    ) -> float:
        """Expected gain in potential from a card drawn blind, over the unseen cards (``now``:
        the potential of ``kept``)."""
        if not unseen:
            return 0.0
        sample = unseen[:: max(1, len(unseen) // 12)]
        return sum(max(0.0, potential([*kept, c], dead) - now) for c in sample) / len(sample)

    @staticmethod
    def _safety(view: BeorView, kept: list[Card], move: Move) -> float:
        """B8: keep a base to play on. Counts the bases the kept cards fit whose stock keeps
        cards after this draw; none at all is nearly losing."""
        sizes = [s.size for s in view.stocks]
        sizes[move.base if move.stock is None else move.stock] -= 1
        open_bases = {b for c in kept for b in range(4) if sizes[b] > 0 and FITS[c][b]}
        if not open_bases:
            return -3.0 if any(sizes) else 0.0
        return 0.05 * len(open_bases)


def evaluate(state: State) -> tuple[float, ...]:
    """Rewards in [0, 1] for each seat of a (sampled) position, for search: the result when
    the game is over, else a soft ranking by how close each hand is to the goal."""
    outcome = state.outcome
    if outcome is not None:
        return outcome.returns if outcome.winners else tuple(0.0 for _ in outcome.returns)
    assert isinstance(state, BeorState)
    hands, bases = state.hands, state.bases
    buried = frozenset(c for pile in bases for c in pile)
    everyone = [frozenset(h) for h in hands]
    weights = []
    for seat, hand in enumerate(hands):
        if not hand:
            weights.append(0.0)
            continue
        # In a dealt-out world every card's place is known: others' cards are dead to us.
        dead = buried.union(*(everyone[s] for s in range(len(hands)) if s != seat))
        weights.append(math.exp(2.0 * potential(hand, dead)))
    total = sum(weights) or 1.0
    return tuple(w / total for w in weights)


def show_hands(state: State, seat: int) -> View:
    """``seat``'s view with every hand shown to it (measurement only: ``oracle-hands``); the
    order of the face-down stocks stays hidden."""
    assert isinstance(state, BeorState)
    view = state.view(seat)
    assert isinstance(view, BeorView)
    return replace(view, known_in_hands=state.hands)


STRATEGY = Strategy(
    heuristic=BeorHeuristic,
    evaluate=evaluate,
    candidates=None,
    # About 50 ms a decision on a 2-core machine.
    budget=400,
    # Score the leaf at once: random play only spoils hands, and the evaluation reads every
    # hand of the dealt-out world.
    rollout_actions=0,
    policy="random",
    # Leaf evaluations differ little between moves, so the search explores less.
    exploration=0.25,
    # The levels' searches, tuned by benchmarks/bench_strength.py (README, "Difficulty
    # levels"): a progressive bias of weight 2 toward the heuristic's move and exploration 0.1
    # took the search from 48.7% to 60.0% over the heuristic (2 players, 150 deals).
    levels={
        "hard": SearchSetting(400, "random", 0, 0.1, prior_weight=2.0),
        "expert": SearchSetting(1600, "random", 0, 0.1, prior_weight=2.0),
    },
    show_hands=show_hands,
)
