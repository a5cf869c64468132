"""The end of a game at the terminal offers its review (issue 31.3): ``r`` shows the decisive
moments of the people's decisions, then the question comes again. Driven in-process by a
scripted person, with a small search budget so the review is quick."""

from __future__ import annotations

from typing import Any

import pytest

from parlour.bots.ismcts import SearchBudget
from parlour.bots.review import review_record
from parlour.games import find_game
from parlour.play.speech import spoken
from parlour.play.table import Table, check_seat_specs
from parlour.play.terminal import TerminalGame, play_on
from tests.play.helpers import Script, console

QUICK = SearchBudget(iterations=40)


def first_move(prompt: str) -> str:
    """The person: the first move listed; drinks to give go to Player 2; a card is turned
    with Enter."""
    if "give" in prompt:
        return "2"
    return "" if "turn your card" in prompt else "1"


def played_to_the_end(game: str, specs: list[str], seed: int = 2) -> tuple[TerminalGame, str]:
    """A game where the person always plays the first move listed, to its end; the terminal
    and what it printed."""
    g = find_game(game)
    table = Table(g, check_seat_specs(g, specs), seed)
    shown, out = console()
    terminal_game = TerminalGame(table, shown, first_move, save_path=None)
    assert terminal_game.run() == "over"
    terminal_game.review_budget = QUICK
    return terminal_game, out.getvalue()


def test_the_end_screen_offers_the_review_and_r_shows_it() -> None:
    game, shown = played_to_the_end("beor", ["person", "heuristic"])
    end = shown[shown.index("Game over") :]
    assert "r: review this game" in end
    before = len(game.console.file.getvalue())  # type: ignore[attr-defined]
    script = Script(["r", "n"])
    assert play_on(script, review=game.review) is False
    assert script.prompts == ["Play another game? [y/N]> "] * 2  # asked again after the review
    review = game.console.file.getvalue()[before:]  # type: ignore[attr-defined]
    # The person playing the first move listed gives chances away; the bot is not reviewed.
    assert "Decisive moments" in review and "Player 1 (you)" in review
    assert "Player 2 (heuristic)" not in review


def test_only_the_peoples_decisions_are_reviewed(monkeypatch: pytest.MonkeyPatch) -> None:
    game, _ = played_to_the_end("death", ["person", "random", "random"], seed=3)
    asked: list[object] = []

    def spy(*args: Any, **kwargs: Any) -> Any:
        asked.append(kwargs.get("seats"))
        return review_record(*args, **kwargs)

    monkeypatch.setattr("parlour.play.review.review_record", spy)
    game.review()
    assert asked == [(0,)]


def test_yes_still_plays_on_and_no_review_without_r() -> None:
    game, _ = played_to_the_end("beor", ["person", "heuristic"])
    calls: list[int] = []
    assert play_on(Script(["y"]), review=lambda: calls.append(1)) is True
    assert play_on(Script(["r", "r", ""]), review=lambda: calls.append(1)) is False
    assert calls == [1, 1]
    assert game.reviewable


@pytest.mark.parametrize(
    ("lang", "offer", "answer"),
    [("ro", "r: vezi analiza jocului", "analiza"), ("nl", "r: bekijk de analyse", "analyse")],
)
def test_the_offer_in_the_table_language(lang: str, offer: str, answer: str) -> None:
    with spoken(lang):
        _, shown = played_to_the_end("beor", ["person", "heuristic"])
        assert offer in shown
        calls: list[int] = []
        assert play_on(Script([answer, "n"]), review=lambda: calls.append(1)) is False
        assert calls == [1]


def test_no_offer_without_people_or_decisions() -> None:
    bots, shown = played_to_the_end("beor", ["heuristic", "heuristic"])
    assert not bots.reviewable and "review this game" not in shown
    beggar, shown = played_to_the_end("beggar", ["person", "bot"], seed=4)
    assert not beggar.reviewable and "review this game" not in shown


def test_ctrl_c_stops_the_review_and_the_question_comes_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game, _ = played_to_the_end("beor", ["person", "heuristic"])

    def interrupted(*args: object, **kwargs: object) -> object:
        raise KeyboardInterrupt

    monkeypatch.setattr("parlour.play.review.review_record", interrupted)
    script = Script(["r", "n"])
    assert play_on(script, review=game.review) is False
    assert len(script.prompts) == 2
    assert "Review stopped." in game.console.file.getvalue()  # type: ignore[attr-defined]


def test_parlour_play_offers_it_after_the_game(monkeypatch: pytest.MonkeyPatch) -> None:
    """Through ``parlour play``'s loop of games: ``r`` at "Play another game?" shows the
    review, then the question comes again and ``n`` ends."""
    from parlour.cli.play_session import play_tables

    g = find_game("beor")
    table = Table(g, check_seat_specs(g, ["person", "heuristic"]), 2)
    shown, out = console()
    asked: list[str] = []
    answers = iter(["r", "n"])

    def person(prompt: str = "") -> str:
        asked.append(prompt)
        return next(answers) if prompt.startswith("Play another") else first_move(prompt)

    monkeypatch.setattr("builtins.input", person)
    monkeypatch.setattr(TerminalGame, "review_budget", QUICK)
    assert play_tables(table, shown, None, 0.0) == 0
    assert [p for p in asked if p.startswith("Play another")] == ["Play another game? [y/N]> "] * 2
    text = out.getvalue()
    assert text.index("r: review this game") < text.index("Decisive moments")
