"""One ``APIRouter`` per resource; :func:`winnable.web.app.create_app` includes them all.

* :mod:`~.catalog` — the games on offer (``/api/catalog``);
* :mod:`~.games` — stored games: create, read, move, undo, restart, replay;
* :mod:`~.solver` — hints and analyses (through the solver queue);
* :mod:`~.security` — the CSRF token for scripts (``/api/csrf``);
* :mod:`~.health` — ``/api/health`` (up or down) and Prometheus ``/metrics``;
* :mod:`~.docs` — the OpenAPI page ``/docs``, served from a package, not a CDN;
* :mod:`~.summaries` — "your games": summaries of the games whose ids a browser keeps;
* :mod:`~.pages` — the HTML pages (GET and HEAD), their error pages and their static
  files (versioned, cached for a year).
"""

from winnable.web.routes import catalog, docs, games, health, pages, security, solver, summaries

ROUTERS = [catalog.router, summaries.router, games.router, solver.router, security.router, health.router, docs.router, pages.router]
