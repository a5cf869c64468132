"""The JSON Schemas of the game's documents (state, view, action notation), named in its parts."""
