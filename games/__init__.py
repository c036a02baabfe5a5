"""The in-tree game plugins, registered through the ``gamesearch`` entry-point group."""
