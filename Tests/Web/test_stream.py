"""The page's event stream as pages of every kind meet it: one open from the start, one that
comes late, one that stops reading for a while. Each rebuilds, from the whole state and the
numbered patches after it, exactly what the service says it shows (its /api/state); the one that
fell behind is sent the whole state again rather than a patch it cannot use. The default
configuration takes 32 pages, the 33rd is told the page is full."""
import json, threading, time
import pytest
from pagestream import EventStream, PageState
from webtest import Sim, request, wait_for


@pytest.fixture
def sim():
    s = Sim()
    yield s
    s.stop()


def service_state(sim):
    status, _, body = request(sim.port, "GET", "/api/state")
    assert status == 200
    state = json.loads(body)
    state.pop("seq")
    return state


def settled(sim, *pages):
    """Follows each page until it shows what /api/state says (once nothing changes any more)."""
    def same():
        truth = service_state(sim)
        for stream, state in pages:
            for event, data in stream.events(timeout=0.3):
                state.take(event, data)
        return all(state.snapshot() == truth for _, state in pages)
    wait_for(same, timeout=20, interval=0.2, what="every page showing what the service shows")


class Updates(threading.Thread):
    """Jobs that change, over and over: values, and labels (each a new text on the OLED)."""

    def __init__(self, sim, jobs=1, period=0.05):
        super().__init__(daemon=True)
        self.sim, self.ids, self.period = sim, [f"job{i}" for i in range(jobs)], period
        self.stopping = threading.Event()
        for job in self.ids:
            sim.send({"op": "begin", "job": job, "total": 1000, "label": "Starting"})

    def run(self):
        step = 0
        while not self.stopping.is_set():
            step += 1
            requests = [{"op": "update", "job": job, "value": (step * 37 + i) % 1000} for i, job in enumerate(self.ids)]
            requests += [{"op": "label", "job": job, "label": f"Step {step} of {job}"} for job in self.ids]
            for start in range(0, len(requests), 100):
                self.sim.send(*requests[start:start + 100])
            time.sleep(self.period)

    def finish(self):
        self.stopping.set()
        self.join()
        for job in self.ids:
            self.sim.send({"op": "finish", "job": job, "outcome": "succeeded"})


def test_a_page_from_the_start_and_a_late_one_show_what_the_service_shows(sim):
    early = (EventStream(sim.port), PageState())
    updates = Updates(sim)
    updates.start()
    # The job drawn (past its grace delay), then 20 patches more: the late page comes meanwhile.
    early[0].follow(early[1], lambda state: any(state.output("oled")[1] or b""))
    late = (EventStream(sim.port), PageState())
    late[0].follow(late[1], lambda state: state.patches >= 20)
    assert late[1].states == 1 and early[1].states == 1, "one whole state each, then patches only"
    updates.finish()
    settled(sim, early, late)
    for stream, _ in (early, late):
        stream.close()


def test_a_page_that_falls_behind_gets_the_whole_state_again(sim):
    # 300 jobs relabelled ten times a second: about 100 KB of patches a second.
    updates = Updates(sim, jobs=300, period=0.1)
    updates.start()
    slow = (EventStream(sim.port, receive_buffer=4096), PageState())
    slow[0].follow(slow[1], lambda state: state.patches >= 3)
    time.sleep(6)  # not reading: the socket's buffers fill, then the stream's
    slow[0].follow(slow[1], lambda state: state.states >= 2, timeout=20)
    updates.finish()
    settled(sim, slow)
    slow[0].close()


def test_the_default_takes_32_pages(sim):
    streams = [EventStream(sim.port, source=f"127.0.2.{1 + i}") for i in range(32)]
    for stream in streams:
        state = PageState()
        stream.follow(state, lambda s: s.states == 1)
    extra = EventStream(sim.port, source="127.0.2.40")
    events = wait_for(lambda: extra.events(timeout=1), what="the 33rd page's answer")
    assert events[0][0] == "full" and json.loads(events[0][1]) == {"viewers": 32}
    for stream in streams + [extra]:
        stream.close()
