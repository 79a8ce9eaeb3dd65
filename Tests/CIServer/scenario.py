"""Loading a scenario: checks that every part the renderers rely on is there, names the place of the
first problem and how to fix it, and builds one renderer per API the scenario describes."""

import json
import re
import time

import api_cctray
import api_github
import api_gitlab
import api_jenkins
from common import parse_iso

FAULT_KINDS = {"status", "delay", "trickle", "malformed_json", "huge", "redirect_loop", "redirect", "unauthorized",
               "rate_limit", "secondary_rate_limit", "close_mid_body", "html"}


class ScenarioError(ValueError):
    pass


def need(value, key, where, meaning, kinds=(int, float)):
    if not isinstance(value, dict) or key not in value:
        raise ScenarioError("%s: '%s' is missing (%s)" % (where, key, meaning))
    if kinds is not None and not isinstance(value[key], kinds):
        raise ScenarioError("%s.%s: %r is not %s (%s)" % (where, key, value[key], kinds_name(kinds), meaning))
    return value[key]


def kinds_name(kinds):
    names = {int: "a number", float: "a number", str: "a string", list: "a list", dict: "an object"}
    return " or ".join(sorted({names.get(kind, kind.__name__) for kind in kinds}))


def check(scenario):
    if not isinstance(scenario, dict):
        raise ScenarioError("the scenario must be a JSON object")
    github = scenario.get("github", {})
    for r, repo in enumerate(github.get("repositories", [])):
        where = "github.repositories[%d]" % r
        need(repo, "owner", where, "the account that owns the repository", (str,))
        need(repo, "name", where, "the repository's name", (str,))
        for w, workflow in enumerate(repo.get("workflows", [])):
            for key, meaning, kinds in (("id", "the workflow's ID", (int,)), ("name", "its name", (str,)),
                                        ("path", "its file, .github/workflows/NAME.yml", (str,))):
                need(workflow, key, "%s.workflows[%d]" % (where, w), meaning, kinds)
        for n, run in enumerate(repo.get("runs", [])):
            run_where = "%s.runs[%d]" % (where, n)
            need(run, "id", run_where, "the run's ID", (int,))
            need(run, "workflow", run_where, "the workflow's ID or file name", (int, str))
            for a, attempt in enumerate(need(run, "attempts", run_where, "one entry per attempt, the first is the run", (list,))):
                attempt_where = "%s.attempts[%d]" % (run_where, a)
                need(attempt, "created", attempt_where, "seconds from t=0 when the attempt was created")
                for j, job in enumerate(need(attempt, "jobs", attempt_where, "the attempt's jobs", (list,))):
                    job_where = "%s.jobs[%d]" % (attempt_where, j)
                    need(job, "name", job_where, "the job's name", (str,))
                    steps = job.get("steps", [])
                    for s, step in enumerate(steps):
                        need(step, "name", "%s.steps[%d]" % (job_where, s), "the step's name", (str,))
                        need(step, "seconds", "%s.steps[%d]" % (job_where, s), "how long the step runs")
                    fail = job.get("fail_at_step")
                    if fail is not None and not (isinstance(fail, int) and 1 <= fail <= len(steps)):
                        raise ScenarioError("%s.fail_at_step: %r is not a step number from 1 to %d" % (job_where, fail, len(steps)))
    gitlab = scenario.get("gitlab", {})
    for p, project in enumerate(gitlab.get("projects", [])):
        where = "gitlab.projects[%d]" % p
        need(project, "id", where, "the project's numeric ID", (int,))
        need(project, "path", where, "its path with namespace, like group/project", (str,))
        for q, pipeline in enumerate(project.get("pipelines", [])):
            pipeline_where = "%s.pipelines[%d]" % (where, q)
            need(pipeline, "id", pipeline_where, "the pipeline's ID", (int,))
            need(pipeline, "created", pipeline_where, "seconds from t=0 when the pipeline was created")
            for s, stage in enumerate(need(pipeline, "stages", pipeline_where, "the stages in order", (list,))):
                stage_where = "%s.stages[%d]" % (pipeline_where, s)
                need(stage, "name", stage_where, "the stage's name", (str,))
                for j, job in enumerate(need(stage, "jobs", stage_where, "the stage's jobs", (list,))):
                    job_where = "%s.jobs[%d]" % (stage_where, j)
                    need(job, "name", job_where, "the job's name", (str,))
                    if not job.get("manual"):
                        need(job, "seconds", job_where, "how long the job runs")
                    result = job.get("result", "success")
                    if result not in ("success", "failed"):
                        raise ScenarioError("%s.result: %r is not success or failed (cancel with the pipeline's cancel_at)" % (job_where, result))
    jenkins = scenario.get("jenkins", {})
    for j, job in enumerate(jenkins.get("jobs", [])):
        where = "jenkins.jobs[%d]" % j
        need(job, "path", where, "the job's full name, folders separated by /", (str,))
        for b, build in enumerate(job.get("builds", [])):
            build_where = "%s.builds[%d]" % (where, b)
            need(build, "number", build_where, "the build number", (int,))
            if build.get("result", "SUCCESS") not in api_jenkins.RESULTS:
                raise ScenarioError("%s.result: %r is not one of %s" % (build_where, build["result"], ", ".join(api_jenkins.RESULTS)))
    cctray = scenario.get("cctray", {})
    for p, project in enumerate(cctray.get("projects", [])):
        where = "cctray.projects[%d]" % p
        need(project, "name", where, "the project's name", (str,))
        for b, build in enumerate(project.get("builds", [])):
            need(build, "start", "%s.builds[%d]" % (where, b), "seconds from t=0 when the build started")
            need(build, "label", "%s.builds[%d]" % (where, b), "the build's label", (str, int))
            if build.get("status", "Success") not in api_cctray.STATUSES:
                raise ScenarioError("%s.builds[%d].status: %r is not one of %s" % (where, b, build["status"], ", ".join(api_cctray.STATUSES)))
    for f, fault in enumerate(scenario.get("faults", [])):
        where = "faults[%d]" % f
        kind = need(fault, "kind", where, "one of " + ", ".join(sorted(FAULT_KINDS)), (str,))
        if kind not in FAULT_KINDS:
            raise ScenarioError("%s.kind: %r is not one of %s" % (where, kind, ", ".join(sorted(FAULT_KINDS))))
        try:
            re.compile(need(fault, "path", where, "a regular expression searched in the request's path and query", (str,)))
        except re.error as problem:
            raise ScenarioError("%s.path: %s" % (where, problem))


