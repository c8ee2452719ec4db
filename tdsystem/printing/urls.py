from django.urls import path

from . import views, views_results

app_name = "printing"

EVENT = "console/events/<int:event_id>/printing/"

urlpatterns = [
    path("console/printers/", views.printers, name="printers"),
    path("console/printers/<int:printer_id>/test", views.printer_test, name="printer_test"),
    path("console/printers/<int:printer_id>/remove", views.printer_remove, name="printer_remove"),
    path(EVENT, views.event_printing, name="event"),
    path(EVENT + "switches", views.event_switches, name="switches"),
    path(EVENT + "print", views.event_print, name="print"),
    path(EVENT + "card/<int:number>", views.card_print, name="card"),
    path(EVENT + "jobs/<int:job_id>/", views.job_page, name="job"),
    path(EVENT + "jobs/<int:job_id>/reprint", views.job_reprint, name="reprint"),
    path(EVENT + "jobs/<int:job_id>/cancel", views.job_cancel, name="cancel"),
    path(EVENT + "results.<str:fmt>", views_results.results_file, name="results_file"),
    # Public: the event's feed for a room's website or a reporter.
    path("events/<int:event_id>/feed.json", views_results.feed, name="feed"),
]
