"""The game's web board: ``board.js``, the ES module the browser table loads with ``import()``
for this game, and ``board.css``, its styles; served by the server at ``/games/NAME/board.js``
and ``/games/NAME/board.css`` (see ``parlour.server.boards``)."""
