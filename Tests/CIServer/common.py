"""What every API module shares: the request and response the plumbing hands around, time formats,
conditional requests and offset pagination."""

import email.utils
import hashlib
import json
import math
import urllib.parse
from datetime import datetime, timezone


class Request:
    """One request as an API module sees it: `now` is the scenario's clock (seconds since t=0) and
    `epoch` the wall time that t=0 stands for, so a timestamp in a body is epoch + t."""

    def __init__(self, method, raw_path, headers, now, epoch, base_url, client_ip):
        self.method = method
        self.raw_path = raw_path
        path, _, query = raw_path.partition("?")
        self.path = path  # still percent-encoded: GitLab's project paths depend on it
        self.query = urllib.parse.parse_qs(query, keep_blank_values=True)
        self.headers = headers
        self.now = now
        self.epoch = epoch
        self.base_url = base_url
        self.client_ip = client_ip

    def arg(self, name, default=None):
        values = self.query.get(name)
        return values[-1] if values else default

    def int_arg(self, name, default, low=None, high=None):
        try:
            value = int(self.arg(name, default))
        except ValueError:
            value = default
        if low is not None:
            value = max(low, value)
        if high is not None:
            value = min(high, value)
        return value

    def wall(self, t):
        """Epoch seconds of scenario time t."""
        return self.epoch + t


class Response:
    def __init__(self, status, body=b"", content_type="application/json; charset=utf-8", headers=None):
        self.status = status
        self.body = body
        self.headers = [("Content-Type", content_type)] if content_type else []
        for name, value in (headers or []):
            self.headers.append((name, str(value)))

    def add(self, name, value):
        self.headers.append((name, str(value)))
        return self


def json_response(status, value, headers=None):
    return Response(status, encode_json(value), headers=headers)


def encode_json(value):
    return (json.dumps(value, indent=2) + "\n").encode()


def iso_seconds(epoch_seconds):
    """GitHub's timestamps: ISO 8601 in UTC to the second, `YYYY-MM-DDTHH:MM:SSZ`
    (https://docs.github.com/rest/using-the-rest-api/timezones-and-the-rest-api)."""
    return datetime.fromtimestamp(math.floor(epoch_seconds), timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def iso_millis(epoch_seconds):
    """GitLab's timestamps: ISO 8601 in UTC with milliseconds, `2016-08-11T11:28:34.085Z`
    (examples in https://docs.gitlab.com/api/pipelines/)."""
    stamp = datetime.fromtimestamp(epoch_seconds, timezone.utc)
    return stamp.strftime("%Y-%m-%dT%H:%M:%S.") + "%03dZ" % (stamp.microsecond // 1000)


def http_date(epoch_seconds):
    return email.utils.formatdate(math.floor(epoch_seconds), usegmt=True)


def parse_iso(text):
    """An ISO 8601 date or date-time as epoch seconds; a bare date is its midnight UTC."""
    text = text.strip().replace(" ", "+")  # a `+` in a query arrives as a space unless sent as %2B
    if text.endswith("Z"):
        text = text[:-1] + "+00:00"
    stamp = datetime.fromisoformat(text)
    if stamp.tzinfo is None:
        stamp = stamp.replace(tzinfo=timezone.utc)
    return stamp.timestamp()


def etag_for(body, weak):
    digest = hashlib.sha1(body).hexdigest()
    return ('W/"%s"' % digest) if weak else ('"%s"' % digest)


def not_modified(request, etag, last_modified):
    """RFC 9110 13.1: If-None-Match wins over If-Modified-Since; ETags compare weakly for GET."""
    def opaque(tag):
        tag = tag.strip()
        return tag[2:] if tag.startswith("W/") else tag

    match = request.headers.get("If-None-Match")
    if match is not None:
        wanted = [opaque(tag) for tag in match.split(",")]
        return "*" in wanted or opaque(etag) in wanted
    since = request.headers.get("If-Modified-Since")
    if since is not None and last_modified is not None:
        try:
            return math.floor(last_modified) <= email.utils.parsedate_to_datetime(since).timestamp()
        except (TypeError, ValueError):
            return False
    return False


def page_slice(items, page, per_page):
    start = (page - 1) * per_page
    return items[start:start + per_page]


def page_url(request, page, per_page):
    query = {name: values[-1] for name, values in request.query.items()}
    query["page"] = str(page)
    query["per_page"] = str(per_page)
    return "%s%s?%s" % (request.base_url, request.path, urllib.parse.urlencode(query))


def link_header(request, page, per_page, total, always_first_last):
    """RFC 8288 `Link`. GitHub leaves out prev/first on the first page and next/last on the last
    (https://docs.github.com/rest/using-the-rest-api/using-pagination-in-the-rest-api); GitLab always
    sends first and last (https://docs.gitlab.com/api/rest/#pagination-link-header)."""
    last = max(1, math.ceil(total / per_page))
    links = []
    if page > 1:
        links.append((min(page - 1, last), "prev"))
    if page < last:
        links.append((page + 1, "next"))
    if always_first_last or page > 1:
        links.append((1, "first"))
    if always_first_last or page < last:
        links.append((last, "last"))
    return ", ".join('<%s>; rel="%s"' % (page_url(request, number, per_page), rel) for number, rel in links)
