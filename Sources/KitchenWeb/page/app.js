const $ = (id) => document.getElementById(id);
const page = { csrf: null, timers: [], rows: new Map(), ended: new Map(), doneEgg: false, retry: 1000,
  source: null, linkSaid: false, replaced: false };
const sound = { context: null, buffer: null, node: null, wanted: false };

// A node name or label as a path segment: as the MQTT topics escape it, and what a path cannot hold.
function segment(name) {
  let out = "";
  for (const ch of name) {
    out += /^[A-Za-z0-9\-._~:@!$&'()*,;=]$/.test(ch) ? ch : encodeURIComponent(ch).replace(/[!'()*]/g,
      (c) => "%" + c.charCodeAt(0).toString(16).toUpperCase());
  }
  return out;
}
function actionPath(timer, action) {
  return "/api/timers/" + segment(timer.node) + "/" + segment(timer.label) + "/" + action;
}
function clock(seconds) {
  const total = Math.max(0, Math.ceil(seconds));
  const h = Math.floor(total / 3600), m = Math.floor(total / 60) % 60, s = total % 60;
  const two = (v) => (v < 10 ? "0" : "") + v;
  return h > 0 ? h + ":" + two(m) + ":" + two(s) : m + ":" + two(s);
}
function keyOf(timer) { return timer.node + "\u0000" + timer.label; }
// The message line; `link` marks the stream's own news, which its next picture clears (an
// answer's message, such as what STOP stopped, stays until the next answer).
function say(text, link) {
  const line = $("message") || $("pair-message");
  if (!line) return;
  line.textContent = text || "";
  line.hidden = !text;
  page.linkSaid = Boolean(text && link);
}

async function api(method, path, body, key) {
  const headers = { "Accept": "application/json" };
  if (method === "POST") {
    headers["Content-Type"] = "application/json";
    if (page.csrf) headers["X-CSRF-Token"] = page.csrf;
  }
  if (key) headers["Idempotency-Key"] = key;
  const response = await fetch(path, { method, headers, credentials: "same-origin", cache: "no-store",
    body: body === undefined ? undefined : JSON.stringify(body) });
  let data = {};
  try { data = await response.json(); } catch (error) { data = {}; }
  return { status: response.status, data: data || {} };
}

// Seconds left of a timer at this moment: from its deadline while it counts down (counting, or
// snoozed: until it rings again), else as it said.
function ticks(timer) { return timer.state === "counting" || timer.state === "snoozed"; }
function left(timer) {
  if (ticks(timer) && timer.ends !== null) return Math.max(0, (timer.ends - Date.now()) / 1000);
  return timer.remaining_s || 0;
}
function arrived(timer) {
  const parsed = timer.deadline ? Date.parse(timer.deadline) : NaN;
  timer.ends = Number.isNaN(parsed) ? (timer.remaining_s !== null ? Date.now() + timer.remaining_s * 1000 : null)
    : parsed;
  return timer;
}

function field(row, name) { return row.querySelector('[data-field="' + name + '"]'); }
function newRow() { return $("timer-row").content.firstElementChild.cloneNode(true); }
function fill(row, timer) {
  const ringing = RINGING.includes(timer.state);
  row.dataset.state = timer.state;
  row.dataset.kind = timer.kind || "";
  row.dataset.node = timer.node;
  row.dataset.label = timer.label;
  row.classList.toggle("ringing", ringing);
  field(row, "label").textContent = timer.label;
  const node = field(row, "node");
  node.textContent = timer.node;
  node.hidden = timer.local !== false;
  field(row, "state").textContent = timer.state;
  const tomato = field(row, "tomato");
  tomato.hidden = timer.kind !== "pomodoro";
  tomato.classList.toggle("spin", timer.kind === "pomodoro" && timer.state === "counting");
  field(row, "when").hidden = timer.state !== "snoozed";
  const phase = field(row, "phase");
  phase.textContent = timer.phase || "";
  phase.hidden = !timer.phase;
  const warning = field(row, "warning");
  warning.textContent = timer.state === "silent" ? "Ringing with no sound: the alarm reaches no device."
    : timer.device === "down" ? "The alarm's sound device is down." : "";
  warning.hidden = !warning.textContent;
  const offered = ACTIONS[timer.state] || [];
  for (const button of row.querySelectorAll("button[data-action]")) {
    button.hidden = !offered.includes(button.dataset.action);
    button.formAction = actionPath(timer, button.dataset.action);
  }
  tickRow(row, timer);
}
function tickRow(row, timer) {
  const seconds = left(timer);
  field(row, "left").textContent = FINAL.includes(timer.state) ? "" : clock(seconds);
  const progress = field(row, "progress");
  const total = timer.duration_s || 0;
  progress.max = total > 0 ? total : 1;
  progress.value = total > 0 ? Math.min(total, Math.max(0, total - seconds)) : 0;
}
function tick() {
  for (const timer of page.timers) {
    const row = page.rows.get(keyOf(timer));
    if (row && ticks(timer)) tickRow(row, timer);
  }
}

