"""The agreed time at the terminal (Beggar-My-Neighbour's ruling M12, ``--options time_limit=N``):
the clock is the table's (:mod:`parlour.play.clock`), read from a fake time source here, so no
test sleeps or waits for the wall clock.

M12: "The clock starts with the first card and runs while the game is played; it stops while
the game is saved and not being played [...] When it runs out, play stops at once".
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator
from rich.console import Console

from parlour.cli import main
from parlour.core.record import Record, replay
from parlour.core.schema import schema
from parlour.games import GAMES, find_game
from parlour.play.clock import TableClock, TimeUp, alarm_reader, clock_text
from parlour.play.menu import ask_menu
from parlour.play.table import Table, check_seat_specs
from parlour.play.terminal import TerminalGame
from tests.play.helpers import Script

BEGGAR = find_game("beggar")
PARLOUR = (sys.executable, "-m", "parlour")
TIMED_PLAY = ("play", "beggar", "--seed", "3", "--options", "time_limit=10")
EVEN = "-" * 26 + "/" + "-" * 10 + "AAAAKKKKQQQQJJJJ"  # no court card in the first 20 cards


class FakeClock:
    """A time source moved by hand; ``tick`` seconds pass at every reading (cards turned
    automatically take time too)."""

    def __init__(self, tick: float = 0.0) -> None:
        self.now = 5000.0
        self.tick = tick

    def __call__(self) -> float:
        self.now += self.tick
        return self.now


class Person:
    """A person at a table with a clock: each step is ``(seconds, line)``, a line typed after
    thinking that long, or ``(seconds, None)``: nothing typed. A wait longer than the time left
    ends at the deadline (the table's timed read raises TimeUp); input ends after the steps."""

    def __init__(self, clock: FakeClock, steps: Iterable[tuple[float, str | None]]) -> None:
        self.clock = clock
        self.steps = list(steps)
        self.prompts: list[str] = []
        self.waited: list[float] = []

    def _next(self, prompt: str, timeout: float | None) -> str:
        self.prompts.append(prompt)
        if not self.steps:
            raise EOFError
        seconds, line = self.steps.pop(0)
        if timeout is not None and (line is None or seconds >= timeout):
            self.clock.now += timeout
            self.waited.append(timeout)
            raise TimeUp
        self.clock.now += seconds
        if line is None:  # no clock running: nothing typed ends the input
            raise EOFError
        return line

    def read(self, prompt: str) -> str:
        return self._next(prompt, None)

    def timed(self, prompt: str, timeout: float) -> str:
        return self._next(prompt, timeout)


def beggar_table(
    clock: FakeClock, minutes: int | None = 10, deal: str | None = EVEN, used: float = 0.0
) -> Table:
    options = {} if minutes is None else {"time_limit": minutes}
    seats = check_seat_specs(BEGGAR, ["person", "bot"])
    return Table(BEGGAR, seats, 7, options, deal, time_used=used, now=clock)


def at_table(
    table: Table, person: Person, save_path: str | None = None
) -> tuple[TerminalGame, io.StringIO]:
    out = io.StringIO()
    con = Console(file=out, width=160, color_system=None, highlight=False)
    game = TerminalGame(
        table, con, person.read, save_path=save_path, delay=0.0, timed_read=person.timed
    )
    return game, out


def screens(out: io.StringIO) -> str:
    return " ".join(out.getvalue().split())


class TestTheClock:
    def test_it_runs_only_between_start_and_stop(self) -> None:
        now = FakeClock()
        clock = TableClock(600, used=100, now=now)
        now.now += 50
        assert not clock.running and clock.left == 500
        clock.start()
        now.now += 120
        assert clock.used == 220 and clock.left == 380
        clock.stop()
        now.now += 10_000
        assert clock.used == 220 and not clock.is_up
        clock.start()
        now.now += 380
        assert clock.is_up and clock.left == 0

    @pytest.mark.parametrize(
        ("seconds", "text"),
        [(600, "10:00"), (599.2, "10:00"), (59.01, "1:00"), (0.4, "0:01"), (0, "0:00"),
         (3725, "1:02:05"), (-3, "0:00")],
    )  # fmt: skip
    def test_time_as_people_read_it(self, seconds: float, text: str) -> None:
        assert clock_text(seconds) == text

    def test_a_game_without_an_agreed_time_has_no_clock(self) -> None:
        assert beggar_table(FakeClock(), minutes=None).clock is None
        death = find_game("death")
        assert (
            Table(death, check_seat_specs(death, ["person", "random", "random"]), 1).clock is None
        )


class TestAtTheTable:
    def test_the_time_left_is_on_screen(self) -> None:
        """The clock starts with the first card: before it the agreed time, then what is left
        after each wait."""
        clock = FakeClock()
        person = Person(clock, [(12, ""), (30, ""), (45, "")])
        game, out = at_table(beggar_table(clock), person)
        assert game.run() == "quit"  # input ended
        text = screens(out)
        assert "Agreed time 10:00: the clock starts with the first move" in text
        first = text.index("Agreed time 10:00")
        assert text.index("Time left 10:00") > first  # the 12 s before the first card do not count
        assert text.index("Time left 9:30") > text.index("Time left 10:00")
        assert "Time left 8:45" in text

    def test_time_running_out_while_waiting_ends_the_game(self) -> None:
        """M12: "When it runs out, play stops at once [...] the player holding most cards
        wins, equal most share the win": the person waits past the deadline; the table makes
        the entry, shows every hand's count and the shared win."""
        clock = FakeClock()
        person = Person(clock, [(3, ""), (200, ""), (5000, None)])
        table = beggar_table(clock, minutes=5)
        game, out = at_table(table, person)
        assert game.run() == "over"
        assert person.waited == [100.0]  # the wait ended at the deadline, not later
        outcome = table.state.outcome
        assert outcome is not None and outcome.result == "time"
        assert outcome.winners == (0, 1)  # two number cards each: 24 and 24
        assert table.entries[-1].entry == "time" and table.entries[-1].by is None
        assert table.entries[-1].at == len(table.actions) == 4
        text = screens(out)
        assert "Time is up: the agreed time has run out and play stops here." in text
        assert "Player 1 (you): 24 cards" in text and "Player 2 (bot): 24 cards" in text
        assert "share the win" in text and "(M12)" in text
        assert "Time is up" in text.split("Game over")[0]  # above the table at the end

    def test_a_single_winner_is_named(self) -> None:
        clock = FakeClock()
        deal = "-K" + "-" * 24 + "/" + "-" * 10 + "AAAAKKKQQQQJJJJ" + "-"
        person = Person(clock, [(1, ""), (1, ""), (700, None)])  # a king, paid with three cards
        table = beggar_table(clock, deal=deal)
        game, out = at_table(table, person)
        assert game.run() == "over"
        outcome = table.state.outcome
        assert outcome is not None and outcome.result == "time"
        assert (outcome.winners, outcome.scores) == ((0,), (30, 22))
        assert "Player 1 (you) wins" in screens(out).split("Game over")[1]
        assert "wins with the most cards" in screens(out)

    def test_the_clock_stops_cards_turned_automatically(self) -> None:
        """M12: play stops at once while cards are turned for the person (``auto``): the
        table looks at the clock before every card."""
        clock = FakeClock()
        person = Person(clock, [(1, ""), (1, "auto")])
        table = beggar_table(clock, minutes=1, deal=None)
        clock.tick = 0.25  # time passes as the cards are turned
        game, _ = at_table(table, person)
        assert game.run() == "over"
        outcome = table.state.outcome
        assert outcome is not None and outcome.result == "time"
        assert table.clock is not None and 60 <= table.clock.used < 61
        assert table.entries[-1].entry == "time"

    def test_help_and_other_questions_end_at_the_deadline_too(self) -> None:
        clock = FakeClock()
        person = Person(clock, [(1, ""), (10, "help"), (9999, None)])
        table = beggar_table(clock, minutes=1)
        game, _ = at_table(table, person)
        assert game.run() == "over"
        assert table.state.outcome is not None and table.state.outcome.result == "time"

    def test_a_game_that_ends_first_stops_the_clock(self) -> None:
        """A game whose cards decide it before the time is up ends as it would without one."""
        clock = FakeClock()
        person = Person(clock, [(1, ""), (1, "auto")])
        table = beggar_table(clock, minutes=240, deal=None)
        game, _ = at_table(table, person)
        assert game.run() == "over"
        assert table.state.outcome is not None and table.state.outcome.result in ("win", "loop")
        assert table.clock is not None and not table.clock.running
        assert all(e.entry != "time" for e in table.entries)

    def test_speaks_the_language_of_the_table(self) -> None:
        from parlour.play.speech import spoken

        clock = FakeClock()
        with spoken("ro"):
            person = Person(clock, [(3, ""), (10, ""), (5000, None)])
            game, out = at_table(beggar_table(clock, minutes=5), person)
            game.run()
        text = screens(out)
        assert "Timp convenit 5:00" in text and "Timp rămas 4:50" in text
        assert "Timpul s-a terminat" in text and "împart victoria" in text


class TestSaved:
    def test_the_clock_stops_while_saved_and_goes_on_with_the_time_left(
        self, tmp_path: Path
    ) -> None:
        """M12: "it stops while the game is saved and not being played"; the save keeps the
        time used, and the resumed game goes on with the time it had."""
        clock = FakeClock()
        path = str(tmp_path / "timed.json")
        person = Person(clock, [(2, ""), (100, ""), (20, "")])
        game, _ = at_table(beggar_table(clock), person, save_path=path)
        assert game.run() == "quit"  # input ended: saved
        saved = json.loads(Path(path).read_text())
        assert saved["time_used"] == pytest.approx(120.0)
        errors = list(
            Draft202012Validator(schema("record", tuple(GAMES.values()))).iter_errors(saved)
        )
        assert not errors, errors[0].message

        clock.now += 86_400  # a day later
        table = Table.from_record(Record.from_json(saved), now=clock)
        assert table.clock is not None and table.clock.left == pytest.approx(480.0)
        person = Person(clock, [(30, ""), (9999, None)])
        game, out = at_table(table, person, save_path=path)
        assert game.run() == "over"
        text = screens(out)
        assert "Time left 8:00" in text and "Time left 7:30" in text
        assert person.waited == [pytest.approx(450.0)]
        assert table.clock.used == pytest.approx(600.0)
        ended = json.loads(Path(path).read_text())
        assert ended["table"][-1] == {
            "at": len(ended["actions"]),
            "entry": "time",
            "by": None,
            "votes": [],
        }
        states = replay(Record.from_json(ended), BEGGAR)
        assert states[-1].outcome is not None and states[-1].outcome.result == "time"

    def test_a_resumed_game_whose_time_is_gone_ends_at_once(self, tmp_path: Path) -> None:
        clock = FakeClock()
        table = beggar_table(clock)
        table.apply("play")
        record = Record.from_json({**table.record().to_json(), "time_used": 600})
        resumed = Table.from_record(record, now=clock)
        game, out = at_table(resumed, Person(clock, []))
        assert game.run() == "over"
        assert resumed.state.outcome is not None and resumed.state.outcome.result == "time"
        assert "Time is up" in screens(out)

    @pytest.mark.parametrize("used", [-1, "10", True, 1e10, float("nan")])
    def test_a_bad_time_used_is_refused_by_name(self, used: object) -> None:
        from parlour.errors import InvalidRecord

        record = beggar_table(FakeClock()).record().to_json()
        with pytest.raises(InvalidRecord, match="time_used"):
            Record.from_json({**record, "time_used": used})


class TestMenu:
    def test_the_menu_offers_the_agreed_time(self) -> None:
        con = Console(file=io.StringIO(), width=120, color_system=None)
        script = Script(["beggar", "2", "1", "0", "241", "abc", "15"])
        choice = ask_menu(script, con)
        assert choice.game.name == "beggar"
        assert choice.options == {"time_limit": 15}
        asked = [p for p in script.prompts if "agreed time" in p]
        assert len(asked) == 4 and "(1-240" in asked[0]
        said = con.file.getvalue()  # type: ignore[attr-defined]
        assert said.count("Please answer a number from 1 to 240.") == 3

    def test_parlour_play_from_the_menu_plays_against_the_time_chosen(self, tmp_path: Path) -> None:
        done = subprocess.run(
            [*PARLOUR, "play"],
            input="beggar\n2\n1\n12\n\n\n",
            capture_output=True,
            text=True,
            cwd=tmp_path,
            timeout=120,
            check=False,
        )
        assert done.returncode == 0, done.stderr
        assert "Agreed time 12:00" in done.stdout and "Time left" in done.stdout

    def test_enter_plays_without_one(self) -> None:
        con = Console(file=io.StringIO(), width=120, color_system=None)
        choice = ask_menu(Script(["beggar", "2", "1", ""]), con)
        assert choice.options == {}

    def test_no_question_for_bots_alone_or_a_game_without_a_clock(self) -> None:
        con = Console(file=io.StringIO(), width=120, color_system=None)
        script = Script(["beggar", "2", "0"])
        assert ask_menu(script, con).options == {}
        script = Script(["death", "3", "1", "1"])
        assert ask_menu(script, con).options == {}
        assert not any("agreed time" in p for p in script.prompts)


class TestCommand:
    def test_bots_alone_have_no_clock(self, capsys: pytest.CaptureFixture[str]) -> None:
        for extra in (["--watch"], ["--json"], ["--seat", "1=bot"]):
            assert main(["play", "beggar", "--options", "time_limit=10", *extra]) == 2
            out, err = capsys.readouterr()
            assert out == "" and len(err.strip().splitlines()) == 1, err
            assert "agreed time" in err and "person" in err

    @pytest.mark.parametrize("value", ["0", "241", "abc"])
    def test_a_bad_time_is_refused_by_name(
        self, value: str, capsys: pytest.CaptureFixture[str]
    ) -> None:
        assert main(["play", "beggar", "--options", f"time_limit={value}"]) == 2
        assert "time_limit" in capsys.readouterr().err

    def test_parlour_play_shows_the_clock(self, tmp_path: Path) -> None:
        """The real command with piped input (lines come at once: the clock never runs out):
        the agreed time before the first card, the time left after it; input ends and the
        game is saved with the time used."""
        done = subprocess.run(
            [*PARLOUR, *TIMED_PLAY, "--save", "g.json"],
            input="\n\n\n",
            capture_output=True,
            text=True,
            cwd=tmp_path,
            timeout=120,
            check=False,
        )
        assert done.returncode == 0, done.stderr
        assert "Agreed time 10:00" in done.stdout and "Time left" in done.stdout
        saved = json.loads((tmp_path / "g.json").read_text())
        assert saved["options"]["time_limit"] == 10
        assert 0 <= saved["time_used"] < 60


def test_the_alarm_ends_a_read_that_waits() -> None:
    """:func:`alarm_reader` gives up a read that blocks (nothing is ever written to the
    pipe) when its time passes: the wait is the deadline itself, a tenth of a second."""
    r, w = os.pipe()
    try:
        timed = alarm_reader(lambda prompt: os.read(r, 10).decode())
        with pytest.raises(TimeUp):
            timed("> ", 0.1)
        os.write(w, b"line\n")
        assert timed("> ", 5.0) == "line\n"  # a line that comes in time is read
    finally:
        os.close(r)
        os.close(w)


ALARMED_READS = """
import readline  # the line editing of a real table
from parlour.play.clock import TimeUp, alarm_reader

read = alarm_reader(input)
try:
    read("first> ", 0.3)
except TimeUp:
    print("time is up")
print("read", repr(read("second> ", 60.0)))
"""


def test_the_alarm_ends_a_person_s_line_at_a_real_terminal() -> None:
    """Through a pseudo-terminal, with readline: the wait for a line ends at the deadline
    (the test waits for that event, three tenths of a second), and the terminal then reads
    the next line as before."""
    import pexpect

    child = pexpect.spawn(
        sys.executable,
        ["-c", ALARMED_READS],
        env=dict(os.environ, TERM="xterm", NO_COLOR="1"),
        encoding="utf-8",
        timeout=30,
    )
    child.expect_exact("first> ")
    child.expect_exact("time is up")
    child.expect_exact("second> ")
    child.send("hello\r")
    child.expect_exact("read 'hello'")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
