/** Lists of posts: the feed and its stories, the map's, a user's own and saved posts, as grids. */
export { PostGrid } from './PostGrid';
export { StoryBubbles } from './StoryBubbles';
export { feedQueryOptions, useFeed } from './useFeed';
export { useLocatedCount, useLocatedPosts } from './useLocated';
export { UserPostsGrid } from './UserPostsGrid';
export { useSavedPosts } from './useSavedPosts';
export { useUserPosts } from './useUserPosts';
