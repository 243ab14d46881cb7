"""nginx in front of real servers: the configuration of ``deploy/nginx`` rendered with the tests' own
addresses and run as a subprocess whose files all stay in the test's folder."""

from __future__ import annotations

import re
import socket
import subprocess
import time
from pathlib import Path

from support import PROJECT_DIR
from support.live import free_port, stop_process

TEMPLATE = PROJECT_DIR / "deploy" / "nginx" / "cardroom.conf.template"
NGINX = Path("/usr/sbin/nginx")
PLACEHOLDER = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}")
START_SECONDS = 10

# One process that keeps the test's user: workers would switch to nobody, who may not enter the
# test's folder. Every path nginx writes to is in that folder.
MAIN_CONFIG = """\
master_process off;
pid {folder}/nginx.pid;
error_log {folder}/error.log info;
events {{ worker_connections 256; }}
http {{
    access_log {folder}/access.log;
    client_body_temp_path {folder}/body;
    proxy_temp_path {folder}/proxy;
    fastcgi_temp_path {folder}/fastcgi;
    uwsgi_temp_path {folder}/uwsgi;
    scgi_temp_path {folder}/scgi;
    include {folder}/cardroom.conf;
}}
"""


def placeholders(text: str) -> set[str]:
    """The names of the template's placeholders (``${NAME}``)."""
    return set(PLACEHOLDER.findall(text))


def render(text: str, values: dict[str, str]) -> str:
    """What the nginx image's envsubst makes of the template: each placeholder replaced by its value,
    nginx's own variables (``$name``) left alone. A placeholder without a value raises ``KeyError``."""
    return PLACEHOLDER.sub(lambda found: values[found.group(1)], text)


class Nginx:
    """nginx on a free port of 127.0.0.1 in front of ``app1`` and ``app2`` (``host:port``), started by
    ``with`` and stopped when it ends."""

    def __init__(self, folder: Path, app1: str, app2: str) -> None:
        self.folder = folder
        self.port = free_port()
        self.values = {"LISTEN": f"127.0.0.1:{self.port}", "APP1": app1, "APP2": app2}
        self.process: subprocess.Popen[bytes] | None = None

    def __enter__(self) -> Nginx:
        self.folder.mkdir(parents=True, exist_ok=True)
        (self.folder / "cardroom.conf").write_text(render(TEMPLATE.read_text(), self.values))
        main = self.folder / "nginx.conf"
        main.write_text(MAIN_CONFIG.format(folder=self.folder))
        with (self.folder / "nginx.out").open("ab") as out:
            self.process = subprocess.Popen(
                [str(NGINX), "-p", str(self.folder), "-e", str(self.folder / "error.log"), "-c", str(main),
                 "-g", "daemon off;"], stdout=out, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + START_SECONDS
        while time.monotonic() < deadline and self.process.poll() is None:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return self
            except OSError:
                time.sleep(0.05)
        self.__exit__()
        raise AssertionError(f"nginx did not start: {self.errors()}")

    def __exit__(self, *_: object) -> None:
        stop_process(self.process)

    def errors(self) -> str:
        return "".join(path.read_text()[-2000:] for name in ("nginx.out", "error.log")
                       if (path := self.folder / name).exists())
