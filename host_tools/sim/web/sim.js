// Senet board simulator page.
//
// The page decides nothing about the game: it draws the pieces the simulator
// holds (a reed-switch board cannot tell colours, so the simulator keeps one
// object per physical piece) and paints every LED exactly the colour of the
// App's frame. Hands and the throw button are sent to the server, which feeds
// them to the real firmware App as scans and button levels.
"use strict";

const SQUARES = 30;
const SPECIAL = {
  15: ["\u2625", "House of Rebirth"],
  26: ["\u2665", "House of Happiness"],
  27: ["\u2248", "House of Water"],
  28: ["III", "House of Three Truths"],
  29: ["II", "House of Two Judges"],
  30: ["\u2609", "House of Horus"],
};
const DRAG_START_PX = 8;
const POINTER_IDLE_MS = 3000;   // kiosk: the pointer hides after this long still
const params = new URLSearchParams(location.search);
const KIOSK = params.get("view") === "kiosk";
// Kiosk: a visitor's language goes back to the exhibit's after this long quiet.
const QUIET_MS = 1000 * (Number(params.get("quiet_s")) > 0 ? Number(params.get("quiet_s")) : 90);
let options = { lang: null, languages: ["en"], mirror: false };
let lang = "en";
let dict = null;           // the chosen language's file (host_tools/words/i18n/<lang>.json, served as /i18n/)

const $ = (id) => document.getElementById(id);
const board = $("board");
const logList = $("log");
let state = null;          // the last state drawn
let lastSeq = 0;           // the last log entry shown
let selected = null;       // id of the piece in hand that a click on a square puts down
let drag = null;           // a pointer gesture on a piece
let suppressClick = false; // the click that ends a drag is not a click
let busy = Promise.resolve();
// What record.js, sound.js and the replay draw from each state (their own files).
const drawHooks = [];
const startHooks = [];     // run once the page knows its server and language
// replay.js: the moment of a replayed game to draw instead of the board's state
let shownState = (st) => st;
const HANDS = { lift: 1, place: 1, knock: 1, button: 1, press: 1, arrange: 1 };

// -- the board's squares, laid along the snake path ---------------------------------

// A portrait kiosk turns the board a quarter: the three rows of ten run down
// the screen, so the board can use its height.
const UPRIGHT = KIOSK ? window.matchMedia("(orientation: portrait)") : null;

function squareCell(square) {
  const row = Math.floor((square - 1) / 10);
  const i = (square - 1) % 10;
  const along = (row === 1 ? 9 - i : i) + 1;
  return UPRIGHT && UPRIGHT.matches ? { row: along, col: row + 1 } : { row: row + 1, col: along };
}

// What a screen reader says of a square, in the page's language: its number,
// its house, the piece on it and what its light asks.
function squareLabel(s, piece, role) {
  if (!dict) return "Square " + s;
  let label = t("aria.square", { number: s });
  if (SPECIAL[s]) label += ", " + t("house." + s);
  label += ", " + (piece ? t("aria.piece." + piece.side) : t("aria.empty"));
  if (role) label += ", " + t("aria.light", { what: t("role." + role) });
  return label;
}

function layOutSquares() {
  for (let s = 1; s <= SQUARES; s++) {
    const cell = squareCell(s);
    squareEls[s].style.gridRow = String(cell.row);
    squareEls[s].style.gridColumn = String(cell.col);
  }
}

const squareEls = [];
for (let s = 1; s <= SQUARES; s++) {
  const el = document.createElement("button");
  el.type = "button";
  el.className = "sq";
  el.dataset.square = String(s);
  el.innerHTML = '<span class="glow"></span><span class="num"></span><span class="scan"></span>';
  el.querySelector(".num").textContent = String(s);
  if (SPECIAL[s]) {
    el.classList.add("special");
    const mark = document.createElement("span");
    mark.className = "mark";
    mark.textContent = SPECIAL[s][0];
    mark.title = SPECIAL[s][1];
    el.appendChild(mark);
  }
  const piece = document.createElement("span");
  piece.className = "piece";
  piece.hidden = true;
  el.appendChild(piece);
  board.appendChild(el);
  squareEls[s] = el;
}
layOutSquares();
if (UPRIGHT) UPRIGHT.addEventListener("change", layOutSquares);

