// Sounds for what happens on the board: the throw, a capture, the water, a
// mistake and the win. Made by the browser's Web Audio oscillators (no sound
// files), off until the player switches them on; the page remembers the switch.
"use strict";

const SOUND_KEY = "senet.sound";
// Each sound: [frequency Hz, start s, length s] notes of one timbre.
const SOUNDS = {
  throw: ["triangle", [[660, 0, 0.05], [520, 0.06, 0.05], [740, 0.12, 0.05]]],
  capture: ["square", [[330, 0, 0.09], [220, 0.1, 0.14]]],
  water: ["sine", [[520, 0, 0.12], [390, 0.12, 0.12], [260, 0.24, 0.25]]],
  mistake: ["sawtooth", [[160, 0, 0.18], [150, 0.2, 0.22]]],
  win: ["triangle", [[523, 0, 0.14], [659, 0.15, 0.14], [784, 0.3, 0.14], [1047, 0.45, 0.35]]],
};
let audio = null;
let soundSeq = null;       // the last event heard; the events before the page opened are not played
let soundPly = null;       // the plies the list held when last heard

function soundOn() {
  try { return localStorage.getItem(SOUND_KEY) === "on"; } catch (e) { return false; }
}

function play(name) {
  if (!soundOn() || !SOUNDS[name]) return;
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return;
  if (!audio) audio = new Context();
  if (audio.state === "suspended") audio.resume();
  const [wave, notes] = SOUNDS[name];
  const at = audio.currentTime;
  for (const [freq, start, length] of notes) {
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.type = wave;
    osc.frequency.value = freq;
    gain.gain.setValueAtTime(0.0001, at + start);
    gain.gain.exponentialRampToValueAtTime(0.2, at + start + 0.01);
    gain.gain.exponentialRampToValueAtTime(0.0001, at + start + length);
    osc.connect(gain).connect(audio.destination);
    osc.start(at + start);
    osc.stop(at + start + length + 0.02);
  }
}

// The board's events say when it threw, erred or ended; the move list says
// what a move did (a capture, the water), as the move event does not.
function hearEvents(st) {
  if (soundSeq === null) { soundSeq = st.seq; return; }
  for (const entry of st.log || []) {
    if (entry.seq <= soundSeq || entry.kind !== "app") continue;
    const name = entry.data.event;
    if (name === "throw") play("throw");
    else if (name === "mismatch") play("mistake");
    else if (name === "game_over") play("win");
  }
  soundSeq = Math.max(soundSeq, st.seq);
}

function hearMoves(st) {
  const plies = st.moves ? st.moves.plies : [];
  if (soundPly !== null && plies.length === soundPly + 1) {
    const marks = plies[plies.length - 1].marks;
    if (marks.includes("capture")) play("capture");
    if (marks.includes("water")) play("water");
  }
  soundPly = plies.length;
}

drawHooks.push((st, again) => { if (!again) { hearEvents(st); hearMoves(st); } });

$("sound").checked = soundOn();
$("sound").addEventListener("change", (e) => {
  try { localStorage.setItem(SOUND_KEY, e.target.checked ? "on" : "off"); } catch (err) { /* private mode */ }
  if (e.target.checked) play("throw");     // a user's click lets the page make sound
});
