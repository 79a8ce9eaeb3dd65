"""GitHub REST API for GitHub Actions: workflows, workflow runs and their jobs, rendered from the
scenario's timeline at the request's time, with GitHub's authentication, primary rate limit,
conditional requests and pagination.

References (docs.github.com, REST API version 2022-11-28):
  runs        https://docs.github.com/rest/actions/workflow-runs
  jobs        https://docs.github.com/rest/actions/workflow-jobs
  workflows   https://docs.github.com/rest/actions/workflows
  rate limit  https://docs.github.com/rest/using-the-rest-api/rate-limits-for-the-rest-api
              https://docs.github.com/rest/rate-limit/rate-limit
  conditional https://docs.github.com/rest/using-the-rest-api/best-practices-for-using-the-rest-api
  pagination  https://docs.github.com/rest/using-the-rest-api/using-pagination-in-the-rest-api
  auth        https://docs.github.com/rest/authentication/authenticating-to-the-rest-api
  errors      https://docs.github.com/rest/using-the-rest-api/troubleshooting-the-rest-api
"""

import base64
import hashlib
import re
import threading

from common import (Response, encode_json, etag_for, http_date, iso_seconds, json_response,
                    link_header, not_modified, page_slice, parse_iso)

DOCS = "https://docs.github.com/rest"
RATE_DOCS = "https://docs.github.com/rest/using-the-rest-api/rate-limits-for-the-rest-api"
# The enterprise server's REST API lives under /api/v3
# (https://docs.github.com/enterprise-server@latest/rest/using-the-rest-api/getting-started-with-the-rest-api).
GHES_PREFIX = "/api/v3"

def owns(path):
    if path.startswith(GHES_PREFIX + "/"):
        path = path[len(GHES_PREFIX):]
    return path.startswith("/repos/") or path == "/rate_limit"


class Limits:
    """Primary rate limit use per token and per unauthenticated client address: a window opens at
    the first request and closes `window` seconds later (x-ratelimit-reset)."""

    def __init__(self, config, tokens):
        self.lock = threading.Lock()
        self.window = config.get("window", 3600)
        # 60 an hour without a token, 5,000 with one (rate-limits reference, "primary rate limit").
        self.unauthenticated = config.get("unauthenticated", 60)
        self.authenticated = config.get("authenticated", 5000)
        self.buckets = {}
        for token in tokens:
            if "used" in token:
                self.buckets[("token", token["token"])] = {"used": token["used"], "reset": None}

    def bucket(self, key, limit, wall_now):
        with self.lock:
            bucket = self.buckets.setdefault(key, {"used": 0, "reset": None})
            if bucket["reset"] is None or wall_now >= bucket["reset"]:
                if bucket["reset"] is not None:
                    bucket["used"] = 0
                bucket["reset"] = int(wall_now) + self.window
            bucket["limit"] = limit
            return bucket

    def charge(self, bucket):
        with self.lock:
            bucket["used"] += 1

    def used(self):
        with self.lock:
            return {("%s:%s" % key): dict(bucket) for key, bucket in self.buckets.items()}


