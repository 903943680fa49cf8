import type { Post, SaveState } from '@tapgram/shared';
import { NotFoundError, ValidationError } from '../../core/errors';
import { isId } from '../../core/ids';
import { can, type Viewer } from '../../accounts';
import { parseCursor } from '../posts/post-cursor';
import type { PostsRepository } from '../posts/posts-repository';
import type { SavesRepository } from './saves-repository';

/** Saved posts: anyone signed in saves a public post; the Saved grid is its owner's alone. */
export class SavesService {
  constructor(
    private readonly saves: SavesRepository,
    private readonly posts: PostsRepository,
  ) {}

  async setSaved(viewer: Viewer, postId: string, save: boolean): Promise<SaveState> {
    if (!isId(postId) || !(await this.posts.isVisible(postId))) {
      throw new NotFoundError('Post not found');
    }
    await this.saves.set(viewer.id, postId, save);
    return { isSaved: save };
  }

  /** One's own Saved grid; anyone else's is not found (not forbidden: it is not disclosed). */
  saved(viewer: Viewer, userId: string, page: { limit: number; before?: string }): Promise<Post[]> {
    if (!can(viewer, 'user.self', { userId })) throw new NotFoundError('Not found');
    const before = page.before ? parseCursor(page.before) : null;
    if (page.before && !before) throw new ValidationError('Invalid cursor');
    return this.posts.savedBy(viewer.id, page.limit, before);
  }
}
