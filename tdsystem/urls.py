from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from tdsystem.api.events import clock_read_first
from tdsystem.api.main import api
from tdsystem.core import auth_views as core_auth
from tdsystem.core import views as core_views
from tdsystem.core import views_catalog, views_language
from tdsystem.events import views as events_views
from tdsystem.venue import views_chips, views_multi, views_screens

api_urls = api.urls

urlpatterns = [
    # The screens' clock poll, first: see clock_read_first.
    path("api/events/<int:event_id>/clock", clock_read_first(api_urls), name="clock_json"),
    path("", events_views.home, name="home"),
    path("healthz", core_views.healthz, name="healthz"),
    path("healthz/live", core_views.healthz_live, name="healthz_live"),
    path("healthz/ready", core_views.healthz_ready, name="healthz_ready"),
    path("favicon.ico", core_views.favicon, name="favicon"),
    path("language", views_language.language_choose, name="language"),
    path("jsi18n/<str:code>.js", views_catalog.js_catalog, name="js_catalog"),
    path("health/banner", core_views.health_banner, name="health_banner"),
    path("login/", core_auth.LoginView.as_view(), name="login"),
    path("login/code/", core_auth.login_code, name="login_code"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("admin/", admin.site.urls),
    path("console/tokens/", core_auth.tokens, name="tokens"),
    path("console/tokens/<int:token_id>/revoke", core_auth.token_revoke, name="token_revoke"),
    path("console/", include("tdsystem.venue.urls_console")),
    path("events/<int:event_id>/clock/", views_screens.clock_screen, name="clock_screen"),
    path("events/<int:event_id>/schedule/", events_views.schedule, name="schedule"),
    path("events/<int:event_id>/chips/", views_chips.chips_screen, name="chips_screen"),
    # The room's stable addresses: the current event's screens, whatever its id this week.
    path("clock/", views_screens.current, {"page": "clock"}, name="screen_clock"),
    path("schedule/", views_screens.current, {"page": "schedule"}, name="screen_schedule"),
    path("seats/", views_screens.current, {"page": "seats"}, name="screen_seats"),
    path("seats/draw/", views_screens.current, {"page": "draw"}, name="screen_draw"),
    path("seats/poster/", views_screens.poster, name="screen_poster"),
    path("chips/", views_screens.current, {"page": "chips"}, name="screen_chips"),
    path("screens/clocks/", views_multi.clocks_screen, name="screen_clocks"),
    path("api/", api_urls),
    path("", include("tdsystem.seating.urls")),
    path("", include("tdsystem.rulings.urls")),
    path("", include("tdsystem.results.urls")),
    path("", include("tdsystem.players.urls")),
    path("", include("tdsystem.shotclock.urls")),
    path("", include("tdsystem.printing.urls")),
    path("", include("tdsystem.dealers.urls")),
]

handler400 = "tdsystem.core.errors.bad_request"
handler404 = "tdsystem.core.errors.not_found"
handler403 = "tdsystem.core.errors.permission_denied"
handler500 = "tdsystem.core.errors.server_error"
