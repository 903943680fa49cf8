import path from 'node:path';
import type { Config } from '../core/config';
import { LocalImageStore, type ImageStore } from './image-store';
import { S3ImageStore } from './s3-image-store';

type ImageStoreConfig = Pick<
  Config,
  | 'DATA_DIR'
  | 'IMAGE_STORE'
  | 'S3_ENDPOINT'
  | 'S3_BUCKET'
  | 'S3_REGION'
  | 'S3_ACCESS_KEY_ID'
  | 'S3_SECRET_ACCESS_KEY'
  | 'S3_FORCE_PATH_STYLE'
>;

/** The store every feature reads and writes images in, chosen once from the configuration. */
export function imageStoreFor(config: ImageStoreConfig): ImageStore {
  if (config.IMAGE_STORE === 'local') {
    return new LocalImageStore(path.join(config.DATA_DIR, 'images'));
  }
  // The configuration refuses IMAGE_STORE=s3 without a bucket, and one half of a key pair.
  if (!config.S3_BUCKET) throw new Error('S3_BUCKET is required with IMAGE_STORE=s3');
  const { S3_ACCESS_KEY_ID: accessKeyId, S3_SECRET_ACCESS_KEY: secretAccessKey } = config;
  return new S3ImageStore({
    bucket: config.S3_BUCKET,
    region: config.S3_REGION,
    endpoint: config.S3_ENDPOINT,
    credentials: accessKeyId && secretAccessKey ? { accessKeyId, secretAccessKey } : undefined,
    forcePathStyle: config.S3_FORCE_PATH_STYLE,
  });
}
