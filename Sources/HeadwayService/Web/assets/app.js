// The page's script. Every text from the service (labels, ids, names, reasons) goes into the
// page as text (textContent, setAttribute), never as markup: `<img src=x onerror=…>` shows as
// those characters.
"use strict";
const $ = (id) => document.getElementById(id);
const svgNS = "http://www.w3.org/2000/svg";
let csrf = null;
let events = null;
// The state the service last published, as this page holds it: `seq` numbers it; each output is
// its description and its bytes (pixels, LED levels) by its place in the list; each output's card
// is kept by name.
let seq = null;
let outputs = [];
let jobs = null;
let history = null;
const cards = new Map();

function el(tag, attributes = {}, text) {
  const node = tag.startsWith("svg:") ? document.createElementNS(svgNS, tag.slice(4)) : document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, String(value));
  if (text !== undefined) node.textContent = String(text);
  return node;
}

function duration(seconds) {
  seconds = Math.max(0, Math.round(seconds));
  if (seconds < 60) return `${seconds} s`;
  const m = Math.floor(seconds / 60), s = seconds % 60;
  if (m < 60) return s ? `${m} min ${s} s` : `${m} min`;
  const h = Math.floor(m / 60);
  return m % 60 ? `${h} h ${m % 60} min` : `${h} h`;
}

function amount(value) {
  if (Math.abs(value) >= 1e4) return value.toLocaleString(undefined, { maximumFractionDigits: 0 });
  return value.toLocaleString(undefined, { maximumFractionDigits: 2 });
}

async function api(path, body) {
  const options = body === undefined ? {} : {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-Headway-CSRF": csrf || "" },
    body: JSON.stringify(body),
  };
  options.credentials = "same-origin";
  const response = await fetch(path, options);
  let data = {};
  try { data = await response.json(); } catch (_) { /* not JSON */ }
  return { status: response.status, data };
}

async function start() {
  const { data } = await api("/api/session");
  if (data.session) {
    csrf = data.csrf;
    $("login").hidden = true;
    $("app").hidden = false;
    $("logout").hidden = !data.login;
    listen();
  } else {
    $("app").hidden = true;
    $("login").hidden = false;
    $("connection").textContent = "log in to see this appliance";
    $("secret").focus();
  }
}

$("login-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  $("login-error").textContent = "";
  const { status, data } = await api("/api/login", { secret: $("secret").value });
  $("secret").value = "";
  if (status === 200) { csrf = data.csrf; start(); return; }
  $("login-error").textContent = (data.error && data.error.message) || `login failed (${status})`;
});

$("logout").addEventListener("click", async () => {
  await api("/api/logout", {});
  if (events) events.close();
  location.reload();
});

// The events: `state` is the whole state (the first event, and again whenever the service starts
// this page afresh); every other event is a patch of it (see PageState.swift), numbered: a page
// that misses a number starts afresh rather than show a picture it did not get whole.
function listen() {
  if (events) events.close();
  seq = null;
  events = new EventSource("/api/events");
  events.onopen = () => { $("connection").textContent = "live"; };
  events.onerror = () => { $("connection").textContent = "reconnecting…"; };
  events.addEventListener("state", (e) => showState(JSON.parse(e.data)));
  events.onmessage = (e) => { if (!applyPatch(JSON.parse(e.data))) listen(); };
  events.addEventListener("full", () => {
    events.close();
    $("connection").textContent = "too many pages open; reload to try again";
  });
}

function own(object, key) { return Object.prototype.hasOwnProperty.call(object, key) ? object[key] : undefined; }
function isObject(value) { return value !== null && typeof value === "object" && !Array.isArray(value); }

// JSON Merge Patch (RFC 7386): a member set, `null` for one gone, objects merged member by member.
// Members are defined, never assigned, so that a job named `__proto__` is a job like any other.
function merge(target, patch) {
  if (!isObject(patch)) return patch;
  if (!isObject(target)) target = Object.create(null);
  for (const key of Object.keys(patch)) {
    if (patch[key] === null) delete target[key];
    else Object.defineProperty(target, key, { value: merge(own(target, key), patch[key]), enumerable: true, writable: true, configurable: true });
  }
  return target;
}

