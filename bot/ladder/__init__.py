"""Community ladders: Glicko-2 ratings per server and ladder (each TORA board, each other
game, and their AI ladders), seasons, matchmaking, and the rating of rated matches as the
match service says they end (``rating``)."""