class GitHub:
    def __init__(self, config, epoch):
        self.config = config
        self.tokens = {token["token"]: token for token in config.get("tokens", [])}
        self.limits = Limits(config.get("rate_limit", {}), config.get("tokens", []))
        self.repos = {}
        for repo in config.get("repositories", []):
            self.repos[("%s/%s" % (repo["owner"], repo["name"])).lower()] = repo

    def owns(self, path):
        return owns(path)

    # ---- authentication and rate limit -------------------------------------------------------

    def credential(self, request):
        """`Authorization: Bearer X` or `token X` (authenticating reference). Returns
        (token record or None, error response or None)."""
        header = request.headers.get("Authorization")
        if header is None:
            return None, None
        scheme, _, value = header.strip().partition(" ")
        token = self.tokens.get(value.strip()) if scheme.lower() in ("bearer", "token") else None
        if token is None or token.get("expired"):
            return None, self.error(401, "Bad credentials")
        return token, None

    def error(self, status, message, docs=DOCS):
        return json_response(status, {"message": message, "documentation_url": docs})

    def rate_headers(self, response, bucket):
        remaining = max(0, bucket["limit"] - bucket["used"])
        response.add("x-ratelimit-limit", bucket["limit"])
        response.add("x-ratelimit-remaining", remaining)
        response.add("x-ratelimit-used", bucket["used"])
        response.add("x-ratelimit-reset", bucket["reset"])
        response.add("x-ratelimit-resource", "core")
        return response

    def handle(self, request):
        path = request.path
        ghes = path.startswith(GHES_PREFIX + "/")
        if ghes:
            path = path[len(GHES_PREFIX):]
        api_base = request.base_url + (GHES_PREFIX if ghes else "")
        # Rate limits are off by default on an enterprise server (rate-limits reference, GHES version).
        limited = not ghes or self.config.get("ghes_rate_limits", False)

        if self.config.get("require_user_agent", True) and not request.headers.get("User-Agent"):
            # "Requests without a valid User-Agent header will be rejected" (troubleshooting reference).
            return self.error(403, "Request forbidden: send a User-Agent header.")
        token, failure = self.credential(request)
        if failure is not None:
            return failure
        if request.method != "GET":
            return self.error(404, "Not Found")

        wall_now = request.wall(request.now)
        bucket = None
        if limited:
            if token is not None:
                bucket = self.limits.bucket(("token", token["token"]), token.get("limit", self.limits.authenticated), wall_now)
            else:
                bucket = self.limits.bucket(("ip", request.client_ip), self.limits.unauthenticated, wall_now)

        if path == "/rate_limit":
            if bucket is None:
                return self.error(404, "Not Found")
            # Calling /rate_limit does not count against the primary rate limit (rate-limit reference).
            core = {"limit": bucket["limit"], "used": bucket["used"],
                    "remaining": max(0, bucket["limit"] - bucket["used"]), "reset": bucket["reset"]}
            body = {"resources": {"core": core,
                                  "search": {"limit": 30, "used": 0, "remaining": 30, "reset": int(wall_now) + 60},
                                  "graphql": {"limit": 5000 if token else 0, "used": 0,
                                              "remaining": 5000 if token else 0, "reset": bucket["reset"]}},
                    "rate": core}
            return self.rate_headers(json_response(200, body), bucket)

        if bucket is not None and bucket["used"] >= bucket["limit"]:
            # 403 or 429 with x-ratelimit-remaining: 0 (rate-limits reference, "exceeding the rate limit").
            who = ("user ID %d" % user_id(token.get("login", "octocat"))) if token else request.client_ip
            message = "API rate limit exceeded for %s." % who
            if token is None:
                message += " Authenticated requests get a higher rate limit."
            status = self.config.get("rate_limit", {}).get("exceeded_status", 403)
            return self.rate_headers(self.error(status, message, RATE_DOCS), bucket)

        status, value, last_modified, total, page, per_page = self.route(request, path, api_base, token)
        if status != 200:
            response = self.error(status, value)
        else:
            body = encode_json(value)
            etag = etag_for(body, weak=False)
            if not_modified(request, etag, last_modified):
                # A 304 does not count against the primary rate limit (best-practices reference,
                # "use conditional requests if appropriate").
                response = Response(304, content_type=None, headers=[("ETag", etag), ("Last-Modified", http_date(last_modified))])
                return self.rate_headers(response, bucket) if bucket else response
            response = Response(200, body, headers=[("ETag", etag), ("Last-Modified", http_date(last_modified))])
            if total is not None and total > per_page:
                response.add("Link", link_header(request, page, per_page, total, always_first_last=False))
        if bucket is not None:
            self.limits.charge(bucket)
            self.rate_headers(response, bucket)
        return response

    def fault(self, request, kind, params):
        """Responses for the scenario's injected faults, in GitHub's own error shape."""
        wall_now = int(request.wall(request.now))
        if kind == "unauthorized":
            return self.error(401, "Bad credentials")
        if kind == "rate_limit":
            reset = wall_now + int(params.get("reset_in", 60))
            response = self.error(params.get("status", 403), "API rate limit exceeded.", RATE_DOCS)
            limit = params.get("limit", 5000)
            for name, value in (("x-ratelimit-limit", limit), ("x-ratelimit-remaining", 0), ("x-ratelimit-used", limit),
                                ("x-ratelimit-reset", reset), ("x-ratelimit-resource", "core")):
                response.add(name, value)
            return response
        if kind == "secondary_rate_limit":
            # 403 or 429 with a message naming the secondary limit, and retry-after when present.
            response = self.error(params.get("status", 403),
                                  "You have exceeded a secondary rate limit. Please wait before you try again.", RATE_DOCS)
            if "retry_after" in params:
                response.add("retry-after", params["retry_after"])
            return response
        return None

    # ---- routing ------------------------------------------------------------------------------

    def route(self, request, path, api_base, token):
        """(status, body or message, last-modified epoch seconds, total, page, per_page)."""
        match = re.fullmatch(r"/repos/([^/]+)/([^/]+)/actions/(.+)", path)
        if not match:
            return 404, "Not Found", None, None, 1, 30
        repo = self.repos.get(("%s/%s" % (match.group(1), match.group(2))).lower())
        if repo is None or not self.readable(repo, token):
            # GitHub answers 404, not 403, for a private repository without access (troubleshooting reference).
            return 404, "Not Found", None, None, 1, 30
        rest = match.group(3)
        world = RepoView(repo, request, api_base)
        page = request.int_arg("page", 1, low=1)
        per_page = request.int_arg("per_page", 30, low=1, high=100)

        if rest == "workflows":
            items = [world.workflow(workflow) for workflow in repo.get("workflows", [])]
            return self.listing("workflows", items, world.epoch_updated(), page, per_page)
        found = re.fullmatch(r"workflows/([^/]+)/runs", rest)
        if found:
            workflow = world.find_workflow(found.group(1))
            if workflow is None:
                return 404, "Not Found", None, None, page, per_page
            return self.list_runs(request, world, page, per_page, workflow["id"])
        if rest == "runs":
            return self.list_runs(request, world, page, per_page, None)
        found = re.fullmatch(r"runs/(\d+)(?:/attempts/(\d+))?(/jobs)?", rest)
        if found:
            run = world.find_run(int(found.group(1)))
            attempt = int(found.group(2)) if found.group(2) else None
            if run is None or (attempt is not None and not world.has_attempt(run, attempt)):
                return 404, "Not Found", None, None, page, per_page
            if found.group(3) is None:
                body = world.run(run, attempt)
                return 200, body, world.run_updated(run, attempt), None, page, per_page
            if attempt is None and request.arg("filter", "latest") == "all":
                jobs = [job for number in world.attempt_numbers(run) for job in world.jobs(run, number)]
            else:
                jobs = world.jobs(run, attempt)
            jobs.sort(key=lambda job: job["id"])
            return self.listing("jobs", jobs, world.run_updated(run, None), page, per_page)
        found = re.fullmatch(r"jobs/(\d+)", rest)
        if found:
            job = world.find_job(int(found.group(1)))
            if job is None:
                return 404, "Not Found", None, None, page, per_page
            return 200, job, world.run_updated(world.find_run(job["run_id"]), None), None, page, per_page
        return 404, "Not Found", None, None, page, per_page

    def listing(self, key, items, last_modified, page, per_page):
        return 200, {"total_count": len(items), key: page_slice(items, page, per_page)}, last_modified, len(items), page, per_page

    def list_runs(self, request, world, page, per_page, workflow_id):
        runs = [run for run in world.visible_runs() if workflow_id is None or run["workflow_id"] == workflow_id]
        bodies = [world.run(run, None) for run in runs]
        bodies = [body for body in bodies if run_matches(request, body)]
        bodies.sort(key=lambda body: (body["created_at"], body["id"]), reverse=True)
        last_modified = max([world.run_updated(run, None) for run in runs], default=world.epoch_updated())
        return self.listing("workflow_runs", bodies, last_modified, page, per_page)

    def readable(self, repo, token):
        if not repo.get("private", False):
            return True
        if token is None:
            return False
        allowed = token.get("repositories", ["*"])
        return "*" in allowed or "%s/%s" % (repo["owner"], repo["name"]) in allowed


