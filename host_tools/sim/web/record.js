// The game's moves on the page: one ply a line, numbered by turn, with the
// record to download and the takeback button.
//
// The list is the server's, read from the App's own game (in `show`, from a
// game followed through the board's events): a takeback has already removed
// its line, a new game has emptied it, and after a power cut it is the saved
// game the board resumed.
"use strict";

// What happened in a ply, as a sign beside its move; the legend names each.
const MARK_SIGNS = { pass: "\u2014", capture: "\u00d7", water: "\u2248", happiness: "\u2665", off: "\u2191" };
const MARK_ORDER = ["capture", "water", "happiness", "off", "pass"];
let movesKey = null;
let plyClick = null;       // replay.js: a click on a ply steps the replay there

function plyLine(p) {
  const what = p.move === null ? t("moves.pass") : p.move;
  const signs = p.marks.map((m) => MARK_SIGNS[m] || "").join("");
  return p.turn + ". " + t("side." + p.side) + " " + p.throw + ": " + what + (signs ? " " + signs : "");
}

function plyTitle(p) {
  return p.marks.filter((m) => MARK_SIGNS[m]).map((m) => t("moves.mark." + m)).join(", ");
}

function drawMovesLegend() {
  $("moves-legend").textContent = MARK_ORDER.map((m) => MARK_SIGNS[m] + " " + t("moves.mark." + m)).join(" \u00b7 ");
}

// One <li> a ply (``number``; ``turn`` is the number shown), in the list given (the live game's or a loaded one's).
function fillPlies(list, plies, onClick) {
  list.textContent = "";
  for (const p of plies) {
    const li = document.createElement("li");
    li.dataset.ply = String(p.number);
    li.dataset.side = p.side;
    li.dataset.marks = p.marks.join(" ");
    li.textContent = plyLine(p);
    const title = plyTitle(p);
    li.dataset.title = title;
    if (title) li.title = title;
    if (onClick) li.addEventListener("click", () => onClick(p.number));
    list.appendChild(li);
  }
  if (list.lastChild) list.scrollTop = list.scrollHeight;
}

function movesKeyOf(moves) {
  if (!moves) return lang + ":none";
  const last = moves.plies[moves.plies.length - 1];
  return [lang, moves.ruleset, moves.start, moves.plies.length, last ? last.before + last.move + last.after : "",
    JSON.stringify(moves.result)].join("|");
}

// The kiosk has no side panel: the last plies go on one line under the controls.
const RECENT_PLIES = 3;

function drawMoves(st) {
  if (typeof replaying === "function" && replaying()) return;   // the loaded game's list stays
  const key = movesKeyOf(st.moves);
  if (key === movesKey) return;
  movesKey = key;
  drawMovesLegend();
  const plies = st.moves ? st.moves.plies : [];
  fillPlies($("moves"), plies, (ply) => plyClick && plyClick(null, ply));
  show("moves-recent", plies.slice(-RECENT_PLIES).map(plyLine).join("  \u00b7  ") || " ");
}

function drawTakeBack(st) {
  const button = $("take-back");
  if (!button) return;
  if (options.mirror) { button.remove(); return; }   // a mirror only shows the board
  const can = !!st.take_back;
  if (button.disabled === can) button.disabled = !can;
}

drawHooks.push(drawMoves, drawTakeBack);

// The board's takeback gesture is a long press; the page sends the command
// it stands for, which the App carries out the same way.
$("take-back").addEventListener("click", () => send("command", { command: { cmd: "undo" } }));

// The record of the game on the board, as a file named with the date.
$("download").addEventListener("click", () => {
  const a = document.createElement("a");
  a.href = "/api/record";
  a.download = "";
  document.body.appendChild(a);
  a.click();
  a.remove();
});
