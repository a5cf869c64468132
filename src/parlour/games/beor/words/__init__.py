"""The game's words: its message catalogs ``en.json``, ``ro.json`` and ``nl.json``, keyed as
:mod:`parlour.core.words` describes."""
