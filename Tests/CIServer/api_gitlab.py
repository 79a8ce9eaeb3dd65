"""GitLab REST API v4: a project's pipelines and their jobs, rendered from the scenario's timeline
at the request's time, with GitLab's token headers, Rack::Attack rate-limit headers, ETags and
offset pagination headers.

References (docs.gitlab.com; the same text is in gitlab-org/gitlab under doc/):
  pipelines   https://docs.gitlab.com/api/pipelines/
  jobs        https://docs.gitlab.com/api/jobs/#list-pipeline-jobs
  pagination  https://docs.gitlab.com/api/rest/#pagination
  auth        https://docs.gitlab.com/api/rest/authentication/
  status      https://docs.gitlab.com/api/rest/troubleshooting/#status-codes
  rate limits https://docs.gitlab.com/administration/settings/user_and_ip_rate_limits/#response-headers
"""

import hashlib
import math
import re
import threading
import urllib.parse

from common import (Response, encode_json, etag_for, http_date, iso_millis, json_response, link_header,
                    not_modified, page_slice, parse_iso)

PREFIX = "/api/v4/"
FINISHED = {"success", "failed", "canceled", "skipped"}
WAITING = ["preparing", "pending", "waiting_for_resource", "scheduled"]  # the earlier wins for the pipeline


def owns(path):
    return path.startswith(PREFIX)


class Throttle:
    """Requests per client in a `period` (one minute by default): RateLimit-Limit is "the request quota
    for the client each minute" (rate-limits reference)."""

    def __init__(self, config):
        self.lock = threading.Lock()
        self.period = config.get("period", 60)
        self.limits = {"authenticated": config.get("authenticated", 2000), "unauthenticated": config.get("unauthenticated", 500)}
        self.windows = {}

    def observe(self, key, kind, wall_now):
        with self.lock:
            window = self.windows.get(key)
            if window is None or wall_now >= window["reset"]:
                window = {"observed": 0, "reset": int(wall_now) + self.period}
                self.windows[key] = window
            window["observed"] += 1
            return dict(window, limit=self.limits[kind], name="throttle_%s_api" % kind)


