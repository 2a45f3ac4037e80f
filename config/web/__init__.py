"""The web layer every app shares: problem documents and the catalogue of codes, the
exception handler, idempotency (and its table: this package is a Django app, label
``web``), middleware, parameter parsing, throttling, caching and ETags, and the OpenAPI
helpers. It maps the services' errors (``config.errors.DomainError``) to HTTP, and what an
app registers at ``ready()`` (the games app: the engine's ``EngineError``); it imports no
app (the import contract in ``pyproject.toml``)."""
