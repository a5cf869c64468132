"""Crazy Eights as a :class:`~parlour.core.game.Game`: its facts, new games, samples, the integer
codec (OpenSpiel's action ids) and the JSON round trips. ``GAME`` is what the entry point
``parlour.games`` names."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import ClassVar

from parlour.core.game import JSON, Action, Game, GameInfo, GameParts, View
from parlour.core.rng import check_seed, make_rng
from parlour_crazy_eights.deal import deal_from_seed
from parlour_crazy_eights.notation import ACTIONS, action_id
from parlour_crazy_eights.options import NAME, OPTION_SPECS, Options, typed_options
from parlour_crazy_eights.reading import parse_deal, read_state, read_view
from parlour_crazy_eights.rules import C8State
from parlour_crazy_eights.sample import sample_state
from parlour_crazy_eights.sentences import WORDS
from parlour_crazy_eights.view import C8View

__all__ = ["GAME", "CrazyEightsGame"]

MAX_GAME_LENGTH = 1_000
"""A bound on the actions of a game with the default options: at most 100 cards played and as
many suits named, at most 52 draws (the stock is never refilled) and as many passes after the
most draws, and between two plays at most ``players`` passes once the stock is empty:
100 + 100 + 52 + 52 + 101 * 5 = 809."""


class CrazyEightsGame(Game):
    """Crazy Eights for 2 to 5 players, as OpenSpiel's ``crazy_eights`` plays it
    (:mod:`parlour_crazy_eights.rules`).

    Actions are a card (``7H``), ``draw``, ``pass`` or a suit named after an 8 (``hearts``);
    as integers, OpenSpiel's ids (:mod:`parlour_crazy_eights.notation`), 58 in all.
    """

    info: ClassVar[GameInfo] = GameInfo(
        name=NAME,
        title="Crazy Eights",
        aliases=("crazy_eights", "eights"),
        min_players=2,
        max_players=5,
        default_players=2,
        decisions=True,
        options=OPTION_SPECS,
        num_distinct_actions=len(ACTIONS),
        max_game_length=MAX_GAME_LENGTH,
        summary="match the suit or the rank, eights are wild, for 2 to 5 players",
    )
    parts: ClassVar[GameParts] = GameParts(
        presenter="parlour_crazy_eights.present",
        words=WORDS,
        strategy="parlour_crazy_eights.strategy",
        board="parlour_crazy_eights.web",
        features="parlour_crazy_eights.features",
        figures="parlour_crazy_eights.figures",
        schemas="parlour_crazy_eights.schemas",
    )

    def typed_options(self, given: Mapping[str, object] | None) -> Options:
        """``given`` checked against the option specs (InvalidOption names the one at fault)."""
        return typed_options(self.options(given))

    def new(
        self,
        players: int,
        seed: int,
        options: Mapping[str, object] | None = None,
        deal: JSON = None,
    ) -> C8State:
        """A new game from ``deal`` (:func:`~.reading.parse_deal`) or dealt from ``seed``."""
        players = self.check_players(players)
        seed = check_seed(seed)
        typed = self.typed_options(options)
        dealt = (
            deal_from_seed(players, make_rng(seed)) if deal is None else parse_deal(deal, players)
        )
        return C8State._start(dealt, typed)

    def sample(self, view: View, rng: random.Random) -> C8State:
        if not isinstance(view, C8View):
            raise TypeError("CrazyEightsGame.sample needs a C8View")
        return sample_state(view, rng)

    def action_id(self, action: Action) -> int:
        """OpenSpiel's id of ``action`` (InvalidNotation for an action of another game)."""
        return action_id(action)

    def action_from_id(self, action_id: int) -> Action:
        return ACTIONS[self._check_action_id(action_id)]

    def state_from_json(self, obj: object) -> C8State:
        return read_state(obj)

    def view_from_json(self, obj: object) -> C8View:
        return self.checked_view(read_view(obj))


GAME = CrazyEightsGame()
"""The one instance of the game: the entry point's and the states'."""
C8State.game = GAME
