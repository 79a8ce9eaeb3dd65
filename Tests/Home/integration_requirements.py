"""Prints, one a line, the Python packages of the integrations the test home loads.

Run by Scripts/lib/homeassistant.sh with the venv's Python, after Home Assistant itself is
installed: the test home runs with --skip-pip (Home Assistant never installs anything while the
tests run), so what its integrations import is installed beforehand. The integrations are the
ones Home Assistant sets up whatever the configuration says (its bootstrap module's sets), the
top-level keys of configuration.yaml and the template platforms used, and every integration they
depend on; each integration's manifest.json lists its requirements, pinned.
    python integration_requirements.py CONFIGURATION_YAML
"""

import json
import re
import sys
from pathlib import Path

import homeassistant
from homeassistant import bootstrap

components = Path(homeassistant.__file__).parent / "components"


def manifest(domain):
    path = components / domain / "manifest.json"
    if not path.exists():
        sys.exit(f"integration_requirements: {domain} (from the configuration) is not a Home Assistant integration")
    return json.loads(path.read_text())


def main():
    text = Path(sys.argv[1]).read_text()
    configured = set(re.findall(r"^([a-z_][a-z0-9_]*):", text, re.MULTILINE))
    platforms = set(re.findall(r"^ {2,4}(?:- )?(sensor|binary_sensor|update|number|switch|button|select):", text, re.MULTILINE))
    wanted = configured | platforms | bootstrap.CORE_INTEGRATIONS | bootstrap.LOGGING_AND_HTTP_DEPS_INTEGRATIONS
    wanted |= bootstrap.FRONTEND_INTEGRATIONS | bootstrap.DEFAULT_INTEGRATIONS
    if "sentry" not in configured:  # listed among the early ones, set up only when configured
        wanted.discard("sentry")
    seen, todo = set(), sorted(wanted)
    while todo:
        domain = todo.pop()
        if domain not in seen:
            seen.add(domain)
            todo.extend(manifest(domain).get("dependencies", []))
    for requirement in sorted({r for domain in seen for r in manifest(domain).get("requirements", [])}):
        print(requirement)


if __name__ == "__main__":
    main()
