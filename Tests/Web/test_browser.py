"""The page in a real browser (Debian's Chromium, driven by Selenium) against `headway-sim serve
--web`: a hook's job within a second, the OLED as the simulator's glass shows it pixel for pixel
(rebuilt from the changes the page was sent, and whole on a page opened late), pause and cancel
reaching a `headway run` child, markup in a label shown as text, jobs named like the script's own
objects, a phone's size."""
import os, re, signal, subprocess, tempfile, time
import pytest
from webtest import Sim, need, program, read_pbm, wait_for

selenium = pytest.importorskip("selenium") if not os.environ.get("CI") else __import__("selenium")
from selenium import webdriver
from selenium.common.exceptions import NoAlertPresentException
from selenium.webdriver.common.by import By

SHOTS = os.environ.get("HEADWAY_WEB_SHOTS")


def browser(width=1280, height=900, phone=False):
    options = webdriver.ChromeOptions()
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", f"--window-size={width},{height}"):
        options.add_argument(argument)
    if phone:
        # A phone's viewport exactly: a headless window is never narrower than about 500 pixels.
        options.add_experimental_option("mobileEmulation", {"deviceMetrics": {"width": width, "height": height, "pixelRatio": 3}})
    options.binary_location = need("chromium")
    service = webdriver.ChromeService(executable_path=need("chromedriver"))
    return webdriver.Chrome(options=options, service=service)


@pytest.fixture(scope="module")
def sim():
    s = Sim()
    yield s
    s.stop()


def opened(driver, sim):
    """`driver` on the page, live; the sequence number its OLED's picture came with."""
    driver.get(sim.base + "/")
    wait_for(lambda: driver.find_element(By.ID, "connection").text == "live", what="the page going live")
    return int(wait_for(lambda: canvas_mask(driver, "oled"), what="the OLED on the page")["seq"])


@pytest.fixture(scope="module")
def page(sim):
    driver = browser()
    driver.opened_at = opened(driver, sim)
    yield driver
    driver.quit()


def job_element(page, job):
    found = page.find_elements(By.CSS_SELECTOR, f'li.job[data-job="{job}"]')
    return found[0] if found else None


def test_hook_job_within_a_second_and_markup_inert(sim, page):
    label = "<img src=x onerror=alert(1)>"
    started = time.monotonic()
    out = sim.headway("--job", "hooked", "begin", "--label", label, "--total", "200", "--name", "nightly-backup")
    assert out.returncode == 0, out.stderr
    item = wait_for(lambda: job_element(page, "hooked"), timeout=1.0, interval=0.01, what="the hook's job on the page")
    took = time.monotonic() - started
    assert took < 1.0
    assert item.find_element(By.CSS_SELECTOR, ".label").text == label
    assert page.find_elements(By.CSS_SELECTOR, "#jobs img") == []
    with pytest.raises(NoAlertPresentException):
        page.switch_to.alert.text
    sim.headway("--job", "hooked", "set", "50")
    wait_for(lambda: "50 of 200" in (job_element(page, "hooked").text or ""), what="the update on the page")
    sim.headway("--job", "hooked", "done")


def canvas_mask(page, name):
    return page.execute_script("""
        const c = document.querySelector(`canvas[data-output="${arguments[0]}"]`);
        if (!c) return null;
        const d = c.getContext('2d').getImageData(0, 0, c.width, c.height);
        const rows = [];
        for (let y = 0; y < c.height; y++) { const row = []; for (let x = 0; x < c.width; x++) row.push(d.data[4 * (y * c.width + x) + 2] > 0 ? 1 : 0); rows.push(row); }
        return {seq: c.dataset.seq, rows};
    """, name)


def oled_is_the_glass(sim, page):
    """The page's OLED, pixel for pixel, as the simulator's glass shows it: the picture it
    compared (its sequence number)."""
    folder = tempfile.mkdtemp(prefix="headway-snap-")
    for attempt in range(20):
        time.sleep(0.3)
        before = canvas_mask(page, "oled")
        reply = sim.send({"op": "snapshot", "folder": folder})[0]
        assert reply["ok"], reply
        after = canvas_mask(page, "oled")
        if not before or not after or before["seq"] != after["seq"]:
            continue  # the picture changed meanwhile: look again
        width, height, rows = read_pbm(os.path.join(folder, "oled.pbm"))
        if rows == after["rows"] and sum(map(sum, rows)) > 50:  # the job drawn, not the blank of its grace delay
            return int(after["seq"])
    pytest.fail("the page's OLED never equalled the simulator's glass")


