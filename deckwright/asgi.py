"""ASGI entry point: HTTP to Django, WebSockets (live tables, web/routing.py) to Channels with
the signed-in user of the session and only from this site's own pages (ALLOWED_HOSTS)."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "deckwright.settings")
django_application = get_asgi_application()

# Serving from here on: finish the in-process simulation jobs a stopped server left unfinished
# (a sweep now and every SIMULATION_RESUME_INTERVAL seconds; rules/lab/jobs.py, docs/scaling.md).
from rules.lab.jobs import simulation_resumer_start  # noqa: E402  (needs the apps loaded)

simulation_resumer_start()

from channels.auth import AuthMiddlewareStack  # noqa: E402  (needs the apps loaded)
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from web.routing import websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_application,
        "websocket": AllowedHostsOriginValidator(
            AuthMiddlewareStack(URLRouter(websocket_urlpatterns))
        ),
    }
)
