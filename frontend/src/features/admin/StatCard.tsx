import type { ReactNode } from 'react';
import { Card } from '../../components/ui/card';

export function StatCard({
  title,
  value,
  children,
}: {
  title: string;
  value?: ReactNode;
  children?: ReactNode;
}) {
  return (
    <Card>
      <h2 className="text-sm font-semibold text-slate-400">{title}</h2>
      {value !== undefined && <p className="mt-1 text-3xl font-black text-amber-200">{value}</p>}
      {children}
    </Card>
  );
}
