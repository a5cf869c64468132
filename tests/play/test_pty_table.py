"""A real table through a pseudo-terminal of 80x24, its output read by a terminal emulator
(pyte): no hand on screen before its hand-over whatever keys were typed ahead, keys typed while
the bots moved answer nothing, undo refused past a blind draw, the board in sight on an 80x24
terminal, and a 3-deal Game of Death match with running totals (G12)."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pexpect
import pyte

from parlour.core.record import Record, replay
from parlour.games import find_game

COLUMNS, LINES = 80, 24


class Table80x24:
    """``parlour play ARGS`` in a pseudo-terminal of 80x24 whose output feeds an emulator."""

    def __init__(self, *args: str, cwd: Path) -> None:
        env = dict(os.environ, COLUMNS=str(COLUMNS), LINES=str(LINES), TERM="xterm", NO_COLOR="1")
        self.child = pexpect.spawn(
            sys.executable,
            ["-m", "parlour", "play", *args],
            cwd=str(cwd),
            env=env,
            encoding="utf-8",
            timeout=60,
            dimensions=(LINES, COLUMNS),
        )
        self.screen = pyte.Screen(COLUMNS, LINES)
        self.stream = pyte.Stream(self.screen)
        self.seen: list[str] = []

    def expect(self, pattern: str, timeout: float = 60) -> int:
        index = self.child.expect(pattern, timeout=timeout)
        for part in (self.child.before, self.child.after):
            if isinstance(part, str):
                self.stream.feed(part)
                self.seen.append(part)
        return index

    def quiet_for(self, pattern: str, seconds: float) -> None:
        """Nothing matching ``pattern`` comes within ``seconds``."""
        index = self.child.expect([pattern, pexpect.TIMEOUT], timeout=seconds)
        assert index == 1, f"{pattern!r} came: {self.child.before!r}{self.child.after!r}"
        if isinstance(self.child.before, str):
            self.stream.feed(self.child.before)

    def rows(self) -> list[str]:
        return [r.rstrip() for r in self.screen.display]

    def send(self, text: str) -> None:
        self.child.send(text)

    def leave(self) -> None:
        self.child.sendline("quit")
        self.expect(r"\(save / leave without saving / back to the game\) \[back\]> ")
        self.child.sendline("leave")
        self.child.expect(pexpect.EOF)
        self.child.close()


def test_no_hand_before_its_hand_over_whatever_was_typed_ahead(tmp_path: Path) -> None:
    """Player 1 types a move and two more Enters at once: they are thrown away, the hand-over
    waits for a fresh Enter, and only then is Player 2's hand shown."""
    t = Table80x24("beor", "--seed", "3", "--seat", "2=person", cwd=tmp_path)
    t.expect("Player 1, press Enter when you are ready> ")
    t.send("\r")
    t.expect("Player 1> ")
    t.send("1\r\r\r")  # the move, and two Enters typed ahead
    t.expect("Player 2, press Enter when you are ready> ")
    t.quiet_for("Your hand", 1.5)
    screen = "\n".join(t.rows())
    assert "Pass the keyboard to Player 2" in screen and "Your hand" not in screen
    t.send("\r")  # a fresh Enter, typed after the hand-over was shown
    t.expect("Player 2> ")
    assert any(r.startswith("Your hand:") for r in t.rows())
    t.leave()


def test_keys_typed_while_the_bots_move_answer_nothing(tmp_path: Path) -> None:
    t = Table80x24("death", "--players", "3", "--seed", "8", "--seat", "2=ismcts", cwd=tmp_path)
    t.expect("Player 1> ")
    t.send("1\r\r\r")  # the move, and two Enters typed while the bots think
    t.expect(r"Player 1> |give \d+ drinks?")
    # Read, the Enters would each say "Type a move's number ..." and ask again.
    t.quiet_for("Type a move's number", 1.5)
    t.leave()


def test_undo_is_refused_past_a_blind_draw(tmp_path: Path) -> None:
    game = find_game("beor")
    state = game.new(2, 3)
    stocks = state.view(0).stocks  # type: ignore[attr-defined]
    move = next(
        a
        for a in state.legal_actions()
        if not stocks[a.stock if a.stock is not None else a.base].face_up  # type: ignore[attr-defined]
        and str(a)[0] not in "38"
    )
    t = Table80x24("beor", "--seed", "3", "--seat", "2=random", cwd=tmp_path)
    t.expect("Player 1> ")
    t.child.sendline(str(move))
    t.expect("Player 1> ")
    t.child.sendline("undo")
    t.expect("Player 1> ")
    screen = " ".join(" ".join(t.rows()).split())
    assert "Cannot undo: since your last move you have seen" in screen
    assert "a blind draw" in screen
    t.leave()
    assert not list(tmp_path.iterdir())  # left without saving: nothing written


