"""The terminal game loop, driven in-process by a scripted person (the pseudo-terminal tests
in test_pty.py drive the real command)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from parlour.core.record import Record
from parlour.games import find_game
from parlour.play.table import Table, check_seat_specs
from tests.play.helpers import death_table, terminal


def beor(specs: list[str], seed: int = 3) -> Table:
    g = find_game("beor")
    return Table(g, check_seat_specs(g, specs), seed)


class TestInput:
    def test_wrong_input_says_why_and_asks_again(self) -> None:
        table = beor(["person", "random"])
        hand = table.state.view(0).hand  # type: ignore[attr-defined]
        odd = next(c for c in hand if c.rank % 2 == 1 and c.rank < 13 and not c.is_joker)
        game, script, out = terminal(table, ["zz", f"{odd}>even", "99", "0"])
        assert game.run() == "quit"
        text = out.getvalue()
        assert "'zz' is not a BEOR action" in text
        assert f"{odd} cannot go on even: " in text and " is odd (B4)" in text
        assert "There is no move 99" in text and "There is no move 0" in text
        assert table.actions == []  # nothing was played
        assert script.prompts.count("Player 1> ") == 5

    def test_a_number_picks_the_listed_move(self) -> None:
        table = beor(["person", "random"])
        first = table.state.legal_actions()[0]
        game, _, _ = terminal(table, ["1"])
        game.run()
        assert table.actions[0] == str(first)

    def test_notation_in_any_case(self) -> None:
        table = beor(["person", "random"])
        move = str(table.state.legal_actions()[-1])
        game, _, _ = terminal(table, [move.lower()])
        game.run()
        assert table.actions[0] == move

    def test_help_shows_the_rules_and_commands(self) -> None:
        game, _, out = terminal(beor(["person", "random"]), ["help"])
        game.run()
        text = out.getvalue()
        assert "Goal (B5)" in text and "CARD>BASE" in text and "undo" in text

    def test_help_in_the_game_of_death_lists_the_table_penalties(self) -> None:
        game, _, out = terminal(death_table(), ["help"])
        game.run()
        text = " ".join(out.getvalue().split())  # as one line, whatever the wrapping
        assert "Face cards (G5)" in text
        assert "doh Pk: Player k drinks 1 for a D'oh!" in text and "delay Pk:" in text
        assert "undo goes back no further than it" in text

    def test_help_in_beggar_my_neighbour_says_enter_turns_a_card(self) -> None:
        g = find_game("beggar")
        table = Table(g, check_seat_specs(g, ["person", "bot"]), 4)
        game, _, out = terminal(table, ["help"])
        game.run()
        text = out.getvalue()
        assert "Court cards (M1)" in text and "Commands: Enter turns your card" in text
        assert "hint" not in text and "undo" not in text and "doh" not in text

    def test_hint_names_a_legal_move(self) -> None:
        table = beor(["person", "random"])
        game, _, out = terminal(table, ["hint"])
        game.run()
        line = next(x for x in out.getvalue().splitlines() if "heuristic bot would play" in x)
        number = int(line.split("(move ")[1].split(")")[0])
        assert 1 <= number <= len(table.state.legal_actions())

    def test_tab_completion_offers_legal_moves_and_commands(self) -> None:
        table = beor(["person", "random"])
        game, _, _ = terminal(table, ["moves"])
        game.run()
        card = str(table.state.legal_actions()[0])[:2].lower()
        offered: list[str] = []
        while (word := game.complete(card, len(offered))) is not None:
            offered.append(word)
        assert offered and all(w.startswith(card) for w in offered)
        assert sorted(offered) == sorted(
            str(a).lower() for a in table.state.legal_actions() if str(a).lower().startswith(card)
        )
        assert game.complete("he", 0) == "help"


class TestDeathAtTheTable:
    def test_illegal_throw_costs_two_drinks_and_the_card_goes_back(self) -> None:
        """G13: "That player is penalized 2 drinks. The illegally thrown card is put back in
        that players hand, and the player throws a legal card or passes." """
        table = death_table()
        game, script, out = terminal(table, ["5D", "y"])
        game.run()
        assert "Throw 5D illegally? It costs 2 drinks (G13) [y/N]> " in script.prompts
        view = table.state.view(0)
        assert view.drinks_taken[0] == 2  # type: ignore[attr-defined]
        assert table.state.to_move == 0 and len(view.hand) == 18  # type: ignore[attr-defined]
        assert "the holder of 2D throws it first (G1)" in out.getvalue()
        assert "an illegal throw costs 2 drinks" in out.getvalue()
        # A table entry made by the thrower (G13), not a player action.
        assert table.actions == []
        assert table.record().to_json()["table"] == [
            {"at": 0, "entry": "illegal 5D", "by": 0, "votes": []}
        ]

    def test_no_penalty_when_the_option_is_off(self) -> None:
        g = find_game("death")
        base = death_table()
        table = Table(g, base.seats, 7, {"illegal_throw_penalty": "false"}, base.deal)
        game, _, out = terminal(table, ["5D"])
        game.run()
        assert table.actions == [] and "throws it first (G1)" in out.getvalue()

    def test_a_card_not_in_hand_costs_nothing(self) -> None:
        table = death_table()
        game, _, out = terminal(table, ["5S"])
        game.run()
        assert table.actions == [] and "5S is not in Player 1's hand" in out.getvalue()

    def test_giving_is_a_prompt_that_splits_the_drinks(self) -> None:
        """G5: "You may split up the drinks that you give out"; the game waits until all are
        assigned."""
        table = death_table()
        game, script, out = terminal(table, ["2D", "KS", "1", "2=9", "2 3", "2=3", "3"])
        game.run()
        text = out.getvalue()
        assert "cannot give drinks to himself (G5)" in text
        assert "That gives 9 drinks, but only 8 are left to give (G5)" in text
        assert "Say how many drinks each player gets" in text
        give_prompts = [p for p in script.prompts if "give" in p]
        assert give_prompts[0].startswith("Player 1, give 8 drinks (G5)")
        assert give_prompts[-1].startswith("Player 1, give 5 drinks (G5)")
        after_king = table.actions[table.actions.index("KS") + 1 :]
        assert after_king[:2] == ["give 3>P2", "give 5>P3"]
        assert table.state.view(None).drinks_given[0] == 8  # type: ignore[attr-defined]

    def test_one_number_gives_everything_to_that_player(self) -> None:
        table = death_table()
        game, _, _ = terminal(table, ["2D", "KS", "player3"])
        game.run()
        assert [a for a in table.actions if a.startswith("give")] == ["give 8>P3"]

    def test_end_shows_the_drinks_table(self) -> None:
        g = find_game("death")
        table = Table(g, check_seat_specs(g, ["random"] * 3), 5)
        game, _, out = terminal(table, [])
        assert game.run() == "over"
        text = out.getvalue()
        assert "Game over" in text and "drinks taken" in text
        winners = table.state.outcome.winners  # type: ignore[union-attr]
        assert f"Player {winners[0] + 1} (random)" in text and "fewest drinks taken (G12)" in text


