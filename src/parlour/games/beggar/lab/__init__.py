"""Beggar-My-Neighbour's lab-side work for its own commands (:mod:`parlour.games.beggar.cli`):
the statistics of random deals (:mod:`.stats`), their histogram (:mod:`.plot`) and the search
for long games (:mod:`.search`, its saved state :mod:`.search_state`, on Dask
:mod:`.search_dask`). These modules may import ``parlour.lab``."""
