import { createRequire } from 'node:module';
import path from 'node:path';
import sharp from 'sharp';
import type { ImageClassifier } from './scoring';

const SIZE = 224;
type Model = { classify(input: unknown): Promise<{ className: string; probability: number }[]> };

/**
 * nsfwjs's MobileNetV2, whose weights ship inside the package, on TensorFlow.js's WebAssembly
 * backend: no download, no native binary. Loaded once, on first use.
 */
export class NsfwClassifier implements ImageClassifier {
  private model: Promise<{ model: Model; tensor: (data: Buffer) => unknown }> | undefined;

  private load() {
    this.model ??= (async () => {
      const tf = await import('@tensorflow/tfjs');
      const wasm = await import('@tensorflow/tfjs-backend-wasm');
      const require = createRequire(import.meta.url);
      wasm.setWasmPaths(
        `${path.dirname(require.resolve('@tensorflow/tfjs-backend-wasm/package.json'))}/dist/`,
      );
      await tf.setBackend('wasm');
      await tf.ready();
      const nsfwjs = await import('nsfwjs');
      const model = (await nsfwjs.load('MobileNetV2')) as unknown as Model;
      return {
        model,
        tensor: (data: Buffer) => tf.tensor3d(new Int32Array(data), [SIZE, SIZE, 3], 'int32'),
      };
    })();
    return this.model;
  }

  async explicitness(image: Buffer): Promise<number> {
    const { model, tensor } = await this.load();
    const pixels = await sharp(image)
      .resize(SIZE, SIZE, { fit: 'cover' })
      .removeAlpha()
      .raw()
      .toBuffer();
    const input = tensor(pixels) as { dispose(): void };
    try {
      const predictions = await model.classify(input);
      const p = (name: string) => predictions.find((x) => x.className === name)?.probability ?? 0;
      // Drawings and neutral pictures (memes) count for nothing; suggestive ones for half.
      return Math.min(1, p('Porn') + p('Hentai') + 0.5 * p('Sexy'));
    } finally {
      input.dispose();
    }
  }
}
