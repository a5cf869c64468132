"""``parlour play`` driven through a pseudo-terminal, as a person at a keyboard would drive it:
whole games against bots for each game, bad input, saving and resuming, the hot seat hand-over,
the menu and tab completion."""

from __future__ import annotations

import json
import os
import re
import signal
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pexpect
import pytest

from parlour.games import find_game

EXAMPLE = "--Q-K--K-AQ-------J--A-J--/------Q-----JA---AKQ---K-J"

PROMPTS: list[Any] = [
    r"Player 1> ",
    r"give \d+ drinks? \(G5\)[^\n]*> ",
    r"press Enter to turn your card \(or auto, help\)> ",
    r"Play another (?:game|deal)\?[^\n]*\[y/N\]> ",
]
LEAVE = r"Leave the game\? \(save / leave without saving / back to the game\) \[back\]> "


def spawn(
    *args: str, cwd: Path, preexec_fn: Callable[[], None] | None = None
) -> pexpect.spawn[str]:
    env = dict(os.environ, COLUMNS="120", LINES="50", TERM="xterm", NO_COLOR="1")
    return pexpect.spawn(
        sys.executable,
        ["-m", "parlour", "play", *args],
        cwd=str(cwd),
        env=env,
        encoding="utf-8",
        timeout=60,
        dimensions=(50, 120),
        preexec_fn=preexec_fn,
    )


def _sigint_blocked_and_ignored() -> None:
    """What a process may inherit from its parent (a script's background job, a long-lived
    test runner): SIGINT blocked and ignored."""
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def play_to_the_end(child: pexpect.spawn[str], answers: tuple[str, str, str]) -> str:
    """Answer every prompt (a move, a give, a card turn) until the game ends; the whole
    output is returned."""
    seen: list[str] = []
    for _ in range(5000):
        index = child.expect(PROMPTS)
        seen.append(f"{child.before}{child.after}")
        if index == 3:
            child.sendline("n")
            break
        child.sendline(answers[index])
    else:
        raise AssertionError("the game did not end")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    return "".join(seen)


@pytest.mark.slow
class TestWholeGames:
    def test_beor_against_a_bot(self, tmp_path: Path) -> None:
        child = spawn("beor", "--seed", "3", "--seat", "2=random", cwd=tmp_path)
        out = play_to_the_end(child, ("1", "", ""))
        assert "Game over" in out and "wins after" in out
        assert "Your hand:" in out and "Black" in out

    def test_game_of_death_against_bots(self, tmp_path: Path) -> None:
        child = spawn(
            "death",
            "--players",
            "3",
            "--seed",
            "4",
            "--seat",
            "2=random",
            "--seat",
            "3=heuristic",
            cwd=tmp_path,
        )
        out = play_to_the_end(child, ("1", "2", ""))
        assert "Game over" in out and "the deal with the fewest taken" in out
        assert "drinks taken" in out

    def test_beggar_my_neighbour_turning_each_card(self, tmp_path: Path) -> None:
        child = spawn("beggar", "--deal", EXAMPLE, "--seat", "2=bot", cwd=tmp_path)
        out = play_to_the_end(child, ("", "", ""))
        # RULINGS worked example: this deal ends after 192 cards and 20 tricks.
        assert "Player 1 (you) wins after 192 cards and 20 tricks." in out
        state, mine = find_game("beggar").new(2, 0, None, EXAMPLE), 0
        while not state.is_over:
            mine += state.to_move == 0
            state = state.apply("play")
        assert out.count("press Enter to turn your card (or auto, help)> ") == mine


