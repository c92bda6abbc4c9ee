"""The bot around the rules core and storage, in layers: ``bot.service`` hosts matches (it
knows nothing about Discord: a front end drives it and delivers its posts); ``bot.ladder``
and ``bot.tournament`` rate and rank the players; ``bot.app`` is the application layer every
front end stands on; ``bot.discord`` the Discord adapter; ``bot.build`` wires them."""
