"""The API's models: the JSON the routes read and write (Pydantic), for validation and the
OpenAPI documentation at ``/docs`` (:mod:`~winnable.web.models.schemas`), and the hot
routes' pre-serialised state response (:mod:`~winnable.web.models.responses`).

The tables behind them live in the core's storage (:mod:`winnable.storage.tables`),
shared with the surveys.
"""
