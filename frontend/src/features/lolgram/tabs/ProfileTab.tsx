import type { LolgramUser } from '@tapgram/shared';
import { LogOut, Settings } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { useAuth } from '../../auth';
import { AvatarUpload } from '../components/AvatarUpload';
import { UserPostsGrid } from '../components/UserPostsGrid';
import { ProfileHeader } from '../components/ProfileHeader';
import { SoonBadge } from '../components/SoonBadge';
import { EditProfileDialog } from '../dialogs/EditProfileDialog';
import { useUserByUsername } from '../hooks/useUserByUsername';
import { useUserPosts } from '../hooks/useUserPosts';
import { SignedOutProfile } from './SignedOutProfile';

function OwnProfile({ signedIn }: { signedIn: LolgramUser }) {
  const { logout } = useAuth();
  const [editing, setEditing] = useState(false);
  const [avatarProblem, setAvatarProblem] = useState<string | null>(null);
  const fresh = useUserByUsername(signedIn.username);
  const user = fresh.data?.id === signedIn.id ? fresh.data : signedIn;
  const posts = useUserPosts(user.id);

  return (
    <section aria-label="Your profile" className="flex flex-col gap-4">
      <ProfileHeader
        user={user}
        avatar={<AvatarUpload user={user} onProblem={setAvatarProblem} />}
        name={<h2 className="text-lg font-bold">{user.username}</h2>}
      />
      {avatarProblem && (
        <p role="alert" className="px-4 text-sm text-red-400">
          {avatarProblem}
        </p>
      )}
      <div className="flex gap-2 px-4">
        <Button variant="secondary" className="h-11 flex-1" onClick={() => setEditing(true)}>
          Edit Profile
        </Button>
        <Button
          variant="secondary"
          className="h-11"
          disabled
          aria-label="Profile settings (Coming Soon)"
        >
          <Settings className="h-4 w-4" aria-hidden="true" />
          <SoonBadge label="Coming Soon" />
        </Button>
      </div>
      <UserPostsGrid posts={posts} />
      <Button variant="ghost" className="mx-4 mb-4 h-11" onClick={() => void logout()}>
        <LogOut className="h-4 w-4" aria-hidden="true" />
        Log out
      </Button>
      <EditProfileDialog user={user} open={editing} onOpenChange={setEditing} />
    </section>
  );
}

export function ProfileTab({ onLogin }: { onLogin: () => void }) {
  const { state } = useAuth();
  return state.isAuthenticated && state.user ? (
    <OwnProfile signedIn={state.user} />
  ) : (
    <SignedOutProfile onLogin={onLogin} />
  );
}
