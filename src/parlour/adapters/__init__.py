"""Parlour's games inside the research libraries (``pip install 'parlour[rl]'``).

- :mod:`parlour.adapters.pettingzoo`: ``env(game, players)``, PettingZoo AEC environments;
  ``parallel_env``, the parallel API.
- :mod:`parlour.adapters.gymnasium`: ``parlour/NAME-v0`` (the id a game's features name), one
  learning seat against Parlour's bots or policies (:mod:`parlour.adapters.selfplay`:
  self-play, past copies).
- :mod:`parlour.adapters.openspiel`: ``parlour_NAME``, OpenSpiel Python games with chance nodes.

They serve every registered game whose parts name observation features: the protocol in
:mod:`parlour.adapters.features`, a module of the game's own package (its ``features`` part).
Observations are built from a seat's typed View alone. This package imports none of the three
libraries itself, so ``import parlour`` never needs them.
"""
