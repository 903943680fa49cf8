/** A post's comments and replies, with their authors' and the post author's controls. */
export { CommentThread } from './CommentThread';
