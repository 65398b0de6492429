"""The pages: what the browser gets besides the API.

- ``templates/``: the Jinja2 pages (lobby, game, rules, Daily, statistics, account),
  rendered by :mod:`winnable.web.routes.pages`;
- ``static/``: their CSS and build-free JavaScript modules (``static/js/play.js`` wires
  the game page by concern; one renderer per family over ``cards.js``);
- ``locale/``: the gettext catalogues (English, French, Dutch) for pages, API messages
  and the scripts; :mod:`~winnable.web.pages.i18n` chooses a request's language and
  translates.
"""
