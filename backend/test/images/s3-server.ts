import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  CreateBucketCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  S3Client,
} from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import type { S3ImageStoreOptions } from '../../src/images/s3-image-store';

/** s3rver's built-in key pair. */
const ACCESS_KEY_ID = 'S3RVER';
const SECRET_ACCESS_KEY = 'S3RVER';
const REGION = 'us-east-1';

export interface TestS3Server {
  endpoint: string;
  /** A client of the server, to look into a bucket behind the app's back. */
  client: S3Client;
  createBucket(name: string): Promise<void>;
  /** What the store options are for a bucket of this server. */
  storeOptions(bucket: string): S3ImageStoreOptions;
  /** The IMAGE_STORE=s3 variables of the app for a bucket of this server. */
  env(bucket: string): Record<string, string>;
  /** The bytes of an object, or null when the bucket holds none under that key. */
  object(bucket: string, key: string): Promise<Buffer | null>;
  keys(bucket: string): Promise<string[]>;
  stop(): Promise<void>;
}

/** A real S3-protocol server on a free loopback port, keeping its buckets in a temp directory. */
export async function startS3Server(): Promise<TestS3Server> {
  const directory = await fs.mkdtemp(path.join(os.tmpdir(), 'tapgram-s3-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, directory, silent: true });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const credentials = { accessKeyId: ACCESS_KEY_ID, secretAccessKey: SECRET_ACCESS_KEY };
  const client = new S3Client({ endpoint, region: REGION, forcePathStyle: true, credentials });
  return {
    endpoint,
    client,
    async createBucket(name) {
      await client.send(new CreateBucketCommand({ Bucket: name }));
    },
    storeOptions: (bucket) => ({
      bucket,
      region: REGION,
      endpoint,
      credentials,
      forcePathStyle: true,
    }),
    env: (bucket) => ({
      IMAGE_STORE: 's3',
      S3_ENDPOINT: endpoint,
      S3_BUCKET: bucket,
      S3_REGION: REGION,
      S3_ACCESS_KEY_ID: ACCESS_KEY_ID,
      S3_SECRET_ACCESS_KEY: SECRET_ACCESS_KEY,
      S3_FORCE_PATH_STYLE: 'true',
    }),
    async object(bucket, key) {
      try {
        const answer = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
        return Buffer.from(await answer.Body!.transformToByteArray());
      } catch (error) {
        if ((error as Error).name === 'NoSuchKey') return null;
        throw error;
      }
    },
    async keys(bucket) {
      const answer = await client.send(new ListObjectsV2Command({ Bucket: bucket }));
      return (answer.Contents ?? []).map((object) => object.Key!).sort();
    },
    async stop() {
      client.destroy();
      await server.close();
      await fs.rm(directory, { recursive: true, force: true });
    },
  };
}
