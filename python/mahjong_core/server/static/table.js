// The web table of mahjong-core serve: plain JavaScript, no build step.  It draws what the server's
// "update" frames say (the seat's own view: never a tile the seat may not see) and sends actions
// by their mask index.
//
// The seat's token stays in this tab (sessionStorage) so that a reload resumes the table by itself,
// and in this browser (localStorage) so that a new tab can offer to resume it.  The stream's ids are
// checked: the hello sends the digest of what the page holds (the last state's history), and when the
// server holds something else (the welcome's reset, a lower last_id, or an update that skips ids),
// the page drops what it holds and loads the stream again from the start.
//
// A game family with a web table of its own (the welcome's "web": the URL of its table.js and
// table.css, and its "glossary") draws its tables: its script registers an object in
// window.mjFamilyTables under the family's name, whose functions replace the ones below of the same
// name (seatBox, drawCenter, drawHand, drawActions, drawClaim, describe, resultHeadline, fillResult);
// the rest (the seats' headers, the countdown, the payments, the connection) is this file's.
"use strict";

const CONFIG = Object.assign({ resultSeconds: 12, retryMs: [500, 1000, 2000, 4000] }, window.mjConfig || {});
window.mjConfig = CONFIG;   // the tests shorten the result timer through it

const NUMERALS = ["一", "二", "三", "四", "五", "六", "七", "八", "九"];
const SUITS = { m: ["万", "characters"], p: ["饼", "dots"], s: ["条", "bamboo"] };
const HONORS = [["东", "East", "E"], ["南", "South", "S"], ["西", "West", "W"], ["北", "North", "N"],
                ["中", "Red dragon", "C"], ["发", "Green dragon", "F"], ["白", "White dragon", "P"]];
const FLOWERS = [["春", "Spring"], ["夏", "Summer"], ["秋", "Autumn"], ["冬", "Winter"],
                 ["梅", "Plum"], ["兰", "Orchid"], ["竹", "Bamboo"], ["菊", "Chrysanthemum"]];
const POSITIONS = { 1: ["right", "下家"], 2: ["across", "对家"], 3: ["left", "上家"] };
const METHODS = { self_drawn: "self-drawn 自摸", discard: "on a discard 点炮", robbing: "robbing a kong 抢杠" };
const ESCAPES = { closed_client: "closed the game and did not come back", away: "was away too long",
                  disconnects: "lost the connection too often in one hand", forced_quit: "left the hand (强退)" };
const $ = (id) => document.getElementById(id);
const SEAT_KEY = "mahjong-seat";
const FAMILY_TABLES = window.mjFamilyTables = window.mjFamilyTables || {};   // the families' scripts register here

let session = readSession(sessionStorage) || null;   // this tab's seat: a reload resumes it
let rooms = {};           // name -> the room's rules (/api/rooms)
let events = [];          // this seat's stream as held; events[i] has id i + 1
let state = null;         // the last state frame
let stateAt = 0;          // when it arrived (for the countdowns)
let ws = null;            // the current socket; frames of an older one are ignored
let retries = 0;
let results = [];         // settlements not yet shown
let shown = null;         // the settlement in the result box, and when its timer ends
let lastResult = null;    // the last settlement (shown again on request once the match is over)
let shownUntil = null;
let family = null;        // the welcome's family: {name, web, glossary}
const familyFiles = {};   // web URL -> the promise of its files loaded

function readSession(store) {
  try { return JSON.parse(store.getItem(SEAT_KEY) || "null"); } catch (e) { return null; }
}

function saveSession() {
  const text = JSON.stringify(session);
  sessionStorage.setItem(SEAT_KEY, text);
  localStorage.setItem(SEAT_KEY, text);
}

function forgetSession() {
  sessionStorage.removeItem(SEAT_KEY);
  if ((readSession(localStorage) || {}).token === (session || {}).token) localStorage.removeItem(SEAT_KEY);
  session = null;
}

