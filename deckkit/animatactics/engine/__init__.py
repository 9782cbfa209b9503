"""Combat: exact attack distributions and one-on-one duels."""
