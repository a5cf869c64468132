"""The checks made on every whole game played through the pages (``test_beor.py``,
``test_death.py``, ``test_beggar.py`` import them, each with its own ``played`` fixture): the
outcome on every page against the record, no card hidden from a page's seat on it at any
version, exactly the legal moves offered, card labels, hooks, status, axe-core and the
screenshots."""

from __future__ import annotations

from tests.browser.browser import (
    Played,
    action_problems,
    hand_problems,
    hook_problems,
    label_problems,
    leak_canary,
    leak_problems,
    report,
    status_problems,
    version_problems,
)

__all__ = [
    "test_axe_finds_nothing_serious_mid_game_and_at_the_end",
    "test_cards_are_buttons_labelled_in_english",
    "test_every_page_ends_with_the_records_outcome",
    "test_no_page_ever_shows_a_card_hidden_from_it",
    "test_pages_offer_exactly_the_seats_legal_moves",
    "test_screenshots_at_both_sizes",
    "test_versions_seats_and_game",
]


def test_every_page_ends_with_the_records_outcome(played: Played) -> None:
    assert played.steps > 0 and played.via_notation > 0, (played.steps, played.via_notation)
    assert played.reloads, "no page was reloaded during the game"
    print(played.summary())
    record = played.record
    assert (record["game"], record["players"]) == (played.setup.game, played.setup.players)
    assert {k: record["options"][k] for k in played.setup.options} == played.setup.options
    outcomes = {name: snap.outcome for name, snap in played.final.items()}
    assert len(set(outcomes.values())) == 1, outcomes
    report(hook_problems(played), "the end screens")


def test_no_page_ever_shows_a_card_hidden_from_it(played: Played) -> None:
    report(leak_problems(played), "cards hidden from a page's seat shown on it")
    report(leak_canary(played), "the leak checker on this game's snapshots")
    for table in played.tables:
        versions = {s.v for s in table.snaps if s.v is not None}
        assert len(versions) >= played.steps, (table.name, len(versions), played.steps)


def test_pages_offer_exactly_the_seats_legal_moves(played: Played) -> None:
    report(action_problems(played), "[data-action] against the legal moves")
    report(hand_problems(played), "the moves on the cards")


def test_cards_are_buttons_labelled_in_english(played: Played) -> None:
    report(label_problems(played), "card labels")


def test_versions_seats_and_game(played: Played) -> None:
    report(version_problems(played), "#table's data-v, data-seat and data-game")
    report(status_problems(played), "#status and the title")


def test_axe_finds_nothing_serious_mid_game_and_at_the_end(played: Played) -> None:
    assert len(played.axe) == 2 * len(played.tables), sorted(played.axe)
    report([f"{where}: {p}" for where, found in played.axe.items() for p in found], "axe-core")


def test_screenshots_at_both_sizes(played: Played) -> None:
    names = sorted(p.name for p in played.shots)
    game = played.setup.game
    sizes = ("390x844", "1280x800")
    assert names == sorted(f"{game}{end}-{size}.png" for end in ("", "-end") for size in sizes)
    for path in played.shots:
        assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", path