class GitLab:
    def __init__(self, config, epoch):
        self.config = config
        self.tokens = {token["token"]: token for token in config.get("tokens", [])}
        self.throttle = Throttle(config["rate_limit"]) if "rate_limit" in config else None
        self.projects = config.get("projects", [])

    def owns(self, path):
        return owns(path)

    def credential(self, request):
        """PRIVATE-TOKEN header (or private_token parameter) for access tokens, `Authorization: Bearer`
        for OAuth-compliant use (authentication reference)."""
        value = request.headers.get("PRIVATE-TOKEN") or request.arg("private_token") or request.arg("access_token")
        header = request.headers.get("Authorization")
        if value is None and header is not None:
            scheme, _, rest = header.strip().partition(" ")
            value = rest.strip() if scheme.lower() == "bearer" else ""
        if value is None:
            return None, None
        token = self.tokens.get(value)
        if token is None or token.get("expired"):
            # "If authentication information is not valid or is missing, GitLab returns ... 401"
            return None, json_response(401, {"message": "401 Unauthorized"})
        return token, None

    def handle(self, request):
        token, failure = self.credential(request)
        window = None
        if self.throttle is not None:
            kind = "authenticated" if token else "unauthenticated"
            key = ("token", token["token"]) if token else ("ip", request.client_ip)
            window = self.throttle.observe(key, kind, request.wall(request.now))
            if window["observed"] > window["limit"]:
                return self.throttled(request, window)
        response = failure or self.route(request, token)
        if window is not None:
            add_rate_headers(response, window)
        return response

    def throttled(self, request, window):
        # 429 with a plain-text body, "Retry later" by default, plus RateLimit-ResetTime and Retry-After.
        response = Response(429, b"Retry later\n", content_type="text/plain; charset=utf-8")
        add_rate_headers(response, window)
        response.add("RateLimit-ResetTime", http_date(window["reset"]))
        response.add("Retry-After", max(0, math.ceil(window["reset"] - request.wall(request.now))))
        return response

    def fault(self, request, kind, params):
        wall_now = request.wall(request.now)
        if kind == "unauthorized":
            return json_response(401, {"message": "401 Unauthorized"})
        if kind == "rate_limit":
            reset = int(wall_now) + int(params.get("reset_in", 60))
            limit = params.get("limit", 2000)
            return self.throttled(request, {"observed": limit + 1, "reset": reset, "limit": limit,
                                            "name": "throttle_authenticated_api"})
        return None

    # ---- routing ------------------------------------------------------------------------------

    def route(self, request, token):
        match = re.fullmatch(r"/api/v4/projects/([^/]+)/pipelines(?:/([^/]+))?(/jobs)?", request.path)
        if not match or request.method != "GET":
            return json_response(404, {"error": "404 Not Found"})
        project = self.find_project(urllib.parse.unquote(match.group(1)))
        if project is None or not readable(project, token):
            return json_response(404, {"message": "404 Project Not Found"})
        view = ProjectView(project, request)
        which, jobs = match.group(2), match.group(3)
        if which is None:
            return self.listing(request, view.list_pipelines())
        if which == "latest" and jobs is None:
            ref = request.arg("ref", project.get("default_branch", "main"))
            candidates = [p for p in view.visible() if p["ref"] == ref]
            if not candidates:
                return json_response(404, {"message": "404 Not found"})
            return self.single(request, view.pipeline(max(candidates, key=lambda p: p["id"]), detailed=True))
        pipeline = view.find(which)
        if pipeline is None:
            return json_response(404, {"message": "404 Not found"})
        if jobs is None:
            return self.single(request, view.pipeline(pipeline, detailed=True))
        scopes = request.query.get("scope[]", []) + request.query.get("scope", [])
        items = [job for job in view.jobs(pipeline) if not scopes or job["status"] in scopes]
        return self.listing(request, items)

    def find_project(self, key):
        for project in self.projects:
            if str(project["id"]) == key or project["path"].lower() == key.lower():
                return project
        return None

    def single(self, request, value):
        body = encode_json(value)
        etag = etag_for(body, weak=True)
        if not_modified(request, etag, None):
            return Response(304, content_type=None, headers=[("ETag", etag)])
        return Response(200, body, headers=[("ETag", etag)])

    def listing(self, request, items):
        """Offset pagination: page (default 1), per_page (default 20, max 100), and the x-* headers."""
        page = request.int_arg("page", 1, low=1)
        per_page = request.int_arg("per_page", 20, low=1, high=100)
        total = len(items)
        pages = max(1, math.ceil(total / per_page))
        response = self.single(request, page_slice(items, page, per_page))
        response.add("x-page", page)
        response.add("x-per-page", per_page)
        response.add("x-next-page", page + 1 if page < pages else "")
        response.add("x-prev-page", min(page - 1, pages) if page > 1 else "")
        response.add("x-total", total)
        response.add("x-total-pages", pages)
        response.add("Link", link_header(request, page, per_page, total, always_first_last=True))
        return response


def add_rate_headers(response, window):
    response.add("RateLimit-Limit", window["limit"])
    response.add("RateLimit-Name", window["name"])
    response.add("RateLimit-Observed", window["observed"])
    response.add("RateLimit-Remaining", max(0, window["limit"] - window["observed"]))
    response.add("RateLimit-Reset", window["reset"])


def readable(project, token):
    if project.get("visibility", "private") == "public":
        return True
    if token is None:
        return False
    allowed = token.get("projects", ["*"])
    return "*" in allowed or project["path"] in allowed


def sha_of(text):
    return hashlib.sha1(str(text).encode()).hexdigest()


