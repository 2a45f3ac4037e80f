"""The notification outbox: events for the app's push service, delivered to a webhook.

It sits above ``games`` and ``leaderboard`` (neither imports it): it hears their signals
(docs/operations/notifications.md).
"""