function showState(state) {
  seq = state.seq;
  const names = new Set(state.outputs.map((output) => output.name));
  for (const [name, card] of cards) if (!names.has(name)) { card.figure.remove(); cards.delete(name); }
  outputs = state.outputs.map((whole) => {
    const { data, ...description } = whole;
    const output = { description, bytes: bytesOf(data) };
    showOutput(output, true, null);
    $("outputs").append(cards.get(description.name).figure);  // in the configuration's order
    return output;
  });
  jobs = state.jobs;
  showJobs(jobs, null);
  history = state.history;
  showHistory(history);
  showAbout(state.about);
}

// False when the patch does not follow what this page holds.
function applyPatch(patch) {
  if (seq === null || patch.seq !== seq + 1) return false;
  seq = patch.seq;
  for (const [index, delta, changes] of patch.outputs || []) {
    const output = outputs[index];
    if (!output) return false;
    if (changes) {
      const { data, ...described } = changes;
      if (data !== undefined) output.bytes = bytesOf(data);
      output.description = merge(output.description, described);
    }
    const span = applyDelta(output.bytes, bytesOf(delta));
    if (span === false) return false;
    showOutput(output, !!changes, changes ? null : span);
  }
  if (patch.jobs) { jobs = merge(jobs, patch.jobs); showJobs(jobs, patch.jobs); }
  if (patch.history) { history = merge(history, patch.history); showHistory(history); }
  if (patch.about) showAbout(patch.about);
  return true;
}

function showAbout(about) {
  if (about.configuration !== undefined) $("configuration").textContent = about.configuration;
  if (about.doctor !== undefined) $("doctor").textContent = about.doctor;
}

// MARK: Outputs

function bytesOf(base64) {
  const text = atob(base64 || "");
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
}

// Writes a ByteDelta's runs into `bytes` (each: a LEB128 count of bytes kept, a LEB128 count of
// bytes that follow, those bytes). Returns the first and last byte written, null when none was,
// false when the runs do not fit (then the page starts afresh).
function applyDelta(bytes, delta) {
  let i = 0, at = 0, first = null, last = null;
  const count = () => {
    let value = 0;
    for (let shift = 0; shift < 28 && i < delta.length; shift += 7) {
      const byte = delta[i++];
      value |= (byte & 0x7f) << shift;
      if (!(byte & 0x80)) return value;
    }
    return -1;
  };
  while (i < delta.length) {
    const skip = count(), length = count();
    if (skip < 0 || length < 0 || at + skip + length > bytes.length || i + length > delta.length) return false;
    at += skip;
    bytes.set(delta.subarray(i, i + length), at);
    if (first === null) first = at;
    at += length;
    last = at - 1;
    i += length;
  }
  return first === null ? null : [first, last];
}

// LED drive levels are light (a duty cycle); a screen shows sRGB.
function srgb(level) { return Math.round(255 * Math.pow(level / 255, 1 / 2.2)); }

// Shows an output: its words when `described` (they changed), and its bytes — only those from
// span[0] to span[1] when a span is given, all of them otherwise.
function showOutput(output, described, span) {
  const d = output.description;
  let card = cards.get(d.name);
  if (!card) {
    const figure = el("figure", { class: "output" });
    figure.append(el("h3", {}, d.name));
    card = { figure, kind: null };
    cards.set(d.name, card);
  }
  const kind = d.kind + (d.count || "") + (d.width || "") + "x" + (d.height || "");
  if (card.kind !== kind) {
    card.kind = kind;
    span = null;
    card.figure.querySelectorAll("canvas, svg, .desc, .failure").forEach((n) => n.remove());
    if (d.kind === "picture") {
      card.picture = el("canvas", { width: d.width, height: d.height, role: "img", "data-output": d.name });
      card.image = card.picture.getContext("2d").createImageData(d.width, d.height);
    } else if (d.kind === "segments") {
      card.picture = segmentPicture(d);
    } else {
      card.picture = ledPicture(d);
    }
    card.desc = el("figcaption", { class: "desc" });
    card.failure = el("p", { class: "failure", role: "alert" });
    card.figure.append(card.picture, card.desc, card.failure);
    described = true;
  }
  if (described) {
    card.picture.setAttribute("aria-label", `${d.name}: ${d.text}`);
    card.desc.textContent = d.text;
    card.failure.textContent = d.failure ? `not reaching the hardware: ${d.failure}` : "";
  }
  card.picture.dataset.seq = seq;
  if (d.kind === "picture") drawPicture(card, d, output.bytes, span);
  else if (d.kind === "segments") drawSegments(card.picture, d);
  else drawLEDs(card.picture, d, output.bytes, span);
}

