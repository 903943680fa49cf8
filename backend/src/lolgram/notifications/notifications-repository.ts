import {
  NOTIFICATION_ACTORS_SHOWN,
  NOTIFICATION_RETENTION_DAYS,
  type Notification,
  type NotificationKind,
} from '@tapgram/shared';
import type pg from 'pg';
import { violates, withTransaction } from '../../core/db';
import { imageUrl } from '../../images';
import { encodeCursor, type Cursor } from '../posts/post-cursor';
import { blockedEitherWay, blockedEitherWaySet } from '../relations/blocks-repository';

/** One thing to tell a user; `actorId` null for what moderation tells (nobody is named). */
export interface NotificationInput {
  userId: string;
  kind: NotificationKind;
  /** The group's subject: the post, the replied comment, '' for follows. */
  groupKey: string;
  postId: string | null;
  commentId: string | null;
  actorId: string | null;
}

interface NotificationRow {
  id: string;
  kind: NotificationKind;
  post_id: string | null;
  comment_id: string | null;
  actor_count: number;
  read: boolean;
  updated_at: Date;
  cursor_at: string;
  thumbnail_key: string | null;
  actors: { id: string; username: string; avatar_key: string | null }[];
}

/** The kinds that name who did it: their rows are shown only while one of them may be shown. */
const ACTOR_KINDS = `('lol', 'follow', 'comment', 'reply')`;

/** An actor of `n` the user may be told of: still there, and no block between them. */
const shownActors = `
  FROM unnest(n.actor_ids) WITH ORDINALITY AS a(id, ord)
  JOIN lolgram_users u ON u.id = a.id
 WHERE NOT ${blockedEitherWay('n.user_id', 'a.id')}`;

/** A row the user is shown: one of moderation's, or one with an actor they may be told of. */
const shownRow = `(n.kind NOT IN ${ACTOR_KINDS} OR EXISTS (SELECT 1 ${shownActors}))`;

/**
 * How many actors of `n` the user may be told of: all it counted, but those blocked either way
 * (found from the user's blocks, a handful, not from the group's actors, which may be thousands).
 */
const shownActorCount = `n.actor_count - (
  SELECT count(*)::int FROM ${blockedEitherWaySet('n.user_id')} b
   -- LIMIT keeps it one probe of the primary key per block, never a scan of the group's actors.
   CROSS JOIN LATERAL (SELECT 1 FROM notification_actors na
                        WHERE na.notification_id = n.id AND na.actor_id = b.id LIMIT 1) hit)`;

/**
 * The notifications table and its actors: one row per group while unread, the latest actors and a
 * count of them all, each actor counted once.
 */
export class NotificationsRepository {
  constructor(private readonly db: pg.Pool) {}

  /**
   * Adds the notification, or adds its actor to the unread one of its group. Nothing for one's
   * own action, an actor blocked either way, or a post or user gone meanwhile; answers whether a
   * row was written.
   */
  async record(input: NotificationInput, client?: pg.PoolClient): Promise<boolean> {
    const { userId, kind, groupKey, postId, commentId, actorId } = input;
    if (actorId === userId) return false;
    // The group's unread row stays locked until the transaction ends: its actors are counted one
    // by one.
    if (!client) return withTransaction(this.db, (tx) => this.record(input, tx));
    try {
      const { rows } = await client.query<{ id: string }>(
        `INSERT INTO notifications AS n (user_id, kind, group_key, post_id, comment_id, actor_ids)
         SELECT $1::uuid, $2::text, $3::text, $4::uuid, $5::uuid,
                CASE WHEN $6::uuid IS NULL THEN '{}'::uuid[] ELSE ARRAY[$6::uuid] END
          WHERE $6::uuid IS NULL OR NOT ${blockedEitherWay('$1::uuid', '$6::uuid')}
         ON CONFLICT (user_id, kind, group_key) WHERE read_at IS NULL DO UPDATE
            SET actor_ids = CASE WHEN $6::uuid IS NULL THEN n.actor_ids
                  ELSE (ARRAY[$6::uuid] || array_remove(n.actor_ids, $6::uuid))[1:${NOTIFICATION_ACTORS_SHOWN}] END,
                comment_id = COALESCE(EXCLUDED.comment_id, n.comment_id),
                updated_at = now()
         RETURNING n.id`,
        [userId, kind, groupKey, postId, commentId, actorId],
      );
      const id = rows[0]?.id;
      if (!id) return false;
      if (actorId) {
        await client.query(
          `WITH added AS (
             INSERT INTO notification_actors (notification_id, actor_id) VALUES ($1, $2)
             ON CONFLICT DO NOTHING RETURNING 1)
           UPDATE notifications SET actor_count = actor_count + 1
            WHERE id = $1 AND EXISTS (SELECT 1 FROM added)`,
          [id, actorId],
        );
      }
      return true;
    } catch (error) {
      // The post was deleted, or the user left, between the action and its notification (in a
      // transaction, which this ends: it writes nothing).
      if (violates(error, 'foreignKey')) return false;
      throw error;
    }
  }

  /**
   * Takes a follower out of the user's follow notifications, read or not, unless they follow the
   * user again by now: the actor leaves the group's count and names (the next unnamed actor takes
   * the free place), and a notification left with nobody goes. Answers whether anything changed.
   */
  async withdrawFollow(
    userId: string,
    followerId: string,
    client: pg.PoolClient,
  ): Promise<boolean> {
    const { rows } = await client.query<{ id: string }>(
      `DELETE FROM notification_actors na USING notifications n
        WHERE na.notification_id = n.id AND na.actor_id = $2
          AND n.user_id = $1 AND n.kind = 'follow'
          AND NOT EXISTS (SELECT 1 FROM follows f WHERE f.follower_id = $2 AND f.following_id = $1)
       RETURNING n.id`,
      [userId, followerId],
    );
    return this.dropActor(client, rows, followerId);
  }