// -- talking to the server --------------------------------------------------------------

function say(text) { $("message").textContent = text || ""; }

// -- words: every visitor-facing text comes from the language file -----------------------

const SQUARE_ARGS = { square: 1, from: 1, to: 1, squares: 1, choices: 1 };
// the rules each board of a remote game plays, named as the language names them
const RULESET_ARGS = { theirs: 1, ours: 1 };

function squareText(n) {
  const forms = dict && dict.squares;
  return forms && typeof n === "number" && forms[n - 1] ? forms[n - 1] : String(n);
}

function listText(items, last) {
  const words = items.map(squareText);
  if (words.length < 2) return words.join("");
  return words.slice(0, -1).join(t("list.comma")) + t(last) + words[words.length - 1];
}

// t("do.capture", {square: 8}): the sentence for the key in the page's
// language, its {placeholders} filled; a sentence given per count (one, few,
// many, other, as Intl.PluralRules names them) is chosen by its first count.
function t(key, args) {
  let text = dict && dict.text[key];
  if (text === undefined || text === null) return key;
  args = args || {};
  if (typeof text === "object") {
    let count = 1;
    for (const name of ["squares", "choices", "points", "value"]) {
      if (args[name] !== undefined) {
        count = Array.isArray(args[name]) ? args[name].length : Number(args[name]);
        break;
      }
    }
    const form = new Intl.PluralRules(lang).select(count);
    text = text[form] !== undefined ? text[form] : text.other;
  }
  const out = text.replace(/\{(\w+)\}/g, (m, name) => {
    const value = args[name];
    if (value === undefined || value === null) return m;
    if (Array.isArray(value)) return listText(value, name === "choices" ? "list.or" : "list.and");
    if (RULESET_ARGS[name] && dict && dict.text["ruleset." + value]) return dict.text["ruleset." + value];
    return SQUARE_ARGS[name] ? squareText(value) : String(value);
  });
  // a sentence that opens with a filled-in word ("a 9-es mezőn...") starts a capital
  return text.charAt(0) === "{" ? out.charAt(0).toUpperCase() + out.slice(1) : out;
}

function sentences(list) {
  return (list || []).map(([key, args]) => t(key, args)).join(" · ");
}

function applyTexts() {
  document.documentElement.lang = lang;
  document.querySelectorAll("[data-i18n]").forEach((el) => { el.textContent = t(el.dataset.i18n); });
  document.querySelectorAll("[data-i18n-aria]").forEach((el) => {
    el.setAttribute("aria-label", t(el.dataset.i18nAria));
  });
  $("subtitle").textContent = t(options.mirror ? "page.mirror" : "page.sim");
  document.title = t("page.title") + " · " + t(options.mirror ? "page.mirror" : "page.sim");
  for (let s = 1; s <= SQUARES; s++) {
    const mark = squareEls[s].querySelector(".mark");
    if (mark) mark.title = t("house." + s);
  }
  drawLegend();
  if (state) { draw(state, true); }
}

function chooseLanguage() {
  const known = options.languages || ["en"];
  const asked = params.get("lang");
  if (asked && known.includes(asked)) return asked;
  if (options.lang && known.includes(options.lang)) return options.lang;
  for (const l of navigator.languages || [navigator.language || ""]) {
    const base = String(l).slice(0, 2).toLowerCase();
    if (known.includes(base)) return base;
  }
  return "en";
}

async function loadLanguage(name) {
  const reply = await fetch("/i18n/" + name + ".json");
  dict = await reply.json();
  lang = name;
  applyTexts();
}

function languageSelector() {
  const sel = $("lang");
  sel.textContent = "";
  for (const name of options.languages) sel.add(new Option(name, name));
  sel.value = lang;
  const names = {};
  const done = Promise.all(options.languages.map((name) => fetch("/i18n/" + name + ".json")
    .then((r) => r.json()).then((d) => {
      names[name] = d.language;
      sel.querySelector('option[value="' + name + '"]').textContent = d.language;
    })
    .catch(() => {}))).then(() => names);
  sel.addEventListener("change", () => {
    params.set("lang", sel.value);
    history.replaceState(null, "", "?" + params.toString());
    loadLanguage(sel.value);
  });
  return done;
}

