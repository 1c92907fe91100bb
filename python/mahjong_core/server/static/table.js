// The web table of mahjong-core serve: plain JavaScript, no build step.  It draws what the server's
// "update" frames say (the seat's own view: never a tile the seat may not see) and sends actions
// by their mask index.  The seat's token stays in this browser (localStorage) for a reload.
"use strict";

const SUITS = { m: "万", p: "筒", s: "条" };
const HONORS = [["E", "东"], ["S", "南"], ["W", "西"], ["N", "北"], ["C", "中"], ["F", "发"], ["P", "白"]];
const FLOWERS = ["春", "夏", "秋", "冬", "梅", "兰", "竹", "菊"];
const $ = (id) => document.getElementById(id);

let session = JSON.parse(localStorage.getItem("mahjong-seat") || "null");
let events = [];          // this seat's stream; events[i] has id i + 1
let state = null;         // the last state frame
let stateAt = 0;          // when it arrived (for the countdown)
let ws = null;
let lastSettlement = null;

// ------------------------------------------------------------------ tiles
function tileInfo(t) {
  if (t < 27) { const suit = "mps"[Math.floor(t / 9)]; return { n: String(t % 9 + 1), s: suit, cls: suit, zh: (t % 9 + 1) + SUITS[suit] }; }
  if (t < 34) { const [en, zh] = HONORS[t - 27]; return { n: en, s: "", cls: "z" + (t >= 31 ? " dragon-" + en.toLowerCase() : ""), zh: zh }; }
  return { n: String(t - 33), s: "f", cls: "flower", zh: FLOWERS[t - 34] };
}

function tileText(t) { const i = tileInfo(t); return i.n + i.s; }

function tileEl(t, opts = {}) {
  const el = document.createElement(opts.button ? "button" : "span");
  el.className = "tile" + (opts.small ? " small" : "");
  if (t === null || t === undefined) { el.className += " back"; el.title = "hidden"; return el; }
  const i = tileInfo(t);
  el.className += " " + i.cls;
  el.title = i.zh + " (" + tileText(t) + ")";
  el.dataset.tile = t;
  el.innerHTML = `<span class="n">${i.n}</span><span class="s">${i.s}</span>`;
  return el;
}

function row(label, tiles, small = true) {
  const r = document.createElement("div");
  r.className = "row";
  r.innerHTML = `<span class="label">${label}</span>`;
  for (const t of tiles) r.appendChild(tileEl(t, { small }));
  return r;
}

function meldRow(melds) {
  const r = document.createElement("div");
  r.className = "row";
  r.innerHTML = '<span class="label">melds</span>';
  for (const m of melds) {
    const box = document.createElement("span");
    box.className = "meld";
    box.title = m.kind;
    const tiles = m.tiles || [null, null, null, null];
    for (const t of tiles) box.appendChild(tileEl(t, { small: true }));
    r.appendChild(box);
  }
  return r;
}

// ------------------------------------------------------------------ actions
function actionLabel(a) {
  switch (a.type) {
    case "discard": return (a.ready ? "Ready + discard " : "Discard ") + tileText(a.tile);
    case "chi": return "Chi 吃 " + a.tiles.map(tileText).join(" ");
    case "pon": return "Pon 碰";
    case "kong": return "Kong 杠 " + tileText(a.tile) + " (" + a.kind + ")";
    case "win": return "Win 和";
    case "pass": return "Pass 过";
    case "declare_ready": return "Ready 报听";
    default: return a.type;
  }
}

function act(index) {
  if (ws && ws.readyState === WebSocket.OPEN) {
    ws.send(JSON.stringify({ type: "act", index: index }));
    $("actions").querySelectorAll("button").forEach((b) => { b.disabled = true; });
  }
}

