"""Independent reference simulator for Beggar-My-Neighbour (rulings M1-M11).

Written from the rule texts (``beggar-my-neighbour.nl.txt`` / ``.ro.txt``) and the rulings in
``RULINGS.md`` only, without looking at the engine, so that the differential tests can catch a
misreading on either side. It favours plainness over speed.

Decisions taken where the rulings leave room (each is cited where it is implemented):

* Ruling M3/M6: a player is only checked for cards when he must play; the game ends as soon as
  one player is left in, and he takes any pile left (that pile counts as a trick, M8).
* Ruling M5: at the end of a trick every non-capturer with an empty hand is out; if that leaves one
  player, the game ends at that trick boundary (the capturer wins, no further card is played).
* Ruling M10: positions are compared only at trick boundaries (after the M5 eliminations), the
  initial position counting as the boundary at cards=0/tricks=0.
* Ruling M11 ("stop after N cards played"): the limit is checked whenever a player would have to
  place a card, so no card beyond the N-th is placed, but whatever the N-th card settles without a
  further card still happens first: the capture it completes (M2), the M5 outs and an M6 end at
  that trick boundary, an M10 repeat seen there, and a player due to play with no card going out
  (M3, M4, M6): those place no card. So a limit at or beyond a game's length never changes its
  result. Winners are the players still in who hold most cards in hand; the pile on the table
  counts for nobody.
"""

from __future__ import annotations

from collections import deque
from typing import Literal, TypedDict

# Ruling M1: J, Q, K, A demand 1, 2, 3, 4 cards from the next player.
PENALTY: dict[str, int] = {"J": 1, "Q": 2, "K": 3, "A": 4}
NUMBER = "-"

UnpaidPenalty = Literal["capture", "next_player"]


class CycleInfo(TypedDict):
    """Where a repeated position (ruling M10) was seen and where its cycle starts."""

    found_at_cards: int
    found_at_tricks: int
    start_cards: int
    start_tricks: int
    length_cards: int
    length_tricks: int


class ReferenceResult(TypedDict):
    """The outcome of one deal, with the same keys as the engine's ``play_deal`` (less ``deal``)."""

    result: Literal["win", "loop", "limit"]
    winners: list[int]
    cards: int
    tricks: int
    cycle: CycleInfo | None


def parse_rank_deal(deal: str) -> list[str]:
    """Split a rank-only deal (ruling M9) into hands, top card first, checking the deck."""
    hands = deal.strip().split("/")
    if not 2 <= len(hands) <= 4:
        raise ValueError(f"Beggar-My-Neighbour needs 2 to 4 hands, got {len(hands)}")
    joined = "".join(hands)
    for char in joined:
        if char not in "AKQJ-":
            raise ValueError(f"unknown rank class {char!r} in rank-only deal")
    # Ruling M9: one deck exactly once, i.e. 4 of each court rank and 36 number cards.
    for court in PENALTY:
        if joined.count(court) != 4:
            raise ValueError(f"deal must hold 4 of {court}, found {joined.count(court)}")
    if joined.count(NUMBER) != 36:
        raise ValueError(f"deal must hold 36 number cards, found {joined.count(NUMBER)}")
    return hands