// The legend: every light role as the firmware's table makes it look.
let legendRoles = [];

function drawLegend() {
  const list = $("legend");
  if (!list || !legendRoles.length) return;
  list.textContent = "";
  for (const r of legendRoles) {
    const li = document.createElement("li");
    li.dataset.role = r.role;
    const swatch = document.createElement("span");
    swatch.className = "swatch";
    const c = r.rgb;
    swatch.style.backgroundColor = "rgb(" + c[0] + ", " + c[1] + ", " + c[2] + ")";
    swatch.style.opacity = String(0.35 + 0.65 * r.level / 255);
    swatch.style.animation = r.kind === "steady" ? "none" : "pattern-" + r.pattern + " " +
      r.period + "ms " + (r.kind === "steps" ? "step-end" : "linear") + " infinite";
    const text = document.createElement("span");
    text.textContent = t("role." + r.role);
    li.appendChild(swatch);
    li.appendChild(text);
    list.appendChild(li);
  }
}

function legendAnimations(roles) {
  // One keyframes rule per blink pattern, from the firmware's own timings.
  const rules = [];
  const done = {};
  for (const r of roles) {
    if (r.kind === "steady" || done[r.pattern]) continue;
    done[r.pattern] = true;
    let frames = "";
    if (r.kind === "steps") {
      let on = true;
      frames += "0% { filter: brightness(1); } ";
      for (const edge of r.data) {
        on = !on;
        // off is drawn faintly, so the swatch still shows its colour between flashes
        frames += (100 * edge / r.period).toFixed(2) + "% { filter: brightness(" + (on ? 1 : 0.15) + "); } ";
      }
      rules.push("@keyframes pattern-" + r.pattern + " { " + frames + "}");
    } else {
      const floor = (r.data || 0) / 255;
      frames = "0%, 100% { filter: brightness(" + floor.toFixed(2) + "); } 50% { filter: brightness(1); }";
      rules.push("@keyframes pattern-" + r.pattern + " { " + frames + " }");
    }
  }
  const style = document.createElement("style");
  style.textContent = rules.join("\n");
  document.head.appendChild(style);
}

function drawWords(st) {
  const mirror = st.mirror;
  const off = !!(mirror && !mirror.connected);
  // A board without its cable asks nothing: one calm line instead of its last words.
  const words = off ? { kind: "resting", status: [], instruction: [["page.resting", {}]] }
    : st.explain || { kind: "", status: [], instruction: [] };
  let status = sentences(words.status);
  if (!status && st.app.turn && !off) status = t("status.turn." + st.app.turn);
  show("status", status || " ");
  show("instruction", sentences(words.instruction) || " ");
  setData($("words"), "kind", words.kind || "");
  invite(KIOSK && words.kind === "attract");
  if (KIOSK) boardMoved(st.app);
  const ruleset = st.app.ruleset;
  if (ruleset) show("howto", t("howto." + ruleset));
  const banner = $("banner");
  if (banner.hidden !== !off) banner.hidden = !off;
  if (off) show("banner", t("page.disconnected"));
  document.body.classList.toggle("disconnected", off);
  const live = st.sticks_live !== false;
  $("sticks").classList.toggle("dim", !live);
  show("sticks-label", t(live ? "sticks" : "sticks.last"));
}

// Kiosk: while a museum board's travelling light runs, the screen invites
// visitors (what Senet is, the rules it plays and where they come from, how
// to begin) around the board itself; a touch ends the light and the invitation.
function invite(on) {
  if ($("invite").hidden !== !on) {
    $("invite").hidden = !on;
    $("invite-begin").hidden = !on;
  }
  document.body.classList.toggle("attract", on);
}

// Kiosk: large buttons, each language's name in itself, for visitors who cannot
// reach the address; after QUIET_MS without a touch on the screen or a change
// on the board, the exhibit's own language returns for the next visitor.
let exhibitLang = "en";
let quietTimer = null;

