"""The web layer both apps share: problem documents and the catalogue of codes, the
exception handler, idempotency, middleware, parameter parsing, throttling, caching and
ETags, and the OpenAPI helpers. It maps the game library's and the services' errors
(``games.engine.EngineError``, ``config.errors.DomainError``) to HTTP; it knows neither
app's views (the import contract in ``pyproject.toml`` says what it may import)."""