function ledPicture(output) {
  const count = output.count || 1;
  const svg = el("svg:svg", { role: "img", "data-output": output.name });
  if (output.kind === "leds" && output.layout === "ring") {
    svg.setAttribute("viewBox", "-110 -110 220 220");
    const radius = 90, dot = Math.min(14, (2 * Math.PI * radius) / count / 2.4);
    for (let i = 0; i < count; i++) {
      const angle = (2 * Math.PI * i) / count - Math.PI / 2;
      svg.append(el("svg:circle", { cx: (radius * Math.cos(angle)).toFixed(1), cy: (radius * Math.sin(angle)).toFixed(1), r: dot.toFixed(1), fill: "#000", stroke: "#333" }));
    }
  } else {
    // A long strip in rows of at most 20, in order, so that each LED is seen on a phone too.
    const pitch = 20, perRow = Math.min(count, 20), rows = Math.ceil(count / perRow);
    svg.setAttribute("viewBox", `0 0 ${perRow * pitch} ${rows * pitch}`);
    for (let i = 0; i < count; i++) {
      const x = (i % perRow) * pitch + pitch / 2, y = Math.floor(i / perRow) * pitch + pitch / 2;
      svg.append(el("svg:circle", { cx: x, cy: y, r: pitch * 0.38, fill: "#000", stroke: "#333" }));
    }
  }
  return svg;
}

function drawLEDs(svg, output, bytes, span) {
  const dots = svg.querySelectorAll("circle");
  if (output.kind === "lights") {
    (output.on || []).forEach((on, i) => { if (dots[i]) dots[i].setAttribute("fill", on ? "#ff3b30" : "#000"); });
    return;
  }
  const from = span ? Math.floor(span[0] / 3) : 0, to = span ? Math.floor(span[1] / 3) : dots.length - 1;
  for (let i = from; i <= to && i < dots.length; i++) {
    const r = bytes[3 * i] || 0, g = bytes[3 * i + 1] || 0, b = bytes[3 * i + 2] || 0;
    dots[i].setAttribute("fill", `rgb(${srgb(r)}, ${srgb(g)}, ${srgb(b)})`);
  }
}

// A segment display: each digit's bars as lines in SegmentSet's bit order (A–F, G1, G2, H, J, K,
// L, M, N, then the point), the colon between the second and third digit.
const segmentLines = [
  [5, 5, 35, 5], [35, 5, 35, 35], [35, 35, 35, 65], [5, 65, 35, 65], [5, 35, 5, 65], [5, 5, 5, 35],
  [5, 35, 20, 35], [20, 35, 35, 35], [5, 5, 20, 35], [20, 5, 20, 35], [35, 5, 20, 35],
  [5, 65, 20, 35], [20, 35, 20, 65], [35, 65, 20, 35],
];

function segmentPicture(output) {
  const count = output.count || 1, pitch = 50;
  const svg = el("svg:svg", { role: "img", "data-output": output.name, viewBox: `-5 -5 ${count * pitch + 10} 80` });
  for (let i = 0; i < count; i++) {
    const digit = el("svg:g", { transform: `translate(${i * pitch} 0)` });
    segmentLines.forEach((line, bit) => {
      if (output.segments === "seven" && bit > 7) return;
      digit.append(el("svg:line", { x1: line[0], y1: line[1], x2: line[2], y2: line[3], "stroke-width": 6, "stroke-linecap": "round", stroke: "#222", "data-bit": bit }));
    });
    digit.append(el("svg:circle", { cx: 42, cy: 66, r: 3.5, fill: "#222", "data-bit": 14 }));
    svg.append(digit);
  }
  svg.append(el("svg:circle", { cx: 2 * pitch - 7, cy: 22, r: 3.5, fill: "#222", class: "colon" }));
  svg.append(el("svg:circle", { cx: 2 * pitch - 7, cy: 48, r: 3.5, fill: "#222", class: "colon" }));
  return svg;
}

