"""``manage.py serve_proxy``: gunicorn on loopback behind a private nginx (docs/deploy.md).

``make serve-proxy`` runs it after migrating and collecting the static files. ``--print-site``
prints the nginx site configuration for a system nginx instead (``/etc/nginx/conf.d/``).
"""

from __future__ import annotations

import signal
import sys
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from common.proxy import ProxyError, ProxyServer, Site


class Command(BaseCommand):
    help = (
        "Serve the site with gunicorn behind nginx, which buffers slow clients and serves /static/."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--listen", default="127.0.0.1:8000", help="nginx's address")
        parser.add_argument(
            "--upstream", default="127.0.0.1:8001", help="gunicorn's address (loopback)"
        )
        parser.add_argument(
            "--websocket-upstream",
            default="127.0.0.1:8002",
            help="daphne's address, for the WebSockets of live tables (loopback)",
        )
        parser.add_argument("--server-name", default="_", help="nginx server_name")
        parser.add_argument("--max-body", default="2m", help="largest request body (413 above)")
        parser.add_argument("--tls-certificate", type=Path, help="serve HTTPS with this chain")
        parser.add_argument("--tls-key", type=Path, help="the certificate's private key")
        parser.add_argument(
            "--run-dir",
            type=Path,
            help="nginx's pid, logs and temporary files (default: DECKWRIGHT_DATA_DIR/proxy)",
        )
        parser.add_argument(
            "--print-site",
            action="store_true",
            help="print the site configuration for a system nginx and exit",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        site = Site(
            listen=options["listen"],
            upstream=options["upstream"],
            websocket_upstream=options["websocket_upstream"],
            static_root=Path(settings.STATIC_ROOT),
            server_name=options["server_name"],
            max_body=options["max_body"],
            tls_certificate=options["tls_certificate"],
            tls_key=options["tls_key"],
        )
        try:
            if options["print_site"]:
                self.stdout.write(site.render())
                return
            server = ProxyServer(site, options["run_dir"] or Path(settings.DATA_DIR) / "proxy")
            server.check()
        except ProxyError as error:
            raise CommandError(str(error)) from error
        if not (Path(settings.STATIC_ROOT) / "staticfiles.json").is_file():
            self.stderr.write(
                f"No collected static files in {settings.STATIC_ROOT}: run collectstatic first "
                "(make serve-proxy does)"
            )
        # Ctrl-C and TERM stop both servers after their requests in flight.
        signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
        try:
            server.start()
            self.stdout.write(
                f"Serving http{'s' if site.tls_certificate else ''}://{site.listen}/ through nginx "
                f"({server.nginx}); gunicorn on {site.upstream}, daphne (WebSockets) on "
                f"{site.websocket_upstream}. Ctrl-C stops them all."
            )
            self.stdout.flush()
            status = server.wait()
        except ProxyError as error:
            raise CommandError(str(error)) from error
        except (KeyboardInterrupt, SystemExit):
            status = 0
        finally:
            server.stop()
        if status:
            raise CommandError(f"a server stopped with status {status}")
