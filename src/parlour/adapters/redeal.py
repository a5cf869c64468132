"""Deals that leave a decision: the Gymnasium and PettingZoo environments never start an episode
that is already over.

A deal can be over before a learner decides anything: a game may end at once when a hand is
dealt as a winning one, or a bot that moves before the learning seat may win with its first
move. An episode without a decision has an all-false action mask, on which a learner
can do nothing, so ``reset`` deals again, from the next seed of a fixed chain:
``next_deal_seed(seed) == derive_seed(seed, "redeal")`` (:func:`parlour.core.rng.derive_seed`).
The same reset seed gives the same redeals on any machine, and the deal an episode plays is the
one ``reset(seed=info["deal_seed"])`` plays. ``info["redeals"]`` counts them: 0 for almost
every seed.

OpenSpiel keeps such deals: its games may be terminal right after their chance nodes.
"""

from __future__ import annotations

from collections.abc import Callable

from parlour.core.game import State
from parlour.core.rng import check_seed, derive_seed
from parlour.errors import InvalidOption

__all__ = ["MAX_REDEALS", "deal_with_decision", "next_deal_seed"]

MAX_REDEALS = 100
"""Deals in a row that may end before the first decision before ``reset`` gives up (a game
whose every deal ends at once cannot be learned). The built-in games' worst case is about
1 deal in 400."""


def next_deal_seed(seed: int) -> int:
    """The seed dealt after a deal from ``seed`` ends before the learner's first decision."""
    return derive_seed(check_seed(seed), "redeal")


def deal_with_decision(seed: int, deal: Callable[[int], State], who: str) -> tuple[State, int, int]:
    """``deal(seed)``, dealt again from :func:`next_deal_seed` while the game it returns is
    over. ``deal`` returns the state at the learner's first decision (or the end); ``who``
    names the learner in the error.

    Returns:
        The state, the seed of the deal it plays, and the number of redeals.

    Raises:
        InvalidOption: :data:`MAX_REDEALS` deals in a row ended before a decision.
    """
    played = check_seed(seed)
    state = deal(played)
    redeals = 0
    while state.is_over:
        if redeals == MAX_REDEALS:
            raise InvalidOption(
                f"seed {seed}: {MAX_REDEALS + 1} deals in a row ended before {who} had a "
                "decision; these options leave nothing to learn"
            )
        redeals += 1
        played = next_deal_seed(played)
        state = deal(played)
    return state, played, redeals
