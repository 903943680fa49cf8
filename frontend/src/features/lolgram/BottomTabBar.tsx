import { Compass, Home, Map as MapIcon, UserRound, type LucideIcon } from 'lucide-react';
import { TabsList, TabsTrigger } from '../../components/ui/tabs';

export const TAB_IDS = ['feed', 'explore', 'map', 'profile'] as const;
export type TabId = (typeof TAB_IDS)[number];

const tabs: Record<TabId, { label: string; icon: LucideIcon }> = {
  feed: { label: 'Feed', icon: Home },
  explore: { label: 'Explore', icon: Compass },
  map: { label: 'Map', icon: MapIcon },
  profile: { label: 'Profile', icon: UserRound },
};

/** The tab list of the page's tabs: arrow keys move between tabs and pick the one they reach. */
export function BottomTabBar() {
  return (
    <nav
      aria-label="LOLGram sections"
      className="fixed inset-x-0 bottom-0 z-30 border-t border-slate-800 bg-slate-950/95 pb-[env(safe-area-inset-bottom)] backdrop-blur"
    >
      <TabsList unstyled className="mx-auto grid h-16 max-w-lg grid-cols-4">
        {TAB_IDS.map((id) => {
          const { label, icon: Icon } = tabs[id];
          return (
            <TabsTrigger
              unstyled
              key={id}
              value={id}
              className="flex flex-col items-center justify-center gap-0.5 text-xs font-medium text-slate-400 transition-colors hover:text-slate-200 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-amber-300 data-[state=active]:text-amber-300"
            >
              <Icon className="h-6 w-6" aria-hidden="true" />
              {label}
            </TabsTrigger>
          );
        })}
      </TabsList>
    </nav>
  );
}
