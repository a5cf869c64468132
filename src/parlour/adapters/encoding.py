"""What the three environments share: a game's features at one player count, and action masks
from the integer action codec.

A game's observation features and chance deal are the game's own (its ``features`` part, the
protocol in :mod:`parlour.adapters.features`), so nothing here knows a game by name.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from parlour.adapters.features import Features, Observation, features_of
from parlour.core.game import JSON, Game, State, View
from parlour.core.options import OptionValue

__all__ = ["Layout", "Observation", "action_mask", "layout_for"]


@dataclass(frozen=True)
class Layout:
    """A game's observation features and chance deal at one player count."""

    game: Game
    players: int
    features: Features

    @property
    def size(self) -> int:
        return self.features.size(self.players)

    def observe(self, view: View) -> Observation:
        """The observation of ``view``, made from the view alone."""
        return self.features.encode(view, self.players)

    def deal_outcomes(self, drawn: Sequence[str]) -> tuple[str, ...]:
        """The cards the next chance outcome of the deal may be (each equally likely), given
        the cards drawn so far; empty once the deal is complete."""
        return self.features.deal_outcomes(self.players, drawn)

    def deal(self, drawn: Sequence[str]) -> JSON:
        """The deal, in the game's deal notation, that the drawn cards make."""
        return self.features.deal(self.players, drawn)

    @property
    def deck(self) -> tuple[str, ...]:
        return self.features.deck(self.players)

    def reshuffle(self, state: State) -> tuple[str, ...]:
        """The cards chance deals again after the action that made ``state`` (or ``()``)."""
        return self.features.reshuffle(state)

    def redeal(self, state: State, cards: Sequence[str]) -> State:
        """``state`` with the cards of :meth:`reshuffle` laid in the order ``cards``."""
        return self.features.redeal(state, cards)

    def max_length(self, options: Mapping[str, OptionValue]) -> int | None:
        """Player actions in one game at most: the larger of the game's bound and the one its
        options set, or ``None`` when neither sets one."""
        bounds = [self.game.info.max_game_length, self.features.length_bound(options)]
        known = [b for b in bounds if b is not None]
        return max(known) if known else None


def layout_for(game: Game, players: int) -> Layout:
    """The observation features of ``game`` at ``players`` seats.

    Raises:
        InvalidOption: a bad player count, or a game without features (naming it).
    """
    features = features_of(game)
    return Layout(game, game.check_players(players), features)


def action_mask(state: State, seat: int, size: int) -> npt.NDArray[np.int8]:
    """1 for each action id ``seat`` may play now, 0 elsewhere (all 0 when not its turn)."""
    mask = np.zeros(size, dtype=np.int8)
    if state.to_move == seat and not state.is_over:
        mask[list(state.legal_action_ids())] = 1
    return mask