class TestAtTheKeyboard:
    def test_bad_input_is_explained_and_asked_again(self, tmp_path: Path) -> None:
        child = spawn("beor", "--seed", "3", "--seat", "2=random", cwd=tmp_path)
        child.expect("Player 1> ")
        child.sendline("zz")
        child.expect("'zz' is not a BEOR action")
        child.expect("Player 1> ")
        child.sendline("7h>even/black/red")
        child.expect("Player 1> ")
        child.sendline("quit")
        child.expect(LEAVE)
        child.sendline("leave")
        child.expect("Left the table without saving.")
        child.expect(pexpect.EOF)
        child.close()
        assert child.exitstatus == 0
        assert not list(tmp_path.iterdir())

    def test_an_illegal_throw_costs_two_drinks(self, tmp_path: Path) -> None:
        """G13: an illegal throw costs 2 drinks and the card goes back to the hand."""
        death = find_game("death")
        seed = next(s for s in range(100) if death.new(3, s).to_move == 0)
        hand = death.new(3, seed).view(0).hand  # type: ignore[attr-defined]
        other = next(c for c in hand if str(c) != "2D")
        child = spawn("death", "--players", "3", "--seed", str(seed), cwd=tmp_path)
        child.expect("Player 1> ")
        child.sendline(str(other))
        # A typo costs nothing: the penalty is asked for first (G13).
        child.expect(rf"Throw {other} illegally\? It costs 2 drinks \(G13\) \[y/N\]> ")
        child.sendline("y")
        child.expect(r"the holder of 2D throws it first \(G1\): an illegal throw costs 2 drinks")
        child.expect("Player 1> ")
        child.sendline("quit")
        child.expect(LEAVE)
        child.sendline("leave")
        child.expect(pexpect.EOF)

    def test_save_and_resume(self, tmp_path: Path) -> None:
        child = spawn("beor", "--seed", "5", "--seat", "2=random", "--save", "g.json", cwd=tmp_path)
        for _ in range(2):
            child.expect("Player 1> ")
            child.sendline("1")
        child.expect("Player 1> ")
        child.sendline("quit")
        child.expect(LEAVE)
        child.sendline("save")
        child.expect("The game is saved in g.json")
        child.expect(pexpect.EOF)
        saved = json.loads((tmp_path / "g.json").read_text())
        assert len(saved["actions"]) == 4 and saved["seats"] == ["person", "random"]

        child = spawn("--resume", "g.json", cwd=tmp_path)
        child.expect(r"move 5 .*Player 1 \(you\) to move")
        child.expect("Player 1> ")
        child.sendline("1")
        child.expect("Player 1> ")
        child.sendline("quit")
        child.expect(LEAVE)
        child.sendline("leave")
        child.expect(pexpect.EOF)
        again = json.loads((tmp_path / "g.json").read_text())
        assert again["actions"][:4] == saved["actions"] and len(again["actions"]) == 6

    def test_ctrl_c_asks_to_leave_even_when_started_with_sigint_blocked(
        self, tmp_path: Path
    ) -> None:
        """A full test run once started the table with SIGINT blocked (inherited from its
        worker), and Ctrl-C did nothing; ``parlour play`` now unblocks it and restores
        Python's handler, so Ctrl-C always reaches the table."""
        child = spawn("beor", "--seed", "3", cwd=tmp_path, preexec_fn=_sigint_blocked_and_ignored)
        child.expect("Player 1> ")
        child.sendcontrol("c")
        child.expect(LEAVE)
        child.sendline("leave")
        child.expect(pexpect.EOF)

    def test_hot_seat_hand_over(self, tmp_path: Path) -> None:
        """Between two people's turns the screen is cleared and waits for the next person."""
        child = spawn(
            "death",
            "--players",
            "3",
            "--seed",
            "8",
            "--seat",
            "2=random",
            "--seat",
            "3=person",
            cwd=tmp_path,
        )
        handovers = 0
        while handovers < 3:
            index = child.expect(
                [r"Pass the keyboard to (Player \d)", r"Player \d> ", r"give \d+ drinks?.*> "]
            )
            if index == 0:
                handovers += 1
                assert isinstance(child.match, re.Match)
                who = child.match.group(1)
                # The screen was cleared first: the previous person's hand is gone.
                assert "\x1b[2J" in str(child.before)
                child.expect(f"{who}, press Enter when you are ready> ")
                child.sendline("")
            else:
                child.sendline("1" if index == 1 else "2")
        child.expect(r"Player \d> ")
        child.sendcontrol("c")
        child.expect(LEAVE)
        child.sendline("leave")
        child.expect(pexpect.EOF)

    def test_menu_starts_a_game(self, tmp_path: Path) -> None:
        child = spawn(cwd=tmp_path)
        child.expect(r"Which game\? \[1\]> ")
        child.sendline("death")  # by name: the menu lists every installed game
        child.expect(r"How many players \(2-10\)\? \[4\]> ")
        child.sendline("3")
        child.expect(r"How many people .*\[1\]> ")
        child.sendline("")
        child.expect(r"How strong are the bots\? \[1\]> ")
        child.sendline("4")
        child.expect("Becker's Game of Death")
        child.expect(r"Player 3 \(easy\)")
        # Ctrl-D only once the person is asked: sent while the bots still play, it could reach
        # the terminal before readline reads it, and be lost.
        child.expect("Player 1> ")
        child.sendcontrol("d")
        child.expect(pexpect.EOF)
        child.close()
        assert child.exitstatus == 0

    def test_tab_completes_commands(self, tmp_path: Path) -> None:
        child = spawn("beor", "--seed", "3", "--seat", "2=random", cwd=tmp_path)
        child.expect("Player 1> ")
        child.send("hel\t")
        child.sendline("")
        child.expect(r"Goal \(B5\)")
        child.expect("Press Enter to go back to the table> ")
        child.sendline("")
        child.expect("Player 1> ")
        child.sendline("quit")
        child.expect(LEAVE)
        child.sendline("leave")
        child.expect(pexpect.EOF)


@pytest.mark.parametrize("game", ["beor", "death"])
def test_watch_bots_play(game: str, tmp_path: Path) -> None:
    seats = ["--seat=1=heuristic", "--seat=2=heuristic", "--seat=3=random"]
    child = spawn(
        game, "--watch", "--players", "3", "--seed", "2", "--delay", "0", *seats, cwd=tmp_path
    )
    child.expect(r"Play another (?:game|deal)\?[^\n]*\[y/N\]> ")
    assert "Game over" in str(child.before)
    assert re.search(r"Player \d \((heuristic|random)\) wins? ", str(child.before))
    child.sendline("")
    child.expect(pexpect.EOF)


def test_menu_takes_a_games_name(tmp_path: Path) -> None:
    child = spawn(cwd=tmp_path)
    child.expect(r"Which game\? \[1\]> ")
    child.sendline("beggar")
    child.expect(r"How many players \(2-4\)\? \[2\]> ")
    child.sendcontrol("d")
    child.expect(pexpect.EOF)
