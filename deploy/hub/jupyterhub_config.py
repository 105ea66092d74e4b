"""The course's JupyterHub (deploy/hub): one machine, each person a Unix user.

Written into PREFIX by deploy/hub/install.py, with the settings it reads (hub.json beside it).
Students' servers run JupyterLab from the course's environment with the course's Validate,
the Assignments tab and the welcome notebook; the instructor's with Formgrader, on the clone.
"""

import json
from pathlib import Path

c = get_config()  # noqa: F821 (given by traitlets)
here = Path(__file__).resolve().parent
hub = json.loads((here / "hub.json").read_text())
venv = Path(hub["venv"])

c.JupyterHub.bind_url = f"http://{hub['ip']}:{hub['port']}"
hub_port, proxy_api_port = hub["internal_ports"]  # on 127.0.0.1 only
c.JupyterHub.hub_bind_url = f"http://127.0.0.1:{hub_port}"
c.ConfigurableHTTPProxy.api_url = f"http://127.0.0.1:{proxy_api_port}"
c.JupyterHub.cookie_secret_file = str(here / "jupyterhub_cookie_secret")
c.JupyterHub.db_url = f"sqlite:///{here / 'jupyterhub.sqlite'}"
c.ConfigurableHTTPProxy.command = [hub["proxy"]]
c.ConfigurableHTTPProxy.pid_file = str(here / "jupyterhub-proxy.pid")
# Who may log in (with their Unix password, through PAM, the default): the class and its
# instructor. A site's own log-in (OAuth, LDAP) replaces the authenticator here.
c.Authenticator.allowed_users = {hub["instructor"], *hub["students"]}
c.Spawner.cmd = [str(venv / "bin" / "jupyterhub-singleuser")]
c.Spawner.notebook_dir = "~"
c.Spawner.http_timeout = 120  # a busy machine may take a while to start a server


def role(spawner) -> None:
    """Each server's configuration, by who it is for."""
    instructor = spawner.user.name == hub["instructor"]
    who = "instructor" if instructor else "student"
    spawner.environment.update(
        {
            "JUPYTER_CONFIG_PATH": str(here / "etc" / who),
            "PATH": f"{venv / 'bin'}:/usr/local/bin:/usr/bin:/bin",
        }
    )
    if instructor:  # `make grade` in a terminal uses this environment, not a .venv of its own
        spawner.environment["COURSE_VENV"] = str(venv)
    spawner.default_url = "/lab" if instructor else "/lab/tree/00_welcome.ipynb"


c.Spawner.pre_spawn_hook = role