def test_oled_equals_the_simulators_glass(sim, page):
    sim.send({"op": "begin", "job": "oled-check", "total": 10, "label": "Pixels"}, {"op": "update", "job": "oled-check", "value": 7})
    # The page opened before the job: the picture it shows now was rebuilt from the changes sent.
    assert oled_is_the_glass(sim, page) > page.opened_at
    late = browser()
    try:
        opened(late, sim)
        oled_is_the_glass(sim, late)
        sim.send({"op": "update", "job": "oled-check", "value": 3}, {"op": "label", "job": "oled-check", "label": "Fewer pixels"})
        assert oled_is_the_glass(sim, late) and oled_is_the_glass(sim, page)
    finally:
        late.quit()
    sim.send({"op": "finish", "job": "oled-check", "outcome": "succeeded"})


def test_jobs_named_like_the_scripts_own_objects(sim, page):
    names = ["__proto__", "constructor", "hasOwnProperty", "toString"]
    sim.send(*[{"op": "begin", "job": name, "total": 4, "label": f"Job {name}"} for name in names])
    for name in names:
        item = wait_for(lambda: job_element(page, name), what=f"the job {name}")
        assert item.find_element(By.CSS_SELECTOR, ".label").text == f"Job {name}"
    sim.send(*[{"op": "update", "job": name, "value": 2} for name in names])
    wait_for(lambda: all("2 of 4" in job_element(page, name).text for name in names), what="their updates")
    sim.send(*[{"op": "finish", "job": name, "outcome": "succeeded"} for name in names])


def child_state(pid):
    with open(f"/proc/{pid}/stat") as f:
        return f.read().rsplit(")", 1)[1].split()[0]


def press(page, job, label):
    """Clicks the job's button named `label`, found and clicked in one look: the page redraws a
    job's card as its events arrive, so a button found a moment before may be gone by the click
    (Selenium's stale element), and is then looked for again."""
    def found_and_clicked():
        card = job_element(page, job)
        buttons = [b for b in card.find_elements(By.TAG_NAME, "button") if b.text == label] if card else []
        if buttons:
            buttons[0].click()
        return bool(buttons)
    wait_for(found_and_clicked, what=f"a {label} button of {job}")