// ------------------------------------------------------------------ tiles
function tileInfo(t) {
  if (t < 27) {
    const suit = "mps"[Math.floor(t / 9)], n = t % 9;
    return { cls: "suit-" + suit, main: NUMERALS[n], sub: SUITS[suit][0], idx: String(n + 1),
             zh: NUMERALS[n] + SUITS[suit][0], en: (n + 1) + " " + SUITS[suit][1] };
  }
  if (t < 34) {
    const [zh, en, idx] = HONORS[t - 27];
    return { cls: "honor h-" + idx.toLowerCase(), main: zh, sub: "", idx: idx, zh: zh, en: en };
  }
  const [zh, en] = FLOWERS[t - 34];
  return { cls: "flower " + (t < 38 ? "season" : "plant"), main: zh, sub: "", idx: String((t - 34) % 4 + 1), zh: zh, en: en };
}

function tileName(t) { const i = tileInfo(t); return i.zh; }

// a tile drawn with CSS: the Chinese numeral over the suit's character (一 over 万), an honour's or
// a flower's character, and a small Western index in the corner; null is a tile's back
function tileEl(t, size = "", tag = "span") {
  const el = document.createElement(tag);
  el.className = "tile" + (size ? " " + size : "");
  if (t === null || t === undefined) { el.className += " back"; el.title = "hidden tile"; return el; }
  const i = tileInfo(t);
  el.className += " " + i.cls;
  el.title = i.zh + " · " + i.en;
  el.dataset.tile = t;
  el.setAttribute("lang", "zh");
  el.innerHTML = `<span class="idx">${i.idx}</span><span class="main">${i.main}</span>` +
    (i.sub ? `<span class="sub">${i.sub}</span>` : "");
  return el;
}

// a row of pieces in one box: the tiles here, a family's own pieces (the long cards) in its script
function rowEl(items, pieceEl, cls = "tiles") {
  const box = document.createElement("span");
  box.className = cls;
  for (const x of items) box.appendChild(pieceEl(x));
  return box;
}

function tilesEl(tiles, size, cls = "tiles") { return rowEl(tiles, (t) => tileEl(t, size), cls); }

function meldsEl(melds, size) {
  const box = document.createElement("span");
  box.className = "melds";
  for (const m of melds) {
    const g = tilesEl(m.tiles || [null, null, null, null], size, "meld");
    g.title = m.kind;
    box.appendChild(g);
  }
  return box;
}

// ------------------------------------------------------------------ seats, names, positions
function seats() { return state ? state.players.length : 0; }
function offset(k) { return (k - session.seat + seats()) % seats(); }
function position(k) {
  const d = offset(k);
  if (d === 0) return null;
  return seats() === 2 ? POSITIONS[2] : seats() === 3 && d === 2 ? POSITIONS[3] : POSITIONS[d];   // 3: right and left
}
function playerName(k) { const p = state && state.players[k]; return p ? p.name : "seat " + (k + 1); }
// a seat as messages name it: "you", or "name (across)"
function who(k) {
  if (k === null || k === undefined) return "nobody";
  if (k === session.seat) return "you";
  const pos = seats() > k ? position(k) : null;
  return pos ? `${playerName(k)} (${pos[0]})` : playerName(k);
}
function Who(k) { return k === session.seat ? "You" : who(k); }
function windOf(view, k) { return view && view.seat_winds ? HONORS[view.seat_winds[k] - 27] : null; }

function escapeHtml(s) {
  return String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
}

// ------------------------------------------------------------------ a family's own web table
// The family's drawing functions (null: this file's own); undefined while its files load
function familyTable() {
  if (!family || !family.web) return null;
  return FAMILY_TABLES[family.name];
}

// this file's function `name`, or the family's of that name
function drawer(name, own) {
  const fam = familyTable();
  return fam && fam[name] ? fam[name] : own;
}

function loadFamilyFiles(web) {
  if (!familyFiles[web]) {
    familyFiles[web] = new Promise((resolve, reject) => {
      const css = document.createElement("link");
      css.rel = "stylesheet";
      css.href = web + "table.css";
      document.head.appendChild(css);
      const js = document.createElement("script");
      js.src = web + "table.js";
      js.onload = resolve;
      js.onerror = () => { delete familyFiles[web]; reject(new Error("the family's web table did not load")); };
      document.head.appendChild(js);
    });
  }
  return familyFiles[web];
}

// the family's files are loaded: what waited for them is drawn
function familyLoaded() {
  $("log").innerHTML = "";
  events.forEach((ev, i) => logEvent(i + 1, ev));
  draw();
  showNextResult();
}

