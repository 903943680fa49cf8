import { useQueryClient } from '@tanstack/react-query';
import { useLiveConnect, useLiveEvent } from '../../auth';
import { toast } from '../../../hooks/use-toast';
import { somePost } from './post-cache';
import { isPostsQuery, lolgramKeys } from '../lib/query-keys';

/**
 * The signed-in user's posts, followed live: when one's check ends or a moderator decides on it,
 * every list that holds posts is read again (a rejected post leaves them, an approved one enters
 * the feed). At each (re)connection, the lists holding a post under review are read again: a
 * decision pushed meanwhile was lost. (A comment's outcome is followed by its thread.)
 */
export function useOwnPostsLive(): void {
  const queryClient = useQueryClient();
  useLiveEvent('moderation', ({ contentType, status, previous, edit }) => {
    if (contentType !== 'post') return;
    void queryClient.invalidateQueries({ predicate: isPostsQuery });
    // The author's count of posts counts the public ones: it moved with this one.
    void queryClient.invalidateQueries({ queryKey: lolgramKeys.usersByUsername });
    if (status === 'held' && previous === 'checking' && !edit) {
      toast({
        title: 'Under review',
        description: 'A moderator will look at your post before everyone can see it.',
      });
    }
  });
  useLiveConnect(() => {
    void queryClient.invalidateQueries({
      predicate: (query) =>
        isPostsQuery(query) &&
        somePost(query.state.data as never, (post) => post.moderation !== undefined),
    });
  });
}
