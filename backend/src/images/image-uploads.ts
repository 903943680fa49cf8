import { ServiceUnavailableError } from '../core/errors';
import type { RateLimit } from '../core/limiter';
import { WorkQueue, type WorkLimits } from '../core/work-queue';
import { IMAGE_LIMITS } from './limits';
import {
  readImageHeader,
  renderAvatar,
  renderPostImage,
  type ImageHeader,
  type ProcessedAvatar,
  type ProcessedPostImage,
} from './image-pipeline';

export const UPLOADS_BUSY = 'Server busy with other uploads, try again shortly';
export const TOO_MANY_UPLOADS = 'Too many image uploads. Try again later.';

/** The two renders (a seam: tests hold them to watch the queue). */
export interface ImageRenderers {
  post(input: Buffer, header: ImageHeader): Promise<ProcessedPostImage>;
  avatar(input: Buffer, header: ImageHeader): Promise<ProcessedAvatar>;
}

const RENDERERS: ImageRenderers = { post: renderPostImage, avatar: renderAvatar };

/**
 * The one way in for uploaded images (posts and avatars): counted against their user's limit,
 * refused by their header before any work waits, then decoded and re-encoded in this process's
 * queue (IMAGE_LIMITS.imageJobs), so that uploads cannot starve taps and reads.
 */
export class ImageUploads {
  private readonly jobs: WorkQueue;

  constructor(
    private readonly perUser: RateLimit,
    limits: WorkLimits = IMAGE_LIMITS.imageJobs,
    private readonly render: ImageRenderers = RENDERERS,
  ) {
    this.jobs = new WorkQueue(limits, UPLOADS_BUSY);
  }

  post(userId: string, input: Buffer): Promise<ProcessedPostImage> {
    return this.run(userId, input, (header) => this.render.post(input, header));
  }

  avatar(userId: string, input: Buffer): Promise<ProcessedAvatar> {
    return this.run(userId, input, (header) => this.render.avatar(input, header));
  }

  private async run<T>(
    userId: string,
    input: Buffer,
    render: (header: ImageHeader) => Promise<T>,
  ): Promise<T> {
    await this.perUser.take(userId, TOO_MANY_UPLOADS);
    const header = await readImageHeader(input);
    try {
      return await this.jobs.run(() => render(header));
    } catch (error) {
      // Refused for a full queue, the upload was never processed: it does not count.
      if (error instanceof ServiceUnavailableError) await this.perUser.forgive(userId);
      throw error;
    }
  }
}
