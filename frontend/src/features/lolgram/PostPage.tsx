import { useParams } from 'react-router-dom';
import { AuthProvider } from '../auth';
import { PostView } from './post/PostView';

export function PostPage() {
  const { postId = '' } = useParams();
  return (
    <AuthProvider>
      <PostView key={postId} postId={postId} />
    </AuthProvider>
  );
}
