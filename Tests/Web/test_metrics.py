"""/metrics: Debian's `promtool check metrics` passes it, and a real Prometheus scrapes it with
the token as a bearer; with `metrics: off` there is none, with `open` anyone reads it."""
import glob, json, os, socket, subprocess, tempfile, time, urllib.request
import pytest
from webtest import ROOT, Sim, request, wait_for, need

TOKEN = "scrape-token-0123456789abcdef"


def config(folder, metrics):
    token = os.path.join(folder, "token")
    with open(token, "w") as f:
        f.write(TOKEN + "\n")
    rig = open(os.path.join(ROOT, "Boards", "simulator.yaml")).read()
    return rig + f"\nweb:\n  listen: 127.0.0.1:0\n  token-file: {token}\n  metrics: {metrics}\n", token


@pytest.fixture(scope="module")
def sim():
    folder = tempfile.mkdtemp(prefix="headway-metrics-")
    text, token = config(folder, "protected")
    s = Sim(text)
    s.token_file = token
    # Jobs to count: one running, one failed, one succeeded.
    s.headway("--job", "run1", "begin", "--total", "10", "--name", "backup")
    s.headway("--job", "run1", "set", "3")
    for job, outcome in (("run2", "fail"), ("run3", "done")):
        s.headway("--job", job, "begin", "--name", "backup")
        s.headway("--job", job, outcome)
    yield s
    s.stop()


def scrape(sim):
    status, headers, body = request(sim.port, "GET", "/metrics", headers={"Authorization": "Bearer " + TOKEN})
    assert status == 200
    return body.decode()


def test_promtool_passes_it(sim):
    promtool = need("promtool")
    text = scrape(sim)
    assert 'headway_job_duration_seconds_count{name="backup",outcome="failed"} 1' in text
    assert 'headway_job_duration_seconds_count{name="backup",outcome="succeeded"} 1' in text
    assert 'headway_output_frames_total{output="ring"}' in text
    checked = subprocess.run([promtool, "check", "metrics"], input=text, capture_output=True, text=True)
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_every_name_is_escaped_as_the_format_says(sim):
    # Names that broke the exposition: a quote or a backslash before a combining mark (one
    # character to Swift), and every job and name in the fuzz corpus's requests.
    names = ['quote"\u0301d', 'back\\\u0301slash', 'new\u0301"line"', "caf\u00e9 \u00ab\u00bb"]
    for path in sorted(glob.glob(os.path.join(ROOT, "Fuzz", "Corpus", "protocol", "*"))):
        for line in open(path, encoding="utf-8", errors="replace").read().splitlines():
            try:
                request_ = json.loads(line)
            except ValueError:
                continue
            for key in ("job", "name"):
                if isinstance(request_, dict) and isinstance(request_.get(key), str):
                    names.append(request_[key])
    for index, name in enumerate(names):
        job = f"metrics-name-{index}"
        begun = sim.headway("--job", job, "begin", "--name", name, check=False)
        if begun.returncode == 0:
            sim.headway("--job", job, "done")
    promtool = need("promtool")
    text = scrape(sim)
    assert 'name="quote\\"\u0301d"' in text, text
    checked = subprocess.run([promtool, "check", "metrics"], input=text, capture_output=True, text=True)
    assert checked.returncode == 0, checked.stdout + checked.stderr


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_a_real_prometheus_scrapes_it(sim):
    prometheus = need("prometheus")
    folder = tempfile.mkdtemp(prefix="headway-prometheus-")
    port = free_port()
    with open(os.path.join(folder, "prometheus.yml"), "w") as f:
        f.write(f"""global:
  scrape_interval: 1s
scrape_configs:
  - job_name: headway
    authorization:
      credentials_file: {sim.token_file}
    static_configs:
      - targets: ['127.0.0.1:{sim.port}']
""")
    server = subprocess.Popen(
        [prometheus, f"--config.file={folder}/prometheus.yml", f"--storage.tsdb.path={folder}/data", f"--web.listen-address=127.0.0.1:{port}"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        def query(expression):
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/v1/query?query={expression}", timeout=2) as response:
                    return json.load(response)["data"]["result"]
            except OSError:
                return None
        up = wait_for(lambda: query('up{job="headway"}'), timeout=30, interval=0.5, what="Prometheus's first scrape")
        assert up[0]["value"][1] == "1", up
        active = wait_for(lambda: query('headway_jobs{phase="active"}'), timeout=10, interval=0.5, what="headway_jobs in Prometheus")
        assert active[0]["value"][1] == "1", active
        failed = wait_for(lambda: query('headway_job_duration_seconds_count{outcome="failed"}'), timeout=10, interval=0.5, what="the histogram")
        assert failed[0]["metric"]["name"] == "backup"
    finally:
        server.terminate()
        server.wait(10)


@pytest.mark.parametrize("mode", ["off", "open"])
def test_metrics_off_or_open(mode):
    folder = tempfile.mkdtemp(prefix="headway-metrics-")
    text, _ = config(folder, mode)
    s = Sim(text)
    try:
        status, _, _ = request(s.port, "GET", "/metrics")
        assert status == (404 if mode == "off" else 200)
    finally:
        s.stop()
