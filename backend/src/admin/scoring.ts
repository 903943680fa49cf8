import { englishDataset, englishRecommendedTransformers, RegExpMatcher } from 'obscenity';

export interface Score {
  /** 0 (fine) to 1 (certainly not for this community). */
  score: number;
  reasons: string[];
}

/** An automatic check of a new post; runs on this machine, with no network. */
export interface ContentScorer {
  score(image: Buffer, caption: string): Promise<Score>;
}

export interface ImageClassifier {
  /** The probability that an image is explicit, from a model that ships with the app. */
  explicitness(image: Buffer): Promise<number>;
}

// A caption with a slur or an obscenity is worth a look, not a hold on its own.
const PROFANE_CAPTION_SCORE = 0.6;

/** Combines the image classifier with a caption check against a maintained word list. */
export class PostScorer implements ContentScorer {
  private readonly matcher = new RegExpMatcher({
    ...englishDataset.build(),
    ...englishRecommendedTransformers,
  });

  constructor(private readonly images: ImageClassifier | null) {}

  async score(image: Buffer, caption: string): Promise<Score> {
    const reasons: string[] = [];
    let score = 0;
    if (this.images) {
      const explicit = await this.images.explicitness(image);
      score = Math.max(score, explicit);
      if (explicit >= 0.5) reasons.push(`image looks explicit (${explicit.toFixed(2)})`);
    }
    if (this.matcher.hasMatch(caption)) {
      score = Math.max(score, PROFANE_CAPTION_SCORE);
      reasons.push('caption has profanity');
    }
    return { score: Math.min(1, score), reasons };
  }
}
