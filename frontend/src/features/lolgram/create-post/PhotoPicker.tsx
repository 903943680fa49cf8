import { ImagePlus, Crop, Trash2 } from 'lucide-react';
import { useId, useRef, type ChangeEvent } from 'react';
import { Button } from '../../../components/ui/button';

/**
 * Picks a photo, then shows the cropped result with re-crop and remove; `problem` says why the
 * file just picked cannot be used (the form checks it: `accept` is only a hint to the browser).
 */
export function PhotoPicker({
  cropped,
  onFile,
  onRecrop,
  onRemove,
  disabled,
  problem = null,
}: {
  cropped: string | null;
  onFile: (file: File) => void;
  onRecrop: () => void;
  onRemove: () => void;
  disabled: boolean;
  problem?: string | null;
}) {
  const input = useRef<HTMLInputElement>(null);
  const problemId = useId();

  const onChange = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (file) onFile(file);
  };

  return (
    <div>
      <input
        ref={input}
        type="file"
        accept="image/*"
        className="hidden"
        data-testid="post-image-input"
        onChange={onChange}
      />
      {cropped ? (
        <div className="grid gap-2">
          <img
            src={cropped}
            alt="Cropped photo preview"
            className="aspect-square w-full rounded-xl object-cover"
          />
          <div className="flex gap-2">
            <Button
              type="button"
              variant="secondary"
              className="flex-1"
              onClick={onRecrop}
              disabled={disabled}
            >
              <Crop className="h-4 w-4" aria-hidden="true" />
              Re-crop
            </Button>
            <Button
              type="button"
              variant="secondary"
              className="flex-1"
              onClick={onRemove}
              disabled={disabled}
            >
              <Trash2 className="h-4 w-4" aria-hidden="true" />
              Remove
            </Button>
          </div>
        </div>
      ) : (
        <button
          type="button"
          onClick={() => input.current?.click()}
          aria-describedby={problem ? problemId : undefined}
          className="flex aspect-video w-full flex-col items-center justify-center gap-2 rounded-xl border-2 border-dashed border-slate-600 text-slate-300 hover:border-amber-300 hover:text-amber-200"
        >
          <ImagePlus className="h-10 w-10" aria-hidden="true" />
          <span className="font-semibold">Select photo</span>
          <span className="text-xs text-slate-400">You will crop it to a square next</span>
        </button>
      )}
      {problem && (
        <p id={problemId} role="alert" className="mt-2 text-sm text-red-400">
          {problem}
        </p>
      )}
    </div>
  );
}