function drawSegments(svg, output) {
  const lit = "#ff5a36", dark = "#222";
  svg.querySelectorAll("g").forEach((digit, i) => {
    const bits = (output.digits || [])[i] || 0;
    digit.querySelectorAll("[data-bit]").forEach((part) => {
      const on = (bits >> Number(part.dataset.bit)) & 1;
      part.setAttribute(part.tagName === "circle" ? "fill" : "stroke", on ? lit : dark);
    });
  });
  svg.querySelectorAll(".colon").forEach((dot) => dot.setAttribute("fill", output.colon ? lit : dark));
}

// A display's picture as its driver took it: 1-bit pages (8 rows a byte, least significant bit
// on top), 4-bit rows (two pixels a byte, the left one in the low nibble) or colour rows, drawn
// 1:1 and scaled by the browser without smoothing; only the rows a span of bytes covers.
function drawPicture(card, output, bytes, span) {
  const w = output.width, h = output.height, image = card.image;
  const rowBytes = { mono: w, grey4: Math.ceil(w / 2), rgb565: 2 * w, rgb666: 3 * w, rgb8: 3 * w }[output.format] || w;
  const rowsPer = output.format === "mono" ? 8 : 1;  // a byte row of a mono picture is a page of 8 rows
  const top = span ? Math.floor(span[0] / rowBytes) * rowsPer : 0;
  const bottom = span ? Math.min(h, (Math.floor(span[1] / rowBytes) + 1) * rowsPer) : h;
  const lit = output.lit !== false;
  const light = [0x9f, 0xd8, 0xff];
  for (let y = top; y < bottom; y++) {
    for (let x = 0; x < w; x++) {
      const o = 4 * (y * w + x);
      let r = 0, g = 0, b = 0;
      if (output.format === "rgb565") {
        // Colour as the glass takes it: RGB565 big-endian, RGB666 and the LEDs' levels a byte a channel.
        const v = ((bytes[2 * (y * w + x)] || 0) << 8) | (bytes[2 * (y * w + x) + 1] || 0);
        r = Math.round(((v >> 11) & 31) * 255 / 31); g = Math.round(((v >> 5) & 63) * 255 / 63); b = Math.round((v & 31) * 255 / 31);
      } else if (output.format === "rgb666" || output.format === "rgb8") {
        const i = 3 * (y * w + x);
        r = bytes[i] || 0; g = bytes[i + 1] || 0; b = bytes[i + 2] || 0;
        if (output.format === "rgb8") { r = srgb(r); g = srgb(g); b = srgb(b); }
      } else {
        const level = output.format === "grey4"
          ? ((x & 1 ? (bytes[y * rowBytes + (x >> 1)] || 0) >> 4 : (bytes[y * rowBytes + (x >> 1)] || 0) & 15) / 15)
          : (((bytes[(y >> 3) * w + x] || 0) >> (y & 7)) & 1);
        r = Math.round(light[0] * level); g = Math.round(light[1] * level); b = Math.round(light[2] * level);
      }
      if (!lit) r = g = b = 0;
      image.data[o] = r; image.data[o + 1] = g; image.data[o + 2] = b; image.data[o + 3] = 255;
    }
  }
  if (bottom > top) card.picture.getContext("2d").putImageData(image, 0, 0, 0, top, w, bottom - top);
}

// MARK: Jobs

const jobNodes = new Map();

