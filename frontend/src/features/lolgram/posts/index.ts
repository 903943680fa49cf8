/** One post: its card, its LOLs, saves, shares and views, and its author's edit and delete. */
export { PostCard } from './PostCard';
export { postPath } from './post-path';
export { useOwnPostsLive } from './useOwnPostsLive';
export { usePost } from './usePost';
