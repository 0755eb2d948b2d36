"""JupyterLab settings for the browser test: local only, no token, no news or update checks.

The same switches galata's ``configure_jupyter_server`` sets, minus its temporary folders: the
test passes the port, the folder to serve and the settings folders on the command line (see
conftest.py), so this file holds only what never changes. Never use it for a real server.
"""

c = get_config()  # noqa: F821 - provided by Jupyter's config loader

c.ServerApp.ip = "127.0.0.1"
c.ServerApp.port_retries = 0
c.ServerApp.open_browser = False
c.ServerApp.allow_root = True  # CI runs as root
c.IdentityProvider.token = ""
c.ServerApp.password = ""
c.ServerApp.disable_check_xsrf = True
c.LabApp.expose_app_in_browser = True  # window.jupyterapp, which the test drives
c.LabApp.news_url = None
c.LabApp.check_for_updates_class = "jupyterlab.handlers.announcements.NeverCheckForUpdate"
c.LabApp.extension_manager = "readonly"
