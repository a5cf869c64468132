"""The game's words: one message catalog a language (``en.json``, ``ro.json``, ``nl.json``), read by
the terminal and the browser alike through :mod:`parlour.core.words` (and served to the browser
at ``/games/NAME/words/LANG.json``).

Keys (flat; English is the reference, every language has the same keys and placeholders):

- ``game.title``, ``game.summary``: the game's name and a one-line description;
- ``rules.title``, ``rules.goal``, and the short rules as numbered sections:
  ``rules.section.N.heading`` with its items ``rules.section.N.item.M`` (N and M count from 1,
  without gaps; a reader stops at the first number missing);
- ``event.KIND``: what an action did, one key per event kind; ``event.KIND.VARIANT`` where one
  kind reads differently by its data;
- ``ui.*``: the table's interface strings (``ui.notation``: the notation help; ``ui.option.NAME``:
  the help of option NAME; ``ui.end.*``: the outcome in words).

Placeholders: ``{player}`` a seat's name, ``{names}`` several, ``{card}`` a card's name, ``{count}``
the number that picks a plural form (plural entries are objects keyed one/few/other).
"""
