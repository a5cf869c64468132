"""Parlour's games as OpenSpiel Python games.

Importing this module registers ``parlour_<name>`` for every registered Parlour game; a game
without observation features (its ``features`` part) is refused, naming it, when loaded::

    import pyspiel
    import parlour.adapters.openspiel  # registers the games

    game = pyspiel.load_game("parlour_NAME", {"players": 3})

Parameters: ``players`` and the game's options (``parlour games`` lists them): a switch as a
bool, a number as an int (0 for "none" where the option may be none), a choice as its text, a
list of players as text (``"1,3"``).

- **Chance nodes.** The deal is dealt card by card: each chance outcome is a card (its slot in
  ``deck54()`` order, the two Jokers 52 and 53), each equally likely among the cards the deal
  may take next, in the game's own dealing order (its features say it); so is any shuffle the
  rules make during play (``Features.reshuffle``), dealt again card by card after the action
  that made it. The deal and the shuffles follow exactly the distribution of Parlour's seeded
  games.
- **Players' actions** are the game's integer action ids (``Game.action_id``).
- **Information-state string**: the seat's log, every step as that seat saw it (redacted as
  ``State.log`` redacts it), then its current view as JSON: perfect recall. **Observation
  string**: the view's JSON.
- **Observation tensor**: the seat's observation features (the game's, built from its view,
  ``features.size(players)`` entries); a Parlour view already keeps what the seat may remember
  of the cards (cards known in hands, what passes showed).
- **Information-state tensor**: the observation tensor followed by the players' actions, so
  that two different histories never give one tensor (perfect recall, within the window)::

      block         size        what
      observation   S           the observation tensor above
      actions       1           player actions so far / max_game_length (at most 1)
      overflow      1           1 once more actions were played than the window keeps
      history       K x (n+A)   one row an action, the latest first: one-hot the seat that
                                made it (n), one-hot its action id (A); rows beyond the
                                actions so far are 0

  ``A`` is ``num_distinct_actions``, ``n`` the players, ``K`` the window: the parameter
  ``info_state_window``, or when it is 0 (the default) the game's ``max_game_length`` up to
  128. Every action is public at the table (its notation is, in every Parlour game), so the
  rows hold nothing hidden; chance outcomes are not rows (what a seat saw of them is in its
  view). Up to ``K`` actions the tensor holds the whole sequence of actions; past ``K`` the
  last ``K``, the count and the overflow flag. The observer's ``dict`` names the four blocks
  (``history`` as a ``K x (n+A)`` array).
- ``resample_from_infostate(player, sampler)`` deals a full state consistent with the player's
  view through the game's ``sample``; other seats' histories in it are unknown, so their
  information states start at the resample.
- **Serialisation**: OpenSpiel's own (the history of actions and chance outcomes, replayed).
- Returns are the outcome's returns (a win share of 1 split among the winners; a draw may give
  0 to all), so the games are general-sum with utilities from 0 to 1.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import pyspiel

from parlour.adapters.encoding import Layout, layout_for
from parlour.adapters.features import CARD_INDEX, DECK54, Observation
from parlour.adapters.spiel_parts import (
    DEFAULT_WINDOW,
    WINDOW,
    InfoState,
    ParlourObserver,
    Shared,
    Trail,
    option_value,
    param_default,
    window_of,
)
from parlour.core.game import Game, State
from parlour.core.options import OptionValue
from parlour.games import GAMES

__all__ = [
    "DEFAULT_WINDOW",
    "SHORT_NAMES",
    "WINDOW",
    "ParlourSpielGame",
    "ParlourSpielState",
    "game_type",
]

_UNBOUNDED = 100_000
"""The length OpenSpiel is told for a game whose rules and options set no bound (a game that
ends only when a hand runs out or a position repeats): not a proven bound, a generous one."""


def game_type(game: Game) -> pyspiel.GameType:
    """The OpenSpiel game type of ``game``: ``parlour_<name>``, its parameters and facts.

    Raises:
        ValueError: the game has an option named as the adapter's own parameter.
    """
    params: dict[str, Any] = {"players": game.info.default_players}
    for spec in game.info.options:
        default = param_default(spec)
        if default is not None:
            params[spec.name] = default
    if WINDOW in params:
        raise ValueError(f"{game.title} has an option {WINDOW}, an OpenSpiel parameter here")
    params[WINDOW] = 0
    return pyspiel.GameType(
        short_name=f"parlour_{game.info.name}",
        long_name=f"Parlour {game.info.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=game.info.max_players,
        min_num_players=game.info.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=params,
    )


def _settings(game: Game, params: Mapping[str, Any]) -> tuple[int, dict[str, OptionValue]]:
    """The player count and Parlour options that OpenSpiel parameters give.

    Raises:
        InvalidOption: a bad player count or option, naming it.
    """
    players = game.check_players(params.get("players", game.info.default_players))
    chosen = {
        spec.name: option_value(spec, params[spec.name])
        for spec in game.info.options
        if spec.name in params
    }
    return players, game.options(chosen)


class ParlourSpielGame(pyspiel.Game):  # type: ignore[misc]
    """A Parlour game as an OpenSpiel game (see the module docstring)."""

    parlour: Game

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        given = dict(params or {})
        kind = game_type(self.parlour)
        players, options = _settings(self.parlour, given)
        self.parlour.new(players, 0, options)  # the game's own checks refuse bad options now
        layout = layout_for(self.parlour, players)
        bound = layout.max_length(options)
        length = _UNBOUNDED if bound is None else bound
        actions = self.parlour.info.num_distinct_actions
        info = pyspiel.GameInfo(
            num_distinct_actions=actions,
            max_chance_outcomes=1 + max(CARD_INDEX[c] for c in layout.deck),
            num_players=players,
            min_utility=0.0,
            max_utility=1.0,
            max_game_length=length,
        )
        super().__init__(kind, info, given)
        # Made once here, where OpenSpiel makes a game again from its parameters when it
        # unpickles one: OpenSpiel makes an initial state each time it is asked a tensor's
        # size (on every observation_tensor call), so nothing may be made per state.
        self._players = players
        self._options = options
        self._layout = layout
        window = window_of(given, length)
        self._info_state = InfoState(layout.size, players, actions, length, window)

    @property
    def players(self) -> int:
        return self._players

    @property
    def options(self) -> dict[str, OptionValue]:
        """The Parlour options the parameters give."""
        return self._options

    @property
    def layout(self) -> Layout:
        """The game's layout at this player count."""
        return self._layout

    @property
    def info_state(self) -> InfoState:
        """The information-state tensor's layout after the observation."""
        return self._info_state

    def new_initial_state(self) -> ParlourSpielState:
        return ParlourSpielState(self)

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: Any = None
    ) -> ParlourObserver:
        if params:
            raise ValueError(f"observation parameters are not supported, got {params}")
        recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return ParlourObserver(self._layout, self._info_state if recall else None)


