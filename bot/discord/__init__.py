"""The Discord adapter: discord.py over the application layer (``bot.app``), the only part of
the bot that imports discord.py (see docs/DISCORD.md). ``client.ToraBot`` is the connection;
``commands`` the ``/tora`` group, whose handlers hand over to the application layer through
``respond.Responder``; ``buttons``, ``panel`` and ``setup_form`` the persistent components;
``delivery`` carries the service's posts and private messages to Discord."""
