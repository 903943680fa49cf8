import { Link } from 'react-router-dom';
import { buttonVariants } from '../../components/ui/button';

export function NotFoundPage() {
  return (
    <main className="flex min-h-screen flex-col items-center justify-center gap-4 px-6 text-center">
      <p className="text-6xl font-black text-amber-300">404</p>
      <h1 className="text-3xl font-bold">Page Not Found</h1>
      <p className="text-slate-400">The page you are looking for does not exist.</p>
      <Link to="/" className={buttonVariants()}>
        Go home
      </Link>
    </main>
  );
}
