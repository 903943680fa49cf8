import { ArrowLeft, BadgeCheck } from 'lucide-react';
import { Link } from 'react-router-dom';
import { Skeleton } from '../../../components/ui/skeleton';
import { useAuth } from '../../auth';
import { ProfileActions } from './ProfileActions';
import { UserPostsGrid, useUserPosts } from '../post-lists';
import { ProfileHeader } from './ProfileHeader';
import { UserAvatar } from '../ui/UserAvatar';
import { useUserByUsername } from './useUserByUsername';
import { UserNotFound } from './UserNotFound';

export function PublicProfile({ username }: { username: string }) {
  const { state } = useAuth();
  const profile = useUserByUsername(username);
  const user = profile.data;
  const posts = useUserPosts(user?.id);
  const viewer = state.isAuthenticated ? state.user : null;

  if (profile.notFound) return <UserNotFound username={username} />;

  return (
    <div className="min-h-screen bg-slate-950">
      <header className="sticky top-0 z-30 border-b border-slate-800 bg-slate-950/90 backdrop-blur">
        <div className="mx-auto flex h-14 max-w-lg items-center gap-2 px-2">
          <Link
            to="/lolgram"
            aria-label="Back to LOLGram"
            className="flex h-11 w-11 items-center justify-center rounded-full hover:bg-slate-800"
          >
            <ArrowLeft className="h-5 w-5" aria-hidden="true" />
          </Link>
          <h1 className="truncate text-lg font-bold">@{username}</h1>
        </div>
      </header>

      <main className="mx-auto flex max-w-lg flex-col gap-4 pb-12">
        {profile.isError && (
          <p role="alert" className="px-4 pt-6 text-center text-red-400">
            Failed to fetch user
          </p>
        )}
        {profile.isPending ? (
          <div
            className="flex items-center gap-5 px-4 pt-5"
            role="status"
            aria-label="Loading profile"
          >
            <Skeleton className="h-20 w-20 rounded-full" />
            <Skeleton className="h-10 flex-1" />
          </div>
        ) : (
          user && (
            <section aria-label={`${user.username}'s profile`} className="flex flex-col gap-4">
              <ProfileHeader
                user={user}
                avatar={
                  <UserAvatar
                    src={user.avatar}
                    srcSet={user.avatarSrcset}
                    size={80}
                    username={user.username}
                    missing="badge"
                    className="h-20 w-20 text-xl"
                  />
                }
                name={
                  <p className="flex items-center gap-1 text-lg font-bold">
                    {user.username}
                    {user.isVerified && (
                      <BadgeCheck
                        className="h-5 w-5 text-sky-400"
                        aria-label="Verified"
                        role="img"
                      />
                    )}
                  </p>
                }
              />
              {viewer && viewer.id !== user.id && (
                <div className="px-4">
                  <ProfileActions viewerId={viewer.id} target={user} />
                </div>
              )}
              <UserPostsGrid posts={posts} />
            </section>
          )
        )}
      </main>
    </div>
  );
}
