"""Beggar-My-Neighbour's agreed time, ruling M12 of ``rules/RULINGS.md``, in the rules engine.

The Dutch text ends: "spelers kunnen overeenkomen dat de speler met de meeste kaarten aan het
einde van een vooraf bepaalde tijd de winnaar is". M12 makes it the option ``time_limit``
(minutes) and the table entry ``time``, which the table (``by=None``) makes when its clock runs
out. Each test quotes the sentence of M12 it checks; the clock itself is the tables' (the
terminal's tests are in ``tests/play/test_time_limit.py``).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from parlour.cli import main
from parlour.core.fairness import commitment
from parlour.core.record import Record, TableEntry, replay
from parlour.core.schema import schema
from parlour.errors import GameOver, IllegalAction, InvalidNotation, InvalidOption, InvalidRecord
from parlour.games import GAMES
from parlour.games.beggar import BeggarState

from .rules_text_helpers import GAME, build_deal, event, new, pile, play

TEN = {"time_limit": 10}


def timed(deal: str, cards: int, **options: object) -> BeggarState:
    """The game of ``deal`` with an agreed time of ten minutes, ``cards`` cards turned."""
    return play(new(deal, {**TEN, **options}), cards)


class TestTheOption:
    def test_the_agreed_time_is_in_whole_minutes(self) -> None:
        """M12: "Option time_limit = MINUTES, for tables with a clock" -- the game gives the
        tables its length in seconds; no option, no clock."""
        assert GAME.time_limit({"time_limit": 1}) == 60.0
        assert GAME.time_limit({"time_limit": 240}) == 14400.0
        assert GAME.time_limit({"time_limit": "10"}) == 600.0
        assert GAME.time_limit({}) is None
        assert GAME.time_limit({"card_limit": 100}) is None
        assert GAME.time_up_entry == "time"
        assert GAME.new(2, 0, {"time_limit": 240}).options.time_limit == 240

    @pytest.mark.parametrize("value", [0, 241, "abc", -5, 1.5, True, "1e3"])
    def test_a_time_out_of_range_is_refused_by_name(self, value: object) -> None:
        """M12 names the option time_limit: anything but 1 to 240 minutes is refused, naming
        it."""
        with pytest.raises(InvalidOption, match="time_limit"):
            GAME.new(2, 0, {"time_limit": value})
        with pytest.raises(InvalidOption, match="time_limit"):
            GAME.time_limit({"time_limit": value})

    def test_parlour_games_lists_the_option_with_its_ruling(
        self, capsys: pytest.CaptureFixture[str]
    ) -> None:
        assert main(["games", "--json"]) == 0
        games = json.loads(capsys.readouterr().out)
        beggar = next(g for g in games if g["name"] == "beggar")
        options = {o["name"]: o for o in beggar["options"]}
        assert options["time_limit"]["ruling"] == "M12"
        assert options["time_limit"]["default"] is None


class TestTheStop:
    def test_play_stops_at_once_and_most_cards_wins(self) -> None:
        """M12: "When it runs out, play stops at once, as under M11: [...] the player holding
        most cards wins" -- here in the middle of a payment: Player 1's king asks three cards
        of Player 2, who holds one more card than Player 1 when the time runs out."""
        state = timed(build_deal("-K", "--"), 3)
        assert (state.owed, state.court_player) == (3, 0)
        end = state.apply_table("time")
        assert end.is_over and end.to_move is None
        assert end.outcome is not None
        assert (end.outcome.result, end.outcome.winners) == ("time", (1,))
        assert end.outcome.scores == (24, 25)
        assert end.outcome.returns == (0.0, 1.0)
        assert end.outcome.ranks == (2, 1)
        with pytest.raises(GameOver):
            end.apply("play")

    def test_cards_on_the_pile_count_for_nobody(self) -> None:
        """M12: "the cards on the pile count for nobody": the pile stays on the table, and
        Player 1, who would take it once the payment ends, does not count it."""
        state = timed(build_deal("-K", "--"), 4)
        assert pile(state) == "--K-"
        end = state.apply_table("time")
        assert pile(end) == "--K-"
        assert [len(h) for h in end.hands] == [24, 24]
        assert end.outcome is not None
        assert end.outcome.scores == (24, 24)
        assert end.outcome.winners == (0, 1)
        assert sum(end.outcome.scores) + len(end.pile) == 52

    def test_equal_most_share_the_win(self) -> None:
        """M12: "equal most share the win" -- and a player with fewer cards has no share."""
        end = timed(build_deal("--", "--", "--"), 5).apply_table("time")
        assert [len(h) for h in end.hands] == [16, 15, 16]
        assert end.outcome is not None
        assert (end.outcome.result, end.outcome.winners) == ("time", (0, 2))
        assert end.outcome.returns == (0.5, 0.0, 0.5)
        assert end.outcome.ranks == (1, 3, 1)
        assert event(end, "time_up") == {"cards": 5, "winners": [0, 2]}

    def test_the_stop_names_m12_in_words(self) -> None:
        """M12 is named in the event and the result as people read them, in three languages."""
        end = timed(build_deal("--", "--", "--"), 5).apply_table("time")
        [said] = [e.text for e in end.events]
        assert said == (
            "Time is up after 5 cards: the most cards are held by Player 1 and Player 3 (M12)"
        )
        assert end.outcome is not None
        for lang, share in (("en", "share the win"), ("ro", "împart"), ("nl", "delen")):
            presenter = GAME.presenter.speaking(GAME.words(lang))
            text = presenter.result_text(end.outcome, ["A", "B", "C"], end.cards)
            assert "(M12)" in text and share in text, text
            assert "A: 16" in text and "B: 15" in text and "C: 16" in text, text

    def test_the_table_makes_the_entry_and_the_log_keeps_it(self) -> None:
        """M12: "The stop is kept in the record as a table entry (after how many cards it
        came)": the log's step is the table's, not a player's."""
        end = timed(build_deal("--", "--"), 7).apply_table(" TIME ")
        step = end.step
        assert step is not None
        assert (step.kind, step.seat, step.text) == ("table", None, "time")
        last = end.log(None)[-1]
        assert last.kind == "table" and [e.kind for e in last.events] == ["time_up"]


