import { ImageOff } from 'lucide-react';
import { Link } from 'react-router-dom';
import { Button } from '../../../components/ui/button';

export function PostNotFound() {
  return (
    <main className="mx-auto flex min-h-screen max-w-lg flex-col items-center justify-center gap-4 px-6 text-center">
      <ImageOff className="h-14 w-14 text-slate-500" aria-hidden="true" />
      <h1 className="text-2xl font-black">Post Not Found</h1>
      <p className="text-slate-400">This post doesn&apos;t exist or may have been removed.</p>
      <Button asChild size="lg">
        <Link to="/lolgram">Back to LOLGram</Link>
      </Button>
    </main>
  );
}