  /**
   * Takes a deleted account out of every notification it acted in (LOLs, follows, comments,
   * replies), as withdrawFollow does: the counts others read stay true.
   */
  async withdrawActor(client: pg.PoolClient, actorId: string): Promise<void> {
    const { rows } = await client.query<{ id: string }>(
      `DELETE FROM notification_actors WHERE actor_id = $1 RETURNING notification_id AS id`,
      [actorId],
    );
    await this.dropActor(client, rows, actorId);
  }

  /** The actor leaves the groups' counts and names; a notification left with nobody goes. */
  private async dropActor(
    client: pg.PoolClient,
    rows: { id: string }[],
    actorId: string,
  ): Promise<boolean> {
    if (rows.length === 0) return false;
    const ids = rows.map((row) => row.id);
    await client.query(
      `UPDATE notifications n
          SET actor_count = n.actor_count - 1,
              actor_ids = (array_remove(n.actor_ids, $2::uuid) || ARRAY(
                SELECT na.actor_id FROM notification_actors na
                 WHERE na.notification_id = n.id AND na.actor_id <> ALL (n.actor_ids)
                 LIMIT ${NOTIFICATION_ACTORS_SHOWN}))[1:${NOTIFICATION_ACTORS_SHOWN}]
        WHERE n.id = ANY($1::uuid[])`,
      [ids, actorId],
    );
    await client.query(
      'DELETE FROM notifications WHERE id = ANY($1::uuid[]) AND actor_count <= 0',
      [ids],
    );
    return true;
  }

  /** The user's notifications, the latest changed first, a page at a time. */
  async list(userId: string, limit: number, before: Cursor | null): Promise<Notification[]> {
    const { rows } = await this.db.query<NotificationRow>(
      `SELECT n.id, n.kind, n.post_id, n.comment_id, ${shownActorCount} AS actor_count,
              n.read_at IS NOT NULL AS read,
              n.updated_at, n.updated_at::text AS cursor_at,
              -- One's own post's, while its image is served (a rejected post's is not).
              CASE WHEN p.user_id = n.user_id AND p.status <> 'rejected' THEN p.thumbnail_key
              END AS thumbnail_key,
              COALESCE((SELECT json_agg(json_build_object('id', u.id, 'username', u.username,
                                                          'avatar_key', u.avatar_key)
                                        ORDER BY a.ord)
                         ${shownActors}), '[]'::json) AS actors
         FROM notifications n
         LEFT JOIN posts p ON p.id = n.post_id
        WHERE n.user_id = $1
          AND ($3::timestamptz IS NULL OR (n.updated_at, n.id) < ($3::timestamptz, $4::uuid))
          AND ${shownRow}
        ORDER BY n.updated_at DESC, n.id DESC
        LIMIT $2`,
      [userId, limit, before?.at ?? null, before?.id ?? null],
    );
    return rows.map((row) => ({
      id: row.id,
      kind: row.kind,
      postId: row.post_id,
      postThumbnail: row.thumbnail_key ? imageUrl(row.thumbnail_key) : null,
      commentId: row.comment_id,
      actors: row.actors.map((actor) => ({
        id: actor.id,
        username: actor.username,
        avatar: actor.avatar_key ? imageUrl(actor.avatar_key) : null,
      })),
      actorCount: row.actor_count,
      read: row.read,
      updatedAt: row.updated_at.toISOString(),
      cursor: encodeCursor(row.cursor_at, row.id),
    }));
  }

  async unreadCount(userId: string): Promise<number> {
    const { rows } = await this.db.query<{ unread: number }>(
      `SELECT count(*)::int AS unread FROM notifications n
        WHERE n.user_id = $1 AND n.read_at IS NULL AND ${shownRow}`,
      [userId],
    );
    return rows[0].unread;
  }

  /** Marks read the user's unread notifications (those not changed after `upTo` when given). */
  async markRead(userId: string, upTo: Cursor | null): Promise<number> {
    const { rowCount } = await this.db.query(
      `UPDATE notifications SET read_at = now()
        WHERE user_id = $1 AND read_at IS NULL
          AND ($2::timestamptz IS NULL OR (updated_at, id) <= ($2::timestamptz, $3::uuid))`,
      [userId, upTo?.at ?? null, upTo?.id ?? null],
    );
    return rowCount ?? 0;
  }

  /**
   * Deletes what has not changed for the retention period, a batch at a time; nodes pruning at
   * once skip each other's rows. Answers how many rows went.
   */
  async deleteExpired(now = new Date()): Promise<number> {
    let deleted = 0;
    for (;;) {
      const { rowCount } = await this.db.query(
        `DELETE FROM notifications WHERE id IN (
           SELECT id FROM notifications
            WHERE updated_at < $1::timestamptz - make_interval(days => $2)
            LIMIT $3 FOR UPDATE SKIP LOCKED)`,
        [now, NOTIFICATION_RETENTION_DAYS, PRUNE_BATCH],
      );
      deleted += rowCount ?? 0;
      if ((rowCount ?? 0) < PRUNE_BATCH) return deleted;
    }
  }
}

const PRUNE_BATCH = 5_000;
