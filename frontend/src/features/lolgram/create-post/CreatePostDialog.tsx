import { Lock } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '../../../components/ui/dialog';
import { useAuth } from '../../auth';
import { CreatePostForm } from './CreatePostForm';

/** Closing the dialog unmounts the form, which resets the photo, caption and location. */
export function CreatePostDialog({
  open,
  onOpenChange,
  onSignIn,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onSignIn?: () => void;
}) {
  const { state } = useAuth();
  const user = state.isAuthenticated ? state.user : null;
  const [expired, setExpired] = useState(false);
  const change = (next: boolean) => {
    if (!next) setExpired(false);
    onOpenChange(next);
  };

  return (
    <Dialog open={open} onOpenChange={change}>
      <DialogContent>
        {user ? (
          <>
            <DialogHeader>
              <DialogTitle>Create New LOL</DialogTitle>
              <DialogDescription>Share a photo that made you laugh.</DialogDescription>
            </DialogHeader>
            <CreatePostForm
              user={user}
              onDone={() => change(false)}
              onSessionExpired={() => setExpired(true)}
            />
          </>
        ) : (
          <div className="flex flex-col items-center gap-4 py-4 text-center">
            <Lock className="h-10 w-10 text-amber-300" aria-hidden="true" />
            <DialogHeader>
              <DialogTitle className="text-center">Sign In Required</DialogTitle>
              <DialogDescription className="text-center">
                Please sign in to create posts on LOLGram
              </DialogDescription>
            </DialogHeader>
            {expired && (
              <p role="alert" className="text-sm font-semibold text-amber-200">
                Your session has expired. Please sign in again.
              </p>
            )}
            {onSignIn && (
              <Button
                size="lg"
                onClick={() => {
                  change(false);
                  onSignIn();
                }}
              >
                Login / Sign Up
              </Button>
            )}
          </div>
        )}
      </DialogContent>
    </Dialog>
  );
}
