// Replaying a game on the board drawing: a record loaded from a file (a
// downloaded record, monitor's record file, or a board's game.json with its
// game.log), or the game just finished on the board. The page steps through
// the plies alone, from the positions the server read back through the
// engine; the App and its game are never told, and the hands wait meanwhile.
"use strict";

let replay = null;         // {plies, start, ruleset, result, at, analysis, record}

// The kiosk has no side panel: its replay buttons go under the board's controls.
if (KIOSK) $("controls").after($("replay-bar"));

function replaying() { return replay !== null; }

function replayPosition() {
  return replay.at === 0 ? replay.start : replay.plies[replay.at - 1].after;
}

// The pieces of a position text; the ones missing since the start are in their trays.
function piecesOf(text, start) {
  const pieces = [];
  for (const side of ["B", "W"]) {
    const count = (start.slice(0, SQUARES).split(side).length - 1);
    const squares = [];
    for (let s = 1; s <= SQUARES; s++) if (text[s - 1] === side) squares.push(s);
    for (let i = 0; i < Math.max(count, squares.length); i++) {
      pieces.push({ id: pieces.length, side, square: i < squares.length ? squares[i] : null,
        held: false, knocked: false });
    }
  }
  return pieces;
}

function moveSquares(ply) {
  const [from, to] = ply.move.split("-");
  return { from: Number(from), to: to === "off" ? "off" : Number(to) };
}

// The words of the moment: what the last ply did ("White threw 3 and took 14").
function replayWords(ply, last) {
  if (!ply) return [["replay.start", {}]];
  const side = ply.side;
  const value = ply.throw;
  const words = [];
  if (ply.move === null) {
    words.push(["replay.pass." + side, { value }]);
  } else {
    const { from, to } = moveSquares(ply);
    const marks = ply.marks;
    if (marks.includes("capture")) words.push(["replay.capture." + side, { value, from, to }]);
    else if (marks.includes("water")) words.push(["replay.water." + side, { value, from, square: ply.final }]);
    else if (marks.includes("happiness")) words.push(["replay.happiness." + side, { value, from, square: ply.final }]);
    else if (marks.includes("off")) words.push(["replay.off." + side, { value, from }]);
    else words.push(["replay.move." + side, { value, from, to }]);
  }
  if (last && replay.result) {
    words.push(replay.result.winner ? ["replay.won." + replay.result.winner, {}] : ["replay.draw", {}]);
  } else if (ply.marks.includes("again")) {
    words.push(["replay.again." + side, {}]);
  }
  return words;
}

// The board's state with the replayed moment in place of the board's own.
shownState = (st) => {
  if (!replay || !st) return st;
  const text = replayPosition();
  const ply = replay.at ? replay.plies[replay.at - 1] : null;
  const view = Object.assign({}, st);
  view.pieces = piecesOf(text, replay.start);
  view.hand = [];
  view.frame = st.frame.map(() => [0, 0, 0]);
  view.roles = st.roles.map(() => "");
  view.raw = 0;
  view.app = Object.assign({}, st.app, { position: text, state: "replay", turn: text.slice(-1),
    throw: ply ? ply.throw : null, sticks: null, ruleset: replay.ruleset.split(":")[0] });
  view.explain = { kind: "replay", status: [["replay.status", { ply: replay.at, count: replay.plies.length }]],
    instruction: replayWords(ply, replay.at === replay.plies.length) };
  view.sticks_live = false;
  view.take_back = false;
  return view;
};

function markMoment() {
  const ply = replay && replay.at ? replay.plies[replay.at - 1] : null;
  let from = null;
  let rest = null;
  if (ply && ply.move) {
    from = moveSquares(ply).from;
    rest = typeof ply.final === "number" ? ply.final : null;
  }
  for (let s = 1; s <= SQUARES; s++) {
    squareEls[s].classList.toggle("replay-from", s === from);
    squareEls[s].classList.toggle("replay-to", s === rest);
  }
  document.querySelectorAll("#moves li").forEach((li) => {
    const current = replay !== null && Number(li.dataset.ply) === replay.at;
    if ((li.getAttribute("aria-current") === "true") !== current) {
      li.setAttribute("aria-current", current ? "true" : "false");
      if (current) li.scrollIntoView({ block: "nearest" });
    }
  });
  const slider = $("replay-slider");
  if (replay) {
    slider.max = String(replay.plies.length);
    slider.value = String(replay.at);
  }
}