def run_matches(request, body):
    """The documented filters of the list endpoints: actor, branch, event, status (a status or a
    conclusion), created (search date syntax), head_sha, check_suite_id."""
    checks = [("actor", body["actor"]["login"]), ("branch", body["head_branch"]), ("event", body["event"]),
              ("head_sha", body["head_sha"]), ("check_suite_id", str(body["check_suite_id"]))]
    for name, value in checks:
        wanted = request.arg(name)
        if wanted is not None and wanted != value:
            return False
    status = request.arg("status")
    if status is not None and status not in (body["status"], body["conclusion"]):
        return False
    created = request.arg("created")
    if created is not None and not date_matches(created, parse_iso(body["created_at"])):
        return False
    return True


def date_matches(query, moment):
    """The date qualifiers of GitHub's search syntax: `D`, `>D`, `>=D`, `<D`, `<=D`, `A..B`, `A..*`,
    `*..B`, where a bare date covers its whole day
    (https://docs.github.com/search-github/getting-started-with-searching-on-github/understanding-the-search-syntax#query-for-dates)."""
    def bounds(text):
        start = parse_iso(text)
        return start, (start + 86400 if len(text.strip()) == 10 else start + 1)

    try:
        if ".." in query:
            low, high = query.split("..", 1)
            return (low == "*" or moment >= bounds(low)[0]) and (high == "*" or moment < bounds(high)[1])
        for operator in (">=", "<=", ">", "<"):
            if query.startswith(operator):
                start, end = bounds(query[len(operator):])
                return {">=": moment >= start, "<=": moment < end, ">": moment >= end, "<": moment < start}[operator]
        start, end = bounds(query)
        return start <= moment < end
    except ValueError:
        return False


