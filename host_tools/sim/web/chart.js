// The analysis on the page: the laptop (host_tools/analysis, never the board)
// rates every ply; the list then gives each ply's best move for its throw and
// the chance, marks the mistakes, and a chart under it draws White's chance
// to win across the game with its uncertainty band. Drawn here as SVG, no
// library; a click on the chart goes to that ply.
"use strict";

const SVG_NS = "http://www.w3.org/2000/svg";
const CHART = { w: 600, h: 150, pad: 6 };    // the chart's own units; it scales to its box
let analysed = null;       // {game (the plies it was run on), result}

function pct(x) { return Math.round(100 * x) + " %"; }

function chartX(i, n) { return CHART.pad + (CHART.w - 2 * CHART.pad) * (n ? i / n : 0); }
function chartY(c) { return CHART.pad + (CHART.h - 2 * CHART.pad) * (1 - c); }

function svg(name, attrs) {
  const el = document.createElementNS(SVG_NS, name);
  for (const key in attrs) el.setAttribute(key, attrs[key]);
  return el;
}

// White's chance after each ply (the analysis's "chances"), and around it
// the 90 % interval each ply's rating carries, turned to White's side.
function chartBand(result) {
  return result.plies.map((p, i) => {
    const c = result.chances[i];
    const below = p.side === "W" ? p.chance - p.low : p.high - p.chance;
    const above = p.side === "W" ? p.high - p.chance : p.chance - p.low;
    return [Math.max(0, c - below), Math.min(1, c + above)];
  });
}

function drawChart(result) {
  const box = $("chart");
  box.textContent = "";
  if (!result) { box.hidden = true; return; }
  box.hidden = false;
  const n = result.chances.length;
  const root = svg("svg", { viewBox: "0 0 " + CHART.w + " " + CHART.h, preserveAspectRatio: "none",
    role: "img", "aria-label": t("analysis.chart") });
  root.appendChild(svg("line", { x1: 0, x2: CHART.w, y1: chartY(0.5), y2: chartY(0.5), class: "even" }));
  const band = chartBand(result);
  const upper = band.map((b, i) => chartX(i + 1, n) + "," + chartY(b[1]).toFixed(2));
  const lower = band.map((b, i) => chartX(i + 1, n) + "," + chartY(b[0]).toFixed(2)).reverse();
  root.appendChild(svg("polygon", { class: "band", points: upper.concat(lower).join(" ") }));
  const line = result.chances.map((c, i) => chartX(i + 1, n) + "," + chartY(c).toFixed(2));
  root.appendChild(svg("polyline", { class: "chance", points: line.join(" ") }));
  for (const ply of result.mistakes) {
    const c = result.chances[ply - 1];
    root.appendChild(svg("circle", { class: "mistake", cx: chartX(ply, n), cy: chartY(c).toFixed(2), r: 4 }));
  }
  root.appendChild(svg("line", { class: "now", x1: -10, x2: -10, y1: 0, y2: CHART.h, id: "chart-now" }));
  root.addEventListener("click", (e) => {
    const r = root.getBoundingClientRect();
    const x = (e.clientX - r.left) / r.width * CHART.w;
    const ply = Math.max(0, Math.min(n, Math.round((x - CHART.pad) / (CHART.w - 2 * CHART.pad) * n)));
    goToPly(ply);
  });
  box.appendChild(root);
  markChartNow();
}

function markChartNow() {
  const now = $("chart-now");
  if (!now || !analysed) return;
  const x = replay ? chartX(replay.at, analysed.result.chances.length) : -10;
  now.setAttribute("x1", x);
  now.setAttribute("x2", x);
}

// The ply clicked on the chart, in a replay of the analysed game.
function goToPly(ply) {
  if (!replay) startReplay(analysed.game, ply);
  else replayTo(ply);
}

// Each ply's line: the best move for its throw, the chance, a mistake marked.
function markPlies() {
  if (!analysed) return;
  const byPly = {};
  for (const p of analysed.result.plies) byPly[p.ply] = p;
  document.querySelectorAll("#moves li").forEach((li) => {
    const p = byPly[Number(li.dataset.ply)];
    let note = li.querySelector(".rating");
    if (!p) { if (note) note.remove(); li.classList.remove("mistake"); return; }
    if (!note) { note = document.createElement("span"); note.className = "rating"; li.appendChild(note); }
    const text = p.best === null ? "" : "  " + t("analysis.best", { move: p.best, chance: pct(p.chance) });
    if (note.textContent !== text) note.textContent = text;
    if (li.classList.contains("mistake") !== !!p.mistake) li.classList.toggle("mistake", !!p.mistake);
    const title = [li.dataset.title || "", p.mistake ? t("analysis.mistake", { loss: pct(p.loss) }) : "",
      t("analysis.interval", { low: pct(p.low), high: pct(p.high) })].filter(Boolean).join(" · ");
    if (li.title !== title) li.title = title;
  });
}

// Whichever game the list shows now: a replay's, else the board's.
function listedGame() {
  if (replay) return { plies: replay.plies, start: replay.start, ruleset: replay.ruleset, result: replay.result, record: replay.record };
  return state && state.moves;
}

async function analyse() {
  const game = listedGame();
  if (!game || !game.plies.length) { say(t("analysis.nothing")); return; }
  show("analysis-about", t("analysis.running"));
  const body = game.record ? { record: game.record } : {};
  const reply = await fetch("/api/analyse", { method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body) });
  const data = await reply.json().catch(() => ({ error: "bad reply from the server" }));
  if (!reply.ok) { show("analysis-about", " "); say(data.error || ("error " + reply.status)); return; }
  chartGame({ game: Object.assign({}, game), result: data.result });
}

function chartGame(done) {
  analysed = done;
  if (done) done.lang = lang;
  drawChart(done && done.result);
  show("analysis-about", done ? t("analysis.about", { seconds: done.result.seconds,
    mistakes: done.result.mistakes.length }) : " ");
  markPlies();
}

// The board's list changes with every move: an analysis of an earlier moment goes.
drawHooks.push((st) => {
  if (analysed && !replay && st.moves && st.moves.plies.length !== analysed.result.plies.length) chartGame(null);
  if (analysed && analysed.lang !== lang) chartGame(analysed);     // said again in the new language
  markPlies();
  markChartNow();
});

$("analyse").addEventListener("click", () => analyse().catch((e) => say(String(e))));
