import { Skeleton } from '../../../components/ui/skeleton';
import { PROFILE_SKELETON_TILES } from '../../../lib/ui-constants';

export function GridSkeleton() {
  return (
    <div className="grid grid-cols-3 gap-0.5" role="status" aria-label="Loading posts">
      {Array.from({ length: PROFILE_SKELETON_TILES }, (_, index) => (
        <Skeleton key={index} data-testid="grid-skeleton" className="aspect-square rounded-none" />
      ))}
    </div>
  );
}
