"""The acceptance walk, on a network of its own: the appliance, a phone and a stranger are network
namespaces on one bridge (192.0.2.0/24, the documentation range, only inside them). The appliance
serves the page on its network address with a password. The phone — a real Chromium at a phone's
size, in its own namespace — logs in, sees the ring and the OLED as they are and the night's
backup's history, pauses the backup (a `headway run` child), and cancels it after the
confirmation. The stranger, without the password, can do none of it."""
import json, os, shutil, signal, subprocess, sys, tempfile, textwrap, time
import pytest
from webtest import ROOT, Sim, hash_password, program, wait_for

PASSWORD = "a phrase for the shelf"
NAMES = {"appliance": "192.0.2.1", "phone": "192.0.2.20", "stranger": "192.0.2.66"}


def ip(*args, check=True):
    return subprocess.run(["ip", *args], capture_output=True, text=True, check=check)


@pytest.fixture(scope="module")
def network():
    if os.geteuid() != 0 or not shutil.which("ip"):
        if os.environ.get("CI"):
            raise RuntimeError("the walk needs root and iproute2 (CI runs as root)")
        pytest.skip("needs root and iproute2 for network namespaces")
    prefix = f"hw{os.getpid() % 10000}"
    spaces = {name: f"{prefix}-{name}" for name in NAMES}
    bridge = f"{prefix}br"
    try:
        for name, space in spaces.items():
            ip("netns", "add", space)
            ip("-n", space, "link", "set", "lo", "up")
        ip("-n", spaces["appliance"], "link", "add", bridge, "type", "bridge")
        ip("-n", spaces["appliance"], "link", "set", bridge, "up")
        ip("-n", spaces["appliance"], "addr", "add", NAMES["appliance"] + "/24", "dev", bridge)
        for name in ("phone", "stranger"):
            ip("link", "add", f"{prefix}{name[0]}a", "type", "veth", "peer", "name", f"{prefix}{name[0]}b")
            ip("link", "set", f"{prefix}{name[0]}a", "netns", spaces["appliance"])
            ip("link", "set", f"{prefix}{name[0]}b", "netns", spaces[name])
            ip("-n", spaces["appliance"], "link", "set", f"{prefix}{name[0]}a", "master", bridge, "up")
            ip("-n", spaces[name], "addr", "add", NAMES[name] + "/24", "dev", f"{prefix}{name[0]}b")
            ip("-n", spaces[name], "link", "set", f"{prefix}{name[0]}b", "up")
        yield spaces
    finally:
        for space in spaces.values():
            ip("netns", "del", space, check=False)


class ApplianceSim(Sim):
    """The simulator in the appliance's namespace (its socket, a file, reached from here)."""

    def __init__(self, space, config):
        self.space = space
        super().__init__(config, web=None)

    def spawn(self, args, env):
        return subprocess.Popen(["ip", "netns", "exec", self.space, *args], env=env, stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True)


PHONE = textwrap.dedent("""
    import json, os, sys, time
    from selenium import webdriver
    from selenium.webdriver.common.by import By
    base, password, shots = sys.argv[1], sys.argv[2], sys.argv[3]
    options = webdriver.ChromeOptions()
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=390,844"):
        options.add_argument(a)
    options.binary_location = "/usr/bin/chromium"
    driver = webdriver.Chrome(options=options, service=webdriver.ChromeService(executable_path="/usr/bin/chromedriver"))
    def wait(predicate, what, timeout=15):
        end = time.time() + timeout
        while time.time() < end:
            try:
                value = predicate()
            except Exception:
                value = None
            if value:
                return value
            time.sleep(0.1)
        raise SystemExit("phone: timed out waiting for " + what)
    def say(step):
        print(step, flush=True)
    def press(text):
        # Found and clicked in one look: the page redraws the card as events arrive, and a button
        # found a moment before the click may be gone (stale) by then; the look is then repeated.
        item = driver.find_element(By.CSS_SELECTOR, 'li.job[data-job="backup"]')
        [b for b in item.find_elements(By.TAG_NAME, "button") if b.text == text][0].click()
        return True
    try:
        driver.get(base)
        wait(lambda: driver.find_element(By.ID, "secret").is_displayed(), "the login")
        driver.find_element(By.ID, "secret").send_keys(password)
        driver.find_element(By.CSS_SELECTOR, "#login-form button").click()
        wait(lambda: driver.find_element(By.ID, "connection").text == "live", "live")
        ring = wait(lambda: driver.find_element(By.CSS_SELECTOR, "svg[data-output=ring]"), "the ring")
        wait(lambda: "lit" in ring.get_attribute("aria-label") and not ring.get_attribute("aria-label").endswith(": 0 lit"), "the ring lit")
        oled = driver.find_element(By.CSS_SELECTOR, "canvas[data-output=oled]")
        lit = driver.execute_script("const c = arguments[0]; const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data; let n = 0; for (let i = 2; i < d.length; i += 4) if (d[i]) n++; return n;", oled)
        assert lit > 50, lit
        say(f"saw the ring ({ring.get_attribute('aria-label')}) and the OLED ({lit} pixels lit)")
        figure = wait(lambda: [f for f in driver.find_elements(By.CSS_SELECTOR, "#history figure") if f.find_element(By.TAG_NAME, "figcaption").text == "nightly-backup"], "the history")[0]
        say("saw the history: " + figure.find_element(By.CSS_SELECTOR, ".facts").text)
        assert driver.execute_script("return document.documentElement.scrollWidth <= window.innerWidth")
        wait(lambda: press("Pause"), "Pause")
        wait(lambda: "paused" in driver.find_element(By.CSS_SELECTOR, 'li.job[data-job="backup"]').text, "paused")
        say("paused the backup")
        time.sleep(1)
        wait(lambda: press("Cancel…"), "Cancel")
        dialog = driver.find_element(By.ID, "confirm")
        wait(lambda: dialog.is_displayed(), "the confirmation")
        say("confirmation: " + driver.find_element(By.ID, "confirm-text").text)
        driver.save_screenshot(os.path.join(shots, "phone-confirm.png"))
        dialog.find_element(By.CSS_SELECTOR, 'button[value="cancel"]').click()
        say("cancelled")
        time.sleep(1)
        driver.save_screenshot(os.path.join(shots, "phone-after.png"))
    finally:
        driver.quit()
""")

