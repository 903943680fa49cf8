const stats = [
  { key: 'posts', one: 'post', many: 'posts' },
  { key: 'followers', one: 'follower', many: 'followers' },
  { key: 'following', one: 'following', many: 'following' },
] as const;

export function ProfileStats(counts: { posts: number; followers: number; following: number }) {
  return (
    <dl className="flex flex-1 justify-around text-center">
      {stats.map(({ key, one, many }) => (
        <div key={key} className="flex flex-col-reverse">
          <dt className="text-xs text-slate-400">{counts[key] === 1 ? one : many}</dt>
          <dd className="text-lg font-bold" data-testid={`stat-${key}`}>
            {counts[key].toLocaleString()}
          </dd>
        </div>
      ))}
    </dl>
  );
}
