"""The contract every game implements, records, errors and seeded randomness."""

from parlour.core.game import JSON, Action, Agent, Event, Game, Outcome, State, View, seat_name
from parlour.core.options import OptionSpec, OptionValue, parse_option_pairs, validate_options
from parlour.core.record import Record, replay
from parlour.core.rng import check_seed, derive_seed, make_rng
from parlour.errors import (
    GameOver,
    IllegalAction,
    InvalidNotation,
    InvalidOption,
    InvalidRecord,
    NotYourTurn,
    ParlourError,
)

__all__ = [
    "JSON",
    "Action",
    "Agent",
    "Event",
    "Game",
    "GameOver",
    "IllegalAction",
    "InvalidNotation",
    "InvalidOption",
    "InvalidRecord",
    "NotYourTurn",
    "OptionSpec",
    "OptionValue",
    "Outcome",
    "ParlourError",
    "Record",
    "State",
    "View",
    "check_seed",
    "derive_seed",
    "make_rng",
    "parse_option_pairs",
    "replay",
    "seat_name",
    "validate_options",
]
