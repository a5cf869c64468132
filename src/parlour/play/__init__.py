"""People's front ends at the terminal."""