function replayTo(at) {
  if (!replay) return;
  replay.at = Math.max(0, Math.min(replay.plies.length, at));
  if (state) draw(state, true);
  markMoment();
}

// A loaded game, or the board's finished one: the list becomes its plies.
function startReplay(game, at) {
  replay = { plies: game.plies, start: game.start, ruleset: game.ruleset, result: game.result,
    at: at === undefined ? 0 : at, analysis: null, record: game.record || null, lang };
  document.body.classList.add("replaying");
  $("replay-bar").hidden = false;
  fillPlies($("moves"), replay.plies, (ply) => replayTo(ply));
  if (analysed && analysed.game.plies !== game.plies) chartGame(null);   // another game's analysis
  replayTo(replay.at);
}

function stopReplay() {
  replay = null;
  document.body.classList.remove("replaying");
  $("replay-bar").hidden = true;
  movesKey = null;            // the board's own list again
  if (analysed && analysed.game.record) chartGame(null);                // a loaded game's analysis
  if (state) draw(state, true);
  markMoment();
}

function replayHook(st) {
  if (replay && replay.lang !== lang) {          // the language changed: the list says it anew
    replay.lang = lang;
    drawMovesLegend();
    fillPlies($("moves"), replay.plies, (ply) => replayTo(ply));
    markMoment();
  }
  const finished = !!(st.moves && st.moves.result && st.moves.plies.length);
  const button = $("replay-game");
  if (button.disabled === finished) button.disabled = !finished;
}

drawHooks.push(replayHook);

// a click on a ply of the board's finished game replays it from there
plyClick = (unused, ply) => {
  if (state && state.moves && state.moves.result) startReplay(state.moves, ply);
};

$("replay-game").addEventListener("click", () => {
  if (state && state.moves && state.moves.result) startReplay(state.moves, 0);
});
$("replay-first").addEventListener("click", () => replayTo(0));
$("replay-back").addEventListener("click", () => replay && replayTo(replay.at - 1));
$("replay-forward").addEventListener("click", () => replay && replayTo(replay.at + 1));
$("replay-last").addEventListener("click", () => replay && replayTo(replay.plies.length));
$("replay-slider").addEventListener("input", (e) => replayTo(Number(e.target.value)));
$("replay-exit").addEventListener("click", stopReplay);

document.addEventListener("keydown", (e) => {
  if (!replay || typing(e.target) || e.ctrlKey || e.metaKey || e.altKey) return;
  const steps = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -1, ArrowDown: 1 };
  if (steps[e.key]) replayTo(replay.at + steps[e.key]);
  else if (e.key === "Home") replayTo(0);
  else if (e.key === "End") replayTo(replay.plies.length);
  else if (e.key === "Escape") stopReplay();
  else return;
  e.preventDefault();
});

// -- loading a game from files --------------------------------------------------------

async function loadFiles(list) {
  const files = [];
  for (const file of list) files.push({ name: file.name, text: await file.text() });
  const reply = await fetch("/api/load", { method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ files }) });
  const data = await reply.json().catch(() => ({ error: "bad reply from the server" }));
  if (!reply.ok) { say(t("replay.cannot_load", { why: data.error || reply.status })); return; }
  say("");
  startReplay(data.result, 0);
}

$("load").addEventListener("change", (e) => {
  const chosen = [...e.target.files];
  e.target.value = "";
  if (chosen.length) loadFiles(chosen).catch((err) => say(String(err)));
});

// `senet-board replay FILE`: the page opens with that game (elsewhere: 404, nothing to open).
startHooks.push(async () => {
  const reply = await fetch("/api/replay");
  if (reply.ok) startReplay(await reply.json(), 0);
});
