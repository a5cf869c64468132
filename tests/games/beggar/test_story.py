"""The story ``parlour review`` tells of a game of Beggar-My-Neighbour (issue 31: "its review is
the trick-by-trick story (lead changes, the longest payment chains, the cycle if any)").

Each figure of the story is checked against what the states alone show, worked out here
without the game's events: who took each pile (the pile empties, and M2 makes the taker lead),
the court cards of each pile taken (M1), the position that repeats (M10). The deals are
RULINGS.md's worked examples, its known never-ending deal, and games dealt from seeds.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import cache
from itertools import pairwise
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from parlour.cards import Card
from parlour.core import JSON, Record, TableEntry, replay
from parlour.core.parts import load_part
from parlour.core.schema import schema
from parlour.games import GAMES
from parlour.games.beggar import BeggarGame, BeggarState, RankClass, Token
from parlour.games.beggar.story import MAX_MOMENTS, STORY, TOP

from .rules_text_helpers import LOOP_DEAL

GAME = BeggarGame()
LONG_DEAL = "---K-AJ---Q---JK-Q------JA/-K---Q-A--Q-------KJ-A----"  # M9: 681 cards, 92 tricks
THREE_DEAL = "-QKA-JA-K-Q-J-----/----K---Q---J----/--QJ-A--A---K----"  # 782 cards, 97 tricks
OWED = {"J": 1, "Q": 2, "K": 3, "A": 4}


def record_of(
    players: int,
    *,
    deal: str | None = None,
    seed: int = 0,
    options: Mapping[str, JSON] | None = None,
    until: int | None = None,
    time_at: int | None = None,
) -> Record:
    """The record of a game played to its end, or ``until`` actions, or stopped by the time
    after ``time_at`` actions (M12)."""
    state = GAME.new(players, seed, options, deal)
    played = 0
    stop = time_at if time_at is not None else until
    while not state.is_over and (stop is None or played < stop):
        state = state.apply("play")
        played += 1
    table = () if time_at is None else (TableEntry(played, "time"),)
    return Record(
        "beggar", players, seed, dict(options or {}), deal, ("play",) * played, table=table
    )


_TOLD: dict[str, tuple[tuple[BeggarState, ...], dict[str, Any]]] = {}


def told(record: Record) -> tuple[tuple[BeggarState, ...], dict[str, Any]]:
    """The record's states and its story, each told once for the module."""
    key = json.dumps(record.to_json(), sort_keys=True)
    if key not in _TOLD:
        states = replay(record, GAME)
        beggar = tuple(s for s in states if isinstance(s, BeggarState))
        assert len(beggar) == len(states)
        _TOLD[key] = beggar, STORY(record, states)
    return _TOLD[key]


def letter(token: Token) -> str:
    """The class of a card (M9): ``A K Q J``, or ``-`` for a number card."""
    if isinstance(token, RankClass):
        return token.value
    assert isinstance(token, Card)
    return token.rank.letter if token.rank.is_court else "-"


def piles_taken(states: tuple[BeggarState, ...]) -> list[dict[str, Any]]:
    """Every pile taken, from the states alone: the pile on the table before the action plus
    the top card of the hand it turned (M8: each action turns one card), who turned each card
    (the seat to move), and who took it: the one whose hand grew by the pile, less the card
    he turned himself."""
    taken: list[dict[str, Any]] = []
    by: list[int] = []
    for step, (before, after) in enumerate(pairwise(states)):
        if after.cards == before.cards:
            continue  # a table entry (M12): no card turned
        seat = before.to_move
        assert seat is not None
        by.append(seat)
        if after.tricks == before.tricks:
            continue
        size = len(before.pile) + 1
        grew = [len(a) - len(b) for a, b in zip(after.hands, before.hands, strict=True)]
        taker = next(s for s in range(len(grew)) if grew[s] == size - (s == seat))
        taken.append(
            {
                "step": step,
                "trick": after.tricks,
                "taker": taker,
                "size": size,
                "classes": [letter(t) for t in (*before.pile, before.hands[seat][0])],
                "turned_by": by[-size:],
                "goes_on": not after.is_over,
            }
        )
        by = []
    return taken


