import { ShieldAlert } from 'lucide-react';
import { Link } from 'react-router-dom';
import { buttonVariants } from '../../components/ui/button';
import { AdminDashboard } from './AdminDashboard';
import { useMe } from './queries';

/** The dashboard for admins; everybody else gets a clear page and no admin data is fetched. */
export function AdminPage() {
  const me = useMe();
  if (me.isPending) {
    return (
      <p role="status" className="p-12 text-center text-slate-400">
        Checking your access…
      </p>
    );
  }
  if (!me.data?.isAdmin) {
    return (
      <main className="mx-auto flex min-h-screen max-w-md flex-col items-center justify-center gap-4 px-6 text-center">
        <ShieldAlert className="h-14 w-14 text-amber-300" aria-hidden="true" />
        <h1 className="text-3xl font-black">Admins only</h1>
        <p className="text-slate-400">
          {me.data
            ? `You are signed in as @${me.data.username}, which is not an admin account.`
            : 'Sign in with an admin account on LOLGram to open the moderation dashboard.'}
        </p>
        <Link to="/lolgram" className={buttonVariants()}>
          {me.data ? 'Back to LOLGram' : 'Sign in on LOLGram'}
        </Link>
      </main>
    );
  }
  return <AdminDashboard moderator={me.data.username} />;
}
