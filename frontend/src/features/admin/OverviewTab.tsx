import { Skeleton } from '../../components/ui/skeleton';
import { LoadFailed } from './LoadFailed';
import { useAdminStats, useModerationQueue, usePopularPosts } from './queries';
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
          <p className="text-sm text-slate-400">{stats.data.posts.toLocaleString()} posts</p>
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
        {stats.data ? (
          stats.data.recentDecisions.length === 0 ? (
            <p className="mt-2 text-sm text-slate-400">No moderation decisions yet.</p>
          ) : (
            <ul className="mt-2 space-y-1 text-sm">
              {stats.data.recentDecisions.slice(0, 5).map((d) => (
                <li key={`${d.contentId}-${d.decidedAt}`}>
                  <span className={d.decision === 'approved' ? 'text-emerald-300' : 'text-red-300'}>
                    {d.decision}
                  </span>{' '}
                  {d.contentId.slice(0, 8)} by @{d.moderator}{' '}
                  <time className="text-slate-400" dateTime={d.decidedAt}>
                    {new Date(d.decidedAt).toLocaleString()}
                  </time>
                </li>
              ))}
            </ul>
          )
        ) : (
          statsLoading
        )}
      </StatCard>
    </div>
  );
}