// Each job keeps its element from update to update (focus and a half-done click stay put); only
// the jobs a patch names are redrawn (their texts, and their buttons when what they can do
// changes), and the list when its order changed. No patch: everything is drawn.
function showJobs(state, patch) {
  const byId = state.byId || {}, order = state.order || [];
  const drawn = new Set();
  if (!patch || patch.order) {
    const items = order.map((id) => {
      let node = jobNodes.get(id);
      if (!node || !patch) {
        node = node || makeJob(own(byId, id));
        jobNodes.set(id, node);
        updateJob(node, own(byId, id));
        drawn.add(id);
      }
      return node.item;
    });
    const listed = new Set(order);
    for (const id of [...jobNodes.keys()]) if (!listed.has(id)) jobNodes.delete(id);
    const list = $("jobs");
    if (list.children.length !== items.length || items.some((item, i) => list.children[i] !== item)) list.replaceChildren(...items);
  }
  for (const id of patch && patch.byId ? Object.keys(patch.byId) : []) {
    const job = own(byId, id), node = jobNodes.get(id);
    if (job && node && !drawn.has(id)) updateJob(node, job);
  }
  $("no-jobs").hidden = order.length > 0;
  $("quiet").hidden = !state.quiet;
  $("quiet").textContent = state.quiet || "";
  $("timers").hidden = !state.timers;
  $("timers").textContent = state.timers ? "Timers: " + state.timers.join("; ") : "";
}

function makeJob(job) {
  const node = { item: el("li", { class: "job", "data-job": job.id }), buttonsKey: null };
  const top = el("div", { class: "top" });
  node.label = el("span", { class: "label" });
  node.phase = el("span", { class: "phase" });
  top.append(node.label, node.phase);
  node.progress = el("progress", { max: 100 });
  // A job that cannot say how far it is: a block that keeps moving while it works (still when
  // it is not working, or when the reader asks for less motion), never a bar that reads as a share.
  node.working = el("div", { class: "working", role: "progressbar" });
  node.working.append(el("span"));
  node.facts = el("p", { class: "facts" });
  node.buttons = el("div", { class: "buttons" });
  node.item.append(top, node.progress, node.working, node.facts, node.buttons);
  return node;
}

function updateJob(node, job) {
  node.job = job;
  // The confirmation open for this job says what cancelling it loses now, as its card does.
  if (confirming === job.id) confirmWords(job);
  const name = job.label || job.id;
  node.label.textContent = name;
  node.phase.textContent = job.phase;
  node.phase.className = `phase ${job.phase}`;
  const facts = [];
  if (job.countdown) {
    // A countdown reads in time, and its bar empties as the time goes.
    const left = `${duration(job.value)} left of ${duration(job.total)}`;
    node.progress.hidden = false;
    node.working.hidden = true;
    node.progress.max = job.total;
    node.progress.value = job.value;
    node.progress.setAttribute("aria-label", `${name}: ${left}`);
    facts.push(left);
  } else {
    node.progress.hidden = job.percent === undefined;
    node.progress.max = 100;
    const working = job.percent === undefined && ["active", "stalled", "paused", "queued", "stale"].includes(job.phase);
    node.working.hidden = !working;
    node.working.classList.toggle("moving", job.phase === "active");
    if (working) node.working.setAttribute("aria-label", `${name}: ${job.phase === "active" ? "working, how far is not known" : job.phase}`);
    if (job.percent !== undefined) {
      node.progress.value = job.percent;
      node.progress.setAttribute("aria-label", `${name}: ${job.percent} %`);
    }
    if (job.value !== undefined && job.total !== undefined) facts.push(`${amount(job.value)} of ${amount(job.total)}${job.percent !== undefined ? ` (${job.percent} %)` : ""}`);
    else if (job.percent !== undefined) facts.push(`${job.percent} %`);
    if (job.eta !== undefined) facts.push(job.estimate ? `about ${duration(job.eta)} left (an estimate)` : `${duration(job.eta)} left${job.etaReported ? " (as reported)" : ""}`);
  }
  if (job.overdue !== undefined) facts.push(`${duration(job.overdue)} over the expected time`);
  if (job.elapsed !== undefined) facts.push(`running ${duration(job.elapsed)}`);
  if (job.learned !== undefined) facts.push(`usually takes ${duration(job.learned)}`);
  if (job.phase === "stalled") facts.push("no news from it for a while");
  if (job.reason) facts.push(job.reason);
  facts.push(`from ${job.source}`);
  if (job.id !== job.label) facts.push(`id ${job.id}`);
  node.facts.textContent = facts.join(" · ");
  const key = `${job.pausable}/${job.cancellable}/${job.phase === "paused"}`;
  if (key === node.buttonsKey) return;
  node.buttonsKey = key;
  const focused = node.buttons.contains(document.activeElement) ? document.activeElement.dataset.role : null;
  const buttons = [];
  if (job.pausable) {
    const paused = job.phase === "paused";
    const pause = el("button", { type: "button", "data-role": "pause" }, paused ? "Resume" : "Pause");
    pause.addEventListener("click", () => control(node.job.phase === "paused" ? "resume" : "pause", node.job));
    buttons.push(pause);
  }
  if (job.cancellable) {
    const cancel = el("button", { type: "button", class: "danger", "data-role": "cancel" }, "Cancel…");
    cancel.addEventListener("click", () => confirmCancel(node.job));
    buttons.push(cancel);
  }
  node.buttons.replaceChildren(...buttons);
  node.buttons.hidden = buttons.length === 0;
  if (focused) {
    const again = node.buttons.querySelector(`[data-role="${focused}"]`);
    if (again) again.focus();
  }
}