function languageButtons(names) {
  const nav = $("lang-buttons");
  nav.textContent = "";
  for (const name of options.languages) {
    const b = document.createElement("button");
    b.type = "button";
    b.dataset.lang = name;
    b.lang = name;
    b.textContent = names[name] || name;
    b.addEventListener("click", () => { loadLanguage(name).then(markLanguage); stillHere(); });
    nav.appendChild(b);
  }
  nav.hidden = false;
  markLanguage();
  ["pointerdown", "keydown"].forEach((e) => window.addEventListener(e, stillHere, true));
}

function markLanguage() {
  $("lang-buttons").querySelectorAll("button").forEach((b) => {
    b.setAttribute("aria-pressed", b.dataset.lang === lang ? "true" : "false");
  });
}

let lastBoard = "";

// A visitor playing on the board is still here, even without touching the screen.
function boardMoved(app) {
  const key = [app.position, app.state, app.throw].join(" ");
  if (key === lastBoard) return;
  lastBoard = key;
  if (quietTimer !== null) stillHere();
}

function stillHere() {
  clearTimeout(quietTimer);
  quietTimer = setTimeout(() => {
    if (lang !== exhibitLang) loadLanguage(exhibitLang).then(markLanguage);
  }, QUIET_MS);
}

// Kiosk: the pointer hides after a few seconds still.
function hidePointerWhenStill() {
  let timer = null;
  const wake = () => {
    document.body.classList.remove("pointer-hidden");
    clearTimeout(timer);
    timer = setTimeout(() => document.body.classList.add("pointer-hidden"), POINTER_IDLE_MS);
  };
  ["pointermove", "pointerdown", "keydown"].forEach((name) => window.addEventListener(name, wake, true));
  wake();
}

async function post(action, body) {
  if (options.mirror) { say(t("page.read_only")); return null; }   // the mirror only shows
  const payload = Object.assign({}, body || {}, { since: lastSeq });
  const reply = await fetch("/api/" + action, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(payload),
  });
  const data = await reply.json().catch(() => ({ error: "bad reply from the simulator" }));
  if (!reply.ok) {
    say(data.error || ("error " + reply.status));
    return null;
  }
  say("");
  if (data.state) draw(data.state);
  return data;
}

// Requests go one after another, in the order the hand made them.
function send(action, body) {
  const letGo = action === "button" && !body.down;       // a held button is always let go
  if (HANDS[action] && !letGo && shownState(state) !== state) {   // a replay shows: the board waits
    say(t("replay.hands_off"));
    return Promise.resolve(null);
  }
  const next = busy.then(() => post(action, body)).catch((e) => { say(String(e)); return null; });
  busy = next;
  return next;
}

function connect() {
  let fallback = null;
  const source = new EventSource("/api/stream?since=" + lastSeq);
  source.onmessage = (e) => {
    if (fallback) { clearInterval(fallback); fallback = null; }
    draw(JSON.parse(e.data));
  };
  source.onerror = () => {
    // EventSource retries by itself; meanwhile poll so the page keeps up.
    if (!fallback) {
      fallback = setInterval(async () => {
        try {
          const r = await fetch("/api/state?since=" + lastSeq);
          if (r.ok) draw(await r.json());
        } catch (err) { /* the server is gone; keep trying */ }
      }, 50);
    }
  };
}

// -- drawing ------------------------------------------------------------------------------

function rgb(c) { return "rgb(" + c[0] + ", " + c[1] + ", " + c[2] + ")"; }

function paint(glow, colour, gain) {
  const css = colour ? rgb(colour) : "rgb(0, 0, 0)";
  if (glow.style.backgroundColor !== css) glow.style.backgroundColor = css;
  setData(glow, "rgb", colour ? colour.join(",") : "0,0,0");
  const filter = "brightness(" + gain + ") url(\"#led-gamma\")";
  if (glow.style.filter !== filter) glow.style.filter = filter;
}

function setData(el, key, value) {
  if (el.dataset[key] !== value) el.dataset[key] = value;   // no change, no mutation
}

function pieceOn(st, square) {
  return st.pieces.find((p) => p.square === square) || null;
}

// A board in a room seats the player far away where the computer would sit;
// the room's events (docs/protocol.md) say which side they play, as the
// server's words learn it (host_tools/words/remote.py).
let farSide = null;        // the side the opponent far away plays, once told
let roomSeq = 0;           // the last log entry read for it
const OTHER = { B: "W", W: "B" };