// ------------------------------------------------------------------ actions
function actionButton(a, index) {
  const b = document.createElement("button");
  b.className = "act " + a.type;
  b.dataset.kind = a.type;
  const label = (text, zh) => { b.innerHTML = `${text} <span lang="zh">${zh}</span> `; };
  switch (a.type) {
    case "discard": label("Ready", "报听"); b.append("+ discard ", tileEl(a.tile, "xs")); break;
    case "chi": label("Chi", "吃"); b.append(tilesEl(a.tiles, "xs")); break;
    case "pon": label("Pon", "碰"); b.append(tileEl(a.tile, "xs")); break;
    case "kong": label("Kong", "杠"); b.append(tileEl(a.tile, "xs"), ` ${a.kind}`); break;
    case "win": label("Win", "和"); break;
    case "pass": label("Pass", "过"); break;
    case "declare_ready": label("Ready", "报听"); break;
    default: b.textContent = a.type;
  }
  b.addEventListener("click", () => act(index));
  return b;
}

function act(index) {
  if (ws && ws.readyState === WebSocket.OPEN) {
    ws.send(JSON.stringify({ type: "act", index: index }));
    document.querySelectorAll("#actions button, #hand button").forEach((b) => { b.disabled = true; });
  }
}

// ------------------------------------------------------------------ drawing the table
function seatHeader(k, view) {
  const p = state.players[k];
  const line = document.createElement("div");
  line.className = "who";
  if (!p) { line.innerHTML = '<span class="name">empty seat</span>'; return line; }
  const wind = windOf(view, k), pos = position(k);
  const dealer = view && view.dealer === k;
  line.innerHTML =
    (wind ? `<span class="wind" lang="zh" title="seat wind: ${wind[1]}">${wind[0]}</span>` : "") +
    `<span class="name">${escapeHtml(p.name)}</span>` +
    `<span class="pos">${pos ? `${pos[0]} <span lang="zh">${pos[1]}</span>` : "you"}</span>` +
    (dealer ? '<span class="badge dealer" title="dealer">庄 dealer</span>' : "") +
    (p.bot ? '<span class="badge bot">bot</span>' : "") +
    `<span class="balance" title="balance">${p.balance.toLocaleString()}</span>` +
    `<span class="level" title="level, ${p.points} points"><span lang="zh">${escapeHtml(p.zh)}</span> ${escapeHtml(p.en)}</span>` +
    `<span class="dot ${p.connected ? "on" : "off"}" title="${p.connected ? "connected" : "away"}"></span>`;
  return line;
}

function seatBox(k, view) {
  const box = document.createElement("div");
  const me = k === session.seat;
  box.className = "seat" + (me ? " mine" : "") + (view && view.turn === k ? " turn" : "");
  box.id = "seat-" + k;
  box.appendChild(seatHeader(k, view));
  if (view) {
    const top = document.createElement("div");
    top.className = "row";
    // a winner's hand is laid down when the round is settled: face up once the match is over
    const laid = state.status === "over" && lastResult && lastResult.round === state.round && lastResult.revealed
      ? lastResult.revealed.find((r) => r.seat === k) : null;
    if (laid && !me) {
      const open = tilesEl(laid.concealed, "sm", "tiles revealed-hand");
      const win = tileEl(laid.win_tile, "sm");
      win.classList.add("win-tile");
      open.appendChild(win);
      open.title = "the winning hand";
      top.appendChild(open);
      top.appendChild(meldsEl(view.melds[k], "sm"));
    } else if (!me) {
      const hidden = tilesEl(Array(view.hand_sizes[k]).fill(null), "back-edge", "tiles concealed");
      hidden.title = `${view.hand_sizes[k]} concealed tiles`;
      top.appendChild(hidden);
      top.appendChild(meldsEl(view.melds[k], "sm"));
    }
    if (view.flowers[k].length) top.appendChild(tilesEl(view.flowers[k], "xs", "tiles flowers"));
    if (view.ready && view.ready[k]) top.insertAdjacentHTML("beforeend", '<span class="badge ready">报听 ready</span>');
    if (top.children.length) box.appendChild(top);
    const discards = tilesEl(view.discards[k], "sm", "tiles discards");
    discards.setAttribute("aria-label", "discards");
    box.appendChild(discards);
  }
  return box;
}

