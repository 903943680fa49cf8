import type { PostStatus } from '@tapgram/shared';
import type { EventBus } from '../../core/events';
import type { ImageStore } from '../../images';
import '../posts/events';
import type { Move, PostsRepository } from '../posts/posts-repository';
import type { ContentMove, ModeratedContent } from './content-types';
import type { PostScorer } from './scoring';

const asContentMove = (postId: string, move: Move): ContentMove<PostStatus> => ({
  authorId: move.userId,
  was: move.was,
  now: move.now,
  postId,
});

/**
 * Posts as moderation sees them: checked by their image and caption when created, held from every
 * listing or shown, removed when rejected; the dashboard shows their thumbnail and caption.
 */
export function moderatedPosts({
  posts,
  images,
  scorer,
  events,
}: {
  posts: PostsRepository;
  images: ImageStore;
  scorer: PostScorer;
  events: EventBus;
}): ModeratedContent<'post', PostStatus> {
  return {
    type: 'post',

    reports: {
      authorOf: (client, id) => posts.visibleAuthor(client, id),
      words: {
        notFound: 'Post not found',
        own: 'You cannot report your own post',
        repeated: 'You already reported this post',
      },
    },

    checkNew(check) {
      events.on('post.created', ({ postId }) => check(postId));
    },

    async score(id) {
      const post = await posts.checkInput(id);
      if (!post) return null;
      return scorer.score(await images.get(post.imageKey), post.caption);
    },

    async finishCheck(client, { id, score, hold }) {
      const move = await posts.finishCheck(client, id, score, hold);
      return move?.was === 'checking' ? asContentMove(id, move) : null;
    },

    unchecked: (until, limit, after) => posts.unchecked(until, limit, after),

    // Approving shows a held post (a visible one stays, a rejected one never comes back);
    // rejecting removes the post from every listing.
    async decide(client, id, decision) {
      const move =
        decision === 'approved'
          ? await posts.move(client, id, ['held'], 'visible')
          : await posts.move(client, id, ['checking', 'visible', 'held'], 'rejected');
      return move && asContentMove(id, move);
    },

    announce: (client, id, move) =>
      events.record(client, 'post.visibility-changed', {
        postId: id,
        authorId: move.authorId,
        was: move.was,
        now: move.now,
      }),

    previews: (ids) => posts.previews(ids),
  };
}
