#!/usr/bin/env python3
"""
Runs the public Python client degreedClient (PyPI degreed-client), unchanged, against a running mock.

The client is not part of this repository: pass the folder of a checkout of it with --client. The client
builds its addresses from one host name (https://{host}/oauth/token and https://api.{host}/api/v2), and
the mock, started with --tls --host-name, serves exactly those two origins on one port over HTTPS. The
client meets it as it meets the real service: its code and transport are unchanged; it trusts the mock's
CA through REQUESTS_CA_BUNDLE (set by the caller), and the two names lead to the mock's address through
the resolver below, as an /etc/hosts line would.

Each check prints one line; the last line is "N passed, N failed". Exit code 0 when every check of
the document's endpoints passed (token, content walk, users walk), 1 otherwise, 2 for bad arguments.
The client's model classes (content.all, users.all) are reported too, but they lag the document (see
docs/clients.md), so their outcome does not change the exit code.
"""
import argparse
import json
import socket
import sys
import urllib.parse

import requests

# Bounded walks: the mock's data sets used here are a few hundred items.
MAX_PAGES = 200


def resolve(names, address):
    """The mock's names lead to its address, every other name to DNS as before: name resolution only."""
    getaddrinfo = socket.getaddrinfo

    def resolved(host, *args, **kwargs):
        return getaddrinfo(address if host in names else host, *args, **kwargs)

    socket.getaddrinfo = resolved


def reference_count(auth_url, base_url, client_id, secret, path, scope):
    """Items of a list, walked by the document's rules alone: what the client should have seen."""
    token = requests.post(
        f"{auth_url.rstrip('/')}/oauth/token",
        data={"grant_type": "client_credentials", "client_id": client_id, "client_secret": secret, "scope": scope},
        timeout=30,
    ).json()["access_token"]
    headers = {"Authorization": f"Bearer {token}"}
    url = f"{base_url.rstrip('/')}/api/v2/{path}?limit=1000"
    total = 0
    for _ in range(MAX_PAGES):
        body = requests.get(url, headers=headers, timeout=30).json()
        total += len(body["data"])
        nxt = body.get("links", {}).get("next")
        if not nxt:
            return total
        url = nxt
    raise RuntimeError(f"{path}: more than {MAX_PAGES} pages")


def main():
    parser = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    parser.add_argument("--client", required=True, help="folder of a degreedClient checkout (holds degreedClient/)")
    parser.add_argument("--auth-url", required=True, help="the mock's auth origin, https://{host}")
    parser.add_argument("--base-url", required=True, help="the mock's api origin, https://api.{host}")
    parser.add_argument("--address", required=True, help="the address both names lead to (the mock's ready line: address)")
    parser.add_argument("--client-id", default="mock-org-client")
    parser.add_argument("--client-secret", default="mock-org-secret")
    parser.add_argument("--scope", default="content:read,users:read")
    args = parser.parse_args()

    sys.path.insert(0, args.client)
    try:
        from degreedClient import DegreedApiClient
    except ImportError as error:
        print(f"degreedClient cannot be imported from {args.client}: {error}", file=sys.stderr)
        return 2

    auth, api = urllib.parse.urlsplit(args.auth_url), urllib.parse.urlsplit(args.base_url)
    # The client derives the api origin from the auth origin's host: the mock must serve that one.
    if auth.scheme != "https" or args.base_url.rstrip("/") != f"https://api.{auth.netloc}":
        print(f"--base-url must be https://api.{{host}} for --auth-url https://{{host}}, got {args.base_url} and {args.auth_url}", file=sys.stderr)
        return 2
    host = args.address.rsplit(":", 1)[0].strip("[]")
    resolve({auth.hostname, api.hostname}, host)

    expected = {
        path: reference_count(args.auth_url, args.base_url, args.client_id, args.client_secret, path, args.scope)
        for path in ("content", "users")
    }
    results = []

    def check(name, required, run):
        try:
            ok, detail = run()
        except Exception as error:  # the client's own exceptions are what this run reports
            ok, detail = False, f"{type(error).__name__}: {str(error)[:300]}"
        results.append((name, required, ok))
        print(json.dumps({"check": name, "required": required, "ok": ok, "detail": detail}))

    # The host with the mock's port: the client writes it into https://{host} and https://api.{host}.
    client = DegreedApiClient(auth.netloc, args.client_id, args.client_secret, args.scope)

    def token():
        if hasattr(client, "access_token"):
            return True, f"expires_in={client.expiry_time}"
        return False, f"no access_token; token endpoint answered {client.response.status_code}: {client.response.text[:200]}"

    def walk(path):
        def run():
            got = sum(len(page["data"]) for page in client.get_paged(path))
            return got == expected[path], f"{got} of {expected[path]} items"

        return run

    def model(accessor):
        def run():
            items = accessor()
            return True, f"{len(items)} objects"

        return run

    check("token", True, token)
    check("content walk (get_paged)", True, walk("content"))
    check("users walk (get_paged)", True, walk("users"))
    check("content.all() models", False, model(lambda: client.content.all()))
    check("users.all() models", False, model(lambda: client.users.all()))

    passed = sum(1 for _, _, ok in results if ok)
    print(f"{passed} passed, {len(results) - passed} failed")
    return 0 if all(ok for _, required, ok in results if required) else 1


if __name__ == "__main__":
    sys.exit(main())
