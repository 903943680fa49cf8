import { useQueryClient } from '@tanstack/react-query';
import { useLiveConnect, useLiveEvent } from '../../auth';
import { toast } from '../../../hooks/use-toast';
import { somePost } from './post-cache';
import { isPostsQuery, lolgramKeys } from '../lib/query-keys';

/**
 * The signed-in user's posts, followed live: when the check of one (or of an edit of its caption)
 * ends or a moderator decides on it, every list that holds posts is read again (a rejected post
 * leaves them, an approved one enters the feed). At each (re)connection, the lists holding a post under review are read again: a
 * decision pushed meanwhile was lost. (A comment's outcome is followed by its thread.)
 */
export function useOwnPostsLive(): void {
  const queryClient = useQueryClient();
  useLiveEvent('moderation', ({ contentType, status, previous, edit }) => {
    if (contentType !== 'post' && contentType !== 'post-edit') return;
    void queryClient.invalidateQueries({ predicate: isPostsQuery });
    // The author's count of posts counts the public ones: it moved with this one.
    void queryClient.invalidateQueries({ queryKey: lolgramKeys.usersByUsername });
    if (status === 'held' && previous === 'checking') {
      toast({
        title: 'Under review',
        description: edit
          ? 'A moderator will look at your new caption before everyone can see it.'
          : 'A moderator will look at your post before everyone can see it.',
      });
    } else if (edit && status === 'visible') {
      toast({ title: 'Caption updated' });
    } else if (edit && status === 'rejected') {
      toast({
        title: 'Edit not approved',
        description: 'Your post keeps the caption it had.',
      });
    }
  });
  useLiveConnect(() => {
    void queryClient.invalidateQueries({
      predicate: (query) =>
        isPostsQuery(query) &&
        somePost(
          query.state.data as never,
          (post) => post.moderation !== undefined || post.editModeration !== undefined,
        ),
    });
  });
}
