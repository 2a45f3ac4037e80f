"""``POST /api/v1/streams/tickets``: a short-lived ticket that opens the caller's streams."""

from __future__ import annotations

from django.conf import settings
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.web.openapi import AUTH_REQUIRED, problems

from . import access


class TicketSerializer(serializers.Serializer):
    ticket = serializers.CharField(help_text="pass as ?ticket= to a stream URL")
    expires_in = serializers.IntegerField(help_text="seconds within which to open a stream")


class TicketView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        operation_id="streams_ticket",
        tags=["streams"],
        request=None,
        responses={201: TicketSerializer, **problems(*AUTH_REQUIRED)},
    )
    def post(self, request: Request) -> Response:
        """Issue a stream ticket for clients that cannot send a header (browsers'
        EventSource): it opens the caller's streams within ``expires_in`` seconds."""
        body = {
            "ticket": access.issue(request.user),
            "expires_in": settings.REALTIME_TICKET_SECONDS,
        }
        return Response(TicketSerializer(body).data, status=status.HTTP_201_CREATED)
