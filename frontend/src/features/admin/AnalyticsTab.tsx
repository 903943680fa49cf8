import { Card } from '../../components/ui/card';
import { Skeleton } from '../../components/ui/skeleton';
import { LoadFailed } from './LoadFailed';
import { useAdminStats, usePopularPosts } from './queries';

export function AnalyticsTab() {
  const popular = usePopularPosts();
  const stats = useAdminStats();
  return (
    <div className="grid gap-4 lg:grid-cols-2">
      <Card>
        <h2 className="mb-3 text-lg font-bold">Popular Posts This Week</h2>
        {popular.isPending && <Skeleton className="h-24" />}
        {popular.isError && <p className="text-red-400">Failed to fetch analytics</p>}
        {popular.data?.length === 0 && (
          <p className="text-slate-400">No views recorded this week.</p>
        )}
        <ol className="space-y-1">
          {popular.data?.map((item, index) => (
            <li
              key={item.post_id}
              className="flex items-center gap-3 rounded-lg bg-slate-800/60 px-3 py-2 text-sm"
            >
              <span className="w-6 font-black text-slate-400">#{index + 1}</span>
              <code className="flex-1 font-mono">{item.post_id.slice(0, 8)}</code>
              <span className="font-bold text-amber-200">
                {item.view_count.toLocaleString()} views
              </span>
            </li>
          ))}
        </ol>
      </Card>
      <Card>
        <h2 className="mb-3 text-lg font-bold">Engagement Metrics</h2>
        {stats.isError && <LoadFailed message="Failed to fetch stats" />}
        {stats.isPending ? (
          <Skeleton className="h-24" />
        ) : !stats.data ? null : (
          <table className="w-full text-sm">
            <thead className="text-left text-slate-400">
              <tr>
                <th className="py-1 font-semibold">Day</th>
                <th className="font-semibold">LOLs</th>
                <th className="font-semibold">Posts</th>
                <th className="font-semibold">Follows</th>
              </tr>
            </thead>
            <tbody>
              {stats.data.daily.map((day) => (
                <tr key={day.day} className="border-t border-slate-800">
                  <td className="py-1">{day.day}</td>
                  <td>{day.lols}</td>
                  <td>{day.posts}</td>
                  <td>{day.follows}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Card>
    </div>
  );
}
