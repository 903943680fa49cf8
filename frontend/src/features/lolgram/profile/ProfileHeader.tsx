import type { LolgramUser } from '@tapgram/shared';
import type { ReactNode } from 'react';
import { ProfileStats } from './ProfileStats';

/** The head of a profile: its picture beside the counts, then the name and the bio. */
export function ProfileHeader({
  user,
  avatar,
  name,
}: {
  user: LolgramUser;
  /** The picture: the owner's one can be changed, a visitor's is only shown. */
  avatar: ReactNode;
  /** The name, as a heading or a line of text. */
  name: ReactNode;
}) {
  return (
    <>
      <div className="flex items-center gap-5 px-4 pt-5">
        {avatar}
        <ProfileStats
          posts={user.postCount}
          followers={user.followerCount}
          following={user.followingCount}
        />
      </div>
      <div className="px-4">
        {name}
        <p className="text-sm whitespace-pre-line text-slate-300">{user.bio || 'LOLGram user'}</p>
      </div>
    </>
  );
}
