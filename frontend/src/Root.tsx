import { StrictMode, type ReactNode } from 'react';
import { App } from './App';
import { Providers } from './Providers';

/**
 * The whole app under a router: the browser's (main.tsx) or the build's (entry-server.tsx), so
 * that both render the same tree and hydration finds the markup it expects.
 */
export function Root({
  router: Router,
}: {
  router: (props: { children: ReactNode }) => ReactNode;
}) {
  return (
    <StrictMode>
      <Providers>
        <Router>
          <App />
        </Router>
      </Providers>
    </StrictMode>
  );
}