// ------------------------------------------------------------------ drawing
function playerBox(k, view, st) {
  const p = st.players[k];
  const box = document.createElement("div");
  box.className = "player" + (view && view.turn === k ? " turn" : "");
  box.id = "seat-" + k;
  const who = document.createElement("div");
  who.className = "who";
  const level = p ? `${p.zh} ${p.en} (${p.points})` : "";
  who.innerHTML = p
    ? `<span class="name">${escapeHtml(p.name)}${p.bot ? " 🤖" : ""}${k === session.seat ? " (you)" : ""}</span>
       <span class="balance">${p.balance.toLocaleString()}</span><span class="level">${level}</span>
       <span class="conn ${p.connected ? "on" : "off"}">${p.connected ? "online" : "away"}</span>`
    : '<span class="name">empty seat</span>';
  box.appendChild(who);
  if (view) {
    if (k !== session.seat) box.appendChild(row("hand", Array(view.hand_sizes[k]).fill(null)));
    box.appendChild(meldRow(view.melds[k]));
    box.appendChild(row("flowers", view.flowers[k]));
    box.appendChild(row("discards", view.discards[k]));
  }
  return box;
}

function escapeHtml(s) {
  return String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
}

function draw() {
  if (!state) return;
  const st = state, view = st.view;
  $("room-name").textContent = `${session.room} (${session.ruleset})`;
  $("round").textContent = st.round ? `${st.round}/${st.rounds}` : "-";
  $("phase").textContent = st.status === "over" ? "match over: " + (st.end_reason || "") : (view ? view.phase : "waiting for players");
  const opp = $("opponents");
  opp.innerHTML = "";
  st.players.forEach((_, k) => { if (k !== session.seat) opp.appendChild(playerBox(k, view, st)); });
  const me = $("me");
  me.replaceWith(Object.assign(playerBox(session.seat, view, st), { id: "me" }));
  $("me").classList.add("me");
  drawHand(view);
  drawActions(view);
  const claim = $("claim");
  if (view && view.claim) {
    claim.hidden = false;
    claim.innerHTML = "";
    claim.appendChild(document.createTextNode(`Claim window: seat ${view.claim.from}'s ${view.claim.kind} `));
    claim.appendChild(tileEl(view.claim.tile, { small: true }));
  } else {
    claim.hidden = true;
  }
  tickCountdown();
}

function drawHand(view) {
  const hand = $("hand");
  hand.innerHTML = "";
  if (!view) return;
  const discards = new Map();
  view.legal_actions.forEach((a, j) => {
    if (a.type === "discard" && !a.ready && !discards.has(a.tile)) discards.set(a.tile, view.legal_indices[j]);
  });
  let drawnShown = false;
  for (const t of view.hand) {
    const isDrawn = view.drawn === t && !drawnShown && t === view.hand[view.hand.length - 1];
    const el = tileEl(t, { button: true });
    if (discards.has(t)) {
      el.classList.add("playable");
      el.addEventListener("click", () => act(discards.get(t)));
    } else {
      el.disabled = true;
    }
    if (isDrawn) { el.classList.add("drawn"); drawnShown = true; }
    hand.appendChild(el);
  }
}

function drawActions(view) {
  const box = $("actions");
  box.innerHTML = "";
  if (!view || state.status !== "playing") return;
  view.legal_actions.forEach((a, j) => {
    if (a.type === "discard" && !a.ready) return;   // click the tile in the hand
    const b = document.createElement("button");
    b.className = "act " + a.type;
    b.dataset.kind = a.type;
    b.textContent = actionLabel(a);
    b.addEventListener("click", () => act(view.legal_indices[j]));
    box.appendChild(b);
  });
}

function tickCountdown() {
  const el = $("countdown");
  if (!state || state.deadline_s === null || !state.view || !state.view.to_act) { el.hidden = true; return; }
  const left = Math.max(0, state.deadline_s - (performance.now() - stateAt) / 1000);
  el.hidden = false;
  el.textContent = left.toFixed(1) + " s";
}
setInterval(tickCountdown, 200);

