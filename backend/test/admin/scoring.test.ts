import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { NsfwClassifier } from '../../src/admin/nsfw-classifier';
import { PostScorer } from '../../src/admin/scoring';

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
  it('runs the bundled image model offline and does not punish a drawn meme', async () => {
    const explicitness = await new NsfwClassifier().explicitness(await meme());
    expect(explicitness).toBeGreaterThanOrEqual(0);
    expect(explicitness).toBeLessThan(0.5);
  });

  it('flags a profane caption for a look, and leaves a clean one alone', async () => {
    const scorer = new PostScorer(null);
    const image = await meme();
    expect(await scorer.score(image, 'a cat in sunglasses')).toEqual({ score: 0, reasons: [] });
    const rude = await scorer.score(image, 'what the fuck is this');
    expect(rude.score).toBeGreaterThanOrEqual(0.5);
    expect(rude.reasons).toEqual(['caption has profanity']);
  });
});
