from django.urls import path

from . import views

urlpatterns = [
    path("daily/<str:date>/replays", views.DailyReplaysView.as_view(), name="daily-replays"),
]
