/**
 * A short synthesized "pop": no file to fetch, and each tap starts its own tiny voice, so fast
 * tapping never waits for the previous sound to finish.
 */
let context: AudioContext | null = null;

export function playTapSound(): void {
  try {
    context ??= new AudioContext();
    if (context.state === 'suspended') void context.resume();
    const now = context.currentTime;
    const oscillator = context.createOscillator();
    const gain = context.createGain();
    oscillator.type = 'triangle';
    oscillator.frequency.setValueAtTime(880, now);
    oscillator.frequency.exponentialRampToValueAtTime(440, now + 0.08);
    gain.gain.setValueAtTime(0.2, now);
    gain.gain.exponentialRampToValueAtTime(0.001, now + 0.09);
    oscillator.connect(gain).connect(context.destination);
    oscillator.start(now);
    oscillator.stop(now + 0.1);
  } catch {
    // No audio (an old browser or a test environment): the game works silently.
  }
}
