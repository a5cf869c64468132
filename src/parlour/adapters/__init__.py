"""Parlour's games inside the research libraries (``pip install 'parlour[rl]'``).

- :mod:`parlour.adapters.pettingzoo`: ``env(game, players)``, PettingZoo AEC environments.
- :mod:`parlour.adapters.gymnasium`: ``parlour/BEOR-v0``, ``parlour/Death-v0``,
  ``parlour/Beggar-v0``, one learning seat against Parlour's bots.
- :mod:`parlour.adapters.openspiel`: ``parlour_beor``, ``parlour_death``, ``parlour_beggar``,
  OpenSpiel Python games with chance nodes.

Observations are built from a seat's View alone (:mod:`parlour.adapters.encoding`), with one
documented layout per game (:mod:`parlour.adapters.layouts`). This package imports none of the
three libraries itself, so ``import parlour`` never needs them.
"""
