import { UserX } from 'lucide-react';
import { Link } from 'react-router-dom';
import { Button } from '../../../components/ui/button';

export function UserNotFound({ username }: { username: string }) {
  return (
    <main className="mx-auto flex min-h-screen max-w-lg flex-col items-center justify-center gap-4 px-6 text-center">
      <UserX className="h-14 w-14 text-slate-500" aria-hidden="true" />
      <h1 className="text-2xl font-black">User Not Found</h1>
      <p className="text-slate-400">
        The user @{username} doesn&apos;t exist or may have been removed.
      </p>
      <Button asChild size="lg">
        <Link to="/lolgram">Back to LOLGram</Link>
      </Button>
    </main>
  );
}
