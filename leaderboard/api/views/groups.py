"""Groups over HTTP: create, join by code, read, leave (``leaderboard.groups``)."""

from __future__ import annotations

from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.web.openapi import (
    AUTH_REQUIRED,
    BODY,
    LOCATION,
    problems,
)

from ... import groups
from ..serializers import (
    GroupCreateSerializer,
    GroupDetailSerializer,
    GroupJoinSerializer,
    GroupListSerializer,
    GroupSerializer,
)

# --- Groups ----------------------------------------------------------------------------------


class GroupsView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        operation_id="groups_list",
        responses={200: GroupListSerializer, **problems(*AUTH_REQUIRED)},
    )
    def get(self, request: Request) -> Response:
        """The groups the caller belongs to."""
        mine = groups.my_groups(request.user).select_related("owner").order_by("name", "id")
        return Response({"results": GroupSerializer(mine, many=True).data})

    @extend_schema(
        operation_id="groups_create",
        request=GroupCreateSerializer,
        parameters=[LOCATION],
        responses={
            201: GroupDetailSerializer,
            **problems("validation_error", "try_again", *AUTH_REQUIRED, *BODY),
        },
    )
    def post(self, request: Request) -> Response:
        """Create a group; the caller is its owner and first member. Share ``code``."""
        body = GroupCreateSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        group = groups.create_group(request.user, body.validated_data["name"])
        group = groups.group_for(request.user, group.pk)
        return Response(
            GroupDetailSerializer(group).data,
            status=status.HTTP_201_CREATED,
            headers={"Location": _group_url(group.pk)},
        )


class GroupJoinView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        operation_id="groups_join",
        request=GroupJoinSerializer,
        parameters=[LOCATION],
        responses={
            200: GroupDetailSerializer,
            201: GroupDetailSerializer,
            **problems(
                "validation_error", "invalid_invite_code", "group_full", *AUTH_REQUIRED, *BODY
            ),
        },
    )
    def post(self, request: Request) -> Response:
        """Join a group by invite code: 201 when joined, 200 if already a member."""
        body = GroupJoinSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        group, joined = groups.join_group(request.user, body.validated_data["code"])
        if not joined:
            return Response(GroupDetailSerializer(group).data)
        return Response(
            GroupDetailSerializer(group).data,
            status=status.HTTP_201_CREATED,
            headers={"Location": _group_url(group.pk)},
        )


class GroupDetailView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        operation_id="groups_retrieve",
        parameters=[OpenApiParameter("group_id", OpenApiTypes.INT, OpenApiParameter.PATH)],
        responses={
            200: GroupDetailSerializer,
            **problems("group_not_found", "not_found", *AUTH_REQUIRED),
        },
    )
    def get(self, request: Request, group_id: int) -> Response:
        """A group of the caller's, with its members; anyone else's group is a 404."""
        return Response(GroupDetailSerializer(groups.group_for(request.user, group_id)).data)


class GroupLeaveView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        operation_id="groups_leave",
        request=None,
        parameters=[OpenApiParameter("group_id", OpenApiTypes.INT, OpenApiParameter.PATH)],
        responses={204: None, **problems("group_not_found", "not_found", *AUTH_REQUIRED)},
    )
    def post(self, request: Request, group_id: int) -> Response:
        """Leave a group; the oldest member left becomes owner; an empty group is deleted."""
        groups.leave_group(request.user, group_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


def _group_url(group_id: int) -> str:
    return reverse("group-detail", kwargs={"group_id": group_id})
