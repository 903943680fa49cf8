import '@testing-library/jest-dom/vitest';
import { configure } from '@testing-library/react';

// findBy* and waitFor return as soon as what they wait for appears; their default of one second
// is a race with the clock on a loaded machine.
configure({ asyncUtilTimeout: 15_000 });