function draw() {
  if (!state || !session || familyTable() === undefined) return;   // the family's files load: drawn then
  const st = state, view = st.view, n = seats();
  $("leave").textContent = st.status === "over" ? "Back to the lobby" : "Leave";
  $("room-name").textContent = `${session.room} room · ${session.ruleset} rules · table ${session.table}`;
  const board = $("board");
  board.className = "board players-" + n;
  for (const id of ["pos-top", "pos-left", "pos-right", "pos-bottom"]) $(id).innerHTML = "";
  st.players.forEach((_, k) => {
    const d = offset(k);
    const area = d === 0 ? "pos-bottom" : n === 2 ? "pos-top" : n === 3 ? ["", "pos-right", "pos-left"][d]
      : ["", "pos-right", "pos-top", "pos-left"][d];
    $(area).appendChild(drawer("seatBox", seatBox)(k, view));
  });
  drawer("drawCenter", drawCenter)(st, view);
  drawer("drawHand", drawHand)(view);
  drawer("drawActions", drawActions)(view);
  drawer("drawClaim", drawClaim)(view);
  document.documentElement.style.setProperty("--dock-h", $("dock").offsetHeight + "px");
  tick();
}

function drawCenter(st, view) {
  $("round").textContent = st.round ? `Round ${st.round} of ${st.rounds}` : "Waiting";
  const rw = view && view.round_wind !== null && view.round_wind !== undefined ? HONORS[view.round_wind - 27] : null;
  $("round-wind").hidden = !rw;
  if (rw) $("round-wind").innerHTML = `<span lang="zh">${rw[0]}风圈</span> ${rw[1]} round`;
  $("wall").textContent = view ? `${view.wall_remaining} tiles left` : "";
  let phase;
  if (st.status === "over") phase = "Match over: " + endReason();
  else if (!view) phase = "Waiting for players";
  else if (view.to_act && view.phase === "turn" && view.turn === session.seat) phase = "Your turn: click a tile to discard it";
  else if (view.to_act) phase = "Your decision";
  else if (view.turn !== null && view.turn !== undefined) phase = `${Who(view.turn)} to play`;
  else phase = view.phase.replace(/_/g, " ");
  $("phase").textContent = phase;
  const last = lastPlay();
  const box = $("last");
  box.innerHTML = "";
  if (st.status === "over" && lastResult && !shown) {
    const again = document.createElement("button");
    again.type = "button";
    again.id = "result-again";
    again.textContent = `Round ${lastResult.round}'s result`;
    again.addEventListener("click", () => { results.push(lastResult); showNextResult(); draw(); });
    box.appendChild(again);
  } else if (last) {
    box.append(last.text + " ");
    if (last.tile !== undefined) box.appendChild(tileEl(last.tile, "sm"));
  }
}

// why the match ended, in words (the server's reason names seats by number)
function endReason() {
  const escape = events.filter((e) => e.type === "escape").pop();
  if (escape) return `${Who(escape.seat)} ${ESCAPES[escape.reason] || escape.reason}`;
  return state.end_reason === "the match is complete" ? `all ${state.rounds} rounds played` : (state.end_reason || "");
}

// the latest discard or claim of this round, for the centre of the table
function lastPlay() {
  for (let i = events.length - 1; i >= 0; i--) {
    const ev = events[i];
    if (ev.type === "round_start") return null;
    if (ev.type === "discard") return { text: `${Who(ev.seat)} discarded`, tile: ev.tile };
    if (ev.type === "chi" || ev.type === "pon") return { text: `${Who(ev.seat)} claimed (${ev.type})`, tile: ev.tile };
    if (ev.type === "kong") return { text: `${Who(ev.seat)} declared a kong`, tile: ev.kind === "concealed" && ev.seat !== session.seat ? undefined : ev.tile };
  }
  return null;
}

