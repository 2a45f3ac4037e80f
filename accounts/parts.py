"""The accounts app's own part of deletion and export: the profile and the device."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model

from . import registry
from .models import Device


def export_profile(user_id: int) -> dict[str, Any]:
    user = get_user_model().objects.get(pk=user_id)
    device = Device.objects.filter(user_id=user_id).first()
    return {
        "username": user.get_username(),
        "date_joined": user.date_joined.isoformat(),
        "guest": device is not None and device.is_guest,
        # The device's id and dates; never its secret or the secret's hash.
        "device": None
        if device is None
        else {
            "device_id": str(device.device_id),
            "created_at": device.created_at.isoformat(),
            "last_seen_at": device.last_seen_at.isoformat(),
            "linked_at": device.linked_at.isoformat() if device.linked_at else None,
        },
    }


def register() -> None:
    registry.register_part("account", export=export_profile)
