import { Card } from '../../components/ui/card';
import { Skeleton } from '../../components/ui/skeleton';
import { LoadFailed } from './LoadFailed';
import { useAdminStats } from './queries';

export function ReportsTab() {
  const stats = useAdminStats();
  if (stats.isError) return <LoadFailed message="Failed to fetch stats" />;
  if (!stats.data) return <Skeleton className="h-32" />;
  const total = stats.data.reportsByReason.reduce((sum, r) => sum + r.count, 0);
  return (
    <Card>
      <h2 className="mb-1 text-lg font-bold">Reports by reason</h2>
      <p className="mb-3 text-sm text-slate-400">
        {total.toLocaleString()} {total === 1 ? 'report' : 'reports'} in all
      </p>
      {total === 0 ? (
        <p className="text-slate-400">No reports yet.</p>
      ) : (
        <ul className="space-y-2">
          {stats.data.reportsByReason.map((r) => (
            <li key={r.reason} className="text-sm">
              <div className="flex justify-between">
                <span className="capitalize">{r.reason}</span>
                <span className="font-bold">{r.count}</span>
              </div>
              <div className="mt-1 h-2 rounded-full bg-slate-800">
                <div
                  className="h-2 rounded-full bg-fuchsia-400"
                  style={{ width: `${(r.count / total) * 100}%` }}
                />
              </div>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