class Plan:
    """A pipeline's jobs on the timeline. Stages run in order, a stage's jobs in parallel. A job
    waits through its `phases` (for example [["pending", 10]]) from its stage's start, then runs for
    `seconds` and ends `success` or `failed`. A failed job (without allow_failure) skips the later
    stages; `when: manual` jobs (`manual: true`) wait for a person and block nothing; `cancel_at`
    cancels every unfinished job."""

    def __init__(self, pipeline):
        self.pipeline = pipeline
        self.created = pipeline["created"]
        self.cancel = pipeline.get("cancel_at")
        self.jobs = []
        begin = self.created + pipeline.get("created_for", 0)
        skip_from = None
        number = 0
        for stage in pipeline["stages"]:
            ends = []
            stage_skip = skip_from
            for job in stage["jobs"]:
                number += 1
                entry = {"spec": job, "stage": stage["name"], "id": job.get("id", pipeline["id"] * 100 + number),
                         "queued": begin, "phases": [], "started": None, "finished": None, "result": None}
                if stage_skip is not None:
                    entry["result"], entry["skipped_at"] = "skipped", stage_skip
                elif job.get("manual"):
                    entry["result"] = "manual"
                else:
                    moment = begin
                    for status, seconds in job.get("phases", [["pending", 0]]):
                        entry["phases"].append((status, moment, moment + seconds))
                        moment += seconds
                    entry["started"], entry["finished"] = moment, moment + job["seconds"]
                    entry["result"] = job.get("result", "success")
                    ends.append(entry["finished"])
                    if entry["result"] == "failed" and not job.get("allow_failure", False):
                        skip_from = entry["finished"] if skip_from is None else min(skip_from, entry["finished"])
                self.jobs.append(entry)
            if ends:
                begin = max(ends)
        if self.cancel is not None:
            for entry in self.jobs:
                if entry["result"] in ("success", "failed") and entry["finished"] > self.cancel:
                    entry["result"] = "canceled"
                    entry["finished"] = self.cancel
                    if entry["started"] >= self.cancel:
                        entry["started"] = None
                        entry["phases"] = [(s, a, min(b, self.cancel)) for s, a, b in entry["phases"] if a < self.cancel]
                elif entry["result"] == "skipped" and entry["skipped_at"] > self.cancel:
                    entry["result"], entry["finished"], entry["skipped_at"] = "canceled", self.cancel, None

    def job_status(self, entry, t):
        if entry["result"] == "skipped":
            return "skipped" if t >= entry["skipped_at"] else "created"
        if entry["result"] == "manual":
            return "manual" if t >= entry["queued"] else "created"
        if entry["finished"] is not None and t >= entry["finished"]:
            return entry["result"]
        if entry["started"] is not None and t >= entry["started"]:
            return "running"
        for status, begin, end in entry["phases"]:
            if begin <= t < end:
                return status
        return "created"

    def events(self, t):
        moments = [self.created]
        for entry in self.jobs:
            candidates = [entry["queued"], entry["started"], entry["finished"], entry.get("skipped_at")]
            candidates += [begin for _, begin, _ in entry["phases"]]
            moments += [moment for moment in candidates if moment is not None and moment <= t]
        if self.cancel is not None:
            moments = [moment for moment in moments if moment <= self.cancel]
        return moments

    def status(self, t):
        statuses = [self.job_status(entry, t) for entry in self.jobs]
        active = [status for entry, status in zip(self.jobs, statuses) if entry["result"] != "manual"]
        if all(status in FINISHED for status in active) and active:
            if "canceled" in active:
                return "canceled"
            failed = [entry for entry in self.jobs if entry["result"] == "failed" and not entry["spec"].get("allow_failure")]
            return "failed" if failed else ("success" if "success" in active or "failed" in active else "skipped")
        if not active:
            return "manual" if t >= self.created else "created"
        if "running" in active:
            return "running"
        for status in WAITING:
            if status in active:
                return status
        return "created"

    def finished_at(self, t):
        if self.status(t) not in FINISHED:
            return None
        ends = [entry["finished"] for entry in self.jobs if entry["finished"] is not None]
        skips = [entry["skipped_at"] for entry in self.jobs if entry.get("skipped_at") is not None]
        return max(ends + skips) if ends or skips else self.created

    def started_at(self, t):
        starts = [entry["started"] for entry in self.jobs if entry["started"] is not None and entry["started"] <= t]
        return min(starts) if starts else None

    def running_seconds(self, t):
        """Time with at least one job running: the union of the jobs' running spans."""
        spans = sorted((entry["started"], min(entry["finished"], t)) for entry in self.jobs
                       if entry["started"] is not None and entry["started"] <= t)
        total, reach = 0, None
        for begin, end in spans:
            if reach is None or begin > reach:
                total += end - begin
                reach = end
            elif end > reach:
                total += end - reach
                reach = end
        return total