// The job whose cancellation is being confirmed, while the dialog is open.
let confirming = null;

function confirmCancel(job) {
  const dialog = $("confirm");
  confirming = job.id;
  confirmWords(job);
  dialog.returnValue = "";
  dialog.onclose = () => {
    confirming = null;
    if (dialog.returnValue === "cancel") control("cancel", job);
  };
  dialog.showModal();
}

function confirmWords(job) {
  $("confirm-title").textContent = `Cancel “${job.label || job.id}”?`;
  $("confirm-text").textContent = job.cancelLoses;
}

async function control(verb, job) {
  const { status, data } = await api(`/api/jobs/${verb}`, { job: job.id });
  const name = job.label || job.id;
  const done = { pause: "paused", resume: "resumed", cancel: "asked to stop" }[verb];
  $("control-result").textContent = status === 200 ? `${name}: ${done}` : `${name}: ${(data.error && data.error.message) || `refused (${status})`}`;
}

// MARK: History

function showHistory(history) {
  $("history").replaceChildren(...history.names.map((entry) => {
    const figure = el("figure", {});
    figure.append(el("figcaption", {}, entry.name));
    const runs = entry.runs || [];
    const longest = Math.max(1, ...runs.map((r) => r.seconds), entry.learned || 0);
    const svg = el("svg:svg", { viewBox: "0 0 200 60", preserveAspectRatio: "none", "aria-hidden": "true" });
    const width = 200 / Math.max(runs.length, 10);
    runs.forEach((run, i) => {
      const height = Math.max(2, (run.seconds / longest) * 56);
      const colour = run.outcome === "succeeded" ? "var(--good)" : run.outcome === "failed" ? "var(--bad)" : "var(--warn)";
      svg.append(el("svg:rect", { x: (i * width + 1).toFixed(1), y: (60 - height).toFixed(1), width: Math.max(1, width - 2).toFixed(1), height: height.toFixed(1), fill: colour }));
    });
    if (entry.learned) {
      const y = (60 - (entry.learned / longest) * 56).toFixed(1);
      svg.append(el("svg:line", { x1: 0, x2: 200, y1: y, y2: y, stroke: "var(--accent)", "stroke-dasharray": "4 3" }));
    }
    figure.append(svg);
    const last = runs[runs.length - 1];
    const words = runs.map((r) => `${duration(r.seconds)} ${r.outcome}`).join(", ");
    figure.append(el("p", { class: "facts" }, `${runs.length} ${runs.length === 1 ? "run" : "runs"}${last ? `, last ${last.outcome} in ${duration(last.seconds)}` : ""}${entry.learned ? `; learned ${duration(entry.learned)}` : ""}`));
    figure.append(el("p", { class: "visually-hidden" }, `Runs, oldest first: ${words}.`));
    return figure;
  }));
}

start();
