"""BEOR multi-player as a :class:`~parlour.core.game.Game`: its static facts, new games, sampled
states, the integer action codec and the JSON round trips of states and views."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import ClassVar

from parlour.core.game import JSON, Action, Game, GameInfo, GameParts, View
from parlour.core.inputs import quote
from parlour.core.rng import check_seed, make_rng
from parlour.errors import InvalidNotation
from parlour.games.beor.deal import deal_from_seed, parse_deal
from parlour.games.beor.notation import ACTION_IDS, ACTIONS, Move
from parlour.games.beor.options import MAX_TURNS, OPTION_SPECS, BeorOptions, typed_options
from parlour.games.beor.reading import read_state, read_view
from parlour.games.beor.rules import BeorState
from parlour.games.beor.sample import sample_state
from parlour.games.beor.sentences import WORDS
from parlour.games.beor.view import BeorView

__all__ = ["BeorGame"]


class BeorGame(Game):
    """BEOR multi-player for 2 to 5 players (rulings B1-B11).

    Actions are ``CARD>BASE`` or ``CARD>BASE/STOCK`` (:mod:`parlour.games.beor.notation`); as
    integers, the index of the move in :data:`~parlour.games.beor.notation.ACTIONS`: every move
    some position may allow (each card on the bases its theme fits, B4; a 4 or 7 drawing from
    any other stock, B7), 164 in all.
    """

    info: ClassVar[GameInfo] = GameInfo(
        name="beor",
        title="BEOR",
        aliases=("black-even-odd-red",),
        min_players=2,
        max_players=5,
        default_players=2,
        decisions=True,
        options=OPTION_SPECS,
        num_distinct_actions=len(ACTIONS),
        # B10: one action a turn, and the game is a draw after max_turns turns.
        max_game_length=MAX_TURNS,
        summary="runs and sets built through themed piles, for 2 to 5 players",
    )
    parts: ClassVar[GameParts] = GameParts(
        presenter="parlour.games.beor.present",
        words=WORDS,
        schemas="parlour.games.beor.schemas",
        board="parlour.games.beor.web",
        features="parlour.games.beor.features",
        strategy="parlour.games.beor.strategy",
        figures="parlour.games.beor.figures",
    )

    def typed_options(self, given: Mapping[str, object] | None) -> BeorOptions:
        """``given`` checked against the option specs, as :class:`BeorOptions`.

        Raises:
            InvalidOption: naming the option at fault.
        """
        return typed_options(self.options(given))

    def new(
        self,
        players: int,
        seed: int,
        options: Mapping[str, object] | None = None,
        deal: JSON = None,
    ) -> BeorState:
        """A new game from ``deal`` (a record's deal) or dealt from ``seed`` (B1-B3); the seed
        drives the later restock shuffles either way (B9)."""
        players = self.check_players(players)
        seed = check_seed(seed)
        typed = self.typed_options(options)
        cards = (
            deal_from_seed(players, make_rng(seed)) if deal is None else parse_deal(deal, players)
        )
        return BeorState._start(cards, typed, seed)

    def sample(self, view: View, rng: random.Random) -> BeorState:
        """A full state consistent with ``view`` (:mod:`parlour.games.beor.sample`)."""
        if not isinstance(view, BeorView):
            raise TypeError("BeorGame.sample needs a BeorView")
        return sample_state(view, rng)

    def action_id(self, action: Action) -> int:
        """The index of ``action`` in :data:`~parlour.games.beor.notation.ACTIONS`.

        Raises:
            InvalidNotation: ``action`` is not a BEOR move, or a move no position allows (a
                card on a base whose theme it does not fit, B4; another stock drawn from by a
                card that is not a 4 or 7, B7).
        """
        if not isinstance(action, Move):
            raise InvalidNotation(f"{quote(action)} is not a BEOR action")
        found = ACTION_IDS.get(action)
        if found is None:
            raise InvalidNotation(f"{action} is never legal in BEOR (B4, B7), so it has no id")
        return found

    def action_from_id(self, action_id: int) -> Move:
        """The move with integer id ``action_id``; InvalidNotation outside ``0 .. 163``."""
        return ACTIONS[self._check_action_id(action_id)]

    def state_from_json(self, obj: object) -> BeorState:
        """The state :meth:`BeorState.to_json` wrote, checked (:mod:`.reading`).

        Raises:
            InvalidRecord: naming the field that is missing or wrong.
        """
        return read_state(obj)

    def view_from_json(self, obj: object) -> BeorView:
        """The view :meth:`BeorView.to_json` wrote, checked (:mod:`.reading`).

        Raises:
            InvalidRecord: naming the field that is missing or wrong.
        """
        return self.checked_view(read_view(obj))


GAME = BeorGame()
"""The one instance of the game: the registry's (entry point ``parlour.games``) and the states'."""
BeorState.game = GAME
