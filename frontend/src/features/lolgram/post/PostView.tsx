import { ArrowLeft } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { Skeleton } from '../../../components/ui/skeleton';
import { useAuth } from '../../auth';
import { LoginPromptProvider } from '../ui/login-prompt';
import { PostCard, usePost } from '../posts';
import { AuthDialog } from '../account';
import { CommentThread } from '../comments';
import { PostNotFound } from './PostNotFound';

/**
 * A post on its own page: what a tile of a grid opens, and what a shared link shows. A signed-out
 * visitor who LOLs or saves it signs in in a dialog over the post, and stays on it.
 */
export function PostView({ postId }: { postId: string }) {
  const post = usePost(postId);
  const { state } = useAuth();
  const navigate = useNavigate();
  const location = useLocation();
  const [signingIn, setSigningIn] = useState(false);
  // Opened from a grid, Back returns there (its tab and scroll); opened from a link, to LOLGram.
  const back = () => (location.key === 'default' ? navigate('/lolgram') : navigate(-1));
  const box = useRef<HTMLTextAreaElement>(null);
  const focusBox = () => {
    // Signed out there is no box: the sign-in dialog opens over the post.
    if (!state.isAuthenticated) return setSigningIn(true);
    box.current?.scrollIntoView({ block: 'center' });
    box.current?.focus();
  };
  // Opened by a card's comment button: the comment box takes the focus once it is there.
  const wantsBox = (location.state as { focusComment?: boolean } | null)?.focusComment === true;
  const loaded = Boolean(post.data);
  useEffect(() => {
    if (wantsBox && loaded) box.current?.focus();
  }, [wantsBox, loaded]);

  if (post.missing) return <PostNotFound />;

  return (
    <LoginPromptProvider value={() => setSigningIn(true)}>
      <div className="min-h-screen bg-slate-950">
        <header className="sticky top-0 z-30 border-b border-slate-800 bg-slate-950/90 backdrop-blur">
          <div className="mx-auto flex h-14 max-w-lg items-center gap-2 px-2">
            <button
              type="button"
              onClick={back}
              aria-label="Back"
              className="flex h-11 w-11 items-center justify-center rounded-full hover:bg-slate-800"
            >
              <ArrowLeft className="h-5 w-5" aria-hidden="true" />
            </button>
            <h1 className="truncate text-lg font-bold">Post</h1>
          </div>
        </header>

        <main className="mx-auto max-w-lg pb-12 sm:pt-4">
          {post.isError && (
            <p role="alert" className="px-4 pt-6 text-center text-red-400">
              Failed to fetch post
            </p>
          )}
          {post.isPending && (
            <div role="status" aria-label="Loading post" className="grid gap-3 p-3">
              <Skeleton className="h-9 w-40 rounded-full" />
              <Skeleton className="aspect-square w-full rounded-none" />
            </div>
          )}
          {post.data && (
            <>
              <PostCard post={post.data} priority onDeleted={back} onComment={focusBox} />
              <CommentThread post={post.data} boxRef={box} />
            </>
          )}
        </main>
        <AuthDialog open={signingIn} onOpenChange={setSigningIn} />
      </div>
    </LoginPromptProvider>
  );
}
