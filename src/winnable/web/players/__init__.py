"""The players' services: what belongs to a person rather than to one game.

- :mod:`~winnable.web.players.accounts`: accounts and sessions (sign up, sign in, guests,
  delete, export);
- :mod:`~winnable.web.players.daily`: the Daily (one secret winnable deal per game and
  day, one attempt per name, the leaderboard);
- :mod:`~winnable.web.players.challenges`: challenges (a deal with its settings sent to
  friends, one ranked attempt per player and name, its own leaderboard);
- :mod:`~winnable.web.players.ranking`: the one ranking of every leaderboard (the Daily's,
  a challenge's);
- :mod:`~winnable.web.players.stats`: statistics per player and game, and the record of
  each deal played more than once, from stored games;
- :mod:`~winnable.web.players.purge`: the background purge of expired and empty guest sessions.

The players' services use the game services (:mod:`winnable.web.play`) and security;
neither imports them.
"""
