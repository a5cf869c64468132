"""What the OpenSpiel states of :mod:`parlour.adapters.openspiel` hold and how they copy, the
information-state tensor's layout, the observer, and how options become parameters.

OpenSpiel clones a Python state with ``copy.deepcopy`` and serialises it with ``pickle``. A
Parlour state is immutable and remembers the states before it (for its log), so clones share
it, and a pickle carries its JSON (``Game.state_from_json``), each seat's log lines and the
players' actions so far.
"""

from __future__ import annotations

import json
from array import array
from collections.abc import Mapping
from typing import Any, Protocol, cast

import numpy as np

from parlour.adapters.encoding import Layout, layout_for
from parlour.adapters.features import Observation, Sparse
from parlour.core.game import JSON, Game, State
from parlour.core.options import OptionSpec, OptionValue
from parlour.errors import InvalidOption
from parlour.games import find_game

__all__ = [
    "DEFAULT_WINDOW",
    "WINDOW",
    "InfoState",
    "Observed",
    "ParlourObserver",
    "Shared",
    "Trail",
    "option_value",
    "param_default",
    "window_of",
]

WINDOW = "info_state_window"
"""The parameter that sets how many of the latest actions the information-state tensor keeps."""
DEFAULT_WINDOW = 128
"""The window when ``info_state_window`` is 0: ``max_game_length`` where it is shorter."""


def param_default(spec: OptionSpec) -> int | bool | str | None:
    """The OpenSpiel parameter default of an option, or None for an option not offered."""
    default = spec.default
    if spec.kind == "bool" and isinstance(default, bool):
        return default
    if spec.kind == "int":
        if default is None:
            return 0 if spec.nullable else None
        return int(default) if isinstance(default, int) else None
    if spec.kind == "choice" and isinstance(default, str):
        return default
    if spec.kind == "players" and isinstance(default, tuple):
        return ",".join(str(s) for s in default)  # player numbers from 1, as given
    return None


def option_value(spec: OptionSpec, value: object) -> object:
    """An OpenSpiel parameter as the option value Parlour's validation reads."""
    if spec.kind == "int" and spec.nullable and value == 0:
        return None
    return value


def _float32(value: float) -> float:
    """``value`` rounded to float32, as a tensor holds it."""
    return array("f", [value])[0]


def window_of(params: Mapping[str, Any], length: int) -> int:
    """The information-state window that the parameters and ``max_game_length`` give.

    Raises:
        InvalidOption: ``info_state_window`` is not a whole number of at least 0.
    """
    given = params.get(WINDOW, 0)
    if isinstance(given, bool) or not isinstance(given, int) or given < 0:
        raise InvalidOption(f"{WINDOW} must be a whole number of at least 0, got {given!r}")
    return given or min(length, DEFAULT_WINDOW)


