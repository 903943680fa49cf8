import { useQuery } from '@tanstack/react-query';
import { ShieldAlert } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { Button, buttonVariants } from '../../components/ui/button';
import { meQuery, useAuth } from '../auth';
import { AuthDialog } from '../lolgram';
import { LolgramProviders } from '../lolgram';
import { AdminDashboard } from './AdminDashboard';
import { PlayerPage } from './PlayerPage';

function Checking() {
  return (
    <p role="status" className="p-12 text-center text-slate-400">
      Checking your access…
    </p>
  );
}

/** Who may see the dashboard is the server's answer (`isAdmin` of /me), asked again at sign-in. */
function AdminGate() {
  const me = useQuery({ ...meQuery, refetchOnMount: 'always' });
  // /admin/players/:playerId is a game player's page, behind the same check.
  const { playerId } = useParams();
  const { logout } = useAuth();
  const [signingIn, setSigningIn] = useState(false);
  const signedIn = me.isError ? null : me.data;
  // A sign-in's answer does not say whether the account is an admin: ask /me then.
  const adminUnknown = signedIn !== null && signedIn.isAdmin === undefined;
  const { isFetching, refetch } = me;
  useEffect(() => {
    if (adminUnknown && !isFetching) void refetch();
  }, [adminUnknown, isFetching, refetch]);

  if (adminUnknown || (isFetching && !me.isFetchedAfterMount)) return <Checking />;
  if (signedIn?.isAdmin) {
    return playerId !== undefined ? (
      <PlayerPage id={playerId} />
    ) : (
      <AdminDashboard moderator={signedIn.user.username} />
    );
  }

  const switchAccount = async () => {
    await logout();
    setSigningIn(true);
  };
  return (
    <main className="mx-auto flex min-h-screen max-w-md flex-col items-center justify-center gap-4 px-6 text-center">
      <ShieldAlert className="h-14 w-14 text-amber-300" aria-hidden="true" />
      <h1 className="text-3xl font-black">Admins only</h1>
      <p className="text-slate-400">
        {me.isError
          ? 'Your access could not be checked. Try again in a moment.'
          : signedIn
            ? `You are signed in as @${signedIn.user.username}, which is not an admin account.`
            : 'Sign in with an admin account to open the moderation dashboard.'}
      </p>
      <div className="flex flex-wrap justify-center gap-2">
        {signedIn ? (
          <Button onClick={() => void switchAccount()}>Sign in as an admin</Button>
        ) : (
          <Button onClick={() => setSigningIn(true)}>Sign in</Button>
        )}
        <Link to="/lolgram" className={buttonVariants({ variant: 'outline' })}>
          Back to LOLGram
        </Link>
      </div>
      {/* Admin accounts are made by the admin command, never signed up here. */}
      <AuthDialog open={signingIn} onOpenChange={setSigningIn} firstMode="login" />
    </main>
  );
}

/**
 * The dashboard (and a game player's page) for admins; everybody else gets a clear page and no
 * admin data is fetched.
 */
export function AdminPage() {
  return (
    <LolgramProviders>
      <AdminGate />
    </LolgramProviders>
  );
}
