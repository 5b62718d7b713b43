// A soft click when a card lands, made by the browser (no sound files); off until turned on.

let ctx = null;

export function soundOn() {
  try {
    return localStorage.getItem("tt-sound") === "on";
  } catch (err) {
    return false;
  }
}

export function setSound(on) {
  try {
    localStorage.setItem("tt-sound", on ? "on" : "off");
  } catch (err) {
    /* kept for this page only */
  }
}

export function click() {
  if (!soundOn()) return;
  try {
    ctx = ctx || new AudioContext();
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.type = "triangle";
    osc.frequency.value = 520;
    gain.gain.setValueAtTime(0.08, ctx.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, ctx.currentTime + 0.09);
    osc.connect(gain).connect(ctx.destination);
    osc.start();
    osc.stop(ctx.currentTime + 0.1);
  } catch (err) {
    /* no audio here: silence */
  }
}
