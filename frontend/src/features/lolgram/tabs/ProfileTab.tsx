import type { LolgramUser } from '@tapgram/shared';
import { Bookmark, LogOut, Settings } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../../components/ui/tabs';
import { useAuth } from '../../auth';
import { AvatarUpload, ProfileHeader, EditProfileDialog, useUserByUsername } from '../profile';
import { BlockedList } from '../relations';
import { UserPostsGrid, useSavedPosts, useUserPosts } from '../post-lists';
import { WalletSlot } from '../account';
import { SettingsDialog } from '../settings';
import { SignedOutProfile } from './SignedOutProfile';

const TAB =
  'focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-amber-300';

function SavedGrid({ userId }: { userId: string }) {
  const saved = useSavedPosts(userId);
  return (
    <UserPostsGrid
      posts={saved}
      failed="Failed to fetch saved posts"
      empty={{
        icon: Bookmark,
        title: 'No saved posts yet',
        children: (
          <p className="max-w-xs text-sm text-slate-400">
            Save posts to find them here. Only you can see what you saved.
          </p>
        ),
      }}
    />
  );
}

function OwnProfile({ signedIn, wallet }: { signedIn: LolgramUser; wallet: boolean }) {
  const { logout } = useAuth();
  const [editing, setEditing] = useState(false);
  const [settingsOpen, setSettingsOpen] = useState(false);
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
          className="h-11 w-11"
          aria-label="Settings"
          onClick={() => setSettingsOpen(true)}
        >
          <Settings className="h-5 w-5" aria-hidden="true" />
        </Button>
      </div>
      {/* A wallet account's wallet: its address, copy, change or disconnect. */}
      {wallet && (
        <div className="flex justify-center px-4" data-testid="profile-wallet">
          <WalletSlot kind="account" />
        </div>
      )}
      <Tabs defaultValue="posts" className="flex flex-col">
        <TabsList className="mx-4 flex" aria-label="Your lists">
          <TabsTrigger value="posts" className={TAB}>
            Posts
          </TabsTrigger>
          <TabsTrigger value="saved" className={TAB}>
            Saved
          </TabsTrigger>
          <TabsTrigger value="blocked" className={TAB}>
            Blocked
          </TabsTrigger>
        </TabsList>
        <TabsContent value="posts" className={TAB}>
          <UserPostsGrid posts={posts} />
        </TabsContent>
        <TabsContent value="saved" className={TAB}>
          <SavedGrid userId={user.id} />
        </TabsContent>
        <TabsContent value="blocked" className={TAB}>
          <BlockedList viewerId={user.id} />
        </TabsContent>
      </Tabs>
      <Button variant="ghost" className="mx-4 mb-4 h-11" onClick={() => void logout()}>
        <LogOut className="h-4 w-4" aria-hidden="true" />
        Log out
      </Button>
      <EditProfileDialog user={user} open={editing} onOpenChange={setEditing} />
      <SettingsDialog open={settingsOpen} onOpenChange={setSettingsOpen} />
    </section>
  );
}

export function ProfileTab({ onLogin }: { onLogin: () => void }) {
  const { state } = useAuth();
  return state.isAuthenticated && state.user ? (
    <OwnProfile signedIn={state.user} wallet={state.authMethod === 'wallet'} />
  ) : (
    <SignedOutProfile onLogin={onLogin} />
  );
}
