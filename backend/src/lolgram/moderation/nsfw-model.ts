import { createRequire } from 'node:module';
import path from 'node:path';
import sharp from 'sharp';

const SIZE = 224;

export interface Prediction {
  className: string;
  probability: number;
}

/** A loaded image model: the class probabilities of one image. */
export interface NsfwModel {
  classify(image: Buffer): Promise<Prediction[]>;
}

type Classifier = { classify(input: unknown): Promise<Prediction[]> };

/**
 * The WebAssembly runtime, as it starts, makes every unhandled rejection in the process rethrow
 * and so kill the server; the server decides that itself, so those listeners are taken back off.
 */
async function withoutProcessHooks(start: () => Promise<void>): Promise<void> {
  const uncaught = process.listeners('uncaughtException');
  const rejections = process.listeners('unhandledRejection');
  try {
    await start();
  } finally {
    for (const listener of process.listeners('uncaughtException')) {
      if (!uncaught.includes(listener)) process.removeListener('uncaughtException', listener);
    }
    for (const listener of process.listeners('unhandledRejection')) {
      if (!rejections.includes(listener)) process.removeListener('unhandledRejection', listener);
    }
  }
}

/**
 * nsfwjs prints a notice on the console as it loads its bundled model ("You're using the model:
 * ..."), which says nothing to whoever runs the server: console.info and console.log print
 * nothing while `load` runs. The server itself logs through pino, never through the console.
 */
/* eslint-disable no-console -- the console is silenced here, not written to */
async function quietly<T>(load: () => Promise<T>): Promise<T> {
  const { info, log } = console;
  console.info = () => undefined;
  console.log = () => undefined;
  try {
    return await load();
  } finally {
    console.info = info;
    console.log = log;
  }
}
/* eslint-enable no-console */

/**
 * nsfwjs's MobileNetV2, whose weights ship inside the package, on TensorFlow.js's WebAssembly
 * backend: no download, no native binary.
 */
export async function loadNsfwModel(): Promise<NsfwModel> {
  const tf = await import('@tensorflow/tfjs');
  await withoutProcessHooks(async () => {
    const wasm = await import('@tensorflow/tfjs-backend-wasm');
    const require = createRequire(import.meta.url);
    wasm.setWasmPaths(
      `${path.dirname(require.resolve('@tensorflow/tfjs-backend-wasm/package.json'))}/dist/`,
    );
    await tf.setBackend('wasm');
    await tf.ready();
  });
  const nsfwjs = await import('nsfwjs');
  const model = (await quietly(() => nsfwjs.load('MobileNetV2'))) as unknown as Classifier;
  return {
    async classify(image) {
      const pixels = await sharp(image)
        .resize(SIZE, SIZE, { fit: 'cover' })
        .removeAlpha()
        .raw()
        .toBuffer();
      const input = tf.tensor3d(new Int32Array(pixels), [SIZE, SIZE, 3], 'int32');
      try {
        return await model.classify(input);
      } finally {
        input.dispose();
      }
    },
  };
}