class TestRefusals:
    def test_refused_without_an_agreed_time(self) -> None:
        """M12: the agreed time is an option: a game without it has no clock to run out."""
        state = play(new(build_deal("--", "--")), 3)
        with pytest.raises(IllegalAction, match=r"M12") as caught:
            state.apply_table("time")
        assert caught.value.key == "refusal.time.no_limit"

    def test_refused_once_the_game_is_over(self) -> None:
        """M12: play stops once; a game that is over (here by M11's card limit, then by the
        time) takes no second stop."""
        limited = timed(build_deal("--", "--"), 4, card_limit=4)
        assert limited.is_over
        with pytest.raises(GameOver, match=r"M12") as caught:
            limited.apply_table("time")
        assert caught.value.key == "refusal.time.over"
        stopped = timed(build_deal("--", "--"), 2).apply_table("time")
        with pytest.raises(GameOver, match=r"M12"):
            stopped.apply_table("time")

    @pytest.mark.parametrize("text", ["doh P1", "times", "", "play"])
    def test_other_entries_are_refused_naming_the_one_there_is(self, text: str) -> None:
        state = timed(build_deal("--", "--"), 2)
        with pytest.raises(InvalidNotation, match="'time'") as caught:
            state.apply_table(text)
        assert caught.value.key == "refusal.entry"

    def test_the_refusals_are_said_in_romanian_and_dutch(self) -> None:
        state = play(new(build_deal("--", "--")), 1)
        with pytest.raises(IllegalAction) as caught:
            state.apply_table("time")
        for lang, word in (("ro", "timp convenit"), ("nl", "afgesproken tijd")):
            said = GAME.presenter.speaking(GAME.words(lang)).refusal(caught.value)
            assert word in said and "M12" in said, said


class TestJson:
    def test_a_stopped_game_round_trips(self) -> None:
        end = timed(build_deal("-K", "--"), 4).apply_table("time")
        again = GAME.state_from_json(json.loads(json.dumps(end.to_json())))
        assert again.to_json() == end.to_json()
        assert again.outcome == end.outcome
        assert end.to_json()["options"]["time_limit"] == 10
        view = end.view(1)
        assert GAME.view_from_json(view.to_json()) == view

    def test_the_schemas_take_the_stop(self) -> None:
        """The state, every view, the log and the record of a stopped game fit the schemas
        Parlour ships (``parlour schema``), the entry as ``beggar-table-entry``."""
        games = tuple(GAMES.values())

        def valid(name: str, doc: object) -> None:
            errors = list(Draft202012Validator(schema(name, games)).iter_errors(doc))
            assert not errors, f"{name}: {errors[0].message}"

        end = timed(build_deal("-K", "--"), 4).apply_table("time")
        valid("beggar-state", end.to_json())
        for seat in (None, 0, 1):
            valid("beggar-view", end.view(seat).to_json())
        log = [entry.to_json() for entry in end.log(None)]
        valid("log", log)
        valid("beggar-table-entry", log[-1]["text"])
        assert not Draft202012Validator(schema("beggar-table-entry", games)).is_valid("times")
        record = Record("beggar", 2, 0, dict(TEN), build_deal("-K", "--"), ("play",) * 4)
        valid("record", {**record.to_json(), "table": [TableEntry(4, "time").to_json()]})

    def test_a_stop_without_an_agreed_time_is_refused(self) -> None:
        """A state that ended with players still in, before any card limit, stopped by the
        time: without the option it is no position of the game."""
        text = timed(build_deal("-K", "--"), 4).apply_table("time").to_json()
        assert isinstance(text["options"], dict)
        text["options"]["time_limit"] = None
        with pytest.raises(InvalidRecord, match="M12"):
            GAME.state_from_json(text)

    def test_states_without_the_option_written_before_m12_are_read(self) -> None:
        text = play(new(build_deal("--", "--")), 3).to_json()
        assert isinstance(text["options"], dict)
        del text["options"]["time_limit"]
        assert GAME.state_from_json(text).options.time_limit is None


