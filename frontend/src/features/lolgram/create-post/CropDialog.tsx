import { useRef, useState, type SyntheticEvent } from 'react';
import ReactCrop, { convertToPixelCrop, type PercentCrop, type PixelCrop } from 'react-image-crop';
import 'react-image-crop/dist/ReactCrop.css';
import { Button } from '../../../components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '../../../components/ui/dialog';
import { cropToDataUrl, initialCrop } from '../lib/crop-image';
import { imageFileMessages } from '../lib/image-file';
import { CROP_MIN_SIZE } from '../../../lib/ui-constants';

export interface CropDialogProps {
  src: string;
  open: boolean;
  onCancel: () => void;
  onCropped: (dataUrl: string) => void;
}

export function CropDialog({ src, open, onCancel, onCropped }: CropDialogProps) {
  const image = useRef<HTMLImageElement>(null);
  const [crop, setCrop] = useState<PercentCrop>();
  const [pixels, setPixels] = useState<PixelCrop | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  const onLoad = (event: SyntheticEvent<HTMLImageElement>) => {
    const { width, height } = event.currentTarget;
    const start = initialCrop(width, height);
    setCrop(start);
    setPixels(convertToPixelCrop(start, width, height));
  };

  const applyCrop = () => {
    if (!image.current) return;
    try {
      onCropped(cropToDataUrl(image.current, pixels));
    } catch (error) {
      console.error('Cropping failed', error);
      setProblem(error instanceof Error ? error.message : 'Cropping failed');
    }
  };

  return (
    <Dialog open={open} onOpenChange={(next) => !next && onCancel()}>
      <DialogContent className="max-w-lg">
        <DialogHeader>
          <DialogTitle>Crop Your Photo</DialogTitle>
          <DialogDescription>
            Drag the square to frame your LOL. Arrow keys nudge it; hold Shift for bigger steps.
          </DialogDescription>
        </DialogHeader>
        <div className="flex justify-center rounded-xl bg-slate-950">
          <ReactCrop
            crop={crop}
            aspect={1}
            minWidth={CROP_MIN_SIZE}
            minHeight={CROP_MIN_SIZE}
            keepSelection
            ruleOfThirds
            // The library sizes the photo from here (its wrapper and image inherit the limit):
            // half the screen's height leaves the title and buttons in sight on a phone.
            className="max-h-[50vh]"
            onChange={(_pixel, percent) => setCrop(percent)}
            onComplete={(pixel) => setPixels(pixel)}
          >
            <img
              ref={image}
              src={src}
              alt="Photo to crop"
              onLoad={onLoad}
              onError={() => setProblem(imageFileMessages.unreadable)}
              className="max-h-[50vh] max-w-full"
            />
          </ReactCrop>
        </div>
        {problem && (
          <p role="alert" className="text-sm text-red-400">
            {problem}
          </p>
        )}
        <DialogFooter>
          <Button type="button" variant="outline" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="button" onClick={applyCrop} disabled={!pixels?.width || !pixels.height}>
            Use Photo
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
