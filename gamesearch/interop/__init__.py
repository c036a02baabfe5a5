"""Bridges to other ecosystems: gamesearch's games as PettingZoo environments
(:mod:`gamesearch.interop.pettingzoo`, the ``pettingzoo`` extra) and as OpenSpiel games
(:mod:`gamesearch.interop.openspiel`, the ``openspiel`` extra), their moves numbered as
actions by :mod:`gamesearch.interop.actions`.

Each bridge imports its library only when the bridge itself is imported, so gamesearch
runs without them.
"""
