"""What ``help`` shows at the table: each game's rules in short, its notation and the commands.

The summaries follow the seed texts and the rulings (ids in brackets), so a person who reads
only this can play a whole game; the README has the rulings' full wording. Each item is one
line that the terminal wraps at its own width.
"""

from __future__ import annotations

__all__ = ["COMMANDS", "RULES"]


def _page(*items: str) -> str:
    return "\n".join(items)


_BEOR = _page(
    "BEOR (Black, Even, Odd, Red): build your hand of 6 cards into two groups of three.",
    "• Goal (B5): two groups of three, each a run (three ranks in a row of one suit, A low, "
    "A to Q, no King or Joker) or a set (three of one rank; K K K counts). You win the moment "
    "your hand does.",
    "• Your turn: play a card from your hand onto a base of its theme, then draw from that "
    "base's stock.",
    "• Themes (B4): Black takes spades and clubs, Red hearts and diamonds; Even and Odd go by "
    "value (A=1, J=11, Q=12). A King fits its colour, Even and Odd; a Joker fits every base. A "
    "base whose stock is empty takes no card.",
    "• 3 or 8 (B6): the base's stock is turned over (face down to face up or back, its order "
    "reversed) before you draw. Everyone sees the top of a face-up stock.",
    "• 4 or 7 (B7): you may draw from any stock that has cards instead of the base's own.",
    "• Losing (B8): a player who cannot play loses; with 3 or more players his cards go to the "
    "scrap pile and the last player left wins. When the last stock runs out the bases are "
    "restocked (B9).",
    "Notation: CARD>BASE, or CARD>BASE/STOCK to draw elsewhere after a 4 or 7, e.g. 7c>odd or "
    "4s>even/black. Bases may be shortened to b e o r; cards are written 7C, 10H (or TH), QS, "
    "JK1 for a Joker, in any case, or with suit symbols (7♥).",
)

_DEATH = _page(
    "Becker's Game of Death: make everyone else drink more than you do. Fewest drinks taken "
    "wins (G12).",
    "• Start (G1): all the cards are dealt; the holder of the two of diamonds throws it first.",
    "• Throwing (G2): throw a card of the same suit or the same rank as the top of the pile. If "
    "you can, you must; if you cannot, you pass and drink 1. After a sweep you lead any card.",
    "• Going down (G3): same suit, both 2 to 10, lower than the card below: drink the difference.",
    "• Breaking suit (G4): a card of the same rank in another suit makes whoever threw the "
    "covered card drink 1.",
    "• Face cards (G5): black ones give, red ones take. Spades A 20, K 8, Q 6, J 4; clubs A 5, "
    "K 4, Q 3, J 2 (given). Hearts A 5, K 4, Q 3, J 2; diamonds A 10, K 8, Q 6, J 4 (taken). "
    "You may split what you give; play waits until all is given.",
    "• Social (G7): the four cards of one rank thrown in a row: everyone drinks 1.",
    "• Sweeps (G8, G9): after an Ace's drinks the pile is swept and the same player leads; when "
    "everyone else passes, the pile is swept and the last thrower leads.",
    "• End (G10, G11): once a player is out of cards, play goes on until the turn would come "
    "back to him. Black face cards left in a hand are drunk at their give value.",
    "• Illegal throw (G13): a card from your hand that does not follow costs 2 drinks and goes "
    "back to your hand.",
    "Notation: a card (9c, 10h, Q♠) throws it; pass when you cannot follow. After a black face "
    "card the give prompt asks whom to give to: 3 gives all to Player 3, 2=3 3=2 splits five; "
    "give N>Pk also works.",
    "Table penalties (G13), when the table agrees: doh N>Pk makes Player k drink N for a D'oh! "
    "(a slip such as going out of turn), delay N>Pk for delaying the game.",
)

_BEGGAR = _page(
    "Beggar-My-Neighbour: win every card. There are no decisions: in turn each player turns "
    "his top card onto the pile.",
    "• Court cards (M1): J, Q, K, A make the next player pay 1, 2, 3 or 4 cards. A court card "
    "turned while paying passes the debt on to the next player.",
    "• Capture (M2): when a payment ends with number cards only, the court card's player takes "
    "the pile under his hand and leads.",
    "• Out (M3, M6): a player who must play and has no card is out; the last player holding "
    "cards wins. Some deals never end (M10): the game stops when a position repeats.",
)

_DECISIONS = _page(
    "Commands: a number picks that move, or type the move itself (Tab completes it).",
    "  help: this page · moves: draw the table again · hint: what the heuristic bot would play",
    "  undo: take back your last move (one person against bots) · save [FILE]: save the game",
    "  quit (or Ctrl-C): leave the table, offering to save first",
)

_NO_DECISIONS = _page(
    "Commands: Enter turns your card · auto: turn your cards for you to the end of the game",
    "  help: this page · moves: draw the table again · save [FILE]: save the game",
    "  quit (or Ctrl-C): leave the table, offering to save first",
)

RULES = {"beor": _BEOR, "death": _DEATH, "beggar": _BEGGAR}
COMMANDS = {"beor": _DECISIONS, "death": _DECISIONS, "beggar": _NO_DECISIONS}
