/** Making a post: the photo, its crop, the caption and the location. */
export { CreatePostDialog } from './CreatePostDialog';