function hearRoom(entries) {
  for (const entry of entries || []) {
    if (entry.seq <= roomSeq) continue;
    roomSeq = entry.seq;
    const d = entry.data || {};
    if (entry.kind !== "app") continue;
    if (d.event === "room" && d.what === "joined" && OTHER[d.side]) farSide = OTHER[d.side];
    else if (d.event === "remote" && ["joined", "back", "away"].includes(d.what) && OTHER[d.side]) farSide = d.side;
    else if (d.event === "throw" && d.by === "remote" && OTHER[d.side]) farSide = d.side;
    else if (d.event === "state" && d.remote && OTHER[d.remote.side]) farSide = d.remote.side;
  }
}

function draw(st, again) {
  hearRoom(st.log);
  if (!again && state && st.version < state.version) {
    appendLog(st.log);          // an older picture may still carry new log lines
    return;
  }
  state = st;
  st = shownState(st);
  const leds = st.leds;
  const gain = st.display_gain || 1;
  const frame = st.frame;
  for (let s = 1; s <= SQUARES; s++) {
    const el = squareEls[s];
    const colour = frame[s - 1];
    paint(el.querySelector(".glow"), colour, gain);
    const role = st.roles[s - 1] || "";
    setData(el, "role", role);
    const piece = pieceOn(st, s);
    const pieceEl = el.querySelector(".piece");
    if (pieceEl.hidden !== !piece) pieceEl.hidden = !piece;
    const cls = "piece" + (piece ? " " + piece.side : "");
    if (pieceEl.className !== cls) pieceEl.className = cls;
    setData(el, "piece", piece ? String(piece.id) : "");
    setData(el, "side", piece ? piece.side : "");
    el.querySelector(".scan").classList.toggle("on", ((st.raw >>> (s - 1)) & 1) === 1);
    const label = squareLabel(s, piece, role);
    if (el.getAttribute("aria-label") !== label) el.setAttribute("aria-label", label);
  }
  document.querySelectorAll(".led.stick").forEach((el) => {
    paint(el.querySelector(".glow"), frame[leds.sticks + Number(el.dataset.stick)], gain);
  });
  paint($("led-B").querySelector(".glow"), frame[leds.side_black], gain);
  paint($("led-W").querySelector(".glow"), frame[leds.side_white], gain);

  if (selected !== null) {
    const p = st.pieces.find((q) => q.id === selected);
    if (!p || p.square !== null) selected = null;
  }
  drawTrays(st);
  drawFacts(st);
  drawWords(st);
  drawHooks.forEach((hook) => hook(st, again));
  if (!again) appendLog(st.log);
}

function drawTrays(st) {
  for (const side of ["B", "W"]) {
    const box = document.querySelector("#tray-" + side + " .tray-pieces");
    const off = st.pieces.filter((p) => p.side === side && p.square === null);
    const key = lang + ":" + off.map((p) => p.id + (p.held ? "h" : "") + (p.knocked ? "k" : "") +
      (p.id === selected ? "s" : "")).join(" ");
    if (box.dataset.key === key) continue;
    box.dataset.key = key;
    box.textContent = "";
    for (const p of off) {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "tray-piece";
      b.dataset.piece = String(p.id);
      b.setAttribute("aria-pressed", p.id === selected ? "true" : "false");
      const where = p.held ? "aria.held" : p.knocked ? "aria.knocked" : "aria.off";
      b.setAttribute("aria-label", t("aria.tray_piece",
        { piece: t("aria.piece." + p.side), id: p.id, where: t(where) }));
      b.innerHTML = '<span class="piece ' + p.side + '"></span>';
      if (p.held || p.knocked) {
        const badge = document.createElement("span");
        badge.className = "badge" + (p.knocked ? " knocked" : "");
        badge.textContent = p.held ? t("badge.hand") : "!";
        b.appendChild(badge);
      }
      box.appendChild(b);
    }
  }
}

function show(id, value) {
  const text = value === null || value === undefined || value === "" ? "–" : String(value);
  const el = $(id);
  if (el.textContent !== text) el.textContent = text;
}

