import { loadNsfwModel, type NsfwModel } from './nsfw-model';
import type { ImageCheckState, ImageClassifier } from './scoring';

/**
 * The image model's life: loaded once (at start-up, or by the first image), and after a failed
 * load forgotten, so that the next image tries again instead of failing for ever.
 */
export class NsfwClassifier implements ImageClassifier {
  private model: Promise<NsfwModel> | undefined;
  private status: ImageCheckState = 'not loaded';

  constructor(private readonly loadModel: () => Promise<NsfwModel> = loadNsfwModel) {}

  private load(): Promise<NsfwModel> {
    if (this.model) return this.model;
    const loading = this.loadModel();
    this.model = loading;
    this.status = 'loading';
    loading.then(
      () => {
        this.status = 'ready';
      },
      () => {
        this.status = 'failed';
        if (this.model === loading) this.model = undefined;
      },
    );
    return loading;
  }

  async warmUp(): Promise<void> {
    await this.load();
  }

  state(): ImageCheckState {
    return this.status;
  }

  async explicitness(image: Buffer): Promise<number> {
    const predictions = await (await this.load()).classify(image);
    const p = (name: string) => predictions.find((x) => x.className === name)?.probability ?? 0;
    // Drawings and neutral pictures (memes) count for nothing; suggestive ones for half.
    return Math.min(1, p('Porn') + p('Hentai') + 0.5 * p('Sexy'));
  }
}
