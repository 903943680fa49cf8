import { englishDataset, englishRecommendedTransformers, RegExpMatcher } from 'obscenity';
import type { Logger } from '../../core/logger';

export interface Score {
  /** 0 (fine) to 1 (certainly not for this community). */
  score: number;
  reasons: string[];
  /** False when a check could not run: a person should look whatever the score. */
  complete: boolean;
}

export type ImageCheckState = 'off' | 'not loaded' | 'loading' | 'ready' | 'failed';

/** An automatic check of a new post; runs on this machine, with no network. */
export interface ContentScorer {
  /** `image` is null when its bytes could not be read. */
  score(image: Buffer | null, caption: string): Promise<Score>;
  /** Prepares the image check now rather than on the first post. */
  warmUp(): Promise<void>;
  imageCheckState(): ImageCheckState;
}

export interface ImageClassifier {
  /** The probability that an image is explicit, from a model that ships with the app. */
  explicitness(image: Buffer): Promise<number>;
  warmUp(): Promise<void>;
  state(): ImageCheckState;
}

// A caption with a slur or an obscenity is worth a look, not a hold on its own.
const PROFANE_CAPTION_SCORE = 0.6;
export const IMAGE_CHECK_UNAVAILABLE = 'image check unavailable';

/** Combines the image classifier with a caption check against a maintained word list. */
export class PostScorer implements ContentScorer {
  private readonly matcher = new RegExpMatcher({
    ...englishDataset.build(),
    ...englishRecommendedTransformers,
  });

  constructor(
    private readonly images: ImageClassifier | null,
    private readonly logger?: Logger,
  ) {}

  async score(image: Buffer | null, caption: string): Promise<Score> {
    const reasons: string[] = [];
    let score = 0;
    let complete = true;
    if (this.images) {
      // A broken model or a lost file must not leave the post unchecked: the caption check still
      // runs, and the post goes to a person.
      const explicit = image
        ? await this.images.explicitness(image).catch((err: unknown) => {
            this.logger?.warn({ err }, 'image check failed');
            return null;
          })
        : null;
      if (explicit === null) {
        complete = false;
        reasons.push(image ? IMAGE_CHECK_UNAVAILABLE : 'image file missing');
      } else {
        score = Math.max(score, explicit);
        if (explicit >= 0.5) reasons.push(`image looks explicit (${explicit.toFixed(2)})`);
      }
    }
    if (this.matcher.hasMatch(caption)) {
      score = Math.max(score, PROFANE_CAPTION_SCORE);
      reasons.push('caption has profanity');
    }
    return { score: Math.min(1, score), reasons, complete };
  }

  async warmUp(): Promise<void> {
    await this.images?.warmUp();
  }

  imageCheckState(): ImageCheckState {
    return this.images ? this.images.state() : 'off';
  }
}
