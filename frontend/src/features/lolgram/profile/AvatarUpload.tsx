import type { LolgramUser } from '@tapgram/shared';
import { Camera } from 'lucide-react';
import { useRef, type ChangeEvent } from 'react';
import { useUploadAvatar } from './useUploadAvatar';
import { imageFileProblem, readImageFile } from '../lib/image-file';
import { serverError } from '../../../lib/server-error';
import { UserAvatar } from '../ui/UserAvatar';

/**
 * The signed-in user's avatar; choosing an image file replaces it. `onProblem` hears why a file
 * was not taken (not an image, damaged, refused by the server), and null when a new try starts.
 */
export function AvatarUpload({
  user,
  onProblem,
}: {
  user: LolgramUser;
  onProblem: (problem: string | null) => void;
}) {
  const input = useRef<HTMLInputElement>(null);
  const upload = useUploadAvatar(user.id);

  const onFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    onProblem(null);
    try {
      await readImageFile(file);
    } catch (error) {
      onProblem(imageFileProblem(error));
      return;
    }
    upload.mutate(file, {
      onError: (error) =>
        onProblem(`Failed to update your photo: ${serverError(error, 'please try again')}`),
    });
  };

  return (
    <>
      <button
        type="button"
        onClick={() => input.current?.click()}
        aria-label="Change profile photo"
        aria-busy={upload.isPending || undefined}
        className="group relative shrink-0 rounded-full"
      >
        <UserAvatar
          src={user.avatar}
          srcSet={user.avatarSrcset}
          size={80}
          username={user.username}
          className="h-20 w-20 border-2 border-amber-400/60"
        />
        <span className="absolute inset-0 flex items-center justify-center rounded-full bg-black/50 opacity-0 transition-opacity group-hover:opacity-100 group-focus-visible:opacity-100">
          <Camera className="h-6 w-6" aria-hidden="true" />
        </span>
      </button>
      <input
        ref={input}
        type="file"
        accept="image/*"
        className="hidden"
        data-testid="avatar-input"
        onChange={(event) => void onFile(event)}
      />
    </>
  );
}