def reference_play(
    deal: str,
    unpaid_penalty: str = "capture",
    card_limit: int | None = None,
) -> ReferenceResult:
    """Play a rank-only deal to its end and report result, winners, cards, tricks and cycle."""
    if unpaid_penalty not in ("capture", "next_player"):
        raise ValueError(f"unknown unpaid_penalty {unpaid_penalty!r}")
    if card_limit is not None and card_limit < 0:
        raise ValueError("card_limit must not be negative")

    hands = [deque(hand) for hand in parse_rank_deal(deal)]
    players = len(hands)
    is_in = [True] * players
    pile: list[str] = []
    cards = 0  # Ruling M8: cards actually placed on the pile.
    tricks = 0  # Ruling M8: piles taken, including the final one.
    leader = 0  # Ruling M7/M9: the first hand (seat 0) leads.

    def next_in(seat: int) -> int:
        # Ruling M5: "next player" is the next one clockwise who is still in.
        for step in range(1, players + 1):
            candidate = (seat + step) % players
            if is_in[candidate]:
                return candidate
        raise AssertionError("no player left in")

    def players_in() -> list[int]:
        return [seat for seat in range(players) if is_in[seat]]

    def position() -> str:
        # Ruling M10: all hands in seat order (by class) plus whose lead.
        return "/".join("".join(hand) for hand in hands) + "|" + str(leader)

    def win(winner: int) -> ReferenceResult:
        nonlocal tricks
        # Ruling M6: the last player in takes any pile left (counted as a trick, M8).
        if pile:
            hands[winner].extend(pile)
            pile.clear()
            tricks += 1
        return {
            "result": "win",
            "winners": [winner],
            "cards": cards,
            "tricks": tricks,
            "cycle": None,
        }

    def limit() -> ReferenceResult:
        # Ruling M11: the player(s) holding most cards in hand win; ties share.
        counts = {seat: len(hands[seat]) for seat in players_in()}
        most = max(counts.values())
        winners = [seat for seat, count in counts.items() if count == most]
        return {
            "result": "limit",
            "winners": winners,
            "cards": cards,
            "tricks": tricks,
            "cycle": None,
        }

    seen: dict[str, tuple[int, int]] = {position(): (0, 0)}

    while True:
        # One trick, led by `leader`.
        current = leader
        owed = 0  # cards `current` still has to pay; > 0 only while a payment is running
        court_player: int | None = None
        while True:
            if not hands[current]:
                # Ruling M3: out when he must play (lead, follow or pay) and has no card.
                is_in[current] = False
                remaining = players_in()
                if len(remaining) == 1:
                    # Ruling M6 (and its 2-player sentence): the game ends here.
                    return win(remaining[0])
                if owed > 0 and unpaid_penalty == "capture":
                    # Ruling M4 default: the last court-card player captures, rest forgiven.
                    break
                # Ruling M4 next_player (owed carries over), or no payment running: the next
                # player still in plays on.
                current = next_in(current)
                continue
            # Ruling M11: no card is placed beyond the limit. Everything the last allowed card
            # settles without a further card (capture, M5 outs, M3/M6 outs and end, M10 repeat)
            # still happens first.
            if card_limit is not None and cards >= card_limit:
                return limit()
            card = hands[current].popleft()
            pile.append(card)
            cards += 1
            if card in PENALTY:
                # Ruling M1: a court card (also one turned during a payment) makes the next
                # player pay afresh.
                court_player = current
                owed = PENALTY[card]
                current = next_in(current)
            elif court_player is None:
                # A number card with no court card down yet: play passes on.
                current = next_in(current)
            else:
                owed -= 1
                if owed == 0:
                    # Ruling M2: payment completed with number cards only.
                    break
                # The same player keeps paying.

        assert court_player is not None
        capturer = court_player
        # Ruling M2: under his hand in the order played (first played comes up first).
        hands[capturer].extend(pile)
        pile.clear()
        tricks += 1
        # Ruling M5: every other player who holds no card at the end of the trick is out.
        for seat in range(players):
            if seat != capturer and not hands[seat]:
                is_in[seat] = False
        if len(players_in()) == 1:
            return win(capturer)
        leader = capturer  # Ruling M2: the capturer leads the next trick.

        key = position()
        if key in seen:
            # Ruling M10: a repeated position at a trick boundary ends the game as a loop.
            start_cards, start_tricks = seen[key]
            return {
                "result": "loop",
                "winners": [],
                "cards": cards,
                "tricks": tricks,
                "cycle": {
                    "found_at_cards": cards,
                    "found_at_tricks": tricks,
                    "start_cards": start_cards,
                    "start_tricks": start_tricks,
                    "length_cards": cards - start_cards,
                    "length_tricks": tricks - start_tricks,
                },
            }
        seen[key] = (cards, tricks)