function drawFacts(st) {
  const app = st.app;
  show("state", app.state ? t("state." + app.state) : null);
  show("turn", app.turn ? t("side." + app.turn) : null);
  let throwText = app.throw;
  if (app.sticks) throwText = (app.throw === null || app.throw === undefined ? "" : app.throw + "  ") +
    "[" + app.sticks.map((v) => t(v ? "stick.flat" : "stick.round")).join(" ") + "]";
  show("throw-value", throwText);
  show("position", app.position);
  const sel = $("ruleset");
  if (sel.options.length !== st.rulesets.length) {
    sel.textContent = "";
    for (const name of st.rulesets) sel.add(new Option(t("ruleset." + name), name));
  }
  for (const option of sel.options) option.textContent = t("ruleset." + option.value);
  if (document.activeElement !== sel && app.ruleset && sel.value !== app.ruleset) sel.value = app.ruleset;
  const opp = $("opponent");
  let want = app.mode === "computer" && app.computer ? "computer:" + app.computer.side : "two_players";
  if (farSide) want = "remote:" + farSide;      // in a room the far player is the opponent
  for (const option of opp.options) {
    const hide = farSide ? option.value !== want : option.value.startsWith("remote:");
    if (option.hidden !== hide) option.hidden = hide;
  }
  if (opp.disabled !== !!farSide) opp.disabled = !!farSide;
  if (document.activeElement !== opp && (app.mode || farSide) && opp.value !== want) opp.value = want;
  const chatter = $("chatter");
  chatter.setAttribute("aria-pressed", st.chatter ? "true" : "false");
  $("throw").classList.toggle("held", !!st.button || $("throw").dataset.down === "1");
  show("boots", t("panel.boots", { value: st.boots, seconds: (st.now_ms / 1000).toFixed(1) }));
  // the header names the ruleset; whose turn it is comes from the words below it,
  // never from the position's side to move (black's light is lit in the opening)
  show("summary", app.ruleset ? t("ruleset." + app.ruleset) : "");
}

function logText(entry) {
  if (entry.kind === "app") return JSON.stringify(entry.data);
  const d = Object.assign({}, entry.data);
  const what = d.sim;
  delete d.sim;
  return "# " + what + " " + JSON.stringify(d);
}

function appendLog(entries) {
  if (!entries || !entries.length) return;
  const atBottom = logList.scrollTop + logList.clientHeight >= logList.scrollHeight - 4;
  for (const entry of entries) {
    if (entry.seq <= lastSeq) continue;
    lastSeq = entry.seq;
    const li = document.createElement("li");
    li.className = entry.kind;
    li.dataset.seq = String(entry.seq);
    const stamp = document.createElement("span");
    stamp.className = "t";
    stamp.textContent = (entry.t / 1000).toFixed(2);
    li.appendChild(stamp);
    li.appendChild(document.createTextNode(logText(entry)));
    logList.appendChild(li);
    if (entry.kind === "app" && entry.data.event === "computer") {
      say(t("sim.computer_plays." + entry.data.side, { move: entry.data.move }));
    }
  }
  while (logList.children.length > 600) logList.removeChild(logList.firstChild);
  if (atBottom) logList.scrollTop = logList.scrollHeight;
}

// -- hands: lifting and placing -----------------------------------------------------------

function heldIds() {
  return state ? state.hand.slice() : [];
}

function nextSelection(except) {
  const hand = heldIds().filter((id) => id !== except);
  return hand.length ? hand[hand.length - 1] : null;
}

async function liftSquare(square) {
  const reply = await send("lift", { square });
  if (reply && selected === null) selected = reply.result.piece;
  if (state) draw(state);
  return reply;
}

async function placeSelected(square) {
  let piece = selected;
  if (piece === null) piece = nextSelection(null);
  if (piece === null) { say(t("sim.empty_hand")); return null; }
  const reply = await send("place", { square, piece });
  if (reply) selected = nextSelection(piece);
  if (state) draw(state);
  return reply;
}

// Drop ``piece`` on ``square``. On an enemy piece this is the capture swap by
// hand: that piece is lifted first, and stays in hand to be put down next.
async function dropOn(square, piece) {
  const other = pieceOn(state, square);
  if (other && other.id !== piece) {
    if (other.side === pieceById(piece).side) {
      say(t("sim.own_piece", { square: square }));
      selected = piece;
      draw(state);
      return;
    }
    await send("lift", { square });
  }
  const reply = await send("place", { square, piece });
  selected = reply ? nextSelection(piece) : piece;
  if (state) draw(state);
}

