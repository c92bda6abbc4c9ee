"""The bot around the rules core and storage: ``bot.service`` hosts matches (it knows nothing
about Discord: a front end drives it and delivers its posts), ``bot.ladder`` and
``bot.tournament`` rate and rank the players."""
