"""Balance checks: sequential tests of decks' win rates against bands and baselines, for CI."""
