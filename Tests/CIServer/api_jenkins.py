"""Jenkins remote access API (JSON flavour): the root, folders, jobs and builds at
`.../api/json`, with the `tree` filter and its range specifiers, HTTP basic authentication with a
user name and API token, and the X-Jenkins header.

References:
  remote access API   https://www.jenkins.io/doc/book/using/remote-access-api/
  tree and ranges     the API page Jenkins serves at .../api/ (core/src/main/resources/hudson/model/Api/index.jelly)
  build fields        hudson.model.Run: number, building, inProgress, result (null while building),
                      timestamp (milliseconds), duration (milliseconds, 0 until it completes),
                      estimatedDuration (milliseconds), displayName, fullDisplayName, url, queueId
  estimatedDuration   hudson.model.Job#getEstimatedDuration: the mean duration of up to three recent
                      completed builds, successful or unstable first, then failed; -1 when there is none
  authentication      https://www.jenkins.io/doc/book/system-administration/authenticating-scripted-clients/
                      (no negotiation: 403 without credentials; a bad token is 401
                      "Invalid password/token for user: NAME", jenkins.security.BasicHeaderProcessor)
"""

import base64
import re

from common import Response, encode_json

RESULTS = ["SUCCESS", "UNSTABLE", "FAILURE", "NOT_BUILT", "ABORTED"]  # hudson.model.Result, best first
COLORS = {"SUCCESS": "blue", "UNSTABLE": "yellow", "FAILURE": "red", "NOT_BUILT": "notbuilt", "ABORTED": "aborted"}
BUILD_CLASSES = {"hudson.model.FreeStyleProject": "hudson.model.FreeStyleBuild",
                 "org.jenkinsci.plugins.workflow.job.WorkflowJob": "org.jenkinsci.plugins.workflow.job.WorkflowRun"}
FOLDER_CLASS = "com.cloudbees.hudson.plugins.folder.Folder"
PERMALINKS = ["lastBuild", "lastCompletedBuild", "lastFailedBuild", "lastStableBuild", "lastSuccessfulBuild",
              "lastUnstableBuild", "lastUnsuccessfulBuild", "firstBuild"]


class Jenkins:
    def __init__(self, config, epoch):
        self.config = config
        self.prefix = config.get("prefix", "").rstrip("/")
        self.jobs = {job["path"].strip("/"): job for job in config.get("jobs", [])}
        self.users = {user["user"]: user for user in config.get("users", [])}

    def owns(self, path):
        if self.prefix and not (path == self.prefix or path.startswith(self.prefix + "/")):
            return False
        rest = path[len(self.prefix):]
        return rest.startswith("/job/") or rest.startswith("/api/")

    def headers(self, response):
        response.add("X-Jenkins", self.config.get("version", "2.479.3"))
        return response

    def page(self, status, title, text):
        html = "<html><head><title>%s</title></head><body><h1>%s</h1><p>%s</p></body></html>\n" % (title, title, text)
        return self.headers(Response(status, html.encode(), content_type="text/html;charset=utf-8"))

    def authenticate(self, request):
        header = request.headers.get("Authorization")
        if header is None:
            if self.config.get("anonymous_read", False):
                return None
            return self.page(403, "Authentication required", "You are authenticated as: anonymous")
        scheme, _, value = header.partition(" ")
        try:
            name, _, secret = base64.b64decode(value.strip()).decode().partition(":")
        except (ValueError, UnicodeDecodeError):
            name, secret = "", None
        user = self.users.get(name)
        if scheme.lower() != "basic" or user is None or user.get("expired") or user["token"] != secret:
            return self.page(401, "Unauthorized", "Invalid password/token for user: %s" % name)
        return None

    def fault(self, request, kind, params):
        if kind == "unauthorized":
            return self.page(401, "Unauthorized", "Invalid password/token for user: %s" % params.get("user", "ci"))
        return None

    def handle(self, request):
        refusal = self.authenticate(request)
        if refusal is not None:
            return refusal
        rest = request.path[len(self.prefix):]
        match = re.fullmatch(r"((?:/job/[^/]+)*)/(?:([^/]+)/)?api/json", rest)
        if not match or request.method != "GET":
            return self.page(404, "Not Found", "Nothing is here.")
        names = [segment for segment in match.group(1).split("/job/") if segment]
        path = "/".join(names)
        view = JenkinsView(self, request)
        tree = request.arg("tree")
        if match.group(2) is None:
            value = view.item(path, full=bool(tree))
        elif path in self.jobs:
            value = view.build_by_key(path, match.group(2))
        else:
            value = None
        if value is None:
            return self.page(404, "Not Found", "Nothing is here.")
        if tree:
            try:
                value = apply_tree(value, parse_tree(tree))
            except ValueError as problem:
                return self.page(400, "Bad Request", "tree: %s" % problem)
        return self.headers(Response(200, encode_json(value), content_type="application/json;charset=utf-8"))


