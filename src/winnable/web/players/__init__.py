"""The players' services: what belongs to a person rather than to one game.

- :mod:`~winnable.web.players.accounts`: accounts and sessions (sign up, sign in, guests,
  delete, export);
- :mod:`~winnable.web.players.daily`: the Daily (one secret winnable deal per game and
  day, one attempt per name, the leaderboard);
- :mod:`~winnable.web.players.stats`: statistics per player and game, from stored games;
- :mod:`~winnable.web.players.purge`: the background purge of expired and empty guest sessions.

The players' services use the game services (:mod:`winnable.web.play`) and security;
neither imports them.
"""