class InfoState:
    """The information-state tensor's blocks after the observation (the docstring of
    :mod:`parlour.adapters.openspiel`): the action count, the overflow flag and the window of
    ``window`` rows."""

    __slots__ = ("actions", "length", "observed", "players", "row", "size", "window")

    def __init__(self, observed: int, players: int, actions: int, length: int, window: int):
        self.observed = observed
        self.players = players
        self.actions = actions
        self.length = length
        self.window = window
        self.row = players + actions
        self.size = observed + 2 + window * self.row

    def blocks(self, tensor: Observation) -> dict[str, Observation]:
        """The named blocks of ``tensor`` (views into it)."""
        at = self.observed
        return {
            "observation": tensor[:at],
            "actions": tensor[at : at + 1],
            "overflow": tensor[at + 1 : at + 2],
            "history": tensor[at + 2 :].reshape(self.window, self.row),
        }

    def write(self, tensor: Observation, moves: list[int]) -> None:
        """The blocks after the observation, in ``tensor``, for the ``moves`` so far (each
        ``seat * actions + action id``, oldest first)."""
        at = self.observed
        tensor[at:] = 0.0
        count = len(moves)
        tensor[at] = min(1.0, count / self.length)
        tensor[at + 1] = 1.0 if count > self.window else 0.0
        if count:
            latest = np.asarray(moves[-self.window :][::-1], dtype=np.intp)
            rows = at + 2 + np.arange(len(latest), dtype=np.intp) * self.row
            tensor[rows + latest // self.actions] = 1.0
            tensor[rows + self.players + latest % self.actions] = 1.0

    def listed(self, observed: Sparse, moves: list[int]) -> list[float]:
        """The whole tensor as a list of floats (what :meth:`write` and the observation
        make, without a numpy array)."""
        listed = observed.listed()
        at = len(listed)
        listed.extend([0.0] * (self.size - at))
        count = len(moves)
        listed[at] = _float32(min(1.0, count / self.length))
        listed[at + 1] = 1.0 if count > self.window else 0.0
        row = at + 2
        actions, players, width = self.actions, self.players, self.row
        for code in reversed(moves[-self.window :]):
            seat, action = divmod(code, actions)
            listed[row + seat] = 1.0
            listed[row + players + action] = 1.0
            row += width
        return listed


class Observed(Protocol):
    """What the observer reads of an OpenSpiel state of :mod:`parlour.adapters.openspiel`."""

    def write_observation(self, tensor: Observation, player: int) -> None: ...

    def write_info_state(self, tensor: Observation, player: int, layout: InfoState) -> None: ...

    def view_string(self, player: int) -> str: ...

    def history_string(self, player: int) -> str: ...


class ParlourObserver:
    """OpenSpiel's Python observer: the observation features as the tensor, or with
    ``info_state`` the information-state tensor; the view (after the log, for perfect recall)
    as the string."""

    def __init__(self, layout: Layout, info_state: InfoState | None) -> None:
        self.info_state = info_state
        self.perfect_recall = info_state is not None
        size = layout.size if info_state is None else info_state.size
        self.tensor: Observation = np.zeros(size, dtype=np.float32)
        self.dict: dict[str, Observation] = (
            {"observation": self.tensor} if info_state is None else info_state.blocks(self.tensor)
        )

    def set_from(self, state: Observed, player: int) -> None:
        if self.info_state is None:
            state.write_observation(self.tensor, player)
        else:
            state.write_info_state(self.tensor, player, self.info_state)

    def string_from(self, state: Observed, player: int) -> str:
        view = state.view_string(player)
        if not self.perfect_recall:
            return view
        return f"{state.history_string(player)}\n{view}"


class Shared:
    """What clones share: OpenSpiel clones a Python state with ``copy.deepcopy``, and a Parlour
    state is immutable (and remembers the states before it, for its log), so copying it would
    only cost time. ``seen`` keeps the observations made of the current state, by seat (an
    observation tensor and an information-state tensor of one seat read the same features),
    and ``texts`` its JSON texts (the state's under ``None``, each seat's view under the seat:
    OpenSpiel asks a state for its string, its serialisation, and each seat's observation and
    information-state strings, which share them); setting ``state`` empties both, and clones
    and pickles start without them."""

    __slots__ = ("_doc", "_state", "game", "layout", "options", "seen", "texts")

    def __init__(
        self, game: Game, layout: Layout, options: dict[str, OptionValue], state: State | None
    ) -> None:
        self.game = game
        self.layout = layout
        self.options = options
        self._state = state
        self.seen: dict[int, Sparse] = {}
        self.texts: dict[int | None, str] = {}
        self._doc: JSON = None

    @property
    def state(self) -> State | None:
        return self._state

    @state.setter
    def state(self, state: State | None) -> None:
        self._state = state
        self.seen = {}
        self.texts = {}
        self._doc = None

    def doc(self) -> JSON:
        """The current state's JSON (``State.to_json``), made once; ``None`` while the deal
        is dealt. Read only."""
        if self._doc is None and self._state is not None:
            self._doc = self._state.to_json()
        return self._doc

    def text(self, seat: int | None) -> str:
        """The JSON text of the current state (``None``) or of ``seat``'s view, made once
        (keys sorted, not ASCII-escaped). The state must be dealt."""
        made = self.texts.get(seat)
        if made is None:
            state = self._state
            assert state is not None
            doc = self.doc() if seat is None else state.view(seat).to_json()
            made = json.dumps(doc, sort_keys=True, ensure_ascii=False)
            self.texts[seat] = made
        return made

    def observe(self, seat: int) -> Sparse:
        """The observation features of the current state's view for ``seat``, made once
        (all zero while the deal is dealt)."""
        made = self.seen.get(seat)
        if made is None:
            state = self._state
            if state is None:
                made = Sparse(self.layout.size, [], [], array("f"))
            else:
                made = self.layout.observe_sparse(state.view(seat))
            self.seen[seat] = made
        return made

    def __deepcopy__(self, memo: dict[int, object]) -> Shared:
        return Shared(self.game, self.layout, self.options, self._state)

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled (OpenSpiel's serialisation of Python states) as the game's name, the
        player count, the options and the state's JSON (``Game.state_from_json``)."""
        state = self.doc()
        return (_shared_from, (self.game.name, self.layout.players, self.options, state))


class Trail:
    """The Parlour states entered so far, oldest first, and each seat's log lines made from
    them so far (one JSON line per step, made once): a clone copies the lists, never the
    states or the lines. After a resample for seat ``seat``, the states before ``cut`` belong
    to that seat's history only. ``moves`` holds every player action so far, oldest first,
    as ``seat * num_distinct_actions + action id`` (public at the table, so every seat's
    information-state tensor shows them; a resample keeps them)."""

    __slots__ = ("cut", "made", "moves", "seat", "states")

    def __init__(
        self,
        states: list[State],
        made: list[list[str]],
        seat: int | None = None,
        cut: int = 0,
        moves: list[int] | None = None,
    ) -> None:
        self.states = states
        self.made = made
        self.seat = seat
        self.cut = cut
        self.moves: list[int] = [] if moves is None else moves

    def __deepcopy__(self, memo: dict[int, object]) -> Trail:
        made = [list(m) for m in self.made]
        return Trail(list(self.states), made, self.seat, self.cut, list(self.moves))

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as every seat's lines, made now, and the moves: the states need not
        travel."""
        made = [self.lines(seat) for seat in range(len(self.made))]
        return (_trail_from, (made, len(self.states), self.seat, self.cut, self.moves))

    def resampled(self, seat: int) -> Trail:
        """The trail of a state resampled for ``seat``."""
        made = [list(m) if s == seat else [] for s, m in enumerate(self.made)]
        return Trail(list(self.states), made, seat, len(self.states), list(self.moves))

    def lines(self, seat: int) -> list[str]:
        """The seat's log, one JSON line per step."""
        made = self.made[seat]
        if not made and self.seat is not None and seat != self.seat:
            made.append("(resampled: the history before is unknown)")
        start = self.cut if self.seat is not None and seat != self.seat else 0
        done = len(made) - (1 if start else 0)
        for state in self.states[start + done :]:
            (entry,) = state.tail(seat, 1)
            # Without the entry's index: a state read from JSON (a restock dealt again, a
            # resample, an unpickled state) starts a new log, and its steps read the same.
            line = {k: v for k, v in entry.to_json().items() if k != "index"}
            made.append(json.dumps(line, sort_keys=True, ensure_ascii=False))
        return made


def _shared_from(name: str, players: int, options: dict[str, OptionValue], state: Any) -> Shared:
    game = find_game(name)
    made = None if state is None else game.state_from_json(state)
    return Shared(game, layout_for(game, players), options, made)


def _trail_from(
    made: list[list[str]], count: int, seat: int | None, cut: int, moves: list[int]
) -> Trail:
    """A trail whose lines are all made: its states are never read again."""
    return Trail(cast("list[State]", [None] * count), made, seat, cut, moves)
