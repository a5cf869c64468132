"""The contract every game implements, records, errors and seeded randomness."""

from parlour.core.game import FORMAT, JSON, Action, Agent, Game, Outcome, State, View, seat_name
from parlour.core.info import GameInfo
from parlour.core.log import Event, LogEntry, Step
from parlour.core.options import OptionSpec, OptionValue, parse_option_pairs, validate_options
from parlour.core.record import Record, TableEntry, check_format, replay
from parlour.core.rng import check_seed, derive_seed, make_rng
from parlour.errors import (
    ERROR_CODES,
    GameOver,
    IllegalAction,
    InvalidNotation,
    InvalidOption,
    InvalidRecord,
    NotYourTurn,
    ParlourError,
)

__all__ = [
    "ERROR_CODES",
    "FORMAT",
    "JSON",
    "Action",
    "Agent",
    "Event",
    "Game",
    "GameInfo",
    "GameOver",
    "IllegalAction",
    "InvalidNotation",
    "InvalidOption",
    "InvalidRecord",
    "LogEntry",
    "NotYourTurn",
    "OptionSpec",
    "OptionValue",
    "Outcome",
    "ParlourError",
    "Record",
    "State",
    "Step",
    "TableEntry",
    "View",
    "check_format",
    "check_seed",
    "derive_seed",
    "make_rng",
    "parse_option_pairs",
    "replay",
    "seat_name",
    "validate_options",
]
