"""The Discord front end: a thin discord.py layer over the match service (see
docs/DISCORD.md). ``client.ToraBot`` is the bot; ``commands`` the ``/tora`` group, whose
handlers call ``actions`` (match commands) and ``lookups`` (records, rules, ladders,
settings); ``delivery`` carries the service's posts and private messages to Discord."""
