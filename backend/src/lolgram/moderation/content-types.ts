import type { ModeratedContentType, ModerationDecision, QueueEntryOf } from '@tapgram/shared';
import type pg from 'pg';
import type { EventBus } from '../../core/events';
import './events';
import type { Score } from './scoring';

/** Where a decision or a check left a piece of content (of statuses `S`), and whose it is. */
export interface ContentMove<S extends string = string> {
  authorId: string;
  was: S;
  now: S;
  /** The post the content is (a post), or is on (a comment); absent for content on no post. */
  postId?: string;
}

/** What the dashboard shows of one item of `T` (its preview, under the type's own name). */
export type PreviewOf<T extends ModeratedContentType> = QueueEntryOf<T>[T & keyof QueueEntryOf<T>];

/** A score, with the version of the content it is of when the content may change meanwhile. */
export interface Scored extends Score {
  version?: string;
}

/** An automatic check's outcome for one item: its score, whether it holds, the version scored. */
export interface FinishedCheck {
  id: string;
  score: number;
  hold: boolean;
  /** The version scored, for an item that may change while checked (an edit). */
  version?: string;
}

/**
 * One kind of content that moderation checks, queues and decides. New content is 'checking'
 * (public nowhere) until its automatic check ends; the queue, the decisions and their audit trail
 * know the content only by its type and id, and ask its adapter for the rest. An edit of other
 * content's text (`edit`) is content of its own kind, checked and decided as new content is,
 * while what it edits stays where it was.
 */
export interface ModeratedContent<
  T extends ModeratedContentType = ModeratedContentType,
  S extends string = string,
  M extends ContentMove<S> = ContentMove<S>,
> {
  type: T;
  /** Items of this type are edits: their author hears of them as edits, and is not notified. */
  edit?: boolean;
  /** Hands each new item of this type to the automatic check (`check` resolves when it ended). */
  checkNew(check: (id: string) => Promise<void>): void;
  /**
   * The automatic check's score of an item still checking (its scorer, on what it reads, and the
   * version read when the item may change); null when there is none to check.
   */
  score(id: string): Promise<Scored | null>;
  /**
   * In the check's transaction: records the score and ends the check (public, or held when
   * `hold`) of the version scored. Answers the move when this check ended it; null when it had
   * ended already (a moderator decided first, a newer version replaced it) or the item is gone.
   */
  finishCheck(client: pg.PoolClient, check: FinishedCheck): Promise<M | null>;
  /** Items a stopped server left checking, created up to `until`, oldest first, after `after`. */
  unchecked(
    until: Date,
    limit: number,
    after: { at: string; id: string } | null,
  ): Promise<{ id: string; createdAt: string }[]>;
  /** In the decision's transaction: what approving or rejecting does to the item (null: gone). */
  decide(client: pg.PoolClient, id: string, decision: ModerationDecision): Promise<M | null>;
  /** In the transaction of a move that changed the item: tells whoever cares (recorded events). */
  announce(client: pg.PoolClient, id: string, move: M): Promise<void>;
  /** What the dashboard shows of each item that still exists, by id. */
  previews(ids: string[]): Promise<Map<string, NonNullable<PreviewOf<T>>>>;
  /** Users may report items of this type (absent: they cannot, as with edits). */
  reports?: Reportable;
}

/** How a type of content is reported: whose an item is, and the words of a refusal. */
export interface Reportable {
  /**
   * In the report's transaction: the author of an item `reporterId` may read and report, or null
   * when there is none (gone, not public, or hidden from the reporter by a block).
   */
  authorOf(client: pg.PoolClient, id: string, reporterId: string): Promise<string | null>;
  words: {
    notFound: string;
    own: string;
    repeated: string;
  };
}

/** The content types of this server, chosen at start-up. */
export class ContentTypes {
  private readonly byType = new Map<ModeratedContentType, ModeratedContent>();

  constructor(
    types: ModeratedContent[],
    private readonly events: EventBus,
  ) {
    for (const type of types) this.byType.set(type.type, type);
  }

  /**
   * In the transaction of a check or a decision that moved an item: its type tells whoever cares
   * of that type, and `moderation.moved` tells its author, whatever the type (nothing when it
   * stayed where it was).
   */
  async moved(client: pg.PoolClient, type: ModeratedContent, id: string, move: ContentMove) {
    if (move.was === move.now) return;
    await type.announce(client, id, move);
    await this.events.record(client, 'moderation.moved', {
      contentType: type.type,
      contentId: id,
      authorId: move.authorId,
      postId: move.postId ?? null,
      was: move.was,
      now: move.now,
      edit: type.edit === true,
    });
  }

  all(): ModeratedContent[] {
    return [...this.byType.values()];
  }

  /** The adapter of a queue item's type (none for a type that this server does not know). */
  of(type: string): ModeratedContent | undefined {
    return this.byType.get(type as ModeratedContentType);
  }
}
