// The page's script. Every text from the service (labels, ids, names, reasons) goes into the
// page as text (textContent, setAttribute), never as markup: `<img src=x onerror=…>` shows as
// those characters.
"use strict";
const $ = (id) => document.getElementById(id);
const svgNS = "http://www.w3.org/2000/svg";
let csrf = null;
let events = null;
const outputs = new Map();

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

function listen() {
  if (events) events.close();
  events = new EventSource("/api/events");
  events.onopen = () => { $("connection").textContent = "live"; };
  events.onerror = () => { $("connection").textContent = "reconnecting…"; };
  events.addEventListener("jobs", (e) => showJobs(JSON.parse(e.data)));
  events.addEventListener("output", (e) => showOutput(JSON.parse(e.data)));
  events.addEventListener("history", (e) => showHistory(JSON.parse(e.data)));
  events.addEventListener("about", (e) => {
    const about = JSON.parse(e.data);
    $("configuration").textContent = about.configuration;
    $("doctor").textContent = about.doctor;
  });
  events.addEventListener("full", () => {
    events.close();
    $("connection").textContent = "too many pages open; reload to try again";
  });
}

// MARK: Outputs

function bytesOf(base64) {
  const text = atob(base64 || "");
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
}

// LED drive levels are light (a duty cycle); a screen shows sRGB.
function srgb(level) { return Math.round(255 * Math.pow(level / 255, 1 / 2.2)); }

function showOutput(output) {
  let card = outputs.get(output.name);
  if (!card) {
    const figure = el("figure", { class: "output" });
    figure.append(el("h3", {}, output.name));
    card = { figure, kind: null };
    outputs.set(output.name, card);
    $("outputs").append(figure);  // in the configuration's order: the order they are first sent
  }
  if (card.kind !== output.kind + (output.count || "") + (output.width || "")) {
    card.kind = output.kind + (output.count || "") + (output.width || "");
    card.figure.querySelectorAll("canvas, svg, .desc, .failure").forEach((n) => n.remove());
    if (output.kind === "picture") {
      card.picture = el("canvas", { width: output.width, height: output.height, role: "img", "data-output": output.name });
      card.figure.append(card.picture);
    } else if (output.kind === "segments") {
      card.picture = segmentPicture(output);
      card.figure.append(card.picture);
    } else {
      card.picture = ledPicture(output);
      card.figure.append(card.picture);
    }
    card.desc = el("figcaption", { class: "desc" });
    card.failure = el("p", { class: "failure", role: "alert" });
    card.figure.append(card.desc, card.failure);
  }
  card.picture.setAttribute("aria-label", `${output.name}: ${output.text}`);
  card.picture.dataset.version = output.version;
  card.desc.textContent = output.text;
  card.failure.textContent = output.failure ? `not reaching the hardware: ${output.failure}` : "";
  if (output.kind === "picture") drawPicture(card.picture, output);
  else if (output.kind === "segments") drawSegments(card.picture, output);
  else drawLEDs(card.picture, output);
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
    const pitch = 20;
    svg.setAttribute("viewBox", `0 0 ${count * pitch} ${pitch}`);
    for (let i = 0; i < count; i++) svg.append(el("svg:circle", { cx: i * pitch + pitch / 2, cy: pitch / 2, r: pitch * 0.38, fill: "#000", stroke: "#333" }));
  }
  return svg;
}

