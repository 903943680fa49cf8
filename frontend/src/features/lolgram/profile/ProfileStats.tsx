const stats = [
  { key: 'posts', label: 'posts' },
  { key: 'followers', label: 'followers' },
  { key: 'following', label: 'following' },
] as const;

export function ProfileStats(counts: { posts: number; followers: number; following: number }) {
  return (
    <dl className="flex flex-1 justify-around text-center">
      {stats.map(({ key, label }) => (
        <div key={key} className="flex flex-col-reverse">
          <dt className="text-xs text-slate-400">{label}</dt>
          <dd className="text-lg font-bold" data-testid={`stat-${key}`}>
            {counts[key].toLocaleString()}
          </dd>
        </div>
      ))}
    </dl>
  );
}
