"""Community ladders: Glicko-2 ratings per server and board size (issue: ladders)."""
