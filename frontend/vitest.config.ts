import react from '@vitejs/plugin-react';
import { defineProject } from 'vitest/config';

export default defineProject({
  plugins: [react()],
  test: {
    name: 'frontend',
    root: __dirname,
    environment: 'happy-dom',
    include: ['test/**/*.test.{ts,tsx}'],
    setupFiles: ['test/setup/timers.ts', 'test/setup/matchers.ts', 'test/setup/answers.ts'],
  },
});
