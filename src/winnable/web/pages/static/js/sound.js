// Sound effects, made with the Web Audio API (no audio files): a soft tick for a move, a
// lower one for an undo, a shuffle for a new deal, a rising chord for a win and a falling
// pair for a loss. Off unless the player switches them on (settings.js), and silent while
// muted. The game page's modules are not touched: the sounds follow what the page writes
// on <body> (data-moves, data-status, data-game-id: play-game.js's updateChrome).
//
// Every sound played counts in <html data-sounds-played> (and `played()`), so that a test
// can tell a sound was made without hearing it.

const settings = () => window.winnableSettings?.current() || {};
let context = null;
let count = 0;

/** Whether a sound would play now: switched on and not muted. */
export function audible() {
  const values = settings();
  return Boolean(values.sound) && !values.muted;
}

/** How many sounds this page has played. */
export function played() {
  return count;
}

function audio() {
  if (context) return context;
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return null;
  try {
    context = new Context();
  } catch {
    context = null;
  }
  return context;
}

/** One short tone: `frequency` Hz (to `to` Hz), `length` seconds from `at`, quiet. */
function tone(ctx, { frequency, to = frequency, at = 0, length = 0.08, type = "triangle", volume = 0.06 }) {
  const start = ctx.currentTime + at;
  const osc = ctx.createOscillator();
  const gain = ctx.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(frequency, start);
  if (to !== frequency) osc.frequency.exponentialRampToValueAtTime(to, start + length);
  gain.gain.setValueAtTime(0.0001, start);
  gain.gain.exponentialRampToValueAtTime(volume, start + 0.01);
  gain.gain.exponentialRampToValueAtTime(0.0001, start + length);
  osc.connect(gain).connect(ctx.destination);
  osc.start(start);
  osc.stop(start + length + 0.02);
}

const SOUNDS = {
  move: [{ frequency: 880, to: 660, length: 0.06 }],
  undo: [{ frequency: 520, to: 390, length: 0.08 }],
  deal: [0, 0.05, 0.1, 0.15].map((at) => ({ frequency: 1200, to: 700, at, length: 0.04, type: "square", volume: 0.025 })),
  win: [523.25, 659.25, 783.99, 1046.5].map((frequency, i) => ({ frequency, at: i * 0.11, length: 0.28, volume: 0.07 })),
  lose: [{ frequency: 392, at: 0, length: 0.2 }, { frequency: 311.13, at: 0.18, length: 0.32 }],
};

/** Play the sound `kind` (move, undo, deal, win, lose) if sounds are on; true if it played. */
export function play(kind) {
  if (!audible() || !(kind in SOUNDS)) return false;
  count += 1;
  document.documentElement.dataset.soundsPlayed = String(count);
  document.documentElement.dataset.lastSound = kind;
  const ctx = audio();
  if (!ctx) return true;
  if (ctx.state === "suspended") ctx.resume().catch(() => {});
  for (const note of SOUNDS[kind]) tone(ctx, note);
  return true;
}

/** Follow the game page's <body>: a move, an undo, a new deal, a win, a loss. */
export function followGame(body = document.body) {
  let last = { id: body.dataset.gameId, moves: Number(body.dataset.moves || 0), status: body.dataset.status };
  new MutationObserver(() => {
    const now = { id: body.dataset.gameId, moves: Number(body.dataset.moves || 0), status: body.dataset.status };
    if (now.id === last.id && now.moves === last.moves && now.status === last.status) return;
    if (now.id !== last.id) {
      if (last.id) play("deal");
    } else if (now.status !== last.status && now.status === "won") play("win");
    else if (now.status !== last.status && now.status === "lost") play("lose");
    else if (now.moves > last.moves) play("move");
    else if (now.moves < last.moves) play("undo");
    last = now;
  }).observe(body, { attributes: true, attributeFilter: ["data-game-id", "data-moves", "data-status"] });
}