function drawHand(view) {
  const hand = $("hand");
  hand.innerHTML = "";
  $("my-melds").innerHTML = "";
  if (!view) return;
  const discards = new Map();
  if (state.status === "playing") {
    view.legal_actions.forEach((a, j) => {
      if (a.type === "discard" && !a.ready && !discards.has(a.tile)) discards.set(a.tile, view.legal_indices[j]);
    });
  }
  // the hand comes sorted; the tile just drawn is set apart at its right end, as at a real table
  const tiles = view.hand.slice();
  let drawn = null;
  const at = view.drawn === null || view.drawn === undefined ? -1 : tiles.lastIndexOf(view.drawn);
  if (at >= 0) drawn = tiles.splice(at, 1)[0];
  const add = (t, extra) => {
    const el = tileEl(t, "", "button");
    el.type = "button";
    if (extra) el.classList.add(extra);
    if (discards.has(t)) {
      el.classList.add("playable");
      el.addEventListener("click", () => act(discards.get(t)));
    } else {
      el.disabled = true;
    }
    hand.appendChild(el);
  };
  tiles.forEach((t) => add(t));
  if (drawn !== null) add(drawn, "drawn");
  $("my-melds").appendChild(meldsEl(view.melds[session.seat], "sm"));
}

function drawActions(view) {
  const box = $("actions");
  box.innerHTML = "";
  if (!view || state.status !== "playing") return;
  view.legal_actions.forEach((a, j) => {
    if (a.type === "discard" && !a.ready) return;   // a tile of the hand is clicked
    box.appendChild(actionButton(a, view.legal_indices[j]));
  });
}

function drawClaim(view) {
  const claim = $("claim");
  // only a seat that is asked sees the claim window (it has actions on the tile)
  if (view && view.claim && view.legal_actions.length && state.status === "playing") {
    claim.hidden = false;
    claim.innerHTML = "";
    claim.append(`${Who(view.claim.from)} ${view.claim.kind === "discard" ? "discarded" : "adds a kong with"} `);
    claim.appendChild(tileEl(view.claim.tile, "sm"));
    claim.append(" — claim it?");
  } else {
    claim.hidden = true;
  }
}

// the countdowns: the seat's deadline and the result box's timer
function tick() {
  const el = $("countdown");
  if (!state || state.deadline_s === null || !state.view || !state.view.to_act || state.status !== "playing") {
    el.hidden = true;
  } else {
    const left = Math.max(0, state.deadline_s - (performance.now() - stateAt) / 1000);
    el.hidden = false;
    el.textContent = left.toFixed(0) + " s";
    el.title = "then the bot plays for you (托管)";
  }
  if (shown && shownUntil !== null) {
    const left = Math.ceil((shownUntil - performance.now()) / 1000);
    if (left <= 0) closeResult();
    else $("result-continue").textContent = `Continue (${left})`;
  }
}
setInterval(tick, 200);

// ------------------------------------------------------------------ the result of each round
function queueResult(ev) {
  if (ev.round <= (session.seenRound || 0)) return;   // closed already (before a reload)
  results.push(ev);
}

function showNextResult() {
  if (familyTable() === undefined) return;   // shown when the family's files are loaded
  if (shown) {
    // a box shown while the match went on: its timer stops when the match ends
    if (state && state.status !== "playing") { shownUntil = null; $("result-continue").textContent = "Continue"; }
    return;
  }
  if (!results.length) return;
  shown = results.shift();
  const box = $("result");
  box.innerHTML = resultHtml(shown);
  box.hidden = false;
  drawer("fillResult", () => {})(box, shown);
  box.querySelectorAll("[data-tiles]").forEach((el) => {
    const r = shown.revealed[Number(el.dataset.tiles)];
    el.appendChild(tilesEl(r.concealed, "md", "tiles"));
    el.appendChild(meldsEl(r.melds, "md"));
    const win = tileEl(r.win_tile, "md");
    win.classList.add("win-tile");
    win.title += " · the winning tile";
    el.appendChild(win);
    if (r.flowers.length) el.appendChild(tilesEl(r.flowers, "xs", "tiles flowers"));
  });
  const timed = state && state.status === "playing";
  shownUntil = timed ? performance.now() + CONFIG.resultSeconds * 1000 : null;
  const button = $("result-continue");
  button.textContent = timed ? `Continue (${CONFIG.resultSeconds})` : "Continue";
  button.addEventListener("click", closeResult);
  box.scrollTop = 0;
}

function closeResult() {
  if (!shown) return;
  session.seenRound = Math.max(session.seenRound || 0, shown.round);
  saveSession();
  shown = null;
  shownUntil = null;
  $("result").hidden = true;
  showNextResult();
  draw();
}

