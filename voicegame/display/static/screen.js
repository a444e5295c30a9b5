/* The table's screen: reads /events (Server-Sent Events, one JSON object per data: line)
   and draws the public view, the captions and the timer. Read-only: it never sends anything
   back but its own GET requests. No build step, no libraries. */
"use strict";
(function () {
  const TOKEN = new URLSearchParams(location.search).get("token");
  const Q = TOKEN ? "?token=" + encodeURIComponent(TOKEN) : "";
  const COLOURS = ["red", "orange", "yellow", "green", "blue", "purple", "pink", "team"];
  const TITLES = { wavelength: "Wavelength", rofl: "ROFL!", wits: "Wits & Wagers", lobby: "voicegame" };
  const PAST = 3;
  const RING = 2 * Math.PI * 44;  // the timer ring's circumference (r = 44 in its viewBox)
  const screen = { labels: {}, lang: "en", view: null, timer: null, captions: [], received: [], connected: false };
  window.voicegameScreen = screen;  // read by the tests and the bench (never written by the page's users)

  const $ = (id) => document.getElementById(id);
  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "class") node.className = v; else node.setAttribute(k, v);
    }
    for (const child of children.flat()) {
      if (child === null || child === undefined || child === false) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }
  const SVG = "http://www.w3.org/2000/svg";
  function svg(tag, attrs, ...children) {
    const node = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
    for (const child of children) node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    return node;
  }
  function L(key, values) {
    const table = screen.labels[screen.lang] || screen.labels.en || {};
    let text = table[key] !== undefined ? table[key] : (screen.labels.en || {})[key] || key;
    for (const [k, v] of Object.entries(values || {})) text = text.split("{" + k + "}").join(String(v));
    return text;
  }
  function colourClass(id) { return "swatch c-" + (COLOURS.includes(id) ? id : "other"); }
  function who(view, id) {  // a colour is never the only cue: the swatch and the name together
    const p = (view.data.players || []).find((q) => q.id === id);
    const name = p ? p.name : String(id);
    return el("span", { class: "who", "data-id": id }, el("span", { class: colourClass(id), "aria-hidden": "true" }), " ", name);
  }
  function nameOf(view, id) { const p = (view.data.players || []).find((q) => q.id === id); return p ? p.name : String(id); }
  function relabel() {
    document.documentElement.lang = screen.lang;
    for (const node of document.querySelectorAll("[data-label]")) node.textContent = L(node.dataset.label);
  }

  // ------------------------------------------------------------------ captions and hint
  function caption(text) {
    screen.captions.push(text);
    if (screen.captions.length > PAST + 1) screen.captions.shift();
    $("caption").textContent = text;
    const past = $("past-captions");
    past.replaceChildren(...screen.captions.slice(0, -1).map((t) => el("li", {}, t)));
  }

  // ------------------------------------------------------------------ timer ring
  function timerTick() {
    const t = screen.timer, box = $("timer");
    if (!t) { box.hidden = true; return; }
    const gone = t.running ? Date.now() / 1000 - t.at : 0;
    const left = Math.max(0, t.left_s - Math.max(0, gone));
    box.hidden = left <= 0;  // ended, or ran out while nobody said so
    const fraction = t.total_s > 0 ? left / t.total_s : 0;
    $("ring").style.strokeDasharray = `${RING} ${RING}`;
    $("ring").style.strokeDashoffset = String(RING * (1 - fraction));
    $("timer-left").textContent = String(Math.ceil(left));
    $("timer-unit").textContent = t.running ? L("seconds") : L("paused");
    box.classList.toggle("low", left <= 10);
    box.dataset.left = String(Math.ceil(left));
  }

  // ------------------------------------------------------------------ common parts
  function drawCommon(view) {
    const d = view.data;
    $("game-title").textContent = TITLES[view.game] || view.game;
    let turn = "";
    if (view.game === "wits" && d.question) turn = L("wits_question", { n: d.question.number, total: d.question.total });
    else if (d.turn) turn = d.round_total ? L("turn_of", { n: d.turn, total: d.round_total }) : L("turn", { n: d.turn });
    if (view.game === "rofl" && d.round) turn = L("round", { n: d.round }) + " · " + turn;
    if (d.active) turn += (turn ? " · " : "") + nameOf(view, d.active);
    $("turn").textContent = turn;
    const scores = d.scores || {};
    $("scores-title").textContent = view.game === "wits" ? L("chips") : L("scores");
    const ids = (d.players || []).map((p) => p.id);
    for (const id of Object.keys(scores)) if (!ids.includes(id)) ids.push(id);
    $("scores").replaceChildren(...ids.filter((id) => id in scores).map((id) => el("li",
      { "data-id": id, class: id === d.active ? "active" : null },
      who(view, id), id === d.active ? el("span", { class: "now" }, L("now")) : null,
      el("span", { class: "points" }, scores[id]))));
    $("side").hidden = view.game === "lobby";
    const hint = $("hint");
    hint.hidden = !d.hint;
    hint.textContent = d.hint || "";
  }

  // ------------------------------------------------------------------ Wavelength
  function dialPoint(deg, r) {  // 0° is the left concept, 180° the right one; the centre is (100, 100)
    const a = Math.PI * (1 - deg / 180);
    return [100 + r * Math.cos(a), 100 - r * Math.sin(a)];
  }
  function wedgePath(from, to, r) {
    const [x1, y1] = dialPoint(from, r), [x2, y2] = dialPoint(to, r);
    return `M100 100 L${x1.toFixed(2)} ${y1.toFixed(2)} A${r} ${r} 0 0 1 ${x2.toFixed(2)} ${y2.toFixed(2)} Z`;
  }
  function drawWavelength(view) {
    const d = view.data, card = d.card, reveal = d.reveal;
    const parts = [];
    if (card) parts.push(el("div", { class: "concepts" }, el("span", { id: "left-concept" }, "◀ " + card.left),
                            el("span", { id: "right-concept" }, card.right + " ▶")));
    const face = svg("svg", { id: "dial", viewBox: "0 0 200 106", role: "img" });
    face.append(svg("path", { class: "face", d: "M10 100 A90 90 0 0 1 190 100 Z" }));
    if (reveal) {
      for (const w of reveal.wedges || []) {
        face.append(svg("path", { class: "wedge w" + w.points, d: wedgePath(w.from_deg, w.to_deg, 88), "data-points": w.points }));
        const [lx, ly] = dialPoint((w.from_deg + w.to_deg) / 2, 76);
        face.append(svg("text", { class: "wedge-label", x: lx.toFixed(1), y: ly.toFixed(1) }, w.points));
      }
      const [tx, ty] = dialPoint(reveal.target_deg, 90);
      face.append(svg("line", { class: "target", x1: 100, y1: 100, x2: tx.toFixed(2), y2: ty.toFixed(2) }));
    }
    const deg = typeof d.dial_deg === "number" ? d.dial_deg : 90;
    const needle = svg("g", { id: "needle", transform: `rotate(${deg} 100 100)`, "data-deg": deg });
    needle.append(svg("line", { class: "needle", x1: 100, y1: 100, x2: 18, y2: 100 }));
    face.append(needle, svg("circle", { class: "hub", cx: 100, cy: 100, r: 5 }));
    face.setAttribute("aria-label", `${deg}°`);
    parts.push(face);
    if (d.clue) parts.push(el("p", { class: "big", id: "clue" }, el("span", { class: "label" }, L("wl_clue") + ": "), "“" + d.clue + "”"));
    if (reveal) {
      parts.push(el("p", { class: "big", id: "reveal-points", "data-points": reveal.points },
        L("wl_points", { points: reveal.points, team: nameOf(view, reveal.team) })));
    }
    return parts;
  }

  // ------------------------------------------------------------------ Wits & Wagers
  const YEAR_UNITS = ["year", "years", "año", "años", "jaar", "jaren"];  // a year is said without its unit
  function withUnit(value, unit) {
    return unit && !YEAR_UNITS.includes(String(unit).toLowerCase()) ? `${value} ${unit}` : String(value);
  }
  function drawWits(view) {
    const d = view.data, parts = [];
    const q = d.question;
    if (q) parts.push(el("p", { class: "big question", id: "question" }, q.text));
    const mat = d.mat || [], bets = d.bets || [];  // the payout's view holds the mat it pays
    if (d.payout) {
      const p = d.payout;
      const paid = Object.entries(p.paid || {}).filter(([, chips]) => chips);
      parts.push(el("div", { class: "payout" },
        el("span", { class: "big", id: "answer" }, L("wits_answer", { answer: withUnit(p.answer, p.unit) })),
        el("ul", { class: "guesses", id: "paid" }, paid.map(([id, chips]) => el("li", { "data-player": id },
          who(view, id), " ", L("wits_paid", { chips }))))));
    }
    if (!mat.length && (d.guesses || []).length) {
      parts.push(el("h3", {}, L("wits_guesses")));
      parts.push(el("ul", { class: "guesses", id: "guesses" }, d.guesses.map((g) => el("li", { "data-player": g.player },
        who(view, g.player), ": ", g.value === null || g.value === undefined ? L("wits_no_guess") : String(g.value)))));
    }
    if (mat.length) {
      const winning = d.payout ? d.payout.winning_slot : null;
      parts.push(el("div", { class: "mat", id: "mat" }, mat.map((s) => {
        const onSlot = [];  // one line per player: their tokens on this slot and the chips added
        for (const b of bets.filter((x) => x.slot === s.slot)) {
          const mine = onSlot.find((x) => x.player === b.player);
          if (mine) { mine.token += ", " + b.token; mine.chips += b.chips || 0; }
          else onSlot.push({ player: b.player, token: String(b.token), chips: b.chips || 0 });
        }
        return el("div", { class: "slot" + (s.slot === winning ? " win" : ""), "data-slot": s.slot, "data-odds": s.odds },
          s.slot === winning ? el("div", { class: "win-mark" }, "★ " + L("wits_wins")) : null,
          el("div", { class: "odds" }, L("wits_pays", { label: s.label || s.odds + " to 1" })),
          el("div", { class: s.slot === 0 ? "value smaller" : "value" },
             s.slot === 0 ? L("wits_smaller") : (s.value === null || s.value === undefined ? "—" : String(s.value))),
          el("ul", { class: "guessers" }, (s.players || []).map((p) => el("li", {}, who(view, p)))),
          el("ul", { class: "bets" }, onSlot.map((b) => el("li", { "data-player": b.player, "data-chips": b.chips },
            el("span", { class: colourClass(b.player), "aria-hidden": "true" }), " ",
            L(b.chips ? "wits_bet_chips" : "wits_bet", { name: nameOf(view, b.player), token: b.token, chips: b.chips })))));
      })));
    }
    return parts;
  }

  // ------------------------------------------------------------------ ROFL!
  function drawRofl(view) {
    const d = view.data, parts = [];
    if (d.category) parts.push(el("p", { class: "big", id: "category" }, el("span", { class: "label" }, L("rofl_category") + ": "), d.category));
    parts.push(el("h3", {}, L("rofl_board")));
    parts.push(el("div", { class: "board", id: "board" }, (d.board || []).map((s) => el("div",
      { class: "space" + (s.claimed_by ? " claimed" : ""), "data-space": s.space, "data-claimed-by": s.claimed_by || "" },
      el("span", { class: "n" }, s.space),
      s.claimed_by ? (s.tokens || [s.claimed_by]).map((id) => el("div", {}, el("span", { class: colourClass(id), "aria-hidden": "true" }), " ", nameOf(view, id)))
                   : el("span", { class: "label" }, L("rofl_free"))))));
    if ((d.reveal_order || []).length) {
      const revealed = new Map((d.revealed || []).map((r) => [r.player, r]));
      parts.push(el("h3", {}, L("rofl_order")));
      parts.push(el("ol", { class: "order", id: "reveal-order" }, d.reveal_order.map((id, i) => {
        const r = revealed.get(id);
        return el("li", { "data-player": id, class: r && r.disqualified ? "dq" : null }, `${i + 1}. `, who(view, id),
          r ? ` · ${r.space}` : null, r && r.disqualified ? ` (${L("rofl_disqualified")})` : null);
      })));
    }
    if (d.judgement) {
      const j = d.judgement;
      parts.push(el("p", { class: "big judgement " + (j.correct ? "right" : "wrong"), id: "judgement" },
        L("rofl_guess", { guess: j.guess }), " — ", j.correct ? "✔ " + L("rofl_right") : "✘ " + L("rofl_wrong")));
    }
    if (d.message) parts.push(el("p", { class: "big", id: "message" }, L("rofl_message", { message: d.message })));
    return parts;
  }

  // ------------------------------------------------------------------ lobby
  function drawLobby(view) {
    const d = view.data, parts = [], setup = d.setup;
    parts.push(el("h3", {}, L("lobby_games")));
    parts.push(el("ul", { class: "games", id: "games" }, (d.games || []).map((g) =>
      el("li", { "data-game": g.id, class: setup && setup.game === g.id ? "chosen" : null }, g.name))));
    if (setup) {
      parts.push(el("h3", {}, L("lobby_setup")));
      const chosen = (d.games || []).find((g) => g.id === setup.game);
      parts.push(el("p", { class: "big", id: "setup" }, chosen ? chosen.name : TITLES[setup.game] || setup.game,
        (setup.players || []).length ? " · " + L("lobby_players") + ": " + setup.players.join(", ") : ""));
    }
    parts.push(el("h3", {}, L("lobby_unfinished")));
    const unfinished = d.unfinished || [];
    parts.push(unfinished.length
      ? el("ul", { class: "guesses", id: "unfinished" }, unfinished.map((u) => {
        const game = (d.games || []).find((g) => g.id === u.game);
        return el("li", { "data-game": u.game }, (game ? game.name : TITLES[u.game] || u.game) + ": " + u.progress);
      }))
      : el("p", { class: "label", id: "unfinished" }, L("lobby_none")));
    return parts;
  }

  const DRAW = { wavelength: drawWavelength, wits: drawWits, rofl: drawRofl, lobby: drawLobby };
  function drawView(view) {
    screen.view = view;
    if (view.data.lang && view.data.lang !== screen.lang) { screen.lang = view.data.lang; relabel(); }
    drawCommon(view);
    const draw = DRAW[view.game];
    const stage = $("stage");
    stage.dataset.game = view.game;
    stage.dataset.phase = view.phase;
    stage.replaceChildren(...(draw ? draw(view) : []));
  }

  // ------------------------------------------------------------------ the event stream
  function handle(event) {
    screen.received.push({ kind: event.kind, at: event.at, seen: (performance.timeOrigin + performance.now()) / 1000 });
    if (screen.received.length > 500) screen.received.shift();
    if (event.kind === "caption") caption(event.text);
    else if (event.kind === "view") drawView(event);
    else if (event.kind === "timer") { screen.timer = event; timerTick(); }
  }
  function connect() {
    const source = new EventSource("events" + Q);
    source.onopen = () => {
      screen.connected = true;
      if (!screen.view) { $("status").dataset.label = "ready"; $("status").textContent = L("ready"); }
    };
    source.onmessage = (message) => {
      try { handle(JSON.parse(message.data)); } catch (error) { console.error("voicegame screen:", error); }
    };
    source.onerror = () => {
      screen.connected = false;
      if (!screen.view) { $("status").textContent = L("lost"); }
    };
  }
  $("larger").addEventListener("click", () => {
    const on = document.documentElement.classList.toggle("larger");
    $("larger").setAttribute("aria-pressed", String(on));
    try { localStorage.setItem("voicegame-larger", on ? "1" : "0"); } catch (e) { /* private mode */ }
  });
  try {
    if (localStorage.getItem("voicegame-larger") === "1" || new URLSearchParams(location.search).get("large") === "1") {
      document.documentElement.classList.add("larger");
      $("larger").setAttribute("aria-pressed", "true");
    }
  } catch (e) { /* private mode */ }
  setInterval(timerTick, 250);
  fetch("labels.json" + Q).then((r) => r.json()).then((labels) => { screen.labels = labels; relabel(); if (screen.view) drawView(screen.view); })
    .catch(() => {}).finally(connect);
})();