class JenkinsView:
    def __init__(self, jenkins, request):
        self.jenkins = jenkins
        self.request = request
        self.t = request.now
        self.root = request.base_url + jenkins.prefix + "/"

    def job_url(self, path):
        return self.root + "".join("job/%s/" % name for name in path.split("/"))

    def ms(self, t):
        return int(round(self.request.wall(t) * 1000))

    # ---- builds -------------------------------------------------------------------------------

    def runs(self, path):
        """The builds that exist now (a build exists from its start), newest first."""
        builds = [build for build in self.jenkins.jobs[path].get("builds", [])
                  if build.get("start") is not None and build["start"] <= self.t]
        return sorted(builds, key=lambda build: build["number"], reverse=True)

    def end(self, build):
        ends = [moment for moment in (build["start"] + build["seconds"] if "seconds" in build else None,
                                      build.get("abort_at")) if moment is not None]
        return min(ends) if ends else None

    def result(self, build):
        end = self.end(build)
        if end is None or self.t < end:
            return None
        if build.get("abort_at") is not None and build["abort_at"] == end:
            return "ABORTED"
        return build.get("result", "SUCCESS")

    def estimated(self, path):
        completed = [build for build in self.runs(path) if self.result(build) is not None]
        candidates = [build for build in completed if self.result(build) in ("SUCCESS", "UNSTABLE")][:3]
        if len(candidates) < 3:
            candidates += [build for build in completed if self.result(build) == "FAILURE"][:3 - len(candidates)]
        durations = [self.end(build) - build["start"] for build in candidates]
        if not durations or sum(durations) == 0:
            return -1
        return int(round(sum(durations) * 1000 / len(durations)))

    def reference(self, path, build):
        if build is None:
            return None
        return {"_class": self.build_class(path), "number": build["number"], "url": "%s%d/" % (self.job_url(path), build["number"])}

    def build_class(self, path):
        return BUILD_CLASSES.get(self.jenkins.jobs[path].get("class", "hudson.model.FreeStyleProject"), "hudson.model.Run")

    def build(self, path, build):
        result = self.result(build)
        end = self.end(build)
        runs = self.runs(path)
        index = runs.index(build)
        newer = runs[index - 1] if index > 0 else None
        older = runs[index + 1] if index + 1 < len(runs) else None
        full_name = " » ".join(path.split("/"))
        return {
            "_class": self.build_class(path), "actions": [], "artifacts": [],
            "building": result is None, "description": build.get("description"),
            "displayName": build.get("displayName", "#%d" % build["number"]),
            "duration": int(round((end - build["start"]) * 1000)) if result is not None else 0,
            "estimatedDuration": self.estimated(path), "executor": {} if result is None else None,
            "fullDisplayName": "%s %s" % (full_name, build.get("displayName", "#%d" % build["number"])),
            "id": str(build["number"]), "keepLog": False, "number": build["number"],
            "queueId": build.get("queue_id", build["number"] + 100), "result": result,
            "timestamp": self.ms(build["start"]), "url": "%s%d/" % (self.job_url(path), build["number"]),
            "inProgress": result is None, "changeSets": [], "culprits": [],
            "nextBuild": self.reference(path, newer), "previousBuild": self.reference(path, older),
        }

    def permalink(self, path, name):
        runs = self.runs(path)
        tests = {
            "lastBuild": lambda r: True,
            "lastCompletedBuild": lambda r: r is not None,
            "lastFailedBuild": lambda r: r == "FAILURE",
            "lastStableBuild": lambda r: r == "SUCCESS",
            "lastSuccessfulBuild": lambda r: r in ("SUCCESS", "UNSTABLE"),
            "lastUnstableBuild": lambda r: r == "UNSTABLE",
            "lastUnsuccessfulBuild": lambda r: r is not None and r != "SUCCESS",
        }
        if name == "firstBuild":
            return runs[-1] if runs else None
        return next((build for build in runs if tests[name](self.result(build))), None)

    def build_by_key(self, path, key):
        if key in PERMALINKS:
            build = self.permalink(path, key)
        else:
            build = next((build for build in self.runs(path) if str(build["number"]) == key), None)
        return self.build(path, build) if build is not None else None

    # ---- jobs and folders ---------------------------------------------------------------------

    def color(self, path):
        runs = self.runs(path)
        completed = self.permalink(path, "lastCompletedBuild")
        base = COLORS[self.result(completed)] if completed else "notbuilt"
        return base + "_anime" if runs and self.result(runs[0]) is None else base

    def queue_item(self, path):
        spec = self.jenkins.jobs[path]
        waiting = [build for build in spec.get("builds", []) if build.get("queued") is not None
                   and build["queued"] <= self.t and (build.get("start") is None or self.t < build["start"])]
        if not waiting:
            return None
        build = min(waiting, key=lambda build: build["number"])
        number = build.get("queue_id", build["number"] + 100)
        return {"_class": "hudson.model.Queue$BuildableItem", "blocked": False, "buildable": True, "id": number,
                "inQueueSince": self.ms(build["queued"]), "params": "", "stuck": False,
                "url": "queue/item/%d/" % number, "why": "Waiting for next available executor",
                "buildableStartMilliseconds": self.ms(build["queued"])}

    def job(self, path):
        spec = self.jenkins.jobs[path]
        name = path.split("/")[-1]
        runs = self.runs(path)
        queue_item = self.queue_item(path)
        numbers = [build["number"] for build in spec.get("builds", [])]
        body = {
            "_class": spec.get("class", "hudson.model.FreeStyleProject"), "actions": [], "description": spec.get("description", ""),
            "displayName": name, "displayNameOrNull": None, "fullDisplayName": " » ".join(path.split("/")),
            "fullName": path, "name": name, "url": self.job_url(path), "buildable": True,
            # `builds` holds the newest 100; `allBuilds` all of them.
            "builds": [self.build(path, build) for build in runs[:100]],
            "allBuilds": [self.build(path, build) for build in runs],
            "color": self.color(path), "healthReport": [], "inQueue": queue_item is not None, "keepDependencies": False,
            "nextBuildNumber": max(numbers) + 1 if numbers else 1, "property": [], "queueItem": queue_item,
            "concurrentBuild": False, "disabled": False,
        }
        for link in PERMALINKS:
            build = self.permalink(path, link)
            body[link] = self.build(path, build) if build is not None else None
        return body

    def children(self, path):
        depth = len(path.split("/")) if path else 0
        names = []
        for job_path in sorted(self.jenkins.jobs):
            parts = job_path.split("/")
            if len(parts) > depth and "/".join(parts[:depth]) == path and parts[depth] not in names:
                names.append(parts[depth])
        items = []
        for name in names:
            child = "%s/%s" % (path, name) if path else name
            if child in self.jenkins.jobs:
                items.append({"_class": self.jenkins.jobs[child].get("class", "hudson.model.FreeStyleProject"),
                              "name": name, "url": self.job_url(child), "color": self.color(child)})
            else:
                items.append({"_class": FOLDER_CLASS, "name": name, "url": self.job_url(child)})
        return items

    def item(self, path, full):
        """A job (every build in full when a `tree` will pick from it), a folder, or the root."""
        if path in self.jenkins.jobs:
            return self.job(path) if full else shallow(self.job(path))
        jobs = self.children(path)
        if not path:
            return {"_class": "hudson.model.Hudson", "assignedLabels": [], "mode": "NORMAL", "nodeDescription": "the built-in node",
                    "nodeName": "", "numExecutors": 2, "description": None, "jobs": jobs, "quietingDown": False,
                    "useCrumbs": True, "useSecurity": True, "views": []}
        if not jobs:
            return None
        name = path.split("/")[-1]
        return {"_class": FOLDER_CLASS, "actions": [], "description": None, "displayName": name,
                "fullDisplayName": " » ".join(path.split("/")), "fullName": path, "name": name,
                "url": self.job_url(path), "jobs": jobs}


