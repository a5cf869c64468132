"""Fair deals: a seed drawn in secret, committed to before the first card and revealed after the
last, so that anyone can check that nobody chose the deal (the online rooms deal this way).

The commitment of a seed is the lowercase hexadecimal SHA-256 (64 digits) of these bytes: the
26 ASCII characters ``parlour seed commitment v1`` and a newline (0x0a), 27 bytes in all
(:data:`COMMITMENT_PREFIX`), then the seed in decimal ASCII digits (no sign, no leading zeros,
nothing after it, no newline). Anyone can recompute it
without Parlour::

    printf 'parlour seed commitment v1\\n%s' 1234 | sha256sum

A record made this way carries the ``commitment`` and, once the game is over, its ``seed`` (and,
in a match, its ``deal_number``: see :mod:`parlour.core.record`); :func:`verify` (``parlour
verify RECORD``) checks the one against the other and replays the game from the seed to its end.
Seeds are drawn from the whole range Parlour takes (63 bits), too many to try one by one against
a commitment.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Callable
from dataclasses import dataclass

from parlour.core.game import Game, Outcome
from parlour.core.record import Record, replay
from parlour.core.rng import MAX_SEED, check_seed
from parlour.errors import InvalidOption, InvalidRecord

__all__ = ["COMMITMENT_PREFIX", "Verified", "commitment", "draw_seed", "verify"]

COMMITMENT_PREFIX = b"parlour seed commitment v1\n"


def draw_seed() -> int:
    """A seed from the operating system's secure source, in ``0..MAX_SEED``."""
    return secrets.randbelow(MAX_SEED + 1)


def commitment(seed: int) -> str:
    """The commitment to ``seed``: hex SHA-256 of :data:`COMMITMENT_PREFIX` and the seed."""
    text = str(check_seed(seed)).encode("ascii")
    return hashlib.sha256(COMMITMENT_PREFIX + text).hexdigest()


@dataclass(frozen=True, slots=True)
class Verified:
    """What :func:`verify` found: the record's facts and the outcome its replay reached."""

    game: str
    players: int
    seed: int
    commitment: str
    deal_number: int
    outcome: Outcome
    steps: int


def verify(obj: object, find_game: Callable[[str], Game]) -> Verified:
    """Check a finished game's record (``obj``, parsed JSON) against its commitment and replay
    it to its end; ``find_game`` finds a game by name (``parlour.games.find_game``: core knows
    no game).

    Raises:
        InvalidRecord: one line naming the problem: the record has no commitment, its seed does
            not match it, it gives its own ``deal`` (not made from the seed), it is not a record
            Parlour can replay (the field, or the action and why), or the game is not over.
    """
    record = Record.from_json(obj)
    if record.commitment is None:
        raise InvalidRecord(
            "record field 'commitment' is missing: this game was not dealt with a committed seed"
        )
    if not hmac.compare_digest(commitment(record.seed), record.commitment):
        raise InvalidRecord(
            "record field 'commitment' does not match its seed: the deal cannot be trusted"
        )
    if record.deal is not None:
        raise InvalidRecord(
            "record field 'deal' is set: a committed game is dealt from its seed alone"
        )
    try:
        game = find_game(record.game)
    except InvalidOption as err:
        raise InvalidRecord(f"record field 'game': {err}") from None
    states = replay(record, game)
    outcome = states[-1].outcome
    if outcome is None:
        raise InvalidRecord("the recorded game is not over, so its seed proves nothing yet")
    return Verified(
        game.name,
        record.players,
        record.seed,
        record.commitment,
        record.deal_number or 0,
        outcome,
        len(states) - 1,
    )
