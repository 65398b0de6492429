"""One ``APIRouter`` per resource; :func:`winnable.web.app.create_app` includes them all.

* :mod:`~.catalog` — the games on offer (``/api/catalog``);
* :mod:`~.games` — stored games: create, read, move, undo, restart, replay;
* :mod:`~.solver` — hints and analyses (through the solver queue);
* :mod:`~.solution` — the whole winning line from a position, and taking over from it;
* :mod:`~.security` — the CSRF token for scripts (``/api/csrf``);
* :mod:`~.health` — ``/api/health`` (up or down) and Prometheus ``/metrics``;
* :mod:`~.docs` — the OpenAPI page ``/docs``, served from a package, not a CDN;
* :mod:`~.summaries` — "your games": summaries of the games whose ids a browser keeps;
* :mod:`~.pages` — the HTML pages (GET and HEAD), their error pages and their static
  files (versioned, cached for a year);
* :mod:`~.auth` — sign up, sign in, sign out, who is signed in (``/api/auth``);
* :mod:`~.account` — download or delete one's account (``/api/account``);
* :mod:`~.daily` — the Daily and its leaderboards (``/api/daily``);
* :mod:`~.stats` — a player's statistics (``/api/stats``);
* :mod:`~.challenges` — challenges and their leaderboards (``/api/challenges``);
* :mod:`~.player_pages` — the account, Daily and statistics pages.
"""

from winnable.web.routes import (
    account,
    auth,
    catalog,
    challenges,
    daily,
    docs,
    games,
    health,
    pages,
    player_pages,
    security,
    solution,
    solver,
    stats,
    summaries,
)

ROUTERS = [
    catalog.router,
    summaries.router,
    games.router,
    solver.router,
    solution.router,
    security.router,
    health.router,
    docs.router,
    pages.router,
    auth.router,
    account.router,
    daily.router,
    stats.router,
    player_pages.router,
    challenges.router,
]
