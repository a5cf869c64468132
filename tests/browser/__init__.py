"""The browser tests: Playwright driving Debian's Chromium against a real ``parlour serve``
(the lobby at ``/`` and the tables at ``/r/ROOM``), whole games of every game played through
the pages by several browser contexts, checked for hidden cards at every step."""
