"""Where ``SECRET_KEY`` and ``DAILY_SECRET`` come from, and which values stop the start.

``SECRET_KEY`` signs the API's tokens; ``DAILY_SECRET`` is the HMAC key of the daily deals
(``games.daily.candidates``). Anyone who knows one can act as any player, or compute every
future daily deal. So (docs/secrets-and-names.md):

* an environment variable always wins;
* **local** mode (``HAVEN_LOCAL=1``, which the Makefile exports for ``make run``, or
  ``DEBUG=1``): a missing secret is made at random on the first start and kept in a local
  file (``HAVEN_SECRETS_FILE``, default ``local-secrets.json`` in the project folder, ignored
  by git and docker), mode 0600, and read from there on every later start;
* **testing** (pytest): a missing secret is made at random for the session and put in the
  environment, so the servers and workers the tests start share it;
* **production** (anything else): a missing secret stops the start;
* in every mode a value that is or was written in the repository stops the start.

Settings import this module before Django is set up: it uses no Django but the exception.
"""

from __future__ import annotations

import json
import os
import secrets
import sys
from collections.abc import MutableMapping
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured

SECRET_NAMES = ("SECRET_KEY", "DAILY_SECRET")

#: Values that are or were in the repository (settings' old defaults, docker-compose.yml's
#: fallbacks, the Dockerfile's build-time keys, the tests' secrets): public, so never a
#: secret. ``git log -p -S<value>`` shows where each one was.
REPOSITORY_SECRETS = frozenset(
    {
        "django-insecure-haven-dev-only-change-me-in-prod",  # config/settings.py
        "haven-dev-daily-secret",  # config/settings.py
        "change-me-in-production",  # docker-compose.yml
        "change-me-too",  # docker-compose.yml
        "build",  # Dockerfile (compile_translations)
        "collectstatic",  # Dockerfile (collectstatic)
        "s3cret",  # tests/daily/test_candidates.py
        "one",  # tests/daily/test_candidates.py
        "two",  # tests/daily/test_candidates.py
    }
)
#: The prefix Django's startproject gives the keys it writes into a settings file.
INSECURE_PREFIX = "django-insecure-"

HOW_TO_MAKE_ONE = "python3 -c 'import secrets; print(secrets.token_urlsafe(50))'"
DOCS = "docs/secrets-and-names.md"


def new_secret() -> str:
    return secrets.token_urlsafe(50)


def refuse_repository_value(name: str, value: str, source: str) -> None:
    """Stop the start when ``value`` is one anyone can read in the repository."""
    if value.strip() in REPOSITORY_SECRETS or value.strip().startswith(INSECURE_PREFIX):
        raise ImproperlyConfigured(
            f"{name} (from {source}) is a value written in the Haven repository, so anyone "
            f"can read it. Set {name} to a new random value, e.g. the output of "
            f"{HOW_TO_MAKE_ONE} (see {DOCS})."
        )


def _read(path: Path) -> dict[str, str]:
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError) as error:
        raise ImproperlyConfigured(
            f"the local secrets file {path} cannot be read ({error}); fix or delete it "
            f"(deleting it makes new secrets: see {DOCS})."
        ) from error
    if not isinstance(data, dict):
        raise ImproperlyConfigured(f"the local secrets file {path} is not a JSON object.")
    if path.stat().st_mode & 0o077:
        # Someone widened it (or a file system that cannot say): narrow it again, loudly.
        os.chmod(path, 0o600)
        print(f"haven: {path} was readable by others; its mode is now 0600", file=sys.stderr)
    return {name: value for name, value in data.items() if isinstance(value, str) and value}


def _write_new(path: Path, values: dict[str, str], *, replace: bool) -> bool:
    """Write ``values`` to ``path``, mode 0600 from the start (never readable by others,
    not even for a moment). ``replace`` False: only if ``path`` does not exist yet, so two
    processes starting at once agree on one file (the loser reads the winner's)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}")
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(descriptor, "w") as out:
            json.dump(values, out, indent=1)
            out.write("\n")
            out.flush()
            os.fsync(out.fileno())
        if replace:
            os.replace(temporary, path)
            return True
        try:
            os.link(temporary, path)  # atomic, and fails if the file exists
        except FileExistsError:
            return False
        return True
    finally:
        temporary.unlink(missing_ok=True)


def local_secrets(path: Path) -> dict[str, str]:
    """Both secrets from the local file, made (and the file written) where missing."""
    try:
        if not path.exists():
            made = {name: new_secret() for name in SECRET_NAMES}
            if _write_new(path, made, replace=False):
                return made
        stored = _read(path)
        missing = [name for name in SECRET_NAMES if name not in stored]
        if missing:
            stored.update({name: new_secret() for name in missing})
            _write_new(path, stored, replace=True)
    except OSError as error:
        raise ImproperlyConfigured(
            f"cannot keep the local secrets in {path} ({error}); set SECRET_KEY and "
            f"DAILY_SECRET in the environment instead (see {DOCS})."
        ) from error
    return stored


def load(environ: MutableMapping[str, str], *, mode: str, local_file: Path) -> dict[str, str]:
    """``{"SECRET_KEY": …, "DAILY_SECRET": …}`` for ``mode`` ``local``, ``testing`` or
    ``production`` (the module doc), or :class:`ImproperlyConfigured` with the reason."""
    values: dict[str, str] = {}
    for name in SECRET_NAMES:
        value = environ.get(name, "")
        if value.strip():
            refuse_repository_value(name, value, "the environment")
            values[name] = value
    missing = [name for name in SECRET_NAMES if name not in values]
    if not missing:
        return values
    if mode == "testing":
        for name in missing:
            # In the environment too: the servers and workers a test starts inherit it.
            values[name] = environ[name] = new_secret()
    elif mode == "local":
        stored = local_secrets(local_file)
        for name in missing:
            refuse_repository_value(name, stored[name], str(local_file))
            values[name] = stored[name]
    else:
        raise ImproperlyConfigured(
            f"{' and '.join(missing)} not set. In production (DEBUG off, HAVEN_LOCAL not "
            f"set) every secret comes from the environment: set each to its own random "
            f"value, e.g. the output of {HOW_TO_MAKE_ONE}. For a local install, `make run` "
            f"(or HAVEN_LOCAL=1) makes them and keeps them in {local_file.name} (see {DOCS})."
        )
    return values