DETAILED = {  # detailed_status per status; the reference shows the `success` one, the rest follow its pattern
    "success": ("passed", "passed"), "failed": ("failed", "failed"), "running": ("running", "running"),
    "pending": ("pending", "pending"), "canceled": ("canceled", "canceled"), "created": ("created", "created"),
    "skipped": ("skipped", "skipped"), "manual": ("manual", "manual action"), "scheduled": ("scheduled", "scheduled"),
    "preparing": ("preparing", "preparing"), "waiting_for_resource": ("waiting", "waiting for resource"),
}


class ProjectView:
    def __init__(self, project, request):
        self.project = project
        self.request = request
        self.t = request.now
        self.web = "%s/%s" % (request.base_url, project["path"])

    def stamp(self, t):
        return iso_millis(self.request.wall(t)) if t is not None else None

    def visible(self):
        return [pipeline for pipeline in self.project.get("pipelines", []) if pipeline["created"] <= self.t]

    def find(self, key):
        for pipeline in self.visible():
            if str(pipeline["id"]) == key:
                return pipeline
        return None

    def user(self, name):
        return {"id": int(sha_of(name)[:6], 16), "username": name, "name": name.title(), "state": "active",
                "avatar_url": "%s/uploads/avatar/%s.png" % (self.request.base_url, name),
                "web_url": "%s/%s" % (self.request.base_url, name)}

    def pipeline(self, pipeline, detailed):
        plan = Plan(pipeline)
        status = plan.status(self.t)
        body = {
            "id": pipeline["id"], "iid": pipeline.get("iid", pipeline["id"]), "project_id": self.project["id"],
            "sha": pipeline.get("sha", sha_of(pipeline["id"])), "ref": pipeline.get("ref", "main"),
            "status": status, "source": pipeline.get("source", "push"),
            "created_at": self.stamp(pipeline["created"]), "updated_at": self.stamp(max(plan.events(self.t))),
            "web_url": "%s/-/pipelines/%d" % (self.web, pipeline["id"]), "name": pipeline.get("name"),
        }
        if not detailed:
            return body
        started = plan.started_at(self.t)
        finished = plan.finished_at(self.t)
        text, label = DETAILED[status]
        body.update({
            "before_sha": pipeline.get("before_sha", "0" * 40), "tag": pipeline.get("tag", False), "yaml_errors": None,
            "user": self.user(pipeline.get("user", "root")),
            "started_at": self.stamp(started), "finished_at": self.stamp(finished), "committed_at": None,
            # duration: seconds the pipeline ran; queued_duration: seconds it waited before it started.
            "duration": int(plan.running_seconds(self.t)) if finished is not None else None,
            "queued_duration": int(started - pipeline["created"]) if started is not None else None,
            "coverage": None,
            "detailed_status": {
                "icon": "status_" + status, "text": text, "label": label, "group": status, "tooltip": label,
                "has_details": False, "details_path": "/%s/-/pipelines/%d" % (self.project["path"], pipeline["id"]),
                "illustration": None, "favicon": "/assets/ci_favicons/favicon_status_%s.png" % status,
            },
        })
        return body

    def list_pipelines(self):
        request = self.request
        items = [self.pipeline(pipeline, detailed=False) for pipeline in self.visible()]
        users = {pipeline["id"]: pipeline.get("user", "root") for pipeline in self.visible()}
        tags = {pipeline["id"]: pipeline.get("tag", False) for pipeline in self.visible()}
        for name in ("status", "ref", "sha", "source", "name"):
            wanted = request.arg(name)
            if wanted is not None:
                items = [item for item in items if item[name] == wanted]
        if request.arg("username") is not None:
            items = [item for item in items if users[item["id"]] == request.arg("username")]
        # scope: running, pending, finished, branches, tags
        scope = request.arg("scope")
        if scope in ("running", "pending"):
            items = [item for item in items if item["status"] == scope]
        elif scope == "finished":
            items = [item for item in items if item["status"] in FINISHED]
        elif scope in ("branches", "tags"):
            items = [item for item in items if tags[item["id"]] == (scope == "tags")]
        for name, field, after in (("updated_after", "updated_at", True), ("updated_before", "updated_at", False),
                                   ("created_after", "created_at", True), ("created_before", "created_at", False)):
            if request.arg(name) is not None:
                try:
                    moment = parse_iso(request.arg(name))
                except ValueError:
                    continue
                items = [item for item in items
                         if (parse_iso(item[field]) > moment if after else parse_iso(item[field]) < moment)]
        order = request.arg("order_by", "id")
        keys = {"id": lambda item: item["id"], "status": lambda item: (item["status"], item["id"]),
                "ref": lambda item: (item["ref"], item["id"]), "updated_at": lambda item: (item["updated_at"], item["id"]),
                "user_id": lambda item: (users[item["id"]], item["id"])}
        items.sort(key=keys.get(order, keys["id"]), reverse=request.arg("sort", "desc") != "asc")
        return items

    def jobs(self, pipeline):
        """Jobs newest first (sorted by ID in descending order), retried ones left out."""
        plan = Plan(pipeline)
        sha = pipeline.get("sha", sha_of(pipeline["id"]))
        items = []
        for entry in plan.jobs:
            status = self.job_status_fields(plan, entry)
            job = entry["spec"]
            items.append(dict(status, **{
                "id": entry["id"], "stage": entry["stage"], "name": job["name"], "ref": pipeline.get("ref", "main"),
                "tag": pipeline.get("tag", False), "coverage": None, "allow_failure": job.get("allow_failure", bool(job.get("manual"))),
                "created_at": self.stamp(pipeline["created"]), "erased_at": None, "artifacts_expire_at": None,
                "user": self.user(pipeline.get("user", "root")),
                "commit": {"id": sha, "short_id": sha[:8], "title": pipeline.get("title", "Update README.md"),
                           "message": pipeline.get("title", "Update README.md"), "created_at": self.stamp(pipeline["created"] - 60),
                           "author_name": pipeline.get("user", "root"), "author_email": "%s@example.com" % pipeline.get("user", "root")},
                "pipeline": {"id": pipeline["id"], "project_id": self.project["id"], "ref": pipeline.get("ref", "main"),
                             "sha": sha, "status": plan.status(self.t)},
                "web_url": "%s/-/jobs/%d" % (self.web, entry["id"]),
                "project": {"ci_job_token_scope_enabled": False},
                "artifacts": [], "tag_list": job.get("tags", []),
            }))
        items.sort(key=lambda item: item["id"], reverse=True)
        return items

    def job_status_fields(self, plan, entry):
        t = self.t
        status = plan.job_status(entry, t)
        running = status == "running" or (status in FINISHED and entry["started"] is not None)
        started = entry["started"] if running else None
        finished = entry["finished"] if status in ("success", "failed", "canceled") else None
        fields = {
            "status": status,
            "started_at": self.stamp(started), "finished_at": self.stamp(finished),
            # duration: seconds it has run (still growing while it runs); queued_duration: seconds it waited.
            "duration": float(round((finished if finished is not None else t) - started, 3)) if started is not None else None,
            "queued_duration": None,
            "runner": {"id": 1, "description": "test runner", "active": True, "paused": False, "is_shared": True,
                       "runner_type": "instance_type", "name": "gitlab-runner", "online": True, "status": "online"}
                      if started is not None else None,
        }
        if entry["phases"] and t >= entry["queued"]:
            waited_until = started if started is not None else (finished if finished is not None else t)
            fields["queued_duration"] = float(round(waited_until - entry["queued"], 3))
        if status == "failed":
            fields["failure_reason"] = entry["spec"].get("failure_reason", "script_failure")
        return fields