function titleFor(timers) {
  const eggs = timers.filter((t) => t.preset);
  const on = eggs.find((t) => !FINAL.includes(t.state));
  if (on) return TITLES.counting[0] + on.preset + TITLES.counting[1];
  return page.doneEgg || eggs.some((t) => t.state === "done") ? TITLES.done : TITLES.menu;
}

// A timer that ended (done, cancelled, missed) stays on the page until it starts again or
// six newer ones ended: the kitchen forgets a timer soon after it ends, the phone should not.
function remember(timer) {
  const key = keyOf(timer);
  page.ended.delete(key);
  if (FINAL.includes(timer.state)) page.ended.set(key, timer);
  while (page.ended.size > 6) page.ended.delete(page.ended.keys().next().value);
}

// The cards the server drew (the page as it works without JavaScript) become the script's own,
// one per timer, which each picture then fills: none stays frozen beside a card of the script.
function adopt() {
  for (const row of $("timers").querySelectorAll("li.timer")) {
    const key = keyOf(row.dataset);
    if (page.rows.has(key)) row.remove(); else page.rows.set(key, row);
  }
}

// The whole picture: rows kept by timer, the title, the ringing screen, the alarm.
function render(timers) {
  for (const timer of timers) {
    if (timer.preset && !FINAL.includes(timer.state)) page.doneEgg = false;
    if (timer.preset && timer.state === "done") page.doneEgg = true;
    remember(timer);
  }
  const live = timers.filter((t) => !FINAL.includes(t.state));
  const running = new Set(live.map(keyOf));
  const shown = live.concat([...page.ended.values()].filter((t) => !running.has(keyOf(t))));
  page.timers = shown;
  const list = $("timers");
  const keep = new Set();
  for (const timer of shown) {
    const key = keyOf(timer);
    keep.add(key);
    let row = page.rows.get(key);
    if (!row) { row = newRow(); page.rows.set(key, row); }
    fill(row, timer);
    list.appendChild(row);
  }
  for (const [key, row] of page.rows) if (!keep.has(key)) { row.remove(); page.rows.delete(key); }
  $("none").hidden = shown.length > 0;
  $("title").textContent = titleFor(shown);
  const ringing = shown.filter((t) => RINGING.includes(t.state));
  $("ringing").hidden = ringing.length === 0;
  $("ring-names").textContent = ringing.map((t) => t.label).join(", ");
  $("ring-verb").textContent = ringing.length > 1 ? "are ringing" : "is ringing";
  $("ring-warning").hidden = !ringing.some((t) => t.state === "silent" || t.device === "down");
  $("ring-form").action = ringing.length === 1 ? actionPath(ringing[0], "ack") : "/api/ack-all";
  $("snooze").formAction = ringing.length > 0 ? actionPath(ringing[0], "snooze") : "/api/ack-all";
  document.body.classList.toggle("ringing-now", ringing.length > 0);
  alarm(ringing.length > 0);
}
// A timer an action answered with: kept as it said until the stream tells more.
function answered(timer) {
  if (!timer || typeof timer.label !== "string" || typeof timer.state !== "string") return;
  arrived(timer);
  const others = page.timers.filter((t) => keyOf(t) !== keyOf(timer) && !FINAL.includes(t.state));
  render(others.concat([timer]));
}