def test_the_board_stays_in_sight_at_80x24(tmp_path: Path) -> None:
    """Five players of BEOR: the title, the four bases, the hand and the moves are on
    screen at each prompt (the in-process test_layout.py plays whole games)."""
    t = Table80x24(
        "beor",
        "--players",
        "5",
        "--seed",
        "3",
        *[f"--seat={k}=random" for k in (2, 3, 4, 5)],
        cwd=tmp_path,
    )
    for _ in range(6):
        t.expect("Player 1> ")
        rows = t.rows()
        assert rows[0].startswith("BEOR"), "\n".join(rows)
        for base in ("Black", "Even", "Odd", "Red"):
            assert any(r.lstrip().startswith(base) for r in rows), "\n".join(rows)
        assert any(r.startswith("Your hand:") for r in rows)
        assert "Player 1>" in rows[t.screen.cursor.y]
        t.child.sendline("1")
    t.expect("Player 1> ")
    t.leave()


def test_a_three_deal_match_keeps_running_totals(tmp_path: Path) -> None:
    """G12: three deals, the dealer one seat on each deal, totals after each deal that add up
    the saved deals' drinks."""
    seats = ["--seat=1=random", "--seat=2=random", "--seat=3=heuristic"]
    t = Table80x24(
        "death",
        "--deals",
        "3",
        "--players",
        "3",
        "--seed",
        "9",
        "--delay",
        "0",
        "--save",
        "m.json",
        *seats,
        cwd=tmp_path,
    )
    t.expect(r"Next: deal 2; Player 1 deals \(G12\)")
    t.expect(r"Next: deal 3; Player 2 deals \(G12\)")
    t.expect(r"Play another deal\? The totals are kept; Player 3 deals \(G12\) \[y/N\]> ")
    out = "".join(t.seen)
    for deal in (1, 2, 3):
        assert f"After deal {deal} of 3: running totals (G12)" in out
    t.child.sendline("n")
    t.child.expect(pexpect.EOF)
    files = [tmp_path / "m.json", tmp_path / "m-2.json", tmp_path / "m-3.json"]
    records = [Record.from_json(json.loads(f.read_text())) for f in files]
    assert [r.deal_number for r in records] == [0, 1, 2]
    ends = [replay(r, find_game("death"))[-1] for r in records]
    taken = [sum(e.view(None).drinks_taken[s] for e in ends) for s in range(3)]  # type: ignore[attr-defined]
    final = out.rsplit("After deal 3 of 3", 1)[1]
    for seat in range(3):
        row = next(line for line in final.splitlines() if f"Player {seat + 1} (" in line)
        assert f"{taken[seat]} drink" in row.split("│")[3], row


def test_watching_keys_by_hand_again_faster_and_to_the_end(tmp_path: Path) -> None:
    """Beggar-My-Neighbour's ``auto`` at 2.5 s a card: t turns by hand again, f goes faster,
    e plays on to the end at once (the game would take minutes at that pace)."""
    t = Table80x24("beggar", "--seed", "4", "--seat", "2=bot", "--delay", "2.5", cwd=tmp_path)
    turn = r"press Enter to turn your card \(or auto, help\)> "
    t.expect(turn)
    t.child.sendline("auto")
    t.expect(r"Watching \(2\.5 s a move\)")
    t.send("t")
    t.expect(turn, timeout=5)
    t.child.sendline("auto")
    t.expect(r"Watching \(2\.5 s a move\)")
    t.send("f")
    t.expect(r"Watching \(1\.6 s a move\)", timeout=5)
    t.send("e")
    t.expect("Game over", timeout=20)
    t.expect(r"Play another game\? \[y/N\]> ")
    t.child.sendline("n")
    t.child.expect(pexpect.EOF)


def test_watching_beggar_trick_by_trick_skips_to_the_end(tmp_path: Path) -> None:
    t = Table80x24("beggar", "--watch", "--seed", "4", "--delay", "2.5", cwd=tmp_path)
    t.expect("Keys: f faster · s slower · space pause · e to the end · q stop watching")
    t.expect("Trick 1:")
    t.send("e")
    t.expect(r"(wins|never ends|share the win)", timeout=20)
    t.expect(r"Play another game\? \[y/N\]> ")  # as the README says
    t.child.sendline("n")
    t.child.expect(pexpect.EOF)


def test_save_asks_before_replacing_a_file(tmp_path: Path) -> None:
    (tmp_path / "game.json").write_text("keep me")
    t = Table80x24("beor", "--seed", "3", "--save", "game.json", cwd=tmp_path)
    t.expect(r"game\.json exists\. Replace it\? \[y/N\]> ")
    t.child.sendline("")
    t.child.expect(pexpect.EOF)
    t.child.close()
    assert t.child.exitstatus == 2
    assert "left as it was; name another file" in str(t.child.before)
    assert (tmp_path / "game.json").read_text() == "keep me"
