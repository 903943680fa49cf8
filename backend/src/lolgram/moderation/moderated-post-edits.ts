import type { EventBus } from '../../core/events';
import '../posts/events';
import type {
  CaptionEditMove,
  CaptionEditStatus,
  CaptionEditsRepository,
} from '../posts/caption-edits-repository';
import type { ModeratedContent } from './content-types';
import { TextScorer } from './scoring';

/**
 * Authors' edits of their posts' captions, checked as a new post's caption is (the image did not
 * change): the post keeps its caption for everyone else until the edit passes. A held edit waits
 * for a moderator, who shows it or drops it; either way the post stays where it was. Its queue
 * items go by the post's id.
 */
export function moderatedPostEdits({
  edits,
  events,
}: {
  edits: CaptionEditsRepository;
  events: EventBus;
}): ModeratedContent<'post-edit', CaptionEditStatus, CaptionEditMove> {
  const scorer = new TextScorer('caption');
  return {
    type: 'post-edit',
    edit: true,

    checkNew(check) {
      events.on('post.caption-edited', ({ postId }) => check(postId));
    },

    async score(id) {
      const edit = await edits.checkInput(id);
      return edit && { ...scorer.score(edit.caption), version: edit.version };
    },

    // Without the version scored nothing is shown: only what was checked becomes public.
    finishCheck: async (client, { id, score, hold, version }) =>
      version === undefined
        ? null
        : edits.finishCheck(client, { postId: id, version, score, hold }),

    unchecked: (until, limit, after) => edits.unchecked(until, limit, after),

    decide: (client, id, decision) => edits.decide(client, id, decision === 'approved'),

    async announce(client, id, move) {
      if (move.now === 'visible') {
        await events.record(client, 'post.caption-changed', {
          postId: id,
          authorId: move.authorId,
        });
      }
    },

    previews: (ids) => edits.previews(ids),
  };
}
