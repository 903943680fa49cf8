import { afterEach, expect } from 'vitest';
import { takeDrift } from '../api-answers';

// A stub that answered what the server never does fails its test, even if the screen coped.
afterEach(() => {
  expect(takeDrift(), 'stubbed answers that do not match the shared schemas').toEqual([]);
});
