"""Crazy Eights for Parlour, as OpenSpiel's ``crazy_eights`` plays it: a game from another
distribution, found through the entry point group ``parlour.games``.

Modules, imports pointing one way: ``sentences`` (the refusals in the words of the game's
catalogs); ``notation`` and ``options``; ``deal`` (the deal and the
penalty points); ``events``; ``view`` and ``rules`` (the state machine); ``sample``
(determinization); ``reading`` (states, views and deals from JSON); ``game``; the faces
``strategy`` (bots) and ``present`` (the terminal), and the ``words`` catalogs.
"""
