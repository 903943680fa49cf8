import type { Post } from '@tapgram/shared';
import { useMutation, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import { sendForm } from '../lib/form-request';
import { lolgramKeys } from '../lib/query-keys';

export interface NewPost {
  image: Blob;
  caption: string;
  userId: string;
  locationName?: string;
}

/** Coordinates are not collected yet; the API takes 0,0 with the place name. */
function locationField(name: string): string {
  return JSON.stringify({ name, lat: 0, lng: 0 });
}

export function useCreatePost() {
  const queryClient = useQueryClient();

  /**
   * A new post is private until its automatic check ends: its author sees it at once, marked; the
   * outcome arrives live (useOwnPostsLive).
   */
  const showWhileChecking = (post: Post) => {
    queryClient.setQueryData<InfiniteData<Post[], string | null>>(lolgramKeys.feed, (feed) =>
      feed && feed.pages.length > 0 && !feed.pages[0].some((p) => p.id === post.id)
        ? { ...feed, pages: [[post, ...feed.pages[0]], ...feed.pages.slice(1)] }
        : feed,
    );
  };

  return useMutation({
    mutationFn: async ({ image, caption, userId, locationName }: NewPost) => {
      const form = new FormData();
      form.append('image', new File([image], 'post.jpg', { type: 'image/jpeg' }));
      form.append('caption', caption);
      form.append('userId', userId);
      if (locationName?.trim()) form.append('location', locationField(locationName.trim()));
      const res = await sendForm('POST', '/api/lolgram/posts', form);
      return (await res.json()) as Post;
    },
    onSuccess: async (post, { userId }) => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: lolgramKeys.feed }),
        queryClient.invalidateQueries({ queryKey: lolgramKeys.userPosts(userId) }),
        // The profile's count of posts (it moves once the post is public).
        queryClient.invalidateQueries({ queryKey: lolgramKeys.usersByUsername }),
      ]);
      if (post.moderation === 'checking') showWhileChecking(post);
    },
  });
}