def user_id(login):
    return int(hashlib.sha1(login.encode()).hexdigest()[:7], 16)


def node_id(kind, number):
    return base64.b64encode(("%s%d" % (kind, number)).encode()).decode()


def simple_user(api_base, html_base, login, kind="User"):
    """A "Simple User" with every field its schema requires."""
    url = "%s/users/%s" % (api_base, login)
    return {
        "login": login, "id": user_id(login), "node_id": node_id("User", user_id(login)),
        "avatar_url": "%s/avatars/%s" % (html_base, login), "gravatar_id": "",
        "url": url, "html_url": "%s/%s" % (html_base, login),
        "followers_url": url + "/followers", "following_url": url + "/following{/other_user}",
        "gists_url": url + "/gists{/gist_id}", "starred_url": url + "/starred{/owner}{/repo}",
        "subscriptions_url": url + "/subscriptions", "organizations_url": url + "/orgs",
        "repos_url": url + "/repos", "events_url": url + "/events{/privacy}",
        "received_events_url": url + "/received_events", "type": kind, "site_admin": False,
    }


# The URL templates of a "Minimal Repository", all required by its schema.
REPO_URLS = {
    "archive_url": "/{archive_format}{/ref}", "assignees_url": "/assignees{/user}", "blobs_url": "/git/blobs{/sha}",
    "branches_url": "/branches{/branch}", "collaborators_url": "/collaborators{/collaborator}",
    "comments_url": "/comments{/number}", "commits_url": "/commits{/sha}", "compare_url": "/compare/{base}...{head}",
    "contents_url": "/contents/{+path}", "contributors_url": "/contributors", "deployments_url": "/deployments",
    "downloads_url": "/downloads", "events_url": "/events", "forks_url": "/forks", "git_commits_url": "/git/commits{/sha}",
    "git_refs_url": "/git/refs{/sha}", "git_tags_url": "/git/tags{/sha}", "hooks_url": "/hooks",
    "issue_comment_url": "/issues/comments{/number}", "issue_events_url": "/issues/events{/number}",
    "issues_url": "/issues{/number}", "keys_url": "/keys{/key_id}", "labels_url": "/labels{/name}",
    "languages_url": "/languages", "merges_url": "/merges", "milestones_url": "/milestones{/number}",
    "notifications_url": "/notifications{?since,all,participating}", "pulls_url": "/pulls{/number}",
    "releases_url": "/releases{/id}", "stargazers_url": "/stargazers", "statuses_url": "/statuses/{sha}",
    "subscribers_url": "/subscribers", "subscription_url": "/subscription", "tags_url": "/tags", "teams_url": "/teams",
    "trees_url": "/git/trees{/sha}",
}


