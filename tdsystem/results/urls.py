app_name = "results"

urlpatterns: list = []
