"""Beggar-My-Neighbour as a :class:`~parlour.core.game.Game`: its static facts, new games from a
seed or a deal (M7, M9), determinization, the action codec and the JSON round trips."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import ClassVar

from parlour.core.game import JSON, Action, Game, GameInfo, GameParts, View
from parlour.core.inputs import quote
from parlour.core.rng import check_seed, make_rng
from parlour.errors import InvalidNotation
from parlour.games.beggar.notation import MAX_PLAYERS, MIN_PLAYERS, parse_deal, random_deal
from parlour.games.beggar.options import OPTION_SPECS, BeggarOptions, typed_options
from parlour.games.beggar.reading import read_state, read_view
from parlour.games.beggar.rules import PLAY, BeggarState, Play
from parlour.games.beggar.sample import sample
from parlour.games.beggar.sentences import WORDS
from parlour.games.beggar.view import BeggarView

__all__ = ["BeggarGame"]


class BeggarGame(Game):
    """Beggar-My-Neighbour for 2 to 4 players (rulings M1-M12).

    M12, the agreed time: with option ``time_limit`` (minutes) a table with a clock
    (:meth:`time_limit`) enters ``time`` (:attr:`time_up_entry`) when it runs out, and the
    player holding most cards wins."""

    time_up_entry: ClassVar[str | None] = "time"

    info: ClassVar[GameInfo] = GameInfo(
        name="beggar",
        title="Beggar-My-Neighbour",
        aliases=("beggar-my-neighbour", "beggar-my-neighbor", "bmn"),
        min_players=MIN_PLAYERS,
        max_players=MAX_PLAYERS,
        default_players=2,
        decisions=False,
        options=OPTION_SPECS,
        num_distinct_actions=1,
        # Only a card limit (M11), a repeat (M10) or the time (M12) ends some deals: no bound.
        max_game_length=None,
        summary="turn cards and pay for court cards; no decisions, for 2 to 4 players",
    )
    parts: ClassVar[GameParts] = GameParts(
        presenter="parlour.games.beggar.present",
        words=WORDS,
        schemas="parlour.games.beggar.schemas",
        board="parlour.games.beggar.web",
        features="parlour.games.beggar.features",
        figures="parlour.games.beggar.figures",
        commands="parlour.games.beggar.cli",
        story="parlour.games.beggar.story",
    )

    def typed_options(self, given: Mapping[str, object] | None) -> BeggarOptions:
        """Validated options as :class:`BeggarOptions`; raises InvalidOption naming the option."""
        return typed_options(given)

    def time_limit(self, options: Mapping[str, object]) -> float | None:
        """M12: the agreed time of option ``time_limit`` in seconds, ``None`` without one.

        Raises:
            InvalidOption: an option is refused (naming it).
        """
        minutes = typed_options(options).time_limit
        return None if minutes is None else minutes * 60.0

    def new(
        self,
        players: int,
        seed: int,
        options: Mapping[str, object] | None = None,
        deal: JSON = None,
    ) -> BeggarState:
        """A new game from ``deal`` (M9 notation) or, without one, dealt from ``seed`` (M7:
        seat 0 leads).

        Raises:
            InvalidOption: bad player count, seed or option.
            InvalidNotation: a bad deal (M9, M7).
        """
        players = self.check_players(players)
        seed = check_seed(seed)
        typed = typed_options(options)
        if deal is None:
            hands = random_deal(players, make_rng(seed))
        elif isinstance(deal, str):
            hands = parse_deal(deal, players)
        else:
            raise InvalidNotation(f"a Beggar-My-Neighbour deal is an M9 string, got {quote(deal)}")
        return BeggarState._start(hands, typed, hands)

    def sample(self, view: View, rng: random.Random) -> BeggarState:
        """A full state consistent with ``view`` (:func:`.sample.sample`)."""
        return sample(view, rng)

    def action_id(self, action: Action) -> int:
        """``play`` is action 0, the only one.

        Raises:
            InvalidNotation: ``action`` is not ``play``.
        """
        if not isinstance(action, Play):
            raise InvalidNotation(
                f"{quote(action)} is not an action of Beggar-My-Neighbour: the only action is "
                "'play' (id 0)"
            )
        return 0

    def action_from_id(self, action_id: int) -> Action:
        """Action 0 is ``play``; any other id raises InvalidNotation."""
        self._check_action_id(action_id)
        return PLAY

    def state_from_json(self, obj: object) -> BeggarState:
        """The state ``BeggarState.to_json`` wrote (:func:`.reading.read_state`); it plays on
        exactly alike, loops (M10) included.

        Raises:
            InvalidRecord: naming the field that is missing or wrong.
        """
        return read_state(obj)

    def view_from_json(self, obj: object) -> BeggarView:
        """The view ``BeggarView.to_json`` wrote (:func:`.reading.read_view`).

        Raises:
            InvalidRecord: naming the field that is missing or wrong.
        """
        return self.checked_view(read_view(obj))


GAME = BeggarGame()
"""The one instance of the game: the registry's (entry point ``parlour.games``) and the states'."""
BeggarState.game = GAME
