// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/** An AudioContext that counts how often it is made and how many pops it plays. */
class FakeAudioContext {
  static made = 0;
  static pops = 0;
  state = 'running';
  currentTime = 0;
  destination = {};
  constructor() {
    FakeAudioContext.made += 1;
  }
  createOscillator() {
    const param = { setValueAtTime() {}, exponentialRampToValueAtTime() {} };
    return {
      type: '',
      frequency: param,
      connect: (node: unknown) => node,
      start: () => (FakeAudioContext.pops += 1),
      stop() {},
    };
  }
  createGain() {
    const param = { setValueAtTime() {}, exponentialRampToValueAtTime() {} };
    return { gain: param, connect: (node: unknown) => node };
  }
}

let frames: FrameRequestCallback[] = [];
/** Paints the next frame, then runs what was waiting for it. */
function paint() {
  const due = frames;
  frames = [];
  for (const frame of due) frame(0);
  vi.runOnlyPendingTimers();
}

beforeEach(() => {
  vi.resetModules();
  vi.useFakeTimers();
  FakeAudioContext.made = 0;
  FakeAudioContext.pops = 0;
  vi.stubGlobal('AudioContext', FakeAudioContext);
  vi.stubGlobal('requestAnimationFrame', (frame: FrameRequestCallback) => frames.push(frame));
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  frames = [];
});

describe('the tap sound', () => {
  it('keeps the first tap from waiting for the audio output: its context is made after the frame that shows the tap', async () => {
    const { playTapSound } = await import('../../src/features/game/tap-sound');
    playTapSound();
    expect(FakeAudioContext.made).toBe(0);

    paint();
    expect(FakeAudioContext.made).toBe(1);
    expect(FakeAudioContext.pops).toBe(1);
  });

  it('plays each later tap at once, from the one context', async () => {
    const { playTapSound } = await import('../../src/features/game/tap-sound');
    playTapSound();
    // A second tap while the context is being made adds no second context.
    playTapSound();
    paint();
    expect(FakeAudioContext.made).toBe(1);

    playTapSound();
    playTapSound();
    expect(FakeAudioContext.pops).toBe(3);
    expect(FakeAudioContext.made).toBe(1);
  });
});
