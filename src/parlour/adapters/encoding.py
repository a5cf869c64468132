"""What the three environments share: a game's features at one player count, and action masks
from the integer action codec.

A game's observation features and chance deal are the game's own (its ``features`` part, the
protocol in :mod:`parlour.adapters.features`), so nothing here knows a game by name.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property

import numpy as np
import numpy.typing as npt

from parlour.adapters.features import Features, Observation, Sparse, features_of
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

    def observe_sparse(self, view: View) -> Sparse:
        """The observation of ``view`` as :class:`Sparse`: the features' ``encode_sparse``
        where they give one, else their ``encode`` made sparse."""
        return self._sparse_encoder(view, self.players)

    @cached_property
    def _sparse_encoder(self) -> Callable[[View, int], Sparse]:
        encode: Callable[[View, int], Sparse] | None = getattr(self.features, "encode_sparse", None)
        if encode is not None:
            return encode
        dense = self.features.encode
        return lambda view, players: Sparse.of(dense(view, players))

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
        """Player actions in one game at most: the bound that ``options`` set where the
        game's features give one, else ``GameInfo.max_game_length`` (a bound for the default
        options), or ``None`` when neither sets one."""
        bound = self.features.length_bound(options)
        return self.game.info.max_game_length if bound is None else bound


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