function showSettlement(ev) {
  lastSettlement = ev;
  const box = $("result");
  box.hidden = false;
  let html = `<h2>Round ${ev.round}</h2>`;
  if (ev.escaped !== undefined) {
    html += `<p>Seat ${ev.escaped} escaped (${escapeHtml(ev.reason)}).</p>`;
  } else if (ev.draw) {
    html += "<p>Exhaustive draw 荒牌</p>";
  } else {
    html += `<p>Seat ${ev.winner} wins (${ev.method}${ev.loser !== null ? ", on seat " + ev.loser + "'s tile" : ""}): <b>${ev.total}</b> fan</p>`;
    html += "<table><tr><th>番</th><th>Fan</th><th>points</th></tr>" +
      ev.fans.map((f) => `<tr><td lang="zh">${escapeHtml(f.zh)}</td><td>${escapeHtml(f.en)}${f.count > 1 ? " ×" + f.count : ""}</td><td>${f.points * f.count}</td></tr>`).join("") +
      "</table>";
  }
  html += "<h3>Balances</h3><table>" + Object.entries(ev.balances).map(([n, b]) =>
    `<tr><td>${escapeHtml(n)}</td><td>${b.toLocaleString()}</td><td>${escapeHtml(ev.levels[n].zh)} ${escapeHtml(ev.levels[n].en)}</td></tr>`).join("") + "</table>";
  box.innerHTML = html;
}

function logEvent(id, ev) {
  const li = document.createElement("li");
  li.value = id;
  li.textContent = JSON.stringify(ev);
  const log = $("log");
  log.appendChild(li);
  while (log.children.length > 200) log.removeChild(log.firstChild);
}

// ------------------------------------------------------------------ connection
function connect() {
  const url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws";
  ws = new WebSocket(url);
  ws.onopen = () => {
    ws.send(JSON.stringify({ type: "hello", table: session.table, seat: session.seat, token: session.token,
                             last_event_id: events.length }));
  };
  ws.onmessage = (msg) => {
    const f = JSON.parse(msg.data);
    if (f.type === "welcome") {
      $("conn").className = "conn on"; $("conn").textContent = "online";
    } else if (f.type === "update") {
      for (const item of f.events) {
        if (item.id !== events.length + 1) continue;   // already have it
        events.push(item.event);
        logEvent(item.id, item.event);
        if (item.event.type === "settlement") showSettlement(item.event);
        if (item.event.type === "round_start") $("result").hidden = true;
      }
      state = f.state; stateAt = performance.now();
      $("table-error").textContent = "";
      draw();
    } else if (f.type === "error") {
      $("table-error").textContent = f.message;
      draw();
    }
  };
  ws.onclose = (e) => {
    $("conn").className = "conn off"; $("conn").textContent = "offline";
    if (e.code === 4000 || e.code === 1008 || (state && state.status === "over")) return;  // replaced, refused, done
    setTimeout(connect, 1000);
  };
}

function enterTable() {
  $("lobby").hidden = true;
  $("table").hidden = false;
  events = []; state = null;
  connect();
}

async function loadRooms() {
  const r = await fetch("/api/rooms");
  const { rooms } = await r.json();
  $("room").innerHTML = rooms.map((room) =>
    `<option value="${room.name}">${room.name}: ${room.ruleset}, ${room.value_per_fan}/fan, entry ${room.entry_min.toLocaleString()}+</option>`).join("");
}

$("join-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  $("lobby-error").textContent = "";
  const r = await fetch("/api/join", { method: "POST", headers: { "Content-Type": "application/json" },
                                       body: JSON.stringify({ name: $("name").value, room: $("room").value }) });
  const body = await r.json();
  if (!r.ok) { $("lobby-error").textContent = body.error; return; }
  session = body;
  localStorage.setItem("mahjong-seat", JSON.stringify(session));
  enterTable();
});

$("resume").addEventListener("click", enterTable);
$("leave").addEventListener("click", () => {
  if (state && state.status === "playing" && !confirm("Leaving during a hand is an escape (强退) with a penalty. Leave?")) return;
  if (ws && state && state.status === "playing") ws.send(JSON.stringify({ type: "quit" }));
  localStorage.removeItem("mahjong-seat");
  location.reload();
});

loadRooms();
if (session) { $("resume-box").hidden = false; $("resume-id").textContent = session.table; }