class TestLeadChanges:
    @pytest.mark.parametrize(("deal", "players"), [(LONG_DEAL, 2), (THREE_DEAL, 3)])
    def test_they_follow_the_trick_winners_found_from_the_states(
        self, deal: str, players: int
    ) -> None:
        """M2: "the player of the last court card takes the pile [...] and **leads** the next
        trick"; M7: "Seat 0 leads". The lead passes whenever a pile goes to another player
        than the one who led its trick."""
        states, story = told(record_of(players, deal=deal))
        leader = 0
        expected = []
        for pile in piles_taken(states):
            if pile["goes_on"] and pile["taker"] != leader:
                expected.append(
                    {"step": pile["step"], "trick": pile["trick"], "leader": pile["taker"]}
                )
                assert states[pile["step"] + 1].to_move == pile["taker"]
            leader = pile["taker"]
        assert len(expected) > 10
        assert story["lead_changes"] == expected
        assert [(c["step"], c["taker"]) for c in story["captures"]] == [
            (p["step"], p["taker"]) for p in piles_taken(states)
        ]

    def test_the_worked_example_counts_and_its_end(self) -> None:
        """RULINGS.md, worked examples: the long deal "seat 0 wins, 681 cards, 92 tricks"
        (M8: "tricks = piles taken, including the final one")."""
        _, story = told(record_of(2, deal=LONG_DEAL))
        assert (story["cards_played"], story["tricks"], story["result"]) == (681, 92, "win")
        assert story["winners"] == [0] and story["held"] == [52, 0]
        assert len(story["captures"]) == 92
        # Player 2's going out is the end itself (M6), told once.
        assert [m for m in story["moments"] if "is out" in m["text"]] == []
        assert story["moments"][-1] == {
            "step": 680,
            "text": "Player 1 wins with all 52 cards after 681 cards and 92 tricks (M6)",
        }
        first = story["lead_changes"][0]
        assert any(
            m["step"] == first["step"] and "First change of lead: Player 2" in m["text"]
            for m in story["moments"]
        )


class TestCycle:
    def test_the_known_never_ending_deal_is_told_with_m10s_figures(self) -> None:
        """M10: "Detect a repeated position (all hands in order + whose lead, at a trick
        boundary, cards compared by class J/Q/K/A/number [...]) and end the game with the
        result "loop", reporting the cards and tricks played when the repeat was seen, where
        the cycle starts, and its length in cards and tricks." """
        states, story = told(record_of(2, deal=LOOP_DEAL))
        takers = {p["step"]: p["taker"] for p in piles_taken(states)}
        seen: dict[tuple[str, ...], int] = {}
        repeat = None
        for k, state in enumerate(states):
            if k and k - 1 not in takers:
                continue  # not a trick boundary
            lead = takers[k - 1] if k else 0  # M2: the taker leads; M7: seat 0 leads
            key = (str(lead), *("".join(letter(t) for t in h) for h in state.hands))
            if key in seen:
                repeat = (seen[key], k)
                break
            seen[key] = k
        assert repeat is not None
        start, found = repeat  # states[k] holds k cards played (M8)
        cycle = story["cycle"]
        assert story["result"] == "loop" and story["winners"] == []
        assert (cycle["start_cards"], cycle["found_at_cards"]) == (start, found) == (34, 474)
        assert (cycle["start_tricks"], cycle["found_at_tricks"]) == (
            states[start].tricks,
            states[found].tricks,
        )
        assert cycle["length_cards"] == found - start
        assert cycle["length_tricks"] == states[found].tricks - states[start].tricks
        assert (cycle["start_step"], cycle["found_at_step"]) == (start, found - 1)
        assert cycle["position"]["hands"] == "/".join(key[1:])
        outcome = states[-1].outcome
        assert outcome is not None and outcome.details["cycle"] == {
            k: v for k, v in cycle.items() if k not in ("start_step", "found_at_step", "position")
        }
        steps = {m["step"]: m["text"] for m in story["moments"]}
        assert "every 440 cards, 62 tricks (M10)" in steps[34]
        assert steps[473].endswith("the game never ends (M10)")

    def test_a_game_that_ends_has_no_cycle(self) -> None:
        """M11: "Without it, only M6 or M10 end the game." -- an M6 win has no cycle."""
        _, story = told(record_of(3, deal=THREE_DEAL))
        assert story["cycle"] is None
        assert all("M10" not in m["text"] for m in story["moments"])


SEEDED = [(2, 0), (2, 7), (3, 1), (3, 4), (4, 2), (4, 9)]


