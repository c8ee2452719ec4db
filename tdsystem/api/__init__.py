"""The JSON API (django-ninja): public reads for screens, token-authorised staff writes."""
