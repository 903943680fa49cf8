import { IMAGE_MAX_BYTES } from '@tapgram/shared';
import type { Request, RequestHandler, Response } from 'express';
import multer from 'multer';
import { HttpError, ValidationError } from '../core/errors';

const FIELD_MAX_BYTES = 16 * 1024;

const parser = multer({
  storage: multer.memoryStorage(),
  limits: { fileSize: IMAGE_MAX_BYTES, files: 1, fields: 10, fieldSize: FIELD_MAX_BYTES },
});

export const uploadMessages = {
  malformed: 'The upload is not valid multipart form data, or it was cut short',
  imageTooLarge: `Image must be ${IMAGE_MAX_BYTES / 1024 / 1024} MB or smaller`,
  fieldTooLarge: 'A form field of the upload is too large',
} as const;

/**
 * The parser's refusals as answers. Its limits name themselves (multer's fixed texts); anything
 * else it reports is a body that is not multipart (no boundary, a truncated part, a malformed
 * header) and says so without echoing what the client sent.
 */
function refusal(error: unknown, field: string): HttpError {
  if (!(error instanceof multer.MulterError)) return new ValidationError(uploadMessages.malformed);
  switch (error.code) {
    case 'LIMIT_FILE_SIZE':
      return new HttpError(413, uploadMessages.imageTooLarge);
    case 'LIMIT_FIELD_VALUE':
      return new HttpError(413, uploadMessages.fieldTooLarge);
    case 'LIMIT_UNEXPECTED_FILE':
    case 'LIMIT_FILE_COUNT':
      return new ValidationError(`Bad upload: send one image, in the "${field}" field`);
    default:
      return new ValidationError(`Bad upload: ${error.message}`);
  }
}

/** Reads one multipart image field into memory; every refusal of the parser is a 4xx. */
export function singleImage(field: string): RequestHandler {
  const handler = parser.single(field);
  return (req: Request, res: Response, next) => {
    handler(req, res, (error: unknown) => {
      if (error) return next(refusal(error, field));
      if (!req.file)
        return next(new ValidationError(`An image is required in the "${field}" field`));
      next();
    });
  };
}
