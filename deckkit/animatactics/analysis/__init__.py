"""The duel matrix across the roster and the cost-efficiency study."""