function pieceById(id) {
  return state.pieces.find((p) => p.id === id);
}

board.addEventListener("click", (e) => {
  const el = e.target.closest(".sq");
  if (!el || suppressClick) return;
  const square = Number(el.dataset.square);
  if (el.dataset.piece !== "") liftSquare(square);
  else placeSelected(square);
});

document.querySelectorAll(".tray-pieces").forEach((box) => {
  box.addEventListener("click", (e) => {
    const b = e.target.closest(".tray-piece");
    if (!b || suppressClick) return;
    const id = Number(b.dataset.piece);
    selected = selected === id ? null : id;
    draw(state);
  });
});

document.querySelectorAll(".tray-drop").forEach((b) => {
  b.addEventListener("click", () => {
    let piece = selected;
    if (piece === null) piece = nextSelection(null);
    if (piece === null) { say(t("sim.empty_hand_tray")); return; }
    send("place", { square: "off", piece }).then((r) => {
      if (r) selected = nextSelection(piece);
      if (state) draw(state);
    });
  });
});

// Dragging: pointer events, so a mouse, a pen and a finger all work.
function pointerTarget(x, y) {
  const el = document.elementFromPoint(x, y);
  if (!el) return null;
  const sq = el.closest(".sq");
  if (sq) return { square: Number(sq.dataset.square), el: sq };
  const tray = el.closest(".tray");
  if (tray) return { square: "off", el: tray };
  return null;
}

function startGesture(e, source) {
  if (e.button !== 0 && e.pointerType === "mouse") return;
  drag = { id: e.pointerId, x0: e.clientX, y0: e.clientY, source, started: false, over: null };
}

board.addEventListener("pointerdown", (e) => {
  const el = e.target.closest(".sq");
  if (!el || el.dataset.piece === "") return;
  startGesture(e, { square: Number(el.dataset.square), piece: Number(el.dataset.piece),
    side: el.dataset.side });
});

document.querySelectorAll(".tray-pieces").forEach((box) => {
  box.addEventListener("pointerdown", (e) => {
    const b = e.target.closest(".tray-piece");
    if (!b) return;
    const p = pieceById(Number(b.dataset.piece));
    startGesture(e, { square: null, piece: p.id, side: p.side });
  });
});

window.addEventListener("pointermove", (e) => {
  if (!drag || e.pointerId !== drag.id) return;
  const ghost = $("ghost");
  if (!drag.started) {
    if (Math.hypot(e.clientX - drag.x0, e.clientY - drag.y0) < DRAG_START_PX) return;
    drag.started = true;
    ghost.innerHTML = '<span class="piece ' + drag.source.side + '"></span>';
    ghost.style.display = "block";
    if (drag.source.square !== null) {
      // The piece leaves its square as the hand lifts it: the App lights its moves now.
      send("lift", { square: drag.source.square });
    }
  }
  ghost.style.left = e.clientX + "px";
  ghost.style.top = e.clientY + "px";
  const target = pointerTarget(e.clientX, e.clientY);
  const over = target ? target.el : null;
  if (drag.over !== over) {
    if (drag.over) drag.over.classList.remove("drop-over");
    if (over) over.classList.add("drop-over");
    drag.over = over;
  }
  e.preventDefault();
});

function endGesture(e, cancelled) {
  if (!drag || e.pointerId !== drag.id) return;
  const d = drag;
  drag = null;
  if (!d.started) return;               // a click: the click handlers do it
  suppressClick = true;
  setTimeout(() => { suppressClick = false; }, 0);
  $("ghost").style.display = "none";
  if (d.over) d.over.classList.remove("drop-over");
  const target = cancelled ? null : pointerTarget(e.clientX, e.clientY);
  if (!target) {
    selected = d.source.piece;          // dropped nowhere: still in hand
    busy.then(() => state && draw(state));
    return;
  }
  if (target.square === "off") {
    send("place", { square: "off", piece: d.source.piece }).then((r) => {
      if (r) selected = nextSelection(d.source.piece);
      if (state) draw(state);
    });
  } else {
    busy.then(() => dropOn(target.square, d.source.piece));
  }
}

