// The long-card family's web table (长牌 幺地人, spec changpai.md 8.3): loaded by the server's web
// table (server/static/table.js) for a table of the family, whose shared parts (the seats' headers,
// the countdown, the payments, the connection) it uses.  It draws what the seat may see: its own
// cards, every seat's declared groups, 堂子, 财神 and folded flag, the number of the others' concealed
// cards (face down), the banker and the 起 player, the two 五门将 cards, the stock, the card on offer,
// the stage of the hand (起, 偷牌, play) and whose decision it is, and marks a legal choice that
// incurs 包子 with its cause (the view's "baozi", spec 3.13) before it is taken.
//
// A card is drawn as a domino: its two pip halves (red pips of 1 and 4 in red), its Chinese name and
// pips on hover (the glossary the server sends in the welcome: names, pips, points, glyphs).
"use strict";

(() => {
  const PIP_AT = { 1: [4], 2: [0, 8], 3: [0, 4, 8], 4: [0, 2, 6, 8], 5: [0, 2, 4, 6, 8], 6: [0, 2, 3, 5, 6, 8] };
  const ACTIONS = {
    pass: ["过", "Pass"], qi: ["起", "Qi: declare"], fold: ["扣", "Fold"], hu: ["胡", "Win"], peng: ["碰", "Peng"],
    sha: ["杀", "Sha"], xiang: ["吐火响", "Xiang"], chi: ["吃", "Chi"], discard: ["打", "Discard"],
  };
  // what "pass" does in each phase (spec 8.2)
  const PASS = { qi: ["过", "Stay in"], stay: ["打", "Play on"], turn: ["翻", "Turn a card"], claim: ["过", "Pass"] };

  const glossary = () => (family && family.glossary) || { faces: [], causes: {}, kinds: {}, phases: {} };
  const face = (f) => glossary().faces[f] || { pips: [0, 0], zh: "?", points: 0, names: [] };
  const cardName = (f) => (f === 21 ? "财神" : `${face(f).zh} ${face(f).pips.join("")}`);
  const cause = (c) => `包子 ${c} ${glossary().causes[c] || ""}`.trim();

  function half(n, red) {
    const el = document.createElement("span");
    el.className = "lc-half";
    const at = PIP_AT[n] || [];
    for (let i = 0; i < 9; i++) {
      const pip = document.createElement("i");
      if (at.includes(i)) pip.className = red ? "pip red" : "pip";
      el.appendChild(pip);
    }
    return el;
  }

  // one long card: f a face id 0-20, 21 财神, null a card face down
  function cardEl(f, size = "", tag = "span") {
    const el = document.createElement(tag);
    el.className = "tile lc" + (size ? " " + size : "");
    if (f === null || f === undefined) { el.className += " back"; el.title = "hidden card"; return el; }
    el.dataset.card = f;
    el.setAttribute("lang", "zh");
    if (f === 21) {
      el.className += " caishen";
      el.title = "财神 · caishen (+1 fan)";
      el.innerHTML = '<span class="lc-name">财神</span>';
      return el;
    }
    const g = face(f);
    const [a, b] = g.pips;
    el.title = `${g.zh} · ${a}${b} · ${g.points} points${g.names.length > 1 ? " · " + g.names.slice(1).join(" ") : ""}`;
    el.appendChild(half(a, a === 1 || a === 4 || (a === 6 && b === 6)));
    el.appendChild(half(b, b === 1 || b === 4));
    return el;
  }

  function cardsEl(cards, size, cls = "tiles") { return rowEl(cards, (f) => cardEl(f, size), cls); }

  function groupsEl(groups, size) {
    const box = document.createElement("span");
    box.className = "melds";
    for (const g of groups) {
      const el = cardsEl(g.cards, size, "meld");
      el.dataset.kind = g.kind;
      el.title = `${glossary().kinds[g.kind] || g.kind}${g.from !== null && g.from !== undefined ? " from " + who(g.from) : ""}`;
      box.appendChild(el);
    }
    return box;
  }

  const countsToCards = (counts) => counts.flatMap((n, f) => Array(n).fill(f));

  function seatBox(k, view) {
    const box = document.createElement("div");
    const me = k === session.seat;
    box.className = "seat" + (me ? " mine" : "") + (view && view.actor === k ? " turn" : "");
    box.id = "seat-" + k;
    box.appendChild(seatHeader(k, view));
    if (!view) return box;
    const t = view.table[k];
    const badges = document.createElement("div");
    badges.className = "row lc-badges";
    if (view.qi_player === k) badges.insertAdjacentHTML("beforeend", '<span class="badge qi" lang="zh" title="the 起 player">起</span>');
    if (t.folded) badges.insertAdjacentHTML("beforeend", '<span class="badge folded" title="folded">扣 folded</span>');
    if (view.actor === k && view.phase !== "end") badges.insertAdjacentHTML("beforeend", '<span class="badge deciding">deciding</span>');
    if (t.caishen) {
      const cs = cardsEl(Array(t.caishen).fill(21), "xs", "tiles caishen-row");
      cs.title = `${t.caishen} 财神 laid out`;
      badges.appendChild(cs);
    }
    if (badges.children.length) box.appendChild(badges);
    const top = document.createElement("div");
    top.className = "row";
    if (!me) {
      const hidden = cardsEl(Array(t.concealed).fill(null), "back-edge", "tiles concealed");
      hidden.title = `${t.concealed} concealed cards`;
      top.appendChild(hidden);
      top.appendChild(groupsEl(t.declared, "sm"));   // the seat's own are beside its hand, in the dock
    }
    if (top.children.length) box.appendChild(top);
    const tangzi = cardsEl(t.tangzi, "xs", "tiles discards tangzi");
    tangzi.setAttribute("aria-label", "堂子");
    tangzi.title = "堂子: the cards nobody took";
    box.appendChild(tangzi);
    return box;
  }

  function stage(view) {
    const p = glossary().phases[view.phase];
    return p ? (p.zh ? `${p.zh} · ${p.en}` : p.en) : view.phase;
  }

  function drawCenter(st, view) {
    $("round").textContent = st.round ? `Hand ${st.round} of ${st.rounds}` : "Waiting";
    $("round-wind").hidden = true;
    $("wall").textContent = view ? `stock ${view.stock_left}` : "";
    let phase;
    if (st.status === "over") phase = "Match over";
    else if (!view) phase = "Waiting for players";
    else if (view.to_act) phase = `Your decision — ${stage(view)}`;
    else if (view.actor === null || view.actor === undefined) phase = view.phase === "claim" ? "A claim window is open" : stage(view);
    else phase = `${Who(view.actor)} to decide — ${stage(view)}`;
    $("phase").textContent = phase;
    $("phase").dataset.phase = view ? view.phase : "";
    const box = $("last");
    box.innerHTML = "";
    if (!view) return;
    if (view.jiang) {
      const j = document.createElement("span");
      j.className = "lc-jiang";
      j.title = "五门将 J1 J2";
      j.append("将 ", cardsEl(view.jiang, "sm"));
      box.appendChild(j);
    }
    if (view.offer) {
      const o = document.createElement("span");
      o.className = "lc-offer";
      o.append(`${Who(view.offer.from)} ${view.offer.kind === "turn" ? "turned" : "discarded"} `, cardEl(view.offer.card, "sm"));
      box.appendChild(o);
    }
  }

  // the legal actions of the seat with the 包子 cause each incurs (null: none)
  function legal(view) {
    if (!view || state.status !== "playing") return [];
    return view.legal_actions.map((a, j) => ({ a, index: view.legal_indices[j], baozi: (view.baozi || [])[j] || null }));
  }

  function markPenalty(el, baozi) {
    if (!baozi) return;
    el.classList.add("penalised");
    el.dataset.baozi = baozi;
    el.title = `${cause(baozi)}: taking it ends the hand and you pay every other seat` + (el.title ? " · " + el.title : "");
    const mark = document.createElement("span");
    mark.className = "baozi-mark";
    mark.setAttribute("lang", "zh");
    mark.textContent = `包子 ${baozi}`;
    el.appendChild(mark);
  }

  function drawHand(view) {
    const hand = $("hand");
    hand.innerHTML = "";
    $("my-melds").innerHTML = "";
    if (!view) return;
    const discards = new Map();
    for (const x of legal(view)) if (x.a.type === "discard") discards.set(x.a.face, x);
    for (const f of countsToCards(view.hand)) {
      const el = cardEl(f, "", "button");
      el.type = "button";
      const x = discards.get(f);
      if (x) {
        el.classList.add("playable");
        markPenalty(el, x.baozi);
        el.addEventListener("click", () => act(x.index));
      } else {
        el.disabled = true;
      }
      hand.appendChild(el);
    }
    const mine = view.table[session.seat];
    $("my-melds").appendChild(groupsEl(mine.declared, "sm"));
  }

  function actionButton(x, view) {
    const b = document.createElement("button");
    const a = x.a;
    b.className = "act " + a.type;
    b.dataset.kind = a.type;
    const [zh, en] = a.type === "pass" ? (PASS[view.phase] || ACTIONS.pass) : (ACTIONS[a.type] || [a.type, a.type]);
    b.innerHTML = `${escapeHtml(en)} <span lang="zh">${escapeHtml(zh)}</span> `;
    if (a.type === "chi") b.append(cardsEl(a.pair, "xs"));
    markPenalty(b, x.baozi);
    b.addEventListener("click", () => act(x.index));
    return b;
  }

  function drawActions(view) {
    const box = $("actions");
    box.innerHTML = "";
    for (const x of legal(view)) if (x.a.type !== "discard") box.appendChild(actionButton(x, view));
  }

  function drawClaim(view) {
    const claim = $("claim");
    if (view && view.offer && view.phase === "claim" && view.to_act && state.status === "playing") {
      claim.hidden = false;
      claim.innerHTML = "";
      claim.append(`${Who(view.offer.from)} ${view.offer.kind === "turn" ? "turned" : "discarded"} `,
                   cardEl(view.offer.card, "sm"), " — claim it?");
    } else {
      claim.hidden = true;
    }
  }

  function describe(ev) {
    const s = (k, verb) => `${Who(k)} ${k === session.seat ? verb : verb + "s"}`;
    switch (ev.type) {
      case "header": case "jiang": return null;
      case "deal": return ev.seat === session.seat ? `You are dealt ${countsToCards(ev.hand).length} cards` : null;
      case "caishen": return `${Who(ev.seat)} lay${ev.seat === session.seat ? "" : "s"} out ${ev.count} 财神`;
      case "draw": case "replacement":
        return ev.card !== undefined ? `${s(ev.seat, "draw")} ${cardName(ev.card)}${ev.why ? " (" + ev.why + ")" : ""}` : `${s(ev.seat, "draw")}`;
      case "turn": return `${s(ev.seat, "turn")} ${cardName(ev.card)}`;
      case "discard": return `${s(ev.seat, "discard")} ${cardName(ev.card)}`;
      case "tangzi": return `${cardName(ev.card)} goes to ${who(ev.seat)}'s 堂子`;
      case "claim": return `${s(ev.seat, "claim")} ${cardName(ev.card)}`;
      case "declare": return `${Who(ev.seat)} declare${ev.seat === session.seat ? "" : "s"} ${glossary().kinds[ev.kind] || ev.kind} ${cardName(ev.face)}`;
      case "announce": return `${Who(ev.seat)}: ${ev.name} ${cardName(ev.face)}`;
      case "action": {
        const a = ev.action;
        const [zh, en] = a.type === "pass" ? (PASS[a.phase] || ACTIONS.pass) : (ACTIONS[a.type] || [a.type, a.type]);
        return `${Who(ev.seat)}: ${en} ${zh}` + (a.type === "discard" ? " " + cardName(a.face) : "");
      }
      case "end": return "The hand is over";
      default: return undefined;   // the table's own events: the shared words
    }
  }

  function resultHeadline(ev) {
    let html;
    if (ev.end === "win") {
      html = `<p class="headline">${escapeHtml(Who(ev.winner))} ${ev.winner === session.seat ? "win" : "wins"} on ` +
        `<span class="lc-win-card"></span>: <b>${ev.total}</b> <span lang="zh">番</span> fan</p>` +
        (ev.revealed || []).map((r, i) => `<div class="revealed lc-revealed" data-lc="${i}" aria-label="winning hand of ${escapeHtml(who(r.seat))}"></div>`).join("");
    } else if (ev.end === "baozi") {
      html = `<p class="headline lc-baozi">${escapeHtml(Who(ev.offender))} ${ev.offender === session.seat ? "make" : "makes"} ` +
        `<span lang="zh">${escapeHtml(cause(ev.cause))}</span>: ${ev.offender === session.seat ? "you pay" : "pays"} every other seat ` +
        `(<b>${ev.total}</b> <span lang="zh">番</span> fan)</p>`;
    } else if (ev.end === "void") {
      html = '<p class="headline">Nobody 起: a void hand, dealt again (it does not count).</p>';
    } else {
      html = '<p class="headline">黄庄: nobody won' + (ev.why ? ` (${escapeHtml(ev.why.replace(/_/g, " "))})` : "") + ".</p>";
    }
    return html;
  }

  function fillResult(box, ev) {
    const card = box.querySelector(".lc-win-card");
    if (card && ev.revealed && ev.revealed.length) card.appendChild(cardEl(ev.revealed[0].win_card, "sm"));
    box.querySelectorAll("[data-lc]").forEach((el) => {
      const r = ev.revealed[Number(el.dataset.lc)];
      el.appendChild(groupsEl(r.groups, "md"));
      if (r.caishen) el.appendChild(cardsEl(Array(r.caishen).fill(21), "xs", "tiles"));
      el.insertAdjacentHTML("beforeend", `<span class="lc-tuo">${r.tuo} 陀 (needs ${r.threshold})</span>`);
    });
  }

  window.mjFamilyTables.longcard = { seatBox, drawCenter, drawHand, drawActions, drawClaim, describe, resultHeadline,
                                     fillResult, cardEl };
})();
