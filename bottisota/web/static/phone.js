// A seat's page: draws what the server sends and sends what the player asks.
// No rules here: every verdict, path, cost and chance comes from the server.
// Every control is drawn again from the latest messages (state, plan, pre-measure),
// never left as the last tap made it (renderAll after each message).
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  // the page's words in this phone's language (the server puts the catalogue in the page)
  const WORDS = JSON.parse(($("i18n") || {}).textContent || "{}");
  function tx(text, vars) {
    const s = WORDS[text] || text;
    return vars ? s.replace(/\{(\w+)\}/g, (m, k) => (k in vars ? String(vars[k]) : m)) : s;
  }
  const LANG = document.documentElement.lang || "en";
  const token = location.pathname.split("/").filter(Boolean).pop();
  const PLAYER = { red: "#d55e00", vermillion: "#d55e00", blue: "#0072b2", orange: "#e69f00",
    sky: "#56b4e9", green: "#009e73", purple: "#cc79a7", yellow: "#f0e442" };
  const SEAT_ORDER = ["#d55e00", "#0072b2", "#e69f00", "#56b4e9", "#009e73", "#cc79a7", "#f0e442"];
  const FILL = { wall: "#b8b8c0", door: "#b07834", platform: "#3a4660", stairs: "#5c6e96",
    ramp: "#548068", escalator: "#78609c", lift: "#3896aa", pit: "#000000", conveyor: "#4e4e5a",
    service: "#28a85c", teleporter: "#9646d2", goal: "#f0e442" };
  const CLEAR = "#78e678", BLOCKED = "#ff2060", ARC = "#969696", RANGE = "#ffaa3c";
  const PING_MS = 1000;        // a ping this often while connected
  const STALE_MS = 3500;       // nothing heard for this long: the page says so (within 5 s)
  const LABEL_PX = 14;         // the smallest label drawn on the map
  const BOT_MIN_PX = 9;        // a bot is drawn at least this wide in radius (a finger's target)
  const TITLE = document.title;

  const S = {            // everything the page knows
    hello: null, table: null, state: null, shown: [], seat: null,
    selected: null, measureReq: null, premeasure: null, plan: null, planned: null,
    tail: null, placeAt: null, placeFacing: 0, showOn: false, dice: [], pendingCommit: null,
    view: null, ready: false, replies: 0, feed: [], notes: [], ask: null,
    offline: true, why: null, heard: 0, tabs: new Map(), myTurn: false,
    sound: localStorage.getItem("bottisota-sound") === "on", latencies: [], labels: [],
  };
  window.bottisota = S;   // read by the browser tests, the bench and for debugging
  let ws = null, nextId = 1, retry = 500, planInFlight = false, planDirty = false, refused = false;
  let tapAt = null, tappedId = null, wakeLock = null;

  // ---------------------------------------------------------------- connection
  function connect() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    ws = new WebSocket(`${proto}//${location.host}/ws/${token}?lang=${encodeURIComponent(LANG)}`);
    ws.onopen = () => { retry = 500; S.heard = performance.now(); };
    ws.onmessage = (ev) => { let m; try { m = JSON.parse(ev.data); } catch (e) { return; }
      S.heard = performance.now(); receive(m); };
    ws.onclose = (ev) => {
      if (ev.code === 4403 || ev.code === 1008) { refused = true; health(); return; }
      health(); setTimeout(connect, retry); retry = Math.min(4000, retry * 2);
    };
  }
  function send(m) {
    if (!ws || ws.readyState !== 1 || (S.offline && m.type !== "ping")) return false;
    m.id = nextId++; ws.send(JSON.stringify(m)); return true;
  }
  // honest connection state: closed, or silent for STALE_MS (pings go out every PING_MS)
  function health() {
    let why = null;
    if (refused) why = tx("this seat's link is not valid");
    else if (!ws || ws.readyState !== 1) why = tx("connection lost: reconnecting…");
    else if (performance.now() - S.heard > STALE_MS)
      why = tx("no answer from the referee for {seconds} s: controls are off", { seconds: Math.round((performance.now() - S.heard) / 1000) });
    const was = S.offline; S.offline = !!why || !S.ready; S.why = why;
    const b = $("banner"); b.hidden = !why; b.textContent = why || "";
    if (was !== S.offline) renderAll(); else disableAll();
  }
  setInterval(() => { if (ws && ws.readyState === 1) send({ type: "ping" }); health(); tabsTick(); }, PING_MS);
  function disableAll() {
    document.body.classList.toggle("offline", S.offline);
    document.querySelectorAll("#panel button, #prompt button, #zoom button").forEach((b) => {
      if (S.offline && !b.disabled) { b.disabled = true; b.dataset.off = "1"; }
      else if (!S.offline && b.dataset.off) { b.disabled = false; delete b.dataset.off; }
    });
  }

  function receive(m) {
    S.replies += 1;
    switch (m.type) {
      case "hello": onHello(m); break;
      case "state": S.state = m.state; S.shown = m.shown || []; onState(); break;
      case "premeasure": S.premeasure = m.premeasure; break;
      case "plan": planInFlight = false; S.planned = m.plan;
        if (planDirty) { planDirty = false; sendPlan(); } break;
      case "shown": S.showOn = m.on; break;
      case "done": S.pendingCommit = null; S.dice = []; $("dice").hidden = true;
        S.plan = null; S.planned = null; S.tail = null; S.placeAt = null; S.placeFacing = 0;
        if (S.hello && !("log" in S.hello)) feed((m.events || []).map((text) => ({ text })));
        break;
      case "events": feed(m.lines || []); break;
      case "desk": if (!planInFlight) takeDesk(m.desk || {}, true); break;   // another screen of this seat changed it
      case "screens": S.others = m.others || 0; renderTabs(); break;
      case "asking": S.pendingCommit = null; S.plan = null; S.planned = null; S.tail = null;   // the watchers answer first
        note([m.text], false); break;
      case "answered": S.ask = null; break;
      case "overwatch_ask": S.ask = { ...m, until: performance.now() + (m.seconds || 0) * 1000 }; alertTurn(); break;
      case "refused": S.pendingCommit = null; S.dice = []; $("dice").hidden = true;
        note([m.refusal.text, ...(m.refusal.rules || []).map((r) => r.rule + " — " + r.text)], true); break;
      case "dice": askDie(m.need); break;
      case "error": planInFlight = false; note([m.message], true); break;
      default: break;
    }
    health();
    if (m.type !== "pong") { renderAll(); share(m.type); }
    if (m.type === "plan" && tapAt !== null && m.re === tappedId) {    // tap -> painted update
      const t0 = tapAt; tapAt = null;
      requestAnimationFrame(() => S.latencies.push(performance.now() - t0));
    }
  }

  function onHello(m) {
    S.hello = m; S.table = m.table; S.state = m.state; S.shown = m.shown || []; S.seat = m.seat;
    const seat = $("seat"); seat.textContent = m.table_seat ? tx("table") : m.seat;
    seat.style.background = m.table_seat ? "#444" : colourOf(m.seat);
    // the server's desk wins; a server that restarted (--resume) has none: the page
    // asks again for what it was showing
    const d = m.desk || {};
    planInFlight = false; planDirty = false;
    takeDesk(d, false);
    if (m.log) { S.feed = []; feed(m.log); }
    S.ready = true; S.offline = false;
    if (!S.view) fit();
    if (S.measureReq && !d.measure) resendMeasure();
    if (S.plan && !d.planned) sendPlan();
    onState();
  }

  // The server's desk of this seat. On hello a desk the server lacks (it restarted) keeps
  // this page's own request, asked again; from another screen of the seat it replaces it.
  function takeDesk(d, replace) {
    S.selected = d.selected || (replace ? null : S.selected); S.showOn = !!d.shown;
    if (d.measure) { S.measureReq = d.measure; S.premeasure = d.premeasure; }
    else { S.premeasure = null; if (replace) S.measureReq = null; }
    if (d.plan) { S.plan = { bot: d.plan.bot, steps: d.plan.steps.slice() }; S.planned = d.planned; }
    else { S.planned = null; if (replace) S.plan = null; }
  }

  function onState() {
    const b = selectedBot();
    if (S.selected && !b && !placingMine()) { S.selected = null; S.premeasure = null; S.measureReq = null; }
    const s = S.state, mineNow = !!(s && !s.over && !S.hello.table_seat && s.turn === S.seat);
    if (mineNow && !S.myTurn) alertTurn();       // the turn just came to this seat
    const key = s ? `${s.round}/${s.active}/${s.phase}` : null;
    if (mineNow && key !== S.turnKey) {          // a new step of this seat's turn: its bot
      const a = s.active && botById(s.active);
      if (a && mine(a) && S.selected !== a.id) select(a.id);
    }
    S.myTurn = mineNow; S.turnKey = key;
    document.title = (mineNow ? "● " + tx("your turn") + " · " : "") + TITLE;
    keepAwake();
  }

  // ---------------------------------------------------------------- your turn
  function alertTurn() {
    if (navigator.vibrate) { try { navigator.vibrate([120, 80, 120]); } catch (e) { /* not allowed */ } }
    if (S.sound) beep();
  }
  let audio = null;
  function beep() {
    try {
      audio = audio || new (window.AudioContext || window.webkitAudioContext)();
      const o = audio.createOscillator(), g = audio.createGain(); o.frequency.value = 880;
      g.gain.setValueAtTime(0.2, audio.currentTime); g.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.3);
      o.connect(g); g.connect(audio.destination); o.start(); o.stop(audio.currentTime + 0.3);
    } catch (e) { /* no sound on this browser */ }
  }
  async function keepAwake() {      // the screen stays on while the game runs
    const want = !!(S.state && !S.state.over) && document.visibilityState === "visible";
    try {
      if (want && !wakeLock && navigator.wakeLock) { wakeLock = await navigator.wakeLock.request("screen"); wakeLock.addEventListener("release", () => { wakeLock = null; }); }
      else if (!want && wakeLock) { await wakeLock.release(); wakeLock = null; }
    } catch (e) { wakeLock = null; }
  }
  document.addEventListener("visibilitychange", keepAwake);

  // ---------------------------------------------------------------- a second tab on this seat
  // Tabs of one seat in one browser tell each other they are there and share what they
  // select, measure and plan, so both show the same desk.
  const tabId = Math.random().toString(36).slice(2);
  const channel = window.BroadcastChannel ? new BroadcastChannel("bottisota-" + token) : null;
  let sharing = false;
  function share(why) {
    if (!channel || sharing || !["plan", "premeasure", "shown", "done", "asking", "cleared", "selected"].includes(why)) return;
    channel.postMessage({ tab: tabId, kind: "desk", desk: { selected: S.selected, measureReq: S.measureReq, premeasure: S.premeasure,
      plan: S.plan, planned: S.planned, showOn: S.showOn } });
  }
  function tabsTick() {
    if (!channel) return; channel.postMessage({ tab: tabId, kind: "here" });
    const now = performance.now(), n = S.tabs.size; S.tabs.forEach((t, id) => { if (now - t > 3 * PING_MS + 500) S.tabs.delete(id); });
    if (S.tabs.size !== n) renderTabs();
  }
  if (channel) channel.onmessage = (ev) => {
    const m = ev.data; if (!m || m.tab === tabId) return;
    const isNew = !S.tabs.has(m.tab); S.tabs.set(m.tab, performance.now());
    if (isNew) { renderTabs(); channel.postMessage({ tab: tabId, kind: "here" }); share("selected"); }
    if (m.kind === "desk") {
      const d = m.desk; sharing = true;
      Object.assign(S, { selected: d.selected, measureReq: d.measureReq, premeasure: d.premeasure, plan: d.plan, planned: d.planned, showOn: d.showOn });
      renderAll(); sharing = false;
    }
  };
  function renderTabs() {
    // the server counts every screen of the seat; the browser's channel only its own tabs
    const n = Math.max(S.tabs.size, S.others || 0), box = $("tabs"); box.hidden = !n;
    box.textContent = n ? tx("this seat is open on {count} other screen(s) too: phones or tabs, they show the same", { count: n }) : "";
  }

  // ---------------------------------------------------------------- helpers
  function colourOf(player) {
    if (PLAYER[player]) return PLAYER[player];
    const i = S.state ? S.state.players.indexOf(player) : 0;
    return SEAT_ORDER[(i < 0 ? 0 : i) % SEAT_ORDER.length];
  }
  function botById(id) { return S.state ? S.state.bots.find((b) => b.id === id) : null; }
  function selectedBot() { return S.selected ? botById(S.selected) : null; }
  function mine(b) { return b && S.hello && (S.hello.table_seat || b.player === S.seat); }
  function myTurn() { return S.state && !S.state.over && (S.hello.table_seat || S.state.turn === S.seat); }
  function canAct() { return S.hello && S.hello.can_commit && myTurn() && !S.state.waiting; }
  function placingMine() { return S.state && S.state.placing && canAct() ? S.state.placing : null; }
  function feed(lines) {            // the shared log: every seat's events, by number
    lines.forEach((l) => {
      if (l.seq == null) {          // a server without the shared feed: this seat's own, in order
        S.feed.push({ seq: (S.feed.length ? S.feed[S.feed.length - 1].seq : 0) + 1, text: l.text, undone: false }); return; }
      const at = S.feed.findIndex((x) => x.seq === l.seq);
      if (at >= 0) S.feed[at] = l; else S.feed.push(l);
    });
    S.feed.sort((a, b) => a.seq - b.seq); S.feed = S.feed.slice(-200);
  }
  function note(lines, bad) { S.notes = lines.map((text, i) => ({ text, bad: bad ? (i ? "rule" : true) : false })); }
  function el(tag, text, cls) { const e = document.createElement(tag); if (text != null) e.textContent = text; if (cls) e.className = cls; return e; }
  function button(text, fn, cls, id) { const b = el("button", text, cls); b.type = "button"; b.onclick = fn; if (id) b.id = id; return b; }
  const PERCENT = new Intl.NumberFormat(LANG, { style: "percent", maximumFractionDigits: 0 });
  function pct(c) { return PERCENT.format(c); }   // "50%", Finnish "50 %" as the server writes it
  function fmt(v) { return (Math.round(v * 10) / 10).toString().replace(".", WORDS["."] || "."); }
  function deg(v) { return Math.round(((v % 360) + 360) % 360); }
  function same(a, b) { return JSON.stringify(a) === JSON.stringify(b); }

  // ---------------------------------------------------------------- view (world <-> screen)
  const canvas = $("table"), ctx = canvas.getContext("2d");
  function resize() {   // on every size change (the panel grows, the phone turns): drawn again
    const r = canvas.getBoundingClientRect(), dpr = window.devicePixelRatio || 1;
    const w = Math.max(1, Math.round(r.width * dpr)), h = Math.max(1, Math.round(r.height * dpr));
    if (canvas.width !== w || canvas.height !== h) { canvas.width = w; canvas.height = h; }
    if (S.table && (!S.userMoved || !S.view)) fit();
    else if (S.view && S.size) { S.view = { ...S.view, ox: S.view.ox + (r.width - S.size[0]) / 2, oy: S.view.oy + (r.height - S.size[1]) / 2 }; }
    S.size = [r.width, r.height]; draw();
  }
  function fit() {
    if (!S.table) return;
    // the map fits beside the zoom buttons, never under them: above their strip or to
    // their left, whichever draws it larger
    const r = canvas.getBoundingClientRect(), [w, h] = S.table.size, pad = 12;
    const z = $("zoom").getBoundingClientRect(), gap = 4;
    const below = Math.max(0, r.bottom - z.top + gap), beside = Math.max(0, r.right - z.left + gap);
    const fits = (width, height) => Math.max(0.5, Math.min((width - 2 * pad) / w, (height - 2 * pad) / h));
    const [areaW, areaH] = fits(r.width, r.height - below) >= fits(r.width - beside, r.height)
      ? [r.width, r.height - below] : [r.width - beside, r.height];
    const scale = fits(areaW, areaH);
    S.view = { scale, ox: areaW / 2 - (w / 2) * scale, oy: areaH / 2 + (h / 2) * scale };
    S.size = [r.width, r.height];
  }
  function zoomTo(b) {        // close on a bot: about 30 cm across the map
    const r = canvas.getBoundingClientRect(), scale = Math.min(200, Math.max(0.5, Math.min(r.width, r.height) / 30));
    S.view = { scale, ox: r.width / 2 - b.x * scale, oy: r.height / 2 + b.y * scale }; S.userMoved = true; draw();
  }
  function toScreen(x, y) { const v = S.view; return [v.ox + x * v.scale, v.oy - y * v.scale]; }
  function toWorld(px, py) { const v = S.view; return [(px - v.ox) / v.scale, (v.oy - py) / v.scale]; }
  S.screenOf = (id) => { const b = botById(id) || (S.state.placing && S.state.placing.id === id ? S.state.placing : null);
    if (!b) return null; const r = canvas.getBoundingClientRect(); const [x, y] = toScreen(b.x, b.y); return [r.left + x, r.top + y]; };
  S.screenOfPoint = (x, y) => { const r = canvas.getBoundingClientRect(); const [a, b] = toScreen(x, y); return [r.left + a, r.top + b]; };
  new ResizeObserver(resize).observe(canvas);
  window.addEventListener("resize", resize);

  // ---------------------------------------------------------------- drawing
  function draw() {
    if (!S.table || !S.view) return;
    const dpr = window.devicePixelRatio || 1, v = S.view;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.fillStyle = "#0c0d10"; ctx.fillRect(0, 0, canvas.width, canvas.height);
    const [w, h] = S.table.size, [x0, y0] = toScreen(0, h);
    ctx.fillStyle = "#22262e"; ctx.fillRect(x0, y0, w * v.scale, h * v.scale);
    grid(w, h);
    const labels = [];      // placed last, most important first, never on top of each other
    S.table.features.forEach((f) => feature(f, labels));
    if (S.state) {
      S.state.goals.forEach((g) => { ring(g.x, g.y, g.r, "#f0e442", 3); labels.push(lab(g.x, g.y, tx("goal {points}", { points: g.points }), "#f0e442", 2)); });
      S.state.mines.forEach((m) => { ring(m.x, m.y, m.r, "#e63c3c", 2); labels.push(lab(m.x, m.y, m.active ? tx("mine") : tx("mine (inactive)"), "#e63c3c", 2)); });
    }
    if (S.hello && S.hello.table_seat) S.shown.forEach((s) => { if (s.plan) drawPlan(s.plan, labels); if (s.premeasure) drawMeasure(s.premeasure, labels); });
    if (S.planned && S.plan && S.planned.bot === S.plan.bot) drawPlan(S.planned, labels);
    if (S.premeasure) drawMeasure(S.premeasure, labels);
    if (S.state) S.state.bots.forEach((b) => drawBot(b, labels));
    const p = placingMine();
    if (p && S.placeAt) { drawGhost(S.placeAt[0], S.placeAt[1], S.placeFacing, p.r, "#ffffff", true);
      labels.push(lab(S.placeAt[0], S.placeAt[1], `${p.id} ${deg(S.placeFacing)}°`, "#ffffff", 0, -(p.r * v.scale) - 16)); }
    placeLabels(labels);
  }
  function grid(w, h) {
    ctx.strokeStyle = "#30353f"; ctx.lineWidth = 1; ctx.beginPath();
    for (let x = 10; x < w; x += 10) { const [a, b] = toScreen(x, 0), [, d] = toScreen(x, h); ctx.moveTo(a, b); ctx.lineTo(a, d); }
    for (let y = 10; y < h; y += 10) { const [a, b] = toScreen(0, y), [c] = toScreen(w, y); ctx.moveTo(a, b); ctx.lineTo(c, b); }
    ctx.stroke();
  }
  function path(rings) {
    ctx.beginPath();
    rings.forEach((ring) => ring.forEach(([x, y], i) => { const [a, b] = toScreen(x, y); if (i) ctx.lineTo(a, b); else ctx.moveTo(a, b); }));
  }
  function feature(f, labels) {
    f.polygons.forEach((rings) => {
      path(rings); ctx.fillStyle = FILL[f.type] || "#555"; ctx.fill("evenodd");
      ctx.lineWidth = f.type === "pit" ? 3 : 1.5; ctx.strokeStyle = f.type === "pit" ? "#dc2828" : (f.type === "wall" ? "#f5f5fa" : "#8890a0"); ctx.stroke();
    });
    if (!f.polygons.length || f.type === "wall" || f.type === "goal") return;   // goals: from the state
    const ring = f.polygons[0][0]; let cx = 0, cy = 0; ring.forEach(([x, y]) => { cx += x; cy += y; });
    const name = f.type === "platform" && f.height != null ? `${fmt(f.height)} cm` : tx(f.type);
    labels.push(lab(cx / ring.length, cy / ring.length, name, "#dfe3ea", 3));
  }
  function ring(x, y, r, colour, width, dash, minPx) {
    const [a, b] = toScreen(x, y); ctx.beginPath(); ctx.arc(a, b, Math.max(minPx || 2, r * S.view.scale), 0, 2 * Math.PI);
    ctx.setLineDash(dash || []); ctx.lineWidth = width; ctx.strokeStyle = colour; ctx.stroke(); ctx.setLineDash([]);
  }
  // a label: where (world), its words and colour, its rank (0 first), an offset in px
  function lab(x, y, text, colour, rank, dy) { const [a, b] = toScreen(x, y); return { a, b: b + (dy || 0), text, colour, rank }; }
  function placeLabels(labels) {
    ctx.font = `600 ${LABEL_PX}px system-ui, sans-serif`; ctx.textAlign = "center"; ctx.textBaseline = "middle";
    const placed = [], H = LABEL_PX + 6;
    labels.map((l, i) => ({ ...l, i })).sort((p, q) => p.rank - q.rank || p.i - q.i).forEach((l) => {
      const w = ctx.measureText(l.text).width + 8;
      for (const [dx, dy] of [[0, 0], [0, -H], [0, H], [w / 2 + 6, 0], [-w / 2 - 6, 0], [0, -2 * H], [0, 2 * H]]) {
        const box = { x: Math.min(Math.max(2, l.a + dx - w / 2), S.size[0] - w - 2), y: l.b + dy - H / 2, w, h: H };   // never cut at the edge
        if (placed.some((o) => box.x < o.x + o.w && o.x < box.x + box.w && box.y < o.y + o.h && o.y < box.y + box.h)) continue;
        placed.push({ ...box, text: l.text, px: LABEL_PX });
        ctx.fillStyle = "rgba(0,0,0,.78)"; ctx.fillRect(box.x, box.y, w, H);
        ctx.fillStyle = l.colour; ctx.fillText(l.text, box.x + w / 2, box.y + H / 2 + 1);
        return;
      }
    });
    S.labels = placed;      // what was drawn (the tests check sizes and overlaps)
  }
  function facingLine(x, y, facing, r, colour, width) {
    const f = facing * Math.PI / 180, [a, b] = toScreen(x, y), rr = Math.max(r * S.view.scale, BOT_MIN_PX);
    ctx.beginPath(); ctx.moveTo(a, b); ctx.lineTo(a + Math.sin(f) * rr, b - Math.cos(f) * rr); ctx.lineWidth = width; ctx.strokeStyle = colour; ctx.stroke();
  }
  function drawBot(b, labels) {
    const [a, c] = toScreen(b.x, b.y), r = Math.max(BOT_MIN_PX, b.r * S.view.scale);
    if (mine(b) && !S.hello.table_seat) { ctx.beginPath(); ctx.arc(a, c, r + 7, 0, 2 * Math.PI); ctx.lineWidth = 3; ctx.strokeStyle = "#ffffff"; ctx.setLineDash([6, 4]); ctx.stroke(); ctx.setLineDash([]); }
    ctx.beginPath(); ctx.arc(a, c, r, 0, 2 * Math.PI); ctx.fillStyle = colourOf(b.player); ctx.fill();
    ctx.lineWidth = 2; ctx.strokeStyle = "#000"; ctx.stroke();
    facingLine(b.x, b.y, b.facing, b.r, "#000", 3);
    if (b.id === S.selected) ring(b.x, b.y, b.r + 1.2, "#ffffff", 3, null, r + 4);
    if (S.state.active === b.id) ring(b.x, b.y, b.r + 2, "#f0e442", 2, [4, 4], r + 9);
    const marks = (b.overwatch ? " " + tx("OW") : "") + (b.damage ? ` −${b.damage}` : "");
    labels.push(lab(b.x, b.y, b.id + marks, "#ffffff", 0, r + 14));
  }
  function drawGhost(x, y, facing, r, colour, dashed) {
    ring(x, y, r, colour, 2, dashed ? [5, 4] : null, BOT_MIN_PX); facingLine(x, y, facing, r, colour, 2);
  }
  function drawPlan(pl, labels) {
    const mv = pl.move || pl.prefix; if (!mv) { if (pl.refusal && pl.refusal.at) labels.push(lab(pl.refusal.at[0], pl.refusal.at[1], pl.refusal.rule + " ✗", BLOCKED, 1)); return; }
    const bot = botById(pl.bot), r = bot ? bot.r : 1;
    ctx.beginPath(); mv.path.forEach((p, i) => { const [a, b] = toScreen(p.x, p.y); if (i) ctx.lineTo(a, b); else ctx.moveTo(a, b); });
    ctx.lineWidth = 3; ctx.strokeStyle = "#ebebeb"; ctx.stroke();
    const end = mv.path[mv.path.length - 1]; drawGhost(end.x, end.y, end.facing, r, pl.legal ? "#ebebeb" : BLOCKED, !pl.legal);
    if (pl.refusal && pl.refusal.at) { const [a, b] = toScreen(pl.refusal.at[0], pl.refusal.at[1]); ctx.lineWidth = 3; ctx.strokeStyle = BLOCKED;
      ctx.beginPath(); ctx.moveTo(a - 7, b - 7); ctx.lineTo(a + 7, b + 7); ctx.moveTo(a + 7, b - 7); ctx.lineTo(a - 7, b + 7); ctx.stroke();
      labels.push(lab(pl.refusal.at[0], pl.refusal.at[1], pl.refusal.rule, BLOCKED, 1, -16)); }
    (pl.offers || []).forEach((o) => { ring(o.at.x, o.at.y, r + 0.5, "#ffdc50", 3, [3, 3]); labels.push(lab(o.at.x, o.at.y, tx("{watcher} fires here", { watcher: o.watcher }), "#ffdc50", 1, -18)); });
    labels.push(lab(end.x, end.y, tx("{left} cm left", { left: fmt(mv.left) }), "#ebebeb", 1, -Math.max(BOT_MIN_PX, r * S.view.scale) - 14));
  }
  function verdict(t) {     // the table's words and ring for a target (from the server)
    return [{ clear: CLEAR, arc: ARC, range: RANGE }[t.verdict] || BLOCKED, t.words];
  }
  function drawMeasure(pm, labels) {
    const shooter = botById(pm.bot); if (!shooter) return;
    const [a, b] = toScreen(pm.x, pm.y), R = pm.reach * S.view.scale;
    ctx.beginPath();
    if (pm.arc_half == null) ctx.arc(a, b, R, 0, 2 * Math.PI);
    else { const s = (pm.facing - pm.arc_half - 90) * Math.PI / 180, e = (pm.facing + pm.arc_half - 90) * Math.PI / 180; ctx.moveTo(a, b); ctx.arc(a, b, R, s, e); ctx.closePath(); }
    ctx.fillStyle = "rgba(255,255,255,.10)"; ctx.fill(); ctx.lineWidth = 1.5; ctx.strokeStyle = "#ffffff"; ctx.stroke();
    if (pm.corridor) { const c = pm.corridor, [p, q] = toScreen(c.from[0], c.from[1]), [r2, s2] = toScreen(c.to[0], c.to[1]);
      ctx.beginPath(); ctx.moveTo(p, q); ctx.lineTo(r2, s2); ctx.lineCap = "round"; ctx.lineWidth = 2 * c.half_width * S.view.scale;
      ctx.strokeStyle = "rgba(120,200,255,.35)"; ctx.stroke(); ctx.lineCap = "butt"; }
    if (pm.blast) { const bl = pm.blast; ring(bl.x, bl.y, bl.r, "#ff8c28", 3, [8, 4]); labels.push(lab(bl.x, bl.y, tx("blast"), "#ff8c28", 1, bl.r * S.view.scale + 14)); }
    pm.targets.forEach((t) => {
      const tb = botById(t.bot); if (!tb) return; const [col, text] = verdict(t);
      ring(tb.x, tb.y, tb.r + 0.8, col, 3, t.can_fire ? null : [4, 3], BOT_MIN_PX + 4);
      labels.push(lab(tb.x, tb.y, text, col, 1, -Math.max(BOT_MIN_PX, tb.r * S.view.scale) - 16));
      if (t.bot === pm.focus) {
        const [c, d] = toScreen(tb.x, tb.y); ctx.beginPath(); ctx.moveTo(a, b);
        if (t.block_point) { const [e, f] = toScreen(t.block_point[0], t.block_point[1]); ctx.lineTo(e, f); ctx.strokeStyle = CLEAR; ctx.lineWidth = 2; ctx.stroke();
          ctx.beginPath(); ctx.moveTo(e, f); ctx.lineTo(c, d); ctx.setLineDash([6, 5]); ctx.strokeStyle = BLOCKED; ctx.stroke(); ctx.setLineDash([]);
          ctx.beginPath(); ctx.moveTo(e - 7, f - 7); ctx.lineTo(e + 7, f + 7); ctx.moveTo(e + 7, f - 7); ctx.lineTo(e - 7, f + 7); ctx.lineWidth = 3; ctx.stroke();
        } else { ctx.lineTo(c, d); ctx.strokeStyle = t.can_fire ? CLEAR : BLOCKED; ctx.lineWidth = 2; ctx.stroke(); }
      }
    });
    if (pm.fling && pm.fling.path.length) { const f = pm.fling; ctx.beginPath(); f.path.forEach((p, i) => { const [x, y] = toScreen(p.x, p.y); if (i) ctx.lineTo(x, y); else ctx.moveTo(x, y); });
      ctx.strokeStyle = "#78c8ff"; ctx.lineWidth = 2; ctx.stroke(); labels.push(lab(f.x, f.y, tx("lands here"), "#78c8ff", 1)); }
    if (pm.flight) { const [x, y] = toScreen(pm.flight.end[0], pm.flight.end[1]); ctx.beginPath(); ctx.moveTo(a, b); ctx.lineTo(x, y); ctx.setLineDash([2, 5]); ctx.strokeStyle = "#ff8c28"; ctx.lineWidth = 2; ctx.stroke(); ctx.setLineDash([]); }
  }

  // ---------------------------------------------------------------- panel
  function renderAll() {
    if (!S.hello) { disableAll(); return; }
    renderTurn(); renderScores(); renderBot(); renderMeasure(); renderPlan(); renderActions(); renderShow();
    renderFeed(); renderPrompt(); renderWinner(); renderTabs(); draw(); disableAll();
  }
  function renderTurn() {
    const s = S.state; if (!s) return;
    $("turn").textContent = turnLine(s) + (!s.over && myTurn() && !S.hello.table_seat ? " " + tx("(your turn)") : "");
    document.body.classList.toggle("myturn", !!(S.myTurn));
    const w = $("waiting"), shown = s.waiting && !S.ask;      // the watcher's own phone asks instead
    w.hidden = !shown; w.textContent = shown ? s.waiting.text : "";
  }
  function turnLine(s) {     // the table's turn strip, in this phone's words
    if (s.over) return tx("Round {round} - game over", { round: s.round });
    const verb = tx(s.phase);
    return tx("Round {round} - {who} to {verb}", { round: s.round, who: s.turn, verb }) + (s.active ? ` (${s.active})` : "");
  }
  function renderScores() {
    const box = $("scores"), s = S.state; box.innerHTML = ""; if (!s) return;
    s.players.forEach((p) => { const chip = el("span", `${p} ${fmt((s.scores || {})[p] || 0)}`, "chip");
      chip.style.borderColor = colourOf(p); if ((s.out || []).includes(p)) chip.classList.add("out"); box.appendChild(chip); });
  }
  function renderWinner() {
    const w = S.state && S.state.winner, box = $("winner"); box.hidden = !w; if (!w) return;
    box.innerHTML = ""; box.appendChild(el("div", tx("Game over"), "big")); box.appendChild(el("div", w.text));
    box.appendChild(el("div", (w.players || []).map((p) => `${p} ${fmt((S.state.scores || {})[p] || 0)}`).join(" · "), "dim"));
  }
  function renderFeed() {
    const ol = $("log"); ol.innerHTML = "";
    S.feed.slice().reverse().slice(0, 60).forEach((l) => { const li = el("li", l.text); if (l.undone) li.className = "undone"; ol.appendChild(li); });
    const notes = $("notes"); notes.innerHTML = "";
    S.notes.forEach((n) => notes.appendChild(el("div", n.text, n.bad === "rule" ? "dim" : n.bad ? "refusal" : "")));
  }
  function renderPrompt() {
    const a = S.ask, box = $("prompt"); box.hidden = !a; if (!a) return;
    const left = Math.max(0, Math.ceil((a.until - performance.now()) / 1000));
    box.innerHTML = "";
    // in this phone's words, counting down here (the server's text is the table's, timed once)
    box.appendChild(el("div", tx("{mover} moves within {watcher}'s overwatch: fire or hold?", { mover: a.mover, watcher: a.watcher }), "big"));
    box.appendChild(el("div", (a.weapons || []).join(", "), "dim"));
    box.appendChild(el("div", tx("{seconds} s left; on time-out {watcher} holds", { seconds: left, watcher: a.watcher }), "dim countdown"));
    const row = el("div", null, "row");
    row.appendChild(button(tx("Fire"), () => answer(true), "go", "ow-fire"));
    row.appendChild(button(tx("Hold"), () => answer(false), null, "ow-hold"));
    box.appendChild(row);
  }
  function answer(fire) { if (!S.ask) return; send({ type: "overwatch_answer", ask: S.ask.ask, fire }); S.ask = null; renderAll(); }
  setInterval(() => { if (!S.ask) return; if (performance.now() >= S.ask.until) S.ask = null; renderPrompt(); disableAll(); }, 250);

  function renderBot() {
    const b = selectedBot(), info = $("botinfo"), ws_ = $("weapons"); info.innerHTML = ""; ws_.innerHTML = "";
    const p = placingMine();
    $("hint").textContent = p ? tx("Place {id} ({name}): tap the table where it goes.", { id: p.id, name: p.name }) : (b ? "" : tx("Tap a bot to select it."));
    if (p) { botLines(info, p); return; }
    if (!b) return;
    botLines(info, b);
    b.weapons.filter((w) => w.kind !== "mine" && w.kind !== "magnetic_mine").forEach((w) => {
      const on = S.measureReq && S.measureReq.bot === b.id && S.measureReq.weapon === w.name;
      const btn = button(`${w.name} ${fmt(w.range)} cm`, () => premeasure(b.id, w.name, null, null)); btn.setAttribute("aria-pressed", on ? "true" : "false");
      btn.dataset.weapon = w.name; ws_.appendChild(btn);
    });
    if (S.measureReq && S.measureReq.bot === b.id) {
      const ow = button(tx("overwatch reach"), () => { S.measureReq.overwatch = !S.measureReq.overwatch; resendMeasure(); });
      ow.setAttribute("aria-pressed", S.measureReq.overwatch ? "true" : "false"); ws_.appendChild(ow);
    }
  }
  function botLines(info, b) {       // a bot's card: what it is and what it can do
    info.appendChild(el("div", `${b.id} · ${b.name} (${b.player}) · ${tx(b.locomotion)}`));
    info.appendChild(el("div", tx("move {move} cm · turn {turn} · armour {armour}+ · damage {damage}/{structure}", { move: fmt(b.move), turn: fmt(b.turn), armour: b.armour, damage: b.damage, structure: b.structure }) + (b.overwatch ? " · " + tx("on overwatch") : ""), "dim"));
    if (b === placingMine()) info.appendChild(el("div", b.weapons.map((w) => `${w.name} (${tx(w.kind)}, ${tx(w.mount)}) ${fmt(w.range)} cm ${w.to_hit}+`).join(" · "), "dim"));
  }
  function renderMeasure() {
    const box = $("measure"), pm = S.premeasure, tr = $("track"); box.innerHTML = ""; tr.hidden = true;
    if (!pm) return;
    const nobody = tx("nobody"), centre = tx("(centre)"), or = tx("or"), nothing = tx("nothing");   // (Babel reads no nested call)
    box.appendChild(el("div", tx("{bot}'s {weapon} ({kind}, {mount}): reach {reach} cm", { bot: pm.bot, weapon: pm.weapon, kind: tx(pm.kind), mount: tx(pm.mount), reach: fmt(pm.reach) }) + (pm.arc_half != null ? ", " + tx("arc ±{half}°", { half: fmt(pm.arc_half) }) : ", " + tx("any way")) + (pm.overwatch ? " " + tx("on overwatch") : "")));
    if (pm.refusal) box.appendChild(el("div", pm.refusal, "refusal"));
    const t = el("table");
    pm.targets.forEach((x) => { const row = el("tr"); if (x.bot === pm.focus) row.className = "focus";
      row.appendChild(el("td", x.bot)); row.appendChild(el("td", `${fmt(x.distance)} cm`, "dim"));
      row.appendChild(el("td", x.can_fire ? x.words : (x.refusal || x.words), x.can_fire ? "ok" : "no"));
      row.onclick = () => { if (!S.offline) premeasure(pm.bot, pm.weapon, x.bot, null); }; t.appendChild(row); });
    if (!pm.targets.length) box.appendChild(el("div", tx("no other bot on the table"), "dim"));
    box.appendChild(t);
    const f = pm.targets.find((x) => x.bot === pm.focus);
    if (f && f.blocker) box.appendChild(el("div", tx("blocked by {blocker}", { blocker: f.blocker }), "no"));
    if (pm.corridor) box.appendChild(el("div", tx("corridor: {names}", { names: pm.corridor.members.join(", ") || nobody })));
    if (pm.blast) box.appendChild(el("div", tx("blast: {text}", { text: pm.blast.members.map((m) => `${m.bot}${m.centre ? " " + centre : ""} ${pct(m.chance)}`).join(", ") || nobody })
      + (pm.blast.safe.length ? "; " + tx("spared: {names}", { names: pm.blast.safe.map((s) => `${s.bot} (${s.reason})`).join(", ") }) : "")));
    if (pm.missile) box.appendChild(el("div", tx("after a miss the missile may turn toward {names}", { names: pm.missile.toward.join(" " + or + " ") || nothing })));
    if (pm.flight) box.appendChild(el("div", tx("after a miss the rocket flies on past {names}", { names: pm.flight.bots.join(", ") || nobody }) + (pm.flight.stopped_by ? " " + tx("to {what}", { what: pm.flight.stopped_by }) : "")));
    if (pm.fling) box.appendChild(el("div", tx("{bot} would move {moved} cm", { bot: pm.fling.bot, moved: fmt(pm.fling.moved) }) + (pm.fling.stopped_by ? ", " + tx("stopped by {what}", { what: pm.fling.stopped_by }) : "")));
    if (f && f.track && f.track.length) drawTrack(f.track, f.distance);
  }
  function drawTrack(track, length) {
    const tr = $("track"), c = tr.getContext("2d"), W = tr.width, H = tr.height; tr.hidden = false;
    c.fillStyle = "#0c0d10"; c.fillRect(0, 0, W, H);
    const top = Math.max(1, ...track.map((p) => Math.max(p.line, p.top))) * 1.2, L = Math.max(length, ...track.map((p) => p.d), 1);
    const X = (d) => 8 + (d / L) * (W - 16), Y = (z) => H - 14 - (z / top) * (H - 24);
    track.forEach((p) => { c.fillStyle = p.top > p.line ? "#ff2060" : "#8890a0"; c.fillRect(X(p.d) - 3, Y(p.top), 6, Y(0) - Y(p.top)); });
    c.beginPath(); track.forEach((p, i) => { if (i) c.lineTo(X(p.d), Y(p.line)); else c.moveTo(X(p.d), Y(p.line)); }); c.strokeStyle = "#78e678"; c.lineWidth = 2; c.stroke();
    c.fillStyle = "#dfe3ea"; c.font = "12px system-ui"; c.fillText(tx("fire track: line (green) over what it crosses"), 8, 12);
  }
  // the bot this seat may plan a move for now: its own active bot in the move phase
  function planning() {
    const b = selectedBot(), s = S.state;
    return b && mine(b) && s && !s.over && s.phase === "move" && s.active === b.id ? b : null;
  }
  function renderPlan() {
    const b = planning(), box = $("planbox"), info = $("planinfo");
    box.hidden = !b; info.innerHTML = "";
    if (!b) return;
    $("strafes").hidden = !(b.locomotion === "walker" || b.locomotion === "hover");
    $("loop").hidden = b.locomotion !== "flier";
    $("lifts").hidden = !S.table.features.some((f) => f.type === "lift");
    const extra = $("extrasteps"); extra.innerHTML = "";
    if (S.state.round > 1) b.weapons.filter((w) => w.kind === "mine" || w.kind === "magnetic_mine").forEach((w) =>
      extra.appendChild(button(tx("drop {weapon}", { weapon: w.name }), () => addStep("mine:" + w.name))));
    const steps = S.plan && S.plan.bot === b.id ? S.plan.steps : [];
    const none = tx("no steps yet (or drag from the bot)");
    info.appendChild(el("div", tx("plan: {steps}", { steps: steps.map(stepText).join(", ") || none }), "dim"));
    const pl = current(); if (!pl) return;
    const mv = pl.move || pl.prefix;
    if (mv) info.appendChild(el("div", tx("spent {spent} of {allowed} cm, {left} left · turns used {turns}", { spent: fmt(mv.spent), allowed: fmt(mv.allowed), left: fmt(mv.left), turns: mv.turns_used })));
    if (mv) mv.pieces.filter((p) => p.multiplier !== 1 || p.note).forEach((p) => info.appendChild(el("div", `${tx(p.kind)} ${fmt(p.length)} cm ×${fmt(p.multiplier)} = ${fmt(p.cost)} cm` + (p.note ? ` (${p.note})` : ""), "dim")));
    if (mv && mv.events.length) info.appendChild(el("div", tx("on the way: {events}", { events: mv.events.join("; ") })));
    (pl.offers || []).forEach((o) => info.appendChild(el("div", tx("overwatch: {watcher} may fire ({weapons})", { watcher: o.watcher, weapons: o.weapons.join(", ") }) + (o.after_move ? " " + tx("after the move") : ""), "no")));
    if (pl.refusal) { info.appendChild(el("div", pl.refusal.text, "refusal"));
      (pl.refusal.rules || []).forEach((r) => info.appendChild(el("div", r.rule + " — " + r.text, "dim"))); }
    else if (pl.legal) info.appendChild(el("div", tx("legal"), "ok"));
  }
  // the server's answer for the plan as it is now (null while a newer one is on its way)
  function current() {
    const pl = S.planned; if (!pl || !S.plan || pl.bot !== S.plan.bot) return null;
    return same(pl.steps, planSteps()) ? pl : null;
  }
  function stepText(s) { const k = Object.keys(s)[0], v = s[k];
    if (k === "forward") return tx("forward {cm} cm", { cm: fmt(v) });
    if (k === "back") return tx("back {cm} cm", { cm: fmt(v) });
    if (k === "strafe") return tx("strafe {cm} cm at {bearing}°", { cm: fmt(v.distance), bearing: fmt(v.bearing) });
    if (k === "turn") return tx("turn {degrees}°", { degrees: (v > 0 ? "+" : "") + fmt(v) });
    if (k === "loop") return tx("loop");
    if (k === "lift") return v === "up" ? tx("lift up") : tx("lift down");
    if (k === "drop_mine") return tx("drop {weapon}", { weapon: v });
    return k; }
  function renderActions() {
    const box = $("actions"); box.innerHTML = "";
    if (S.hello.table_seat) { box.appendChild(button(tx("Undo"), () => send({ type: "undo" }))); box.appendChild(button(tx("Redo"), () => send({ type: "redo" }))); }
    if (!S.state || !canAct()) return;
    const s = S.state, active = s.active, phase = s.phase, p = placingMine(), may = s.may || {};
    if (p) {
      box.appendChild(button(tx("⟲ facing"), () => { S.placeFacing = (S.placeFacing + 315) % 360; renderAll(); }, null, "face-left"));
      box.appendChild(el("span", tx("facing {degrees}°", { degrees: deg(S.placeFacing) }), "facing"));
      box.appendChild(button(tx("facing ⟳"), () => { S.placeFacing = (S.placeFacing + 45) % 360; renderAll(); }, null, "face-right"));
      const go = button(tx("Place here"), () => S.placeAt && commit({ bot: p.id, place: [S.placeAt[0], S.placeAt[1], S.placeFacing] }), "go", "commit");
      go.disabled = !S.placeAt || !!S.pendingCommit; box.appendChild(go); return;
    }
    if (phase === "move" && S.selected === active) {
      const steps = S.plan && S.plan.bot === active ? planSteps() : [], pl = current();
      const go = button(steps.length ? tx("Commit move") : tx("Stay (commit no move)"), () => commit({ bot: active, move: steps }), "go", "commit");
      go.disabled = !!S.pendingCommit || (steps.length > 0 && !(pl && pl.legal));
      box.appendChild(go);
    } else if (phase === "move") {
      box.appendChild(button(tx("Select {bot}", { bot: active }), () => select(active), null, "select-active"));
    }
    if (phase === "shoot") {
      const pm = S.premeasure;
      if (pm && pm.bot === active && (pm.focus || pm.aim)) {
        const order = pm.focus ? { weapon: pm.weapon, target: pm.focus } : { weapon: pm.weapon, at: pm.aim };
        const t = pm.targets.find((x) => x.bot === pm.focus);
        const point = tx("the point");
        const fire = button(tx("Fire {weapon} at {target}", { weapon: pm.weapon, target: pm.focus || point }), () => commit({ bot: active, shoot: [order] }), "go", "fire");
        fire.disabled = !!S.pendingCommit || !!pm.refusal || (t ? !t.can_fire : false); box.appendChild(fire);
      } else if (S.selected === active) box.appendChild(el("div", tx("Pick a weapon, then tap its target."), "dim"));
      if (may.overwatch) box.appendChild(button(tx("Set overwatch"), () => commit({ bot: active, overwatch: true }), null, "overwatch"));
      box.appendChild(button(tx("Pass"), () => commit({ bot: active, pass: true }), null, "pass"));
      (may.services || []).forEach((choice) =>
        box.appendChild(button(tx("Service: {choice}", { choice: tx(choice) }), () => commit({ bot: active, service: choice }))));
      if (may.self_destruct) box.appendChild(button(tx("Self-destruct…"), () => {
        if (window.confirm(tx("Self-destruct {bot}? It is destroyed.", { bot: active }))) commit({ bot: active, self_destruct: true });
      }, "warn"));
    }
  }
  function renderShow() { const b = $("show"); b.setAttribute("aria-pressed", S.showOn ? "true" : "false"); b.textContent = S.showOn ? tx("Shown on table ✓") : tx("Show on table");
    const snd = $("sound"); snd.setAttribute("aria-pressed", S.sound ? "true" : "false"); snd.textContent = S.sound ? tx("sound on") : tx("sound off"); }

  // ---------------------------------------------------------------- requests
  function select(id) { S.selected = id; S.premeasure = null; S.measureReq = null; S.tail = null; send({ type: "select", bot: id }); renderAll(); share("selected"); }
  function premeasure(bot, weapon, target, at) {
    S.measureReq = { bot, weapon, target, at, overwatch: S.measureReq && S.measureReq.bot === bot ? !!S.measureReq.overwatch : false };
    resendMeasure();
  }
  function resendMeasure() { const r = S.measureReq; const m = { type: "premeasure", bot: r.bot, weapon: r.weapon, overwatch: !!r.overwatch };
    if (r.target) m.target = r.target; else if (r.at) m.at = r.at; send(m); renderAll(); }
  function planSteps() { const steps = S.plan ? S.plan.steps.slice() : []; if (S.tail) steps.push(S.tail); return steps; }
  function sendPlan() {
    if (!S.plan) return;
    if (planInFlight) { planDirty = true; return; }
    const id = nextId; planInFlight = send({ type: "plan", bot: S.plan.bot, steps: planSteps() });
    if (planInFlight && tapAt !== null && tappedId === null) tappedId = id;
  }
  function commit(action) { S.pendingCommit = action; S.dice = []; send({ type: "commit", action }); renderAll(); }
  function askDie(purpose) {
    const box = $("dice"); box.hidden = false; box.innerHTML = ""; box.appendChild(el("div", tx("Roll a d6 for {purpose}, then tap the result:", { purpose })));
    const row = el("div", null, "row"); for (let v = 1; v <= 6; v++) row.appendChild(button(String(v), () => { S.dice.push(v); box.hidden = true; send({ type: "commit", action: S.pendingCommit, dice: S.dice }); }));
    box.appendChild(row);
  }
  function addStep(kind, at) {
    const b = planning(); if (!b || S.offline) return;
    if (!S.plan || S.plan.bot !== b.id) S.plan = { bot: b.id, steps: [] };
    const st = S.plan.steps;
    const straight = (cm) => addStraight(st, cm);
    switch (kind) {
      case "fwd1": straight(1); break; case "fwd5": straight(5); break; case "back1": straight(-1); break; case "back5": straight(-5); break;
      case "left15": st.push({ turn: -15 }); break; case "left45": st.push({ turn: -45 }); break;
      case "right15": st.push({ turn: 15 }); break; case "right45": st.push({ turn: 45 }); break;
      case "strafeL": st.push({ strafe: { bearing: 270, distance: 2 } }); break; case "strafeR": st.push({ strafe: { bearing: 90, distance: 2 } }); break;
      case "loop": st.push({ loop: true }); break;
      case "liftUp": st.push({ lift: "up" }); break; case "liftDown": st.push({ lift: "down" }); break;
      case "undo": st.pop(); break; case "clear": st.length = 0; break;
      default: if (kind.startsWith("mine:")) st.push({ drop_mine: kind.slice(5) }); break;
    }
    tapAt = at || performance.now(); tappedId = null;
    sendPlan(); renderAll(); share("plan");
  }
  function round2(v) { return Math.round(v * 100) / 100; }
  function addStraight(st, cm) { // merges with the last straight step, as the table's planner does
    const last = st[st.length - 1];
    if (last && ("forward" in last || "back" in last)) { const cur = ("forward" in last ? last.forward : -last.back) + cm; st.pop();
      if (Math.abs(cur) > 1e-9) st.push(cur > 0 ? { forward: round2(cur) } : { back: round2(-cur) }); }
    else if (cm) st.push(cm > 0 ? { forward: round2(cm) } : { back: round2(-cm) });
  }
  // a step's tap, timed from the touch's own event to the frame that shows the answer
  document.querySelectorAll("[data-plan]").forEach((b) => b.addEventListener("click", (ev) => addStep(b.dataset.plan, ev.timeStamp)));
  $("show").onclick = () => send({ type: "show", on: !S.showOn });
  $("fit").onclick = () => { S.userMoved = false; fit(); draw(); };
  $("me").onclick = () => { const s = S.state; const b = selectedBot() || (s && (botById(s.active) || s.bots.find((x) => mine(x)))); if (b) zoomTo(b); };
  $("sound").onclick = () => { S.sound = !S.sound; localStorage.setItem("bottisota-sound", S.sound ? "on" : "off"); if (S.sound) beep(); renderShow(); };
  $("lang").onclick = () => { const u = new URL(location.href); u.searchParams.set("lang", $("lang").dataset.to); location.replace(u.toString()); };

  // ---------------------------------------------------------------- touch: tap, pan, pinch, drag a plan
  const pointers = new Map(); let gesture = null;
  function local(ev) { const r = canvas.getBoundingClientRect(); return [ev.clientX - r.left, ev.clientY - r.top]; }
  function botAt(px, py) {       // against what is drawn: the bot's drawn disc and a finger's margin
    if (!S.state) return null; let best = null, bd = 1e9;
    S.state.bots.forEach((b) => { const [a, c] = toScreen(b.x, b.y), d = Math.hypot(a - px, c - py), reach = Math.max(BOT_MIN_PX, b.r * S.view.scale) + 14;
      if (d <= reach && d < bd) { best = b; bd = d; } });
    return best;
  }
  S.botAt = (x, y) => { const r = canvas.getBoundingClientRect(), b = botAt(x - r.left, y - r.top); return b ? b.id : null; };
  function planEnd() { const b = planning(); const pl = S.planned && S.plan && S.planned.bot === S.plan.bot ? S.planned : null, mv = pl && (pl.move || pl.prefix);
    if (!b) return null; if (mv && S.plan.steps.length) return mv.path[mv.path.length - 1]; return { x: b.x, y: b.y, facing: b.facing }; }
  canvas.addEventListener("pointerdown", (ev) => {
    if (S.offline) return;
    canvas.setPointerCapture(ev.pointerId); pointers.set(ev.pointerId, local(ev));
    if (pointers.size === 2) { const [a, b] = [...pointers.values()]; gesture = { kind: "pinch", d: Math.hypot(a[0] - b[0], a[1] - b[1]), mid: [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2], view: { ...S.view } }; return; }
    const [px, py] = local(ev), sel = planning(), end = planEnd();
    if (sel && end) { const [ex, ey] = toScreen(end.x, end.y); if (Math.hypot(px - ex, py - ey) <= Math.max(22, sel.r * S.view.scale + 6)) {
      gesture = { kind: "drag", start: [px, py], end, moved: false, t: performance.now() }; return; } }
    gesture = { kind: "pan", start: [px, py], view: { ...S.view }, moved: false, t: performance.now() };
  });
  canvas.addEventListener("pointermove", (ev) => {
    if (!pointers.has(ev.pointerId)) return; pointers.set(ev.pointerId, local(ev)); if (!gesture) return;
    if (gesture.kind === "pinch" && pointers.size >= 2) {
      const [a, b] = [...pointers.values()], d = Math.hypot(a[0] - b[0], a[1] - b[1]), mid = [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];
      zoomAbout(gesture.view, gesture.mid, mid, d / Math.max(1, gesture.d)); return;
    }
    const [px, py] = local(ev), dx = px - gesture.start[0], dy = py - gesture.start[1];
    if (Math.hypot(dx, dy) > 8) gesture.moved = true; if (!gesture.moved) return;
    if (gesture.kind === "pan") { S.userMoved = true; S.view = { ...gesture.view, ox: gesture.view.ox + dx, oy: gesture.view.oy + dy }; draw(); }
    else if (gesture.kind === "drag" && !S.offline) { const f = gesture.end.facing * Math.PI / 180, along = (dx * Math.sin(f) - dy * Math.cos(f)) / S.view.scale;
      const cm = round2(along); S.tail = cm > 0 ? { forward: cm } : cm < 0 ? { back: -cm } : null;
      if (!S.plan || S.plan.bot !== S.selected) S.plan = { bot: S.selected, steps: [] };
      tapAt = performance.now(); tappedId = null; sendPlan(); renderAll(); }
  });
  function endPointer(ev) {
    if (!pointers.has(ev.pointerId)) return; const pos = local(ev); pointers.delete(ev.pointerId);
    if (!gesture) return;
    if (gesture.kind === "pinch") { if (pointers.size === 0) gesture = null; return; }
    if (gesture.kind === "drag" && gesture.moved) { if (S.tail) { addStraight(S.plan.steps, "forward" in S.tail ? S.tail.forward : -S.tail.back); S.tail = null; sendPlan(); renderAll(); share("plan"); } gesture = null; return; }
    if (!gesture.moved) tap(pos[0], pos[1]); gesture = null;
  }
  canvas.addEventListener("pointerup", endPointer); canvas.addEventListener("pointercancel", endPointer);
  canvas.addEventListener("wheel", (ev) => { ev.preventDefault(); const p = local(ev); zoomAbout(S.view, p, p, Math.exp(-ev.deltaY / 400)); }, { passive: false });
  function zoomAbout(view, from, to, k) {
    const scale = Math.min(200, Math.max(0.5, view.scale * k)), wx = (from[0] - view.ox) / view.scale, wy = (view.oy - from[1]) / view.scale;
    S.view = { scale, ox: to[0] - wx * scale, oy: to[1] + wy * scale }; S.userMoved = true; draw();
  }
  function tap(px, py) {
    if (S.offline) return;
    const [x, y] = toWorld(px, py), b = botAt(px, py), p = placingMine();
    if (p && !b) { S.placeAt = [round2(x), round2(y)]; renderAll(); return; }
    const req = S.measureReq, pm = S.premeasure;
    if (req && pm && b && b.id !== req.bot) { premeasure(req.bot, req.weapon, b.id, null); return; }
    if (req && pm && !b && (pm.kind === "spray" || S.hasExplosive(pm))) { premeasure(req.bot, req.weapon, null, [round2(x), round2(y)]); return; }
    if (b && S.selected !== b.id) select(b.id);
  }
  S.hasExplosive = (pm) => { const b = botById(pm.bot); const w = b && b.weapons.find((x) => x.name === pm.weapon); return !!(w && w.explosive); };
  S.receive = receive;     // the tests feed messages a newer server sends
  S.tap = (id) => { const s = S.screenOf(id); if (!s) return false; const r = canvas.getBoundingClientRect(); tap(s[0] - r.left, s[1] - r.top); return true; };

  resize(); connect(); health();
})();
