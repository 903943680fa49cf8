import { beforeEach } from 'vitest';
import { setLiveConnector } from '../../src/features/auth/live-client';

// Screens signed in under test open no live socket unless the test hands in a stand-in.
beforeEach(() => {
  setLiveConnector(() => new Promise(() => undefined));
});
