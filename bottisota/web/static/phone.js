// A seat's page: draws what the server sends and sends what the player asks.
// No rules here: every verdict, path, cost and chance comes from the server.
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  // the referee's words in the table's language (the server puts its catalogue in the page)
  const WORDS = JSON.parse(($("i18n") || {}).textContent || "{}");
  function tx(text, vars) {
    const s = WORDS[text] || text;
    return vars ? s.replace(/\{(\w+)\}/g, (m, k) => (k in vars ? String(vars[k]) : m)) : s;
  }
  const token = location.pathname.split("/").filter(Boolean).pop();
  const PLAYER = { red: "#d55e00", vermillion: "#d55e00", blue: "#0072b2", orange: "#e69f00",
    sky: "#56b4e9", green: "#009e73", purple: "#cc79a7", yellow: "#f0e442" };
  const SEAT_ORDER = ["#d55e00", "#0072b2", "#e69f00", "#56b4e9", "#009e73", "#cc79a7", "#f0e442"];
  const FILL = { wall: "#b8b8c0", door: "#b07834", platform: "#3a4660", stairs: "#5c6e96",
    ramp: "#548068", escalator: "#78609c", lift: "#3896aa", pit: "#000000", conveyor: "#4e4e5a",
    service: "#28a85c", teleporter: "#9646d2", goal: "#f0e442" };
  const CLEAR = "#78e678", BLOCKED = "#ff2060", ARC = "#969696", RANGE = "#ffaa3c";

  const S = {            // everything the page knows
    hello: null, table: null, state: null, shown: [], seat: null,
    selected: null, measureReq: null, premeasure: null, plan: null, planned: null,
    tail: null, placeAt: null, placeFacing: 0, showOn: false, dice: [], pendingCommit: null,
    view: null, ready: false, replies: 0, log: [],
  };
  window.bottisota = S;   // read by the browser tests and for debugging
  let ws = null, nextId = 1, retry = 500, planInFlight = false, planDirty = false;

  // ---------------------------------------------------------------- connection
  function connect() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    ws = new WebSocket(`${proto}//${location.host}/ws/${token}`);
    ws.onopen = () => { retry = 500; banner(null); };
    ws.onmessage = (ev) => { let m; try { m = JSON.parse(ev.data); } catch (e) { return; } receive(m); };
    ws.onclose = (ev) => {
      if (ev.code === 4403 || ev.code === 1008) { banner(tx("this seat's link is not valid")); return; }
      banner(tx("connection lost: reconnecting…"));
      setTimeout(connect, retry); retry = Math.min(5000, retry * 2);
    };
  }
  function send(m) {
    if (!ws || ws.readyState !== 1) return false;
    m.id = nextId++; ws.send(JSON.stringify(m)); return true;
  }
  function banner(text) { const b = $("banner"); b.hidden = !text; b.textContent = text || ""; }

  function receive(m) {
    S.replies += 1;
    switch (m.type) {
      case "hello": onHello(m); break;
      case "state": S.state = m.state; S.shown = m.shown || []; refreshAfterState(); break;
      case "selected": break;
      case "premeasure": S.premeasure = m.premeasure; renderMeasure(); break;
      case "plan": planInFlight = false; S.planned = m.plan; renderPlan();
        if (planDirty) { planDirty = false; sendPlan(); } break;
      case "shown": S.showOn = m.on; renderShow(); break;
      case "cleared": break;
      case "done": S.pendingCommit = null; S.dice = []; $("dice").hidden = true;
        S.plan = null; S.planned = null; S.tail = null; S.placeAt = null;
        (m.events || []).forEach((t) => say(t)); renderAll(); break;
      case "refused": S.pendingCommit = null; S.dice = []; $("dice").hidden = true;
        (m.refusal.rules || []).slice().reverse().forEach((r) => say(r.rule + " — " + r.text, "rule"));
        say(m.refusal.text, true); break;
      case "dice": askDie(m.need); break;
      case "error": planInFlight = false; say(m.message, true); break;
      default: break;
    }
    draw();
  }

  function onHello(m) {
    S.hello = m; S.table = m.table; S.state = m.state; S.shown = m.shown || []; S.seat = m.seat;
    const seat = $("seat"); seat.textContent = m.table_seat ? "table" : m.seat;
    seat.style.background = m.table_seat ? "#444" : colourOf(m.seat);
    seat.style.color = "#000";
    // the server's desk wins; a server that restarted (--resume) has none: the page
    // asks again for what it was showing
    const d = m.desk || {};
    planInFlight = false; planDirty = false;
    S.selected = d.selected || S.selected; S.showOn = !!d.shown;
    if (d.measure) { S.measureReq = d.measure; S.premeasure = d.premeasure; } else S.premeasure = null;
    if (d.plan) { S.plan = { bot: d.plan.bot, steps: d.plan.steps.slice() }; S.planned = d.planned; } else S.planned = null;
    if (!S.view) fit();
    if (S.measureReq && !d.measure) resendMeasure();
    if (S.plan && !d.planned) sendPlan();
    S.ready = true; renderAll();
  }

  function refreshAfterState() {
    const b = selectedBot();
    if (S.selected && !b && !placingMine()) { S.selected = null; S.premeasure = null; }
    renderAll();
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
  function canAct() { return S.hello && S.hello.can_commit && myTurn(); }
  function placingMine() { return S.state && S.state.placing && canAct() ? S.state.placing : null; }
  function say(text, bad) {
    S.log.unshift({ text, bad }); S.log = S.log.slice(0, 30);
    const ol = $("log"); ol.innerHTML = "";
    S.log.forEach((l) => { const li = document.createElement("li"); li.textContent = l.text;
      if (l.bad) li.className = l.bad === "rule" ? "dim" : "refusal"; ol.appendChild(li); });
  }
  function el(tag, text, cls) { const e = document.createElement(tag); if (text != null) e.textContent = text; if (cls) e.className = cls; return e; }
  function button(text, fn, cls) { const b = el("button", text, cls); b.type = "button"; b.onclick = fn; return b; }
  function pct(c) { return Math.round(c * 100) + "%"; }
  function fmt(v) { return (Math.round(v * 10) / 10).toString().replace(".", WORDS["."] || "."); }

  // ---------------------------------------------------------------- view (world <-> screen)
  const canvas = $("table"), ctx = canvas.getContext("2d");
  function resize() {
    const r = canvas.getBoundingClientRect(), dpr = window.devicePixelRatio || 1;
    canvas.width = Math.max(1, Math.round(r.width * dpr)); canvas.height = Math.max(1, Math.round(r.height * dpr));
    if (S.table && !S.userMoved) fit(); draw();
  }
  function fit() {
    if (!S.table) return;
    const r = canvas.getBoundingClientRect(), [w, h] = S.table.size, pad = 12;
    const scale = Math.min((r.width - 2 * pad) / w, (r.height - 2 * pad) / h);
    S.view = { scale: Math.max(scale, 0.5), ox: r.width / 2 - (w / 2) * scale, oy: r.height / 2 + (h / 2) * scale };
  }
  function toScreen(x, y) { const v = S.view; return [v.ox + x * v.scale, v.oy - y * v.scale]; }
  function toWorld(px, py) { const v = S.view; return [(px - v.ox) / v.scale, (v.oy - py) / v.scale]; }
  S.screenOf = (id) => { const b = botById(id) || (S.state.placing && S.state.placing.id === id ? S.state.placing : null);
    if (!b) return null; const r = canvas.getBoundingClientRect(); const [x, y] = toScreen(b.x, b.y); return [r.left + x, r.top + y]; };
  S.screenOfPoint = (x, y) => { const r = canvas.getBoundingClientRect(); const [a, b] = toScreen(x, y); return [r.left + a, r.top + b]; };

  // ---------------------------------------------------------------- drawing
  function draw() {
    if (!S.table || !S.view) return;
    const dpr = window.devicePixelRatio || 1, v = S.view;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.fillStyle = "#0c0d10"; ctx.fillRect(0, 0, canvas.width, canvas.height);
    const [w, h] = S.table.size, [x0, y0] = toScreen(0, h);
    ctx.fillStyle = "#22262e"; ctx.fillRect(x0, y0, w * v.scale, h * v.scale);
    grid(w, h);
    S.table.features.forEach(feature);
    if (S.state) {
      S.state.goals.forEach((g) => { ring(g.x, g.y, g.r, "#f0e442", 3); label(g.x, g.y, `goal ${g.points}`, "#f0e442"); });
      S.state.mines.forEach((m) => { ring(m.x, m.y, m.r, "#e63c3c", 2); label(m.x, m.y, m.active ? "mine" : "mine (inactive)", "#e63c3c"); });
    }
    if (S.hello && S.hello.table_seat) S.shown.forEach((s) => { if (s.plan) drawPlan(s.plan); if (s.premeasure) drawMeasure(s.premeasure); });
    if (S.planned) drawPlan(S.planned);
    if (S.premeasure) drawMeasure(S.premeasure);
    if (S.state) S.state.bots.forEach(drawBot);
    const p = placingMine();
    if (p && S.placeAt) drawGhost(S.placeAt[0], S.placeAt[1], S.placeFacing, p.r, "#ffffff", true);
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
  function feature(f) {
    f.polygons.forEach((rings) => {
      path(rings); ctx.fillStyle = FILL[f.type] || "#555"; ctx.fill("evenodd");
      ctx.lineWidth = f.type === "pit" ? 3 : 1.5; ctx.strokeStyle = f.type === "pit" ? "#dc2828" : (f.type === "wall" ? "#f5f5fa" : "#8890a0"); ctx.stroke();
    });
    if (S.view.scale > 4 && f.polygons.length) {
      const ring = f.polygons[0][0]; let cx = 0, cy = 0; ring.forEach(([x, y]) => { cx += x; cy += y; });
      const name = f.type === "platform" && f.height != null ? `${fmt(f.height)} cm` : (f.type === "wall" ? "" : f.type);
      if (name) label(cx / ring.length, cy / ring.length, name, "#dfe3ea", 11);
    }
  }
  function ring(x, y, r, colour, width, dash) {
    const [a, b] = toScreen(x, y); ctx.beginPath(); ctx.arc(a, b, Math.max(2, r * S.view.scale), 0, 2 * Math.PI);
    ctx.setLineDash(dash || []); ctx.lineWidth = width; ctx.strokeStyle = colour; ctx.stroke(); ctx.setLineDash([]);
  }
  function label(x, y, text, colour, size, dy) {
    const [a, b] = toScreen(x, y); ctx.font = `600 ${size || 13}px system-ui, sans-serif`;
    ctx.textAlign = "center"; ctx.textBaseline = "middle";
    const w = ctx.measureText(text).width + 6, yy = b + (dy || 0);
    ctx.fillStyle = "rgba(0,0,0,.75)"; ctx.fillRect(a - w / 2, yy - 9, w, 18);
    ctx.fillStyle = colour; ctx.fillText(text, a, yy);
  }
  function facingLine(x, y, facing, r, colour, width) {
    const f = facing * Math.PI / 180, [a, b] = toScreen(x, y), [c, d] = toScreen(x + Math.sin(f) * r, y + Math.cos(f) * r);
    ctx.beginPath(); ctx.moveTo(a, b); ctx.lineTo(c, d); ctx.lineWidth = width; ctx.strokeStyle = colour; ctx.stroke();
  }
  function drawBot(b) {
    const [a, c] = toScreen(b.x, b.y), r = Math.max(4, b.r * S.view.scale);
    if (mine(b) && !S.hello.table_seat) { ctx.beginPath(); ctx.arc(a, c, r + 7, 0, 2 * Math.PI); ctx.lineWidth = 3; ctx.strokeStyle = "#ffffff"; ctx.setLineDash([6, 4]); ctx.stroke(); ctx.setLineDash([]); }
    ctx.beginPath(); ctx.arc(a, c, r, 0, 2 * Math.PI); ctx.fillStyle = colourOf(b.player); ctx.fill();
    ctx.lineWidth = 2; ctx.strokeStyle = "#000"; ctx.stroke();
    facingLine(b.x, b.y, b.facing, b.r, "#000", 3);
    if (b.id === S.selected) ring(b.x, b.y, b.r + 1.2, "#ffffff", 3);
    if (S.state.active === b.id) ring(b.x, b.y, b.r + 2, "#f0e442", 2, [4, 4]);
    const marks = (b.overwatch ? " OW" : "") + (b.damage ? ` −${b.damage}` : "");
    label(b.x, b.y, b.id + marks, "#ffffff", 12, r + 12);
  }
  function drawGhost(x, y, facing, r, colour, dashed) {
    ring(x, y, r, colour, 2, dashed ? [5, 4] : null); facingLine(x, y, facing, r, colour, 2);
  }
  function drawPlan(pl) {
    const mv = pl.move || pl.prefix; if (!mv) { if (pl.refusal && pl.refusal.at) label(pl.refusal.at[0], pl.refusal.at[1], pl.refusal.rule + " ✗", BLOCKED); return; }
    const bot = botById(pl.bot), r = bot ? bot.r : 1;
    ctx.beginPath(); mv.path.forEach((p, i) => { const [a, b] = toScreen(p.x, p.y); if (i) ctx.lineTo(a, b); else ctx.moveTo(a, b); });
    ctx.lineWidth = 3; ctx.strokeStyle = "#ebebeb"; ctx.stroke();
    const end = mv.path[mv.path.length - 1]; drawGhost(end.x, end.y, end.facing, r, pl.legal ? "#ebebeb" : BLOCKED, !pl.legal);
    if (pl.refusal && pl.refusal.at) { const [a, b] = toScreen(pl.refusal.at[0], pl.refusal.at[1]); ctx.lineWidth = 3; ctx.strokeStyle = BLOCKED;
      ctx.beginPath(); ctx.moveTo(a - 7, b - 7); ctx.lineTo(a + 7, b + 7); ctx.moveTo(a + 7, b - 7); ctx.lineTo(a - 7, b + 7); ctx.stroke();
      label(pl.refusal.at[0], pl.refusal.at[1], pl.refusal.rule, BLOCKED, 12, -16); }
    (pl.offers || []).forEach((o) => { ring(o.at.x, o.at.y, r + 0.5, "#ffdc50", 3, [3, 3]); label(o.at.x, o.at.y, tx("{watcher} fires here", { watcher: o.watcher }), "#ffdc50", 12, -18); });
    label(end.x, end.y, tx("{left} cm left", { left: fmt(mv.left) }), "#ebebeb", 12, -(r * S.view.scale) - 12);
  }
  function verdict(t) {     // the table's words and ring for a target (from the server)
    return [{ clear: CLEAR, arc: ARC, range: RANGE }[t.verdict] || BLOCKED, t.words];
  }
  function drawMeasure(pm) {
    const shooter = botById(pm.bot); if (!shooter) return;
    const [a, b] = toScreen(pm.x, pm.y), R = pm.reach * S.view.scale;
    ctx.beginPath();
    if (pm.arc_half == null) ctx.arc(a, b, R, 0, 2 * Math.PI);
    else { const s = (pm.facing - pm.arc_half - 90) * Math.PI / 180, e = (pm.facing + pm.arc_half - 90) * Math.PI / 180; ctx.moveTo(a, b); ctx.arc(a, b, R, s, e); ctx.closePath(); }
    ctx.fillStyle = "rgba(255,255,255,.10)"; ctx.fill(); ctx.lineWidth = 1.5; ctx.strokeStyle = "#ffffff"; ctx.stroke();
    if (pm.corridor) { const c = pm.corridor, [p, q] = toScreen(c.from[0], c.from[1]), [r2, s2] = toScreen(c.to[0], c.to[1]);
      ctx.beginPath(); ctx.moveTo(p, q); ctx.lineTo(r2, s2); ctx.lineCap = "round"; ctx.lineWidth = 2 * c.half_width * S.view.scale;
      ctx.strokeStyle = "rgba(120,200,255,.35)"; ctx.stroke(); ctx.lineCap = "butt"; }
    if (pm.blast) { const bl = pm.blast; ring(bl.x, bl.y, bl.r, "#ff8c28", 3, [8, 4]); label(bl.x, bl.y, "blast", "#ff8c28", 12, bl.r * S.view.scale + 12); }
    pm.targets.forEach((t) => {
      const tb = botById(t.bot); if (!tb) return; const [col, text] = verdict(t);
      ring(tb.x, tb.y, tb.r + 0.8, col, 3, t.can_fire ? null : [4, 3]);
      label(tb.x, tb.y, text, col, 12, -(tb.r * S.view.scale) - 14);
      if (t.bot === pm.focus) {
        const [c, d] = toScreen(tb.x, tb.y); ctx.beginPath(); ctx.moveTo(a, b);
        if (t.block_point) { const [e, f] = toScreen(t.block_point[0], t.block_point[1]); ctx.lineTo(e, f); ctx.strokeStyle = CLEAR; ctx.lineWidth = 2; ctx.stroke();
          ctx.beginPath(); ctx.moveTo(e, f); ctx.lineTo(c, d); ctx.setLineDash([6, 5]); ctx.strokeStyle = BLOCKED; ctx.stroke(); ctx.setLineDash([]);
          ctx.beginPath(); ctx.moveTo(e - 7, f - 7); ctx.lineTo(e + 7, f + 7); ctx.moveTo(e + 7, f - 7); ctx.lineTo(e - 7, f + 7); ctx.lineWidth = 3; ctx.stroke();
        } else { ctx.lineTo(c, d); ctx.strokeStyle = t.can_fire ? CLEAR : BLOCKED; ctx.lineWidth = 2; ctx.stroke(); }
      }
    });
    if (pm.fling && pm.fling.path.length) { const f = pm.fling; ctx.beginPath(); f.path.forEach((p, i) => { const [x, y] = toScreen(p.x, p.y); if (i) ctx.lineTo(x, y); else ctx.moveTo(x, y); });
      ctx.strokeStyle = "#78c8ff"; ctx.lineWidth = 2; ctx.stroke(); label(f.x, f.y, tx("lands here"), "#78c8ff", 12); }
    if (pm.flight) { const [x, y] = toScreen(pm.flight.end[0], pm.flight.end[1]); ctx.beginPath(); ctx.moveTo(a, b); ctx.lineTo(x, y); ctx.setLineDash([2, 5]); ctx.strokeStyle = "#ff8c28"; ctx.lineWidth = 2; ctx.stroke(); ctx.setLineDash([]); }
  }

  // ---------------------------------------------------------------- panel
  function renderAll() { renderTurn(); renderBot(); renderMeasure(); renderPlan(); renderActions(); renderShow(); draw(); }
  function renderTurn() {
    const s = S.state; if (!s) return;
    $("turn").textContent = s.line + (!s.over && myTurn() && !S.hello.table_seat ? " " + tx("(your turn)") : "");
  }
  function renderBot() {
    const b = selectedBot(), info = $("botinfo"), ws_ = $("weapons"); info.innerHTML = ""; ws_.innerHTML = "";
    const p = placingMine();
    $("hint").textContent = p ? tx("Place {id} ({name}): tap the table where it goes.", { id: p.id, name: p.name }) : (b ? "" : tx("Tap a bot to select it."));
    if (!b) return;
    info.appendChild(el("div", `${b.id} · ${b.name} (${b.player}) · ${tx(b.locomotion)}`));
    info.appendChild(el("div", tx("move {move} cm · turn {turn} · armour {armour}+ · damage {damage}/{structure}", { move: fmt(b.move), turn: fmt(b.turn), armour: b.armour, damage: b.damage, structure: b.structure }) + (b.overwatch ? " · " + tx("on overwatch") : ""), "dim"));
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
  function renderMeasure() {
    const box = $("measure"), pm = S.premeasure, tr = $("track"); box.innerHTML = ""; tr.hidden = true;
    if (!pm) return;
    box.appendChild(el("div", tx("{bot}'s {weapon} ({kind}, {mount}): reach {reach} cm", { bot: pm.bot, weapon: pm.weapon, kind: tx(pm.kind), mount: tx(pm.mount), reach: fmt(pm.reach) }) + (pm.arc_half != null ? ", " + tx("arc ±{half}°", { half: fmt(pm.arc_half) }) : ", " + tx("any way")) + (pm.overwatch ? " " + tx("on overwatch") : "")));
    if (pm.refusal) box.appendChild(el("div", pm.refusal, "refusal"));
    const t = el("table");
    pm.targets.forEach((x) => { const row = el("tr"); if (x.bot === pm.focus) row.className = "focus";
      row.appendChild(el("td", x.bot)); row.appendChild(el("td", `${fmt(x.distance)} cm`, "dim"));
      row.appendChild(el("td", x.can_fire ? x.words : (x.refusal || x.words), x.can_fire ? "ok" : "no"));
      row.onclick = () => premeasure(pm.bot, pm.weapon, x.bot, null); t.appendChild(row); });
    if (!pm.targets.length) box.appendChild(el("div", tx("no other bot on the table"), "dim"));
    box.appendChild(t);
    const f = pm.targets.find((x) => x.bot === pm.focus);
    if (f && f.blocker) box.appendChild(el("div", tx("blocked by {blocker}", { blocker: f.blocker }), "no"));
    if (pm.corridor) box.appendChild(el("div", tx("corridor: {names}", { names: pm.corridor.members.join(", ") || tx("nobody") })));
    if (pm.blast) box.appendChild(el("div", tx("blast: {text}", { text: pm.blast.members.map((m) => `${m.bot}${m.centre ? " " + tx("(centre)") : ""} ${pct(m.chance)}`).join(", ") || tx("nobody") })
      + (pm.blast.safe.length ? "; spared: " + pm.blast.safe.map((s) => `${s.bot} (${s.reason})`).join(", ") : "")));
    if (pm.missile) box.appendChild(el("div", tx("after a miss the missile may turn toward {names}", { names: pm.missile.toward.join(" " + tx("or") + " ") || tx("nothing") })));
    if (pm.flight) box.appendChild(el("div", tx("after a miss the rocket flies on past {names}", { names: pm.flight.bots.join(", ") || tx("nobody") }) + (pm.flight.stopped_by ? " " + tx("to {what}", { what: pm.flight.stopped_by }) : "")));
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
    c.fillStyle = "#dfe3ea"; c.font = "11px system-ui"; c.fillText(tx("fire track: line (green) over what it crosses"), 8, 12);
  }
  function renderPlan() {
    const b = selectedBot(), box = $("planbox"), info = $("planinfo");
    box.hidden = !(b && mine(b)); info.innerHTML = "";
    if (box.hidden) return;
    $("strafes").hidden = !(b.locomotion === "walker" || b.locomotion === "hover");
    const extra = $("extrasteps"); extra.innerHTML = "";
    b.weapons.filter((w) => w.kind === "mine" || w.kind === "magnetic_mine").forEach((w) =>
      extra.appendChild(button(tx("drop {weapon}", { weapon: w.name }), () => addStep("mine:" + w.name))));
    const steps = S.plan && S.plan.bot === b.id ? S.plan.steps : [];
    info.appendChild(el("div", tx("plan: {steps}", { steps: steps.map(stepText).join(", ") || tx("no steps yet (or drag from the bot)") }), "dim"));
    const pl = S.planned; if (!pl || pl.bot !== b.id) return;
    const mv = pl.move || pl.prefix;
    if (mv) info.appendChild(el("div", tx("spent {spent} of {allowed} cm, {left} left · turns used {turns}", { spent: fmt(mv.spent), allowed: fmt(mv.allowed), left: fmt(mv.left), turns: mv.turns_used })));
    if (mv) mv.pieces.filter((p) => p.multiplier !== 1 || p.note).forEach((p) => info.appendChild(el("div", `${p.kind} ${fmt(p.length)} cm ×${p.multiplier} = ${fmt(p.cost)} cm` + (p.note ? ` (${p.note})` : ""), "dim")));
    if (mv && mv.events.length) info.appendChild(el("div", tx("on the way: {events}", { events: mv.events.join("; ") })));
    (pl.offers || []).forEach((o) => info.appendChild(el("div", tx("overwatch: {watcher} may fire ({weapons})", { watcher: o.watcher, weapons: o.weapons.join(", ") }) + (o.after_move ? " " + tx("after the move") : ""), "no")));
    if (pl.refusal) { info.appendChild(el("div", pl.refusal.text, "refusal"));
      (pl.refusal.rules || []).forEach((r) => info.appendChild(el("div", r.rule + " — " + r.text, "dim"))); }
    else if (pl.legal) info.appendChild(el("div", tx("legal"), "ok"));
  }
  function stepText(s) { const k = Object.keys(s)[0], v = s[k];
    if (k === "strafe") return `strafe ${v.distance} at ${v.bearing}°`;
    if (k === "turn") return `turn ${v > 0 ? "+" : ""}${v}°`;
    if (k === "loop") return "loop";
    if (k === "drop_mine") return `drop ${v}`;
    return `${k} ${v}`; }
  function renderActions() {
    const box = $("actions"); box.innerHTML = "";
    if (S.hello && S.hello.table_seat) { box.appendChild(button("Undo", () => send({ type: "undo" }))); box.appendChild(button("Redo", () => send({ type: "redo" }))); }
    if (!S.state || !canAct()) return;
    const active = S.state.active, phase = S.state.phase, p = placingMine();
    if (p) {
      box.appendChild(button("⟲ facing", () => { S.placeFacing = (S.placeFacing + 315) % 360; draw(); }));
      box.appendChild(button(tx("facing ⟳"), () => { S.placeFacing = (S.placeFacing + 45) % 360; draw(); }));
      const go = button(tx("Place here"), () => S.placeAt && commit({ bot: p.id, place: [S.placeAt[0], S.placeAt[1], S.placeFacing] }), "go");
      go.disabled = !S.placeAt; box.appendChild(go); return;
    }
    if (phase === "move" && S.selected === active) {
      const steps = S.plan && S.plan.bot === active ? S.plan.steps : [];
      box.appendChild(button(steps.length ? tx("Commit move") : tx("Stay (commit no move)"), () => commit({ bot: active, move: steps }), "go"));
    }
    if (phase === "shoot") {
      const pm = S.premeasure;
      if (pm && pm.bot === active && (pm.focus || pm.aim)) {
        const order = pm.focus ? { weapon: pm.weapon, target: pm.focus } : { weapon: pm.weapon, at: pm.aim };
        box.appendChild(button(tx("Fire {weapon} at {target}", { weapon: pm.weapon, target: pm.focus || tx("the point") }), () => commit({ bot: active, shoot: [order] }), "go"));
      }
      box.appendChild(button(tx("Set overwatch"), () => commit({ bot: active, overwatch: true })));
      box.appendChild(button(tx("Pass"), () => commit({ bot: active, pass: true })));
      ["reload", "repair", "rust", "leaflet", "part"].forEach((choice) =>
        box.appendChild(button(tx("Service: {choice}", { choice: tx(choice) }), () => commit({ bot: active, service: choice }))));
      box.appendChild(button(tx("Self-destruct…"), () => {
        if (window.confirm(tx("Self-destruct {bot}? It is destroyed.", { bot: active }))) commit({ bot: active, self_destruct: true });
      }, "warn"));
    }
  }
  function renderShow() { const b = $("show"); b.setAttribute("aria-pressed", S.showOn ? "true" : "false"); b.textContent = S.showOn ? tx("Shown on table ✓") : tx("Show on table"); }

  // ---------------------------------------------------------------- requests
  function premeasure(bot, weapon, target, at) {
    S.measureReq = { bot, weapon, target, at, overwatch: S.measureReq && S.measureReq.bot === bot ? !!S.measureReq.overwatch : false };
    resendMeasure(); renderBot();
  }
  function resendMeasure() { const r = S.measureReq; const m = { type: "premeasure", bot: r.bot, weapon: r.weapon, overwatch: !!r.overwatch };
    if (r.target) m.target = r.target; else if (r.at) m.at = r.at; send(m); renderBot(); }
  function planSteps() { const steps = S.plan ? S.plan.steps.slice() : []; if (S.tail) steps.push(S.tail); return steps; }
  function sendPlan() {
    if (!S.plan) return;
    if (planInFlight) { planDirty = true; return; }
    planInFlight = send({ type: "plan", bot: S.plan.bot, steps: planSteps() });
  }
  function commit(action) { S.pendingCommit = action; S.dice = []; send({ type: "commit", action }); }
  function askDie(purpose) {
    const box = $("dice"); box.hidden = false; box.innerHTML = ""; box.appendChild(el("div", tx("Roll a d6 for {purpose}, then tap the result:", { purpose })));
    const row = el("div", null, "row"); for (let v = 1; v <= 6; v++) row.appendChild(button(String(v), () => { S.dice.push(v); box.hidden = true; send({ type: "commit", action: S.pendingCommit, dice: S.dice }); }));
    box.appendChild(row);
  }
  function addStep(kind) {
    const b = selectedBot(); if (!b) return;
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
    sendPlan(); renderPlan();
  }
  function round2(v) { return Math.round(v * 100) / 100; }
  function addStraight(st, cm) { // merges with the last straight step, as the table's planner does
    const last = st[st.length - 1];
    if (last && ("forward" in last || "back" in last)) { const cur = ("forward" in last ? last.forward : -last.back) + cm; st.pop();
      if (Math.abs(cur) > 1e-9) st.push(cur > 0 ? { forward: round2(cur) } : { back: round2(-cur) }); }
    else if (cm) st.push(cm > 0 ? { forward: round2(cm) } : { back: round2(-cm) });
  }
  document.querySelectorAll("[data-plan]").forEach((b) => b.addEventListener("click", () => addStep(b.dataset.plan)));
  $("show").onclick = () => send({ type: "show", on: !S.showOn });
  $("fit").onclick = () => { S.userMoved = false; fit(); draw(); };

  // ---------------------------------------------------------------- touch: tap, pan, pinch, drag a plan
  const pointers = new Map(); let gesture = null;
  function local(ev) { const r = canvas.getBoundingClientRect(); return [ev.clientX - r.left, ev.clientY - r.top]; }
  function botAt(px, py) {
    if (!S.state) return null; const [x, y] = toWorld(px, py); let best = null, bd = 1e9;
    S.state.bots.forEach((b) => { const d = Math.hypot(b.x - x, b.y - y), reach = b.r + Math.max(1.5, 14 / S.view.scale); if (d <= reach && d < bd) { best = b; bd = d; } });
    return best;
  }
  function planEnd() { const b = selectedBot(); const mv = S.planned && S.planned.bot === S.selected && (S.planned.move || S.planned.prefix);
    if (mv && S.plan && S.plan.steps.length) { const p = mv.path[mv.path.length - 1]; return p; } return b ? { x: b.x, y: b.y, facing: b.facing } : null; }
  canvas.addEventListener("pointerdown", (ev) => {
    canvas.setPointerCapture(ev.pointerId); pointers.set(ev.pointerId, local(ev));
    if (pointers.size === 2) { const [a, b] = [...pointers.values()]; gesture = { kind: "pinch", d: Math.hypot(a[0] - b[0], a[1] - b[1]), mid: [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2], view: { ...S.view } }; return; }
    const [px, py] = local(ev), sel = selectedBot(), end = planEnd();
    if (sel && mine(sel) && end) { const [ex, ey] = toScreen(end.x, end.y); if (Math.hypot(px - ex, py - ey) <= Math.max(22, sel.r * S.view.scale + 6)) {
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
    else if (gesture.kind === "drag") { const f = gesture.end.facing * Math.PI / 180, along = (dx * Math.sin(f) - dy * Math.cos(f)) / S.view.scale;
      const cm = round2(along); S.tail = cm > 0 ? { forward: cm } : cm < 0 ? { back: -cm } : null;
      if (!S.plan || S.plan.bot !== S.selected) S.plan = { bot: S.selected, steps: [] }; sendPlan(); }
  });
  function endPointer(ev) {
    if (!pointers.has(ev.pointerId)) return; const pos = local(ev); pointers.delete(ev.pointerId);
    if (!gesture) return;
    if (gesture.kind === "pinch") { if (pointers.size === 0) gesture = null; return; }
    if (gesture.kind === "drag" && gesture.moved) { if (S.tail) { addStraight(S.plan.steps, "forward" in S.tail ? S.tail.forward : -S.tail.back); S.tail = null; sendPlan(); renderPlan(); } gesture = null; return; }
    if (!gesture.moved) tap(pos[0], pos[1]); gesture = null;
  }
  canvas.addEventListener("pointerup", endPointer); canvas.addEventListener("pointercancel", endPointer);
  canvas.addEventListener("wheel", (ev) => { ev.preventDefault(); const p = local(ev); zoomAbout(S.view, p, p, Math.exp(-ev.deltaY / 400)); }, { passive: false });
  function zoomAbout(view, from, to, k) {
    const scale = Math.min(200, Math.max(0.5, view.scale * k)), wx = (from[0] - view.ox) / view.scale, wy = (view.oy - from[1]) / view.scale;
    S.view = { scale, ox: to[0] - wx * scale, oy: to[1] + wy * scale }; S.userMoved = true; draw();
  }
  function tap(px, py) {
    const [x, y] = toWorld(px, py), b = botAt(px, py), p = placingMine();
    if (p && !b) { S.placeAt = [round2(x), round2(y)]; renderActions(); draw(); return; }
    const req = S.measureReq, pm = S.premeasure;
    if (req && pm && b && b.id !== req.bot) { premeasure(req.bot, req.weapon, b.id, null); return; }
    if (req && pm && !b && (pm.kind === "spray" || S.hasExplosive(pm))) { premeasure(req.bot, req.weapon, null, [round2(x), round2(y)]); return; }
    if (b) { if (S.selected !== b.id) { S.selected = b.id; S.premeasure = null; S.measureReq = null; S.tail = null; send({ type: "select", bot: b.id }); } renderAll(); }
  }
  S.hasExplosive = (pm) => { const b = botById(pm.bot); const w = b && b.weapons.find((x) => x.name === pm.weapon); return !!(w && w.explosive); };
  S.tap = (id) => { const s = S.screenOf(id); if (!s) return false; const r = canvas.getBoundingClientRect(); tap(s[0] - r.left, s[1] - r.top); return true; };

  window.addEventListener("resize", resize);
  resize(); connect();
})();