class RepoView:
    """One repository's workflows, runs and jobs as they stand at the request's time."""

    def __init__(self, repo, request, api_base):
        self.repo = repo
        self.request = request
        self.t = request.now
        self.api_base = api_base
        self.html_base = request.base_url
        self.full_name = "%s/%s" % (repo["owner"], repo["name"])
        self.repo_url = "%s/repos/%s" % (api_base, self.full_name)
        self.workflows = repo.get("workflows", [])
        self.runs = []
        for run in repo.get("runs", []):
            workflow = self.find_workflow(str(run["workflow"]))
            self.runs.append(dict(run, workflow_id=workflow["id"] if workflow else 0, workflow_spec=workflow or {}))

    def stamp(self, t):
        return iso_seconds(self.request.wall(t))

    def epoch_updated(self):
        """Last-Modified of a list with nothing in it yet: a day before t=0."""
        return self.request.wall(-86400)

    # ---- workflows ----------------------------------------------------------------------------

    def find_workflow(self, key):
        """A workflow by its ID or by its file name, as the `workflow_id` path parameter takes."""
        for workflow in self.workflows:
            if str(workflow["id"]) == key or workflow["path"].rsplit("/", 1)[-1] == key:
                return workflow
        return None

    def workflow(self, workflow):
        number = workflow["id"]
        return {
            "id": number, "node_id": node_id("Workflow", number), "name": workflow["name"], "path": workflow["path"],
            # state: active, deleted, disabled_fork, disabled_inactivity, disabled_manually (workflows reference)
            "state": workflow.get("state", "active"),
            "created_at": self.stamp(workflow.get("created", -86400)), "updated_at": self.stamp(workflow.get("updated", -86400)),
            "url": "%s/actions/workflows/%d" % (self.repo_url, number),
            "html_url": "%s/%s/blob/%s/%s" % (self.html_base, self.full_name, self.repo.get("default_branch", "main"), workflow["path"]),
            "badge_url": "%s/%s/workflows/%s/badge.svg" % (self.html_base, self.full_name, workflow["name"]),
        }

    # ---- runs ---------------------------------------------------------------------------------

    def attempts(self, run):
        return [attempt for attempt in run["attempts"] if attempt["created"] <= self.t]

    def attempt_numbers(self, run):
        return list(range(1, len(self.attempts(run)) + 1))

    def has_attempt(self, run, number):
        return 1 <= number <= len(self.attempts(run))

    def visible_runs(self):
        return [run for run in self.runs if self.attempts(run)]

    def find_run(self, number):
        for run in self.visible_runs():
            if run["id"] == number:
                return run
        return None

    def find_job(self, number):
        for run in self.visible_runs():
            for attempt in self.attempt_numbers(run):
                for job in self.jobs(run, attempt):
                    if job["id"] == number:
                        return job
        return None

    def run_updated(self, run, attempt):
        """The last change of the run (or of one attempt) up to now: its updated_at and Last-Modified."""
        numbers = [attempt] if attempt else self.attempt_numbers(run)
        moments = []
        for number in numbers:
            spec = self.attempts(run)[number - 1]
            moments.append(spec["created"])
            for job in spec["jobs"]:
                moments.extend(moment for moment in job_plan(job, spec).events() if moment <= self.t)
        return self.request.wall(max(moments))

    def run(self, run, attempt):
        attempts = self.attempts(run)
        number = attempt or len(attempts)
        spec = attempts[number - 1]
        plans = [job_plan(job, spec) for job in spec["jobs"]]
        states = [plan.state(self.t) for plan in plans]
        if all(state == "queued" for state, _ in states):
            status, conclusion = spec.get("queued_status", run.get("queued_status", "queued")), None
        elif all(state == "completed" for state, _ in states):
            status = "completed"
            outcomes = [outcome for _, outcome in states]
            conclusion = next((c for c in ("failure", "cancelled", "timed_out") if c in outcomes), "success")
        else:
            status, conclusion = "in_progress", None
        run_id = run["id"]
        url = "%s/actions/runs/%d" % (self.repo_url, run_id)
        sha = run.get("head_sha", hashlib.sha1(str(run_id).encode()).hexdigest())
        actor = simple_user(self.api_base, self.html_base, run.get("actor", "octocat"))
        repository = self.minimal_repository()
        suite = run.get("check_suite_id", run_id + 1000000)
        return {
            "id": run_id, "name": run["workflow_spec"].get("name", "CI"), "node_id": node_id("WorkflowRun", run_id),
            "check_suite_id": suite, "check_suite_node_id": node_id("CheckSuite", suite),
            "head_branch": run.get("branch", "main"), "head_sha": sha,
            "path": run["workflow_spec"].get("path", ".github/workflows/ci.yml"),
            "run_number": run.get("run_number", 1), "run_attempt": number,
            "referenced_workflows": [],
            "event": run.get("event", "push"), "display_title": run.get("title", "Update README.md"),
            "status": status, "conclusion": conclusion,
            "workflow_id": run["workflow_id"],
            "url": url, "html_url": "%s/%s/actions/runs/%d" % (self.html_base, self.full_name, run_id),
            "pull_requests": [],
            "created_at": self.stamp(attempts[0]["created"]),
            "updated_at": iso_seconds(self.run_updated(run, number if attempt else None)),
            "actor": actor, "triggering_actor": actor,
            # "The start time of the latest run. Resets on re-run."
            "run_started_at": self.stamp(spec["created"]),
            "jobs_url": url + "/jobs", "logs_url": url + "/logs",
            "check_suite_url": "%s/check-suites/%d" % (self.repo_url, suite),
            "artifacts_url": url + "/artifacts", "cancel_url": url + "/cancel", "rerun_url": url + "/rerun",
            "previous_attempt_url": ("%s/attempts/%d" % (url, number - 1)) if number > 1 else None,
            "workflow_url": "%s/actions/workflows/%d" % (self.repo_url, run["workflow_id"]),
            "head_commit": {
                "id": sha, "tree_id": hashlib.sha1(sha.encode()).hexdigest(),
                "message": run.get("title", "Update README.md"), "timestamp": self.stamp(attempts[0]["created"] - 60),
                "author": {"name": run.get("actor", "octocat"), "email": "%s@example.com" % run.get("actor", "octocat")},
                "committer": {"name": "GitHub", "email": "noreply@example.com"},
            },
            "repository": repository, "head_repository": repository, "head_repository_id": repository["id"],
        }

    def minimal_repository(self):
        number = self.repo.get("id", user_id(self.full_name))
        body = {
            "id": number, "node_id": node_id("Repository", number), "name": self.repo["name"],
            "full_name": self.full_name, "owner": simple_user(self.api_base, self.html_base, self.repo["owner"],
                                                               self.repo.get("owner_type", "Organization")),
            "private": self.repo.get("private", False), "html_url": "%s/%s" % (self.html_base, self.full_name),
            "description": self.repo.get("description"), "fork": False, "url": self.repo_url,
        }
        for name, suffix in REPO_URLS.items():
            body[name] = self.repo_url + suffix
        return body

    # ---- jobs ---------------------------------------------------------------------------------

    def jobs(self, run, attempt):
        attempts = self.attempts(run)
        number = attempt or len(attempts)
        spec = attempts[number - 1]
        return [self.job(run, number, spec, index, job) for index, job in enumerate(spec["jobs"])]

    def job(self, run, number, attempt, index, job):
        plan = job_plan(job, attempt)
        state, conclusion = plan.state(self.t)
        job_id = job.get("id", run["id"] * 1000 + number * 100 + index + 1)
        run_url = "%s/actions/runs/%d" % (self.repo_url, run["id"])
        assigned = state != "queued"
        runner = job.get("runner", "GitHub Actions %d" % (index + 1))
        created = attempt["created"]
        return {
            "id": job_id, "run_id": run["id"], "run_url": run_url, "run_attempt": number,
            "node_id": node_id("WorkflowJob", job_id),
            "head_sha": run.get("head_sha", hashlib.sha1(str(run["id"]).encode()).hexdigest()),
            "url": "%s/actions/jobs/%d" % (self.repo_url, job_id),
            "html_url": "%s/%s/actions/runs/%d/job/%d" % (self.html_base, self.full_name, run["id"], job_id),
            # status: queued, in_progress, completed, waiting, requested, pending (workflow-jobs reference)
            "status": attempt.get("queued_status", run.get("queued_status", "queued")) if state == "queued" else state,
            "conclusion": conclusion,
            "created_at": self.stamp(created),
            "started_at": self.stamp(plan.started if assigned else created),
            "completed_at": self.stamp(plan.end) if state == "completed" else None,
            "name": job["name"],
            "steps": [dict(step, started_at=self.stamp(step["started_at"]) if step["started_at"] is not None else None,
                           completed_at=self.stamp(step["completed_at"]) if step["completed_at"] is not None else None)
                      for step in plan.steps(self.t)],
            "check_run_url": "%s/check-runs/%d" % (self.repo_url, job_id),
            "labels": job.get("labels", ["ubuntu-latest"]),
            "runner_id": (index + 1) if assigned else None, "runner_name": runner if assigned else None,
            "runner_group_id": 1 if assigned else None, "runner_group_name": "Default" if assigned else None,
            "workflow_name": run["workflow_spec"].get("name", "CI"), "head_branch": run.get("branch", "main"),
        }