class World:
    """A loaded scenario: its wall-clock epoch (what t=0 stands for), its renderers and its faults."""

    def __init__(self, scenario, name):
        check(scenario)
        self.name = name
        self.scenario = scenario
        self.epoch = parse_iso(scenario["epoch"]) if "epoch" in scenario else float(int(time.time()))
        self.apis = []
        for key, kind in (("github", api_github.GitHub), ("gitlab", api_gitlab.GitLab),
                          ("jenkins", api_jenkins.Jenkins), ("cctray", api_cctray.CCTray)):
            if key in scenario:
                self.apis.append((key, kind(scenario[key], self.epoch)))
        self.faults = [dict(fault, used=0, pattern=re.compile(fault["path"])) for fault in scenario.get("faults", [])]

    def api_for(self, path):
        for key, api in self.apis:
            if api.owns(path):
                return key, api
        return None, None

    def fault_for(self, raw_path, t):
        """The first fault whose path pattern matches and whose window [from, until) holds t, while it
        has uses left (`times`, unlimited when absent)."""
        for fault in self.faults:
            if fault.get("from", float("-inf")) <= t < fault.get("until", float("inf")) and fault["pattern"].search(raw_path):
                if "times" in fault and fault["used"] >= fault["times"]:
                    continue
                fault["used"] += 1
                return fault
        return None


def load_file(path):
    with open(path, encoding="utf-8") as handle:
        try:
            return json.load(handle)
        except json.JSONDecodeError as problem:
            raise ScenarioError("%s: not JSON: %s" % (path, problem))
