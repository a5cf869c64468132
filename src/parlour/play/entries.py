"""Table entries typed at the table (the Game of Death's ``doh Pk`` and ``delay Pk``, G13).

An entry on oneself is made at once. An entry on another player needs the table's say: the
other people at the keyboard are asked to vote, the bots vote no (they never delay the game),
and the rules decide whether the votes carry it; a refusal says why, naming the ruling. The
entry, with who made it and who voted for it, goes into the record (``table``).
"""

from __future__ import annotations

from collections.abc import Callable

from parlour.core.game import seat_name
from parlour.errors import ParlourError
from parlour.play.saving import Reader
from parlour.play.table import Table

__all__ = ["make_entry"]


def _agrees(answer: str) -> bool:
    return answer.strip().lower() in ("y", "yes")


def make_entry(
    table: Table, seat: int, line: str, read: Reader, say: Callable[[str], None]
) -> bool:
    """Make the table entry ``line`` for ``seat``, asking the other people to vote where it
    penalises another player; True once it is made. Refusals are said in one line.

    Raises:
        EOFError: input ended while a vote was asked.
    """
    presenter = table.game.presenter
    try:
        target = presenter.entry_target(line)
    except ParlourError as err:
        say(f"{err}.")
        return False
    votes: list[int] = []
    if target is not None and target != seat:
        voters = [s for s in range(table.players) if s not in (seat, target)]
        try:  # would it stand if everyone agreed? Then nobody is asked in vain.
            table.state.apply_table(line, by=seat, votes=voters)
        except ParlourError as err:
            say(f"{err}.")
            return False
        bots = [s for s in voters if not table.seats[s].is_person]
        for voter in voters:
            if voter in bots:
                continue
            try:
                answer = read(
                    f"{seat_name(voter)}, {seat_name(seat)} asks for {line.strip()!r} (G13). "
                    "Do you agree? [y/N]> "
                )
            except KeyboardInterrupt:
                answer = "n"
            if _agrees(answer):
                votes.append(voter)
        if bots:
            names = ", ".join(table.seat_label(s) for s in bots)
            say(f"{names}: no (bots never delay the game, G13).")
    try:
        table.enter(line, by=seat, votes=votes)
    except ParlourError as err:
        say(f"Not entered: {err}.")
        return False
    return True
