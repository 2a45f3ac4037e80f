# Haven API image: one image for web (gunicorn), streams (uvicorn), worker and beat (celery).

# The native prover (native/, Rust, no crates): built apart, only its binary is kept.
FROM rust:1-slim AS prover
WORKDIR /src
COPY native/ ./
RUN cargo build --release

FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app

# PyPy runs the solver about twice as fast (bench/README.md); used when SOLVER_PYTHON=pypy3.
RUN apt-get update \
    && apt-get install -y --no-install-recommends pypy3 \
    && rm -rf /var/lib/apt/lists/*

# Dependencies first, for layer caching: only pyproject.toml invalidates this layer.
COPY pyproject.toml README.md ./
RUN mkdir -p config games leaderboard \
    && touch config/__init__.py games/__init__.py leaderboard/__init__.py \
    && pip install . \
    && pip uninstall -y haven

COPY . .
COPY --from=prover /src/target/release/haven-prover /usr/local/bin/haven-prover
ENV SOLVER_NATIVE=haven-prover
# Build steps load the settings, which want both secrets (never one from the repository):
# throwaway random ones, gone with the step.
RUN export SECRET_KEY="$(python -c 'import secrets; print(secrets.token_urlsafe(50))')" \
    && export DAILY_SECRET="$SECRET_KEY" \
    && python manage.py compile_translations \
    && pip install --no-deps . \
    && python manage.py collectstatic --noinput \
    && useradd --system --uid 10001 haven
USER haven

EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
    CMD python -c "import urllib.request,sys; urllib.request.urlopen('http://127.0.0.1:8000/api/v1/health', timeout=4); sys.exit(0)"

# Workers, timeouts and request limits: gunicorn.conf.py (each one an environment variable).
CMD ["gunicorn", "-c", "gunicorn.conf.py", "config.wsgi:application"]
