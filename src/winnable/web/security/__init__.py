"""Security: what stands between a request and the services.

- :mod:`~winnable.web.security.guard`: the gate every request passes first (sizes, Host,
  the default rate limit, JSON bodies, the same-origin proof), one ASGI middleware;
- :mod:`~winnable.web.security.csrf`: cross-site request forgery (same-origin pages and tokens);
- :mod:`~winnable.web.security.ratelimit`: the per-client and per-route limits (``limits``);
- :mod:`~winnable.web.security.passwords`: what a password is (NFKC) and how it is hashed;
- :mod:`~winnable.web.security.devices`: device cookies, so that guessing a name's
  password from elsewhere does not lock its owner out.

Security imports the errors, settings and pages' languages, never the services above it
(``lint-imports``: the web app's rooms contract in ``pyproject.toml``).
"""