window.addEventListener("pointerup", (e) => endGesture(e, false));
window.addEventListener("pointercancel", (e) => endGesture(e, true));

// -- the throw button -----------------------------------------------------------------------

const throwButton = $("throw");

function buttonDown() {
  if (throwButton.dataset.down === "1") return;
  throwButton.dataset.down = "1";
  throwButton.classList.add("held");
  send("button", { down: true });
}

function buttonUp() {
  if (throwButton.dataset.down !== "1") return;
  throwButton.dataset.down = "0";
  throwButton.classList.remove("held");
  send("button", { down: false });
}

throwButton.addEventListener("pointerdown", (e) => {
  if (e.button !== 0 && e.pointerType === "mouse") return;
  throwButton.setPointerCapture(e.pointerId);
  buttonDown();
});
throwButton.addEventListener("pointerup", buttonUp);
throwButton.addEventListener("pointercancel", buttonUp);
throwButton.addEventListener("lostpointercapture", buttonUp);
throwButton.addEventListener("contextmenu", (e) => e.preventDefault());
throwButton.addEventListener("keydown", (e) => {
  if (e.key === " " || e.key === "Enter") {
    e.preventDefault();
    if (!e.repeat) buttonDown();
  }
});
throwButton.addEventListener("keyup", (e) => {
  if (e.key === " " || e.key === "Enter") { e.preventDefault(); buttonUp(); }
});
throwButton.addEventListener("click", (e) => e.preventDefault());

function typing(target) {
  return target && (target.tagName === "INPUT" || target.tagName === "SELECT" ||
    target.tagName === "TEXTAREA" || target.isContentEditable);
}

document.addEventListener("keydown", (e) => {
  if ((e.key === "t" || e.key === "T") && !typing(e.target) && !e.ctrlKey && !e.metaKey && !e.altKey) {
    e.preventDefault();
    if (!e.repeat) buttonDown();
  }
});
document.addEventListener("keyup", (e) => {
  if ((e.key === "t" || e.key === "T") && !typing(e.target)) buttonUp();
});
window.addEventListener("blur", buttonUp);

// -- side panel -------------------------------------------------------------------------------

async function newGame() {
  const body = { ruleset: $("ruleset").value };
  const [mode, side] = $("opponent").value.split(":");
  if (mode !== "remote") {       // in a room the opponent stays the player far away
    body.mode = mode;
    if (side) body.side = side;
  }
  const reply = await send("new", body);
  if (reply) say(t("sim.new_game"));
}

$("ruleset").addEventListener("change", newGame);
$("new-game").addEventListener("click", newGame);
$("arrange").addEventListener("click", () => send("arrange", {}));
$("knock").addEventListener("click", () => send("knock", {}));
$("chatter").addEventListener("click", () => send("chatter", { on: !(state && state.chatter) }));
$("power-cut").addEventListener("click", () => send("power_cut", {}));
$("serial").addEventListener("submit", (e) => {
  e.preventDefault();
  const line = $("serial-line").value.trim();
  if (line) send("command", { line });
});
$("show-sim").addEventListener("change", (e) => logList.classList.toggle("hide-sim", !e.target.checked));
$("clear-log").addEventListener("click", () => { logList.textContent = ""; });

async function start() {
  try {
    options = await (await fetch("/api/page")).json();
  } catch (e) { /* an older server: the defaults */ }
  document.body.classList.toggle("kiosk", KIOSK);
  document.body.classList.toggle("mirror", !!options.mirror);
  if (KIOSK) hidePointerWhenStill();
  lang = chooseLanguage();
  try {
    legendRoles = await (await fetch("/api/legend")).json();
    legendAnimations(legendRoles);
  } catch (e) { legendRoles = []; }
  await loadLanguage(lang);
  exhibitLang = lang;
  const names = languageSelector();
  if (KIOSK) names.then(languageButtons);
  const st = await (await fetch("/api/state")).json();
  draw(st);
  connect();
  startHooks.forEach((hook) => hook());
}

// The page's other scripts (record.js, sound.js, replay.js) are in place first.
document.addEventListener("DOMContentLoaded", () => {
  start().catch((e) => say(t("sim.unreachable", { why: String(e) })));
});
