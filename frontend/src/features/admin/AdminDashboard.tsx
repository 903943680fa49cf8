import { useSearchParams } from 'react-router-dom';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../components/ui/tabs';
import { AnalyticsTab } from './AnalyticsTab';
import { ModerationTab } from './ModerationTab';
import { OverviewTab } from './OverviewTab';
import { PlayersTab } from './PlayersTab';
import { ReportsTab } from './ReportsTab';

const TABS = [
  { id: 'overview', label: 'Overview' },
  { id: 'moderation', label: 'Content Moderation' },
  { id: 'analytics', label: 'Analytics' },
  { id: 'reports', label: 'Reports' },
  { id: 'players', label: 'Players' },
] as const;
type TabId = (typeof TABS)[number]['id'];

const isTabId = (value: string | null): value is TabId => TABS.some((tab) => tab.id === value);

/**
 * On a phone the five tabs sit in two rows of a six-column grid: the first two take half a row
 * each (Content Moderation needs the width), the other three a third; from `sm` up, one row.
 */
const TRIGGER =
  'min-h-10 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-amber-300 sm:min-h-0 sm:whitespace-nowrap';
const SPAN = ['col-span-3', 'col-span-3', 'col-span-2', 'col-span-2', 'col-span-2'];
/** A panel takes the focus from the tab bar: its ring is drawn inside, where nothing clips it. */
const PANEL =
  'focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-amber-300';

export function AdminDashboard({ moderator }: { moderator: string }) {
  // The tab is in the address, so that a player's page leads back to the Players tab.
  const [params, setParams] = useSearchParams();
  const requested = params.get('tab');
  const tab: TabId = isTabId(requested) ? requested : 'overview';
  const selectTab = (next: string) => {
    if (isTabId(next)) setParams(next === 'overview' ? {} : { tab: next }, { replace: true });
  };

  return (
    <main className="mx-auto max-w-5xl space-y-6 px-4 py-8">
      <header className="flex flex-wrap items-end justify-between gap-2">
        <div>
          <h1 className="text-3xl font-black">Admin Dashboard</h1>
          <p className="text-slate-400">Moderating LOLGram as @{moderator}</p>
        </div>
      </header>
      <Tabs value={tab} onValueChange={selectTab}>
        <TabsList className="grid h-auto w-full grid-cols-6 gap-1 sm:inline-flex sm:h-10 sm:w-auto">
          {TABS.map(({ id, label }, index) => (
            <TabsTrigger key={id} value={id} className={`${TRIGGER} ${SPAN[index]}`}>
              {label}
            </TabsTrigger>
          ))}
        </TabsList>
        <TabsContent value="overview" className={PANEL}>
          <OverviewTab />
        </TabsContent>
        <TabsContent value="moderation" className={PANEL}>
          <ModerationTab />
        </TabsContent>
        <TabsContent value="analytics" className={PANEL}>
          <AnalyticsTab />
        </TabsContent>
        <TabsContent value="reports" className={PANEL}>
          <ReportsTab />
        </TabsContent>
        <TabsContent value="players" className={PANEL}>
          <PlayersTab />
        </TabsContent>
      </Tabs>
    </main>
  );
}
