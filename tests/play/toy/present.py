"""How a front end shows Race to Seven."""

from __future__ import annotations

from collections.abc import Sequence

from parlour.core.game import Action, Outcome, View
from parlour.core.present import Block, Heading, Presenter, Styled
from tests.play.toy.game import GOAL, RaceView


class RacePresenter(Presenter):
    rules = f"Race to Seven: add 1 or 2 to the count; whoever makes it {GOAL} wins (T1)."

    def table(self, view: View, labels: Sequence[str], legal: Sequence[Action]) -> list[Block]:
        assert isinstance(view, RaceView)
        head = Heading("Race to Seven", f"count {view.count} of {GOAL}", view.to_move)
        return [head, Styled(f"The count stands at {view.count}.")]

    def result_text(self, outcome: Outcome, labels: Sequence[str], moves: int) -> str:
        return f"{labels[outcome.winners[0]]} makes it {GOAL} after {moves} moves (T1)"


PRESENTER = RacePresenter()
