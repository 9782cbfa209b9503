"""Characters, advantage cards, party files and their legality."""
