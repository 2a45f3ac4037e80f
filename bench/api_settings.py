"""Settings of the API benchmark (``bench/api.py``): production settings plus a no-op endpoint.

Only ``bench/api.py`` uses this module (``DJANGO_SETTINGS_MODULE=bench.api_settings``); the
no-op endpoint never reaches the production URLs. Throttles are off so that the benchmark
measures the endpoints, not the rate limits it would otherwise hit within a second.
"""

from config.settings import *  # noqa: F403
from config.settings import REST_FRAMEWORK

ROOT_URLCONF = "bench.api_urls"
REST_FRAMEWORK = {**REST_FRAMEWORK, "DEFAULT_THROTTLE_CLASSES": []}
