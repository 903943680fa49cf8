import type pg from 'pg';
import { toggleRow, type Queryable } from '../../core/db';

/** Who follows whom: the follows table. */
export class FollowsRepository {
  constructor(private readonly db: Queryable) {}

  async isFollowing(followerId: string, userId: string): Promise<boolean> {
    const { rowCount } = await this.db.query(
      'SELECT 1 FROM follows WHERE follower_id = $1 AND following_id = $2',
      [followerId, userId],
    );
    return (rowCount ?? 0) > 0;
  }

  /** Adds or removes the follow; answers 1 or -1 when a row was really added or removed, else 0. */
  set(client: pg.PoolClient, followerId: string, userId: string, follow: boolean) {
    return toggleRow(
      client,
      follow,
      {
        insert:
          'INSERT INTO follows (follower_id, following_id) VALUES ($1, $2) ON CONFLICT DO NOTHING',
        remove: 'DELETE FROM follows WHERE follower_id = $1 AND following_id = $2',
      },
      [followerId, userId],
    );
  }
}
