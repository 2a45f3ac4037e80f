"""HTTP views of the games API: check the request's shape, call a service, serialise.

One module a resource family (``auth``, ``catalog``, ``plays``); ``games.api.urls`` routes
to them, and ``games.winnability.views`` holds the hint.
"""
