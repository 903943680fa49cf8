import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import {
  checkedImageKey,
  imageContentType,
  ownerPrefix,
  type ImageOwner,
  type ImageStore,
} from './image-store';

export interface S3ImageStoreOptions {
  bucket: string;
  region: string;
  /** Unset: AWS S3 itself. */
  endpoint?: string;
  /** Unset: the AWS SDK's own credentials (an instance or task role). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
  forcePathStyle: boolean;
}

const CONNECT_TIMEOUT_MS = 5_000;
/** How long a request may sit without a byte moving before it fails. */
const IDLE_TIMEOUT_MS = 30_000;
const CHECK_TIMEOUT_MS = 15_000;

/**
 * Images in an S3-compatible bucket (AWS S3, MinIO...), shared by every node. The bucket stays
 * private: clients never reach it, the backend reads the bytes and decides who may see them.
 */
export class S3ImageStore implements ImageStore {
  private readonly client: S3Client;
  private readonly bucket: string;
  private readonly where: string;

  constructor(options: S3ImageStoreOptions) {
    this.bucket = options.bucket;
    this.where = options.endpoint ?? `AWS S3 (${options.region})`;
    this.client = new S3Client({
      region: options.region,
      endpoint: options.endpoint,
      credentials: options.credentials,
      forcePathStyle: options.forcePathStyle,
      requestHandler: { connectionTimeout: CONNECT_TIMEOUT_MS, requestTimeout: IDLE_TIMEOUT_MS },
      // S3-compatible servers differ in their support of the optional integrity checksums the
      // SDK adds by default; send and check them only where the API requires them.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  async put(key: string, bytes: Buffer): Promise<void> {
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: checkedImageKey(key),
        Body: bytes,
        ContentType: imageContentType(key),
      }),
    );
  }

  async get(key: string): Promise<Buffer | null> {
    const Key = checkedImageKey(key);
    try {
      const answer = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key }));
      if (!answer.Body) return null;
      const bytes = await answer.Body.transformToByteArray();
      return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    } catch (error) {
      if (isMissingKey(error)) return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    const Key = checkedImageKey(key);
    try {
      await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key }));
    } catch (error) {
      // S3 answers 204 for a key that holds nothing; some compatible servers answer 404.
      if (!isMissingKey(error)) throw error;
    }
  }

  /** Lists the owner's folder a page at a time and deletes each key (one call each: any server). */
  async deleteOwner(owner: ImageOwner): Promise<void> {
    const Prefix = ownerPrefix(owner);
    let ContinuationToken: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.bucket, Prefix, ContinuationToken }),
      );
      for (const { Key } of page.Contents ?? []) {
        if (Key?.startsWith(Prefix)) await this.delete(Key);
      }
      ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (ContinuationToken);
  }

  async check(): Promise<void> {
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }), {
        abortSignal: AbortSignal.timeout(CHECK_TIMEOUT_MS),
      });
    } catch (error) {
      throw new Error(this.unusable(error));
    }
  }

  private unusable(error: unknown): string {
    const bucket = `The S3 bucket "${this.bucket}" at ${this.where}`;
    const status = error instanceof S3ServiceException ? error.$metadata.httpStatusCode : undefined;
    switch (status) {
      case 404:
        return `${bucket} does not exist: create it, or correct S3_BUCKET`;
      case 403:
        return `${bucket} refuses these credentials: check S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY`;
      case 301:
        return `${bucket} is in another region: correct S3_REGION`;
      default: {
        const reason = status ? `HTTP ${status}` : (error as Error).message || String(error);
        return `${bucket} cannot be reached (${reason}): check S3_ENDPOINT and that the server runs`;
      }
    }
  }
}

/** A key that holds nothing; a missing bucket is not one (it must not pass for a missing image). */
function isMissingKey(error: unknown): boolean {
  if (!(error instanceof S3ServiceException)) return false;
  if (error.name === 'NoSuchKey') return true;
  return error.$metadata.httpStatusCode === 404 && error.name !== 'NoSuchBucket';
}
