"""Request and response shapes of the accounts API: credentials, token pairs, guests."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.exceptions import ValidationError as DjangoValidationError
from rest_framework import serializers
from rest_framework.exceptions import AuthenticationFailed
from rest_framework_simplejwt.serializers import TokenObtainPairSerializer, TokenRefreshSerializer

from config.web.fields import StrictCharField

from .. import names
from ..authentication import claimed_user_id

# --- Auth ------------------------------------------------------------------------------------


class CredentialsSerializer(serializers.Serializer):
    """``{username, password}``, both JSON strings. The username is checked in its NFKC form
    (the form it is stored in, ``accounts.names``)."""

    # Not trimmed: " bob" is not a name (the schema's pattern), rather than bob's.
    username = StrictCharField(max_length=names.MAX_NAME_LENGTH, trim_whitespace=False)
    password = StrictCharField(max_length=128, write_only=True, trim_whitespace=False)

    def validate_username(self, value: str) -> str:
        name = names.display_form(value)
        if len(name) > names.MAX_NAME_LENGTH or len(names.name_key(name)) > (names.MAX_KEY_LENGTH):
            raise serializers.ValidationError(
                f"at most {names.MAX_NAME_LENGTH} characters, once normalised (NFKC)"
            )
        try:
            UnicodeUsernameValidator()(name)
        except DjangoValidationError as error:
            raise serializers.ValidationError(list(error.messages)) from error
        return name

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        user = get_user_model()(username=attrs["username"])
        try:
            validate_password(attrs["password"], user)
        except DjangoValidationError as error:
            raise serializers.ValidationError({"password": list(error.messages)}) from error
        return attrs


class LoginSerializer(TokenObtainPairSerializer):
    """simplejwt's pair serializer with strict strings and names matched by their key."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields[self.username_field] = StrictCharField(write_only=True)
        self.fields["password"] = StrictCharField(write_only=True, trim_whitespace=False)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        user = names.find_user(attrs[self.username_field])
        if user is not None:
            attrs = {**attrs, self.username_field: user.get_username()}
        return super().validate(attrs)


class RefreshSerializer(TokenRefreshSerializer):
    """simplejwt's refresh serializer, refusing a token whose ``user_id`` is not a user's id
    with 401 instead of letting the lookup crash (a string id) or miss (a deleted user)."""

    refresh = StrictCharField()

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        token = self.token_class(attrs["refresh"])  # TokenError → 401 in the view
        user_id = claimed_user_id(token)
        if not get_user_model().objects.filter(pk=user_id).exists():
            raise AuthenticationFailed(
                self.error_messages["no_active_account"], "no_active_account"
            )
        return super().validate(attrs)


class TokenPairSerializer(serializers.Serializer):
    token_type = serializers.CharField(default="Bearer")
    access = serializers.CharField(help_text="send as `Authorization: Bearer <access>`")
    refresh = serializers.CharField(help_text="exchange at /api/v1/auth/token/refresh")
    username = serializers.CharField(required=False)


class RefreshResponseSerializer(serializers.Serializer):
    access = serializers.CharField(help_text="a new access token")


# --- Guests, linking, sign-out, password, deletion -------------------------------------------

#: A canonical UUID as ``str(uuid.UUID(...))`` writes it: lower case, with hyphens.
DEVICE_ID_PATTERN = r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$"
#: 32 random bytes in base64url without padding.
DEVICE_SECRET_PATTERN = r"^[A-Za-z0-9_-]{43}$"


class GuestSerializer(serializers.Serializer):
    """``{device_id, device_secret}``, both made and kept by the device."""

    device_id = serializers.RegexField(
        DEVICE_ID_PATTERN,
        max_length=36,
        help_text="a UUID the device made, in lower case (e.g. from crypto.randomUUID())",
    )
    device_secret = serializers.RegexField(
        DEVICE_SECRET_PATTERN,
        max_length=43,
        min_length=43,
        write_only=True,
        help_text="32 random bytes in base64url without padding; the device keeps it",
    )

    def validate_device_secret(self, value: str) -> str:
        # 43 characters carry 258 bits; the last one's 2 spare bits must be zero.
        if value[-1] not in "AEIMQUYcgkosw048":
            raise serializers.ValidationError("not the base64url of 32 bytes")
        return value


class GuestTokenPairSerializer(serializers.Serializer):
    token_type = serializers.CharField(default="Bearer")
    access = serializers.CharField(help_text="send as `Authorization: Bearer <access>`")
    refresh = serializers.CharField(help_text="exchange at /api/v1/auth/token/refresh")
    username = serializers.CharField()
    guest = serializers.BooleanField(help_text="true until the account is linked")


class LinkSerializer(CredentialsSerializer):
    """``{username, password}`` for the guest, under registration's rules."""


class LogoutSerializer(serializers.Serializer):
    refresh = StrictCharField(help_text="the refresh token to revoke")


class PasswordChangeSerializer(serializers.Serializer):
    old_password = StrictCharField(max_length=128, write_only=True, trim_whitespace=False)
    new_password = StrictCharField(max_length=128, write_only=True, trim_whitespace=False)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        try:
            validate_password(attrs["new_password"], self.context.get("user"))
        except DjangoValidationError as error:
            raise serializers.ValidationError({"new_password": list(error.messages)}) from error
        return attrs


class DeletionSerializer(serializers.Serializer):
    """The account's password, or a guest's device secret."""

    password = StrictCharField(
        max_length=128, write_only=True, trim_whitespace=False, required=False
    )
    device_secret = StrictCharField(max_length=43, write_only=True, required=False)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if ("password" in attrs) == ("device_secret" in attrs):
            raise serializers.ValidationError("send either password or device_secret")
        return attrs


class ExportSerializer(serializers.Serializer):
    """The account's data; each part as its app describes it (``accounts.registry``)."""

    exported_at = serializers.DateTimeField()
    account = serializers.DictField()
    plays = serializers.ListField(child=serializers.DictField())
    leaderboard = serializers.DictField()
