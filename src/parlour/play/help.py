"""What ``help`` shows at the table: each game's rules in short, its notation and the commands.

The summaries follow the seed texts and the rulings (ids in brackets), so a person who reads
only this can play a whole game; RULINGS.md and the README have the full wording.
"""

from __future__ import annotations

__all__ = ["COMMANDS", "RULES"]

_BEOR = """\
BEOR (Black, Even, Odd, Red): build your hand of 6 cards into two groups of three.
  Goal (B5): two groups of three: a run (three ranks in a row of one suit, A low, A..Q, no King
    or Joker) or a set (three of one rank; K-K-K counts). You win the moment your hand does.
  Turn: play a card from your hand onto a base of its theme, then draw from that base's stock.
  Themes (B4): Black is spades and clubs, Red hearts and diamonds; Even and Odd by value (A=1,
    J=11, Q=12). A King fits its colour, Even and Odd; a Joker fits every base. A base whose
    stock is empty takes no card.
  3 or 8 (B6): the base's stock is turned over (face down <-> face up, order reversed) before you
    draw. The top of a face-up stock is seen by everyone.
  4 or 7 (B7): you may draw from any stock that has cards instead of the base's own.
  Losing (B8): a player who cannot play loses; with 3+ players his cards go to the scrap pile and
    the last player left wins. When the last stock runs out the bases are restocked (B9).
Notation: CARD>BASE, or CARD>BASE/STOCK after a 4 or 7.  Examples: 7c>odd  4s>even/black
  (bases b e o r for short; cards as 7C, 10H or TH, QS, JK1 for a Joker)."""

_DEATH = """\
Becker's Game of Death: make everyone else drink more than you do. Fewest drinks taken wins.
  Start (G1): all cards are dealt; the holder of 2♦ throws it first.
  Throw (G2): a card of the same suit or the same rank as the top of the pile. If you can, you
    must; if you cannot, you pass and drink 1. After a sweep you lead any card.
  Going down (G3): same suit, both 2-10, lower than the card below: drink the difference.
  Breaking suit (G4): a same-rank card of another suit makes the thrower of the covered card
    drink 1.
  Face cards (G5): black ones give, red ones take. ♠ A 20, K 8, Q 6, J 4; ♣ A 5, K 4, Q 3, J 2;
    ♥ A 5, K 4, Q 3, J 2 taken; ♦ A 10, K 8, Q 6, J 4 taken. Gives may be split among the others;
    play waits until they are all given.
  Social (G7): the four cards of one rank in a row: everyone drinks 1.
  Ace (G8): after its drinks the pile is swept and the same player leads. If everyone else passes
    (G9) the pile is swept and the last thrower leads.
  End (G10, G11): when a player is out of cards, play goes on until the turn would come back to
    him. Black face cards left in a hand are drunk at their give value.
  Illegal throw (G13): a card that does not follow costs 2 drinks and goes back to your hand.
Notation: a card (9c, 10h, QS) to throw it; pass when you cannot follow; when you owe drinks,
  answer the give prompt (3 gives all to Player 3; 2=3 3=2 splits 5); give N>Pk gives N to
  Player k. Table penalties: doh N>Pk, delay N>Pk (G13)."""

_BEGGAR = """\
Beggar-My-Neighbour: win every card. There are no decisions: you turn your top card in turn.
  Court cards (M1): J, Q, K, A make the next player pay 1, 2, 3 or 4 cards. A court card turned
    while paying passes the debt on to the next player.
  Capture (M2): if the payment ends with number cards only, the court card's player takes the
    pile under his hand and leads.
  Out (M3, M6): a player who must play and has no card is out; the last player holding cards
    wins. Some deals never end (M10): the game stops when a position repeats.
Press Enter to turn your card."""

RULES = {"beor": _BEOR, "death": _DEATH, "beggar": _BEGGAR}

COMMANDS = """\
Commands: a number picks that move; or type the move itself (Tab completes it).
  help    this page          moves   list your moves again     hint   what a bot would play
  undo    take back your last move (alone against bots)        save [FILE]   save the game
  quit    leave the table (offers to save)"""