class TestPaymentChainsAndSwings:
    @pytest.mark.parametrize(("players", "seed"), SEEDED)
    def test_the_longest_chains_are_the_longest_in_a_full_scan(
        self, players: int, seed: int
    ) -> None:
        """M1: "J, Q, K, A demand 1, 2, 3, 4 cards from the next player. A court card turned
        during a payment ends that payment; the next player must pay for the new card." --
        so from a trick's first court card every card is a payment until the pile is taken
        (M2), and the chain of a pile is its court cards from the first on."""
        states, story = told(record_of(players, seed=seed, options={"card_limit": 1500}))
        chains = []
        for pile in piles_taken(states):
            classes = pile["classes"]
            courts = [i for i, c in enumerate(classes) if c in OWED]
            if len(courts) < 2:
                continue
            first = courts[0]
            start = pile["step"] - (len(classes) - 1 - first)
            chains.append((len(courts), len(classes) - first, start, pile["taker"]))
        chains.sort(key=lambda c: (-c[0], -c[1], c[2]))
        assert chains, "a whole game has chains of two court cards"
        got = story["longest_payment_chains"]
        assert [(c["honours"], c["cards"], c["step"], c["taker"]) for c in got] == chains[:TOP]
        for chain in got:
            assert len(chain["court_cards"]) == chain["honours"]
            assert all(c[0] in OWED for c in chain["court_cards"])

    @pytest.mark.parametrize(("players", "seed"), SEEDED[:3])
    def test_the_biggest_swings_take_most_from_the_others(self, players: int, seed: int) -> None:
        """M2: the taker puts the pile under his hand, so he gains the cards of it that the
        others turned."""
        states, story = told(record_of(players, seed=seed, options={"card_limit": 1500}))
        gains = [
            (pile["size"] - pile["turned_by"].count(pile["taker"]), pile["step"])
            for pile in piles_taken(states)
        ]
        ranked = sorted((g for g in gains if g[0] > 0), key=lambda g: (-g[0], g[1]))[:TOP]
        assert [(s["gain"], s["step"]) for s in story["biggest_swings"]] == ranked


class TestMoments:
    @pytest.mark.parametrize(("players", "seed"), SEEDED)
    def test_a_dozen_at_most_in_order_naming_players_from_1(self, players: int, seed: int) -> None:
        """RULINGS 'Common': "Messages to people say "Player 1".."Player n"." """
        record = record_of(players, seed=seed, options={"card_limit": 1500})
        _, story = told(record)
        moments = story["moments"]
        assert 3 <= len(moments) <= MAX_MOMENTS
        steps = [m["step"] for m in moments]
        assert steps == sorted(steps)
        assert all(0 <= s < len(record.actions) for s in steps)
        text = " ".join(m["text"] for m in moments)
        assert "Player 0" not in text and f"Player {players + 1}" not in text
        for out in story["out"][:-1]:
            assert any(
                m["step"] == out["step"] and f"Player {out['seat'] + 1} is out" in m["text"]
                for m in moments
            )

    def test_a_stop_when_the_time_runs_out(self) -> None:
        """M12: "When it runs out, play stops at once, as under M11: the cards on the pile
        count for nobody, the player holding most cards wins" """
        record = record_of(3, seed=5, options={"time_limit": 5}, time_at=40)
        states, story = told(record)
        assert story["result"] == "time"
        held = [len(h) for h in states[-1].hands]
        assert story["held"] == held and story["winners"] == [held.index(max(held))]
        assert story["moments"][-1]["step"] == 39
        assert story["moments"][-1]["text"].startswith("Time is up after 40 cards")

    def test_a_record_that_stops_before_the_end(self) -> None:
        _, story = told(record_of(2, seed=3, until=25))
        assert story["result"] is None and story["cycle"] is None
        assert story["cards_played"] == 25
        assert story["moments"][-1]["text"].endswith("the game is not over")


@cache
def validator() -> Draft202012Validator:
    return Draft202012Validator(schema("beggar-story", tuple(GAMES.values())))


STORIES = [
    record_of(2, deal=LONG_DEAL),
    record_of(2, deal=LOOP_DEAL),
    record_of(3, deal=THREE_DEAL, options={"unpaid_penalty": "next_player"}),
    record_of(4, seed=2, options={"card_limit": 200}),
    record_of(3, seed=5, options={"time_limit": 5}, time_at=40),
    record_of(2, seed=3, until=0),
]


class TestPart:
    @pytest.mark.parametrize("index", range(len(STORIES)))
    def test_every_story_fits_its_schema(self, index: int) -> None:
        _, story = told(STORIES[index])
        errors = [f"{list(e.absolute_path)}: {e.message}" for e in validator().iter_errors(story)]
        assert not errors, errors[:3]

    def test_the_schema_refuses_a_field_missing_or_mistyped(self) -> None:
        _, story = told(STORIES[1])
        for key in story:
            assert not validator().is_valid({k: v for k, v in story.items() if k != key}), key
        assert not validator().is_valid({**story, "tricks": "66"})
        assert not validator().is_valid({**story, "moments": [{"step": -1, "text": "x"}]})
        assert not validator().is_valid({**story, "cycle": {"start_cards": 34}})

    def test_the_game_names_it_as_its_story_part(self) -> None:
        assert GAME.parts.story == "parlour.games.beggar.story"
        assert "story" in GAME.parts.present()
        assert load_part(GAME.parts, "story") is STORY

    def test_states_of_another_record_are_refused(self) -> None:
        record = record_of(2, seed=3, until=10)
        states = replay(record, GAME)
        with pytest.raises(ValueError, match="not the record's"):
            STORY(record_of(2, seed=3, until=9), states)