def shallow(job):
    """The job as `api/json` without `tree` shows it (depth 0): builds only as references, no allBuilds."""
    body = {key: value for key, value in job.items() if key != "allBuilds"}
    body["builds"] = [reference_of(build) for build in job["builds"]]
    for link in PERMALINKS:
        body[link] = reference_of(job[link])
    return body


def reference_of(build):
    return {"_class": build["_class"], "number": build["number"], "url": build["url"]} if build else None


def parse_tree(text):
    """`name[sub,...]{M,N}` items separated by commas (the API page's `tree` grammar)."""
    position = 0

    def parse_list():
        nonlocal position
        items = []
        while True:
            match = re.compile(r"[A-Za-z_$][\w$]*").match(text, position)
            if not match:
                raise ValueError("a property name is expected at character %d" % position)
            name, position = match.group(0), match.end()
            subtree, span = None, None
            if text.startswith("[", position):
                position += 1
                subtree = parse_list()
                if not text.startswith("]", position):
                    raise ValueError("']' is expected at character %d" % position)
                position += 1
            if text.startswith("{", position):
                close = text.find("}", position)
                if close < 0:
                    raise ValueError("'}' is expected after character %d" % position)
                span = parse_range(text[position + 1:close])
                position = close + 1
            items.append((name, subtree, span))
            if not text.startswith(",", position):
                return items
            position += 1

    items = parse_list()
    if position != len(text):
        raise ValueError("unexpected %r at character %d" % (text[position], position))
    return items


def parse_range(inner):
    """{M,N}: M-th (inclusive) to N-th (exclusive); {M,}: from M; {,N}: to N; {N}: just the N-th."""
    if "," not in inner:
        number = int(inner)
        return number, number + 1
    low, high = inner.split(",", 1)
    return (int(low) if low.strip() else 0), (int(high) if high.strip() else None)


def apply_tree(value, items):
    if isinstance(value, list):
        return [apply_tree(element, items) for element in value]
    if not isinstance(value, dict):
        return value
    out = {"_class": value["_class"]} if "_class" in value else {}
    for name, subtree, span in items:
        if name not in value:
            continue
        field = value[name]
        if isinstance(field, list) and span is not None:
            field = field[span[0]:span[1]]
        if subtree is not None:
            field = apply_tree(field, subtree)
        elif isinstance(field, dict) and "number" in field and "url" in field:
            field = reference_of(field)
        elif isinstance(field, list):
            field = [reference_of(element) if isinstance(element, dict) and "number" in element else element for element in field]
        out[name] = field
    return out
