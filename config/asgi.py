"""ASGI entry point (uvicorn, the live streams' server: docs/live.md).

``application`` serves the stream views directly, past Django's middleware threads
(:mod:`config.direct_asgi`), and hands every other request to Django;
``django_application`` is Django alone (the benchmark's old path: ``--via django``).
"""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

django_application = get_asgi_application()

from config.direct_asgi import DirectRouter  # noqa: E402  (needs the settings set up)

application = DirectRouter(django_application)