function connect() {
  const source = new EventSource("/api/events");
  page.source = source;
  source.addEventListener("timers", (event) => {
    let picture;
    try { picture = JSON.parse(event.data); } catch (error) { return; }
    page.retry = 1000;
    if (page.linkSaid) say("");
    document.body.dataset.live = "yes";
    render((picture.timers || []).map(arrived));
  });
  // A newer stream of this session (this page opened again, another tab) took this one's place:
  // wait to be shown again rather than take it back at once, which two tabs would do in turn.
  source.addEventListener("replaced", () => {
    source.close();
    document.body.dataset.live = "no";
    page.replaced = true;
    say("This page is open elsewhere too; it follows the kitchen again when shown.", true);
  });
  source.onerror = () => {
    document.body.dataset.live = "no";
    if (source.readyState !== EventSource.CLOSED) { say("Reconnecting to the kitchen…", true); return; }
    source.close();
    say("The kitchen does not answer; trying again.", true);
    setTimeout(reconnect, page.retry);
    page.retry = Math.min(page.retry * 2, 30000);
  };
}
function shown() {
  if (!page.replaced || document.visibilityState !== "visible") return;
  page.replaced = false;
  reconnect();
}
async function reconnect() {
  try {
    const session = await api("GET", "/api/session");
    if (session.data.paired === false) { location.replace("/"); return; }
    if (session.data.csrf) page.csrf = session.data.csrf;
  } catch (error) { /* down: the stream's own retry tells */ }
  connect();
}

// The phone's alarm: Web Audio, looping while something rings. The context is made when the
// kitchen's page opens; a browser keeps it suspended (silent) until a tap or a key allows it,
// which the page says (#sound-locked) for as long as it is not running.
function prepareSound() {
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) {
    $("sound-words").textContent = "This browser cannot play the alarm: this phone stays silent when a timer rings.";
    $("unlock-sound").hidden = true;
    $("sound-locked").hidden = false;
    document.body.dataset.audio = "unavailable";
    return;
  }
  sound.context = new Context();
  sound.context.addEventListener("statechange", soundState);
  fetch("/alarm.mp3", { credentials: "same-origin" })
    .then((response) => { if (!response.ok) throw new Error("alarm " + response.status); return response.arrayBuffer(); })
    .then((bytes) => sound.context.decodeAudioData(bytes))
    .then((buffer) => { sound.buffer = buffer; alarm(sound.wanted); })
    .catch(() => { document.body.dataset.audio = "unavailable"; });
  soundState();
  alarm(sound.wanted);
}
// A tap or a key (inside its handler, as browsers want): resume the context and play a silent
// sample, which is what unlocks output where resuming alone does not (WebKit on iOS).
function unlock() {
  if (!sound.context || sound.context.state === "running") return;
  sound.context.resume().then(soundState, soundState);
  const silence = sound.context.createBufferSource();
  silence.buffer = sound.context.createBuffer(1, 1, sound.context.sampleRate);
  silence.connect(sound.context.destination);
  silence.start();
}
// Whether the phone can ring now: the notice shown while the context is not running (before the
// first tap, or suspended again by the phone), gone once it runs.
function soundState() {
  const running = sound.context.state === "running";
  $("sound-locked").hidden = running;
  document.body.dataset.sound = running ? "unlocked" : "locked";
}
function alarm(on) {
  sound.wanted = on;
  if (on && !sound.node && sound.buffer) {
    const node = sound.context.createBufferSource();
    node.buffer = sound.buffer;
    node.loop = true;
    node.connect(sound.context.destination);
    node.start();
    sound.node = node;
  }
  if (!on && sound.node) { sound.node.stop(); sound.node.disconnect(); sound.node = null; }
  if (document.body.dataset.audio === "unavailable") return;
  document.body.dataset.audio = sound.node ? "playing" : sound.buffer ? "ready"
    : sound.context ? "loading" : "locked";
}