function resultHtml(ev) {
  const rounds = state ? state.rounds : "?";
  let html = `<div class="top"><h2 id="result-title">Round ${ev.round} of ${rounds}</h2>` +
    '<button type="button" id="result-continue">Continue</button></div>';
  const headline = drawer("resultHeadline", null);
  if (ev.escaped !== undefined) {
    html += `<p class="headline">${escapeHtml(Who(ev.escaped))} ${escapeHtml(ESCAPES[ev.reason] || ev.reason)}: an escape, the match ends.</p>`;
  } else if (headline) {
    html += headline(ev) + '<div class="body">' + (ev.fans && ev.fans.length ? fansTable(ev.fans) : "");
  } else if (ev.draw) {
    html += '<p class="headline">Exhaustive draw <span lang="zh">荒牌</span>: nobody won.</p>';
  } else {
    const method = METHODS[ev.method] || ev.method;
    const from = ev.loser !== null && ev.loser !== undefined ? `, ${who(ev.loser)} discarded it` : "";
    html += `<p class="headline">${escapeHtml(Who(ev.winner))} ${ev.winner === session.seat ? "win" : "wins"} ${escapeHtml(method)}${escapeHtml(from)}: ` +
      `<b>${ev.total}</b> <span lang="zh">番</span> fan</p>`;
    (ev.revealed || []).forEach((r, i) => {
      html += `<div class="revealed" data-tiles="${i}" aria-label="winning hand of ${escapeHtml(who(r.seat))}"></div>`;
    });
    html += '<div class="body">' + fansTable(ev.fans);
  }
  const change = {};
  for (const t of ev.transfers || []) {
    change[t.payer] = (change[t.payer] || 0) - t.amount;
    change[t.payee] = (change[t.payee] || 0) + t.amount;
  }
  const names = Object.keys(ev.balances);
  if (!html.includes('<div class="body">')) html += '<div class="body">';
  html += '<table class="payments"><tr><th>Player</th><th class="num">this hand</th><th class="num">balance</th><th class="level">level</th></tr>' +
    names.map((name) => {
      const k = state ? state.players.findIndex((p) => p && p.name === name) : -1;
      const c = change[name] || 0;
      return `<tr${k === session.seat ? ' class="mine"' : ""}><td>${escapeHtml(k >= 0 ? who(k) === "you" ? name + " (you)" : who(k) : name)}</td>` +
        `<td class="num ${c > 0 ? "plus" : c < 0 ? "minus" : ""}">${c > 0 ? "+" : ""}${c.toLocaleString()}</td>` +
        `<td class="num">${ev.balances[name].toLocaleString()}</td>` +
        `<td class="level"><span lang="zh">${escapeHtml(ev.levels[name].zh)}</span> ${escapeHtml(ev.levels[name].en)}</td></tr>`;
    }).join("") + "</table></div>";
  const others = Object.keys(change).filter((n) => !(n in ev.balances) && change[n]);
  if (others.length) html += `<p class="fees">${others.map((n) => `${escapeHtml(n)} ${change[n] > 0 ? "+" : ""}${change[n]}`).join(", ")} (fees)</p>`;
  return html;
}

function fansTable(fans) {
  return '<table class="fans"><tr><th lang="zh">番种</th><th>Fan</th><th class="num">fan</th></tr>' +
    fans.map((f) => `<tr><td lang="zh" class="zh">${escapeHtml(f.zh)}</td><td>${escapeHtml(f.en)}${f.count > 1 ? " ×" + f.count : ""}</td>` +
                    `<td class="num">${f.points * f.count}</td></tr>`).join("") + "</table>";
}

// ------------------------------------------------------------------ the event log, in words
function describe(ev) {
  switch (ev.type) {
    case "match_start": return `Match of ${ev.rounds} rounds in the ${ev.room} room`;
    case "round_start": return `Round ${ev.round}: ${who(ev.dealer)} ${ev.dealer === session.seat ? "deal" : "deals"}`;
    case "draw": return ev.tile !== undefined ? `You draw ${tileName(ev.tile)}` : `${Who(ev.seat)} ${ev.seat === session.seat ? "draw" : "draws"}`;
    case "discard": return `${Who(ev.seat)} ${ev.seat === session.seat ? "discard" : "discards"} ${tileName(ev.tile)}${ev.ready ? " and declares ready 报听" : ""}`;
    case "flower": return `${Who(ev.seat)} set${ev.seat === session.seat ? "" : "s"} aside the flower ${tileName(ev.tile)}`;
    case "chi": return `${Who(ev.seat)} chi 吃 ${ev.tiles.map(tileName).join(" ")}`;
    case "pon": return `${Who(ev.seat)} pon 碰 ${tileName(ev.tile)}`;
    case "kong": return `${Who(ev.seat)} kong 杠 ${ev.tile !== undefined && ev.tile !== null ? tileName(ev.tile) : ""} (${ev.kind})`;
    case "win": return `${Who(ev.seat)} win${ev.seat === session.seat ? "" : "s"}: ${ev.total} fan`;
    case "exhaustive_draw": return "The wall is exhausted: a draw 荒牌";
    case "escape": return `${Who(ev.seat)} ${ESCAPES[ev.reason] || ev.reason}: an escape`;
    case "settlement": return `Round ${ev.round} settled`;
    case "match_end": return "Match over";
    default: return null;
  }
}

