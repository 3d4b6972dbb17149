"""The deal: the shoe, the drawing rules (tableau), one round and the exact joint distribution of a
round's outcomes."""