// A start's id (issue 42): 16 random bytes as 32 hex digits. getRandomValues works without TLS,
// where crypto.randomUUID does not.
function requestID() {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

// A start sent with its id, and sent again with the same id when no answer came (the network
// dropped it): the kitchen answers a repeat as the first, so one press is one timer.
// A request that acts once however often it is sent (a start with its Idempotency-Key; STOP and
// stop-all, which answer success on an alarm already stopped) is sent again, on a new connection,
// when the network lost it (the kitchen restarting; a connection closed for room before its
// request was read, issue 43), after 0.2, 0.4, 0.8, 1.6, 2, 2... s, for at most 10 s.
async function sentOnce(path, body, key) {
  const until = Date.now() + 10000;
  for (let wait = 200; ; wait = Math.min(2 * wait, 2000)) {
    try {
      return await api("POST", path, body, key);
    } catch (error) {
      if (Date.now() + wait > until) throw error;
      say("The kitchen did not answer: trying again.");
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
}

// Every form, sent as JSON with the CSRF header; the answer shown, the picture updated.
async function submitted(event) {
  const form = event.target;
  if (!(form instanceof HTMLFormElement)) return;
  event.preventDefault();
  const button = event.submitter;
  const target = button && button.hasAttribute("formaction") ? button.formAction : form.action;
  const path = new URL(target).pathname;
  const body = {};
  const fields = [...new FormData(form)];
  if (button && button.name) fields.push([button.name, button.value]);
  for (const [name, value] of fields) {
    // The form's own id is for a browser without JavaScript; here each press makes its own.
    if (name === "csrf" || name === "id" || value === "") continue;
    body[name] = name === "seconds" ? Number(value) : String(value);
  }
  if (path === "/api/pair") return pair(body);
  if (path.endsWith("/ack") || path === "/api/ack-all") alarm(false);
  if (button) button.disabled = true;
  try {
    const once = path === "/api/timers" || path.endsWith("/ack") || path === "/api/ack-all";
    const answer = once ? await sentOnce(path, body, path === "/api/timers" ? requestID() : undefined)
      : await api("POST", path, body);
    if (answer.status === 401) { location.replace("/"); return; }
    if (path === "/api/unpair") { location.replace("/"); return; }
    if (answer.status >= 400) { say(answer.data.error || "The kitchen said " + answer.status + "."); return; }
    // An acknowledgement names what it stopped and which never reached a speaker (issue 37).
    say(typeof answer.data.message === "string" ? answer.data.message : "");
    if (form.id === "custom") { $("start").value = ""; $("label").value = ""; }
    if (path.endsWith("/ack") && answer.data.preset) page.doneEgg = true;
    answered(answer.data);
  } catch (error) {
    say("The kitchen does not answer.");
  } finally {
    if (button) button.disabled = false;
  }
}
async function pair(body) {
  try {
    const answer = await api("POST", "/api/pair", body);
    if (answer.status === 200 && answer.data.paired) { location.replace("/"); return; }
    say(answer.data.error || "The kitchen said " + answer.status + ".");
  } catch (error) {
    say("The kitchen does not answer.");
  }
}

// The other screen, from the server: once, not again within 10 s (no loop if the two disagree).
function reload() {
  const last = Number(sessionStorage.getItem("eggtimer-reload") || 0);
  if (Date.now() - last < 10000) { say("The kitchen's page and its session disagree: reload later."); return; }
  sessionStorage.setItem("eggtimer-reload", String(Date.now()));
  location.replace("/");
}

async function start() {
  document.body.classList.add("js");
  document.addEventListener("submit", submitted);
  document.addEventListener("click", unlock, true);
  document.addEventListener("keydown", unlock, true);
  document.addEventListener("touchend", unlock, true);
  let session;
  try { session = await api("GET", "/api/session"); } catch (error) { say("The kitchen does not answer."); return; }
  const paired = session.data.paired === true;
  if (paired !== Boolean($("kitchen"))) { reload(); return; }
  if (!paired) { $("code").focus(); return; }
  page.csrf = session.data.csrf || null;
  adopt();
  prepareSound();
  document.addEventListener("visibilitychange", shown);
  window.addEventListener("focus", shown);
  connect();
  setInterval(tick, 250);
}
start();
