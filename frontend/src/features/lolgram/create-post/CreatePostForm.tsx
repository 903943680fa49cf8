import { CAPTION_MAX_LENGTH, messages, type LolgramUser } from '@tapgram/shared';
import { lazy, Suspense, useId, useState, type FormEvent } from 'react';
import { Button } from '../../../components/ui/button';
import { DialogFooter } from '../../../components/ui/dialog';
import { Input } from '../../../components/ui/input';
import { errorMessage } from '../../../lib/api';
import { useAuth } from '../../auth';
import { PhotoPicker } from './PhotoPicker';
import { useCreatePost } from './useCreatePost';
import { dataUrlToBlob } from '../lib/crop-image';
import { imageFileProblem, readImageFile } from '../lib/image-file';

/** Said when Share is pressed with an empty caption (the spec's form sent nothing, silently). */
export const ADD_A_CAPTION = 'Add a caption';

const CropDialog = lazy(() => import('./CropDialog').then((m) => ({ default: m.CropDialog })));

export function CreatePostForm({
  user,
  onDone,
  onSessionExpired,
}: {
  user: LolgramUser;
  onDone: () => void;
  /** The server no longer knows the user: they are signed out, and the dialog says so. */
  onSessionExpired: () => void;
}) {
  const { logout } = useAuth();
  const create = useCreatePost();
  const [source, setSource] = useState<string | null>(null);
  const [cropping, setCropping] = useState(false);
  const [cropped, setCropped] = useState<string | null>(null);
  const [caption, setCaption] = useState('');
  const [location, setLocation] = useState('');
  const [photoProblem, setPhotoProblem] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [captionMissing, setCaptionMissing] = useState(false);
  const captionId = useId();
  const captionProblemId = useId();
  const problemId = useId();

  const pick = async (file: File) => {
    setPhotoProblem(null);
    try {
      setSource(await readImageFile(file));
      setCropping(true);
    } catch (error) {
      setPhotoProblem(imageFileProblem(error));
    }
  };

  const remove = () => {
    setSource(null);
    setCropped(null);
  };

  const share = async (event: FormEvent) => {
    event.preventDefault();
    if (!caption.trim()) {
      setCaptionMissing(true);
      return;
    }
    if (!cropped || !user.id) return;
    setProblem(null);
    try {
      await create.mutateAsync({
        image: dataUrlToBlob(cropped),
        caption: caption.trim(),
        userId: user.id,
        locationName: location,
      });
      onDone();
    } catch (error) {
      const message = errorMessage(error);
      if (message.includes(messages.userNotFound)) {
        await logout();
        onSessionExpired();
      } else {
        setProblem(`Failed to create post: ${message}`);
      }
    }
  };

  return (
    <>
      <form onSubmit={share} className="grid gap-4">
        <PhotoPicker
          cropped={cropped}
          disabled={create.isPending}
          problem={photoProblem}
          onFile={(file) => void pick(file)}
          onRecrop={() => setCropping(true)}
          onRemove={remove}
        />
        <div className="grid gap-1.5">
          <label htmlFor={captionId} className="text-sm font-medium">
            Caption
          </label>
          <textarea
            id={captionId}
            value={caption}
            rows={3}
            maxLength={CAPTION_MAX_LENGTH}
            placeholder="Write a caption..."
            disabled={create.isPending}
            aria-invalid={captionMissing || undefined}
            aria-describedby={captionMissing ? captionProblemId : undefined}
            onChange={(event) => {
              setCaption(event.target.value);
              setCaptionMissing(false);
            }}
            className="w-full resize-none rounded-xl border border-slate-600 bg-slate-950 px-3 py-2 text-base text-slate-100 placeholder:text-slate-500"
          />
          {captionMissing && (
            <p id={captionProblemId} role="alert" className="text-sm text-red-400">
              {ADD_A_CAPTION}
            </p>
          )}
        </div>
        <label className="grid gap-1.5 text-sm font-medium">
          Location (optional)
          <Input
            value={location}
            placeholder="Add location"
            disabled={create.isPending}
            onChange={(event) => setLocation(event.target.value)}
          />
        </label>
        {problem && (
          <p id={problemId} role="alert" className="text-sm text-red-400">
            {problem}
          </p>
        )}
        <DialogFooter>
          <Button type="button" variant="outline" onClick={onDone} disabled={create.isPending}>
            Cancel
          </Button>
          <Button
            type="submit"
            disabled={!cropped || create.isPending}
            aria-describedby={problem ? problemId : undefined}
          >
            {create.isPending ? 'Sharing...' : 'Share'}
          </Button>
        </DialogFooter>
      </form>
      {source && cropping && (
        <Suspense fallback={null}>
          <CropDialog
            src={source}
            open={cropping}
            onCancel={() => setCropping(false)}
            onCropped={(dataUrl) => {
              setCropped(dataUrl);
              setCropping(false);
            }}
          />
        </Suspense>
      )}
    </>
  );
}
