import sharp from 'sharp';
import { describe, expect, it, vi } from 'vitest';
import { NsfwClassifier } from '../../../src/lolgram/moderation/nsfw-classifier';
import type { NsfwModel } from '../../../src/lolgram/moderation/nsfw-model';
import { PostScorer, TextScorer } from '../../../src/lolgram/moderation/scoring';

/** A meme: a drawing with big captions, the kind of picture LOLGram is for. */
function meme(): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="600">
    <rect width="600" height="600" fill="#38bdf8"/>
    <circle cx="300" cy="320" r="160" fill="#fde047" stroke="#000" stroke-width="8"/>
    <circle cx="240" cy="280" r="20"/><circle cx="360" cy="280" r="20"/>
    <path d="M210 370 Q300 450 390 370" stroke="#000" stroke-width="10" fill="none"/>
    <text x="300" y="90" font-size="64" text-anchor="middle" font-family="sans-serif" fill="#fff" stroke="#000" stroke-width="3">WHEN THE BUILD</text>
    <text x="300" y="570" font-size="64" text-anchor="middle" font-family="sans-serif" fill="#fff" stroke="#000" stroke-width="3">PASSES FIRST TRY</text>
  </svg>`;
  return sharp(Buffer.from(svg)).jpeg().toBuffer();
}

describe('automatic scoring', () => {
  // First in the file: the runtime starts once per process, on the first model load.
  it("leaves the process's error handling as it was once the model's runtime has started", async () => {
    const before = [
      process.listeners('unhandledRejection').length,
      process.listeners('uncaughtException').length,
    ];
    await new NsfwClassifier().explicitness(await meme());
    expect([
      process.listeners('unhandledRejection').length,
      process.listeners('uncaughtException').length,
    ]).toEqual(before);
  });

  it("loads the model without printing the library's notice on the console", async () => {
    const info = vi.spyOn(console, 'info');
    const log = vi.spyOn(console, 'log');
    try {
      await new NsfwClassifier().explicitness(await meme());
      const printed = [...info.mock.calls, ...log.mock.calls].flat().map(String).join('\n');
      expect(printed).not.toMatch(/using the model/i);
      // Only for the load: the console works again afterwards.
      info.mockImplementation(() => undefined);
      console.info('after the load');
      expect(info).toHaveBeenCalledWith('after the load');
    } finally {
      info.mockRestore();
      log.mockRestore();
    }
  });

  it('runs the bundled image model offline and does not punish a drawn meme', async () => {
    const classifier = new NsfwClassifier();
    expect(classifier.state()).toBe('not loaded');
    const explicitness = await classifier.explicitness(await meme());
    expect(classifier.state()).toBe('ready');
    expect(explicitness).toBeGreaterThanOrEqual(0);
    expect(explicitness).toBeLessThan(0.5);
  });

  it('flags a profane caption for a look, and leaves a clean one alone', async () => {
    const scorer = new PostScorer(null);
    const image = await meme();
    expect(await scorer.score(image, 'a cat in sunglasses')).toEqual({
      score: 0,
      reasons: [],
      complete: true,
    });
    const rude = await scorer.score(image, 'what the fuck is this');
    expect(rude.score).toBeGreaterThanOrEqual(0.5);
    expect(rude.reasons).toEqual(['caption has profanity']);
    expect(scorer.imageCheckState()).toBe('off');
  });

  it('scores content that is only text with the same word list, naming the text', () => {
    const comments = new TextScorer('comment');
    expect(comments.score('nice one')).toEqual({ score: 0, reasons: [], complete: true });
    expect(comments.score('what the fuck is this')).toEqual({
      score: 0.6,
      reasons: ['comment has profanity'],
      complete: true,
    });
  });

  it('still checks the caption when the image check fails, and says the check is incomplete', async () => {
    const broken = new NsfwClassifier(() => Promise.reject(new Error('no wasm')));
    const scorer = new PostScorer(broken);
    expect(await scorer.score(await meme(), 'what the fuck is this')).toEqual({
      score: 0.6,
      reasons: ['image check unavailable', 'caption has profanity'],
      complete: false,
    });
    expect(scorer.imageCheckState()).toBe('failed');
    expect(await scorer.score(null, 'fine')).toEqual({
      score: 0,
      reasons: ['image file missing'],
      complete: false,
    });
  });

  it('forgets a failed model load, so that the next image tries again', async () => {
    const model: NsfwModel = {
      classify: () => Promise.resolve([{ className: 'Porn', probability: 0.8 }]),
    };
    const load = vi
      .fn<() => Promise<NsfwModel>>()
      .mockRejectedValueOnce(new Error('no wasm'))
      .mockResolvedValue(model);
    const classifier = new NsfwClassifier(load);
    await expect(classifier.warmUp()).rejects.toThrow('no wasm');
    expect(classifier.state()).toBe('failed');
    expect(await classifier.explicitness(await meme())).toBe(0.8);
    expect(classifier.state()).toBe('ready');
    await classifier.explicitness(await meme());
    expect(load).toHaveBeenCalledTimes(2);
  });
});
