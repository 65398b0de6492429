"""One ``APIRouter`` per resource; :func:`winnable.web.app.create_app` includes them all.

* :mod:`~.catalog` — the games on offer (``/api/catalog``);
* :mod:`~.games` — stored games: create, read, move, undo, restart, replay;
* :mod:`~.solver` — hints and analyses (through the solver queue);
* :mod:`~.security` — the CSRF token for scripts (``/api/csrf``);
* :mod:`~.health` — ``/api/health`` (up or down) and Prometheus ``/metrics``;
* :mod:`~.docs` — the OpenAPI page ``/docs``, served from a package, not a CDN;
* :mod:`~.pages` — the HTML pages and their static files.
"""

from winnable.web.routes import catalog, docs, games, health, pages, security, solver

ROUTERS = [catalog.router, games.router, solver.router, security.router, health.router, docs.router, pages.router]