STRANGER = textwrap.dedent("""
    import http.client, json, sys
    host, port, job = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    def ask(method, path, body=None, headers=None):
        c = http.client.HTTPConnection(host, port, timeout=10)
        h = {"Host": f"{host}:{port}", "Origin": f"http://{host}:{port}", "Content-Type": "application/json"}
        h.update(headers or {})
        c.request(method, path, body=json.dumps(body) if body is not None else None, headers=h)
        r = c.getresponse(); r.read(); c.close()
        return r.status
    results = {
        "events": ask("GET", "/api/events"), "state": ask("GET", "/api/state"), "metrics": ask("GET", "/metrics"),
        "pause": ask("POST", "/api/jobs/pause", {"job": job}), "cancel": ask("POST", "/api/jobs/cancel", {"job": job}),
        "forged session": ask("GET", "/api/state", headers={"Cookie": "headway_session=" + "0" * 64}),
        "guesses": [ask("POST", "/api/login", {"secret": guess}) for guess in ("password", "admin", "headway", "raspberry", "123456", "letmein", "shelf")],
        "rebinding": ask("GET", "/api/state", headers={"Host": "evil.example"}),
    }
    print(json.dumps(results))
""")


def test_the_walk(network, tmp_path):
    spaces = network
    folder = tempfile.mkdtemp(prefix="headway-walk-")
    rig = open(os.path.join(ROOT, "Boards", "simulator.yaml")).read()
    config = rig + f"""
web:
  listen: {NAMES['appliance']}:8080
  password-hash: '{hash_password(PASSWORD)}'
"""
    sim = ApplianceSim(spaces["appliance"], config)
    try:
        # Last night's and the nights before's runs of the backup.
        for night, outcome in enumerate(["done", "done", "fail", "done"]):
            sim.headway("--job", f"night{night}", "begin", "--name", "nightly-backup")
            time.sleep(0.3)
            sim.headway("--job", f"night{night}", outcome)
        # Tonight's, under headway run.
        child = f'echo $$ > {folder}/pid; trap "echo TERM > {folder}/term; exit 143" TERM; i=0; while [ $i -lt 6000 ]; do echo "$i/6000"; i=$((i+1)); sleep 0.1; done'
        runner = subprocess.Popen([program("headway"), "--job", "backup", "run", "--label", "Nightly backup", "--name", "nightly-backup", "--", "sh", "-c", child],
                                  env=sim.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        pid = int(wait_for(lambda: os.path.exists(f"{folder}/pid") and open(f"{folder}/pid").read().strip(), what="the backup's child"))
        time.sleep(3)  # past the grace delay: the ring and the OLED show it

        # The stranger first: nothing.
        stranger = subprocess.run(["ip", "netns", "exec", spaces["stranger"], sys.executable, "-c", STRANGER, NAMES["appliance"], "8080", "backup"],
                                  capture_output=True, text=True, timeout=60)
        assert stranger.returncode == 0, stranger.stderr
        seen = json.loads(stranger.stdout)
        assert seen["events"] == seen["state"] == seen["metrics"] == seen["forged session"] == 401, seen
        assert seen["pause"] == seen["cancel"] == 403, seen
        assert seen["guesses"][:5] == [403] * 5 and set(seen["guesses"][5:]) == {429}, seen
        assert seen["rebinding"] == 421, seen
        with open(f"/proc/{pid}/stat") as f:
            assert f.read().rsplit(")", 1)[1].split()[0] != "T", "the stranger paused nothing"

        # Then the owner's phone.
        shots = os.environ.get("HEADWAY_WEB_SHOTS", str(tmp_path))
        python = os.path.join(ROOT, ".build-web", "venv", "bin", "python")
        phone = subprocess.Popen(["ip", "netns", "exec", spaces["phone"], python, "-c", PHONE, f"http://{NAMES['appliance']}:8080/", PASSWORD, shots],
                                 stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        def state():
            try:
                with open(f"/proc/{pid}/stat") as f:
                    return f.read().rsplit(")", 1)[1].split()[0]
            except FileNotFoundError:
                return "gone"
        wait_for(lambda: phone.poll() is not None or state() == "T", timeout=60, what="the backup paused from the phone")
        assert state() == "T" or os.path.exists(f"{folder}/term")
        out, _ = phone.communicate(timeout=60)
        print(out)
        assert phone.returncode == 0, out
        assert "confirmation: Its command is stopped" in out
        wait_for(lambda: os.path.exists(f"{folder}/term"), what="the backup's SIGTERM")
        runner.wait(15)
    finally:
        sim.stop()
