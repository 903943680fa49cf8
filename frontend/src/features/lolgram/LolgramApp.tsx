import { Suspense, useEffect, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { Tabs, TabsContent } from '../../components/ui/tabs';
import { useHydrated } from '../../lib/hydration';
import { lazyDialog, lazyPart } from '../../lib/lazy-page';
import { whenLikelyNeeded } from '../../lib/when-idle';
import { useAuth } from '../auth';
import { BottomTabBar, TAB_IDS, type TabId } from './BottomTabBar';
import { LolgramHeader } from './LolgramHeader';
import { LoginPromptProvider } from './ui/login-prompt';
import { AuthDialog } from './account';
import { FeedTab } from './tabs/FeedTab';
import { TabLoading } from './tabs/TabLoading';

// The feed is what the page opens on; the other tabs and the dialogs load when first shown (and
// once the page is idle), so that a phone's first visit downloads and runs only the feed's code.
const ExploreTab = lazyPart(() => import('./tabs/ExploreTab').then((m) => m.ExploreTab));
const MapTab = lazyPart(() => import('./tabs/MapTab').then((m) => m.MapTab));
const ProfileTab = lazyPart(() => import('./tabs/ProfileTab').then((m) => m.ProfileTab));
const CreatePostDialog = lazyDialog(() =>
  import('./create-post/CreatePostDialog').then((m) => m.CreatePostDialog),
);
const LATER = [ExploreTab, MapTab, ProfileTab, AuthDialog, CreatePostDialog];

/** A tab panel takes the focus from the tab bar: its ring is drawn inside, where nothing clips it. */
const PANEL = 'focus-visible:-outline-offset-2';

function isTabId(value: string | null): value is TabId {
  return TAB_IDS.some((id) => id === value);
}

export function LolgramApp() {
  const { state } = useAuth();
  const [params, setParams] = useSearchParams();
  // The address's tab shows once hydrated: the page's HTML, rendered at build time, is the feed's.
  const requested = useHydrated() ? params.get('tab') : null;
  const tab: TabId = isTabId(requested) ? requested : 'feed';
  const [authOpen, setAuthOpen] = useState(false);
  const [createOpen, setCreateOpen] = useState(false);

  const selectTab = (next: string) => {
    if (isTabId(next)) setParams(next === 'feed' ? {} : { tab: next }, { replace: true });
  };
  const openLogin = () => setAuthOpen(true);
  const createPost = () => (state.isAuthenticated ? setCreateOpen(true) : setAuthOpen(true));
  useEffect(() => whenLikelyNeeded(() => LATER.forEach((part) => void part.preload())), []);

  return (
    <LoginPromptProvider value={openLogin}>
      <Tabs
        value={tab}
        onValueChange={selectTab}
        className="flex min-h-screen flex-col bg-slate-950"
      >
        <LolgramHeader
          onCreatePost={createPost}
          onLogin={openLogin}
          onOpenProfile={() => selectTab('profile')}
        />
        <main className="mx-auto w-full max-w-lg flex-1 pb-24">
          <TabsContent unstyled value="feed" className={PANEL}>
            <FeedTab onCreatePost={createPost} />
          </TabsContent>
          <TabsContent unstyled value="explore" className={PANEL}>
            <Suspense fallback={<TabLoading />}>
              <ExploreTab />
            </Suspense>
          </TabsContent>
          <TabsContent unstyled value="map" className={PANEL}>
            <Suspense fallback={<TabLoading />}>
              <MapTab />
            </Suspense>
          </TabsContent>
          <TabsContent unstyled value="profile" className={PANEL}>
            <Suspense fallback={<TabLoading />}>
              <ProfileTab onLogin={openLogin} />
            </Suspense>
          </TabsContent>
        </main>
        <BottomTabBar />
        <AuthDialog open={authOpen} onOpenChange={setAuthOpen} />
        <CreatePostDialog open={createOpen} onOpenChange={setCreateOpen} onSignIn={openLogin} />
      </Tabs>
    </LoginPromptProvider>
  );
}