def test_pause_and_cancel_reach_a_headway_run_child(sim, page):
    folder = tempfile.mkdtemp(prefix="headway-child-")
    script = f'echo $$ > {folder}/pid; trap "echo TERM > {folder}/term; exit 143" TERM; i=0; while [ $i -lt 3000 ]; do echo "$i/3000"; i=$((i+1)); sleep 0.1; done'
    runner = subprocess.Popen(
        [program("headway"), "--job", "work", "run", "--label", "Nightly work", "--name", "work", "--", "sh", "-c", script],
        env=sim.env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        pid = int(wait_for(lambda: os.path.exists(f"{folder}/pid") and open(f"{folder}/pid").read().strip(), what="the child"))
        item = wait_for(lambda: job_element(page, "work"), what="the run's job")
        press(page, "work", "Pause")
        wait_for(lambda: child_state(pid) == "T", what="the child stopped")
        wait_for(lambda: "paused" in job_element(page, "work").text, what="paused on the page")
        press(page, "work", "Resume")
        wait_for(lambda: child_state(pid) in ("S", "R"), what="the child running again")
        press(page, "work", "Cancel…")
        dialog = page.find_element(By.ID, "confirm")
        wait_for(lambda: dialog.is_displayed(), what="the confirmation")
        text = page.find_element(By.ID, "confirm-text").text
        assert "lost" in text and "SIGTERM" in text, text
        # While it is open, it says what cancelling loses now: the percentage the card shows
        # (the job moves 1 % in 3 s).
        def same_as_the_card():
            shown = re.search(r"\((\d+) %\)", job_element(page, "work").text)
            said = page.find_element(By.ID, "confirm-text").text
            return said != text and shown and f"{shown.group(1)} % done" in said
        wait_for(same_as_the_card, what="the confirmation following the job's progress")
        assert not os.path.exists(f"{folder}/term"), "cancelled before the confirmation"
        # Keeping it running first: nothing happens.
        dialog.find_element(By.CSS_SELECTOR, 'button[value="keep"]').click()
        time.sleep(0.5)
        assert not os.path.exists(f"{folder}/term")
        press(page, "work", "Cancel…")
        wait_for(lambda: dialog.is_displayed(), what="the confirmation again")
        dialog.find_element(By.CSS_SELECTOR, 'button[value="cancel"]').click()
        wait_for(lambda: os.path.exists(f"{folder}/term"), what="SIGTERM in the child")
        runner.wait(10)
        wait_for(lambda: job_element(page, "work") is None or "cancelled" in job_element(page, "work").text, what="cancelled on the page")
    finally:
        if runner.poll() is None:
            runner.send_signal(signal.SIGTERM)
            runner.wait(5)


def test_history_plot(sim, page):
    for i, outcome in enumerate(["done", "fail", "done"]):
        sim.headway("--job", f"hist{i}", "begin", "--name", "night's backup")
        time.sleep(0.2)
        sim.headway("--job", f"hist{i}", outcome)
    # Looked up afresh each time: the page redraws the history as each run ends, and a figure
    # found after the first run is replaced by the time the third has come.
    def history():
        return [f for f in page.find_elements(By.CSS_SELECTOR, "#history figure") if f.find_element(By.TAG_NAME, "figcaption").text == "night's backup"]
    wait_for(lambda: any(len(f.find_elements(By.CSS_SELECTOR, "rect")) >= 3 for f in history()), what="three runs plotted")
    assert "failed" in wait_for(lambda: history()[0].get_attribute("textContent"), what="the history's text")
    assert wait_for(lambda: history()[0].find_element(By.CLASS_NAME, "facts").text, what="the runs counted").startswith("3 runs, ")
    # One run is "1 run".
    sim.headway("--job", "once", "begin", "--name", "a single run")
    time.sleep(0.2)
    sim.headway("--job", "once", "done")
    def single():
        return [f.find_element(By.CLASS_NAME, "facts").text for f in page.find_elements(By.CSS_SELECTOR, "#history figure")
                if f.find_element(By.TAG_NAME, "figcaption").text == "a single run"]
    facts = wait_for(lambda: single() and single()[0], what="the single run's history")
    assert facts.startswith("1 run, last succeeded"), facts


def test_desktop_size(sim):
    """The page at 1200 pixels: outputs first, then the jobs, nothing wider than the window."""
    driver = browser(1200, 1000)
    try:
        driver.get(sim.base + "/")
        wait_for(lambda: driver.find_element(By.ID, "connection").text == "live", what="live")
        sim.send({"op": "begin", "job": "build", "total": 120, "label": "Compiling 120 files"}, {"op": "update", "job": "build", "value": 42},
                 {"op": "begin", "job": "sync", "label": "Syncing photos"})
        wait_for(lambda: job_element(driver, "build") and job_element(driver, "sync"), what="the jobs")
        wait_for(lambda: driver.find_elements(By.CSS_SELECTOR, "svg[data-output=strip] circle"), what="the strip")
        assert driver.execute_script("return document.documentElement.scrollWidth <= window.innerWidth")
        assert driver.find_element(By.ID, "outputs").location["y"] < driver.find_element(By.ID, "jobs-section").location["y"]
        if SHOTS:
            # Past the grace delay: the jobs shown, the outputs drawn.
            wait_for(lambda: "active" in job_element(driver, "build").text and "active" in job_element(driver, "sync").text, what="the jobs shown")
            wait_for(lambda: " 0 lit" not in driver.find_element(By.CSS_SELECTOR, "svg[data-output=strip]").get_attribute("aria-label"), what="the strip lit")
            time.sleep(0.5)
            driver.save_screenshot(os.path.join(SHOTS, "desktop.png"))
        sim.send({"op": "finish", "job": "build", "outcome": "succeeded"}, {"op": "finish", "job": "sync", "outcome": "succeeded"})
    finally:
        driver.quit()


def test_phone_size(sim):
    driver = browser(390, 844, phone=True)
    try:
        driver.get(sim.base + "/")
        wait_for(lambda: driver.find_element(By.ID, "connection").text == "live", what="live on a phone")
        sim.send({"op": "begin", "job": "phone", "total": 4, "label": "A job on a phone"})
        wait_for(lambda: job_element(driver, "phone"), what="the job")
        wait_for(lambda: driver.find_elements(By.CSS_SELECTOR, "svg[data-output=ring] circle"), what="the ring")
        assert driver.execute_script("return document.documentElement.scrollWidth <= window.innerWidth")
        ring = driver.find_element(By.CSS_SELECTOR, "svg[data-output=ring]")
        assert ring.size["width"] <= 390 and "LED ring of 24" in ring.get_attribute("aria-label")
        oled = driver.find_element(By.CSS_SELECTOR, "canvas[data-output=oled]")
        assert "128×64 display" in oled.get_attribute("aria-label")
        # Regression: the jobs and their buttons came after five output cards, 2.5 screens down.
        jobs = driver.find_element(By.ID, "jobs-section").location["y"]
        assert jobs < driver.find_element(By.ID, "outputs").location["y"] and jobs < 844, jobs
        # Regression: the 60-LED strip was a hairline; each LED can be seen now.
        dots = driver.find_elements(By.CSS_SELECTOR, "svg[data-output=strip] circle")
        assert len(dots) == 60 and min(d.size["width"] for d in dots) >= 10, [d.size for d in dots[:3]]
        # Regression: a job with no progress showed no bar and no motion. It moves while it works,
        # and stands still when the reader asks for less motion.
        sim.send({"op": "begin", "job": "unknown", "label": "How far is not known"})
        working = wait_for(lambda: job_element(driver, "unknown") and job_element(driver, "unknown").find_element(By.CLASS_NAME, "working"),
                           what="the job with no progress")
        wait_for(lambda: working.is_displayed() and "moving" in working.get_attribute("class"), what="a moving block")
        block = working.find_element(By.TAG_NAME, "span")
        assert block.value_of_css_property("animation-name") == "working"
        if SHOTS:
            driver.save_screenshot(os.path.join(SHOTS, "phone.png"))
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-reduced-motion", "value": "reduce"}]})
        wait_for(lambda: block.value_of_css_property("animation-name") == "none", what="still under prefers-reduced-motion")
        assert working.is_displayed()
        sim.send({"op": "finish", "job": "unknown", "outcome": "succeeded"}, {"op": "finish", "job": "phone", "outcome": "succeeded"})
    finally:
        driver.quit()


def test_an_rgb_led_is_one_lamp_in_its_colour():
    """Regression: the Display HAT Mini's RGB LED was drawn as three red lamps ("3 GPIO LEDs: 2 on")
    where the simulator's terminal and `render` show one cyan LED."""
    hat = Sim(config="hats: [pimoroni-display-hat-mini]\n")
    driver = browser()
    try:
        driver.get(hat.base + "/")
        wait_for(lambda: driver.find_element(By.ID, "connection").text == "live", what="the page going live")
        hat.send({"op": "begin", "job": "rgb", "total": 10, "label": "Colour"}, {"op": "update", "job": "rgb", "value": 4})

        def led():
            for figure in driver.find_elements(By.CSS_SELECTOR, "figure.output"):
                caption = figure.find_elements(By.CLASS_NAME, "desc")
                if caption and caption[0].text.startswith("RGB LED"):
                    return figure
            return None
        assert len(wait_for(led, what="the RGB LED's card").find_elements(By.CSS_SELECTOR, "circle")) == 1
        wait_for(lambda: led().find_element(By.CLASS_NAME, "desc").text == "RGB LED: cyan", what="cyan while the job runs")
        wait_for(lambda: led().find_element(By.CSS_SELECTOR, "circle").get_attribute("fill") == "rgb(0, 255, 255)", what="one dot, cyan")
    finally:
        driver.quit()
        hat.stop()