class job_plan:
    """When a job's steps start and end, and how it ends: it starts at `start` (never when absent),
    runs its steps one after another, fails at the end of step `fail_at_step`, or is cancelled at
    `cancel_at` (the job's or its attempt's)."""

    def __init__(self, job, attempt):
        self.job = job
        self.start = job.get("start")
        self.cancel = job.get("cancel_at", attempt.get("cancel_at"))
        self.spans = []
        moment = self.start
        for step in job.get("steps", []):
            if moment is None:
                break
            self.spans.append((step["name"], moment, moment + step["seconds"]))
            moment += step["seconds"]
        self.conclusion = job.get("conclusion", "success")
        self.fail_at = job.get("fail_at_step")
        self.end = moment
        if self.fail_at:
            self.end = self.spans[self.fail_at - 1][2]
            self.conclusion = "failure"
        if self.cancel is not None and (self.end is None or self.cancel < self.end):
            self.end = self.cancel
            self.conclusion = "cancelled"
        self.started = self.start if self.start is not None and self.start <= self.end else self.end

    def state(self, t):
        if self.end is not None and t >= self.end:
            return "completed", self.conclusion
        if self.start is None or t < self.start:
            return "queued", None
        return "in_progress", None

    def events(self):
        moments = [self.end] if self.end is not None else []
        for _, begin, finish in self.spans:
            moments.extend(moment for moment in (begin, finish) if self.end is None or moment <= self.end)
        return moments

    def steps(self, t):
        """Steps appear once the job runs. Status queued/in_progress/completed; a completed step's
        conclusion is success, failure, cancelled or skipped."""
        state, _ = self.state(t)
        if state == "queued" or (self.start is None or self.start > self.end):
            return []
        steps = []
        for index, (name, begin, finish) in enumerate(self.spans):
            number = index + 1
            if finish <= self.end and finish <= t:
                conclusion = "failure" if number == self.fail_at else "success"
                steps.append(step(name, number, "completed", conclusion, begin, finish))
            elif begin < self.end and begin <= t < min(finish, self.end):
                steps.append(step(name, number, "in_progress", None, begin, None))
            elif begin < self.end <= t:  # the step running when the job was cancelled
                steps.append(step(name, number, "completed", "cancelled", begin, self.end))
            elif state == "completed":
                steps.append(step(name, number, "completed", "skipped", self.end, self.end))
            else:
                steps.append(step(name, number, "queued", None, None, None))
        return steps


def step(name, number, status, conclusion, started, completed):
    return {"name": name, "status": status, "conclusion": conclusion, "number": number,
            "started_at": started, "completed_at": completed}
