"""Games that exist only in the tests: each a package on the seam (``rules.protocol``), built
on the rules core's turn machine and grid, registered at test time with one line
(``rules.registry.register``). They prove that a game reaches every part of the host through
the registry alone."""