function logEvent(id, ev) {
  if (familyTable() === undefined) return;   // logged when the family's files are loaded (familyLoaded)
  const own = drawer("describe", null);
  let text = own ? own(ev) : undefined;
  if (text === undefined) text = describe(ev);   // the table's own events, and every event without a family table
  if (text === null) return;
  const li = document.createElement("li");
  li.value = id;
  li.textContent = text;
  const log = $("log");
  log.appendChild(li);
  while (log.children.length > 300) log.removeChild(log.firstChild);
}

// ------------------------------------------------------------------ the connection
let noticeTimer = null;
function notice(text, seconds) {
  $("notice").textContent = text;
  clearTimeout(noticeTimer);
  if (seconds) noticeTimer = setTimeout(() => { $("notice").textContent = ""; }, seconds * 1000);
}

function setOnline(on, text) {
  $("conn").className = "conn " + (on ? "on" : "off");
  $("conn").textContent = text || (on ? "online" : "offline");
}

function connect() {
  const sock = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws");
  ws = sock;
  let welcomed = false;
  sock.onopen = () => {
    const hello = { type: "hello", table: session.table, seat: session.seat, token: session.token,
                    last_event_id: events.length };
    if (events.length && state && typeof state.history === "string") hello.history = state.history;
    sock.send(JSON.stringify(hello));
  };
  sock.onmessage = (msg) => {
    if (sock !== ws) return;            // an older socket, replaced by a resync
    const f = JSON.parse(msg.data);
    if (f.type === "welcome") {
      welcomed = true;
      family = { name: f.family || null, web: f.web || null, glossary: f.glossary || null };
      document.body.dataset.family = family.name || "";   // a family's own CSS applies under it only
      if (family.web) loadFamilyFiles(family.web).then(familyLoaded, (e) => { $("table-error").textContent = e.message; });
      retries = 0;
      setOnline(true);
      // the server tells a history it does not hold (reset: its digest of what this page holds
      // differs, e.g. after a lost WAL): drop it, the next update starts at the first event
      if (f.reset === true) dropHistory();
      else if (typeof f.last_id !== "number" || f.last_id < events.length) { resync(); return; }
      if (f.disconnects) roomsLoaded.then(() => {
        const room = session && rooms[session.room];
        if (room && room.escape_rules.includes("disconnects")) {
          notice(`Reconnected. Lost connections in this hand: ${f.disconnects} of ${room.escape_disconnects} ` +
                 `(at ${room.escape_disconnects} it is an escape in the ${room.name} room).`, 20);
        }
      });
    } else if (f.type === "update") {
      applyUpdate(f);
    } else if (f.type === "error") {
      if (!welcomed) { tableGone(f.message); return; }
      $("table-error").textContent = f.message;
      draw();
    }
  };
  sock.onclose = (e) => {
    if (sock !== ws) return;
    setOnline(false);
    if (!welcomed && e.code === 1008) return;        // the hello was refused: tableGone said why
    if (e.code === 4000) {                           // the seat connected elsewhere
      notice("This seat was opened in another tab or window.");
      showTakeBack();
      return;
    }
    if (pageHidden || (state && state.status === "over")) return;
    const wait = CONFIG.retryMs[Math.min(retries, CONFIG.retryMs.length - 1)];
    retries += 1;
    setOnline(false, "reconnecting…");
    setTimeout(() => { if (sock === ws && session) connect(); }, wait);
  };
}

