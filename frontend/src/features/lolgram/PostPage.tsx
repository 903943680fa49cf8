import { useParams } from 'react-router-dom';
import { PostView } from './post/PostView';
import { LolgramAuth } from './LolgramAuth';

export function PostPage() {
  const { postId = '' } = useParams();
  return (
    <LolgramAuth>
      <PostView key={postId} postId={postId} />
    </LolgramAuth>
  );
}
