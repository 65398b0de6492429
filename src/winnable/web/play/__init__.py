"""The game and solver services: a stored game, its moves checked by the rules, and the
solver's answers about it.

- :mod:`~winnable.web.play.games`: :class:`~winnable.web.play.games.GameService`, which
  creates games and changes them (move, undo, restart) in one transaction each;
- :mod:`~winnable.web.play.store`: the ``games`` rows (read, owner, clock, the hints' line);
- :mod:`~winnable.web.play.positions`: positions rebuilt from moves, kept in memory, and
  what the browser gets of each (:func:`~winnable.web.play.positions.shown`);
- :mod:`~winnable.web.play.state`: the game state JSON the page draws;
- :mod:`~winnable.web.play.lookup`: what a request names (a game, a deal, an id) and the catalogue;
- :mod:`~winnable.web.play.scores`: the scores the game pages describe (partial, speed, timed);
- :mod:`~winnable.web.play.solving`, :mod:`~winnable.web.play.queue`: hints, "still
  winnable?" and "where did I lose?" through a bounded solver queue;
- :mod:`~winnable.web.play.pool`: the background pool of proved-winnable deals;
- :mod:`~winnable.web.play.cache`: the byte-bounded memory those caches share.

Imports the rules (:mod:`winnable`), storage, security's errors and the pages' languages;
never the players' services nor the routes.
"""