class ParlourSpielState(pyspiel.State):  # type: ignore[misc]
    """An OpenSpiel state: the deal being dealt, a Parlour state, or a restock being dealt."""

    def __init__(self, game: ParlourSpielGame) -> None:
        super().__init__(game)
        layout = game.layout
        self._shared = Shared(game.parlour, layout, game.options, None)
        self._actions = game.info_state.actions
        self._drawn: list[str] = []
        self._redeal: tuple[str, ...] = ()
        self._redealt: list[str] = []
        self._trail = Trail([], [[] for _ in range(layout.players)])

    @property
    def _parlour(self) -> Game:
        return self._shared.game

    @property
    def _layout(self) -> Layout:
        return self._shared.layout

    @property
    def _options(self) -> dict[str, OptionValue]:
        return self._shared.options

    @property
    def _state(self) -> State | None:
        return self._shared.state

    @_state.setter
    def _state(self, state: State | None) -> None:
        self._shared.state = state

    @property
    def parlour_state(self) -> State | None:
        """The Parlour state (hidden cards included), ``None`` while the deal is dealt."""
        return self._state

    @property
    def moves(self) -> tuple[tuple[int, int], ...]:
        """Every player action so far, oldest first, as (seat, action id)."""
        return tuple(divmod(code, self._actions) for code in self._trail.moves)

    # -- whose node ---------------------------------------------------------------------------

    def current_player(self) -> int:
        state = self._state
        if state is None or self._redeal:
            return int(pyspiel.PlayerId.CHANCE)
        if state.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        mover = state.to_move
        assert mover is not None
        return mover

    def is_terminal(self) -> bool:
        return self._state is not None and not self._redeal and self._state.is_over

    def _remaining(self) -> tuple[str, ...]:
        if self._state is None:
            return self._layout.deal_outcomes(self._drawn)
        taken = set(self._redealt)
        return tuple(
            c for c in sorted(set(self._redeal), key=CARD_INDEX.__getitem__) if c not in taken
        )

    def chance_outcomes(self) -> list[tuple[int, float]]:
        cards = sorted(CARD_INDEX[c] for c in self._remaining())
        p = 1.0 / len(cards)
        return [(c, p) for c in cards]

    def _legal_actions(self, player: int) -> list[int]:
        assert self._state is not None
        return list(self._state.legal_action_ids())

    # -- moves ----------------------------------------------------------------------------------

    def _apply_action(self, action: int) -> None:
        if self._state is None:
            self._drawn.append(str(DECK54[action]))
            if not self._layout.deal_outcomes(self._drawn):
                deal = self._layout.deal(self._drawn)
                self._enter(self._parlour.new(self._layout.players, 0, self._options, deal))
        elif self._redeal:
            self._redealt.append(str(DECK54[action]))
            if len(self._redealt) == len(self._redeal):
                self._state = self._layout.redeal(self._state, self._redealt)
                self._redeal, self._redealt = (), []
        else:
            mover = self._state.to_move
            assert mover is not None
            self._trail.moves.append(mover * self._actions + action)
            self._enter(self._state.apply_id(action))

    def _enter(self, state: State) -> None:
        """Take ``state`` on: each seat's log line, and a restock to deal again, if any."""
        self._state = state
        self._trail.states.append(state)
        if not state.is_over:
            self._redeal = self._layout.reshuffle(state)
            self._redealt = []

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"{'deal' if self._state is None else 'restock'} {DECK54[action]}"
        return str(self._parlour.action_from_id(action))

    def returns(self) -> list[float]:
        state = self._state
        if state is None or state.outcome is None or self._redeal:
            return [0.0] * self._layout.players
        return [float(r) for r in state.outcome.returns]

    def __str__(self) -> str:
        if self._state is None:
            return "dealing: " + " ".join(self._drawn)
        text = self._shared.text(None)
        if self._redeal:
            text += "\nrestock dealt: " + " ".join(self._redealt)
        return text

    # -- determinization ------------------------------------------------------------------------

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> Any:
        """A state consistent with ``player_id``'s view, dealt by the game's ``sample``."""
        if self._state is None or self._redeal:
            raise pyspiel.SpielError("resample_from_infostate is for decision nodes")
        seed = int(probability_sampler() * 2**53)
        sampled = self._parlour.sample(self._state.view(player_id), random.Random(seed))
        clone = self.get_game().new_initial_state()
        clone._drawn = list(self._drawn)
        clone._state = sampled
        clone._trail = self._trail.resampled(player_id)
        return clone

    # -- tensors --------------------------------------------------------------------------------

    def _seat(self, player: int | None) -> int:
        """``player``, or the player to move for ``None``, checked as OpenSpiel checks it."""
        seat = self.current_player() if player is None else player
        if not 0 <= seat < self._layout.players:
            raise pyspiel.SpielError(f"player must be 0 to {self._layout.players - 1}, got {seat}")
        return seat

    def observation_tensor(self, player: int | None = None) -> list[float]:
        """OpenSpiel's ``observation_tensor``, answered here: OpenSpiel's own answer for a
        Python game makes an initial state and an observation of it first, to learn the
        size, on every call. The same values; C++ callers get them through the observer."""
        return self._shared.observe(self._seat(player)).listed()

    def information_state_tensor(self, player: int | None = None) -> list[float]:
        """OpenSpiel's ``information_state_tensor``, answered here (as
        :meth:`observation_tensor`)."""
        layout: InfoState = self.get_game().info_state
        return layout.listed(self._shared.observe(self._seat(player)), self._trail.moves)

    # -- for the observer -----------------------------------------------------------------------

    def observation_of(self, player: int) -> Observation:
        """The observation tensor of ``player``."""
        return self._shared.observe(player).dense()

    def write_observation(self, tensor: Observation, player: int) -> None:
        """``player``'s observation tensor, into the first entries of ``tensor``."""
        self._shared.observe(player).write(tensor)

    def write_info_state(self, tensor: Observation, player: int, layout: InfoState) -> None:
        """``player``'s information-state tensor (the module docstring), into ``tensor``."""
        self.write_observation(tensor, player)
        layout.write(tensor, self._trail.moves)

    def view_string(self, player: int) -> str:
        if self._state is None:
            return f"Player {player + 1}: the cards are being dealt"
        return self._shared.text(player)

    def history_string(self, player: int) -> str:
        return "\n".join(self._trail.lines(player))


def _register() -> tuple[str, ...]:
    names = []
    for game in GAMES.values():
        # A class of this module per game, found by name when OpenSpiel pickles a game.
        name = f"ParlourSpielGame_{game.info.name}"
        cls = type(name, (ParlourSpielGame,), {"parlour": game, "__module__": __name__})
        globals()[name] = cls
        kind = game_type(game)
        if kind.short_name not in pyspiel.registered_names():
            pyspiel.register_game(kind, cls)
        names.append(kind.short_name)
    return tuple(names)


SHORT_NAMES: tuple[str, ...] = _register()
"""The registered names, one per Parlour game."""
