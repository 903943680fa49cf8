import { violates, type Queryable } from '../../core/db';
import { NotFoundError } from '../../core/errors';

/** The posts each user saved: the post_saves table (the Saved grid reads it with the posts). */
export class SavesRepository {
  constructor(private readonly db: Queryable) {}

  async set(userId: string, postId: string, save: boolean): Promise<void> {
    try {
      await this.db.query(
        save
          ? 'INSERT INTO post_saves (user_id, post_id) VALUES ($1, $2) ON CONFLICT DO NOTHING'
          : 'DELETE FROM post_saves WHERE user_id = $1 AND post_id = $2',
        [userId, postId],
      );
    } catch (error) {
      // Deleted since it was found.
      if (violates(error, 'foreignKey')) throw new NotFoundError('Post not found');
      throw error;
    }
  }
}
