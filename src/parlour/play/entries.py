"""Table entries typed at the table (a game's penalties such as ``NAME Pk``).

An entry on oneself is made at once. An entry on another player needs the table's say: the
other people at the keyboard are asked to vote, the bots vote no (they never delay the game),
and the rules decide whether the votes carry it; a refusal says why, naming the ruling. The
entry, with who made it and who voted for it, goes into the record (``table``).
"""

from __future__ import annotations

from collections.abc import Callable

from parlour.core.present import Presenter
from parlour.errors import ParlourError
from parlour.play.saving import Reader
from parlour.play.speech import agrees, presenter_of, say, seat_called
from parlour.play.table import Table

__all__ = ["make_entry"]


def make_entry(
    table: Table,
    seat: int,
    line: str,
    read: Reader,
    *,
    before_votes: Callable[[], None] = lambda: None,
    after_votes: Callable[[], None] = lambda: None,
) -> tuple[bool, str]:
    """Make the table entry ``line`` for ``seat``, asking the other people to vote where it
    penalises another player (``before_votes`` and ``after_votes`` run around the questions:
    the screen must show no hand while others are at the keyboard). Returns whether it was
    made and what to say, in one line naming the rule.

    Raises:
        EOFError: input ended while a vote was asked.
    """
    presenter = presenter_of(table.game)
    try:
        target = presenter.entry_target(line)
    except ParlourError as err:
        return False, f"{presenter.refusal(err)}."
    votes: list[int] = []
    said = ""
    if target is not None and target != seat:
        voters = [s for s in range(table.players) if s not in (seat, target)]
        try:  # would it stand if everyone agreed? Then nobody is asked in vain.
            table.state.apply_table(line, by=seat, votes=voters)
        except ParlourError as err:
            return False, f"{presenter.refusal(err)}."
        people = [s for s in voters if table.seats[s].is_person]
        bots = [s for s in voters if s not in people]
        if people:
            before_votes()
            for voter in people:
                try:
                    answer = read(
                        _said(
                            presenter,
                            "vote",
                            voter=seat_called(voter),
                            seat=seat_called(seat),
                            entry=repr(line.strip()),
                        )
                    )
                except KeyboardInterrupt:
                    answer = "n"
                if agrees(answer):
                    votes.append(voter)
            after_votes()
        if bots:
            said = say("bots_no", bots=", ".join(table.seat_label(s) for s in bots))
    try:
        table.enter(line, by=seat, votes=votes)
    except ParlourError as err:
        return False, said + say("not_entered", error=presenter.refusal(err))
    return True, said + _said(presenter, "entered", entry=table.entries[-1].entry)


def _said(presenter: Presenter, key: str, **values: object) -> str:
    """The game's words for a table entry's question or note, ``ui.table.KEY`` (they may name
    its ruling), else the terminal's own ``KEY``."""
    if f"ui.table.{key}" in presenter.words:
        return presenter.say(f"ui.table.{key}", None, **values)
    return say(key, None, **values)
