#!/usr/bin/env python3
"""Onboards a fresh Home Assistant without a browser and writes a long-lived access token.

    python3 Tests/Home/onboard.py --url http://127.0.0.1:PORT --token-file PATH

The steps, in the order the onboarding integration lists them at GET /api/onboarding
(homeassistant/components/onboarding/views.py: the onboarding endpoints have no page in the
developer documentation; that module is their reference):
  1. POST /api/onboarding/users {name, username, password, client_id, language}, without
     authentication: creates the owner (an administrator) and answers {"auth_code": …}.
  2. POST /auth/token grant_type=authorization_code&code=…&client_id=…: the code for an access
     token and a refresh token (developers.home-assistant.io/docs/auth_api, "Token").
     The client id is the instance's own URL, as the frontend's is.
  3. POST /api/onboarding/core_config, /api/onboarding/analytics (nothing sent: analytics stay
     off) and /api/onboarding/integration {client_id, redirect_uri}, each with the access token.
  4. Over the WebSocket API, auth with the access token (docs/api/websocket, "Authentication
     phase"), then {"type": "auth/long_lived_access_token", "client_name", "lifespan"} (days)
     answers the long-lived token (docs/auth_api, "Long-lived access token").
The token goes to --token-file with mode 0600, written beside it and renamed, so a reader never
sees half of it. Prints one JSON line: the user and the refresh token's client name.
"""

import argparse
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from homeassistant_client import HTTPFailure, HomeAssistantSocket, http_json  # noqa: E402

OWNER = {"name": "Headway Tests", "username": "headway", "password": "headway-tests-only"}
TOKEN_CLIENT_NAME = "headway tests"


def wait_for_http(url, timeout):
    """Waits until GET /api/onboarding answers (it needs no authentication) and returns it."""
    deadline = time.monotonic() + timeout
    last = None
    while time.monotonic() < deadline:
        try:
            return http_json(f"{url}/api/onboarding", timeout=2)
        except (OSError, HTTPFailure) as error:
            last = error
            time.sleep(0.1)
    raise TimeoutError(f"{url} did not answer within {timeout} s ({last})")


def write_secret(path, text):
    folder = os.path.dirname(os.path.abspath(path))
    temporary = os.path.join(folder, f".{os.path.basename(path)}.{os.getpid()}")
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(descriptor, "w") as handle:
        handle.write(text + "\n")
    os.replace(temporary, path)


def onboard(url, token_file, timeout=60, lifespan_days=30):
    url = url.rstrip("/")
    client_id = f"{url}/"
    steps = wait_for_http(url, timeout)
    if any(step["done"] for step in steps):
        raise RuntimeError(f"{url} is onboarded already ({steps}): a fresh configuration folder is needed")
    code = http_json(f"{url}/api/onboarding/users", "POST", body={**OWNER, "client_id": client_id, "language": "en"})["auth_code"]
    tokens = http_json(f"{url}/auth/token", "POST", form={"grant_type": "authorization_code", "code": code, "client_id": client_id})
    access = tokens["access_token"]
    http_json(f"{url}/api/onboarding/core_config", "POST", body={}, token=access)
    http_json(f"{url}/api/onboarding/analytics", "POST", body={}, token=access)
    http_json(f"{url}/api/onboarding/integration", "POST", body={"client_id": client_id, "redirect_uri": f"{url}/?auth_callback=1"}, token=access)
    left = [step["step"] for step in http_json(f"{url}/api/onboarding") if not step["done"]]
    if left:
        raise RuntimeError(f"onboarding steps left undone: {left}")
    socket = HomeAssistantSocket(url)
    try:
        socket.auth(access)
        long_lived = socket.command("auth/long_lived_access_token", client_name=TOKEN_CLIENT_NAME, lifespan=lifespan_days)
    finally:
        socket.close()
    write_secret(token_file, long_lived)
    return {"user": OWNER["username"], "token_file": token_file, "client_name": TOKEN_CLIENT_NAME, "lifespan_days": lifespan_days}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", required=True, help="http://127.0.0.1:PORT")
    parser.add_argument("--token-file", required=True)
    parser.add_argument("--timeout", type=float, default=60, help="seconds to wait for the HTTP server")
    arguments = parser.parse_args()
    try:
        print(json.dumps(onboard(arguments.url, arguments.token_file, arguments.timeout)))
    except (OSError, RuntimeError, HTTPFailure, KeyError) as error:
        print(f"onboard: {error}", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
