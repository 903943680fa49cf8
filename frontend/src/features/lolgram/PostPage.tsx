import { useParams } from 'react-router-dom';
import { LolgramProviders } from './LolgramProviders';
import { PostView } from './post/PostView';

/** A post's own page: LOLGram's providers, so that its sign-in dialog offers the wallet too. */
export function PostPage() {
  const { postId = '' } = useParams();
  return (
    <LolgramProviders>
      <PostView key={postId} postId={postId} />
    </LolgramProviders>
  );
}
