"""One module per game: its observation layout (documented in the module) and its chance deal
for OpenSpiel. :func:`parlour.adapters.encoding.layout_for` finds the module from the game's
name, as :attr:`parlour.core.game.Game.strategy` finds a game's strategy."""
