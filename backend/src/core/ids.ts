import { idSchema } from '@tapgram/shared';

/** Whether `value` has the form of the ids this product hands out (the shared `idSchema`). */
export const isId = (value: string): boolean => idSchema.safeParse(value).success;
