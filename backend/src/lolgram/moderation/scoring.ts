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

export interface ImageClassifier {
  /** The probability that an image is explicit, from a model that ships with the app. */
  explicitness(image: Buffer): Promise<number>;
  warmUp(): Promise<void>;
  state(): ImageCheckState;
}

// A text with a slur or an obscenity is worth a look, not a hold on its own.
const PROFANE_TEXT_SCORE = 0.6;
export const IMAGE_CHECK_UNAVAILABLE = 'image check unavailable';

let matcher: RegExpMatcher | undefined;
/** The word list, compiled once for every text scorer. */
function wordList(): RegExpMatcher {
  matcher ??= new RegExpMatcher({ ...englishDataset.build(), ...englishRecommendedTransformers });
  return matcher;
}

/**
 * The check of a text (a caption, or any content that is only text) against a maintained word
 * list; `what` names the text in the reason ("caption has profanity").
 */
export class TextScorer {
  constructor(private readonly what: string) {}

  score(text: string): Score {
    if (!wordList().hasMatch(text)) return { score: 0, reasons: [], complete: true };
    return { score: PROFANE_TEXT_SCORE, reasons: [`${this.what} has profanity`], complete: true };
  }
}

/** A post's check: the image classifier, and its caption against the word list. */
export class PostScorer {
  private readonly caption = new TextScorer('caption');

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
    const text = this.caption.score(caption);
    score = Math.max(score, text.score);
    reasons.push(...text.reasons);
    return { score: Math.min(1, score), reasons, complete };
  }

  imageCheckState(): ImageCheckState {
    return this.images ? this.images.state() : 'off';
  }
}
