import { Skeleton } from '../../components/ui/skeleton';
import { LoadFailed } from './LoadFailed';
import { useAdminStats, useModerationQueue, usePopularPosts } from './queries';
import { RecentActivity } from './RecentActivity';
import { StatCard } from './StatCard';

export function OverviewTab() {
  const queue = useModerationQueue();
  const popular = usePopularPosts();
  const stats = useAdminStats();
  const skeleton = <Skeleton className="mt-2 h-8 w-16" />;
  const loading = (query: { isError: boolean }, failure: string) =>
    query.isError ? <LoadFailed message={failure} /> : skeleton;
  const statsLoading = loading(stats, 'Failed to fetch stats');
  return (
    <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
      <StatCard title="Pending Moderation" value={queue.data ? queue.data.length : undefined}>
        {!queue.data && loading(queue, 'Failed to fetch moderation queue')}
      </StatCard>
      <StatCard title="Popular Posts" value={popular.data ? popular.data.length : undefined}>
        {!popular.data && loading(popular, 'Failed to fetch analytics')}
      </StatCard>
      <StatCard title="Total Users" value={stats.data?.users.toLocaleString()}>
        {stats.data ? (
          <p className="text-sm text-slate-400">
            {stats.data.posts.toLocaleString()} {stats.data.posts === 1 ? 'post' : 'posts'}
          </p>
        ) : (
          statsLoading
        )}
      </StatCard>
      <StatCard title="System Health">
        {stats.data ? (
          <ul className="mt-2 space-y-1 text-sm">
            {Object.entries(stats.data.health).map(([service, status]) => (
              <li key={service} className="flex justify-between">
                <span className="capitalize">{service}</span>
                <span
                  className={
                    status === 'ok'
                      ? 'text-emerald-300'
                      : status === 'down'
                        ? 'text-red-400'
                        : 'text-slate-400'
                  }
                >
                  {status}
                </span>
              </li>
            ))}
          </ul>
        ) : (
          statsLoading
        )}
      </StatCard>
      <StatCard title="Recent Activity">
        {stats.data ? <RecentActivity decisions={stats.data.recentDecisions} /> : statsLoading}
      </StatCard>
    </div>
  );
}
