"""A toy fourth game, written as a new game's author would (``game.py``, ``strategy.py``,
``present.py`` in one package), to show that the terminal table plays a game it was never told
about: nothing in ``play/`` knows a game by name."""
