"""BEOR's lab-side work: its compiled kernel as the lab plays it (:mod:`.kernel`). These
modules may import ``parlour.lab``."""
