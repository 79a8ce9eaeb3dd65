"""CCTray feed (cc.xml) as https://cctray.org/v1/ defines it: a <Projects> root with one <Project>
per project, its attributes name, activity (Sleeping, Building, CheckingModifications),
lastBuildStatus (Success, Failure, Exception, Unknown), lastBuildLabel, lastBuildTime,
nextBuildTime and webUrl. Times carry a time zone, in ISO 8601 with Z (https://cctray.org/notes/).
A feed that needs credentials answers 401 with WWW-Authenticate, as the notes ask of servers."""

import base64
from xml.sax.saxutils import quoteattr

from common import Response, iso_seconds

STATUSES = ["Success", "Failure", "Exception", "Unknown"]


class CCTray:
    def __init__(self, config, epoch):
        self.config = config
        self.paths = config.get("paths", ["/cc.xml"])

    def owns(self, path):
        return path in self.paths

    def unauthorized(self):
        return Response(401, b"Unauthorized\n", content_type="text/plain; charset=utf-8",
                        headers=[("WWW-Authenticate", 'Basic realm="cctray"')])

    def fault(self, request, kind, params):
        return self.unauthorized() if kind == "unauthorized" else None

    def handle(self, request):
        credentials = self.config.get("basic_auth")
        if credentials is not None:
            expected = base64.b64encode(("%s:%s" % (credentials["user"], credentials["password"])).encode()).decode()
            if request.headers.get("Authorization", "").strip() != "Basic " + expected:
                return self.unauthorized()
        lines = ["<Projects>"]
        for project in self.config.get("projects", []):
            lines.append("  <Project %s/>" % " ".join("%s=%s" % (name, quoteattr(value))
                                                     for name, value in attributes(project, request)))
        lines.append("</Projects>")
        body = ('<?xml version="1.0" encoding="UTF-8"?>\n' + "\n".join(lines) + "\n").encode()
        return Response(200, body, content_type="application/xml; charset=utf-8")


def attributes(project, request):
    t = request.now
    builds = [build for build in project.get("builds", []) if build["start"] <= t]
    finished = [build for build in builds if "seconds" in build and build["start"] + build["seconds"] <= t]
    running = [build for build in builds if build not in finished]
    checking = any(begin <= t < end for begin, end in project.get("checking", []))
    activity = "Building" if running else ("CheckingModifications" if checking else "Sleeping")
    last = max(finished, key=lambda build: build["start"]) if finished else None
    pairs = [("name", project["name"]), ("activity", activity),
             ("lastBuildStatus", last.get("status", "Success") if last else "Unknown")]
    if last is not None:
        pairs.append(("lastBuildLabel", str(last["label"])))
    # lastBuildTime is required: the last build's start, or when the project was made when it never built.
    pairs.append(("lastBuildTime", iso_seconds(request.wall(last["start"] if last else project.get("created", -86400)))))
    every = project.get("next_build_every")
    if every:
        pairs.append(("nextBuildTime", iso_seconds(request.wall((t // every + 1) * every))))
    pairs.append(("webUrl", project.get("web_url", "%s/projects/%s" % (request.base_url, project["name"]))))
    return pairs
