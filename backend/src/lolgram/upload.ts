import { IMAGE_MAX_BYTES } from '@tapgram/shared';
import type { Request, RequestHandler, Response } from 'express';
import multer from 'multer';
import { HttpError, ValidationError } from '../core/errors';

const parser = multer({
  storage: multer.memoryStorage(),
  limits: { fileSize: IMAGE_MAX_BYTES, files: 1, fields: 10, fieldSize: 16 * 1024 },
});

/** Reads one multipart image field into memory, with the size limit as a 413. */
export function singleImage(field: string): RequestHandler {
  const handler = parser.single(field);
  return (req: Request, res: Response, next) => {
    handler(req, res, (error: unknown) => {
      if (error instanceof multer.MulterError) {
        if (error.code === 'LIMIT_FILE_SIZE') {
          next(new HttpError(413, `Image must be ${IMAGE_MAX_BYTES / 1024 / 1024} MB or smaller`));
        } else {
          next(new ValidationError(`Bad upload: ${error.message}`));
        }
        return;
      }
      if (error) return next(error);
      if (!req.file)
        return next(new ValidationError(`An image is required in the "${field}" field`));
      next();
    });
  };
}
