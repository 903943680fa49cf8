/**
 * A short synthesized "pop": no file to fetch, and each tap starts its own tiny voice, so fast
 * tapping never waits for the previous sound to finish.
 */
let context: AudioContext | null = null;
let starting = false;

function pop(audio: AudioContext): void {
  if (audio.state === 'suspended') void audio.resume();
  const now = audio.currentTime;
  const oscillator = audio.createOscillator();
  const gain = audio.createGain();
  oscillator.type = 'triangle';
  oscillator.frequency.setValueAtTime(880, now);
  oscillator.frequency.exponentialRampToValueAtTime(440, now + 0.08);
  gain.gain.setValueAtTime(0.2, now);
  gain.gain.exponentialRampToValueAtTime(0.001, now + 0.09);
  oscillator.connect(gain).connect(audio.destination);
  oscillator.start(now);
  oscillator.stop(now + 0.1);
}

/** Runs `work` once the browser has painted the frame that the current event changes. */
function afterNextPaint(work: () => void): void {
  requestAnimationFrame(() => setTimeout(work, 0));
}

export function playTapSound(): void {
  try {
    if (context) {
      pop(context);
    } else if (!starting) {
      // Making the audio context takes a phone a few hundred milliseconds (its audio output
      // starts): the first tap sounds once the frame that shows it is painted, which does not wait
      // for that. The tap was a user gesture, so the context may start.
      starting = true;
      afterNextPaint(() => {
        try {
          context = new AudioContext();
          pop(context);
        } catch {
          // No audio (an old browser): the game works silently.
        }
      });
    }
  } catch {
    // No audio (an old browser or a test environment): the game works silently.
  }
}