class TestLeavingAndSaving:
    def test_quit_offers_to_save_and_the_file_resumes(self, tmp_path: Path) -> None:
        table = beor(["person", "random"])
        path = tmp_path / "game.json"
        game, _, out = terminal(table, ["1", "quit", "save", str(path)])
        assert game.run() == "quit"
        record = Record.from_json(json.loads(path.read_text()))
        assert list(record.actions) == table.actions and len(record.actions) == 2
        # A long path may wrap at the console's width; the command is still all there.
        assert f"parlour play --resume {path}" in out.getvalue().replace("\n", "")
        resumed = Table.from_record(record)
        assert resumed.state.to_json() == table.state.to_json()

    def test_quit_without_saving(self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.chdir(tmp_path)
        game, _, out = terminal(beor(["person", "random"]), ["1", "quit", "leave"])
        game.run()
        assert "without saving" in out.getvalue() and not list(tmp_path.iterdir())

    def test_save_after_every_move(self, tmp_path: Path) -> None:
        path = tmp_path / "auto.json"
        table = beor(["person", "random"])
        game, _, _ = terminal(table, ["1", "1"], save_path=str(path))
        game.run()
        assert json.loads(path.read_text())["actions"] == table.actions
        assert len(table.actions) == 4

    def test_input_ending_mid_game_keeps_the_game(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        monkeypatch.chdir(tmp_path)
        table = beor(["person", "random"], seed=12)
        game, _, out = terminal(table, ["1"])
        game.run()
        saved = tmp_path / "parlour-beor-12.json"
        assert json.loads(saved.read_text())["actions"] == table.actions
        assert "saved in parlour-beor-12.json" in out.getvalue()

    def test_undo_is_refused_past_a_blind_draw(self) -> None:
        """Undo never goes back past something new the person has seen (a card drawn blind
        from a face-down stock): else any face-down card could be peeked at and taken back."""
        table = beor(["person", "random"])
        stock = table.state.view(0).stocks  # type: ignore[attr-defined]
        move = next(
            a
            for a in table.state.legal_actions()
            if not stock[a.stock if a.stock is not None else a.base].face_up  # type: ignore[attr-defined]
            and str(a)[0] not in "38"
        )
        game, _, out = terminal(table, [str(move), "undo", "undo"])
        game.run()
        text = " ".join(out.getvalue().split())
        assert "Cannot undo: since your last move you have seen" in text
        assert "a blind draw" in text and "Took back" not in text
        assert table.actions[0] == str(move) and table.undone == 0

    def test_undo_takes_back_a_move_that_showed_nothing(self) -> None:
        """A♦ sweeps the pile and the same player leads (G8), and passes show no card:
        nothing new was seen, so both moves are taken back."""
        table = death_table()
        game, _, out = terminal(table, ["2D", "AD", "undo", "undo"])
        game.run()
        text = out.getvalue()
        assert "Took back your last move." in text
        assert "Took back your last move and the 2 bot moves after it." in text
        assert table.actions == [] and table.undone == 2


class TestHotSeat:
    def test_each_person_is_asked_to_take_the_keyboard(self) -> None:
        """Between two people's turns the screen shows no hand and waits for the next one."""
        g = find_game("beor")
        table = Table(g, check_seat_specs(g, ["person", "person"]), 3)
        game, script, out = terminal(table, ["", "1", "", "1", ""])
        game.run()
        assert script.prompts == [
            "Player 1, press Enter when you are ready> ",
            "Player 1> ",
            "Player 2, press Enter when you are ready> ",
            "Player 2> ",
            "Player 1, press Enter when you are ready> ",
            "Player 1> ",
        ]
        text = out.getvalue()
        assert "Pass the keyboard to Player 2" in text

    def test_the_hand_over_screen_shows_no_hand(self) -> None:
        g = find_game("death")
        table = Table(g, check_seat_specs(g, ["person", "random", "person"]), 8)
        game, script, _ = terminal(table, ["", "1", "", "1"])
        game.run()
        handovers = [k for k, p in enumerate(script.prompts) if p.endswith("when you are ready> ")]
        assert len(handovers) >= 2
        for k in handovers:
            # Before each hand-over only the public table is on screen: no hand, no moves.
            screen = script.screens[k]
            last = screen.rsplit("Becker's Game of Death", 1)[-1]
            assert "Your hand" not in last and "Your moves" not in last
            assert "Pass the keyboard" in last


class TestBeggarAtTheTable:
    def test_enter_turns_the_persons_card(self) -> None:
        g = find_game("beggar")
        table = Table(g, check_seat_specs(g, ["person", "bot"]), 4)
        game, script, out = terminal(table, ["", "", "x"])
        game.run()
        assert table.actions.count("play") >= 3  # two of mine, the bot's in between
        assert "press Enter to turn your card" in script.prompts[0]
        assert "Press Enter to turn your card; auto turns them" in out.getvalue()

    def test_auto_watches_to_the_end(self) -> None:
        g = find_game("beggar")
        table = Table(g, check_seat_specs(g, ["person", "bot"]), 4)
        game, _, out = terminal(table, ["auto"])
        assert game.run() == "over" and table.state.is_over
        assert "Game over" in out.getvalue()


class TestFromTheFirstTrial:
    """What a first try by a new user found, kept fixed."""

    def test_only_enter_or_quit_passes_the_hand_over(self) -> None:
        g = find_game("beor")
        table = Table(g, check_seat_specs(g, ["person", "person"]), 3)
        game, _, out = terminal(table, ["1", "quit", "n"])
        assert game.run() == "quit"
        assert "Only Player 1 should answer" in out.getvalue()
        assert "Your hand" not in out.getvalue() and table.actions == []

    def test_only_ascii_digits_pick_a_move(self) -> None:
        table = death_table()
        game, _, out = terminal(table, ["١"])
        game.run()
        assert table.actions == [] and "Try again" in out.getvalue()

    def test_an_empty_give_explains_the_give(self) -> None:
        table = death_table()
        game, _, out = terminal(table, ["2D", "KS", "", "2=1 2=1 3=6"])
        game.run()
        assert "Give 8 drinks to the other players (G5): 3 = all to Player 3; 2=4 3=4 splits" in (
            out.getvalue()
        )
        after_king = table.actions[table.actions.index("KS") + 1 :]
        assert after_king[:2] == ["give 2>P2", "give 6>P3"]

    def test_saving_over_another_file_asks_first(self, tmp_path: Path) -> None:
        other = tmp_path / "other.json"
        other.write_text("keep me")
        game, _, out = terminal(beor(["person", "random"]), [f"save {other}", "n"])
        game.run()
        assert other.read_text() == "keep me" and "was left as it was" in out.getvalue()
        game, _, _ = terminal(beor(["person", "random"]), [f"save {other}", "y"])
        game.run()
        assert json.loads(other.read_text())["game"] == "beor"

    def test_beor_bases_show_the_top_card_last(self) -> None:
        table = beor(["person", "random"])
        move = next(a for a in table.state.legal_actions() if str(a)[0] not in "38")
        game, _, out = terminal(table, [str(move)])
        game.run()
        name = str(move).split(">")[1].split("/")[0]
        line = next(
            x for x in out.getvalue().splitlines()[::-1] if x.strip().startswith(name.title())
        )
        assert line.split()[1:3][-1] == move.card.pretty()  # type: ignore[attr-defined]


class TestAfterLosing:
    def test_a_person_out_of_beor_watches_the_bots_finish(self) -> None:
        """B8: "a losing player surrenders their cards to a scrap pile" and play goes on; the
        person who lost sees each bot move until the end instead of a silent jump to it."""
        import random

        g = find_game("beor")
        table = Table(g, check_seat_specs(g, ["person", "random", "random"]), 8)
        rng = random.Random(8)
        while 0 not in table.state.view(0).out:  # type: ignore[attr-defined]
            table.apply(rng.choice(table.state.legal_actions()))
        assert not table.state.is_over
        left = len(table.states)
        game, script, out = terminal(table, [])
        assert game.run() == "over" and script.prompts == []  # nothing is asked of him
        screens = out.getvalue().count("BEOR · 3 players")
        assert screens == len(table.states) - left + 1  # one a bot move, and the end
        assert "Player 1 (you): out (B8)" in out.getvalue()