function applyUpdate(f) {
  const fresh = f.events.filter((item) => item.id > events.length);   // the rest is held already
  // a gap, or a state behind what this page holds: not the history this page holds
  if (fresh.some((item, j) => item.id !== events.length + 1 + j) || f.state.last_id < events.length + fresh.length) {
    resync();
    return;
  }
  state = f.state;
  stateAt = performance.now();
  for (const item of fresh) {
    events.push(item.event);
    logEvent(item.id, item.event);
    if (item.event.type === "settlement") { lastResult = item.event; queueResult(item.event); }
  }
  $("table-error").textContent = "";
  draw();
  showNextResult();
}

// the server's history is not the one this page holds (e.g. it lost its last commits): drop it
// and load the stream from the start on a new connection, which replaces this one (4000)
function resync() {
  dropHistory();
  connect();
}

function dropHistory() {
  events = [];
  state = null;
  results = [];
  lastResult = null;
  $("log").innerHTML = "";
  notice("The server's history changed (it lost its last moves); the table was loaded again.", 20);
}

function showTakeBack() {
  const b = document.createElement("button");
  b.type = "button";
  b.id = "take-back";
  b.textContent = "Play here";
  b.addEventListener("click", () => { notice(""); connect(); });
  $("notice").append(" ", b);
}

function tableGone(message) {
  const table = session ? session.table : "";
  forgetSession();
  ws = null;
  showLobby();
  $("lobby-note").textContent = `Table ${table} is no longer open: the match ended, or the server does not know the seat (${message}).`;
}

function enterTable() {
  $("lobby").hidden = true;
  $("table").hidden = false;
  $("extras").hidden = false;
  $("leave").hidden = false;
  events = []; state = null; results = []; shown = null; shownUntil = null; lastResult = null;
  $("result").hidden = true;
  $("log").innerHTML = "";
  notice("");
  connect();
}

function showLobby() {
  $("table").hidden = true;
  $("extras").hidden = true;
  $("leave").hidden = true;
  $("lobby").hidden = false;
  $("room-name").textContent = "";
  const saved = readSession(localStorage);
  $("resume-box").hidden = !saved;
  if (saved) $("resume-id").textContent = saved.table;
}

async function loadRooms() {
  const r = await fetch("/api/rooms");
  const body = await r.json();
  rooms = Object.fromEntries(body.rooms.map((room) => [room.name, room]));
  $("room").innerHTML = body.rooms.map((room) =>
    `<option value="${room.name}">${room.name}: ${room.ruleset}, ${room.players} players, ${room.value_per_fan}/fan, entry ${room.entry_min.toLocaleString()}+</option>`).join("");
}

$("join-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  $("lobby-error").textContent = "";
  $("lobby-note").textContent = "";
  const r = await fetch("/api/join", { method: "POST", headers: { "Content-Type": "application/json" },
                                       body: JSON.stringify({ name: $("name").value, room: $("room").value }) });
  const body = await r.json();
  if (!r.ok) { $("lobby-error").textContent = body.error; return; }
  session = body;
  saveSession();
  enterTable();
});

$("resume").addEventListener("click", () => {
  session = readSession(localStorage);
  if (!session) { showLobby(); return; }
  saveSession();
  enterTable();
});

$("leave").addEventListener("click", () => {
  const playing = state && state.status === "playing";
  if (playing && !confirm("Leaving during a hand is an escape (强退) with a penalty. Leave?")) return;
  if (playing && ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ type: "quit" }));
  const sock = ws;
  forgetSession();
  ws = null;
  if (sock) setTimeout(() => sock.close(1000), playing ? 300 : 0);
  setOnline(false);
  showLobby();
});

// leaving the page (a reload, another site) closes the socket at once, even where the browser would
// keep the page alive in its back/forward cache; coming back to a kept page connects again
let pageHidden = false;
window.addEventListener("pagehide", () => {
  pageHidden = true;
  if (ws) ws.close(1000, "page hidden");
});
window.addEventListener("pageshow", (e) => {
  pageHidden = false;
  if (e.persisted && session && (!ws || ws.readyState > WebSocket.OPEN)) connect();
});

const roomsLoaded = loadRooms().catch(() => { $("lobby-error").textContent = "The server did not list its rooms."; });
if (session) enterTable();    // a reload: resume this tab's seat without the lobby form
else showLobby();