function drawLEDs(svg, output) {
  const dots = svg.querySelectorAll("circle");
  if (output.kind === "lights") {
    (output.on || []).forEach((on, i) => { if (dots[i]) dots[i].setAttribute("fill", on ? "#ff3b30" : "#000"); });
    return;
  }
  const bytes = bytesOf(output.data);
  dots.forEach((dot, i) => {
    const r = bytes[3 * i] || 0, g = bytes[3 * i + 1] || 0, b = bytes[3 * i + 2] || 0;
    dot.setAttribute("fill", `rgb(${srgb(r)}, ${srgb(g)}, ${srgb(b)})`);
  });
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
// on top) or 4-bit rows (two pixels a byte, the left one in the low nibble), drawn 1:1 and scaled
// by the browser without smoothing.
function drawPicture(canvas, output) {
  const w = output.width, h = output.height;
  const context = canvas.getContext("2d");
  const image = context.createImageData(w, h);
  const bytes = bytesOf(output.data);
  const lit = output.lit !== false;
  const light = [0x9f, 0xd8, 0xff];
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      let level = 0;
      const o = 4 * (y * w + x);
      if (output.format === "rgb565" || output.format === "rgb666" || output.format === "rgb8") {
        // Colour as the glass takes it: RGB565 big-endian, RGB666 and the LEDs' levels a byte a channel.
        let r = 0, g = 0, b = 0;
        if (output.format === "rgb565") {
          const v = ((bytes[2 * (y * w + x)] || 0) << 8) | (bytes[2 * (y * w + x) + 1] || 0);
          r = Math.round(((v >> 11) & 31) * 255 / 31); g = Math.round(((v >> 5) & 63) * 255 / 63); b = Math.round((v & 31) * 255 / 31);
        } else {
          const i = 3 * (y * w + x);
          r = bytes[i] || 0; g = bytes[i + 1] || 0; b = bytes[i + 2] || 0;
          if (output.format === "rgb8") { r = srgb(r); g = srgb(g); b = srgb(b); }
        }
        if (!lit) r = g = b = 0;
        image.data[o] = r; image.data[o + 1] = g; image.data[o + 2] = b; image.data[o + 3] = 255;
        continue;
      }
      if (output.format === "grey4") {
        const byte = bytes[y * Math.ceil(w / 2) + (x >> 1)] || 0;
        level = (x & 1 ? byte >> 4 : byte & 15) / 15;
      } else {
        level = ((bytes[(y >> 3) * w + x] || 0) >> (y & 7)) & 1;
      }
      if (!lit) level = 0;
      image.data[o] = Math.round(light[0] * level);
      image.data[o + 1] = Math.round(light[1] * level);
      image.data[o + 2] = Math.round(light[2] * level);
      image.data[o + 3] = 255;
    }
  }
  context.putImageData(image, 0, 0);
}

// MARK: Jobs

const jobNodes = new Map();

// Each job keeps its element from update to update (focus and a half-done click stay put); only
// its texts change, and its buttons when what they can do changes.
function showJobs(state) {
  const seen = new Set();
  const items = state.jobs.map((job) => {
    seen.add(job.id);
    let node = jobNodes.get(job.id);
    if (!node) {
      node = makeJob(job);
      jobNodes.set(job.id, node);
    }
    updateJob(node, job);
    return node.item;
  });
  for (const id of [...jobNodes.keys()]) if (!seen.has(id)) jobNodes.delete(id);
  const list = $("jobs");
  if (list.children.length !== items.length || items.some((item, i) => list.children[i] !== item)) list.replaceChildren(...items);
  $("no-jobs").hidden = state.jobs.length > 0;
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
  node.facts = el("p", { class: "facts" });
  node.buttons = el("div", { class: "buttons" });
  node.item.append(top, node.progress, node.facts, node.buttons);
  return node;
}

function updateJob(node, job) {
  node.job = job;
  const name = job.label || job.id;
  node.label.textContent = name;
  node.phase.textContent = job.phase;
  node.phase.className = `phase ${job.phase}`;
  const facts = [];
  if (job.countdown) {
    // A countdown reads in time, and its bar empties as the time goes.
    const left = `${duration(job.value)} left of ${duration(job.total)}`;
    node.progress.hidden = false;
    node.progress.max = job.total;
    node.progress.value = job.value;
    node.progress.setAttribute("aria-label", `${name}: ${left}`);
    facts.push(left);
  } else {
    node.progress.hidden = job.percent === undefined;
    node.progress.max = 100;
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

function confirmCancel(job) {
  const dialog = $("confirm");
  $("confirm-title").textContent = `Cancel “${job.label || job.id}”?`;
  $("confirm-text").textContent = job.cancelLoses;
  dialog.returnValue = "";
  dialog.onclose = () => { if (dialog.returnValue === "cancel") control("cancel", job); };
  dialog.showModal();
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
    figure.append(el("p", { class: "facts" }, `${runs.length} runs${last ? `, last ${last.outcome} in ${duration(last.seconds)}` : ""}${entry.learned ? `; learned ${duration(entry.learned)}` : ""}`));
    figure.append(el("p", { class: "visually-hidden" }, `Runs, oldest first: ${words}.`));
    return figure;
  }));
}

start();