def stopped_record(tmp_path: Path, cards: int, *, committed: bool = False) -> tuple[Path, Record]:
    """A record of a 3-player game with ten minutes agreed, stopped after ``cards`` cards."""
    seed = 4242
    record = Record(
        "beggar",
        3,
        seed,
        dict(TEN),
        None,
        ("play",) * cards,
        None,
        (TableEntry(cards, "time"),),
        commitment(seed) if committed else None,
    )
    path = tmp_path / "stopped.json"
    path.write_text(json.dumps(record.to_json()))
    return path, record


class TestRecords:
    def test_replay_ends_exactly_at_the_stop(self, tmp_path: Path) -> None:
        """M12: "so a replay ends exactly where the game ended"."""
        _, record = stopped_record(tmp_path, 40)
        states = replay(Record.from_json(json.loads(json.dumps(record.to_json()))), GAME)
        assert len(states) == 42
        end = states[-1]
        assert end.is_over and end.outcome is not None
        assert end.outcome.result == "time"
        assert end.outcome.details["cards"] == 40
        assert not states[-2].is_over

    def test_a_card_after_the_stop_is_refused(self, tmp_path: Path) -> None:
        _, record = stopped_record(tmp_path, 40)
        later = Record.from_json({**record.to_json(), "actions": ["play"] * 41})
        with pytest.raises(InvalidRecord, match="action 40"):
            replay(later, GAME)

    def test_parlour_replay_ends_at_the_stop(
        self, tmp_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        path, _ = stopped_record(tmp_path, 40)
        assert main(["replay", str(path), "--json"]) == 0
        got = json.loads(capsys.readouterr().out)
        assert got["over"] and got["legal"] == []
        assert got["outcome"]["result"] == "time" and got["outcome"]["cards"] == 40
        assert got["state"]["cards"] == 40

    def test_parlour_verify_replays_to_the_stop(
        self, tmp_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        path, _ = stopped_record(tmp_path, 40, committed=True)
        assert main(["verify", str(path), "--json"]) == 0
        got = json.loads(capsys.readouterr().out)
        assert got["verified"] and got["steps"] == 41
        assert got["outcome"]["result"] == "time"
        assert main(["verify", str(path)]) == 0
        out = capsys.readouterr().out
        assert "agreed time is up (M12)" in out


class TestSimulationsHaveNoClock:
    @pytest.mark.parametrize(
        "argv",
        [
            ["beggar", "stats", "--games", "5", "--options", "time_limit=3"],
            ["beggar", "stats", "--games", "5", "--engine", "python", "--options", "time_limit=3"],
            ["beggar", "play", "--random", "--seed", "1", "--options", "time_limit=3"],
            ["beggar", "search", "--deals", "10", "--options", "time_limit=3"],
            ["lab", "run", "beggar", "--games", "5", "--options", "time_limit=3"],
        ],
    )
    def test_time_limit_is_refused_in_one_line(
        self, argv: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """M12: "Lab simulations have no clock: they use M11's card_limit." """
        if argv[0] == "lab":
            argv = [*argv, "--out", str(tmp_path / "run.db")]
        assert main(argv) == 2
        out, err = capsys.readouterr()
        assert out == ""
        assert len(err.strip().splitlines()) == 1, err
        assert "no clock" in err and "card_limit" in err and "M12" in err
        assert not (tmp_path / "run.db").exists()

    def test_the_kernel_refuses_it(self) -> None:
        from parlour.games.beggar.fast import play_random

        with pytest.raises(InvalidOption, match="card_limit"):
            play_random(2, 3, 0, {"time_limit": 5})


@settings(max_examples=60, deadline=None)
@given(
    players=st.integers(2, 4),
    seed=st.integers(0, 2**31),
    cards=st.integers(1, 400),
)
def test_any_stop_keeps_every_card_and_the_most_held_win(
    players: int, seed: int, cards: int
) -> None:
    """M12 at any point of any game: "the cards on the pile count for nobody, the player
    holding most cards wins, equal most share the win" -- and no card is lost."""
    state = GAME.new(players, seed, TEN)
    for _ in range(cards):
        state = state.apply("play")
        if state.is_over:
            return  # the game ended first (the last card played may end it): no time to run out
    end = state.apply_table("time")
    assert end.hands == state.hands and end.pile == state.pile
    assert sum(len(h) for h in end.hands) + len(end.pile) == 52
    held = [len(h) for h in end.hands]
    assert end.outcome is not None and end.outcome.result == "time"
    assert end.outcome.winners == tuple(s for s, k in enumerate(held) if k == max(held))
    assert end.outcome.scores == tuple(held)
    assert sum(end.outcome.returns) == pytest.approx(1.0)
